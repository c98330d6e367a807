// "Check it on your GPU", part 1: from a scenario, the Python script that measures the same training
// step (DOM-free; the page and `labctl script` share it). checkFor() asks the engine for what the
// script needs (the resolved scenario, the model, the predicted peak, FLOPs, the device's peak) and
// refuses, naming the field, what the script cannot build; pytorchScript() writes the text. The
// Python itself is in pytorch-script-py.js; reading the result back is pytorch-compare.js.
import { PY_HEAD, PY_NANOGPT, PY_HF_LLAMA, PY_FROM_SCRATCH, PY_RUN } from './pytorch-script-py.js';

// The measured JSON says which script wrote it; a future format is refused by name, not misread.
export const CHECK_FORMAT = 'lab08-pytorch-check/1';
export const SCRIPT_FILE_NAME = 'lab08_check.py';
export const RUN_COMMAND = `python3 ${SCRIPT_FILE_NAME}`;
export const RUN_NOTEBOOK = 'in a notebook, paste the script into a cell and run the cell';
// Steps before the timed ones (the first step also creates the optimizer state), and steps timed.
export const DEFAULT_STEPS = Object.freeze({ warmup: 3, measured: 10 });
const STYLES = { nanogpt: PY_NANOGPT, hf_llama: PY_HF_LLAMA, from_scratch: PY_FROM_SCRATCH };
export const STYLE_NAMES = { nanogpt: 'nanoGPT', hf_llama: 'Hugging Face Llama', from_scratch: 'from scratch' };
// The fields of the scenario that say how to measure, not what: the script measures both steps.
export const MEASURE_FIELDS = ['step', 'mode'];

const err = (field, message) => ({ error: { field, message } });

// Where the script runs: the scenario's PyTorch build. "cpu-1.13" is PyTorch on a CPU, as the lab's
// fixtures were measured (no allocator reserve there); the workbench's scenarios are for CUDA.
export const BUILDS = ['cuda', 'cpu-1.13'];
export function forBuild(scenario, build) {
  if (build !== 'cpu-1.13') return scenario;
  return { ...scenario, pytorch_build: 'cpu-1.13', reserve_bytes: 0 };
}

// The model as the script builds it: the engine's model object with every optional field filled the
// way the engine fills it (the contract of issue 25: per-projection biases default to `biases`,
// kv_heads to heads, head_dim to hidden / heads).
export function modelOf(spec) {
  const b = spec.biases !== false;
  return {
    layers: spec.layers, hidden: spec.hidden, heads: spec.heads, vocab: spec.vocab, context: spec.context,
    mlp_hidden: spec.mlp_hidden, tied_head: spec.tied_head !== false, learned_positions: spec.learned_positions !== false,
    mlp: spec.mlp || 'gelu', norm: spec.norm || 'layernorm',
    kv_heads: spec.kv_heads || spec.heads, head_dim: spec.head_dim || spec.hidden / spec.heads,
    qkv_bias: spec.qkv_bias ?? b, attn_out_bias: spec.attn_out_bias ?? b, mlp_bias: spec.mlp_bias ?? b,
    norm_bias: spec.norm_bias ?? b, norms_per_layer: spec.norms_per_layer || 2,
    parallel_residual: spec.parallel_residual === true, sliding_window: spec.sliding_window ?? null,
  };
}

// The code style the prediction assumes: the scenario's choice, else the engine's default.
export const styleOf = (scenario, model) => scenario.pytorch_implementation || (model.learned_positions ? 'nanogpt' : 'hf_llama');

// What the chosen code style cannot build, as [field, words]; empty when it can build this model.
export function unbuildable(model, style) {
  const out = [];
  const need = (ok, field, words) => { if (!ok) out.push([`model.${field}`, words]); };
  need(model.norms_per_layer === 2, 'norms_per_layer', 'the script builds two norms per layer (Gemma 2\'s four are not written yet)');
  need(!model.parallel_residual, 'parallel_residual', 'the script builds sequential blocks, not a parallel residual (GPT-NeoX)');
  if (style === 'nanogpt') {
    need(model.learned_positions, 'learned_positions', 'nanoGPT code has learned positions; choose the Llama or from-scratch style for RoPE');
    need(model.norm === 'layernorm', 'norm', 'nanoGPT code uses LayerNorm');
    need(model.mlp === 'gelu', 'mlp', 'nanoGPT code has a GELU MLP');
    need(model.kv_heads === model.heads, 'kv_heads', 'nanoGPT code has no grouped-query attention');
    need(model.head_dim * model.heads === model.hidden, 'head_dim', 'nanoGPT code splits hidden evenly over the heads');
  } else {
    const name = STYLE_NAMES[style];
    need(!model.learned_positions, 'learned_positions', `${name} code uses RoPE, not learned positions`);
    need(model.norm === 'rmsnorm', 'norm', `${name} code uses RMSNorm`);
    need(model.mlp === 'swiglu', 'mlp', `${name} code has a SwiGLU MLP`);
    need(!model.norm_bias, 'norm_bias', 'RMSNorm has no bias');
    if (style === 'from_scratch')
      need(!model.qkv_bias && !model.attn_out_bias && !model.mlp_bias, 'biases', 'from-scratch code has no biases');
    need(model.head_dim % 2 === 0, 'head_dim', 'RoPE needs an even head size');
  }
  return out;
}

// The resolved model object: the engine's own (issue 25's model.spec), the scenario's custom object,
// or a catalogue id resolved through `{"base": id}`.
function specOf(evaluate, scenario, result) {
  if (result.model && result.model.spec && typeof result.model.spec === 'object') return result.model.spec;
  if (typeof result.scenario.model === 'object') return result.scenario.model;
  const again = evaluate({ ...scenario, model: { base: result.scenario.model } });
  return again.error ? null : again.scenario.model;
}

// Everything the script needs from the engine, or { error }. `steps` overrides DEFAULT_STEPS (the
// CPU tests keep them few).
export function checkFor(evaluate, scenario, steps = DEFAULT_STEPS) {
  if (!scenario || typeof scenario !== 'object' || Array.isArray(scenario)) return err('scenario', 'the scenario must be a JSON object');
  const plain = evaluate(scenario);
  if (plain.error) return { error: plain.error };
  if (plain.scenario.framework !== 'pytorch' || !plain.memory.step_phases)
    return err('framework', 'the script measures what PyTorch allocates: count the step the PyTorch way (framework "pytorch")');
  const results = {};
  for (const step of ['first', 'steady']) {
    const r = evaluate({ ...scenario, step, mode: 'train' });
    if (r.error) return { error: r.error };
    results[step] = r;
  }
  const r = results.steady;
  const s = r.scenario;
  const spec = specOf(evaluate, scenario, r);
  if (!spec) return err('model', 'the engine did not return the model\'s fields');
  const model = modelOf(spec);
  const style = styleOf(s, model);
  if (!STYLES[style]) return err('pytorch_implementation', `the script has no "${style}" code style`);
  const bad = unbuildable(model, style);
  if (bad.length) return err(bad[0][0], `${bad[0][1]} (code style: ${STYLE_NAMES[style]})`);
  const measured = Math.floor(steps.measured);
  if (!(steps.warmup >= 1 && measured >= 1)) return err('steps', 'at least one warm-up step and one measured step');
  const scen = Object.fromEntries(Object.entries(s).filter(([k]) => !MEASURE_FIELDS.includes(k)));
  return {
    format: CHECK_FORMAT, style, scenario: scen, model,
    predicted_peak_bytes: Math.max(results.first.memory.peak_bytes, r.memory.peak_bytes),
    model_flops_per_token: r.flops.model_per_token, peak_flops_per_s: r.flops.peak_flops_per_s,
    device_name: r.device && r.device.name ? r.device.name : String(s.device),
    warmup_steps: Math.floor(steps.warmup), measured_steps: measured,
  };
}

// How long the script runs on a CPU, roughly: every step it takes (the timed ones, the warm-up, and
// about CPU_EXTRA_STEPS more: the saved-bytes passes, the first and the steady step) at CPU_FLOPS_PER_S
// of model FLOPs on one thread (the walks' course-model runs: 30 to 80 GFLOP/s idle, 4 under load).
export const CPU_FLOPS_PER_S = 2e10;
export const CPU_EXTRA_STEPS = 6;
export function cpuRunSeconds(check) {
  const steps = check.warmup_steps + check.measured_steps + CPU_EXTRA_STEPS;
  return (check.model_flops_per_token * check.scenario.batch_size * check.scenario.seq_len * steps) / CPU_FLOPS_PER_S;
}

// The check as the script holds it: one top-level field a line, inside a raw triple-quoted string. A
// quote is written \u0027 (JSON reads it back; it can then never close the string early).
export function checkJson(rest) {
  const lines = Object.entries(rest).map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`);
  return `{\n${lines.join(',\n')}\n}`.replace(/'/g, '\\u0027');
}

// The script's text for a check from checkFor: the head with the check as JSON, the style's model
// and the loop.
export function pytorchScript(check) {
  const { style, ...rest } = check;
  const json = checkJson(rest);
  const note = `# Code style: ${STYLE_NAMES[style]}.${check.model.sliding_window ? ' The sliding window is not applied (the lab predicts full causal attention).' : ''}\n`;
  return PY_HEAD.replace('@@CHECK@@', () => `r'''${json}'''`) + note + STYLES[style] + PY_RUN;
}
