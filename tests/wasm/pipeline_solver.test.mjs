// Node tests of the built WASM module for the timing model (evaluate's `pipeline`) and the solver
// (`solve`): the Chapter replay profile exactly, the gauge order over a sweep, prefetch and workers
// never slowing a step, the GPT-2 XL laptop floor, the cheapest path, and errors as in evaluate.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../scripts/engine-node.mjs';

const engine = await loadEngine();
const call = (fn, x) => JSON.parse(engine[fn](typeof x === 'string' ? x : JSON.stringify(x)));
const evaluate = (x) => call('evaluate', x);
const solve = (x) => call('solve', x);
const close = (a, b, tol = 1e-9) => assert.ok(Math.abs(a - b) <= tol, `${a} is not within ${tol} of ${b}`);

const replayBefore = { chapter_replay: true, precision: 'mixed', optimizer: 'adam', batch_size: 32,
  checkpointing: { every_k_layers: 4 } };
const replayAfter = { ...replayBefore, data_workers: 8, pinned_memory: true, prefetch: true, prefetch_depth: 2 };

test('Chapter replay lands exactly on 40/25/35 (busy 45%) and 5/20/75 (busy 85%) through WASM', () => {
  const before = evaluate(replayBefore).pipeline;
  close(before.chapter_shares.data_loading, 0.40);
  close(before.chapter_shares.transfers, 0.25);
  close(before.chapter_shares.compute, 0.35);
  close(before.busy_fraction, 0.45);
  assert.equal(before.bottleneck.axis, 'data');
  assert.equal(before.calibrated, true);
  const after = evaluate(replayAfter).pipeline;
  close(after.chapter_shares.data_loading, 0.05);
  close(after.chapter_shares.transfers, 0.20);
  close(after.chapter_shares.compute, 0.75);
  close(after.busy_fraction, 0.85);
  assert.equal(after.bottleneck.axis, 'algorithm');
  assert.ok(after.mfu <= 0.75 / 1.33);
  assert.ok(after.busy_fraction >= after.pipeline_efficiency && after.pipeline_efficiency >= after.mfu);
  close(after.chapter_reference.mfu_at_chapter_throughput, 10279555200 * 1200 / 125e12, 1e-12);
});

test('evaluate returns every documented pipeline field, and a schedule of K steps', () => {
  const p = evaluate({ model: 'gpt2-xl', precision: 'mixed', batch_size: 8, schedule_steps: 4,
    data_workers: 2, prefetch: true }).pipeline;
  for (const k of ['step_seconds', 'busy_fraction', 'pipeline_efficiency', 'mfu', 'hfu', 'tokens_per_second',
    'time_per_epoch_seconds', 'mfu_ceiling', 'gpu_busy_seconds']) assert.equal(typeof p[k], 'number', k);
  assert.deepEqual(p.phases.map((x) => x.phase), ['data_loading', 'transfer', 'memory_bound', 'compute_bound', 'optimizer']);
  close(p.phases.reduce((a, x) => a + x.share, 0), 1, 1e-12);
  assert.ok(['data', 'algorithm', 'machine'].includes(p.bottleneck.axis));
  assert.ok(p.bottleneck.message.length > 20);
  assert.equal(p.schedule.steps, 4);
  assert.equal(p.schedule.segments.length, 4 * 7);
  for (const [name, value] of Object.entries(p.constants)) assert.equal(typeof value, 'number', name);
  assert.equal(Object.keys(p.constants).length, 8);
  const described = solve({ model: 'gpt2-xl' }).pipeline_constants;
  assert.deepEqual(described.map((c) => c.name), Object.keys(p.constants));
  for (const c of described) assert.ok(c.source.length > 20, c.name);
  assert.equal(evaluate({ model: 'gpt2-xl', schedule_steps: 0 }).pipeline.schedule.segments.length, 0);
  const lanes = new Set(p.schedule.segments.map((s) => s.resource));
  for (const lane of ['cpu_data', 'cpu_main', 'pcie', 'gpu_memory', 'gpu_compute', 'gpu_optimizer']) assert.ok(lanes.has(lane), lane);
});

test('busy >= pipeline efficiency >= MFU and MFU <= HFU over a sweep; prefetch and workers never slow a step', () => {
  let n = 0;
  for (const model of ['gpt2-small', 'gpt2-xl', { layers: 2, hidden: 64, heads: 4, vocab: 100, context: 256 }])
    for (const device of ['v100-sxm2-32gb', 'h100-sxm-80gb', 'rtx4060-laptop-8gb'])
      for (const precision of ['fp32', 'mixed', 'bf16'])
        for (const checkpointing of ['none', 'selective', { every_k_layers: 2 }])
          for (const batch_size of [1, 32, 512])
            for (const pinned_memory of [false, true]) {
              let lastStep = Infinity, lastLoading = Infinity;
              for (const data_workers of [0, 1, 8]) {
                const base = { model, device, precision, checkpointing, batch_size, pinned_memory, data_workers,
                  seq_len: typeof model === 'object' ? 256 : 1024 };
                const off = evaluate(base).pipeline;
                const on = evaluate({ ...base, prefetch: true }).pipeline;
                for (const p of [off, on]) {
                  assert.ok(p.busy_fraction <= 1 + 1e-12);
                  assert.ok(p.busy_fraction + 1e-12 >= p.pipeline_efficiency);
                  assert.ok(p.pipeline_efficiency + 1e-12 >= p.mfu);
                  assert.ok(p.mfu <= p.hfu + 1e-12 && p.mfu > 0);
                }
                assert.ok(on.step_seconds <= off.step_seconds * (1 + 1e-12));
                assert.ok(on.phases[0].seconds <= lastLoading * (1 + 1e-12));
                assert.ok(on.step_seconds <= lastStep * (1 + 1e-12));
                lastLoading = on.phases[0].seconds;
                lastStep = on.step_seconds;
                n += 2;
              }
            }
  assert.ok(n > 1500);
});

test('solve: GPT-2 XL cannot train in 8 GB; the floor is 12,460,889,600 B static and the moves lead to it', () => {
  const r = solve({ model: 'gpt2-xl', device: 'rtx4060-laptop-8gb', precision: 'fp32', optimizer: 'adam' });
  assert.equal(r.floor.static_bytes, 12460889600);
  assert.equal(r.floor.static_floor_bytes, 12460889600);
  assert.equal(r.floor.peak_bytes, 13750253056);
  assert.equal(r.device_fits_floor, false);
  assert.deepEqual(r.floor.derivation.slice(0, 3).map((c) => [c.component, c.bytes_per_param]),
    [['weights', 2], ['gradients', 2], ['master_weights', 4]]);
  assert.equal(r.floor.derivation.reduce((a, c) => a + c.bytes, 0), r.floor.peak_bytes);
  assert.equal(r.cheapest_path.reaches_fit, false);
  assert.equal(r.cheapest_path.moves.at(-1).peak_bytes, r.floor.peak_bytes);
  assert.equal(r.best_mfu, null);
  assert.ok(r.stalls_but_fits.length >= 2);
  for (const s of r.stalls_but_fits) assert.ok(['fp16', 'bf16'].includes(s.configuration.precision));
});

test('solve: the cheapest path ends in a fitting configuration whose peak evaluate confirms', () => {
  for (const device of ['v100-sxm2-32gb', 'rtx4090-24gb', 'a100-sxm4-40gb'])
    for (const precision of ['fp32', 'mixed'])
      for (const batch_size of [4, 64]) {
        const scenario = { model: 'gpt2-xl', device, precision, optimizer: 'adam', batch_size };
        const r = solve(scenario);
        const path = r.cheapest_path;
        if (path.start.fits) { assert.equal(path.moves.length, 0); continue; }
        if (!path.reaches_fit) { assert.equal(r.device_fits_floor, false); continue; }
        const last = path.moves.at(-1);
        assert.equal(last.fits, true);
        const check = evaluate({ ...scenario, ...last.configuration });
        assert.equal(check.memory.peak_bytes, last.peak_bytes);
        assert.equal(check.memory.fits, true);
        assert.ok(r.floor.peak_bytes <= last.peak_bytes);
        if (r.best_mfu) assert.ok(evaluate({ ...scenario, ...r.best_mfu.configuration }).memory.fits);
      }
});

const bad = [
  ['malformed JSON', '{"model":', ''],
  ['not an object', '[]', ''],
  ['bad max_batch_size', { max_batch_size: 0 }, 'max_batch_size'],
  ['string max_batch_size', { max_batch_size: '64' }, 'max_batch_size'],
  ['unknown field', { maxbatch: 3 }, 'maxbatch'],
  ['bad batch', { batch_size: 1.5 }, 'batch_size'],
  ['bad schedule_steps', { schedule_steps: 17 }, 'schedule_steps'],
  ['bad epoch_tokens', { epoch_tokens: -1 }, 'epoch_tokens'],
  ['overflowing model', { model: { layers: 1000, hidden: 131072, heads: 1024, vocab: 10000000, context: 1048576 },
    seq_len: 1048576, batch_size: 65536 }, 'scenario'],
];
for (const [name, input, field] of bad) {
  test(`solve with bad input (${name}) gives a structured error naming '${field}', and the module keeps working`, () => {
    const r = solve(input);
    assert.ok(r.error, JSON.stringify(r).slice(0, 200));
    assert.equal(r.error.field, field);
    assert.equal(solve({ model: 'gpt2-small' }).floor.static_bytes > 0, true);
  });
}
