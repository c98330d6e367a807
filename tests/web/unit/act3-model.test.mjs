// Act 3's view model: the knobs' scenario for each strategy, the prediction's scenario and the
// solver's answer for it, typed counts, the step times by interconnect, the step's parts, the
// reflections' answer keys from the engine's numbers, and the ledger record. The engine here is a
// stand-in written from issue 28's contract (act3-fake-scale.mjs) until lab_scale lands.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  PREDICT3, tensorDegrees, parallelOf, devicesOf, toScenario3, devicesNeeded, countError, readCount, stepByInterconnect,
  state3, stepParts, taxPoints, taxSpeedup, taxCeiling, reflectNumbers, reflectKeys, act3Record, REVEAL_INTERCONNECTS,
} from '../../../web/src/models/act3-model.js';
import { DEFAULT_CONFIG3, GPU_COUNTS3 } from '../../../web/src/state/act3-config.js';
import { fakeScale, SPEC } from './act3-fake-scale.mjs';

test('GPT-2 XL allows tensor parallelism of 1, 5 and 25 only (its 25 heads and 6,400-wide MLP)', () => {
  assert.deepEqual(tensorDegrees(SPEC), [1, 5, 25]);
  assert.deepEqual(tensorDegrees({ heads: 32, kv_heads: 8, mlp_hidden: 11008 }), [1, 2, 4, 8]);
});

test('data-parallel strategies put every GPU in data parallelism, with their ZeRO stage', () => {
  for (const [strategy, stage] of [['ddp', 0], ['zero1', 1], ['zero2', 2], ['zero3', 3]]) {
    const p = parallelOf({ gpus: 64, strategy }, SPEC);
    assert.equal(p.data_parallel, 64);
    assert.equal(p.zero_stage, stage);
    assert.equal(p.tensor_parallel * p.pipeline_parallel, 1);
    assert.equal(devicesOf(p), 64);
  }
});

test('tensor parallelism takes the largest degree the model allows within 8 GPUs; the rest replicate', () => {
  const p = parallelOf({ gpus: 16, strategy: 'tp' }, SPEC);
  assert.equal(p.tensor_parallel, 5);
  assert.equal(p.data_parallel, 3);
  assert.equal(devicesOf(p), 15, 'fewer devices than GPUs when t does not divide them');
  assert.equal(parallelOf({ gpus: 4, strategy: 'tp' }, SPEC).tensor_parallel, 1, 'below 5 GPUs GPT-2 XL cannot split its heads');
});

test('pipeline parallelism uses up to 8 stages with 8 micro-batches; one GPU is one stage', () => {
  const p = parallelOf({ gpus: 32, strategy: 'pp' }, SPEC);
  assert.deepEqual([p.pipeline_parallel, p.data_parallel, p.micro_batches], [8, 4, 8]);
  const one = parallelOf({ gpus: 1, strategy: 'pp' }, SPEC);
  assert.deepEqual([one.pipeline_parallel, one.micro_batches], [1, 1]);
});

test('the scenario carries the knobs and the interconnect, with every-k checkpointing as the engine spells it', () => {
  const s = toScenario3({ ...DEFAULT_CONFIG3, checkpointing: 'every_k', every_k: 6, interconnect: 'pcie4' }, SPEC);
  assert.equal(s.model, 'gpt2-xl');
  assert.deepEqual(s.checkpointing, { every_k_layers: 6 });
  assert.equal(s.parallel.interconnect, 'pcie4');
  assert.equal(s.device, 'rtx4060-laptop-8gb');
});

test('the prediction asks about ZeRO-3, mixed Adam and a free interconnect on the laptop GPU; the answer is the solver\'s stage-3 count', () => {
  assert.equal(PREDICT3.strategy, 'zero3');
  assert.equal(PREDICT3.interconnect, 'ideal');
  assert.equal(PREDICT3.precision, 'mixed');
  assert.equal(PREDICT3.optimizer, 'adam');
  const k = devicesNeeded(fakeScale, SPEC);
  const stage3 = fakeScale.solve(toScenario3(PREDICT3, SPEC)).fewest_devices.by_stage[3].devices;
  assert.equal(k.devices, stage3);
  assert.equal(k.scenario.parallel.interconnect, 'ideal');
});

test('a typed count must be a whole number from 1 to 1,024; the error names the problem', () => {
  assert.deepEqual(readCount(' 4 '), { value: 4 });
  for (const bad of ['', 'four', '2.5', '-3', '0', '1025', '1e3']) assert.ok(readCount(bad).error, bad);
  assert.match(readCount('0').error, /1 to 1,024/);
});

test('a count is exact only when equal; otherwise the ratio and the direction', () => {
  assert.deepEqual(countError(4, 4), { ratio: 1, direction: 'exact' });
  assert.deepEqual(countError(2, 4), { ratio: 2, direction: 'under' });
  assert.deepEqual(countError(16, 4), { ratio: 4, direction: 'over' });
});

test('step times by interconnect are the engine\'s for the same scenario with only the interconnect changed', () => {
  const s = toScenario3({ ...DEFAULT_CONFIG3, gpus: 8 }, SPEC);
  const { step_s } = stepByInterconnect(fakeScale, s);
  assert.deepEqual(Object.keys(step_s), REVEAL_INTERCONNECTS);
  for (const id of REVEAL_INTERCONNECTS) {
    assert.equal(step_s[id], fakeScale.evaluate({ ...s, parallel: { ...s.parallel, interconnect: id } }).parallel.step_s);
  }
  assert.ok(step_s['ethernet-10g'] > step_s.nvlink4);
});

test('out of memory on a device is never ok', () => {
  const r = fakeScale.evaluate(toScenario3({ ...DEFAULT_CONFIG3, gpus: 1 }, SPEC));
  assert.equal(r.memory.fits, false);
  assert.equal(state3(r), 'oom');
  assert.equal(state3({ error: { message: 'x' } }), 'error');
  assert.equal(state3({ memory: { fits: true, numerically_valid: false } }), 'invalid');
});

test('the step\'s parts add up to the step when the engine\'s terms do, and say so when they do not', () => {
  const r = fakeScale.evaluate(toScenario3({ ...DEFAULT_CONFIG3, gpus: 32, strategy: 'pp', interconnect: 'pcie4' }, SPEC));
  const sp = stepParts(r.parallel);
  assert.equal(sp.adds_up, true);
  assert.ok(sp.parts.find((x) => x.key === 'bubble').seconds > 0);
  assert.equal(stepParts({ ...r.parallel, step_s: r.parallel.step_s + 1 }).adds_up, false);
});

test('the tax curve has one engine point per GPU count, and the chapter\'s formula tends to 1/r', () => {
  const pts = taxPoints(fakeScale, DEFAULT_CONFIG3, SPEC);
  assert.deepEqual(pts.map((x) => x.gpus), GPU_COUNTS3);
  assert.equal(taxSpeedup(1, 0.3), 1);
  assert.equal(taxSpeedup(8, 0), 8);
  assert.ok(Math.abs(taxSpeedup(1e9, 0.1) - taxCeiling(0.1)) < 1e-6);
  assert.equal(taxCeiling(0), Infinity);
});

test('the reflections\' keys come from the engine\'s numbers: copies when data parallelism does not shrink the states', () => {
  const nums = reflectNumbers(fakeScale, SPEC, 4);
  assert.equal(nums.ddp_static_one_bytes, nums.ddp_static_many_bytes);
  assert.ok(nums.zero3_static_many_bytes < nums.ddp_static_many_bytes / 3);
  assert.deepEqual(reflectKeys(nums), { dp: 'copies', ceiling: 'ratio' });
  assert.equal(reflectKeys({ ...nums, ddp_static_many_bytes: nums.ddp_static_one_bytes / 4 }).dp, 'split');
  assert.equal(reflectKeys({ ...nums, r: 0 }).ceiling, 'count');
});

test('the ledger record keeps the settings, the prediction, the solver\'s answer, the step times and the first answers', () => {
  const settings = toScenario3(DEFAULT_CONFIG3, SPEC);
  const rec = act3Record({ settings, prediction: { devices: 6 }, devicesNeeded: 4, predictionScenario: toScenario3(PREDICT3, SPEC),
    stepByInterconnect: { nvlink4: 1.1 }, reflect: [{ id: 'act3_dp', choice: 'copies', correct: true, extra: 1 }, null] });
  assert.equal(rec.act, 3);
  assert.deepEqual(rec.prediction, { devices: 6 });
  assert.equal(rec.devices_needed, 4);
  assert.deepEqual(rec.reflect, [{ id: 'act3_dp', choice: 'copies', correct: true }]);
  assert.equal(rec.settings, settings);
});
