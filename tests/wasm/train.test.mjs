// Node tests of the reference engine through its WASM module (lab_train, the one the "Measure it"
// Web Worker loads): the train facade, the incremental TrainSession, prediction == measurement, and
// structured errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine, loadTrainEngine } from '../../scripts/engine-node.mjs';

const engine = await loadTrainEngine();
const train = (x) => JSON.parse(engine.train(typeof x === 'string' ? x : JSON.stringify(x)));
const small = { vocab: 16, context: 8, d_model: 16, heads: 2, layers: 2, mlp_hidden: 32, batch_size: 2, seq_len: 8, steps: 3 };

test('the page module (lab_core) does not carry the training engine; lab_train does', async () => {
  const core = await loadEngine();
  assert.equal(typeof core.train, 'undefined');
  assert.equal(typeof engine.train, 'function');
  assert.equal(typeof engine.TrainSession, 'function');
});

test('train runs and its measured memory equals the inventory prediction', () => {
  const r = train(small);
  assert.equal(r.error, undefined, JSON.stringify(r.error));
  assert.equal(r.losses.length, 3);
  assert.equal(r.memory.match, true);
  assert.deepEqual(r.memory.measured, r.memory.predicted);
  assert.deepEqual(r.memory.timeline.measured_peak_bytes, r.memory.timeline.predicted_peak_bytes);
  assert.equal(r.flops.measured_executed_per_step, r.flops.executed_per_step);
});

test('predicted == measured for every precision x optimizer x checkpointing kind', () => {
  for (const precision of ['fp32', 'mixed', 'fp16', 'bf16'])
    for (const optimizer of ['sgd', 'momentum', 'adam', 'adamw'])
      for (const checkpointing of ['none', 'selective', 'full', { every_k_layers: 2 }]) {
        const r = train({ ...small, layers: 3, steps: 1, precision, optimizer, checkpointing, timeline_points: 0 });
        assert.equal(r.error, undefined, JSON.stringify(r.error));
        assert.equal(r.memory.match, true, `${precision} ${optimizer} ${JSON.stringify(checkpointing)}`);
        assert.deepEqual(r.memory.measured.max_by_category, r.memory.predicted.max_by_category);
      }
});

test('the loss falls on the generated task within a few seconds of work', () => {
  const r = train({ d_model: 64, heads: 2, layers: 2, batch_size: 4, seq_len: 32, learning_rate: 3e-3, steps: 60 });
  assert.equal(r.error, undefined, JSON.stringify(r.error));
  const first = r.losses[0];
  const last = r.losses.slice(-5).reduce((a, b) => a + b, 0) / 5;
  assert.ok(Math.abs(first - Math.log(64)) < 0.2, `first loss ${first}`);
  assert.ok(last < first - 1.5, `loss ${first} -> ${last}`);
  assert.ok(last > r.task.loss_floor_nats - 0.3);
});

test('a TrainSession runs the same training a few steps at a time and can be dropped midway', () => {
  const s = new engine.TrainSession(JSON.stringify({ ...small, steps: 5 }));
  try {
    assert.equal(JSON.parse(s.status()).ok, true);
    const a = JSON.parse(s.step(2));
    assert.equal(a.steps_done, 2);
    assert.equal(a.done, false);
    const b = JSON.parse(s.step(10));
    assert.equal(b.steps_done, 5);
    assert.equal(b.done, true);
    const report = JSON.parse(s.report());
    assert.deepEqual(report.losses, train({ ...small, steps: 5 }).losses);
    assert.equal(report.memory.match, true);
  } finally {
    s.delete();
  }
  const cancelled = new engine.TrainSession(JSON.stringify({ ...small, steps: 1000 }));
  JSON.parse(cancelled.step(1));
  cancelled.delete();  // cancelling = not calling step again
  assert.equal(train(small).memory.match, true);
});

test('pure FP16 stalls where mixed precision keeps updating its FP32 master', () => {
  const base = { ...small, optimizer: 'sgd', learning_rate: 1e-4, loss_scale: { mode: 'static', value: 1024 }, steps: 5 };
  const pure = train({ ...base, precision: 'fp16' });
  const mixed = train({ ...base, precision: 'mixed' });
  const n = pure.stall.weight_elements;
  assert.ok(pure.stall.weights_unchanged_last_step / n > 0.7);
  assert.ok(mixed.stall.master_unchanged_per_step.at(-1) / n < 0.3);
});

const bad = [
  ['malformed JSON', '{"steps": 1', ''],
  ['unknown field', { stepz: 1 }, 'stepz'],
  ['heads do not divide d_model', { d_model: 10, heads: 3 }, 'heads'],
  ['unknown precision', { precision: 'fp8' }, 'precision'],
  ['bad checkpointing', { checkpointing: { every_k_layers: 0 } }, 'checkpointing.every_k_layers'],
  ['too much memory', { batch_size: 256, context: 2048, seq_len: 2048 }, 'batch_size'],
  ['too much work', { steps: 100000 }, 'steps'],
];
for (const [name, input, field] of bad) {
  test(`bad train request (${name}) names '${field}' and the module keeps working`, () => {
    const r = train(input);
    assert.ok(r.error, JSON.stringify(r).slice(0, 200));
    assert.equal(r.error.field, field);
    const s = new engine.TrainSession(typeof input === 'string' ? input : JSON.stringify(input));
    assert.equal(JSON.parse(s.step(1)).error.field, field);
    s.delete();
    assert.equal(train(small).memory.match, true);
  });
}
