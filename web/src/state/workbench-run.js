// The workbench's run choices, DOM-free: GPU (catalogue or custom, its memory in GB or GiB), precision,
// optimizer, micro-batch, sequence length, checkpointing and how memory is counted (PyTorch and its
// knobs, or the textbook layout), and the one rule that keeps a scenario the engine accepts
// (normalizeRun). The form is ui/workbench-run-form.js; the URL is workbench-url.js.

export const PRECISIONS = ['fp32', 'autocast_bf16', 'autocast_fp16', 'bf16', 'mixed'];
// What each way of counting accepts (the engine refuses the others: autocast is PyTorch's; the
// chapter's mixed is the textbook layout's 16-bit weights + FP32 master).
export const PRECISIONS_FOR = { pytorch: ['fp32', 'autocast_bf16', 'autocast_fp16', 'bf16'], textbook: ['fp32', 'mixed', 'bf16'] };
export const OPTIMIZERS = ['adam', 'momentum', 'sgd'];
export const CHECKPOINTING = ['none', 'selective', 'full', 'every'];
export const COUNTINGS = ['pytorch', 'textbook'];
export const MEMORY_UNITS = { gb: 1e9, gib: 2 ** 30 };
export const BATCH = { min: 1, max: 65536 };
export const SEQ = { min: 1, max: 1048576 };
// PyTorch's knobs: values and defaults (the engine's own defaults), and the two that engineer P's
// engine adds (offered only where the engine reads them).
export const PYTORCH_KNOBS = {
  step: { values: ['steady', 'first'], default: 'steady' },
  zero_grad: { values: ['set_to_none', 'zero'], default: 'set_to_none' },
  optimizer_impl: { values: ['foreach', 'per_parameter', 'fused'], default: 'foreach' },
  pytorch_implementation: { values: ['nanogpt', 'hf_llama', 'from_scratch'], default: null, newer: true },
  autocast_scope: { values: ['forward', 'step'], default: 'forward', newer: true },
};

export const LABELS = {
  precision: {
    fp32: 'FP32', autocast_bf16: 'Autocast BF16', autocast_fp16: 'Autocast FP16', bf16: 'Pure BF16',
    mixed: 'Mixed (FP32 master)',
  },
  optimizer: { adam: 'Adam(W)', momentum: 'SGD + momentum', sgd: 'SGD' },
  checkpointing: { none: 'None', selective: 'Selective (attention)', full: 'Full (every layer)', every: 'Every k layers' },
  counting: { pytorch: 'As PyTorch allocates it', textbook: 'Textbook layout' },
  step: { steady: 'A later step', first: 'The first step' },
  zero_grad: { set_to_none: 'set_to_none', zero: 'zero' },
  optimizer_impl: { foreach: 'foreach', per_parameter: 'for-loop', fused: 'fused' },
  pytorch_implementation: { nanogpt: 'nanoGPT', hf_llama: 'HF Llama', from_scratch: 'From scratch' },
  autocast_scope: { forward: 'The forward pass', step: 'The whole step' },
};

// One short sentence per PyTorch knob: what it changes.
// The note under Precision: what is offered here (it starts from the state, so it never reads as the
// name of an option that is not chosen), then where the other way of counting's precisions are.
export const PRECISION_ELSEWHERE = {
  pytorch: 'Here: PyTorch’s precisions; the chapter’s mixed is under the textbook layout.',
  textbook: 'Here: the textbook’s precisions; autocast is under PyTorch counting.',
};
export const KNOB_NOTES = {
  step: 'The first step also creates the optimizer’s state inside optimizer.step(); later steps start with it.',
  zero_grad: 'set_to_none (the default) frees the gradients before the forward; zero keeps them allocated.',
  optimizer_impl: 'foreach (the default on GPU) updates all tensors at once with model-sized temporaries; the for-loop needs one tensor’s worth; fused none.',
  pytorch_implementation: 'How the model’s code is written (nanoGPT, Hugging Face’s Llama, a course’s from-scratch code) decides which tensors autograd saves.',
  autocast_scope: 'Wrapping the whole step in autocast keeps its 16-bit weight copies alive through the backward.',
};

export const DEFAULT_RUN = Object.freeze({
  device: 'rtx4090-24gb', precision: 'autocast_bf16', optimizer: 'adam', batch_size: 8, seq_len: 1024,
  checkpointing: 'none', framework: 'pytorch',
});
export const DEFAULT_MODEL = 'gpt2-small';
export const defaultScenario = () => ({ model: DEFAULT_MODEL, ...DEFAULT_RUN });

export const isAutocast = (precision) => precision === 'autocast_bf16' || precision === 'autocast_fp16';
export const ckptParam = (c) => (c && typeof c === 'object' ? 'every' : c);

// The scenario made consistent with the way memory is counted: PyTorch counting has no checkpointing
// (the engine's PyTorch model has none) and autocast rather than the chapter's mixed; the textbook
// layout has neither autocast nor PyTorch's knobs. `newer`: the newer knobs the engine reads.
// Returns { scenario, changed: [words for what was changed] }.
export function normalizeRun(scenario, newer = []) {
  const s = { ...scenario };
  const changed = [];
  if (s.framework === 'pytorch') {
    if (s.precision === 'mixed') { s.precision = 'autocast_bf16'; changed.push('the chapter’s mixed precision is the textbook layout’s, so autocast BF16 is used'); }
    if (s.checkpointing && s.checkpointing !== 'none') { s.checkpointing = 'none'; changed.push('checkpointing is off (PyTorch counting models none)'); }
    for (const [key, knob] of Object.entries(PYTORCH_KNOBS)) {
      if (knob.newer && !newer.includes(key)) delete s[key];
      else if (!knob.values.includes(s[key])) { if (knob.default) s[key] = knob.default; else delete s[key]; }
    }
    if (!isAutocast(s.precision)) delete s.autocast_scope;
  } else {
    s.framework = 'textbook';
    if (isAutocast(s.precision)) { s.precision = 'mixed'; changed.push('autocast is PyTorch counting’s, so the chapter’s mixed precision is used'); }
    for (const key of Object.keys(PYTORCH_KNOBS)) delete s[key];
  }
  return { scenario: s, changed };
}

// A custom GPU, as the engine reads it: a catalogue GPU (`base`) with the student's memory, peaks and
// bandwidth. Inputs in the form's units: memory in `unit` (GB or GiB), TFLOP/s, GB/s.
export function customDevice({ base, memory, unit, tflops16, tflops32, bandwidth }) {
  return {
    base, name: 'Custom GPU',
    capacity_bytes: Math.round(memory * MEMORY_UNITS[unit]),
    peak_fp16_flops_per_s: tflops16 * 1e12, peak_bf16_flops_per_s: tflops16 * 1e12,
    peak_fp32_flops_per_s: tflops32 * 1e12, hbm_bytes_per_s: bandwidth * 1e9,
  };
}

// The custom-GPU form's values for a device (catalogue entry or custom object), memory in `unit`.
export function customValues(device, unit) {
  const round = (x, d) => Number(x.toFixed(d));
  return {
    memory: round(device.capacity_bytes / MEMORY_UNITS[unit], 2),
    tflops16: round((device.peak_bf16_flops_per_s || device.peak_fp16_flops_per_s) / 1e12, 2),
    tflops32: round(device.peak_fp32_flops_per_s / 1e12, 2),
    bandwidth: round(device.hbm_bytes_per_s / 1e9, 1),
  };
}

// A positive number typed in a field ("24", "82.6"), or NaN.
export const positiveNumber = (text) => (/^\s*\d{1,7}(\.\d{1,4})?\s*$/.test(String(text)) && Number(text) > 0 ? Number(text) : NaN);
// A whole number in [range.min, range.max], or NaN.
export const wholeIn = (text, range) => {
  const n = /^\s*\d{1,7}\s*$/.test(String(text)) ? Number(text) : NaN;
  return n >= range.min && n <= range.max ? n : NaN;
};

// Run fields of the engine's errors, in the form's words.
const RUN_FIELD_WORDS = {
  batch_size: 'Micro-batch', seq_len: 'Sequence length', precision: 'Precision', optimizer: 'Optimizer', checkpointing: 'Checkpointing',
  'device.capacity_bytes': 'GPU memory', 'device.peak_fp16_flops_per_s': '16-bit peak', 'device.peak_bf16_flops_per_s': '16-bit peak',
  'device.peak_fp32_flops_per_s': 'FP32 peak', 'device.hbm_bytes_per_s': 'Memory bandwidth', device: 'GPU', framework: 'Memory counting',
  step: 'Step', zero_grad: 'zero_grad', optimizer_impl: 'Optimizer implementation', pytorch_implementation: 'Implementation', autocast_scope: 'Autocast scope',
};
export function runErrorText(error) {
  const field = String(error.field || '');
  const words = RUN_FIELD_WORDS[field] || (field.startsWith('checkpointing') ? 'Checkpointing' : field.startsWith('device') ? 'GPU' : field);
  return `${words}: ${String(error.message || 'was refused')}.`;
}
