// "Check it on your GPU" without running Python (issue 27): the script's text (PyTorch and the standard
// library only, no network, a readable size, the check's JSON inside), the styles' refusals naming the
// field, every user result in tests/fixtures/pytorch/user/ still agreeing with today's engine, and
// hostile pastes (not JSON, 10 MB, edited numbers, another scenario, a refusal, another format), each
// refused with the field named. The run on CPU is tests/wasm/pytorch-check.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEngine } from '../../../scripts/engine-node.mjs';
import { checkFor, pytorchScript, modelOf, unbuildable, cpuRunSeconds, CPU_FLOPS_PER_S, CHECK_FORMAT } from '../../../web/src/models/pytorch-script.js';
import { readMeasured, compareMeasured, refusalText, MEASURED_MAX_BYTES, sameGpu, phaseOf } from '../../../web/src/models/pytorch-compare.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const userDir = path.join(here, '..', '..', 'fixtures', 'pytorch', 'user');
const users = readdirSync(userDir).filter((f) => f.endsWith('.json')).sort();
const engine = await loadEngine();
const evaluate = (s) => JSON.parse(engine.evaluate(JSON.stringify(s)));
const text = readFileSync(path.join(userDir, users[0]), 'utf8');
const measured = () => JSON.parse(text);

const llama = { layers: 2, hidden: 64, heads: 4, vocab: 300, context: 64, mlp_hidden: 160, tied_head: false,
  learned_positions: false, biases: false, mlp: 'swiglu', norm: 'rmsnorm' };
const scenario = { model: llama, framework: 'pytorch', precision: 'autocast_bf16', optimizer: 'adam', batch_size: 2, seq_len: 32 };

test('the script imports PyTorch and the standard library only, opens no connection, and reads in one sitting', () => {
  for (const style of ['nanogpt', 'hf_llama']) {
    const s = style === 'nanogpt' ? { ...scenario, model: 'gpt2-small' } : scenario;
    const check = checkFor(evaluate, s);
    assert.equal(check.error, undefined, JSON.stringify(check.error));
    assert.equal(check.style, style);
    const py = pytorchScript(check);
    const modules = py.split('\n').filter((l) => /^\s*(import|from)\s/.test(l))
      .flatMap((l) => l.trim().replace(/^(import|from)\s+/, '').split(',').map((m) => m.trim().split(/\s/)[0]));
    assert.deepEqual(modules.sort(),
      ['contextlib', 'json', 'math', 'sys', 'time', 'torch', 'torch.nn', 'torch.nn.functional'].sort());
    assert.doesNotMatch(py, /urllib|requests|socket|http|subprocess|pip |hf_hub|from_pretrained/);
    assert.ok(py.split('\n').length < 320, `${py.split('\n').length} lines`);
    // A quote in a model's name cannot end the string the check rides in.
    assert.doesNotMatch(pytorchScript({ ...check, scenario: { ...check.scenario, model: { name: "it''' + 'is" } } }).split("CHECK = json.loads(r'''")[1].split("''')")[0], /'/);
    // The check rides inside as a JSON string: the scenario, the model and the prediction's peak.
    const inside = JSON.parse(/CHECK = json\.loads\(r'''([^]*?)'''\)\n/.exec(py)[1]);
    assert.equal(inside.format, CHECK_FORMAT);
    assert.equal(inside.predicted_peak_bytes, Math.max(evaluate({ ...s, step: 'first' }).memory.peak_bytes, evaluate(s).memory.peak_bytes));
    assert.equal(inside.model_flops_per_token, evaluate(s).flops.model_per_token);
  }
});

test('a model a code style cannot build, or a step not counted the PyTorch way, is refused with the field named', () => {
  const cases = [
    [{ ...scenario, framework: 'textbook', precision: 'fp32' }, 'framework'],
    [{ ...scenario, model: { ...llama, mlp: 'gelu' } }, 'model.mlp'],
    [{ ...scenario, model: { ...llama, learned_positions: true } }, 'model.norm'], // learned positions: nanoGPT code, LayerNorm
    [{ ...scenario, model: { ...llama, norm: 'layernorm' } }, 'model.norm'],
    [{ ...scenario, model: 'gpt2-small', precision: 'fp33' }, 'precision'],
  ];
  for (const [s, field] of cases) assert.equal(checkFor(evaluate, s).error?.field, field, JSON.stringify(s));
  // Fields the engine's model spec has since issue 25: refused by the style rules themselves.
  const m = modelOf({ ...llama, parallel_residual: true, norms_per_layer: 4 });
  assert.deepEqual(unbuildable(m, 'hf_llama').map(([f]) => f), ['model.norms_per_layer', 'model.parallel_residual']);
  assert.deepEqual(unbuildable(modelOf({ ...llama, kv_heads: 2, learned_positions: true, mlp: 'gelu', norm: 'layernorm' }), 'nanogpt').map(([f]) => f), ['model.kv_heads']);
  assert.deepEqual(unbuildable(modelOf({ ...llama, mlp: 'geglu' }), 'hf_llama').map(([f]) => f), ['model.mlp']);
  assert.deepEqual(unbuildable(modelOf({ ...llama, mlp_bias: true }), 'from_scratch').map(([f]) => f), ['model.biases']);
});

test('every result users sent back still agrees with the engine: saved bytes exact, each step\'s peak within 1%', () => {
  assert.ok(users.length >= 2);
  for (const f of users) {
    const t = readFileSync(path.join(userDir, f), 'utf8');
    const out = compareMeasured(evaluate, JSON.parse(t).scenario, t);
    assert.equal(out.error, undefined, `${f}: ${JSON.stringify(out.error)}`);
    assert.equal(out.status, 'agrees', `${f}: ${JSON.stringify(out.phases)}`);
    assert.equal(out.saved.measured_bytes, out.saved.predicted_bytes, f);
  }
});

test('the H100 result (GPT-2 small, b = 8, s = 1,024, autocast BF16): the verdict is what its numbers say', () => {
  const f = users.find((u) => u.startsWith('h100-'));
  assert.ok(f, 'the H100 result is in tests/fixtures/pytorch/user/');
  const t = readFileSync(path.join(userDir, f), 'utf8');
  const m = JSON.parse(t);
  assert.equal(m.device.name, 'NVIDIA H100 80GB HBM3');
  const out = compareMeasured(evaluate, m.scenario, t);
  assert.equal(out.error, undefined, JSON.stringify(out.error));
  assert.equal(out.timing.same_device, true);
  // The verdict from the rows themselves: every step's peak within the tolerance, and the saved
  // bytes, autocast's weight copies and the parameters exact.
  const peaks = out.phases.filter((r) => r.phase === 'peak');
  assert.equal(peaks.length, 2);
  const within = peaks.every((r) => Math.abs(r.error_pct) <= out.tolerance_pct);
  const exact = out.saved.predicted_bytes === out.saved.measured_bytes
    && out.saved.weight_cache_predicted_bytes === out.saved.weight_cache_measured_bytes && out.parameters.predicted === out.parameters.measured;
  assert.equal(out.status, within && exact ? 'agrees' : 'differs');
  assert.equal(out.status, 'agrees', JSON.stringify(out.phases));
  for (const r of peaks) {
    assert.equal(r.predicted_phase, r.measured_phase);
    assert.ok(Math.abs(r.error_pct) < 0.2, `${r.step}: ${r.error_pct}%`); // −0.08% and −0.13% today
  }
  // Each phase's own maximum too (forward +0.08% and 0.00%, the optimizer step −0.6% today).
  for (const r of out.phases) assert.ok(Math.abs(r.error_pct) < 1, `${r.step} ${r.phase}: ${r.error_pct}%`);
});

test('hostile pastes are refused, each naming the field; a notebook\'s warnings before the line are not', () => {
  const edit = (fn) => { const m = measured(); fn(m); return JSON.stringify(m); };
  const cases = [
    ['', 'measured', /nothing pasted/],
    ['{"lab_check": "lab08-pytorch-check/1", ', 'measured', /not JSON/],
    ['x'.repeat(10 * 1024 * 1024), 'measured', /10240 KB pasted/],
    ['[1, 2]', 'measured', /not a JSON object/],
    // 15,000 deep: JSON.parse takes it, JSON.stringify (the engine adapter's) would overflow its stack.
    [`{"lab_check": "lab08-pytorch-check/1", "scenario": {"model": ${'['.repeat(15000)}${']'.repeat(15000)}}}`, 'measured', /nested more than 8 deep/],
    ['{"refused": "PyTorch sees no CUDA GPU.", "scenario": {}}', 'refused', /did not run the step: PyTorch sees no CUDA GPU/],
    [edit((m) => { m.lab_check = 'lab08-pytorch-check/9'; }), 'lab_check', /not a format this page reads/],
    [edit((m) => { delete m.lab_check; }), 'lab_check', /not a result of this lab/],
    [edit((m) => { delete m.scenario; }), 'scenario', /missing/],
    [edit((m) => { m.saved_bytes = -1; }), 'saved_bytes', /not a count/],
    [edit((m) => { m.steady_step.peak_bytes -= 1000; }), 'steady_step.peak_bytes', /not the largest phase peak/],
    [edit((m) => { m.first_step.phase_max_bytes.zero_grad = m.first_step.start_bytes - 8; }), 'first_step.phase_max_bytes.zero_grad', /below the bytes alive/],
    [edit((m) => { m.first_step.phase_max_bytes.forward = 'many'; }), 'first_step.phase_max_bytes.forward', /not a byte count/],
    [edit((m) => { m.timing.tokens_per_s *= 2; }), 'timing.tokens_per_s', /changed after the run/],
    [edit((m) => { m.timing.mfu = 0.5; }), 'timing.mfu', /changed after the run/],
    [edit((m) => { m.device = 'GPU'; }), 'device', /missing/],
  ];
  for (const [paste, field, message] of cases) {
    const r = readMeasured(paste);
    assert.equal(r.error?.field, field, `${paste.slice(0, 80)} → ${JSON.stringify(r.error)}`);
    assert.match(r.error.message, message);
    // The page says it in words: no field path (labctl's JSON keeps it in error.field).
    assert.doesNotMatch(refusalText(r.error), /[a-z]_[a-z]|[a-z]\.[a-z]|\([a-z_.]+\)/, refusalText(r.error));
  }
  assert.equal(refusalText(readMeasured(edit((m) => { m.first_step.phase_max_bytes.zero_grad = 8; })).error),
    'The first step\'s zero-grad peak: the first phase’s peak is below the bytes alive at the start: the numbers were changed after the run');
  assert.ok(10 * 1024 * 1024 > MEASURED_MAX_BYTES);
  assert.ok(readMeasured(`\uFEFFWARNING: Logging before InitGoogleLogging()\n${text}\n`).measured, 'the line is found after warnings');
});

test('a result of another scenario is refused, naming each field that differs', () => {
  const s = measured().scenario;
  const other = { ...s, batch_size: s.batch_size + 1, seq_len: s.seq_len - 1 };
  const r = compareMeasured(evaluate, other, text);
  assert.equal(r.error.field, 'scenario');
  assert.match(r.error.message, new RegExp(`batch size: ${s.batch_size} there, ${s.batch_size + 1} here`));
  assert.match(r.error.message, new RegExp(`sequence length: ${s.seq_len} there, ${s.seq_len - 1} here`));
  const model = compareMeasured(evaluate, { ...s, model: { ...s.model, hidden: 128 } }, text);
  assert.match(model.error.message, new RegExp(`model’s hidden size: ${s.model.hidden} there, 128 here`));
  // The scenario is compared before the result's own numbers (a walk: another model read as a
  // code-style error, a batch changed alone as edited tokens/s): each names what differs.
  const otherModel = measured();
  otherModel.scenario.model = 'gpt2-small';
  const byModel = compareMeasured(evaluate, s, JSON.stringify(otherModel));
  assert.equal(byModel.error?.field, 'scenario', JSON.stringify(byModel.error));
  assert.match(byModel.error.message, /another scenario: model: "gpt2-small" there, /);
  const otherBatch = measured();
  otherBatch.scenario.batch_size += 1;
  const byBatch = compareMeasured(evaluate, s, JSON.stringify(otherBatch));
  assert.match(byBatch.error?.message, new RegExp(`another scenario: batch size: ${s.batch_size + 1} there, ${s.batch_size} here`));
  // The student's choices come first, derived fields after (a re-walk read "dropout" first and the
  // code style left among "1 more"): with dropout, optimizer and batch changed, the batch leads.
  const several = measured();
  several.scenario = { ...several.scenario, dropout: !several.scenario.dropout, optimizer: 'sgd', batch_size: s.batch_size + 1 };
  const bySeveral = compareMeasured(evaluate, s, JSON.stringify(several));
  assert.match(bySeveral.error?.message, /another scenario: optimizer: [^;]+; batch size: [^;]+; dropout:/, bySeveral.error?.message);
  // A result the scenario names, with a number changed consistently beyond 1%: compared, and it differs.
  const m = measured();
  m.saved_bytes += 4;
  assert.equal(compareMeasured(evaluate, s, JSON.stringify(m)).status, 'differs');
});

test('the timeline\'s moments group into the script\'s phases; the GPU is named by its model number', () => {
  // The loss is computed inside the script's forward (the model returns it): loss_forward is forward.
  assert.deepEqual(['start', 'forward.layer.0', 'forward_end', 'loss_forward', 'loss_backward', 'head_backward', 'backward.layer.1.attention', 'backward_end', 'optimizer_step'].map(phaseOf),
    ['forward', 'forward', 'forward', 'forward', 'backward', 'backward', 'backward', 'backward', 'optimizer_step']);
  assert.equal(sameGpu({ type: 'cuda', name: 'NVIDIA H100 80GB HBM3' }, 'NVIDIA H100 SXM 80 GB'), true);
  assert.equal(sameGpu({ type: 'cuda', name: 'Tesla T4' }, 'NVIDIA T4 16 GB'), true);
  assert.equal(sameGpu({ type: 'cuda', name: 'Tesla T4' }, 'NVIDIA H100 SXM 80 GB'), false);
  assert.equal(sameGpu({ type: 'cpu', name: 'CPU' }, 'NVIDIA H100 SXM 80 GB'), false);
  // GeForce names have a model number of digits only (a walk: the 4090, the workbench's default, never matched).
  assert.equal(sameGpu({ type: 'cuda', name: 'NVIDIA GeForce RTX 4090' }, 'NVIDIA GeForce RTX 4090 24 GB'), true);
  assert.equal(sameGpu({ type: 'cuda', name: 'NVIDIA GeForce RTX 4060 Laptop GPU' }, 'NVIDIA GeForce RTX 4060 Laptop 8 GB'), true);
  assert.equal(sameGpu({ type: 'cuda', name: 'NVIDIA GeForce RTX 4060' }, 'NVIDIA GeForce RTX 4060 Laptop 8 GB'), false);
  assert.equal(sameGpu({ type: 'cuda', name: 'NVIDIA A100-SXM4-80GB' }, 'NVIDIA A100 SXM4 80 GB'), true);
  assert.equal(sameGpu({ type: 'cuda', name: 'NVIDIA GeForce RTX 4090' }, 'NVIDIA A100 SXM4 80 GB'), false);
});

test('the CPU run time estimate: the workbench\'s default step runs for over an hour on a CPU, the tests\' small steps for seconds', () => {
  const cpuOf = (x) => ({ ...x, framework: 'pytorch', pytorch_build: 'cpu-1.13', reserve_bytes: 0 });
  const big = checkFor(evaluate, cpuOf({ model: 'gpt2-small', precision: 'autocast_bf16', optimizer: 'adam', batch_size: 8, seq_len: 1024 }));
  const steps = big.warmup_steps + big.measured_steps;
  assert.ok(cpuRunSeconds(big) > 3600, String(cpuRunSeconds(big)));
  assert.ok(cpuRunSeconds(big) > (big.model_flops_per_token * 8 * 1024 * steps) / CPU_FLOPS_PER_S, 'more steps than the timed and warm-up ones');
  assert.ok(cpuRunSeconds(checkFor(evaluate, cpuOf(scenario))) < 60);
});
