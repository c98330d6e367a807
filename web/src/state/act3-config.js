// Act 3's knobs (no DOM, no engine): their allowed values and defaults, shared by the URL (url-state.js),
// the store and the act. Small on purpose: it is part of the first load; everything else of Act 3
// (the scenario mapping, the view model) is in act3-model.js, loaded with the act.
export const STRATEGIES3 = ['ddp', 'zero1', 'zero2', 'zero3', 'tp', 'pp'];
// GPUs N on a log scale: 1, 2, 4, …, 1,024.
export const GPU_COUNTS3 = Array.from({ length: 11 }, (_, i) => 2 ** i);
export const BATCH_SIZES3 = [1, 2, 4, 8, 16, 32];
export const OPTIMIZERS3 = ['sgd', 'momentum', 'adam'];
export const PRECISIONS3 = ['fp32', 'mixed'];
export const DEVICES3 = ['rtx4060-laptop-8gb', 'rtx4090-24gb', 'v100-sxm2-32gb', 'a100-sxm4-40gb', 'a100-sxm4-80gb', 'h100-sxm-80gb'];
// The interconnect catalogue's ids (core/parallel, the engine's catalog().interconnects).
export const INTERCONNECTS3 = ['nvlink3', 'nvlink4', 'nvlink5', 'pcie4', 'pcie5', 'infiniband-hdr', 'infiniband-ndr',
  'ethernet-100g', 'ethernet-10g', 'ideal'];

// The explore panel starts on the laptop GPU of Act 2's challenge, fully sharded over 8 of them.
export const DEFAULT_CONFIG3 = Object.freeze({
  gpus: 8, strategy: 'zero3', interconnect: 'nvlink4', batch_size: 1, device: 'rtx4060-laptop-8gb',
  precision: 'mixed', optimizer: 'adam', checkpointing: 'full', every_k: 4,
});

export const normalizeConfig3 = (config) => ({ ...DEFAULT_CONFIG3, ...(config || {}) });
