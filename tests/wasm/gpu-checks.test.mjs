// The GPU check the lead runs on a CUDA machine (scripts/device/gpu-checks.sh, issue 28): its committed
// check scripts are what `labctl script` writes today for the committed scenarios (the GPU machine has
// no Node to regenerate them), and its --dry-run runs every part on CPU with Debian's python3-torch,
// writing at most 8 JSON files under $OUT with each part's exit status (about 20-50 s here).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const device = path.join(root, 'scripts', 'device');
const torchMissing = (() => {
  const r = spawnSync('/usr/bin/python3', ['-c', 'import torch'], { encoding: 'utf8' });
  return r.status === 0 ? false : "/usr/bin/python3 cannot import torch: install Debian's python3-torch (scripts/setup.sh --tests)";
})();

for (const [script, steps] of [['lab08_check.py', []], ['lab08_check_dryrun.py', ['--steps', '1,2']]]) {
  test(`scripts/device/${script} is what labctl script writes for its scenario`, () => {
    const scenario = path.join(device, script.replace('.py', '.scenario.json'));
    const r = spawnSync(path.join(root, 'scripts', 'labctl'), ['script', ...steps, scenario], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.equal(readFileSync(path.join(device, script), 'utf8'), r.stdout,
      `regenerate: scripts/labctl script ${steps.join(' ')} ${path.relative(root, scenario)} > scripts/device/${script}`);
  });
}

test('gpu-checks.sh --dry-run runs every part on CPU and writes its JSON under $OUT', { skip: torchMissing }, () => {
  const out = mkdtempSync(path.join(os.tmpdir(), 'gpu-checks-'));
  try {
    const r = spawnSync(path.join(device, 'gpu-checks.sh'), ['--dry-run'], { encoding: 'utf8', env: { ...process.env, OUT: out } });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const files = readdirSync(out).sort();
    assert.deepEqual(files, ['check.json', 'dist.json', 'env.json', 'log.txt', 'one-device.json']);
    const read = (f) => JSON.parse(readFileSync(path.join(out, f), 'utf8'));
    const env = read('env.json');
    assert.equal(env.dry_run, true);
    for (const part of ['dist', 'one-device', 'check']) assert.equal(env.parts[part].exit, 0, `${part}: ${readFileSync(path.join(out, 'log.txt'), 'utf8')}`);
    const dist = Object.values(read('dist.json'));
    assert.equal(dist.length, 2);
    for (const fx of dist) {
      assert.equal(fx.ranks.length, 2);
      for (const rank of fx.ranks) assert.ok(rank.steady_step.peak_bytes > rank.steady_step.start_bytes);
    }
    assert.deepEqual(Object.keys(read('one-device.json')), ['00-gpt2-L2-d64-s32-b2-fp32-adamw.json']);
    // What the check script printed agrees with the engine (labctl compare: exit 0).
    const cmp = spawnSync(path.join(root, 'scripts', 'labctl'), ['compare', path.join(out, 'check.json')], { encoding: 'utf8' });
    assert.equal(cmp.status, 0, cmp.stdout);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
