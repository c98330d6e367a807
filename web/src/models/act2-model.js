// Act 2's view models (no DOM): the step bar's segments, the timeline's lanes, the three gauges, the
// design-challenge check, the prediction's scoring and the laptop challenge's move log, all read from
// the engine's evaluate/solve results. Rounded terms are rounded so that they add up to the rounded
// total shown (largest remainder). Tested in tests/web/unit/act2-model.test.mjs.

import { fitState } from './fit-state.js';
import { formatCount, formatSum, shownSumText } from '../format/format.js';

// Phase order on the step bar, with the words a student reads. The host→device copy is two
// segments: the host side, and the DMA the GPU receives, which GPU busy counts (issue 23: busy
// included a copy the bar never showed on its own).
export const STEP_SEGMENTS = [
  { key: 'data_loading', label: 'Data loading', short: 'data' },
  { key: 'transfer', label: 'Copy: host side', short: 'copy (host)' },
  { key: 'dma', label: 'Copy into the GPU', short: 'copy (GPU)' },
  { key: 'memory_bound', label: 'Memory-bound kernels', short: 'memory-bound' },
  { key: 'compute', label: 'Matrix multiplications (model)', short: 'matmul' },
  { key: 'recompute', label: 'Matrix multiplications (recompute)', short: 'recompute' },
  { key: 'optimizer', label: 'Optimizer step', short: 'optimizer' },
];

// The three nested spans of the bar, one name and one value each (the gauges, the design challenge
// and the table use the same): GPU busy = copy into the GPU + every kernel; GPU kernels (the chapter's
// "GPU compute" share) = memory-bound + matrix multiplications + optimizer; pipeline efficiency =
// the matrix multiplications (model + recompute). from/to: the segments each spans.
export const STEP_SPANS = [
  { key: 'busy', label: 'GPU busy', from: 'dma', to: 'optimizer' },
  { key: 'kernels', label: 'GPU kernels', from: 'memory_bound', to: 'optimizer' },
  { key: 'pe', label: 'Pipeline efficiency', from: 'compute', to: 'recompute' },
];

// Rounds `values` to `decimals` so that the rounded values sum to the rounded total (largest
// remainder); returns numbers.
export function roundToSum(values, decimals) {
  return roundToTotal(values, decimals, Math.round(values.reduce((a, b) => a + b, 0) * 10 ** decimals) / 10 ** decimals);
}

// The same, to a given rounded total (a span's value rounded on its own, so the parts inside a
// span add up to exactly the number its gauge shows).
export function roundToTotal(values, decimals, total) {
  const f = 10 ** decimals;
  const floors = values.map((v) => Math.floor(v * f + 1e-9));
  let left = Math.round(total * f) - floors.reduce((a, b) => a + b, 0);
  const order = values.map((v, i) => ({ i, r: v * f - floors[i] })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of order) { if (left <= 0) break; floors[i] += 1; left -= 1; }
  for (const { i } of [...order].reverse()) { if (left >= 0) break; if (floors[i] > 0) { floors[i] -= 1; left += 1; } }
  return floors.map((x) => x / f);
}

const phaseOf = (pipeline, key) => pipeline.phases.find((p) => p.phase === key);
const pct1 = (share) => Math.round(share * 1000) / 10; // a share in percent at one decimal, as pct() shows it

// The step bar: exposed seconds per segment (they sum to the step time); hidden = work done in the
// shadow of other work (prefetch). Shares are rounded within the spans (STEP_SPANS): each span's
// total is its engine value rounded on its own, the segments inside add up to it, and all add to
// 100%. Seconds are rounded to add up to the step.
export function stepBar(pipeline) {
  const computeBound = phaseOf(pipeline, 'compute_bound');
  const recompute = Math.min(pipeline.gpu.recompute_seconds, computeBound.exposed_seconds);
  const step = pipeline.step_seconds;
  const transfer = phaseOf(pipeline, 'transfer');
  const kernelsSeconds = ['memory_bound', 'compute_bound', 'optimizer'].reduce((t, k) => t + phaseOf(pipeline, k).exposed_seconds, 0);
  // The copy's DMA: what GPU busy counts beyond the kernels (core/pipeline/README.md, "Gauges").
  const dma = Math.min(transfer.exposed_seconds, Math.max(0, pipeline.busy_fraction * step - kernelsSeconds));
  const raw = {
    data_loading: phaseOf(pipeline, 'data_loading'),
    transfer: { exposed_seconds: transfer.exposed_seconds - dma, seconds: transfer.seconds - dma },
    dma: { exposed_seconds: dma, seconds: dma },
    memory_bound: phaseOf(pipeline, 'memory_bound'),
    compute: { exposed_seconds: computeBound.exposed_seconds - recompute, seconds: computeBound.seconds - recompute },
    recompute: { exposed_seconds: recompute, seconds: recompute },
    optimizer: phaseOf(pipeline, 'optimizer'),
  };
  const exposed = STEP_SEGMENTS.map((s) => raw[s.key].exposed_seconds);
  const share = Object.fromEntries(STEP_SEGMENTS.map((s, i) => [s.key, (100 * exposed[i]) / step]));
  const spans = { busy: pct1(pipeline.busy_fraction), kernels: pct1(pipeline.chapter_shares.compute), pe: pct1(pipeline.pipeline_efficiency) };
  const [dataPct, hostPct] = roundToTotal([share.data_loading, share.transfer], 1, 100 - spans.busy);
  const [memPct, optPct] = roundToTotal([share.memory_bound, share.optimizer], 1, spans.kernels - spans.pe);
  const [modelPct, recomputePct] = roundToTotal([share.compute, share.recompute], 1, spans.pe);
  const shown = { data_loading: dataPct, transfer: hostPct, dma: Math.round((spans.busy - spans.kernels) * 10) / 10,
    memory_bound: memPct, compute: modelPct, recompute: recomputePct, optimizer: optPct };
  const secondsShown = roundToSum(exposed, 2);
  let start = 0;
  const segments = STEP_SEGMENTS.map((s, i) => {
    const seg = {
      ...s, seconds: exposed[i], share: exposed[i] / step, work_seconds: raw[s.key].seconds,
      hidden_seconds: Math.max(0, raw[s.key].seconds - exposed[i]),
      share_pct_shown: shown[s.key], seconds_shown: secondsShown[i], start_seconds: start,
    };
    start += exposed[i];
    return seg;
  });
  const at = (key) => segments.find((x) => x.key === key);
  return {
    step_seconds: step, step_seconds_shown: secondsShown.reduce((a, b) => a + b, 0), segments,
    spans: STEP_SPANS.map((sp) => ({ ...sp, pct_shown: spans[sp.key], start_seconds: at(sp.from).start_seconds,
      end_seconds: at(sp.to).start_seconds + at(sp.to).seconds })),
  };
}

// Timeline lanes (one per resource), in a fixed order, with the words a student reads.
export const LANES = [
  { key: 'cpu_data', label: 'Loader workers (CPU)' },
  { key: 'cpu_main', label: 'Training process (CPU)' },
  { key: 'pcie', label: 'Host→device link' },
  { key: 'gpu_memory', label: 'GPU: memory-bound' },
  { key: 'gpu_compute', label: 'GPU: compute-bound' },
  { key: 'gpu_optimizer', label: 'GPU: optimizer' },
];
export const PHASE_WORDS = {
  data_loading: 'loading a batch', data_handoff: 'taking a batch from the workers', transfer_host: 'preparing the copy on the host',
  transfer_dma: 'copying to the GPU', memory_bound: 'memory-bound kernels', compute_bound: 'compute-bound kernels',
  optimizer: 'optimizer step',
};

const GPU_LANES = new Set(['gpu_memory', 'gpu_compute', 'gpu_optimizer']);

// Lanes that have work, their segments, the span, and how long CPU/link work ran while the GPU was
// busy on another step (the overlap prefetching buys).
export function timelineLanes(pipeline) {
  const segs = pipeline.schedule.segments;
  const lanes = LANES.map((l) => ({ ...l, segments: segs.filter((s) => s.resource === l.key) }))
    .filter((l) => l.segments.length > 0);
  const end = segs.reduce((m, s) => Math.max(m, s.end_seconds), 0);
  const gpu = segs.filter((s) => GPU_LANES.has(s.resource));
  let overlap = 0;
  for (const s of segs) {
    if (GPU_LANES.has(s.resource)) continue;
    for (const g of gpu) {
      if (g.step === s.step) continue;
      overlap += Math.max(0, Math.min(s.end_seconds, g.end_seconds) - Math.max(s.start_seconds, g.start_seconds));
    }
  }
  return { lanes, end_seconds: end, steps: pipeline.schedule.steps, overlap_seconds: overlap };
}

// The gauges, kept apart. `order_holds` checks busy ≥ pipeline efficiency ≥ MFU.
export function gauges(result) {
  const p = result.pipeline;
  const recompute = result.flops.recompute_per_token > 0;
  return {
    busy: p.busy_fraction,
    pipeline_efficiency: p.pipeline_efficiency,
    mfu: p.mfu,
    hfu: recompute ? p.hfu : null,
    mfu_ceiling: p.mfu_ceiling,
    tokens_per_second: p.tokens_per_second,
    epoch_hours: p.time_per_epoch_seconds / 3600,
    bottleneck: p.bottleneck,
    order_holds: p.busy_fraction + 1e-12 >= p.pipeline_efficiency && p.pipeline_efficiency + 1e-12 >= p.mfu,
  };
}

// The chapter's optimized regime: data loading ≤ 5% and compute ≥ 75% of the step (chapter shares).
export const REGIME = { max_data_share: 0.05, min_compute_share: 0.75 };

export function regimeReached(pipeline) {
  const s = pipeline.chapter_shares;
  return s.data_loading <= REGIME.max_data_share + 1e-9 && s.compute >= REGIME.min_compute_share - 1e-9;
}

// Whether settings reach the tuned regime as the design challenge counts it: the chapter's shares,
// in a step that fits, with the chapter calibration on (act2-design.js; the ledger check re-computes it).
export function regimeReachedAt(config, result) {
  return regimeReached(result.pipeline) && Boolean(result.memory.fits) && Boolean(config.replay);
}

// The best configuration reached so far: the fastest step (most tokens/s; only states that fit and
// train count). Issue 23: "highest MFU" rewarded FP32 with full recomputation, 4.7× slower than
// mixed precision, because FP32's MFU is measured against a peak eight times lower. MFU is kept beside
// the throughput with the peak it is measured against, and the throughput with its own peak (the
// tokens/s the GPU's peak FLOP/s would give: MFU = tokens_per_second / peak_tokens_per_second).
export function betterBest(best, config, result) {
  if (!result.memory.fits || !result.memory.numerically_valid) return best;
  const p = result.pipeline;
  if (best && bestTokens(best) >= p.tokens_per_second) return best;
  return {
    config: { ...config },
    tokens_per_second: p.tokens_per_second,
    peak_tokens_per_second: result.flops.peak_flops_per_s / result.flops.model_per_token,
    mfu: p.mfu,
    peak_flops_per_s: result.flops.peak_flops_per_s,
    busy_fraction: p.busy_fraction,
    pipeline_efficiency: p.pipeline_efficiency,
    shares: { ...p.chapter_shares },
  };
}

// A best design's throughput; a record made before throughput was the goal has none (−1: any run
// that fits beats it, so the record moves to the new goal on the next change).
const bestTokens = (best) => (typeof best.tokens_per_second === 'number' ? best.tokens_per_second : -1);

// The design challenge counts only settings the student reached: after the prediction is locked and
// after a change of their own (a link's or the defaults' settings on arrival do not count, walk
// finding MAJOR-2). nothingToExplore: an instructor locked every control, so what is shown counts.
// fromLink: the settings on screen came with this page's link and the student has not changed one
// since (explored may be true from an earlier visit; the link's settings are still not theirs).
export function designCounts(act2, nothingToExplore = false, fromLink = false) {
  // With every setting fixed nothing is the student's own design: nothing counts (walk 6: the locked
  // defaults were recorded as "your best design"); the act then does not ask for the challenge.
  return Boolean(act2.prediction) && !nothingToExplore && Boolean(act2.explored) && !fromLink;
}

// The design record after the settings on screen: the same object when nothing changes (or nothing
// counts yet), else { regime_reached, best, regime_config }. reached: regimeReachedAt(config, result).
// regime_config keeps the settings that first reached the regime, so a ledger check can re-compute
// that the regime was reached (records made before it was kept have none).
// bestCounts: whether these settings may be the fastest step (the page passes: with the chapter
// calibration on, as the regime counts, unless the lab fixes it off; a step timed by the physics
// model is not compared with the chapter's calibrated ones, student walk). Default: counts.
export function designRecord(design, { counts, reached, config, result, bestCounts = counts }) {
  if (!counts) return design;
  const best = bestCounts ? betterBest(design.best, config, result) : design.best;
  const regime = Boolean(design.regime_reached || reached);
  if (best === design.best && regime === design.regime_reached) return design;
  const first = regime && !design.regime_reached ? { regime_config: { ...config } } : {};
  return withNotAsked({ ...design, regime_reached: regime, best, ...first }, regime ? null : design.not_asked || null);
}

// The design record saying why the lab did not ask for the tuned regime (act2-design.js notAsked:
// 'every_setting_fixed', 'out_of_reach', 'calibration_fixed_off'), or null: then the key is left out,
// as in records made before it existed. A reached regime was asked. The same object when unchanged.
export function withNotAsked(design, reason) {
  const why = design.regime_reached ? null : reason;
  if ((design.not_asked || null) === why) return design;
  const { not_asked: _, ...rest } = design;
  return why ? { ...rest, not_asked: why } : rest;
}

// Scoring a range answer ("about 15–30%"): inside the range is exact; outside, how many times the
// truth lies beyond the nearer edge, and in which direction the answer erred.
export function rangeError(lo, hi, truth) {
  if (!(truth > 0) || !(lo > 0) || !(hi >= lo)) throw new RangeError('need 0 < lo ≤ hi and truth > 0');
  if (truth < lo) return { ratio: lo / truth, direction: 'over' };
  if (truth > hi) return { ratio: truth / hi, direction: 'under' };
  return { ratio: 1, direction: 'exact' };
}

// Index of the range that contains target, else the one whose nearer edge is nearest on a ratio scale.
export function nearestRange(ranges, target) {
  let best = -1;
  let bestRatio = Infinity;
  ranges.forEach(([lo, hi], i) => {
    const { ratio } = rangeError(lo, hi, target);
    if (ratio < bestRatio) { best = i; bestRatio = ratio; }
  });
  return best;
}

// ---- The laptop challenge
const MOVE_WORDS = {
  optimizer: { sgd: 'SGD', momentum: 'SGD + Momentum', adam: 'Adam' },
  precision: { fp32: 'FP32', mixed: 'mixed precision', fp16: 'pure FP16', bf16: 'pure BF16' },
  checkpointing: { none: 'no checkpointing', selective: 'selective recompute', full: 'full recompute', every_k: 'checkpoint every k layers' },
};

// Words for the move from `prev` to `next` (one or more knobs changed).
export function describeMove(prev, next) {
  const parts = [];
  for (const key of ['precision', 'optimizer', 'checkpointing']) {
    if (prev[key] !== next[key]) {
      const to = key === 'checkpointing' && next[key] === 'every_k' ? `checkpoint every ${formatCount(next.every_k, 'layer')}` : MOVE_WORDS[key][next[key]];
      parts.push(to);
    } else if (key === 'checkpointing' && next[key] === 'every_k' && prev.every_k !== next.every_k) {
      parts.push(`checkpoint every ${formatCount(next.every_k, 'layer')}`);
    }
  }
  if (prev.batch_size !== next.batch_size) parts.push(`batch ${next.batch_size}`);
  return parts.length ? `→ ${parts.join(', ')}` : 'no change';
}

// One recorded move: the settings after it and the engine's peak memory, fit and trainability.
export function laptopMove(move, config, result) {
  const m = result.memory;
  return {
    move,
    config: { optimizer: config.optimizer, precision: config.precision, checkpointing: config.checkpointing, every_k: config.every_k, batch_size: config.batch_size },
    peak_bytes: m.peak_bytes,
    fits: m.fits,
    trainable: m.numerically_valid,
  };
}

// The shared fit rule (fit-state.js): 'ok' fits and trains, 'invalid' fits but pure 16-bit cannot
// train, 'oom' does not fit.
// The laptop floor's derivation table: each row's amount is rounded from exact bytes, so the rounded
// rows can miss the rounded total by a hundredth. Then the table shows what they add to (as Act 1's
// ledger table does); null when they add up. derivation: the solver's floor.derivation.
export function floorRoundedSum(derivation, peakBytes, units = 'gb') {
  const bytes = derivation.map((d) => d.bytes);
  return formatSum(bytes, units, peakBytes).exact ? null : shownSumText(bytes, units);
}

export function laptopState(result) {
  return fitState(result.memory);
}

// The checkpointing reflection's numbers for one scenario: activation memory without checkpointing
// over activation memory with it (saved inputs + the segment rebuilt during backward), and the
// extra compute (recomputed FLOPs / model FLOPs).
export function checkpointNumbers(withCkpt, withoutCkpt) {
  const saved = withCkpt.memory.components.activations + (withCkpt.memory.transients.recompute_working_set || 0);
  return {
    ratio: withoutCkpt.memory.components.activations / saved,
    overhead: withCkpt.flops.recompute_per_token / withCkpt.flops.model_per_token,
    with_bytes: saved,
    rebuilt_bytes: withCkpt.memory.transients.recompute_working_set || 0, // part of with_bytes
    without_bytes: withoutCkpt.memory.components.activations,
  };
}
