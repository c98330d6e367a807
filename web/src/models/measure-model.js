// Pure view model for the "Measure it" panel (no DOM): the panel's knobs → a training request, and
// the engine's training report → byte pairs (predicted vs measured per category), the memory
// timeline, the speed figures and the sentences that summarise each chart. Only sums, maxima and
// ratios of engine values happen here; every byte, FLOP and second comes from the report.
// Tested against the real lab_train module in tests/web/unit/measure-model.test.mjs.
import { formatSmallBytes, formatFlopRate, formatPercent, formatInt } from '../format/format.js';
import { clockRow } from './measure-clock.js';

export const CHOICES = {
  precision: ['fp32', 'mixed', 'fp16', 'bf16'],
  optimizer: ['sgd', 'momentum', 'adam', 'adamw'],
  checkpointing: ['none', 'selective', 'full', 'every_2'],
  batch_size: [1, 2, 4, 8, 16],
  seq_len: [8, 16, 32, 64],
  steps: [10, 20, 40, 80, 160, 320],
  learning_rate: [0.0003, 0.001, 0.003, 0.01, 0.03],
};

export const DEFAULT_SETTINGS = Object.freeze({
  precision: 'fp32', optimizer: 'adam', checkpointing: 'none', batch_size: 4, seq_len: 32, steps: 40, learning_rate: 0.003,
});

export const LABELS = {
  precision: { fp32: 'FP32', mixed: 'Mixed (FP16 compute + FP32 master)', fp16: 'Pure FP16', bf16: 'Pure BF16' },
  optimizer: { sgd: 'SGD', momentum: 'SGD + Momentum', adam: 'Adam', adamw: 'AdamW' },
  checkpointing: { none: 'None', selective: 'Selective recompute', full: 'Full recompute', every_2: 'Every 2 layers' },
};

// The panel's settings → the engine's request (measure_peak: time this CPU's matmul peak too).
export function trainRequest(settings) {
  const s = { ...DEFAULT_SETTINGS, ...settings };
  return {
    precision: s.precision, optimizer: s.optimizer,
    checkpointing: s.checkpointing === 'every_2' ? { every_k_layers: 2 } : s.checkpointing,
    batch_size: s.batch_size, seq_len: s.seq_len, steps: s.steps, learning_rate: s.learning_rate,
    seed: 1, measure_peak: true,
  };
}

// Engine category names → chart keys (the ledger's colour classes) and words, bottom of a stack first.
export const CATEGORIES = [
  { name: 'weights', key: 'weights', label: 'Weights (compute copy)' },
  { name: 'master_weights', key: 'master_weights', label: 'FP32 master copy' },
  { name: 'gradients', key: 'gradients', label: 'Gradients' },
  { name: 'optimizer:momentum', key: 'momentum', label: 'Momentum vector' },
  { name: 'optimizer:adam_m', key: 'adam_m', label: 'Adam m (1st moment)' },
  { name: 'optimizer:adam_v', key: 'adam_v', label: 'Adam v (2nd moment)' },
  { name: 'inputs', key: 'inputs', label: 'Input tokens' },
  { name: 'activations', key: 'activations', label: 'Saved activations' },
  { name: 'logits', key: 'logits', label: 'Logits' },
  { name: 'transient', key: 'transient', label: 'Transient buffers' },
];

// Every category the report names, in CATEGORIES order (unknown ones last, under their own name).
export function categoriesOf(report) {
  const names = report.memory.categories || Object.keys(report.memory.predicted.at_peak);
  const known = CATEGORIES.filter((c) => names.includes(c.name));
  const extra = names.filter((n) => !CATEGORIES.some((c) => c.name === n))
    .map((n) => ({ name: n, key: n.replace(/[^a-z0-9_]/gi, '_'), label: n }));
  return [...known, ...extra];
}

// ---- phases of a step
const OPS = {
  embed: 'token + position embeddings', ln1: 'first LayerNorm', qkv: 'Q/K/V projection', attn: 'attention scores and softmax',
  proj: 'attention output projection', res1: 'first residual add', ln2: 'second LayerNorm', fc: 'MLP up-projection',
  gelu: 'GELU', fc2: 'MLP down-projection', res2: 'second residual add', lnf: 'final LayerNorm',
  head: 'output head (logits)', loss: 'cross-entropy loss',
};
const STAGE_WORDS = { fwd: 'forward', bwd: 'backward', rec: 'recomputed during backward' };

export function stageOf(phase) {
  if (phase === 'opt') return 'optimizer';
  if (phase === 'init' || phase === 'data') return 'setup';
  const head = phase.split('.')[0];
  return head === 'fwd' ? 'forward' : 'backward'; // bwd.* and rec.* (recompute runs inside backward)
}

// 'bwd.L3.fc2' → 'layer 4’s MLP down-projection, backward': layers counted from 1 as a student
// counts them (the engine's names count from 0), the operation before the pass.
export function phaseWords(phase) {
  if (phase === 'init') return 'after initialisation';
  if (phase === 'data') return 'batch loaded';
  if (phase === 'opt') return 'optimizer step';
  const parts = phase.split('.');
  const stage = STAGE_WORDS[parts[0]] || parts[0];
  const op = OPS[parts.at(-1)] || parts.at(-1);
  const layer = parts.length === 3 ? `layer ${Number(parts[1].replace(/^L/, '')) + 1}’s ` : '';
  return `${layer}${op}, ${stage}`;
}

// ---- measured vs predicted bytes
// The page's ledger scenario for the model and settings a training report ran: the ledger's exact
// inventory mode (evaluate with activation_model "inventory") predicts the same tensors' bytes.
export function ledgerScenario(report) {
  const q = report.request;
  return {
    model: { name: 'Reference tiny GPT', layers: q.layers, hidden: q.d_model, heads: q.heads, vocab: q.vocab,
      context: q.context, mlp_hidden: q.mlp_hidden, tied_head: false },
    precision: q.precision, optimizer: q.optimizer === 'adamw' ? 'adam' : q.optimizer,
    checkpointing: q.checkpointing, batch_size: q.batch_size, seq_len: q.seq_len,
    activation_model: 'inventory', device: 'rtx4060-laptop-8gb',
  };
}

// The ledger's prediction (an evaluate result in inventory mode) in the report's shape.
function ledgerPrediction(ledger) {
  const m = ledger.memory;
  return { at_peak: m.inventory.at_peak, max_by_category: m.inventory.max_by_category,
    peak_bytes: m.peak_bytes, peak_phase: m.inventory.peak_phase };
}

// Pairs of predicted and measured bytes per category. The prediction is the page's ledger (lab_core,
// exact inventory mode) when `ledger` is given, else the training report's own prediction.
export function bytePairs(report, ledger = null) {
  const fromLedger = Boolean(ledger && !ledger.error && ledger.memory && ledger.memory.inventory);
  const predicted = fromLedger ? ledgerPrediction(ledger) : report.memory.predicted;
  const { measured } = report.memory;
  const rows = categoriesOf(report).map((c) => ({
    ...c,
    predicted_at_peak: predicted.at_peak[c.name], measured_at_peak: measured ? measured.at_peak[c.name] : null,
    predicted_max: predicted.max_by_category[c.name], measured_max: measured ? measured.max_by_category[c.name] : null,
  })).filter((r) => r.predicted_at_peak > 0 || r.predicted_max > 0 || r.measured_at_peak > 0 || r.measured_max > 0);
  for (const r of rows) r.match = measured ? r.predicted_at_peak === r.measured_at_peak && r.predicted_max === r.measured_max : null;
  const maxBytes = Math.max(1, ...rows.map((r) => Math.max(r.predicted_at_peak, r.measured_at_peak || 0)));
  const allMatch = measured ? rows.every((r) => r.match) && predicted.peak_bytes === measured.peak_bytes : null;
  return {
    rows, maxBytes, measured: Boolean(measured), source: fromLedger ? 'ledger' : 'report',
    match: measured ? allMatch && (fromLedger || report.memory.match === true) : null,
    predicted_peak: predicted.peak_bytes, measured_peak: measured ? measured.peak_bytes : null,
    predicted_phase: predicted.peak_phase, measured_phase: measured ? measured.peak_phase : null,
  };
}

export function bytesSummary(pairs, units = 'gb') {
  const f = (b) => formatSmallBytes(b, units);
  if (!pairs.measured) return `Predicted peak: ${f(pairs.predicted_peak)} (${phaseWords(pairs.predicted_phase)}); no step has run yet, so nothing is measured.`;
  const differ = pairs.rows.filter((r) => !r.match);
  if (pairs.match && differ.length === 0) {
    return `At its peak (${phaseWords(pairs.measured_phase)}) the allocator held ${f(pairs.measured_peak)}, exactly the ${f(pairs.predicted_peak)} ${pairs.source === 'ledger' ? 'the memory ledger predicted from the engine’s tensor inventory' : 'the inventory predicted'}, and all ${pairs.rows.length} categories match byte for byte.`;
  }
  return `Measured peak ${f(pairs.measured_peak)} vs predicted ${f(pairs.predicted_peak)}; ${differ.length} of ${pairs.rows.length} categories differ (${differ.map((r) => r.label).join(', ') || 'the timeline'}).`;
}

// ---- the memory timeline of one step
export function timelineModel(report) {
  const t = report.memory.timeline;
  if (!t) return null;
  const profile = report.memory.measured || report.memory.predicted;
  const cats = categoriesOf(report).filter((c) => t.live_end_bytes_by_category[c.name]
    && t.live_end_bytes_by_category[c.name].some((b) => b > 0));
  const phases = t.phases.map((name, i) => {
    const live = Object.fromEntries(cats.map((c) => [c.key, t.live_end_bytes_by_category[c.name][i]]));
    return {
      i, name, stage: stageOf(name), live, live_total: Object.values(live).reduce((a, b) => a + b, 0),
      predicted_peak: t.predicted_peak_bytes[i], measured_peak: t.measured_peak_bytes ? t.measured_peak_bytes[i] : null,
    };
  });
  const stages = [];
  for (const p of phases) {
    const last = stages.at(-1);
    if (last && last.stage === p.stage) last.to = p.i; else stages.push({ stage: p.stage, from: p.i, to: p.i });
  }
  const peakOf = (p) => (p.measured_peak ?? p.predicted_peak);
  let peakIndex = 0;
  for (const p of phases) if (peakOf(p) > peakOf(phases[peakIndex])) peakIndex = p.i;
  const categoryMax = cats.map((c) => {
    const series = t.live_end_bytes_by_category[c.name];
    let at = 0;
    for (let i = 1; i < series.length; i += 1) if (series[i] > series[at]) at = i;
    return { ...c, bytes: profile.max_by_category[c.name], live_max: series[at], at, phase: t.phases[at] };
  });
  const sumOfMax = categoriesOf(report).reduce((a, c) => a + (profile.max_by_category[c.name] || 0), 0);
  return {
    categories: cats, phases, stages, peakIndex, peak_bytes: profile.peak_bytes, peak_phase: profile.peak_phase,
    persistent_bytes: profile.persistent_bytes, sum_of_max_bytes: sumOfMax, categoryMax,
    measured: Boolean(t.measured_peak_bytes), max_bytes: Math.max(sumOfMax, ...phases.map(peakOf)),
  };
}

export function timelineSummary(tl, units = 'gb') {
  const f = (b) => formatSmallBytes(b, units);
  const act = tl.categoryMax.find((c) => c.key === 'activations');
  let actText = '';
  if (act && stageOf(act.phase) === 'forward') {
    actText = ` Saved activations are largest at the end of the forward pass (${f(act.live_max)} after ${phaseWords(act.phase)}) and are freed layer by layer during backward, while gradients of activations and other working buffers only exist for the phase that needs them.`;
  } else if (act) {
    actText = ` With checkpointing the forward pass keeps only a few layer inputs; saved activations are largest during backward (${f(act.live_max)} after ${phaseWords(act.phase)}), while a segment is being recomputed, and working buffers only exist for the phase that needs them.`;
  }
  return `Memory peaks at ${f(tl.peak_bytes)} during ${phaseWords(tl.peak_phase)}. That is less than ${f(tl.sum_of_max_bytes)}, the sum of every category’s own maximum, because the categories do not reach their maxima at the same moment.${actText}`;
}

// ---- speed: FLOP/s, tokens/s, MFU against the measured matmul peak
// The engine's name for its matmul kernel's arithmetic (report.flops.matmul_arithmetic): a short
// value for the speed list, and a sentence saying what it means.
const MATMUL_ARITHMETIC = {
  fma: {
    short: 'Fused multiply-add',
    sentence: 'This browser ran the engine build whose matmul kernel uses WebAssembly relaxed SIMD: each multiply-add is one instruction with one rounding (fused on CPUs with FMA, as most are). Browsers without relaxed SIMD run the build that multiplies, then adds; it is slower, and its last bits differ.',
  },
  'mul+add': {
    short: 'Multiply, then add',
    sentence: 'This browser ran the engine build whose matmul kernel multiplies, then adds: two instructions and two roundings per step. Browsers with WebAssembly relaxed SIMD run a faster build that fuses them.',
  },
};

export function arithmeticSentence(report) {
  const a = MATMUL_ARITHMETIC[report.flops.matmul_arithmetic];
  return a ? a.sentence : '';
}

export function speedRows(report) {
  const tp = report.throughput || {};
  const rows = [];
  const add = (key, label, value, text) => { if (Number.isFinite(value)) rows.push({ key, label, value, text }); };
  add('seconds_per_step', 'Time per step (median)', report.time.median_seconds_per_step, `${(report.time.median_seconds_per_step * 1000).toFixed(1)} ms`);
  add('tokens_per_s', 'Tokens per second', tp.tokens_per_s, formatInt(tp.tokens_per_s));
  add('model_flops_per_s', 'Model FLOP/s (6·N·tokens + attention)', tp.model_flops_per_s, formatFlopRate(tp.model_flops_per_s));
  if (report.flops.executed_per_step !== report.flops.model_per_step) {
    add('executed_flops_per_s', 'Executed FLOP/s (with recomputation)', tp.executed_flops_per_s, formatFlopRate(tp.executed_flops_per_s));
  }
  if (report.peak) add('peak_flops_per_s', 'Measured peak of this CPU (matmul kernel)', report.peak.flops_per_s, formatFlopRate(report.peak.flops_per_s));
  add('mfu', 'MFU (model FLOP/s ÷ measured peak)', tp.mfu, formatPercent(tp.mfu, 1));
  if (report.flops.executed_per_step !== report.flops.model_per_step) add('hfu', 'HFU (executed FLOP/s ÷ measured peak)', tp.hfu, formatPercent(tp.hfu, 1));
  const arithmetic = MATMUL_ARITHMETIC[report.flops.matmul_arithmetic];
  if (arithmetic) rows.push({ key: 'matmul_arithmetic', label: 'Matmul arithmetic in this browser', value: report.flops.matmul_arithmetic, text: arithmetic.short });
  const clock = clockRow(report);
  if (clock) rows.push(clock);
  return rows;
}

// A speed measured on steps that did not train (diverged, or updates skipped) says so, with the
// report's own numbers: those steps are not what a run that learns does.
export function speedSummary(report) {
  const tp = report.throughput || {};
  if (!Number.isFinite(tp.model_flops_per_s)) return 'No step has been timed yet.';
  const base = `Over ${formatInt(report.time.steps)} steps the model ran at ${formatFlopRate(tp.model_flops_per_s)} (${formatInt(tp.tokens_per_s)} tokens/s)`;
  const speed = report.peak
    ? `${base}: ${formatPercent(tp.mfu, 1)} of the ${formatFlopRate(report.peak.flops_per_s)} this engine’s matmul kernel reached on its own on this CPU.`
    : `${base}.`;
  const o = trainOutcome(report);
  if (!o.failed) return speed;
  const reasons = [o.divergedAt ? `the loss diverged at step ${formatInt(o.divergedAt)}` : '', o.skipped ? skippedWords(o) : ''].filter(Boolean).join(' and ');
  return `${speed} But these steps did not train: ${reasons}, so this is the speed of a failed run${o.skipped ? ' (a skipped update leaves out the optimizer’s work)' : ''}.`;
}

// The speed figures while a run is going: the first report (after one chunk) carries the FLOPs and
// tokens per step and the measured peak; the step times so far (progress messages, the engine's own
// per-step seconds) give the median. Without this the cards would show the first chunk, JIT warm-up
// included, until the run ends. Returns a report-shaped object for speedRows / speedSummary.
// losses (optional): every step's loss so far, so a run that diverged after the first report is
// described as diverged while it goes; the updates skipped since then are not known yet.
export function liveSpeedReport(report, stepSeconds, losses = null) {
  const times = stepSeconds.filter((t) => Number.isFinite(t) && t > 0).sort((a, b) => a - b);
  if (!report || !times.length) return report;
  const live = losses && losses.length > (report.losses || []).length
    ? { losses, steps_done: losses.length, skipped_steps: undefined } : {};
  const mid = times.length >> 1;
  const median = times.length % 2 ? times[mid] : (times[mid - 1] + times[mid]) / 2;
  const f = report.flops;
  const tokens = report.model.tokens_per_step;
  const tp = { ...(report.throughput || {}), model_flops_per_s: f.model_per_step / median, executed_flops_per_s: f.executed_per_step / median, tokens_per_s: tokens / median };
  if (report.peak) { tp.mfu = tp.model_flops_per_s / report.peak.flops_per_s; tp.hfu = tp.executed_flops_per_s / report.peak.flops_per_s; }
  return { ...report, ...live, time: { ...report.time, steps: times.length, median_seconds_per_step: median }, throughput: tp };
}

// ---- progress
export function progressText(done, total, what = 'Step') {
  return `${what} ${formatInt(done)} of ${formatInt(total)}`;
}

// ---- did the run train? (one judgement for the status line, its colour and the speed summary)
// A run whose loss stopped being a finite number ('diverged'), or whose loss scaler skipped more than
// half of its updates because a gradient overflowed ('skipped'), did not train: that is a failure,
// never shown as success. A run whose updates mostly changed nothing ('stalled': on average more than
// STALL_SHARE of the weights came out of an applied update bit-for-bit unchanged; the FP32 master
// when there is one, since that is the copy that keeps the update) ran, but barely moved: a warning.
// Everything comes from the report (losses, skipped_steps, steps_done, stall); `losses` may be the
// live list while a run goes.
export const STALL_SHARE = 0.5;

export function trainOutcome(report, losses = report ? report.losses : []) {
  const ls = losses || [];
  const steps = report && Number.isFinite(report.steps_done) ? Math.max(report.steps_done, ls.length) : ls.length;
  const bad = ls.findIndex((v) => !Number.isFinite(v));
  const skippedSteps = report && Array.isArray(report.skipped_steps) ? report.skipped_steps : null;
  const skipped = skippedSteps ? skippedSteps.length : null;
  let unchanged = null;
  const st = report && report.stall;
  const perStep = st && (st.master_unchanged_per_step || st.weights_unchanged_per_step);
  if (perStep && st.weight_elements > 0) {
    const off = new Set(skippedSteps || []);
    const applied = perStep.filter((n, i) => !off.has(i) && Number.isFinite(n));
    if (applied.length) unchanged = applied.reduce((a, b) => a + b, 0) / applied.length / st.weight_elements;
  }
  // Why updates were skipped: at a step whose loss was already not a number there was no usable
  // gradient at all; at one with a finite loss a gradient overflowed (helper-32 traced both in the
  // engine). The engine skips such steps with loss scaling off too, so the scaler is named only when on.
  const noLoss = skippedSteps ? skippedSteps.filter((i) => i < ls.length && !Number.isFinite(ls[i])).length : 0;
  const request = (report && report.request) || {};
  const scaler = !(request.loss_scale && request.loss_scale.mode === 'none');
  // Pure FP16 keeps Adam's v in FP16, where small gradients' squares round to zero (engine README).
  const adam16 = Boolean(report && report.storage && report.storage.optimizer_state === 'fp16' && ['adam', 'adamw'].includes(request.optimizer));
  let kind = 'trained';
  if (bad >= 0) kind = 'diverged';
  else if (skipped !== null && steps > 0 && skipped * 2 > steps) kind = 'skipped';
  else if (unchanged !== null && unchanged > STALL_SHARE) kind = 'stalled';
  return {
    kind, failed: kind === 'diverged' || kind === 'skipped', divergedAt: bad >= 0 ? bad + 1 : null, skipped, steps, unchanged, noLoss, scaler, adam16,
    firstApplied: Boolean(skippedSteps && !skippedSteps.includes(0)),
    pure16: Boolean(report && report.storage && !report.storage.master_weights && ['fp16', 'bf16'].includes(report.storage.weights)),
    weights: report && report.storage ? report.storage.weights : null,
  };
}

// "the loss scaler skipped 39 of 40 updates, each because the loss was no longer a number", with the
// cause of each skip from the run's losses (trainOutcome).
export function skippedWords(o) {
  const who = o.scaler ? 'the loss scaler skipped' : 'the engine skipped';
  const n = `${who} ${formatInt(o.skipped)} of ${formatInt(o.steps)} ${o.skipped === 1 ? 'update' : 'updates'}`;
  const overflow = o.skipped - o.noLoss;
  if (!o.noLoss) return `${n} because a gradient overflowed`;
  if (!overflow) return `${n}, ${o.skipped === 1 ? '' : 'each '}because the loss was no longer a number`;
  return `${n} (${formatInt(overflow)} because a gradient overflowed, ${formatInt(o.noLoss)} because the loss was no longer a number)`;
}

// What breaks pure FP16 with Adam, said when such a run diverges: the mechanism (traced in the
// engine by helper-32: v rounds to zero for most weights, the first update moves weights by
// hundreds, and the next forward pass overflows), not the loss scaler.
const ADAM16_CAUSE = ' Pure FP16 keeps Adam’s second moment v in FP16, where the square of a small gradient rounds to zero; '
  + 'the update then divides by ε alone and moves weights by far more than the learning rate, and the next forward pass overflows FP16. '
  + 'Pure BF16, with FP32’s range, does not break this way.';

// The status line once a run ends (outcome 'done', 'cancelled', or 'left': still running when the
// student left the panel, kept as it stood then by measure-keep.js), and the run status's state:
// 'done' (✓), 'failed' (✕: diverged, or most updates skipped), 'stalled' (⚠), 'caution' (⚠: pure
// 16-bit that did train here, never a plain success: walk 10) or 'cancelled'. A run
// that failed says so first ("Failed"), and from which step, not just "Done" or "Cancelled".
export function trainEndStatus({ outcome = 'done', stepsDone, stepsTotal, seconds, report = null, losses = null }) {
  const o = trainOutcome(report, losses || (report ? report.losses : []));
  const counted = `${formatInt(stepsDone)} of ${formatInt(stepsTotal)} steps`;
  const what = outcome === 'cancelled' ? `cancelled after ${counted}`
    : outcome === 'left' ? `stopped when you left Measure it, after ${counted}`
    : `${formatInt(stepsDone)} steps in ${seconds < 0.05 ? 'under 0.1' : seconds.toFixed(1)} s of training`; // never '0.0 s' (walk 10)
  if (o.kind === 'diverged') {
    const after = o.divergedAt === 2 && o.firstApplied ? ', right after the first update,' : '';
    return { state: 'failed', outcome: o, text: `Failed — the run diverged: from step ${formatInt(o.divergedAt)}${after} the loss is no longer a number${o.skipped ? `, and ${skippedWords(o)}` : ''} (${what}).${o.adam16 ? ADAM16_CAUSE : ''}` };
  }
  if (o.kind === 'skipped') {
    return { state: 'failed', outcome: o, text: `Failed — the run did not train: ${skippedWords(o)} (${what}).` };
  }
  if (o.kind === 'stalled') {
    const why = o.pure16 ? ` Pure ${o.weights.toUpperCase()} keeps no FP32 master copy, so updates smaller than half the gap between neighbouring 16-bit numbers round away.` : '';
    return { state: 'stalled', outcome: o, text: `Stalled — most updates changed nothing: on average ${formatPercent(o.unchanged)} of the weights came out of each update bit-for-bit unchanged (${what}).${why}` };
  }
  if (outcome === 'cancelled') return { state: 'cancelled', outcome: o, text: `Cancelled after ${counted}.` };
  if (outcome === 'left') return { state: 'cancelled', outcome: o, text: `Stopped when you left Measure it, after ${counted}.` };
  if (o.pure16) {
    const share = o.unchanged === null ? '' : ` ${formatPercent(o.unchanged)} of the weights came out of an update unchanged on average.`;
    return { state: 'caution', outcome: o, text: `Done, but without an FP32 master copy (${what}):${share} `
      + `Pure ${o.weights.toUpperCase()} rounds away every update smaller than half the gap between neighbouring 16-bit numbers. This tiny model’s updates were mostly large enough to land; a real model’s are not, which is why pure 16-bit training stalls there (section 6 shows it with SGD’s smaller updates).` };
  }
  return { state: 'done', outcome: o, text: `Done: ${what}.` };
}
