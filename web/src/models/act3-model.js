// Act 3's view model (no DOM): Act 3's knobs → the engine's multi-device scenario, the prediction's
// one stated scenario, the reveal's step times by interconnect, the reflections' answer keys from the
// engine's numbers, and the design ledger's Act 3 record. The engine is passed in (lab_scale's
// { evaluate, solve }); the act (acts/act3.js) draws what this returns. Tested in
// tests/web/unit/act3-model.test.mjs.
import { MODEL_ID } from '../state/scenario.js';
import { GPU_COUNTS3, normalizeConfig3 } from '../state/act3-config.js';
import { fitState } from './fit-state.js';
import { roundTogether } from './parallel-chart-common.js';
import { unitOf } from '../format/format.js';

// The prediction's scenario: GPT-2 XL on 8 GB laptop GPUs, fully sharded (ZeRO-3), mixed-precision
// Adam, batch 1 with full recompute, and an interconnect that costs nothing.
export const PREDICT3 = Object.freeze({
  gpus: 1, strategy: 'zero3', interconnect: 'ideal', batch_size: 1, device: 'rtx4060-laptop-8gb',
  precision: 'mixed', optimizer: 'adam', checkpointing: 'full', every_k: 4,
});
// The reveal's price of talking: the same answer over NVLink, PCIe and Ethernet.
export const REVEAL_INTERCONNECTS = ['nvlink4', 'pcie4', 'ethernet-10g'];
// A pipeline's micro-batches per step: enough that its bubble is visible but not the whole step.
export const PIPELINE_MICRO_BATCHES = 8;
// Tensor and pipeline parallelism stay inside one machine of 8 GPUs; more GPUs add data parallelism.
export const GPUS_PER_NODE = 8;
const STAGE = { ddp: 0, zero1: 1, zero2: 2, zero3: 3 };

// Degrees of tensor parallelism a model allows: each divides its heads, key/value heads and MLP width.
export function tensorDegrees(spec) {
  const kv = spec.kv_heads || spec.heads;
  return Array.from({ length: spec.heads }, (_, i) => i + 1)
    .filter((t) => spec.heads % t === 0 && kv % t === 0 && spec.mlp_hidden % t === 0);
}

// The `parallel` object for Act 3's knobs. `spec`: the model's spec from the catalogue (heads,
// kv_heads, mlp_hidden, layers). Tensor parallelism takes the largest degree the model allows within
// one machine (GPT-2 XL's 25 heads allow 5), pipeline parallelism up to 8 stages; the rest of the
// GPUs replicate. `devices` can be fewer than `gpus` when t does not divide them.
export function parallelOf(config, spec) {
  const c = normalizeConfig3(config);
  let t = 1;
  let p = 1;
  if (c.strategy === 'tp') t = Math.max(...tensorDegrees(spec).filter((d) => d <= Math.min(c.gpus, GPUS_PER_NODE)));
  if (c.strategy === 'pp') p = Math.min(c.gpus, GPUS_PER_NODE, spec.layers);
  const dp = Math.max(1, Math.floor(c.gpus / (t * p)));
  return {
    data_parallel: dp, zero_stage: STAGE[c.strategy] ?? 0, tensor_parallel: t, sequence_parallel: false,
    pipeline_parallel: p, micro_batches: p > 1 ? PIPELINE_MICRO_BATCHES : 1, interconnect: c.interconnect,
    overlap: true,
  };
}

export const devicesOf = (parallel) => parallel.data_parallel * parallel.tensor_parallel * parallel.pipeline_parallel;

// The engine's scenario (the full evaluate request) for Act 3's knobs; `overrides` replaces knobs.
export function toScenario3(config, spec, overrides = {}) {
  const c = normalizeConfig3({ ...config, ...overrides });
  return {
    model: MODEL_ID, device: c.device, optimizer: c.optimizer, precision: c.precision, batch_size: c.batch_size,
    checkpointing: c.checkpointing === 'every_k' ? { every_k_layers: c.every_k } : c.checkpointing,
    schedule_steps: 0, parallel: parallelOf(c, spec),
  };
}

// The fewest GPUs that train the prediction's scenario, fully sharded: the solver's answer.
export function devicesNeeded(scale, spec) {
  const r = scale.solve(toScenario3(PREDICT3, spec));
  if (r.error) return { error: r.error };
  const stage3 = r.fewest_devices.by_stage.find((s) => s.zero_stage === 3);
  return { devices: stage3 ? stage3.devices : null, fewest: r.fewest_devices, scenario: toScenario3(PREDICT3, spec) };
}

// How far a count is from the engine's: exact, or the ratio and which way.
export function countError(predicted, truth) {
  if (!(truth > 0)) return { ratio: null, direction: 'none' };
  if (predicted === truth) return { ratio: 1, direction: 'exact' };
  return { ratio: Math.max(predicted, truth) / Math.min(predicted, truth), direction: predicted < truth ? 'under' : 'over' };
}

// A prediction typed by the student: a whole number of GPUs from 1 to 1,024, else why not.
export function readCount(text) {
  const v = String(text).trim();
  if (!/^\d{1,5}$/.test(v)) return { error: 'Type a whole number of GPUs, from 1 to 1,024.' };
  const n = Number(v);
  if (n < 1 || n > GPU_COUNTS3[GPU_COUNTS3.length - 1]) return { error: 'Type a number from 1 to 1,024.' };
  return { value: n };
}

// One scenario's step time on each interconnect: { id: step_s }, and each one's full result.
export function stepByInterconnect(scale, scenario, ids = REVEAL_INTERCONNECTS) {
  const results = {};
  const step_s = {};
  for (const id of ids) {
    const r = scale.evaluate({ ...scenario, parallel: { ...scenario.parallel, interconnect: id } });
    results[id] = r;
    step_s[id] = r.error ? null : r.parallel.step_s;
  }
  return { step_s, results };
}

// Whether a multi-device result can run: 'ok' only when every device fits and can train.
export const state3 = (result) => (result.error ? 'error' : fitState(result.memory));

// The step's parts as the timeline draws them: compute, exposed communication and the bubble, and
// whether they add up to the step (the engine's terms; the act says so when they do not).
export function stepParts(parallel) {
  const parts = [
    { key: 'compute', seconds: parallel.compute_s },
    { key: 'exposed', seconds: parallel.exposed_communication_s },
    { key: 'bubble', seconds: parallel.bubble_s },
  ];
  const sum = parts.reduce((t, x) => t + x.seconds, 0);
  return { parts, step_s: parallel.step_s, adds_up: Math.abs(sum - parallel.step_s) <= 1e-9 * Math.max(1, parallel.step_s) };
}

// One GPU's parts for the memory sentence, [{ key, bytes }]: where the engine's parts add up to its
// total, each is moved to its value rounded together (up or down to the hundredth shown), so the shown
// parts add up to the shown total instead of drifting a hundredth or two above it.
export function memoryTerms(memory, units) {
  const parts = Object.entries(memory.components).filter(([, b]) => b > 0);
  const unitBytes = unitOf(units).bytes;
  if (Math.abs(parts.reduce((a, [, b]) => a + b, 0) - memory.total_bytes) > 1) return parts.map(([key, bytes]) => ({ key, bytes }));
  const shown = roundTogether(parts.map(([, b]) => b / unitBytes), memory.total_bytes / unitBytes);
  return parts.map(([key], i) => ({ key, bytes: shown[i] * unitBytes }));
}

// The communication-tax chart's engine points: the scenario at N = 1, 2, 4, …, 1,024 GPUs.
export function taxPoints(scale, config, spec) {
  return GPU_COUNTS3.map((n) => {
    const r = scale.evaluate(toScenario3({ ...config, gpus: n }, spec));
    return r.error ? { gpus: n, error: r.error.message } : {
      gpus: n, devices: r.parallel.devices, speedup: r.parallel.speedup, step_s: r.parallel.step_s, fits: r.memory.fits,
    };
  });
}

// The chapter's curve: speedup = N / (1 + (N − 1)·r), and its ceiling 1/r as N grows.
export const taxSpeedup = (n, r) => n / (1 + (n - 1) * r);
export const taxCeiling = (r) => (r > 0 ? 1 / r : Infinity);

// The reflections' numbers, all from the engine for the prediction's family: plain data parallelism's
// per-GPU model states (the key) and peaks (the feedback) at 1 and at `gpus` GPUs, ZeRO-3's at `gpus`, and at 1,024 GPUs over a real
// interconnect (PCIe) the ratio r and the speedup it leaves.
export function reflectNumbers(scale, spec, gpus) {
  const at = (n, over) => scale.evaluate(toScenario3(PREDICT3, spec, { gpus: n, ...over }));
  const one = at(1, { strategy: 'ddp' });
  const many = at(gpus, { strategy: 'ddp' });
  const far = at(GPU_COUNTS3[GPU_COUNTS3.length - 1], { interconnect: 'pcie4' });
  const bad = [one, many, far].find((r) => r.error);
  if (bad) return { error: bad.error };
  const stageOf = (r, stage) => r.parallel.memory_by_stage.find((s) => s.zero_stage === stage);
  const staticOf = (r, stage) => stageOf(r, stage).static_bytes;
  return {
    gpus, ddp_static_one_bytes: staticOf(one, 0), ddp_static_many_bytes: staticOf(many, 0), zero3_static_many_bytes: staticOf(many, 3),
    // The peaks the memory chart labels at the question's settings (what the feedback cites).
    ddp_peak_one_bytes: stageOf(one, 0).peak_bytes, ddp_peak_many_bytes: stageOf(many, 0).peak_bytes, zero3_peak_many_bytes: stageOf(many, 3).peak_bytes,
    usable_bytes: many.memory.usable_device_bytes, r: far.parallel.communication_ratio, speedup_far: far.parallel.speedup,
    gpus_far: far.parallel.devices,
  };
}

// The answer keys, from those numbers. Data parallelism: right that every GPU keeps a whole copy when
// its per-GPU model states do not shrink as GPUs are added. The ceiling: the ratio r, when talking
// costs time at 1,024 GPUs (r > 0, so the speedup stays under N and under 1/r); with r = 0 the GPU
// count itself would be the ceiling.
export function reflectKeys(nums) {
  return {
    dp: nums.ddp_static_many_bytes >= nums.ddp_static_one_bytes * 0.999 ? 'copies' : 'split',
    ceiling: nums.r > 0 && nums.speedup_far < nums.gpus_far ? 'ratio' : 'count',
  };
}

// The design ledger's Act 3 record (result_snapshot.act3): the explore scenario and the prediction,
// the solver's answer for the prediction's scenario, the explore scenario's step time on each
// interconnect, and each reflection's first answer. labctl verify re-computes the engine's parts.
export function act3Record({ settings, prediction, devicesNeeded: k, predictionScenario, stepByInterconnect: steps, reflect }) {
  return {
    act: 3, settings, prediction: prediction ? { devices: prediction.devices } : null,
    devices_needed: k, prediction_scenario: predictionScenario, step_s_by_interconnect: steps,
    reflect: reflect.filter(Boolean).map((x) => ({ id: x.id, choice: x.choice, correct: x.correct })),
  };
}
