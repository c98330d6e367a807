// Act 2's engine-derived numbers that do not depend on the student's knobs: the chapter's baseline and
// tuned loops, the reference panel's memory pair, the single-fix comparison and the checkpointing
// reflection's numbers. Each comes from one evaluate call on a named scenario; nothing is typed in.
import { DEFAULT_CONFIG2, CHAPTER_TUNED2, toScenario2 } from '../state/scenario.js';
import { FIX_QUESTION } from '../content/act2-text.js';
import { checkpointNumbers } from './act2-model.js';

function must(r, what) {
  if (!r || r.error) throw new Error(`the engine could not compute ${what}: ${r && r.error ? `${r.error.field}: ${r.error.message}` : 'no result'}`);
  return r;
}

function loop(r) {
  const p = r.pipeline;
  const cb = p.phases.find((x) => x.phase === 'compute_bound');
  return {
    result: r, mfu: p.mfu, busy: p.busy_fraction, pe: p.pipeline_efficiency, tokens: p.tokens_per_second,
    kernel: p.gpu.kernel_efficiency, recompute_share: cb.seconds > 0 ? p.gpu.recompute_seconds / cb.seconds : 0,
    epoch_hours: p.time_per_epoch_seconds / 3600, shares: p.chapter_shares,
  };
}

export function fixedNumbers(evaluate, catalog) {
  const baseline = loop(must(evaluate(toScenario2(DEFAULT_CONFIG2)), 'the chapter baseline'));
  const tuned = loop(must(evaluate(toScenario2(CHAPTER_TUNED2)), 'the chapter’s tuned loop'));
  const fp32 = must(evaluate(toScenario2(DEFAULT_CONFIG2, { precision: 'fp32', checkpointing: 'none' })), 'the FP32 baseline memory');
  const ref = tuned.result.pipeline.chapter_reference;
  // The chapter's own activation figure as the calibrated engine prices it (FP32, batch 32, no checkpointing).
  const chapterActs = must(evaluate(toScenario2(DEFAULT_CONFIG2, { precision: 'fp32', checkpointing: 'none', replay: true, schedule_steps: 0 })), 'the chapter’s activation figure');
  return {
    baseline,
    tuned,
    chapterActivations: { bytes: chapterActs.memory.components.activations, batch_size: chapterActs.scenario.batch_size },
    reference: {
      before: baseline, after: tuned,
      memBefore: fp32.memory.peak_bytes, memAfter: tuned.result.memory.peak_bytes,
      chapterMfu: ref.mfu_at_chapter_throughput, chapterPeakTflops: ref.chapter_peak_flops_per_s / 1e12,
    },
    fixes: scoreFixes(evaluate, baseline.result, catalog.devices.find((x) => x.id === DEFAULT_CONFIG2.device)),
  };
}

// Each single change of the fix question, applied to the chapter baseline, timed by the engine; the
// one with the most tokens/s is the right answer.
export function scoreFixes(evaluate, base, d) {
  const faster = { base: d.id, name: `${d.name}, twice the peak FLOP/s`,
    peak_fp32_flops_per_s: 2 * d.peak_fp32_flops_per_s, peak_fp16_flops_per_s: 2 * d.peak_fp16_flops_per_s };
  if (d.peak_bf16_flops_per_s > 0) faster.peak_bf16_flops_per_s = 2 * d.peak_bf16_flops_per_s;
  const changes = {
    faster_gpu: { device: faster },
    sgd: { optimizer: 'sgd' },
    prefetch: { data_workers: 8, prefetch: true, prefetch_depth: 2 },
    half_batch: { batch_size: DEFAULT_CONFIG2.batch_size / 2 },
  };
  const scored = FIX_QUESTION.options.map((o) => {
    const r = must(evaluate({ ...toScenario2(DEFAULT_CONFIG2, { schedule_steps: 0 }), ...changes[o.change] }), o.label);
    const p = r.pipeline;
    const phase = (k) => p.phases.find((x) => x.phase === k);
    return { id: o.id, label: o.label, change: o.change, tokens: p.tokens_per_second, step_seconds: p.step_seconds,
      load_seconds: phase('data_loading').exposed_seconds, shares: p.chapter_shares,
      optimizer_share: phase('optimizer').exposed_seconds / p.step_seconds, kernel: p.gpu.kernel_efficiency };
  });
  const bestTokens = Math.max(...scored.map((s) => s.tokens));
  for (const s of scored) s.best = s.tokens === bestTokens;
  scored.baseline = base.pipeline.tokens_per_second;
  return scored;
}

// The checkpointing reflection's scenario: the student's Act 2 settings with checkpointing every k
// layers (k from the settings, 4 if another scheme is selected), against no checkpointing.
export function ckptNumbers(evaluate, config2) {
  const k = config2.checkpointing === 'every_k' ? config2.every_k : 4;
  const withCkpt = must(evaluate(toScenario2(config2, { checkpointing: 'every_k', every_k: k, schedule_steps: 0 })), 'checkpointing');
  const without = must(evaluate(toScenario2(config2, { checkpointing: 'none', schedule_steps: 0 })), 'no checkpointing');
  const layers = withCkpt.model.layers;
  const formula = (kk) => layers / (kk + layers / kk);
  const sqrtL = Math.sqrt(layers);
  return {
    ...checkpointNumbers(withCkpt, without), k, layers, replay: Boolean(config2.replay),
    formulaRatio: formula(k), sqrtL, optimumRatio: formula(sqrtL),
  };
}
