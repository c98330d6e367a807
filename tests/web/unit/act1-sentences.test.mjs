// Every sentence Act 1 builds, against the real engine, across many states: one scenario per
// sentence (and named), sums that add up on screen, one number format, an invalid state that never
// reads as success, a Math Peek bound to the scenario's numbers, and words a student can follow.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../../scripts/engine-node.mjs';
import { buildLedger, bannerFor, ledgerSummary, ledgerTableRows } from '../../../web/src/models/ledger-model.js';
import { toScenario, normalizeConfig, OPTIMIZERS, PRECISIONS, controlsOff } from '../../../web/src/state/scenario.js';
import { fixedNumbers, currentNumbers } from '../../../web/src/models/act1-numbers.js';
import * as T from '../../../web/src/content/act1-text.js';
import { scenarioFacts, oneScenario, staticTerms } from '../../../web/src/format/sentences.js';
import { fitState } from '../../../web/src/models/fit-state.js';
import { peekLines } from '../../../web/src/models/peek-model.js';
import { describeError } from '../../../web/src/format/scoring.js';
import { formatBytes, plainText } from '../../../web/src/format/format.js';
import { sumsThatDoNotAddUp, sumsIn, formatProblems } from './sum-check.mjs';

const mod = await loadEngine();
const evaluate = (s) => JSON.parse(mod.evaluate(JSON.stringify(s)));
const n = fixedNumbers(evaluate);
const resultsFor = (config) => Object.fromEntries(OPTIMIZERS.map((o) => [o, evaluate(toScenario(config, { optimizer: o }))]));

// Every text the act shows for one configuration (banner, summary, Math Peek, notes, reveal,
// reflection feedback), in one units setting.
function textsFor(config) {
  const u = config.units;
  const results = resultsFor(config);
  const sel = results[config.optimizer];
  const ledger = buildLedger(results, config.optimizer, config.hidden_components);
  const b = bannerFor(sel, sel.device.name, u);
  const without = config.checkpointing === 'none' ? null : evaluate(toScenario(config, { checkpointing: 'none' }));
  const peek = peekLines(sel, u, { withoutCheckpointing: without }).map((l) => `${l.label}: ${l.formula} ${l.op} ${l.value} ${l.note || ''}`);
  return [
    b.title, b.text, ...b.lines, ledgerSummary(ledger, config, sel.device.name, u), ...peek,
    ...T.NOTES.map((note) => note.physics(n, u)), ...T.NOTES.map((note) => (typeof note.why === 'function' ? note.why(n, u) : note.why)),
    ...T.revealText(n, 'B, about 6 GB extra', describeError(n.oneVector, n.adamDelta, u), u), ...T.tradeoffText(n, u),
    T.ratioFeedback(true, n, u), ...['a', 'b', 'c', 'd'].flatMap((id) => [T.reasonFeedback(id, n, u), T.reasonMore(id, n, u)]),
    T.currentRatioText(currentNumbers(evaluate, config), u), T.replayAssumptions(n, u), T.replayNoteText(n, u),
  ];
}

const GRID = [];
for (const units of ['gb', 'gib']) {
  for (const precision of PRECISIONS) {
    for (const [device, batch, ckpt] of [['h100-sxm-80gb', 1, 'none'], ['rtx4060-laptop-8gb', 2, 'full'], ['v100-sxm2-32gb', 32, 'every_k'], ['a100-sxm4-40gb', 8, 'selective']]) {
      GRID.push(normalizeConfig({ units, precision, device, batch_size: batch, checkpointing: ckpt, optimizer: 'adam' }));
    }
  }
  for (const step of [{ precision: 'fp32', checkpointing: 'none' }, { precision: 'mixed', checkpointing: 'none' }, { precision: 'mixed', checkpointing: 'every_k', every_k: 4 }]) {
    GRID.push(normalizeConfig({ units, replay: true, optimizer: 'adam', batch_size: 32, ...step }));
  }
  GRID.push(normalizeConfig({ units, batch_size: 128, hidden_components: ['activations'] }));
  GRID.push(normalizeConfig({ units, device: 'custom', custom_capacity_gb: 1000, batch_size: 128 }));
}

test('every sentence with numbers adds up within its shown rounding, in every state and both units', () => {
  let seen = 0;
  for (const config of GRID) {
    for (const text of textsFor(config)) {
      seen += sumsIn(text).length;
      assert.deepEqual(sumsThatDoNotAddUp(text), [], `${JSON.stringify(config)}: ${text}`);
      assert.deepEqual(formatProblems(text), [], text);
    }
  }
  assert.ok(seen > 200, `only ${seen} sums checked`);
});

test('the checker itself catches a sum that does not add up and the old formats', () => {
  assert.deepEqual(sumsThatDoNotAddUp('0.21 GB + 0.54 GB = 0.74 GB'), ['0.21 GB + 0.54 GB = 0.74 GB']);
  assert.deepEqual(sumsThatDoNotAddUp('weights 6.23 GB + gradients 6.23 GB ≈ 12.47 GB'), []);
  assert.equal(formatProblems('32.125 GB and 2113.93 GB').length, 2);
});

test('a sentence takes its numbers from one scenario: mixing chapter replay and the exact model throws', () => {
  const { adamFp32, replayFp32, replayMixed } = n.facts;
  assert.throws(() => oneScenario(adamFp32, replayFp32), /two scenarios/);
  assert.match(oneScenario(replayFp32, replayMixed), /Chapter replay: 1,500,000,000 parameters/);
  assert.match(oneScenario(adamFp32, n.facts.sgdLaptop), /1,557,611,200 parameters/);
});

test('the mixed-precision feedback quotes only the chapter replay, and its terms add up (issue 10 item 1)', () => {
  // The feedback on screen is one sentence; the sums wait behind its "Why?" disclosure (issue 23).
  const text = plainText(`${T.reasonFeedback('c', n, 'gb')} ${T.reasonMore('c', n, 'gb')}`);
  assert.match(text, /Chapter replay/);
  assert.ok(text.includes('24.00 GB in FP32 and 24.00 GB in mixed precision'), text);
  assert.ok(text.includes('static memory 24.00 GB + activations 65.00 GB = 89.00 GB'), text);
  assert.ok(text.includes('static memory 24.00 GB + activations 32.50 GB = 56.50 GB'), text);
  assert.ok(!text.includes(formatBytes(n.adamStaticFp32)), 'no exact-model static memory in a replay sentence');
  assert.match(plainText(T.ratioFeedback(true, n, 'gb')), /89\.00 GB in FP32 and 56\.50 GB in mixed precision/);
});

test('pure 16-bit that fits is "cannot train" in banner, summary, chart state and table (issue 10 item 2)', () => {
  const config = normalizeConfig({ device: 'rtx4060-laptop-8gb', optimizer: 'sgd', precision: 'fp16', checkpointing: 'full', batch_size: 2 });
  const results = resultsFor(config);
  const sel = results.sgd;
  assert.equal(sel.memory.fits, true);
  assert.equal(fitState(sel.memory), 'invalid');
  const b = bannerFor(sel, sel.device.name, 'gb');
  assert.equal(b.state, 'invalid');
  assert.notEqual(b.icon, '✓');
  assert.match(b.title, /cannot train/);
  const ledger = buildLedger(results, 'sgd');
  const col = ledger.columns.find((c) => c.optimizer === 'sgd');
  assert.equal(col.state, 'invalid');
  assert.equal(col.valid, false);
  const summary = ledgerSummary(ledger, config, sel.device.name, 'gb');
  assert.match(summary, /cannot train/);
  assert.doesNotMatch(summary, /: it fits,/);
  assert.ok(ledgerTableRows(ledger).some((r) => r.key === 'peak'));
  // A configuration that can train and fits is the only 'ok'.
  const ok = evaluate(toScenario(normalizeConfig({})));
  assert.equal(bannerFor(ok, ok.device.name).state, 'ok');
  assert.equal(bannerFor(ok, ok.device.name).icon, '✓');
});

test('the FP32 out-of-memory banner lists no master copy and names the reserve apart (issue 10 item 6)', () => {
  const r = evaluate(toScenario(normalizeConfig({ device: 'rtx4060-laptop-8gb' })));
  const b = bannerFor(r, r.device.name, 'gb');
  assert.doesNotMatch(b.text, /master/);
  assert.ok(b.text.includes(`= ${formatBytes(r.memory.static_bytes)})`), b.text);
  assert.ok(b.text.includes(`framework reserve (${formatBytes(r.memory.components.reserve)})`), b.text);
  const mixed = evaluate(toScenario(normalizeConfig({ device: 'rtx4060-laptop-8gb', precision: 'mixed' })));
  assert.match(bannerFor(mixed, 'x').text, /FP32 master copy/);
});

test('the activations-bind banner names only what the peak holds beyond static memory', () => {
  const text = (cfg) => plainText(bannerFor(evaluate(toScenario(normalizeConfig(cfg))), 'the device', 'gb').text);
  // The chapter replay counts activations only (no logits, no transients, no reserve).
  const replay = text({ replay: true, precision: 'fp32', batch_size: 32 });
  // …and says how far short the device is, not just what the activations take (walk 2: "65.00 GB
  // more" read as the shortfall, which is 54.64 GB: 65.00 − 10.36 on the V100's 34.36 GB).
  assert.match(replay, /leaving 10\.36 GB of its 34\.36 GB; activations need 65\.00 GB at the peak, 54\.64 GB more than is left\.$/);
  // The physics model's peak also holds logits and the backward transients.
  const physics = text({ precision: 'mixed', batch_size: 32, device: 'a100-sxm4-40gb' });
  assert.match(physics, /; activations, logits and transients need [\d,.]+ GB at the peak, (about )?[\d,.]+ GB more than is left\.$/);
});

test('device names and budget lines are explained in both units (issue 10 item 6)', () => {
  const h100 = { name: 'NVIDIA H100 SXM 80 GB', capacity_bytes: 85520809984 };
  assert.equal(plainText(T.deviceNoteText(h100, 'gb')), 'The “80 GB” in the name counts binary gigabytes: 80 GiB (2^30 bytes each) = 85.90 GB (10^9 bytes each); the driver reports 85.52 GB = 79.65 GiB usable, and that is the dashed budget line.');
  assert.match(plainText(T.deviceNoteText(h100, 'gib')), /reports 79\.65 GiB = 85\.52 GB usable/);
  const v100 = T.NOTES.find((x) => x.id === 'v100-32gb');
  assert.equal(plainText(v100.physics(n, 'gib')), 'In the chapter’s walkthrough (Chapter replay: 1,500,000,000 parameters), the optimized total is 29.92 GiB = 32.13 GB; the V100 holds 32.00 GiB = 34.36 GB.');
  assert.match(v100.why, /7% more bytes/);
});

test('the Math Peek binds every line to the scenario (issue 10 item 4)', () => {
  const line = (r, key, opts) => peekLines(r, 'gb', opts).find((l) => l.key === key);
  // Pure 16-bit Adam stores two 16-bit vectors.
  const pure = evaluate(toScenario(normalizeConfig({ precision: 'bf16' })));
  assert.match(line(pure, 'optimizer').formula, /Adam m 2 B \(16-bit\) \+ Adam v 2 B \(16-bit\)/);
  // FP32 activations: the formula, evaluated at e = 4, is the engine's per-layer figure.
  const fp32 = evaluate(toScenario(normalizeConfig({})));
  const act = line(fp32, 'activations');
  assert.equal(act.bound, true);
  assert.ok(act.note.includes('(66 + 9 × 25 × 1,024 / 1,600) = 344,064,000 B'), act.note);
  assert.equal(fp32.memory.activations_detail.per_layer_saved_bytes, 344064000);
  for (const ck of ['selective', 'full', 'every_k']) {
    assert.equal(line(evaluate(toScenario(normalizeConfig({ checkpointing: ck, precision: 'mixed', batch_size: 4 }))), 'activations').bound, true, ck);
  }
  // Replay every 4: "without checkpointing" is the same scenario without it, not the checkpointed figure.
  const cfg = normalizeConfig({ replay: true, precision: 'mixed', batch_size: 32, checkpointing: 'every_k', every_k: 4 });
  const ck = evaluate(toScenario(cfg));
  const a = line(ck, 'activations', { withoutCheckpointing: evaluate(toScenario(cfg, { checkpointing: 'none' })) });
  assert.equal(plainText(a.value), '8.13 GB');
  assert.equal(plainText(a.note), '(without checkpointing: 32.50 GB)');
  // Sums whose rounded terms do not add up say ≈ (logits 0.21 + reserve 0.54 → 0.74).
  const extra = line(fp32, 'extra');
  assert.equal(plainText(`${extra.formula} ${extra.op} ${extra.value}`), 'logits 0.21 GB + framework/context reserve 0.54 GB ≈ 0.74 GB');
  // The symbols line defines; it does not end in an equation.
  assert.equal(line(fp32, 'symbols').op, '');
});

test('words a student can follow: no line numbers, no "the plan", no raw ids (issue 10 item 7)', () => {
  const all = [...GRID.slice(0, 4), GRID.at(-3)].flatMap(textsFor).join('\n');
  const words = [all, T.CONVERGENCE.source, ...T.NOTES.map((x) => x.chapter), describeError(n.adamDelta, n.adamDelta)].join('\n');
  assert.doesNotMatch(words, /\bline \d|\bL\d{2,}\b|the plan|lab plan|within 1\.0×|× the static memory|\bbwd\.|\bfwd\./);
  assert.match(describeError(n.adamDelta, n.adamDelta), /^That is spot on: within 5% of the engine’s value\.$/);
  assert.match(T.CONVERGENCE.source, /GPT-2 Optimizer Memory Requirements/);
});

test('staticTerms names only the components a result has', () => {
  const words = (cfg) => staticTerms(scenarioFacts(evaluate(toScenario(normalizeConfig(cfg))))).map((t) => t.label);
  assert.deepEqual(words({}), ['weights', 'gradients', 'optimizer state']);
  assert.deepEqual(words({ precision: 'mixed' }), ['weights', 'FP32 master copy', 'gradients', 'optimizer state']);
  assert.deepEqual(words({ optimizer: 'sgd', precision: 'bf16' }), ['weights', 'gradients']);
});

test('every Act 1 note that quotes numbers names its scenario, so it cannot be read as the replay table’s (F7)', () => {
  for (const u of ['gb', 'gib']) {
    for (const note of T.NOTES) {
      const text = note.physics(n, u);
      if (!/\d\.\d\d\s(GB|GiB)/.test(text)) continue;
      assert.match(text, /GPT-2 XL \(1,557,611,200 parameters\)|GPT-2 XL has exactly 1,557,611,200 parameters|Chapter replay: 1,500,000,000 parameters|chapter’s numbers/, `${note.id}: ${text}`);
    }
  }
  assert.match(T.NOTES.find((x) => x.id === 'adam-3x').physics(n, 'gib'), /^For GPT-2 XL \(1,557,611,200 parameters\) in FP32, counting weights \+ optimizer state, the ratio is 3×/);
});

test('the Reflect hint quotes the peaks, the measure the chart and the banner show (F8)', () => {
  const config = normalizeConfig({ optimizer: 'adam', precision: 'fp32', batch_size: 1, device: 'h100-sxm-80gb' });
  const cur = currentNumbers(evaluate, config);
  const sel = evaluate(toScenario(config));
  const text = T.currentRatioText(cur, 'gb');
  assert.ok(text.includes(`FP32 peaks at ${formatBytes(sel.memory.peak_bytes)}`), text);
  assert.ok(!text.includes(formatBytes(sel.memory.total_bytes)), text);
  const mixed = evaluate(toScenario(config, { precision: 'mixed' }));
  assert.ok(text.includes(`mixed precision at ${formatBytes(mixed.memory.peak_bytes)}`), text);
});

test('the reveal hint names only the controls a student can still use, and opens when none is left', () => {
  const all = ['opt', 'prec', 'batch', 'ckpt', 'dev', 'replay', 'fw', 'comp'];
  assert.equal(T.revealHint(all), 'Not yet: explore the ledger first. Change a setting above or hide a component; then the reveal opens.');
  assert.equal(T.revealHint(['batch']), 'Not yet: explore the ledger first. Change the setting above (batch); then the reveal opens.');
  assert.equal(T.revealHint(['batch', 'dev']), 'Not yet: explore the ledger first. Change the settings above (batch or device); then the reveal opens.');
  assert.equal(T.revealHint(['comp']), 'Not yet: explore the ledger first. Hide a component; then the reveal opens.');
  assert.equal(T.revealHint([]), 'When you are ready, compare your prediction with the engine.');
});

test('controls the settings switch off count as closed: PyTorch defaults close checkpointing and replay; replay closes the device', () => {
  assert.deepEqual(controlsOff({ framework: 'pytorch', replay: false }), ['ckpt', 'replay']);
  assert.deepEqual(controlsOff({ framework: 'textbook', replay: true }), ['dev']);
  assert.deepEqual(controlsOff({ framework: 'textbook', replay: false }), []);
});

test('in GiB mode a figure set beside the chapter’s GB number carries GB too, and the chapter’s own stay in GB (walk 10)', () => {
  const reveal = T.revealText(n, 'C', '', 'gib').join(' ');
  assert.match(reveal, /= 11\.61\sGiB \(12\.46\sGB\)\. The chapter rounds the model to 1\.5 billion parameters and says 12 GB\./);
  assert.match(T.replayAssumptions(n, 'gib'), /its 65\.00\sGB \(60\.54\sGiB\) activation figure/);
  assert.match(T.replayAssumptions(n, 'gb'), /its 65\.00\sGB activation figure/);
});
