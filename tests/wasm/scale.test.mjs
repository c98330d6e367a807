// The multi-device module lab_scale (wasm/bindings_scale.cpp) through Node: evaluate and solve with
// "parallel", its errors as values naming the field, lab_core refusing "parallel" with the contract's
// error, solve's fewest_devices against evaluate at the answer and one device fewer, and labctl round trips.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEngine, loadScaleEngine } from '../../scripts/engine-node.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const scale = await loadScaleEngine();
const core = await loadEngine();
const call = (engine, fn, x) => JSON.parse(engine[fn](typeof x === 'string' ? x : JSON.stringify(x)));
const labctl = (args, input = '') => {
  const r = spawnSync(path.join(root, 'scripts', 'labctl'), args, { input, encoding: 'utf8', timeout: 120000 });
  return { status: r.status, json: r.stdout.trim() ? JSON.parse(r.stdout) : null, stderr: r.stderr };
};

// Act 3's question: GPT-2 XL on 8 GB laptop GPUs, mixed Adam, fully sharded, the interconnect free.
const laptop = { model: 'gpt2-xl', device: 'rtx4060-laptop-8gb', precision: 'mixed', optimizer: 'adam', batch_size: 1,
  checkpointing: 'full', parallel: { data_parallel: 8, zero_stage: 3, interconnect: 'ideal' } };
const h100 = { model: 'gpt2-xl', device: 'h100-sxm-80gb', precision: 'mixed', optimizer: 'adam', batch_size: 8,
  parallel: { data_parallel: 8, zero_stage: 1, interconnect: 'nvlink4' } };

test('lab_scale has evaluate, solve, catalog and version, the same version as lab_core', () => {
  for (const f of ['evaluate', 'solve', 'catalog', 'version']) assert.equal(typeof scale[f], 'function', f);
  assert.equal(scale.version(), core.version());
  assert.ok(Array.isArray(call(scale, 'catalog').interconnects), 'the catalogue lists interconnects');
});

test('without "parallel", lab_scale answers exactly as lab_core', () => {
  const one = { model: 'gpt2-xl', precision: 'mixed', batch_size: 4 };
  assert.equal(scale.evaluate(JSON.stringify(one)), core.evaluate(JSON.stringify(one)));
  assert.equal(scale.solve(JSON.stringify(one)), core.solve(JSON.stringify(one)));
});

test('lab_core refuses "parallel" with an error value naming the field, lab_scale evaluates it', () => {
  const refused = call(core, 'evaluate', h100);
  assert.equal(refused.error.field, 'parallel', JSON.stringify(refused));
  assert.match(refused.error.message, /multi-device/);
  assert.equal(call(core, 'solve', h100).error.field, 'parallel');
  const r = call(scale, 'evaluate', h100);
  assert.equal(r.error, undefined, JSON.stringify(r.error));
  assert.equal(r.memory.per_device, true);
  assert.equal(r.parallel.devices, 8);
  assert.equal(r.parallel.zero_stage, 1);
  assert.equal(r.parallel.global_batch, 8 * 8);
  const c = r.memory.components;
  assert.equal(Object.values(c).reduce((a, b) => a + b, 0), r.memory.total_bytes, 'the components sum to the total');
  assert.ok(r.parallel.step_s > 0 && r.parallel.speedup > 0);
});

test('bad "parallel" input comes back as an error naming the field path, never an abort', () => {
  const cases = [
    [{ data_parallel: 0 }, 'parallel.data_parallel'],
    [{ zero_stage: 4 }, 'parallel.zero_stage'],
    [{ tensor_parallel: 7 }, 'parallel.tensor_parallel'],
    [{ sequence_parallel: true }, 'parallel.sequence_parallel'],
    [{ interconnect: 'carrier-pigeon' }, 'parallel.interconnect'],
    [{ interconnect: { bytes_per_s: -1 } }, 'parallel.interconnect.bytes_per_s'],
    [{ gradient_buckets: 'maybe' }, 'parallel.gradient_buckets'],
    [{ frobnicate: 1 }, 'parallel.frobnicate'],
  ];
  for (const [parallel, field] of cases) {
    for (const fn of ['evaluate', 'solve']) {
      const r = call(scale, fn, { model: 'gpt2-xl', parallel });
      assert.ok(r.error, `${fn} ${JSON.stringify(parallel)}`);
      assert.equal(r.error.field, field, `${fn} ${JSON.stringify(parallel)}: ${JSON.stringify(r.error)}`);
      assert.ok(r.error.message.length > 10);
    }
  }
  const disagree = call(scale, 'evaluate', { ...h100, num_devices: 4 });
  assert.equal(disagree.error.field, 'num_devices', JSON.stringify(disagree));
  const notObject = call(scale, 'evaluate', { model: 'gpt2-xl', parallel: 8 });
  assert.equal(notObject.error.field, 'parallel');
});

// evaluate at the answer fits; at one replica fewer (same stage) it does not, and no lower stage fits there.
function checkAgainstEvaluate(scenario) {
  const f = call(scale, 'solve', scenario).fewest_devices;
  assert.ok(f, 'solve with "parallel" answers fewest_devices');
  assert.equal(f.max_devices, 1024);
  assert.equal(f.by_stage.length, 4);
  const at = (stage, n) => call(scale, 'evaluate', { ...scenario, parallel: { ...scenario.parallel, zero_stage: stage, data_parallel: n } });
  for (const s of f.by_stage) {
    if (s.devices === null) {
      assert.equal(at(s.zero_stage, 1024).memory.fits, false, `stage ${s.zero_stage} at 1024`);
      continue;
    }
    const r = at(s.zero_stage, s.data_parallel);
    assert.equal(r.memory.fits, true);
    assert.equal(r.memory.peak_bytes, s.peak_bytes_per_device);
    if (s.data_parallel > 1) assert.equal(at(s.zero_stage, s.data_parallel - 1).memory.fits, false);
  }
  return f;
}

test('fewest devices: GPT-2 XL on 8 GB laptop GPUs needs sharding; stage 0 never fits; evaluate agrees', () => {
  const f = checkAgainstEvaluate(laptop);
  assert.equal(f.by_stage[0].devices, null, 'plain data parallelism replicates 25 GB of model states');
  assert.equal(f.zero_stage, 3);
  assert.ok(f.devices > 1);
  assert.equal(f.devices, f.by_stage[3].devices);
  const best = call(scale, 'evaluate', { ...laptop, parallel: { ...laptop.parallel, data_parallel: f.data_parallel } });
  assert.equal(f.step_s, best.parallel.step_s);
  assert.ok(f.text.startsWith(`At the fewest, GPT-2 XL (1.5B) trains on ${f.devices} × `), f.text);
});

test('fewest devices: on an H100 one device fits, so the answer is one device at stage 0', () => {
  const f = checkAgainstEvaluate({ ...h100, batch_size: 2 });
  assert.equal(f.devices, 1);
  assert.equal(f.zero_stage, 0);
});

test('labctl evaluate and solve run lab_scale: the same JSON as the module, and errors exit 2', () => {
  const e = labctl(['evaluate'], JSON.stringify(h100));
  assert.equal(e.status, 0, e.stderr);
  assert.deepEqual(e.json, call(scale, 'evaluate', h100));
  const s = labctl(['solve'], JSON.stringify(laptop));
  assert.equal(s.status, 0, s.stderr);
  assert.deepEqual(s.json.fewest_devices, call(scale, 'solve', laptop).fewest_devices);
  const bad = labctl(['evaluate'], JSON.stringify({ model: 'gpt2-xl', parallel: { tensor_parallel: 7 } }));
  assert.equal(bad.status, 2);
  assert.equal(bad.json.error.field, 'parallel.tensor_parallel');
  const badSolve = labctl(['solve'], JSON.stringify({ model: 'gpt2-xl', parallel: { interconnect: { bytes_per_s: 0 } } }));
  assert.equal(badSolve.status, 2);
  assert.equal(badSolve.json.error.field, 'parallel.interconnect.bytes_per_s');
  const help = spawnSync(path.join(root, 'scripts', 'labctl'), ['--help'], { encoding: 'utf8', timeout: 120000 });
  assert.equal(help.status, 0);
  assert.match(help.stdout, /"parallel"/);
});
