// Unit tests for the "Measure it" view models (web/src/models/measure-model.js, stall-model.js,
// measure-tables.js) against real training reports from the lab_train WASM module — the same build
// the panel's Web Worker loads: byte pairs, the timeline, speed figures, the stall demo's series and
// the sentences that summarise each chart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine, loadTrainEngine } from '../../../scripts/engine-node.mjs';
import {
  trainRequest, DEFAULT_SETTINGS, CHOICES, bytePairs, ledgerScenario, bytesSummary, timelineModel, timelineSummary, speedRows, arithmeticSentence,
  speedSummary, phaseWords, stageOf, progressText, categoriesOf, liveSpeedReport, trainEndStatus, trainOutcome, STALL_SHARE,
} from '../../../web/src/models/measure-model.js';
import {
  lossRefs, lossSummary, STALL, stallRequests, stallModel, stallStats, stallLossSummary, stallUnchangedSummary,
} from '../../../web/src/models/stall-model.js';
import { bytesTable, timelineTable, seriesTable } from '../../../web/src/models/measure-tables.js';
import { formatSmallBytes, formatFlopRate, formatPercent } from '../../../web/src/format/format.js';

const engine = await loadTrainEngine();
const train = (req) => {
  const r = JSON.parse(engine.train(JSON.stringify(req)));
  assert.equal(r.error, undefined, JSON.stringify(r.error));
  return r;
};
const small = (s) => ({ ...trainRequest({ ...DEFAULT_SETTINGS, batch_size: 2, seq_len: 16, steps: 3, ...s }), measure_peak: false });

test('the panel settings become an engine request (every 2 layers as the object form, peak measured)', () => {
  const r = trainRequest({ ...DEFAULT_SETTINGS, checkpointing: 'every_2', precision: 'mixed' });
  assert.deepEqual(r.checkpointing, { every_k_layers: 2 });
  assert.equal(r.measure_peak, true);
  assert.equal(r.precision, 'mixed');
  assert.equal(trainRequest({}).checkpointing, 'none');
  for (const [key, values] of Object.entries(CHOICES)) assert.ok(values.includes(DEFAULT_SETTINGS[key]), key);
});

test('byte pairs carry the engine’s predicted and measured bytes per category, and they match', () => {
  const r = train(small({ optimizer: 'adam', precision: 'mixed' }));
  const pairs = bytePairs(r);
  assert.equal(pairs.match, true);
  assert.equal(pairs.measured_peak, r.memory.measured.peak_bytes);
  assert.equal(pairs.predicted_peak, r.memory.predicted.peak_bytes);
  for (const row of pairs.rows) {
    assert.equal(row.predicted_at_peak, r.memory.predicted.at_peak[row.name]);
    assert.equal(row.measured_at_peak, r.memory.measured.at_peak[row.name]);
    assert.equal(row.measured_max, r.memory.measured.max_by_category[row.name]);
    assert.equal(row.match, true);
  }
  const atPeak = pairs.rows.reduce((a, row) => a + row.measured_at_peak, 0);
  assert.equal(atPeak, r.memory.measured.peak_bytes);
  assert.ok(pairs.rows.some((row) => row.key === 'master_weights'));
  assert.ok(!pairs.rows.some((row) => row.key === 'momentum'), 'Adam has no momentum vector');
  const s = bytesSummary(pairs);
  assert.ok(s.includes(formatSmallBytes(r.memory.measured.peak_bytes)), s);
  assert.match(s, /match byte for byte/);
  const t = bytesTable(pairs);
  assert.equal(t.rows.at(-1).cells[1].value, r.memory.measured.peak_bytes);
  assert.equal(t.rows[0].cells[0].value, pairs.rows[0].predicted_at_peak);
});

test('the page ledger (lab_core, exact inventory mode) predicts the measured bytes of every category', async () => {
  const core = await loadEngine();
  for (const settings of [{ optimizer: 'adam', precision: 'mixed' }, { optimizer: 'momentum', precision: 'bf16', checkpointing: 'full' }]) {
    const r = train(small(settings));
    const ledger = JSON.parse(core.evaluate(JSON.stringify(ledgerScenario(r))));
    assert.equal(ledger.error, undefined, JSON.stringify(ledger.error));
    const pairs = bytePairs(r, ledger);
    assert.equal(pairs.source, 'ledger');
    assert.equal(pairs.match, true);
    assert.equal(pairs.predicted_peak, ledger.memory.peak_bytes);
    for (const row of pairs.rows) assert.equal(row.predicted_at_peak, ledger.memory.inventory.at_peak[row.name]);
    assert.match(bytesSummary(pairs), /memory ledger predicted/);
  }
  // A ledger for other settings is not a match: the comparison can fail.
  const r = train(small({ optimizer: 'adam', precision: 'fp32' }));
  const other = JSON.parse(core.evaluate(JSON.stringify({ ...ledgerScenario(r), precision: 'mixed' })));
  assert.equal(bytePairs(r, other).match, false);
});

test('before a step has run nothing is measured, and the summary says so', () => {
  const r = train(small({ steps: 0 }));
  const pairs = bytePairs(r);
  assert.equal(pairs.measured, false);
  assert.equal(pairs.rows[0].measured_at_peak, null);
  assert.match(bytesSummary(pairs), /nothing is measured/);
  assert.match(speedSummary(r), /No step has been timed/);
});

test('the timeline puts the peak in its phase, below the sum of every category’s maximum', () => {
  const r = train(small({}));
  const tl = timelineModel(r);
  assert.equal(tl.phases.length, r.memory.timeline.phases_total);
  assert.equal(tl.phases[tl.peakIndex].name, r.memory.measured.peak_phase);
  assert.equal(tl.phases[tl.peakIndex].measured_peak, r.memory.measured.peak_bytes);
  assert.equal(tl.phases[0].live_total, r.memory.measured.persistent_bytes);
  const sum = Object.values(r.memory.measured.max_by_category).reduce((a, b) => a + b, 0);
  assert.equal(tl.sum_of_max_bytes, sum);
  assert.ok(tl.peak_bytes < sum);
  assert.deepEqual(tl.stages.map((s) => s.stage), ['setup', 'forward', 'backward', 'optimizer']);
  const text = timelineSummary(tl);
  assert.ok(text.includes(formatSmallBytes(tl.peak_bytes)) && text.includes(formatSmallBytes(sum)), text);
  assert.match(text, /end of the forward pass/);
  const table = timelineTable(tl);
  assert.equal(table.rows.length, tl.phases.length);
  assert.match(table.rows[tl.peakIndex].header, /\(the peak\)/);
  // Words only (issue F5): no engine phase id anywhere, layers counted from 1, one cell per column.
  for (const row of table.rows) {
    assert.doesNotMatch(`${row.header} ${row.cells.map((c) => c.text).join(' ')}`, /\b(fwd|bwd|rec)\.|\bL\d/, row.header);
    assert.equal(row.cells.length, table.columns.length - 1);
  }
  assert.ok(table.rows.every((row) => !/layer 0\b/.test(row.header)));
  assert.ok(table.rows.some((row) => /^layer 1’s /.test(row.header)), table.rows.map((row) => row.header).join(' | '));
  const full = timelineModel(train(small({ checkpointing: 'full' })));
  assert.ok(full.stages.some((s) => s.stage === 'backward'));
  assert.match(timelineSummary(full), /during backward/);
});

test('phase names read as words', () => {
  assert.equal(phaseWords('bwd.L3.fc2'), 'layer 4’s MLP down-projection, backward');
  assert.equal(phaseWords('fwd.head'), 'output head (logits), forward');
  assert.equal(phaseWords('rec.L0.attn'), 'layer 1’s attention scores and softmax, recomputed during backward');
  assert.equal(phaseWords('opt'), 'optimizer step');
  assert.equal(stageOf('rec.L1.fc'), 'backward');
  assert.equal(stageOf('init'), 'setup');
  assert.equal(progressText(12, 40), 'Step 12 of 40');
});

test('speed figures are the engine’s throughput; MFU and the peak appear only when the peak was measured', () => {
  const r = train({ ...small({ checkpointing: 'full' }), measure_peak: true });
  const rows = Object.fromEntries(speedRows(r).map((row) => [row.key, row]));
  assert.equal(rows.model_flops_per_s.value, r.throughput.model_flops_per_s);
  assert.equal(rows.mfu.value, r.throughput.mfu);
  assert.equal(rows.peak_flops_per_s.text, formatFlopRate(r.peak.flops_per_s));
  assert.ok(rows.hfu && rows.executed_flops_per_s, 'recompute adds executed FLOP/s and HFU');
  assert.ok(speedSummary(r).includes(formatPercent(r.throughput.mfu, 1)));
  const plain = Object.fromEntries(speedRows(train(small({}))).map((row) => [row.key, row]));
  assert.equal(plain.mfu, undefined);
  assert.equal(plain.executed_flops_per_s, undefined);
  // The Node engine here is the plain build: the row names its arithmetic in words.
  assert.equal(r.flops.matmul_arithmetic, 'mul+add');
  assert.equal(rows.matmul_arithmetic.value, 'mul+add');
  assert.equal(rows.matmul_arithmetic.text, 'Multiply, then add');
  assert.match(arithmeticSentence(r), /multiplies, then adds: two instructions and two roundings/);
  const fusedReport = { ...r, flops: { ...r.flops, matmul_arithmetic: 'fma' } };
  const fused = Object.fromEntries(speedRows(fusedReport).map((row) => [row.key, row]));
  assert.equal(fused.matmul_arithmetic.text, 'Fused multiply-add');
  assert.match(arithmeticSentence(fusedReport), /relaxed SIMD: each multiply-add is one instruction with one rounding/);
  assert.equal(arithmeticSentence({ ...r, flops: { ...r.flops, matmul_arithmetic: undefined } }), '');
});

test('the loss summary quotes the engine’s losses, the uniform guess and the task floor', () => {
  const r = train(small({ steps: 4 }));
  const text = lossSummary(r.losses, r.task, 4);
  assert.ok(text.includes(r.losses[0].toFixed(2)) && text.includes(r.task.loss_floor_nats.toFixed(2)), text);
  assert.deepEqual(lossRefs(r.task).map((x) => x.value), [r.task.uniform_loss_nats, r.task.loss_floor_nats]);
  assert.equal(categoriesOf(r)[0].key, 'weights');
});

test('stall demo: pure BF16 leaves most weights unchanged while the FP32 master of mixed precision keeps moving', () => {
  const steps = 12;
  const reqs = stallRequests('bf16', steps);
  assert.equal(reqs.pure.seed, reqs.mixed.seed);
  assert.equal(reqs.mixed.precision, 'mixed');
  assert.equal(reqs.mixed.mixed_half, 'bf16');
  assert.equal(reqs.pure.learning_rate, STALL.learning_rate);
  const reports = { pure: train(reqs.pure), mixed: train(reqs.mixed) };
  const model = stallModel('bf16', reports);
  const pure = model.unchanged.find((s) => s.key === 'pure');
  assert.equal(pure.values[0], reports.pure.stall.weights_unchanged_per_step[0] / reports.pure.stall.weight_elements);
  const stats = stallStats(model);
  assert.ok(stats.pure.unchanged > 0.5, `pure BF16 unchanged ${stats.pure.unchanged}`);
  assert.ok(stats.mixed.unchanged < 0.05, `mixed master unchanged ${stats.mixed.unchanged}`);
  assert.ok(stats.mixed.drop > 0, 'mixed precision learns');
  assert.ok(stats.mixed.drop > stats.pure.drop, `mixed ${stats.mixed.drop} vs pure ${stats.pure.drop}`);
  assert.match(stallUnchangedSummary(model), new RegExp(`Pure BF16 left ${formatPercent(stats.pure.unchanged)}`));
  assert.match(stallLossSummary(model), /^Over 12 steps, pure BF16 went from .* while mixed precision went from/);
  const table = seriesTable(model.loss);
  assert.equal(table.rows.length, steps);
  assert.deepEqual(table.columns, ['Step', 'Pure BF16', 'Mixed BF16']);
  assert.equal(reports.mixed.storage.weights, 'bf16');
  // Before the reports arrive the live losses are drawn; only finished runs give unchanged shares.
  const live = stallModel('fp16', { pure: null, mixed: null }, { pure: [4.1, 4.0] });
  assert.deepEqual(live.loss[0].values, [4.1, 4.0]);
  assert.equal(live.unchanged.length, 0);
  assert.equal(stallLossSummary(live), 'Pure FP16, running: 2 steps so far, loss 4.10 → 4.00 nats.');
  assert.match(stallLossSummary(stallModel('bf16', { pure: null, mixed: null })), /has not run yet/);
});

test('a diverged run (pure FP16 with Adam) is described as diverged, and its table says where the loss stopped being a number', () => {
  const r = train(small({ precision: 'fp16', optimizer: 'adam', steps: 6 }));
  const bad = r.losses.findIndex((x) => x === null);
  assert.ok(bad > 0, `expected the run to diverge: ${JSON.stringify(r.losses)}`);
  const text = lossSummary(r.losses, r.task, 6, r);
  assert.match(text, new RegExp(`^The run diverged: from step ${bad + 1} of 6 the loss is no longer a finite number`));
  assert.match(text, new RegExp(`skipped ${r.skipped_steps.length} of 6 updates`));
  const table = seriesTable([{ key: 'loss', label: 'loss', values: r.losses }]);
  assert.equal(table.rows[bad].cells[0].text, 'not a number (diverged)');
  assert.equal(table.rows[bad].cells[0].value, undefined);
  assert.equal(table.rows[0].cells[0].value, r.losses[0]);
  // The run's status line says it failed, that it diverged and from which step (not "Done"), with the
  // loss scaler's skipped updates from the same report; its state is 'failed', never 'done'.
  const end = trainEndStatus({ outcome: 'done', stepsDone: 6, stepsTotal: 6, seconds: 8.25, report: r });
  assert.equal(end.state, 'failed');
  assert.ok(r.skipped_steps.length > 0, 'the loss scaler skipped updates');
  // Each skip's cause comes from the losses (a loss that was not a number gives no gradient to apply),
  // and the cause of the failure is Adam's v in FP16, not an overflowing gradient (helper-32 traced it).
  assert.deepEqual(r.skipped_steps, r.losses.map((x, i) => (x === null ? i : -1)).filter((i) => i >= 0), 'every skipped step is one whose loss was not a number');
  assert.equal(bad, 1, 'not a number from step 2, after the one update');
  assert.equal(end.text, `Failed — the run diverged: from step 2, right after the first update, the loss is no longer a number, and the loss scaler skipped ${r.skipped_steps.length} of 6 updates, each because the loss was no longer a number (6 steps in 8.3 s of training). `
    + 'Pure FP16 keeps Adam’s second moment v in FP16, where the square of a small gradient rounds to zero; the update then divides by ε alone and moves weights by far more than the learning rate, and the next forward pass overflows FP16. Pure BF16, with FP32’s range, does not break this way.');
  assert.doesNotMatch(text, /overflowed/, 'the loss summary no longer blames a gradient');
  assert.match(text, new RegExp(`The loss scaler skipped ${r.skipped_steps.length} of 6 updates, each because the loss was no longer a number\.$`));
  // Pure BF16 with the same Adam settings trains: no cause sentence to give.
  const bf = train(small({ precision: 'bf16', optimizer: 'adam', steps: 6 }));
  assert.equal(trainOutcome(bf).adam16, false);
  assert.ok(bf.losses.every(Number.isFinite), JSON.stringify(bf.losses));
  // Cancelled after it diverged: still a failure, and says where it stopped.
  const cut = trainEndStatus({ outcome: 'cancelled', stepsDone: 6, stepsTotal: 80, report: r });
  assert.equal(cut.state, 'failed');
  assert.match(cut.text, /^Failed — the run diverged: .* \(cancelled after 6 of 80 steps\)\. Pure FP16 keeps/);
  // The speed sentence says these steps did not train, with the same report's numbers.
  const speed = speedSummary(r);
  assert.ok(speed.startsWith(`Over 6 steps the model ran at ${formatFlopRate(r.throughput.model_flops_per_s)}`), speed);
  assert.ok(speed.includes(`But these steps did not train: the loss diverged at step ${bad + 1} and the loss scaler skipped ${r.skipped_steps.length} of 6 updates`), speed);
});

test('a run that trained ends as done; one whose loss scaler skipped most updates, or whose updates mostly changed nothing, does not', () => {
  const r = train(small({ steps: 4 }));
  assert.equal(trainOutcome(r).kind, 'trained');
  const ok = trainEndStatus({ outcome: 'done', stepsDone: 4, stepsTotal: 4, seconds: 8.25, report: r });
  assert.deepEqual([ok.state, ok.text], ['done', 'Done: 4 steps in 8.3 s of training.']);
  assert.doesNotMatch(speedSummary(r), /did not train/);
  const cancelled = trainEndStatus({ outcome: 'cancelled', stepsDone: 4, stepsTotal: 40, report: r });
  assert.deepEqual([cancelled.state, cancelled.text], ['cancelled', 'Cancelled after 4 of 40 steps.']);
  // The same report with 3 of its 4 updates skipped (finite losses): the run did not train.
  const skipped = { ...r, skipped_steps: [1, 2, 3] };
  const s = trainEndStatus({ outcome: 'done', stepsDone: 4, stepsTotal: 4, seconds: 1, report: skipped });
  assert.equal(s.state, 'failed');
  // FP32 has no loss scaler (its request says so): the engine itself skips a step whose gradient is not finite.
  assert.equal(skipped.request.loss_scale.mode, 'none');
  assert.equal(s.text, 'Failed — the run did not train: the engine skipped 3 of 4 updates because a gradient overflowed (4 steps in 1.0 s of training).');
  const scaled = { ...skipped, request: { ...skipped.request, loss_scale: { ...skipped.request.loss_scale, mode: 'dynamic' } } };
  assert.match(trainEndStatus({ outcome: 'done', stepsDone: 4, stepsTotal: 4, seconds: 1, report: scaled }).text, /the loss scaler skipped 3 of 4 updates because a gradient overflowed/);
  assert.match(speedSummary(skipped), /But these steps did not train: the engine skipped 3 of 4 updates because a gradient overflowed, so this is the speed of a failed run \(a skipped update leaves out the optimizer’s work\)\.$/);
  // One skipped update of four (the dynamic scaler finding its level) is not a failure.
  assert.equal(trainEndStatus({ stepsDone: 4, seconds: 1, report: { ...r, skipped_steps: [0] } }).state, 'done');
  // Pure BF16, plain SGD, a small learning rate: most weights come out of each update unchanged.
  const pure = train(small({ precision: 'bf16', optimizer: 'sgd', learning_rate: 0.0003, steps: 4 }));
  const st = pure.stall;
  const share = st.weights_unchanged_per_step.reduce((a, b) => a + b, 0) / st.weights_unchanged_per_step.length / st.weight_elements;
  assert.ok(share > STALL_SHARE, `pure BF16 unchanged share ${share}`);
  const stalled = trainEndStatus({ stepsDone: 4, stepsTotal: 4, seconds: 1, report: pure });
  assert.equal(stalled.state, 'stalled');
  assert.equal(stalled.text, `Stalled — most updates changed nothing: on average ${formatPercent(share)} of the weights came out of each update bit-for-bit unchanged (4 steps in 1.0 s of training). `
    + 'Pure BF16 keeps no FP32 master copy, so updates smaller than half the gap between neighbouring 16-bit numbers round away.');
  // Mixed precision at the same settings: its 16-bit copy also barely moves, but the FP32 master
  // (the copy that keeps the update) does, so that run trained.
  const mixed = train(small({ precision: 'mixed', optimizer: 'sgd', learning_rate: 0.0003, steps: 4 }));
  assert.equal(trainOutcome(mixed).kind, 'trained');
  assert.equal(trainEndStatus({ stepsDone: 4, seconds: 1, report: mixed }).state, 'done');
});

test('while a run goes, a loss that stopped being a number makes the speed sentence say the steps did not train', () => {
  const r = train({ ...small({ steps: 2 }), measure_peak: false });
  const live = liveSpeedReport(r, [0.03, 0.03, 0.03, 0.03], [r.losses[0], r.losses[1], null, null]);
  assert.match(speedSummary(live), /But these steps did not train: the loss diverged at step 3, so this is the speed of a failed run\.$/);
  assert.doesNotMatch(speedSummary(liveSpeedReport(r, [0.03, 0.03, 0.03], [...r.losses, 3.9])), /did not train/);
});

test('while a run goes the speed figures follow the steps so far (median), not the first chunk', () => {
  const r = train({ ...small({ steps: 4 }), measure_peak: true });
  // Step times as the progress messages carry them: a slow warm-up step, then fast ones.
  const live = liveSpeedReport(r, [0.150, 0.035, 0.034, 0.036, 0.035]);
  assert.equal(live.time.median_seconds_per_step, 0.035);
  assert.equal(live.time.steps, 5);
  assert.ok(Math.abs(live.throughput.model_flops_per_s - r.flops.model_per_step / 0.035) < 1e-6);
  assert.ok(Math.abs(live.throughput.mfu - live.throughput.model_flops_per_s / r.peak.flops_per_s) < 1e-12);
  assert.equal(live.throughput.tokens_per_s, r.model.tokens_per_step / 0.035);
  const rows = Object.fromEntries(speedRows(live).map((row) => [row.key, row]));
  assert.equal(rows.seconds_per_step.text, '35.0 ms');
  // Even counts take the mean of the two middle steps; no times yet leaves the report as it is.
  assert.equal(liveSpeedReport(r, [0.02, 0.04]).time.median_seconds_per_step, 0.03);
  assert.equal(liveSpeedReport(r, []), r);
});

test('a pure 16-bit run that did train here ends with a caution, never a plain success (walk 10)', () => {
  // Pure BF16 with Adam: updates large enough to land, the loss falls.
  const pure = train(small({ precision: 'bf16', optimizer: 'adam', learning_rate: 0.003, steps: 4 }));
  const o = trainOutcome(pure);
  assert.equal(o.kind, 'trained');
  assert.equal(o.pure16, true);
  const s = trainEndStatus({ stepsDone: 4, stepsTotal: 4, seconds: 1, report: pure });
  assert.equal(s.state, 'caution');
  assert.match(s.text, /^Done, but without an FP32 master copy \(4 steps in 1\.0 s of training\): \d+% of the weights came out of an update unchanged on average\. Pure BF16 rounds away every update smaller than half the gap/);
  assert.match(s.text, /section 6 shows it with SGD’s smaller updates\)\.$/);
  // Mixed precision at the same settings is a plain success.
  assert.equal(trainEndStatus({ stepsDone: 4, seconds: 1, report: train(small({ precision: 'mixed', optimizer: 'adam', learning_rate: 0.003, steps: 4 })) }).state, 'done');
});

test('a run shorter than 0.05 s is "under 0.1 s", never "0.0 s" (walk 10)', () => {
  const r = train(small({ steps: 2 }));
  assert.match(trainEndStatus({ stepsDone: 2, stepsTotal: 2, seconds: 0.02, report: r }).text, /2 steps in under 0\.1 s of training/);
  assert.match(trainEndStatus({ stepsDone: 2, stepsTotal: 2, seconds: 0.06, report: r }).text, /2 steps in 0\.1 s of training/);
});
