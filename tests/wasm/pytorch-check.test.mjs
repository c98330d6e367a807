// "Check it on your GPU" end to end on CPU (issue 27): the script generated for a scenario runs with
// Debian's python3-torch (/usr/bin/python3; scripts/setup.sh --tests installs it), and what it prints,
// pasted back, agrees with the engine's `pytorch_build: "cpu-1.13"` prediction as the fixtures do:
// saved bytes and parameters exact, every step's peak within 1%, in the same phase. The models
// are tiny (a few seconds each). Also through labctl: script, compare, and their exit statuses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEngine } from '../../scripts/engine-node.mjs';
import { checkFor, pytorchScript } from '../../web/src/models/pytorch-script.js';
import { compareMeasured, PEAK_TOLERANCE } from '../../web/src/models/pytorch-compare.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const PYTHON = '/usr/bin/python3';
const torchMissing = (() => {
  const r = spawnSync(PYTHON, ['-c', 'import torch'], { encoding: 'utf8' });
  return r.status === 0 ? false : `${PYTHON} cannot import torch: install Debian's python3-torch (scripts/setup.sh --tests)`;
})();
const engine = await loadEngine();
const evaluate = (s) => JSON.parse(engine.evaluate(JSON.stringify(s)));
const FEW = { warmup: 1, measured: 2 };

const llama = { layers: 2, hidden: 64, heads: 4, vocab: 300, context: 64, mlp_hidden: 160, tied_head: false,
  learned_positions: false, biases: false, mlp: 'swiglu', norm: 'rmsnorm' };
const gpt2 = { layers: 2, hidden: 48, heads: 4, vocab: 280, context: 64, mlp_hidden: 192, tied_head: true,
  learned_positions: true, biases: true, mlp: 'gelu', norm: 'layernorm' };
const cpu = { framework: 'pytorch', pytorch_build: 'cpu-1.13', reserve_bytes: 0 };
// Sizes, precisions, optimizers and implementations the fixtures do not have in these combinations.
const CASES = [
  ['nanoGPT, FP32, AdamW per parameter, dropout', { ...cpu, model: gpt2, precision: 'fp32', optimizer: 'adam', optimizer_impl: 'per_parameter', batch_size: 2, seq_len: 40 }],
  ['nanoGPT, autocast BF16, SGD, zero_grad zero, untied', { ...cpu, model: { ...gpt2, tied_head: false }, precision: 'autocast_bf16', optimizer: 'sgd', optimizer_impl: 'foreach', zero_grad: 'zero', batch_size: 3, seq_len: 24 }],
  ['HF Llama, autocast BF16, momentum foreach, tied', { ...cpu, model: { ...llama, tied_head: true }, precision: 'autocast_bf16', optimizer: 'momentum', optimizer_impl: 'foreach', batch_size: 2, seq_len: 48 }],
  ['HF Llama with grouped-query attention, FP32, Adam', { ...cpu, model: { ...llama, kv_heads: 2 }, precision: 'fp32', optimizer: 'adam', optimizer_impl: 'per_parameter', batch_size: 2, seq_len: 48 }],
  ['HF Llama, pure BF16, Adam, 128 tokens', { ...cpu, model: llama, precision: 'bf16', optimizer: 'adam', optimizer_impl: 'per_parameter', batch_size: 2, seq_len: 64 }],
  // Issue 26's fields: run once the engine knows them (until h26 is merged it refuses the field).
  ['from scratch, FP32, AdamW', { ...cpu, model: llama, pytorch_implementation: 'from_scratch', precision: 'fp32', optimizer: 'adam', optimizer_impl: 'per_parameter', batch_size: 2, seq_len: 32 }],
  ['HF Llama, autocast around the whole step', { ...cpu, model: llama, autocast_scope: 'step', precision: 'autocast_bf16', optimizer: 'adam', optimizer_impl: 'foreach', batch_size: 2, seq_len: 32 }],
];

// A gap the loop found (web/README.md): pure BF16 on CPU with few tokens per step (b·s = 64 = d), the
// backward peak is 4-7% above the prediction (measured with scripts/measure-pytorch.py's code too;
// CPU 16-bit matmul workspaces, which the model leaves out). Run and reported, not yet held.
const GAPS = [
  ['HF Llama, pure BF16, SGD, 64 tokens', { ...cpu, model: llama, precision: 'bf16', optimizer: 'sgd', optimizer_impl: 'per_parameter', batch_size: 2, seq_len: 32 }],
];

function runScript(text) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lab-check-'));
  try {
    writeFileSync(path.join(dir, 'lab08_check.py'), text);
    const r = spawnSync(PYTHON, [path.join(dir, 'lab08_check.py')], { encoding: 'utf8', timeout: 120000, cwd: dir });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const [name, scenario, todo] of [...CASES, ...GAPS.map(([n, s]) => [n, s, 'a known gap of the step-phase model'])]) {
  const probe = evaluate(scenario);
  const unknown = probe.error && /pytorch_implementation|autocast_scope/.test(probe.error.field) && 'this engine predates issue 26 (P\'s fields)';
  test(`generated, run on CPU and pasted back, it agrees with the prediction: ${name}`, { skip: torchMissing || unknown, todo }, () => {
    assert.equal(probe.error, undefined, JSON.stringify(probe.error));
    const check = checkFor(evaluate, scenario, FEW);
    assert.equal(check.error, undefined, JSON.stringify(check.error));
    const run = runScript(pytorchScript(check));
    assert.equal(run.status, 0, run.stderr + run.stdout);
    const out = compareMeasured(evaluate, scenario, run.stdout);
    assert.equal(out.error, undefined, JSON.stringify(out.error));
    assert.equal(out.saved.measured_bytes, out.saved.predicted_bytes, 'saved bytes exact');
    assert.equal(out.saved.weight_cache_measured_bytes, out.saved.weight_cache_predicted_bytes, 'autocast weight cache exact');
    assert.equal(out.parameters.measured, out.parameters.predicted);
    // Each step's peak within 1%, as the fixtures are held, in its phase; each phase's own maximum within
    // 1.5% (the forward includes the loss, which the model returns: the timeline's loss_forward moment;
    // tiny autocast models' forwards were measured up to 1.27% below the prediction, away from the peak).
    for (const r of out.phases.filter((x) => x.phase === 'peak')) {
      assert.ok(Math.abs(r.error_pct) <= 100 * PEAK_TOLERANCE, `${r.step} peak: ${JSON.stringify(r)}`);
      assert.equal(r.measured_phase, r.predicted_phase, r.step);
    }
    for (const r of out.phases) assert.ok(Math.abs(r.error_pct) <= 1.5, `${r.step} ${r.phase}: ${JSON.stringify(r)}`);
    assert.equal(out.status, 'agrees');
    assert.equal(out.measured_on.type, 'cpu');
    assert.ok(out.timing.measured_step_seconds > 0 && out.timing.measured_mfu === null && out.timing.same_device === false);
  });
}

test('a step the lab predicts will not fit is refused before anything is allocated, and the refusal read back names it', { skip: torchMissing }, () => {
  const scenario = { ...cpu, model: 'gpt2-xl', batch_size: 512, seq_len: 1024 };
  const run = runScript(pytorchScript(checkFor(evaluate, scenario, FEW)));
  assert.equal(run.status, 1, run.stderr);
  const printed = JSON.parse(run.stdout);
  assert.match(printed.refused, /^The lab predicts this step needs [\d,]+ bytes \([\d,.]+ GB\); CPU has [\d,]+ bytes \([\d,.]+ GB\) free\. It would run out of memory/);
  const back = compareMeasured(evaluate, scenario, run.stdout);
  assert.equal(back.error.field, 'refused');
});

// A CPU step that fits but would take most of the machine (a walk: 12 GB and growing after 3 minutes)
// is refused with a margin: over half of what is free. The step is picked near 0.8 of MemAvailable now.
test('on a CPU a step over half of the free memory is refused before anything is allocated', { skip: torchMissing }, () => {
  const free = Number(/MemAvailable:\s+(\d+) kB/.exec(readFileSync('/proc/meminfo', 'utf8'))[1]) * 1024;
  const base = { ...cpu, model: 'gpt2-small', precision: 'fp32', optimizer: 'sgd', seq_len: 1024 };
  const pick = Array.from({ length: 256 }, (_, i) => ({ ...base, batch_size: i + 1 }))
    .map((s) => ({ s, check: checkFor(evaluate, s, FEW) }))
    .filter(({ check }) => !check.error && check.predicted_peak_bytes > 0.6 * free && check.predicted_peak_bytes < 0.9 * free)
    .sort((a, b) => Math.abs(a.check.predicted_peak_bytes - 0.8 * free) - Math.abs(b.check.predicted_peak_bytes - 0.8 * free))[0];
  assert.ok(pick, `no GPT-2 small step between 0.6 and 0.9 of ${free} bytes free`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lab-check-'));
  try {
    writeFileSync(path.join(dir, 'lab08_check.py'), pytorchScript(pick.check));
    // A short limit: the refusal comes before the model is built (a run would take minutes).
    const run = spawnSync(PYTHON, [path.join(dir, 'lab08_check.py')], { encoding: 'utf8', timeout: 60000, cwd: dir });
    assert.equal(run.status, 1, `${run.signal || ''} ${run.stderr}`);
    assert.match(JSON.parse(run.stdout).refused, /; CPU has [\d,]+ bytes \([\d,.]+ GB\) free\. On a CPU the script runs only a step within half of that/);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('a script for a GPU refuses, saying so, where PyTorch sees no CUDA GPU', { skip: torchMissing }, (t) => {
  const cuda = spawnSync(PYTHON, ['-c', 'import torch; print(torch.cuda.is_available())'], { encoding: 'utf8' }).stdout.trim();
  if (cuda === 'True') { t.skip('this machine has a CUDA GPU'); return; }
  const scenario = { model: 'gpt2-small', framework: 'pytorch', device: 'rtx4090-24gb', batch_size: 4, seq_len: 512 };
  const run = runScript(pytorchScript(checkFor(evaluate, scenario, FEW)));
  assert.equal(run.status, 1, run.stderr);
  assert.equal(JSON.parse(run.stdout).refused, 'PyTorch sees no CUDA GPU. In a notebook, choose a GPU runtime; or check the CPU build in the lab.');
});

const labctl = (args, input = '') => {
  const r = spawnSync(path.join(root, 'scripts', 'labctl'), args, { input, encoding: 'utf8', timeout: 120000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

test('labctl script prints the page\'s script, labctl compare the page\'s comparison, with their exit statuses', { skip: torchMissing }, () => {
  const scenario = CASES[2][1];
  const dir = mkdtempSync(path.join(os.tmpdir(), 'labctl-check-'));
  try {
    const file = path.join(dir, 'scenario.json');
    writeFileSync(file, JSON.stringify(scenario));
    const script = labctl(['script', '--steps', '1,2', file]);
    assert.equal(script.status, 0, script.stderr + script.stdout);
    assert.equal(script.stdout, pytorchScript(checkFor(evaluate, scenario, FEW)));
    const run = runScript(script.stdout);
    assert.equal(run.status, 0, run.stderr);
    const measured = path.join(dir, 'measured.json');
    writeFileSync(measured, run.stdout);
    const cmp = labctl(['compare', file, measured]);
    assert.equal(cmp.status, 0, cmp.stdout);
    const json = JSON.parse(cmp.stdout);
    assert.equal(json.status, 'agrees');
    assert.deepEqual(json.phases, compareMeasured(evaluate, scenario, run.stdout).phases);
    // The same result against another batch size: refused (3), naming the field.
    writeFileSync(path.join(dir, 'other.json'), JSON.stringify({ ...scenario, batch_size: 4 }));
    const other = labctl(['compare', path.join(dir, 'other.json'), measured]);
    assert.equal(other.status, 3);
    assert.equal(JSON.parse(other.stdout).error.field, 'scenario');
    assert.match(JSON.parse(other.stdout).error.message, /batch size: 2 there, 4 here/);
    // A peak edited by more than 1%, consistently (every phase and the peak): it differs (1).
    const m = JSON.parse(run.stdout);
    const scale = (s) => { for (const k of Object.keys(s.phase_max_bytes)) s.phase_max_bytes[k] = Math.round(s.phase_max_bytes[k] * 1.05); s.peak_bytes = Math.max(...Object.values(s.phase_max_bytes)); };
    scale(m.steady_step);
    writeFileSync(measured, JSON.stringify(m));
    const differs = labctl(['compare', file, measured]);
    assert.equal(differs.status, 1, differs.stdout);
    assert.equal(JSON.parse(differs.stdout).status, 'differs');
    // Usage (2) and a scenario the script cannot build (3).
    assert.equal(labctl(['script']).status, 2);
    assert.equal(labctl(['script', '--steps', '0,1', file]).status, 2);
    assert.equal(labctl(['compare']).status, 2);
    assert.equal(labctl(['compare', file, measured, file]).status, 2);
    // One file: the result is compared with the scenario it names; a scenario is not a result (3).
    const alone = labctl(['compare', file]);
    assert.equal(alone.status, 3);
    assert.equal(JSON.parse(alone.stdout).error.field, 'lab_check');
    writeFileSync(path.join(dir, 'textbook.json'), JSON.stringify({ model: 'gpt2-small' }));
    const textbook = labctl(['script', path.join(dir, 'textbook.json')]);
    assert.equal(textbook.status, 3);
    assert.equal(JSON.parse(textbook.stdout).error.field, 'framework');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
