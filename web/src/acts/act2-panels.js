// Two read-only panels of Act 2: the chapter's walkthrough table beside the engine's values for the
// same configurations (with the reconciliation), and the Math Peek for MFU, HFU and the Iron Law with
// every symbol bound to the scenario on screen.
import { h, replaceChildren, scrollBox } from '../ui/dom.js';
import { formatInt } from '../format/format.js';
import { CHAPTER, reconciliation, chapterUnits, pct, secs, rate, hours, recomputeNote } from '../content/act2-text.js';
import { whyDetails } from '../ui/why-details.js';

const sci = (x) => {
  const e = Math.floor(Math.log10(Math.abs(x)));
  return `${(x / 10 ** e).toFixed(3)} × 10^${e}`;
};

// r: fixedNumbers(...).reference; units for bytes.
export function renderReference(box, r, units) {
  const gb = (x) => `${formatInt(x)}\u00a0GB`;
  const rows = [
    ['Memory (FP32 baseline → tuned)', `${gb(CHAPTER.memory_before_gb)} → ${gb(CHAPTER.memory_after_gb)}`, `${chapterUnits(r.memBefore, units)} → ${chapterUnits(r.memAfter, units)}`],
    ['GPU busy (baseline loop → tuned loop)', `${formatInt(CHAPTER.busy_before * 100)}% → ${formatInt(CHAPTER.busy_after * 100)}%`, `${pct(r.before.busy)} → ${pct(r.after.busy)}`],
    ['Data loading share of the step', `${formatInt(CHAPTER.data_before * 100)}% → ${formatInt(CHAPTER.data_after * 100)}%`, `${pct(r.before.shares.data_loading)} → ${pct(r.after.shares.data_loading)}`],
    ['GPU kernels share of the step (the chapter’s “GPU compute”)', `${formatInt(CHAPTER.compute_before * 100)}% → ${formatInt(CHAPTER.compute_after * 100)}%`, `${pct(r.before.shares.compute)} → ${pct(r.after.shares.compute)}`],
    ['Throughput of the tuned loop', rate(CHAPTER.tokens_per_s), rate(r.after.tokens)],
    ['Time per epoch of the tuned loop', `${CHAPTER.epoch_hours}\u00a0h`, hours(r.after.epoch_hours)],
    ['MFU of the tuned loop', `not stated; ${rate(CHAPTER.tokens_per_s)} implies ${pct(r.chapterMfu)}`, pct(r.after.mfu)],
  ];
  replaceChildren(box,
    scrollBox(h('table', { class: 'data-table reference-table' },
      h('caption', { text: 'The chapter’s two loops, and the engine’s for the same settings (chapter calibration)' }),
      h('thead', {}, h('tr', {}, ['Quantity', 'Chapter says', 'Engine computes'].map((t) => h('th', { scope: 'col', text: t })))),
      h('tbody', {}, rows.map(([q, c, e], i) => h('tr', { 'data-row': String(i) }, h('th', { scope: 'row', text: q }),
        h('td', { 'data-label': 'Chapter says', text: c }), h('td', { 'data-label': 'Engine computes', text: e }))))), 'Chapter and engine table (scrolls sideways on narrow screens)'),
    // The settings and the reconciliation with the chapter, one click away (issue 23).
    whyDetails('Why? The two loops, reconciled', h('p', { text: 'Both loops: GPT-2 XL on a V100, mixed precision, Adam, checkpointing every 4 layers, batch 32; the baseline loads data in the training process, the tuned loop uses 8 workers, pinned memory and prefetching. Memory: the FP32 baseline has no checkpointing; the tuned loop is the mixed-precision step above.' }),
      reconciliation(r, units).map((t) => h('p', { text: t }))));
}

// result: evaluate() for the Act 2 scenario on screen.
export function renderMathPeek(box, result) {
  const p = result.pipeline;
  const f = result.flops;
  const il = f.iron_law;
  const peak = sci(f.peak_flops_per_s);
  const md = result.model;
  const seq = result.scenario.seq_len;
  const attn = 12 * md.layers * md.hidden * seq;
  const nCounted = (f.model_per_token - attn) / 6; // N without the position embeddings (PaLM's count)
  replaceChildren(box,
    // Out of memory the Peek still computes (walk 14: it read as a real MFU on its own).
    result.memory.fits ? null : h('p', { class: 'math-note', 'data-peek': 'oom',
      text: 'This step does not fit in memory, so it cannot run: the numbers below are what it would give if it fitted.' }),
    h('p', { class: 'math' }, 'MFU = model FLOPs per step ÷ (step time × peak FLOP/s)'),
    h('p', { class: 'math', 'data-peek': 'mfu' },
      `= ${sci(f.model_per_step)} FLOP ÷ (${secs(p.step_seconds)} × ${peak} FLOP/s) = ${pct(p.mfu)}`),
    h('p', { class: 'math-note', text: `Model FLOPs per token = 6·N + 12·L·h·s with N = ${formatInt(nCounted)} parameters (the position embeddings are not multiplied), L = ${md.layers} layers, h = ${formatInt(md.hidden)}, s = ${formatInt(seq)} tokens: ${formatInt(6 * nCounted)} + ${formatInt(attn)} = ${formatInt(f.model_per_token)} FLOP per token, × ${formatInt(f.tokens_per_step)} tokens per step. The peak is the GPU’s dense rate at the selected precision.` }),
    f.recompute_per_token > 0 ? h('p', { class: 'math', 'data-peek': 'hfu' },
      `HFU = (model + recomputed FLOPs) ÷ (step time × peak) = ${sci(f.hardware_per_step)} ÷ (${secs(p.step_seconds)} × ${peak}) = ${pct(p.hfu)}`) : null,
    f.recompute_per_token > 0 ? h('p', { class: 'math-note', 'data-peek': 'recompute', text: recomputeNote(f, Boolean(result.scenario.chapter_replay)) }) : null,
    h('p', { class: 'math' }, 'Iron Law: T_train = O_total ÷ (N_devices × R_peak × η)'),
    h('p', { class: 'math', 'data-peek': 'iron' },
      `= ${sci(il.total_model_flops)} FLOP ÷ (${formatInt(il.num_devices)} × ${peak} FLOP/s × ${il.efficiency.toFixed(2)}) = ${hours(il.time_to_train_seconds / 3600)} for ${formatInt(il.train_tokens)} tokens`),
    h('p', { class: 'math-note', text: `η = ${il.efficiency.toFixed(2)} is GPT-3’s measured efficiency (the chapter’s example); with this step’s MFU as η the same tokens would take ${hours(il.total_model_flops / (il.num_devices * f.peak_flops_per_s * p.mfu) / 3600)}.` }));
}
