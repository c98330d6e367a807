// Unit tests for web/src/models/act2-best.js: the best settings Act 2's controls can reach, checked by
// brute force against the engine (the WASM build under Node). Walk finding MINOR-2: the solver's
// "highest MFU" used batch sizes the act's slider cannot set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../../scripts/engine-node.mjs';
import { fitTable, fitRows, smallestStep, bestSettable, SCHEMES2, regimeSearch, regimeReachable } from '../../../web/src/models/act2-best.js';
import { regimeReached } from '../../../web/src/models/act2-model.js';
import { DEFAULT_CONFIG2, CHAPTER_TUNED2, BATCH_SIZES2, PRECISIONS2, DEVICES2, WORKERS, toScenario2 } from '../../../web/src/state/scenario.js';

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

// ---- Is the tuned regime within reach of the controls an instructor left open?
const ALL2 = ['workers', 'prefetch', 'pin', 'prec', 'ckpt', 'batch', 'dev', 'replay'];
const openBut = (...locked) => new Set(ALL2.filter((k) => !locked.includes(k)));
const inRegime = (config) => {
  const r = evaluate(toScenario2(config, { schedule_steps: 0 }));
  return { r, reached: r.memory.fits && regimeReached(r.pipeline) && config.replay };
};

test('with every control open the tuned regime is in reach, and the example found is in it', () => {
  const out = regimeReachable(evaluate, DEFAULT_CONFIG2, openBut());
  assert.equal(out.reachable, true);
  assert.equal(inRegime(out.example).reached, true);
});

test('with the loader workers locked at none it is out of reach: brute force over every other setting agrees', () => {
  const config = { ...DEFAULT_CONFIG2, data_workers: 0 };
  const out = regimeReachable(evaluate, config, openBut('workers'));
  assert.equal(out.reachable, false);
  assert.equal(out.calibration_off, false);
  let lowest = Infinity;
  for (const device of DEVICES2) for (const precision of PRECISIONS2) for (const scheme of SCHEMES2) for (const batch_size of BATCH_SIZES2) {
    for (const [prefetch, prefetch_depth, pinned_memory] of [[false, 1, false], [false, 1, true], [true, 1, true], [true, 8, false]]) {
      const { r, reached } = inRegime({ ...config, device, precision, ...scheme, batch_size, prefetch, prefetch_depth, pinned_memory });
      assert.equal(reached, false, JSON.stringify({ device, precision, scheme, batch_size, prefetch, pinned_memory }));
      if (r.memory.fits) lowest = Math.min(lowest, r.pipeline.chapter_shares.data_loading);
    }
  }
  assert.equal(out.lowest_data_share, lowest);
  assert.ok(out.lowest_data_share > 0.05);
});

test('the loader shortcut (most workers, prefetch on) gives the same answer as every loader setting', () => {
  // Step settings locked to a few, the loader open: brute force over every worker count, prefetch
  // and depth, and pinning, for each lock of the step that changes the answer or not.
  for (const step of [
    { device: 'h100-sxm-80gb', precision: 'mixed', checkpointing: 'none', batch_size: 16 },
    { device: 'v100-sxm2-32gb', precision: 'fp32', checkpointing: 'selective', batch_size: 16 },
    { device: 'a100-sxm4-80gb', precision: 'mixed', checkpointing: 'full', batch_size: 64 },
  ]) {
    const config = { ...DEFAULT_CONFIG2, ...step };
    const out = regimeReachable(evaluate, config, openBut('dev', 'prec', 'ckpt', 'batch'));
    let any = false;
    for (let data_workers = WORKERS.min; data_workers <= WORKERS.max; data_workers += 1) {
      for (const prefetch of [false, true]) for (const prefetch_depth of [1, 8]) for (const pinned_memory of [false, true]) {
        any ||= inRegime({ ...config, data_workers, prefetch, prefetch_depth, pinned_memory }).reached;
      }
    }
    assert.equal(out.reachable, any, JSON.stringify(step));
  }
});

test('with the chapter calibration locked off it is out of reach at once (the challenge counts only with it on)', () => {
  const it = regimeSearch(evaluate, { ...DEFAULT_CONFIG2, replay: false }, openBut('replay'));
  const first = it.next();
  assert.equal(first.done, true, 'nothing to evaluate');
  assert.deepEqual(first.value, { reachable: false, calibration_off: true, example: null, lowest_data_share: null, highest_compute_share: null });
  // Calibration open: the search turns it on.
  assert.equal(regimeReachable(evaluate, { ...DEFAULT_CONFIG2, replay: false }, openBut()).reachable, true);
});

test('the search yields once per setting tried, so a page can run it in idle time', () => {
  const it = regimeSearch(evaluate, { ...DEFAULT_CONFIG2, data_workers: 0 }, new Set(['batch', 'pin']));
  let yields = 0;
  for (let step = it.next(); !step.done; step = it.next()) yields += 1;
  assert.equal(yields, BATCH_SIZES2.length * 2);
});

// ---- Out of memory: what can still make a step fit with the controls left open?
// Issue 23: another GPU is suggested only where the step on screen fits as it is.
test('memoryOptions agrees with brute force over the open settings here, and suggests only GPUs where the step on screen fits', async () => {
  const { memoryOptions } = await import('../../../web/src/models/act2-best.js');
  const catalog = JSON.parse(m.catalog());
  const devices = DEVICES2.map((id) => catalog.devices.find((d) => d.id === id));
  const tables = new Map();
  const tableOf = (c) => { const k = JSON.stringify([c.device, c.replay]); if (!tables.has(k)) tables.set(k, fitTable(evaluate, c)); return tables.get(k); };
  const fitsSomewhere = (config, open, device) => {
    for (const precision of open.has('prec') ? PRECISIONS2 : [config.precision]) {
      for (const scheme of open.has('ckpt') ? SCHEMES2 : [{ checkpointing: config.checkpointing, every_k: config.every_k }]) {
        for (const batch_size of open.has('batch') ? BATCH_SIZES2 : [config.batch_size]) {
          if (evaluate(toScenario2({ ...config, device }, { precision, ...scheme, batch_size, schedule_steps: 0 })).memory.fits) return true;
        }
      }
    }
    return false;
  };
  const seen = new Set(); // the cases cover each answer
  for (const [config, locked] of [
    [{ ...DEFAULT_CONFIG2, replay: false }, ['dev']], // the V100 with the physics model: nothing fits there
    [{ ...DEFAULT_CONFIG2, replay: false }, []],
    [{ ...DEFAULT_CONFIG2, precision: 'fp32', checkpointing: 'none', batch_size: 256, device: 'h100-sxm-80gb' }, ['prec', 'ckpt', 'batch']],
    [{ ...DEFAULT_CONFIG2, precision: 'fp32', checkpointing: 'none', batch_size: 128, device: 'a100-sxm4-40gb', replay: false }, ['ckpt']],
    [{ ...DEFAULT_CONFIG2, checkpointing: 'every_k', every_k: 2, batch_size: 64, device: 'a100-sxm4-40gb', replay: false }, ['prec', 'batch', 'replay']],
    [{ ...DEFAULT_CONFIG2, precision: 'fp32', checkpointing: 'none', batch_size: 256, device: 'a100-sxm4-40gb', replay: false }, []],
    [{ ...DEFAULT_CONFIG2, replay: false }, ['prec', 'ckpt', 'batch', 'replay']], // fits on a larger GPU as it is
    [{ ...DEFAULT_CONFIG2, replay: false, batch_size: 256 }, []], // smaller steps fit elsewhere; this one nowhere
    [{ ...DEFAULT_CONFIG2, replay: false, device: 'a100-sxm4-40gb' }, []], // 63.7 GB: fits the 80 GB GPUs as it is
  ]) {
    const open = openBut(...locked);
    const o = memoryOptions(evaluate, config, open, tableOf, devices);
    const label = JSON.stringify({ config, locked });
    assert.equal(o.fitsHere, fitsSomewhere(config, open, config.device), label);
    const more = (d) => d.capacity_bytes > devices.find((x) => x.id === config.device).capacity_bytes;
    const fitsAsIs = (device) => evaluate(toScenario2({ ...config, device }, { schedule_steps: 0 })).memory.fits;
    const expected = open.has('dev') ? devices.filter((d) => d.id !== config.device && more(d) && fitsAsIs(d.id)).map((d) => d.id) : [];
    assert.deepEqual(o.otherGpus.map((d) => d.id), expected, label);
    assert.equal(o.tickFits, open.has('replay') && !config.replay && fitsSomewhere({ ...config, replay: true }, open, config.device), label);
    seen.add(`${o.fitsHere}/${o.otherGpus.length > 0}/${o.tickFits}`);
  }
  assert.ok(seen.has('true/true/true') && seen.has('false/false/true') && seen.has('false/true/false') && seen.has('false/false/false'), [...seen].join(' '));
});
