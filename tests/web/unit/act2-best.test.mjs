// Unit tests for web/src/acts/act2-best.js: the best settings Act 2's controls can reach, checked by
// brute force against the engine (the WASM build under Node). Walk finding MINOR-2: the solver's
// "highest MFU" used batch sizes the act's slider cannot set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../../scripts/engine-node.mjs';
import { fitTable, fitRows, smallestStep, bestSettable, SCHEMES2 } from '../../../web/src/acts/act2-best.js';
import { DEFAULT_CONFIG2, CHAPTER_TUNED2, BATCH_SIZES2, PRECISIONS2, toScenario2 } from '../../../web/src/scenario.js';

const m = await loadEngine();
const evaluate = (s) => JSON.parse(m.evaluate(JSON.stringify(s)));

for (const [name, config] of [
  ['the tuned loop on the H100 without calibration', { ...CHAPTER_TUNED2, device: 'h100-sxm-80gb', replay: false }],
  ['the baseline on the A100 40 GB, calibrated', { ...DEFAULT_CONFIG2, device: 'a100-sxm4-40gb' }],
]) {
  test(`the best MFU and the fastest run use only settings the act can set, and no settable one beats them (${name})`, () => {
    const table = fitTable(evaluate, config);
    const best = bestSettable(evaluate, config, table);
    assert.ok(best);
    for (const e of [best.best_mfu, best.fastest]) {
      assert.ok(BATCH_SIZES2.includes(e.config.batch_size), `batch ${e.config.batch_size} is on the slider`);
      assert.ok(PRECISIONS2.includes(e.config.precision));
      const r = evaluate(toScenario2(e.config, { schedule_steps: 0 }));
      assert.equal(r.memory.fits, true);
      assert.equal(r.pipeline.mfu, e.mfu);
    }
    // Brute force over a sample of schemes at every slider batch.
    for (const precision of PRECISIONS2) {
      for (const scheme of [SCHEMES2[0], SCHEMES2[1], SCHEMES2[2], SCHEMES2[3 + 3], SCHEMES2[SCHEMES2.length - 1]]) {
        for (const batch_size of BATCH_SIZES2) {
          const r = evaluate(toScenario2(config, { precision, ...scheme, batch_size, schedule_steps: 0 }));
          if (!r.memory.fits) continue;
          assert.ok(r.pipeline.mfu <= best.best_mfu.mfu + 1e-12, JSON.stringify({ precision, scheme, batch_size }));
          assert.ok(r.pipeline.tokens_per_second <= best.fastest.tokens_per_second + 1e-9, JSON.stringify({ precision, scheme, batch_size }));
        }
      }
    }
    // The fit table's largest batch is exact: it fits, the next slider batch does not.
    for (const row of table.filter((x, i) => i % 9 === 0)) {
      const i = BATCH_SIZES2.indexOf(row.largest_batch);
      if (i >= 0) assert.equal(evaluate(toScenario2(config, { ...row.patch, batch_size: row.largest_batch, schedule_steps: 0 })).memory.fits, true);
      const next = BATCH_SIZES2[i + 1];
      if (next) assert.equal(evaluate(toScenario2(config, { ...row.patch, batch_size: next, schedule_steps: 0 })).memory.fits, false);
    }
  });
}

test('with the physics model on the V100 nothing the act offers fits, and the search says so', () => {
  const config = { ...DEFAULT_CONFIG2, replay: false };
  const table = fitTable(evaluate, config);
  assert.equal(table.every((row) => row.largest_batch === 0), true);
  assert.equal(bestSettable(evaluate, config, table), null);
  const small = smallestStep(table);
  for (const row of table) assert.ok(row.smallest_peak_bytes >= small.result.memory.peak_bytes);
});

test('fitRows yields the fit table one row at a time (the page builds it in idle time), rows in table order', () => {
  const config = { ...DEFAULT_CONFIG2 };
  let calls = 0;
  const counting = (s) => { calls += 1; return evaluate(s); };
  const rows = fitRows(counting, config);
  const first = rows.next();
  assert.equal(first.done, false);
  assert.ok(calls >= 1 && calls <= 1 + Math.ceil(Math.log2(BATCH_SIZES2.length)), `one row costs at most a binary search (${calls} evaluations)`);
  const rest = [...rows];
  const table = fitTable(evaluate, config);
  assert.equal(1 + rest.length, table.length);
  assert.equal(table.length, PRECISIONS2.length * SCHEMES2.length);
  assert.deepEqual([first.value, ...rest].map((r) => [r.patch, r.largest_batch, r.smallest_peak_bytes]),
    table.map((r) => [r.patch, r.largest_batch, r.smallest_peak_bytes]));
});
