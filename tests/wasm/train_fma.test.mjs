// Node tests of lab_train_fma, the training module whose matmul kernel uses relaxed-SIMD fused
// multiply-add (the "Measure it" worker loads it where the browser validates relaxed SIMD). Node 20
// needs --experimental-wasm-relaxed-simd for it, so without relaxed SIMD this file re-runs itself
// in a child Node with the flag and reports that run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadTrainEngine, loadTrainEngineFma } from '../../scripts/engine-node.mjs';
import { relaxedSimdSupported } from '../../web/src/engine/wasm-features.js';

const small = { vocab: 16, context: 8, d_model: 16, heads: 2, layers: 2, mlp_hidden: 32, batch_size: 2, seq_len: 8, steps: 3 };

if (!relaxedSimdSupported()) {
  test('lab_train_fma, run in a Node with relaxed SIMD enabled', () => {
    // Without NODE_TEST_CONTEXT the child reports in plain TAP instead of to this runner.
    const env = { ...process.env };
    delete env.NODE_TEST_CONTEXT;
    const child = spawnSync(process.execPath,
      ['--experimental-wasm-relaxed-simd', '--no-experimental-fetch', '--test', fileURLToPath(import.meta.url)],
      { encoding: 'utf8', timeout: 300000, env });
    assert.equal(child.status, 0, `${child.stdout}\n${child.stderr}`);
    assert.match(child.stdout, /# pass [1-9]/);
    assert.match(child.stdout, /# fail 0/);
  });
} else {
  const fma = await loadTrainEngineFma();
  const plain = await loadTrainEngine();
  const run = (mod, x) => JSON.parse(mod.train(JSON.stringify(x)));

  test('the fma module reports fused arithmetic, the plain one multiply-then-add; same engine version', () => {
    assert.equal(run(fma, small).flops.matmul_arithmetic, 'fma');
    assert.equal(run(plain, small).flops.matmul_arithmetic, 'mul+add');
    assert.equal(fma.version(), plain.version());
  });

  test('predicted == measured memory holds in the fma module, with the same bytes as the plain one', () => {
    for (const precision of ['fp32', 'mixed', 'bf16'])
      for (const checkpointing of ['none', 'full']) {
        const cfg = { ...small, steps: 1, precision, checkpointing, timeline_points: 0 };
        const a = run(fma, cfg), b = run(plain, cfg);
        assert.equal(a.error, undefined, JSON.stringify(a.error));
        assert.equal(a.memory.match, true, `${precision} ${checkpointing}`);
        assert.deepEqual(a.memory.measured, b.memory.measured);
      }
  });

  test('on a small model fused rounding keeps every loss within 0.1% of the plain build, and the loss still falls', () => {
    const cfg = { ...small, steps: 40, seed: 3 };
    const a = run(fma, cfg), b = run(plain, cfg);
    assert.equal(a.losses.length, 40);
    for (let i = 0; i < 40; i += 1) assert.ok(Math.abs(a.losses[i] - b.losses[i]) <= 1e-3 * Math.abs(b.losses[i]), `step ${i}: ${a.losses[i]} vs ${b.losses[i]}`);
    assert.ok(a.losses[39] < a.losses[0] - 0.1, `loss ${a.losses[0]} → ${a.losses[39]}`);
  });

  test('bad input is a structured error in the fma module too, and the module keeps working', () => {
    for (const text of ['{"steps": ', '[]', '{"batch_size": -3}', '{"precision": "fp8"}', '{"steps": 1e30}', 'null']) {
      const r = JSON.parse(fma.train(text));
      assert.ok(r.error && r.error.message, `${text}: ${JSON.stringify(r)}`);
    }
    assert.equal(run(fma, small).losses.length, 3);
  });

  test('the fma module measures a matmul peak', () => {
    const r = run(fma, { ...small, steps: 1, measure_peak: true });
    assert.ok(r.peak.flops_per_s > 1e8, JSON.stringify(r.peak));
  });
}
