// Unit tests for web/src/models/act2-model.js (Act 2's DOM-free view models) on results of the real engine
// (the WASM build under Node), plus hand-made edge cases.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../../scripts/engine-node.mjs';
import {
  roundToSum, stepBar, timelineLanes, gauges, regimeReached, betterBest, rangeError, nearestRange,
  describeMove, laptopMove, laptopState, checkpointNumbers, STEP_SEGMENTS, designCounts, designRecord, regimeReachedAt, withNotAsked, floorRoundedSum,
} from '../../../web/src/models/act2-model.js';
import { act2Complete } from '../../../web/src/state/completion.js';
import { nearestByRatio } from '../../../web/src/format/scoring.js';
import { DEFAULT_CONFIG2, CHAPTER_TUNED2, toScenario2, toLaptopScenario, LAPTOP_START } from '../../../web/src/state/scenario.js';
import { formatPercent } from '../../../web/src/format/format.js';

const pct = (x) => formatPercent(x, 1);

const m = await loadEngine();
const evaluate = (s) => JSON.parse(m.evaluate(JSON.stringify(s)));
const baseline = evaluate(toScenario2(DEFAULT_CONFIG2));
const tuned = evaluate(toScenario2(CHAPTER_TUNED2));

test('rounded terms add up to the rounded total', () => {
  assert.deepEqual(roundToSum([33.333, 33.333, 33.334], 1), [33.3, 33.3, 33.4]);
  const parts = [0.4449, 0.2501, 0.3050];
  const r = roundToSum(parts.map((x) => x * 100), 1);
  assert.equal(Math.round(r.reduce((a, b) => a + b, 0) * 10), 1000);
  for (let seed = 1; seed < 50; seed += 1) {
    const xs = Array.from({ length: 6 }, (_, i) => ((seed * 7919 * (i + 3)) % 1000) / 37);
    const total = Math.round(xs.reduce((a, b) => a + b, 0) * 100);
    assert.equal(Math.round(roundToSum(xs, 2).reduce((a, b) => a + b, 0) * 100), total);
  }
});

test('the step bar sums to the step time, splits recompute out of compute and lands on the chapter profile', () => {
  for (const r of [baseline, tuned]) {
    const b = stepBar(r.pipeline);
    const sum = b.segments.reduce((a, s) => a + s.seconds, 0);
    assert.ok(Math.abs(sum - r.pipeline.step_seconds) < 1e-9 * r.pipeline.step_seconds);
    assert.equal(Math.round(b.segments.reduce((a, s) => a + s.share_pct_shown, 0) * 10), 1000);
    assert.deepEqual(b.segments.map((s) => s.key), STEP_SEGMENTS.map((s) => s.key));
    const rec = b.segments.find((s) => s.key === 'recompute');
    assert.ok(Math.abs(rec.seconds - r.pipeline.gpu.recompute_seconds) < 1e-9);
  }
  const base = stepBar(baseline.pipeline).segments;
  assert.equal(base.find((s) => s.key === 'data_loading').share_pct_shown, 40);
  // The chapter's 25% copies: the host side and the DMA into the GPU, which GPU busy counts (10%).
  assert.equal(base.find((s) => s.key === 'transfer').share_pct_shown + base.find((s) => s.key === 'dma').share_pct_shown, 25);
  assert.equal(base.find((s) => s.key === 'dma').share_pct_shown, 10);
  const t = stepBar(tuned.pipeline).segments;
  assert.equal(t.find((s) => s.key === 'data_loading').share_pct_shown, 5);
  assert.ok(t.find((s) => s.key === 'data_loading').hidden_seconds > 0, 'prefetch hides loading work');
  assert.equal(base.find((s) => s.key === 'data_loading').hidden_seconds, 0);
});

// Issue 23: one name and one value per quantity. The bar's brackets carry the gauges' own values
// (each rounded on its own), the segments inside each bracket add up to it, and all add to 100%.
test('the step bar’s brackets show GPU busy, GPU kernels and pipeline efficiency with the gauges’ values, and the segments inside add up to them', () => {
  const shown = (x) => Number(pct(x).replace('%', ''));
  const configs = [DEFAULT_CONFIG2, CHAPTER_TUNED2, { ...DEFAULT_CONFIG2, replay: false }, { ...DEFAULT_CONFIG2, precision: 'fp32', checkpointing: 'full', batch_size: 8 },
    { ...CHAPTER_TUNED2, pinned_memory: false, data_workers: 3 }, { ...DEFAULT_CONFIG2, checkpointing: 'none', batch_size: 1 }];
  for (const c of configs) {
    const p = evaluate(toScenario2(c)).pipeline;
    const b = stepBar(p);
    const span = (k) => b.spans.find((s) => s.key === k);
    const inside = (k) => b.segments.filter((s) => s.start_seconds >= span(k).start_seconds - 1e-12 && s.start_seconds + s.seconds <= span(k).end_seconds + 1e-12);
    const sum = (segs) => Math.round(segs.reduce((a, s) => a + s.share_pct_shown, 0) * 10) / 10;
    assert.equal(span('busy').pct_shown, shown(p.busy_fraction), JSON.stringify(c));
    assert.equal(span('kernels').pct_shown, shown(p.chapter_shares.compute), JSON.stringify(c));
    assert.equal(span('pe').pct_shown, shown(p.pipeline_efficiency), JSON.stringify(c));
    for (const k of ['busy', 'kernels', 'pe']) assert.equal(sum(inside(k)), span(k).pct_shown, `${k} ${JSON.stringify(c)}`);
    assert.equal(sum(b.segments), 100);
    assert.deepEqual(inside('pe').map((s) => s.key), ['compute', 'recompute']);
    assert.ok(b.segments.every((s) => s.share_pct_shown >= 0 && Math.abs(s.share_pct_shown - 100 * s.share) < 0.16), JSON.stringify(b.segments.map((s) => [s.key, s.share_pct_shown, 100 * s.share])));
  }
});

test('timeline lanes follow the schedule, in a fixed order, and prefetch adds the workers lane', () => {
  const a = timelineLanes(baseline.pipeline);
  const b = timelineLanes(tuned.pipeline);
  assert.ok(!a.lanes.some((l) => l.key === 'cpu_data'), 'no workers: the training process loads');
  assert.ok(b.lanes.some((l) => l.key === 'cpu_data'));
  assert.equal(a.steps, 3);
  const count = a.lanes.reduce((n, l) => n + l.segments.length, 0);
  assert.equal(count, baseline.pipeline.schedule.segments.length);
  assert.ok(Math.abs(a.end_seconds - 3 * baseline.pipeline.step_seconds) < 1e-6 * a.end_seconds);
});

test('gauges keep busy ≥ pipeline efficiency ≥ MFU across batch, precision and loader settings', () => {
  for (const batch of [16, 64, 256]) for (const precision of ['fp32', 'mixed']) for (const w of [0, 4]) {
    const r = evaluate(toScenario2({ ...DEFAULT_CONFIG2, batch_size: batch, precision, data_workers: w, prefetch: w > 0 }));
    const g = gauges(r);
    assert.ok(g.order_holds, JSON.stringify({ batch, precision, w, g }));
    assert.ok(g.mfu <= g.mfu_ceiling + 1e-12);
  }
  assert.equal(gauges(evaluate(toScenario2(DEFAULT_CONFIG2, { checkpointing: 'none' }))).hfu, null, 'no recompute: no HFU');
  assert.ok(gauges(baseline).hfu > gauges(baseline).mfu);
});

test('the design challenge: the baseline is outside the tuned regime, the chapter’s tuned loop is inside', () => {
  assert.equal(regimeReached(baseline.pipeline), false);
  assert.equal(regimeReached(tuned.pipeline), true);
  let best = betterBest(null, DEFAULT_CONFIG2, baseline);
  assert.equal(best.mfu, baseline.pipeline.mfu);
  best = betterBest(best, CHAPTER_TUNED2, tuned);
  assert.equal(best.config.data_workers, 8);
  assert.equal(betterBest(best, DEFAULT_CONFIG2, baseline), best, 'a slower step does not replace the best');
  // Issue 23: the goal is the fastest step. FP32 with full recompute at batch 256 has the higher MFU
  // (against FP32's peak, eight times lower) and runs slower: it does not replace mixed precision.
  const mixed = { ...CHAPTER_TUNED2, batch_size: 256, checkpointing: 'full' }; // the chapter calibration: both fit on the V100
  const fp32 = { ...mixed, precision: 'fp32' };
  const rm = evaluate(toScenario2(mixed));
  const rf = evaluate(toScenario2(fp32));
  assert.ok(rm.memory.fits && rf.memory.fits && rf.pipeline.mfu > rm.pipeline.mfu && rf.pipeline.tokens_per_second < rm.pipeline.tokens_per_second);
  const fast = betterBest(null, mixed, rm);
  assert.equal(betterBest(fast, fp32, rf), fast);
  assert.equal(betterBest(betterBest(null, fp32, rf), mixed, rm).config.precision, 'mixed');
  // Throughput, MFU and their peaks: MFU = tokens/s ÷ the tokens/s the GPU's peak would give.
  assert.equal(fast.tokens_per_second, rm.pipeline.tokens_per_second);
  assert.equal(fast.peak_flops_per_s, rm.flops.peak_flops_per_s);
  assert.ok(Math.abs(fast.tokens_per_second / fast.peak_tokens_per_second - fast.mfu) < 1e-9 * fast.mfu);
  // A best recorded under the old goal (no throughput) gives way to the next run that fits.
  const { tokens_per_second: _t, ...old } = fast;
  assert.equal(betterBest(old, DEFAULT_CONFIG2, baseline).config.data_workers, 0);
  const oom = evaluate(toScenario2(DEFAULT_CONFIG2, { replay: false, batch_size: 256, checkpointing: 'none' }));
  assert.equal(oom.memory.fits, false);
  assert.equal(betterBest(null, DEFAULT_CONFIG2, oom), null, 'a step that does not fit is never a best');
});

test('the nearest option on a ratio scale', () => {
  assert.equal(nearestByRatio([0.9, 0.65, 0.45, 0.212], 0.2567), 3);
  assert.equal(nearestByRatio([2, 4, 12, 48], 11.4), 2);
});

test('laptop moves: words, recorded peak, and pure 16-bit never reads as a fit that trains', () => {
  assert.equal(describeMove(LAPTOP_START, { ...LAPTOP_START, precision: 'mixed' }), '→ mixed precision');
  assert.equal(describeMove(LAPTOP_START, { ...LAPTOP_START, checkpointing: 'every_k', every_k: 6, batch_size: 1 }), '→ checkpoint every 6 layers, batch 1');
  const start = evaluate(toLaptopScenario(LAPTOP_START));
  assert.equal(laptopState(start), 'oom');
  const pure = { ...LAPTOP_START, precision: 'fp16', optimizer: 'sgd', checkpointing: 'full', batch_size: 1 };
  const r = evaluate(toLaptopScenario(pure));
  assert.equal(r.memory.fits, true);
  assert.equal(laptopState(r), 'invalid');
  const mv = laptopMove('→ pure FP16', pure, r);
  assert.equal(mv.peak_bytes, r.memory.peak_bytes);
  assert.equal(mv.trainable, false);
  const floorCfg = { ...LAPTOP_START, precision: 'mixed', optimizer: 'sgd', checkpointing: 'full', batch_size: 1 };
  assert.equal(evaluate(toLaptopScenario(floorCfg)).memory.peak_bytes, 13750253056, 'the full minimum in core/solver/README.md');
});

test('checkpointing numbers: the chapter’s flat 4× and 33% in replay, the physics model otherwise', () => {
  const withC = evaluate(toScenario2(DEFAULT_CONFIG2));
  const without = evaluate(toScenario2(DEFAULT_CONFIG2, { checkpointing: 'none' }));
  const c = checkpointNumbers(withC, without);
  assert.ok(Math.abs(c.ratio - 4) < 1e-9);
  assert.ok(Math.abs(c.overhead - 0.33) < 0.005);
  const phys = checkpointNumbers(evaluate(toScenario2(DEFAULT_CONFIG2, { replay: false })), evaluate(toScenario2(DEFAULT_CONFIG2, { replay: false, checkpointing: 'none' })));
  assert.ok(phys.ratio > 4 && phys.ratio < 48, String(phys.ratio));
});

test('a range answer is right when the truth is inside it, and otherwise off by the nearer edge', () => {
  assert.deepEqual(rangeError(0.15, 0.30, 0.257), { ratio: 1, direction: 'exact' });
  const over = rangeError(0.85, 0.95, 0.257);
  assert.equal(over.direction, 'over');
  assert.ok(Math.abs(over.ratio - 0.85 / 0.257) < 1e-12);
  assert.equal(rangeError(0.15, 0.30, 0.6).direction, 'under');
  assert.throws(() => rangeError(0.3, 0.2, 0.25));
  const ranges = [[0.85, 0.95], [0.6, 0.7], [0.4, 0.5], [0.15, 0.3]];
  assert.equal(nearestRange(ranges, 0.257), 3);
  assert.equal(nearestRange(ranges, 0.34), 3, '0.34 is 1.13× above 0.30 and 1.18× below 0.40');
  assert.equal(nearestRange(ranges, 0.52), 2);
  assert.equal(nearestRange(ranges, 0.56), 1, '0.56 is 1.07× below 0.60 and 1.12× above 0.50');
});

// Walk finding MAJOR-2: a shared link marked the design challenge done before the prediction.
test('the design challenge records nothing before the prediction, nor for settings the student has not reached', () => {
  const empty = { regime_reached: false, best: null };
  const fresh = { prediction: null, explored: false, design: empty };
  assert.equal(designCounts(fresh), false, 'locked: nothing counts');
  assert.equal(designCounts({ ...fresh, explored: true }), false, 'never before the prediction');
  const locked = { ...fresh, prediction: { choice: 'd' } };
  assert.equal(designCounts(locked), false, 'the settings that came with the page do not count');
  // Walk 6: with every control locked nothing is the student's design (the act does not ask for it).
  assert.equal(designCounts(locked, true), false, 'every control locked: nothing counts');
  assert.equal(designCounts({ ...locked, explored: true }, true), false, 'not even after exploring earlier');
  assert.equal(designCounts({ ...locked, explored: true }), true);
  // Explored on an earlier visit, then a link brought new settings: not the student's until they move.
  assert.equal(designCounts({ ...locked, explored: true }, false, true), false, 'a link’s settings after an earlier visit');
  assert.equal(designCounts(locked, true, true), false, 'every control locked, from a link: nothing counts');
  const args = { reached: true, config: CHAPTER_TUNED2, result: tuned };
  assert.equal(designRecord(empty, { ...args, counts: false }), empty, 'a link’s tuned loop before unlocking leaves the record as it was');
  const rec = designRecord(empty, { ...args, counts: true });
  assert.equal(rec.regime_reached, true);
  assert.equal(rec.best.mfu, tuned.pipeline.mfu);
  assert.equal(designRecord(rec, { ...args, counts: true }), rec, 'the same settings again change nothing');
  const lower = designRecord(rec, { reached: false, config: DEFAULT_CONFIG2, result: baseline, counts: true });
  assert.equal(lower, rec, 'a lower MFU keeps the best and the regime');
  // Issue 24: the settings that first reached the regime are kept, so a ledger check can re-compute it.
  assert.deepEqual(rec.regime_config, CHAPTER_TUNED2);
  assert.notEqual(rec.regime_config, CHAPTER_TUNED2, 'a copy');
  assert.equal(regimeReachedAt(CHAPTER_TUNED2, tuned), true);
  assert.equal(regimeReachedAt({ ...CHAPTER_TUNED2, replay: false }, tuned), false, 'the challenge counts with the calibration on');
  assert.equal(regimeReachedAt(DEFAULT_CONFIG2, baseline), false);
  const noRegime = designRecord(empty, { reached: false, config: DEFAULT_CONFIG2, result: baseline, counts: true });
  assert.equal('regime_config' in noRegime, false, 'a best design outside the regime keeps no regime settings');
  assert.deepEqual(designRecord(noRegime, { ...args, counts: true }).regime_config, CHAPTER_TUNED2);
  // Student walk: a faster step timed by the physics model (calibration off) is not the fastest step.
  const physics = { ...CHAPTER_TUNED2, replay: false, device: 'h100-sxm-80gb' };
  const physicsResult = evaluate(toScenario2(physics, { schedule_steps: 0 }));
  assert.ok(physicsResult.memory.fits && physicsResult.pipeline.tokens_per_second > rec.best.tokens_per_second, 'the physics step is faster');
  assert.equal(designRecord(rec, { reached: false, counts: true, config: physics, result: physicsResult, bestCounts: false }), rec, 'it leaves the record as it was');
  assert.equal(designRecord(rec, { reached: false, counts: true, config: physics, result: physicsResult }).best.config.replay, false, 'counted by default');
});

test('the design record says why the regime was not asked, only while it is not reached', () => {
  const empty = { regime_reached: false, best: null };
  assert.equal(withNotAsked(empty, null), empty, 'asked: nothing to add');
  const out = withNotAsked(empty, 'out_of_reach');
  assert.deepEqual(out, { regime_reached: false, best: null, not_asked: 'out_of_reach' });
  assert.equal(withNotAsked(out, 'out_of_reach'), out, 'the same reason again changes nothing');
  assert.deepEqual(withNotAsked(out, 'calibration_fixed_off').not_asked, 'calibration_fixed_off');
  assert.deepEqual(Object.keys(withNotAsked(out, null)), ['regime_reached', 'best'], 'asked again: the key goes, as in older records');
  // A reached regime was asked, whatever the lab says now.
  assert.equal(withNotAsked({ regime_reached: true, best: null }, 'out_of_reach').not_asked, undefined);
  // Reaching it (under other settings) drops the reason from the record.
  const reached = designRecord(out, { reached: true, counts: true, config: CHAPTER_TUNED2, result: tuned });
  assert.equal(reached.regime_reached, true);
  assert.equal('not_asked' in reached, false);
  // A better best without the regime keeps the reason.
  assert.equal(designRecord(out, { reached: false, counts: true, config: DEFAULT_CONFIG2, result: baseline }).not_asked, 'out_of_reach');
});

test('the laptop floor table says what its rounded rows add to when that is not the rounded total', () => {
  const floor = JSON.parse(m.solve(JSON.stringify({ model: 'gpt2-xl', device: 'rtx4060-laptop-8gb' }))).floor;
  assert.equal(floor.derivation.reduce((a, d) => a + d.bytes, 0), floor.peak_bytes); // exact bytes add up
  // 3.12 + 3.12 + 6.23 + 0.16 + 0.18 + 0.21 + 0.21 + 0.54 = 13.77, the total reads 13.75 GB.
  assert.equal(floorRoundedSum(floor.derivation, floor.peak_bytes, 'gb'), '13.77\u00a0GB');
  const gib = floorRoundedSum(floor.derivation, floor.peak_bytes, 'gib');
  assert.ok(gib === null || /^\d+\.\d\d\u00a0GiB$/.test(gib), gib);
  // Rows that add up get no note.
  assert.equal(floorRoundedSum([{ bytes: 1e9 }, { bytes: 2e9 }], 3e9, 'gb'), null);
});

// Issue 23: whether Act 2 is complete is decided by one DOM-free function, from the record alone.
test('Act 2 is complete once revealed, the regime reached or not asked, the laptop finished and both reflections answered', () => {
  const done = { revealed: true, design: { regime_reached: true, best: null }, laptop: { finished: true }, reflection_fix: { choice: 'c' }, reflection_ckpt: { ratio_choice: 'b' } };
  assert.equal(act2Complete(done), true);
  assert.equal(act2Complete({ ...done, reflection_ckpt: null }), false);
  assert.equal(act2Complete({ ...done, revealed: false }), false);
  const notReached = { ...done, design: { regime_reached: false, best: null } };
  assert.equal(act2Complete(notReached), false);
  assert.equal(act2Complete({ ...notReached, design: { ...notReached.design, not_asked: 'out_of_reach' } }), true, 'not asked: the record says why');
  assert.equal(act2Complete(notReached, { asked: false }), true, 'not asked: the page knows before the record does');
});
