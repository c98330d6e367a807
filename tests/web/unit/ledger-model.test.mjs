// Unit tests for web/src/models/ledger-model.js and models/act1-numbers.js against the real engine (the same
// WASM build the page loads): segments, table rows, banner and summary carry the engine's bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../../scripts/engine-node.mjs';
import { buildLedger, ledgerTableRows, bannerFor, ledgerSummary, componentBytes } from '../../../web/src/models/ledger-model.js';
import { toScenario, normalizeConfig, OPTIMIZERS } from '../../../web/src/state/scenario.js';
import { fixedNumbers, currentNumbers } from '../../../web/src/models/act1-numbers.js';
import { optimizerRows } from '../../../web/src/ui/optimizer-table.js';
import { formatBytes } from '../../../web/src/format/format.js';

const mod = await loadEngine();
const evaluate = (s) => JSON.parse(mod.evaluate(JSON.stringify(s)));
const resultsFor = (config) => Object.fromEntries(OPTIMIZERS.map((o) => [o, evaluate(toScenario(config, { optimizer: o }))]));

test('each column stacks to the engine total, and the transient tops it up to the peak', () => {
  const config = normalizeConfig({ precision: 'mixed', batch_size: 8 });
  const results = resultsFor(config);
  const ledger = buildLedger(results, 'adam');
  for (const col of ledger.columns) {
    const m = results[col.optimizer].memory;
    const sum = col.segments.reduce((a, s) => a + s.bytes, 0);
    assert.equal(sum, m.peak_bytes);
    assert.equal(col.segments.at(-1).y1, m.peak_bytes);
    assert.equal(col.total_bytes, m.total_bytes);
  }
  const adam = ledger.columns.find((c) => c.optimizer === 'adam');
  assert.equal(adam.bytes.adam_m + adam.bytes.adam_v, results.adam.memory.components.optimizer_state);
  assert.equal(adam.bytes.master_weights, results.adam.memory.components.master_weights);
  assert.ok(ledger.present.includes('master_weights'));
  assert.equal(ledger.budget_bytes, results.adam.memory.usable_device_bytes);
});

test('hidden components leave the stack but stay in totals and in the table', () => {
  const config = normalizeConfig({});
  const results = resultsFor(config);
  const ledger = buildLedger(results, 'adam', ['activations', 'weights']);
  const adam = ledger.columns.find((c) => c.optimizer === 'adam');
  assert.ok(!adam.segments.some((s) => s.key === 'activations' || s.key === 'weights'));
  assert.equal(adam.total_bytes, results.adam.memory.total_bytes);
  const rows = ledgerTableRows(ledger);
  const act = rows.find((r) => r.key === 'activations');
  assert.equal(act.hidden, true);
  assert.equal(act.values[2], results.adam.memory.components.activations);
  assert.deepEqual(rows.slice(-3).map((r) => r.key), ['total', 'peak', 'budget']);
});

test('FP32 leaves no master copy, and the chapter replay has no logits or reserve', () => {
  const fp32 = buildLedger(resultsFor(normalizeConfig({})), 'adam');
  assert.ok(!fp32.present.includes('master_weights'));
  assert.ok(fp32.present.includes('logits') && fp32.present.includes('reserve'));
  const replay = buildLedger(resultsFor(normalizeConfig({ replay: true, batch_size: 32 })), 'adam');
  assert.ok(!replay.present.includes('logits') && !replay.present.includes('reserve') && !replay.present.includes('transient'));
  assert.equal(replay.columns[2].total_bytes, 89e9);
});

test('the banner names what binds, in the chosen units', () => {
  const laptop = evaluate(toScenario(normalizeConfig({ device: 'rtx4060-laptop-8gb' })));
  const b = bannerFor(laptop, laptop.device.name, 'gb');
  assert.equal(b.kind, 'static');
  assert.equal(b.fits, false);
  assert.match(b.text, /before a single activation/);
  assert.ok(b.text.includes(formatBytes(laptop.memory.static_bytes + laptop.memory.components.reserve)));
  const big = evaluate(toScenario(normalizeConfig({ batch_size: 16 })));
  const ba = bannerFor(big, big.device.name, 'gib');
  assert.equal(ba.kind, 'activations');
  assert.match(ba.text, /GiB/);
  const fits = evaluate(toScenario(normalizeConfig({})));
  assert.equal(bannerFor(fits, 'H100', 'gb').kind, 'none');
  const pure = evaluate(toScenario(normalizeConfig({ precision: 'fp16', optimizer: 'sgd' })));
  assert.match(bannerFor(pure, 'x').invalid, /stalls/);
});

test('the summary sentence quotes the selected column and the optimizer tax', () => {
  const config = normalizeConfig({});
  const results = resultsFor(config);
  const s = ledgerSummary(buildLedger(results, 'adam'), config, results.adam.device.name, 'gb');
  assert.ok(s.includes(formatBytes(results.adam.memory.peak_bytes)));
  assert.ok(s.includes(formatBytes(results.adam.memory.static_bytes - results.sgd.memory.static_bytes)));
  assert.match(s, /it fits/);
});

test('componentBytes splits the optimizer vectors by name', () => {
  const r = evaluate(toScenario(normalizeConfig({ optimizer: 'momentum' })));
  const c = componentBytes(r);
  assert.equal(c.momentum, r.memory.optimizer_vectors[0].bytes);
  assert.equal(c.adam_m, 0);
});

test('Act 1 numbers: the SGD → Adam delta, one vector, and the chapter replay ratio come from the engine', () => {
  const n = fixedNumbers(evaluate);
  assert.equal(n.adamDelta, 12460889600);
  assert.equal(n.oneVector, 6230444800);
  assert.equal(n.adamStaticFp32, n.adamStaticMixed);
  assert.equal(n.replayFp32Total, 89e9);
  assert.equal(n.replayMixedTotal, 56.5e9);
  assert.equal(n.replayCkptTotal, 32.125e9);
  assert.equal(n.replayParams, 1.5e9);
  assert.ok(n.replayRatio > 1.5 && n.replayRatio < 1.6);
  const cur = currentNumbers(evaluate, normalizeConfig({}));
  assert.ok(cur.curRatio > 1 && cur.curRatio < 2);
});

test('optimizer table: 1×/2×/3× for weights + state and 2×/3×/4× with gradients, in FP32', () => {
  const config = normalizeConfig({ precision: 'mixed' });
  const fp32 = Object.fromEntries(OPTIMIZERS.map((o) => [o, evaluate(toScenario(config, { optimizer: o, precision: 'fp32' }))]));
  const rows = optimizerRows(fp32, resultsFor(config));
  assert.deepEqual(rows.map((r) => r.wo_multiple), [1, 2, 3]);
  assert.deepEqual(rows.map((r) => r.static_multiple), [2, 3, 4]);
  assert.deepEqual(rows.map((r) => r.vectors.length), [0, 1, 2]);
  assert.equal(rows[2].current_static_bytes, 24921779200);
  assert.equal(rows[2].steps.steps, 50000);
  assert.equal(rows[0].steps.steps, null);
});
