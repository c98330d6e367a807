// scripts/labctl, the engine from the terminal: requests from a file or stdin, JSON on stdout, exit 0
// on success and 2 with {"error": {field, message}} on bad input or usage; `train --fma` runs the
// fused-multiply-add build the browser panel uses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { relaxedSimdSupported } from '../../web/src/engine/wasm-features.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const labctl = (args, input = '') => {
  const r = spawnSync(path.join(root, 'scripts', 'labctl'), args, { input, encoding: 'utf8', timeout: 120000 });
  return { status: r.status, json: r.stdout.trim() ? JSON.parse(r.stdout) : null, stderr: r.stderr };
};
const small = { vocab: 16, context: 8, d_model: 16, heads: 2, layers: 1, mlp_hidden: 32, batch_size: 2, seq_len: 8, steps: 3 };

test('evaluate reads stdin or a file and prints the engine’s JSON with exit 0', () => {
  const request = { model: 'gpt2-small', precision: 'fp32', optimizer: 'adam' };
  const fromStdin = labctl(['evaluate'], JSON.stringify(request));
  assert.equal(fromStdin.status, 0, fromStdin.stderr);
  assert.equal(fromStdin.json.error, undefined);
  assert.ok(fromStdin.json.memory, Object.keys(fromStdin.json).join(','));
  const dir = mkdtempSync(path.join(os.tmpdir(), 'labctl-'));
  try {
    writeFileSync(path.join(dir, 'r.json'), JSON.stringify(request));
    const fromFile = labctl(['evaluate', path.join(dir, 'r.json')]);
    assert.equal(fromFile.status, 0);
    assert.deepEqual(fromFile.json, fromStdin.json);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('usage and input errors exit 2 with a structured error naming the problem', () => {
  const cases = [
    [['frobnicate'], '', 'command'],
    [['evaluate', 'a.json', 'b.json'], '', 'arguments'],
    [['evaluate', '/nonexistent/request.json'], '', 'file'],
    [['evaluate', '--fma'], '{}', 'arguments'],
  ];
  for (const [args, input, field] of cases) {
    const r = labctl(args, input);
    assert.equal(r.status, 2, args.join(' '));
    assert.equal(r.json.error.field, field, JSON.stringify(r.json));
    assert.ok(r.json.error.message.length > 10);
  }
  const malformed = labctl(['evaluate'], '{"model": ');
  assert.equal(malformed.status, 2);
  assert.ok(malformed.json.error.message, JSON.stringify(malformed.json));
  const badValue = labctl(['train'], JSON.stringify({ ...small, batch_size: -1 }));
  assert.equal(badValue.status, 2);
  assert.equal(badValue.json.error.field, 'batch_size', JSON.stringify(badValue.json));
});

test('train runs the plain build; train --fma the fused one, with the same bytes', () => {
  const plain = labctl(['train'], JSON.stringify(small));
  const fused = labctl(['train', '--fma'], JSON.stringify(small));
  assert.equal(plain.status, 0, plain.stderr);
  assert.equal(fused.status, 0, fused.stderr);
  assert.equal(plain.json.flops.matmul_arithmetic, 'mul+add');
  assert.equal(fused.json.flops.matmul_arithmetic, 'fma');
  assert.deepEqual(fused.json.memory.measured, plain.json.memory.measured);
  assert.equal(fused.json.losses.length, 3);
});

test('train --fma in a Node without relaxed SIMD says how to run it, and exits 2',
  { skip: relaxedSimdSupported() && 'this Node has relaxed SIMD without a flag' }, () => {
  const r = spawnSync(process.execPath, ['--no-experimental-fetch', path.join(root, 'scripts', 'labctl.mjs'), 'train', '--fma'],
    { input: JSON.stringify(small), encoding: 'utf8' });
  assert.equal(r.status, 2);
  const err = JSON.parse(r.stdout).error;
  assert.equal(err.field, 'fma');
  assert.match(err.message, /relaxed SIMD/);
});

test('evaluate and solve --hf-config FILE [--scenario FILE]: a Hugging Face config.json as the model', () => {
  const configs = JSON.parse(readFileSync(path.join(root, 'tests', 'fixtures', 'hf', 'configs.json'), 'utf8'));
  const tiny = configs.find((c) => c.name === 'tinyllama-1.1b');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'labctl-hf-'));
  try {
    const cfg = path.join(dir, 'config.json'), scen = path.join(dir, 'scenario.json');
    writeFileSync(cfg, JSON.stringify(tiny.config));
    writeFileSync(scen, JSON.stringify({ framework: 'pytorch', device: 'rtx4090-24gb', seq_len: 512, batch_size: 2 }));
    const alone = labctl(['evaluate', '--hf-config', cfg]);
    assert.equal(alone.status, 0, JSON.stringify(alone.json));
    assert.equal(alone.json.model.parameters, tiny.published_parameters);
    const withScenario = labctl(['evaluate', `--hf-config=${cfg}`, '--scenario', scen]);
    assert.equal(withScenario.status, 0, JSON.stringify(withScenario.json));
    assert.equal(withScenario.json.scenario.batch_size, 2);
    assert.equal(withScenario.json.memory.framework, 'pytorch');
    const solved = labctl(['solve', '--hf-config', cfg, '--scenario', scen]);
    assert.equal(solved.status, 0, JSON.stringify(solved.json));
    assert.equal(solved.json.framework, 'pytorch');
    assert.ok(solved.json.largest_batch.largest_batch >= 1);

    writeFileSync(path.join(dir, 'bad.json'), '{"model_type": "llama",');
    writeFileSync(path.join(dir, 'moe.json'), JSON.stringify({ ...tiny.config, num_local_experts: 8 }));
    writeFileSync(path.join(dir, 'with-model.json'), JSON.stringify({ model: 'gpt2-small' }));
    writeFileSync(path.join(dir, 'array.json'), '[1]');
    const cases = [
      [['evaluate', '--hf-config'], 'hf-config'],
      [['evaluate', '--scenario', scen], 'hf-config'],
      [['evaluate', '--hf-config', path.join(dir, 'missing.json')], 'hf-config'],
      [['evaluate', '--hf-config', path.join(dir, 'bad.json')], 'hf-config'],
      [['evaluate', '--hf-config', cfg, '--scenario', path.join(dir, 'with-model.json')], 'scenario.model'],
      [['evaluate', '--hf-config', cfg, '--scenario', path.join(dir, 'array.json')], 'scenario'],
      [['evaluate', '--hf-config', cfg, 'extra.json'], 'arguments'],
      [['train', '--hf-config', cfg], 'arguments'],
      [['evaluate', '--hf-config', path.join(dir, 'moe.json')], 'model.hf_config.num_local_experts'],
    ];
    for (const [args, field] of cases) {
      const r = labctl(args);
      assert.equal(r.status, 2, args.join(' '));
      assert.equal(r.json.error.field, field, JSON.stringify(r.json));
      assert.ok(r.json.error.message.length > 10);
    }
    const help = spawnSync(path.join(root, 'scripts', 'labctl'), ['--help'], { encoding: 'utf8' });
    assert.equal(help.status, 0);
    assert.match(help.stdout, /--hf-config CONFIG\.json \[--scenario FILE\]/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
