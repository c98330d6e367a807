// Pure lab configuration (no DOM): the knobs' allowed values, the default configuration, and the
// mapping from a configuration to the engine's scenario JSON. The engine validates again; this module
// only keeps the UI, the URL and the store speaking the same vocabulary.

export const MODEL_ID = 'gpt2-xl';
export const OPTIMIZERS = ['sgd', 'momentum', 'adam'];
export const PRECISIONS = ['fp32', 'mixed', 'fp16', 'bf16'];
export const BATCH_SIZES = [1, 2, 4, 8, 16, 32, 64, 128];
export const CHECKPOINTING = ['none', 'selective', 'full', 'every_k'];
// Act 1's framework switch: 'textbook' (the chapter's Megatron/ZeRO layout, everything summed; also
// what an absent `framework` means) or 'pytorch' (what a PyTorch training step allocates, phase by
// phase, with PyTorch's defaults). See PYTORCH_DEFAULTS and toScenario.
export const FRAMEWORKS = ['textbook', 'pytorch'];
// PyTorch's defaults, as scenario fields: the steady state of a training loop (optimizer state made
// by an earlier step), zero_grad(set_to_none=True) (the default since 2.0), the foreach Adam/SGD
// (the default on GPU), and what autograd saves in a plain eager model.
export const PYTORCH_DEFAULTS = Object.freeze({
  framework: 'pytorch', activation_model: 'pytorch_eager', step: 'steady', zero_grad: 'set_to_none', optimizer_impl: 'foreach',
});
// Precision choices under PyTorch defaults. "Mixed" is torch.autocast("cuda") with its default
// 16-bit type, float16 (the engine gives BF16 autocast the same bytes); pure FP16/BF16 are a model
// cast with .half() / .bfloat16(), which the engine allows (and flags as unable to train).
export const PYTORCH_PRECISION = Object.freeze({ fp32: 'fp32', mixed: 'autocast_fp16', fp16: 'fp16', bf16: 'bf16' });
export const frameworkOf = (config) => (config && config.framework === 'pytorch' ? 'pytorch' : 'textbook');
// Act 1 controls the settings themselves switch off (each shows why): PyTorch defaults have no
// checkpointing choice or Chapter replay; Chapter replay runs on the chapter's V100.
export const controlsOff = (config) => [...(frameworkOf(config) === 'pytorch' ? ['ckpt', 'replay'] : []), ...(config && config.replay ? ['dev'] : [])];
export const UNIT_IDS = ['gb', 'gib'];
export const CUSTOM_DEVICE = 'custom';
export const CUSTOM_BASE_DEVICE = 'h100-sxm-80gb';
export const REPLAY_DEVICE = 'v100-sxm2-32gb'; // the chapter's walkthrough runs on a 32 GiB V100
export const CUSTOM_CAPACITY_GB = { min: 1, max: 1000 };
export const EVERY_K = { min: 1, max: 48 }; // GPT-2 XL has 48 layers

// Ledger components in stacking order (bottom to top); optimizer vectors are separate components.
// autocast_cache (autocast's 16-bit weight copies) appears under PyTorch defaults with mixed precision only.
export const COMPONENT_KEYS = [
  'weights', 'autocast_cache', 'master_weights', 'gradients', 'momentum', 'adam_m', 'adam_v',
  'activations', 'logits', 'reserve', 'transient',
];

export const LABELS = {
  optimizer: { sgd: 'SGD', momentum: 'SGD + Momentum', adam: 'Adam(W)' },
  precision: {
    fp32: 'FP32', mixed: 'Mixed (16-bit compute + FP32 master)', fp16: 'Pure FP16', bf16: 'Pure BF16',
  },
  checkpointing: {
    none: 'None', selective: 'Selective recompute', full: 'Full recompute', every_k: 'Every k layers',
  },
  // A closed select shows one line: at 390 px the full mixed label is cut (the laptop challenge).
  precisionShort: { fp32: 'FP32', mixed: 'Mixed (16-bit + FP32 master)', fp16: 'Pure FP16', bf16: 'Pure BF16' },
  framework: { textbook: 'Textbook layout', pytorch: 'PyTorch defaults' },
  // The precision radios' labels under PyTorch defaults (what each choice means there).
  precisionPytorch: {
    fp32: 'FP32', mixed: 'Mixed (autocast FP16: FP32 weights + 16-bit copies)', fp16: 'Pure FP16 (.half())', bf16: 'Pure BF16 (.bfloat16())',
  },
};

export const DEFAULT_CONFIG = Object.freeze({
  optimizer: 'adam',
  precision: 'fp32',
  batch_size: 1,
  checkpointing: 'none',
  every_k: 4,
  device: 'h100-sxm-80gb',
  custom_capacity_gb: 40,
  units: 'gb',
  replay: false,
  hidden_components: [],
});

// The chapter's walkthrough steps (chapter L3191–3302): the settings only; the engine computes the GB.
export const REPLAY_STEPS = [
  { id: 'baseline', label: 'FP32 baseline', config: { optimizer: 'adam', precision: 'fp32', batch_size: 32, checkpointing: 'none' } },
  { id: 'mixed', label: '+ mixed precision', config: { optimizer: 'adam', precision: 'mixed', batch_size: 32, checkpointing: 'none' } },
  { id: 'ckpt', label: '+ checkpoint every 4 layers', config: { optimizer: 'adam', precision: 'mixed', batch_size: 32, checkpointing: 'every_k', every_k: 4 } },
];

// `framework` stays optional (absent = textbook, so older states need no migration). Under PyTorch
// defaults there is no checkpointing and no Chapter replay (the engine refuses both there), so the
// configuration never holds them together.
export function normalizeConfig(config) {
  const c = { ...DEFAULT_CONFIG, ...(config || {}) };
  c.hidden_components = [...new Set((c.hidden_components || []).filter((k) => COMPONENT_KEYS.includes(k)))];
  if (c.framework !== 'pytorch') delete c.framework; // absent = textbook (also for 'textbook' itself)
  if (c.framework === 'pytorch') { c.checkpointing = 'none'; c.replay = false; }
  return c;
}

export function deviceForScenario(config) {
  if (config.replay) return REPLAY_DEVICE;
  if (config.device === CUSTOM_DEVICE) {
    return { base: CUSTOM_BASE_DEVICE, capacity_bytes: Math.round(config.custom_capacity_gb * 1e9) };
  }
  return config.device;
}

// The engine scenario for a configuration; `overrides` replaces knobs (e.g. { optimizer: 'sgd' }).
// Under PyTorch defaults: PYTORCH_DEFAULTS, the precision mapped (PYTORCH_PRECISION), no
// checkpointing, no replay. core/facade/facade_ledger_scenarios.cpp (act1_scenario) mirrors this mapping.
export function toScenario(config, overrides = {}) {
  const c = { ...config, ...overrides };
  if (frameworkOf(c) === 'pytorch') {
    return {
      model: MODEL_ID,
      optimizer: c.optimizer,
      precision: PYTORCH_PRECISION[c.precision] || c.precision,
      batch_size: c.batch_size,
      checkpointing: 'none',
      device: deviceForScenario({ ...c, replay: false }),
      chapter_replay: false,
      ...PYTORCH_DEFAULTS,
    };
  }
  return {
    model: MODEL_ID,
    optimizer: c.optimizer,
    precision: c.precision,
    batch_size: c.batch_size,
    checkpointing: c.checkpointing === 'every_k' ? { every_k_layers: c.every_k } : c.checkpointing,
    device: deviceForScenario(c),
    chapter_replay: Boolean(c.replay),
  };
}

// ---- Act 2, "The MFU gap": one training step of GPT-2 XL through the pipeline timing model.
// The instrument starts on the chapter's walkthrough (V100, mixed precision, Adam, checkpointing every
// 4 layers, batch 32, one loading process, no prefetch, pageable memory), with the timing constants
// calibrated to the chapter's profile (Chapter calibration); switching it off uses the physical ones.
export const ACT2_OPTIMIZER = 'adam';
export const PRECISIONS2 = ['fp32', 'mixed'];
export const BATCH_SIZES2 = [16, 32, 64, 128, 256];
export const DEVICES2 = ['v100-sxm2-32gb', 'a100-sxm4-40gb', 'a100-sxm4-80gb', 'h100-sxm-80gb'];
export const WORKERS = { min: 0, max: 16 };
export const PREFETCH_DEPTH = { min: 1, max: 8 };
export const SCHEDULE_STEPS = 3;

export const DEFAULT_CONFIG2 = Object.freeze({
  precision: 'mixed',
  checkpointing: 'every_k',
  every_k: 4,
  batch_size: 32,
  device: 'v100-sxm2-32gb',
  data_workers: 0,
  prefetch: false,
  prefetch_depth: 2,
  pinned_memory: false,
  replay: true,
});

// The chapter's tuned loop (8 workers, pinned memory, prefetch factor 2) on the same model and GPU.
export const CHAPTER_TUNED2 = Object.freeze({
  ...DEFAULT_CONFIG2, data_workers: 8, prefetch: true, prefetch_depth: 2, pinned_memory: true,
});

export function normalizeConfig2(config) {
  return { ...DEFAULT_CONFIG2, ...(config || {}) };
}

// The engine scenario for an Act 2 configuration; `overrides` replaces knobs.
export function toScenario2(config, overrides = {}) {
  const c = { ...config, ...overrides };
  return {
    model: MODEL_ID,
    optimizer: ACT2_OPTIMIZER,
    precision: c.precision,
    batch_size: c.batch_size,
    checkpointing: c.checkpointing === 'every_k' ? { every_k_layers: c.every_k } : c.checkpointing,
    device: c.device,
    chapter_replay: Boolean(c.replay),
    data_workers: c.data_workers,
    prefetch: Boolean(c.prefetch),
    prefetch_depth: c.prefetch_depth,
    pinned_memory: Boolean(c.pinned_memory),
    schedule_steps: c.schedule_steps === undefined ? SCHEDULE_STEPS : c.schedule_steps,
  };
}

// ---- The laptop challenge: fit GPT-2 XL training on the 8 GB laptop GPU. Exact physics (the real
// parameter count, Korthikanti activations), starting from the chapter's baseline settings.
export const LAPTOP_DEVICE = 'rtx4060-laptop-8gb';
export const LAPTOP_BATCH_SIZES = [1, 2, 4, 8, 16, 32];
export const LAPTOP_START = Object.freeze({
  optimizer: 'adam', precision: 'fp32', checkpointing: 'none', every_k: 4, batch_size: 32,
});

export function toLaptopScenario(moveConfig) {
  const c = { ...LAPTOP_START, ...moveConfig };
  return {
    model: MODEL_ID,
    device: LAPTOP_DEVICE,
    optimizer: c.optimizer,
    precision: c.precision,
    batch_size: c.batch_size,
    checkpointing: c.checkpointing === 'every_k' ? { every_k_layers: c.every_k } : c.checkpointing,
    schedule_steps: 0,
  };
}
