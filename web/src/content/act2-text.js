// Act 2's words: the questions, the reveal, the reference panel's reconciliation and the notes. Every
// number is passed in from the engine (act2.js gathers them); each sentence takes its numbers from one
// scenario and names it. Sourced constants here are the chapter's own published figures, labelled.
import { formatPercent, formatInt, formatBytes, formatRatio, formatCount, formatNumber2, wordList, chapterUnits } from '../format/format.js';

export { chapterUnits };
import { nearestByRatio } from '../format/scoring.js';

const PRECISION_WORDS = { fp32: 'FP32', mixed: 'mixed precision' };
const SCHEME_WORDS = { none: 'no checkpointing', selective: 'selective recompute', full: 'full recompute' };

export const TITLE = 'Act 2: The MFU gap';
export const SHORT_TITLE = 'The MFU gap';

export const pct = (x) => formatPercent(x, 1);
// A no-break space between a number and its unit: a line never ends with "67.48" and starts with "s)".
// formatNumber2 reuses one Intl.NumberFormat: toLocaleString with options builds a new one per call,
// and the timeline and its table format ~100 times per slider step (2 ms of each step's 2.5 ms).
export const secs = (s) => `${formatNumber2(s)}\u00a0s`;
export const hours = (h) => `${formatNumber2(h)}\u00a0h`;
export const rate = (t) => `${formatInt(t)}\u00a0tokens/s`;

export const INTRO = [
  'Where do a training step’s seconds go, and how much of the GPU’s peak does the model’s own work use?',
];

export const PREDICTION = {
  question: 'The chapter tunes its GPT-2 XL training loop on a V100 until the GPU is busy most of the time. What share of the V100’s peak 16-bit FLOP/s do the model’s own FLOPs then use (its MFU)?',
  // Each option is a range; value is its geometric middle (what the ledger records as the guess).
  options: [
    { id: 'a', range: [0.85, 0.95], value: 0.899, label: 'About 85–95%: a well-tuned loop runs close to peak' },
    { id: 'b', range: [0.60, 0.70], value: 0.648, label: 'About 60–70%: some overhead is unavoidable' },
    { id: 'c', range: [0.40, 0.50], value: 0.447, label: 'About 40–50%: loading, copies and kernel overhead eat half' },
    { id: 'd', range: [0.15, 0.30], value: 0.212, label: 'About 15–30%: far below peak even when tuned' },
  ],
};

// The reveal: the answer and the lesson on screen; the last line (why busy ≥ pipeline efficiency ≥
// MFU, with the kernel efficiency and the recompute share) goes behind a "Why?" (act2.js).
export function revealLines(n, chosenText, errorText) {
  return [
    `You chose ${chosenText}. For the chapter’s tuned loop the engine computes an MFU of ${pct(n.tuned.mfu)}. ${errorText}`,
    `Same step, three numbers: GPU busy ${pct(n.tuned.busy)}, pipeline efficiency ${pct(n.tuned.pe)}, MFU ${pct(n.tuned.mfu)}. A busy GPU is not a GPU at peak.`,
    `GPU busy time counts every moment the GPU runs a kernel or receives a copy, including memory-bound kernels that barely use the tensor cores. Pipeline efficiency counts only the matrix multiplications, and even those run at ${pct(n.tuned.kernel)} of peak at this batch size and spend ${pct(n.tuned.recompute_share)} of their time recomputing checkpointed activations, which MFU does not count as model work. So busy ≥ pipeline efficiency ≥ MFU, always.`,
  ];
}

export function orderExplainer() {
  return 'GPU busy ≥ GPU kernels ≥ pipeline efficiency ≥ MFU: the brackets under the bar show what the first three cover.';
}

// The chapter's published walkthrough numbers (chapter, "GPT-2 XL training walkthrough" section).
export const CHAPTER = {
  memory_before_gb: 89, memory_after_gb: 32, busy_before: 0.45, busy_after: 0.85,
  data_before: 0.40, data_after: 0.05, compute_before: 0.35, compute_after: 0.75,
  tokens_per_s: 1200, epoch_hours: 8.3,
};

export function reconciliation(r, units) {
  return [
    `The chapter’s 45% and 85% are the share of time the GPU is busy; the engine, calibrated to the chapter’s profile, reproduces them exactly (${pct(r.before.busy)} and ${pct(r.after.busy)}). They are not MFU: in the same tuned step the model’s FLOPs use ${pct(r.after.mfu)} of the V100’s 16-bit peak.`,
    `The chapter’s throughput, ${rate(CHAPTER.tokens_per_s)}, corresponds to an MFU of only ${pct(r.chapterMfu)} at the V100’s ${formatInt(r.chapterPeakTflops)} TFLOP/s 16-bit peak, priced at the chapter’s own mixed precision. The engine’s tuned step is faster (${rate(r.after.tokens)}); the chapter does not state how its 1,200 was measured, so the lab shows both and trusts neither blindly.`,
    `Memory: the calibrated model gives ${chapterUnits(r.memBefore, units)} for the FP32 baseline and ${chapterUnits(r.memAfter, units)} after mixed precision and checkpointing every 4 layers, the chapter’s ${formatInt(CHAPTER.memory_before_gb)}\u00a0GB and ${formatInt(CHAPTER.memory_after_gb)}\u00a0GB (the chapter rounds ${formatInt(r.memAfter)}\u00a0B down).`,
  ];
}

// An amount compared with the chapter's: in the chapter's unit (GB), with GiB beside it in GiB mode.

export const FIX_QUESTION = {
  question: 'In the chapter’s baseline step, loading data takes 40% of the time. Which single change speeds the step up the most?',
  options: [
    { id: 'a', label: 'Buy a GPU with twice the peak FLOP/s', change: 'faster_gpu' },
    { id: 'b', label: 'Switch from Adam to SGD to reduce memory pressure', change: 'sgd' },
    { id: 'c', label: 'Load data in background workers that prefetch the next batches while the GPU computes', change: 'prefetch' },
    { id: 'd', label: 'Halve the batch size to move less data to the GPU', change: 'half_batch' },
  ],
};

// Why each single change helps or not, with the engine's numbers for that change's own step (f: one
// entry of scoreFixes()).
const FIX_REASONS = {
  faster_gpu: (f) => `Twice the peak FLOP/s shrinks only the GPU’s part of the step: loading still takes ${secs(f.load_seconds)} of each ${secs(f.step_seconds)} step (${pct(f.shares.data_loading)}), and the GPU waits for it.`,
  sgd: (f) => `SGD needs less memory than Adam, but memory was not what held this step back: with SGD the optimizer step is ${pct(f.optimizer_share)} of the step while data loading is still ${pct(f.shares.data_loading)}.`,
  prefetch: (f) => `Workers load the next batches while the GPU computes, so most loading leaves the critical path: data loading falls to ${pct(f.shares.data_loading)} of a ${secs(f.step_seconds)} step.`,
  half_batch: (f) => `Half the batch moves half the data but also trains half the tokens per step, and the smaller matrix multiplications run at ${pct(f.kernel)} of peak: data loading is still ${pct(f.shares.data_loading)} of the step.`,
};

// Each change in a few words, for the feedback (the option's full text is on screen just above).
const FIX_SHORT = { faster_gpu: 'the faster GPU', sgd: 'SGD', prefetch: 'prefetching in background workers', half_batch: 'half the batch' };

// The feedback on the screen: right or not, with the engine's throughputs (one or two sentences).
export function fixFeedback(correct, scored, chosenId) {
  const best = scored.find((s) => s.best);
  const chosen = scored.find((s) => s.id === chosenId);
  // The chosen option is checked just above, so it is not quoted again (issue 23's words budget).
  const mine = `Your choice makes ${rate(chosen.tokens)} on the engine, against ${rate(scored.baseline)} for the chapter’s baseline.`;
  if (correct) return `Right. ${mine}`;
  return `Not quite. ${mine} The fastest single change is ${FIX_SHORT[best.change] || `“${best.label}”`}, at ${rate(best.tokens)}.`;
}

// Why, behind the feedback's disclosure: the chosen change's reason and, when wrong, the fastest's.
export function fixWhy(correct, scored, chosenId) {
  const best = scored.find((s) => s.best);
  const chosen = scored.find((s) => s.id === chosenId);
  return correct ? FIX_REASONS[chosen.change](chosen) : `${FIX_REASONS[chosen.change](chosen)} ${FIX_REASONS[best.change](best)}`;
}

// The timeline's one-sentence reading: with prefetching, exactly the work that runs hidden and what
// stays on the critical path (bar: stepBar(); tl: timelineLanes(); all from the same evaluate call).
export function timelineSentence(bar, tl, prefetchEffective) {
  const span = `(${tl.steps} steps, ${secs(tl.end_seconds)})`;
  if (!prefetchEffective) return `Without prefetching each step waits for its own batch: the GPU idles while data loads and copies ${span}.`;
  const hidden = bar.segments.filter((x) => x.hidden_seconds > 0.005);
  // The copy's two segments (host side, into the GPU) read as one here.
  const seg = (k) => bar.segments.find((x) => x.key === k);
  const copy = seg('transfer').seconds_shown + seg('dma').seconds_shown;
  const input = [[seg('data_loading').seconds_shown, 'data loading'], [copy, 'the host→device copy']].filter(([t]) => t > 0);
  const hiddenWords = hidden.length ? `${hidden.map((x) => `${secs(x.hidden_seconds)} of ${x.label.toLowerCase()}`).join(' and ')} per step no longer lengthens it` : 'nothing is hidden yet';
  const left = input.length ? `; still on the critical path: ${input.map(([t, w]) => `${w} ${secs(t)}`).join(' and ')}` : '';
  return `With prefetching, workers prepare the next batches in the shadow of the current step: ${hiddenWords}${left} ${span}.`;
}

// What the Chapter calibration box switches, for the scenario on screen (r: its evaluate result;
// chapterActivations: { bytes, batch_size }, the calibrated engine's activations for the chapter's
// FP32 step without checkpointing). The timing constants come from r.pipeline.constants.
// The static parts a result holds, in words: the master copy only where the precision keeps one
// (FP32 training has none).
const staticWords = (m) => `weights, gradients${m.components.master_weights > 0 ? ', master copy' : ''} and optimizer state`;

// A reduction this close to 1× is shown as none (1.00× at two decimals).
const savesNothing = (ratio) => ratio < 1.005;

// What a kept share of the activations means, as a sentence ("At k = 8 the calibration keeps 20.3% …").
const keptWords = (share, k, layers) => {
  const at = `At k = ${k} the calibration keeps`;
  if (!savesNothing(1 / share)) return `${at} ${(share * 100).toFixed(1)}% of the activations (${formatRatio(1 / share)} less).`;
  if (k === layers) return `${at} all the activations: one segment of all ${layers} layers saves nothing, in the formula and in the physics model.`;
  // The formula counts each checkpoint as a whole layer's activations A: at k = 1 that stores
  // everything, while a real implementation keeps only each layer's input (Full recompute).
  if (k === 1) return `${at} all the activations. The formula counts each checkpoint as a whole layer’s activations, so a checkpoint at every layer saves nothing. Real implementations store only each layer’s input: that is why the Full recompute scheme (a checkpoint at every layer) and the physics model (box unticked) save the most at k = 1.`;
  return `${at} all the activations (the formula saves nothing at this k).`;
};

// One paragraph per subject: what memory counts, the k rule (every-k checkpointing only), the
// timing constants, and what the data-loading settings do here.
// replayOpen: false when an instructor locked or hid the calibration box (no 'untick the box' then).
export function calibrationParagraphs(c, r, chapterActivations, units, { replayOpen = true } = {}) {
  const parts = [];
  const m = r.memory;
  const k = r.pipeline.constants;
  if (c.replay) {
    parts.push(`Chapter calibration on. Memory as the chapter counts it: N = ${formatInt(m.parameters_counted)} parameters (the chapter’s round figure; the Math Peek’s FLOPs count the parameters each token is multiplied by) and activations scaled from the chapter’s figure of ${chapterUnits(chapterActivations.bytes, units)} for FP32, batch ${chapterActivations.batch_size} and no checkpointing.`);
    const d = m.activations_detail;
    if (c.checkpointing === 'every_k' && c.every_k !== 4 && d.chapter_saving_scale) parts.push(`The chapter gives a saving only for every 4 layers (4×). For k = ${c.every_k} the calibration uses the chapter’s formula k·A + (L/k)·A (L = ${r.model.layers} layers, A = one layer’s activations) with its saving scaled by ${d.chapter_saving_scale.toFixed(3)}, so that k = 4 still saves the chapter’s 75%. ${keptWords(d.chapter_kept_share, c.every_k, r.model.layers)}${replayOpen ? ' Compare with the calibration off.' : ''}`);
    parts.push(`Timing: to land on the chapter’s 40% loading and 25% copies, one loading process has to manage only ${rate(k.worker_tokens_per_s)} (the chapter itself quotes about 500,000 tokens/s per CPU core for tokenization) and each copy carries ${k.transfer_latency_seconds.toLocaleString('en-US', { maximumFractionDigits: 2 })} s of host-side overhead. These constants say what the chapter’s profile implies, not what current hardware does.${replayOpen ? ' Untick the box for the physics model (memory and timing).' : ''}`);
  } else {
    parts.push(`Chapter calibration off: the physics model. Memory counts the exact N = ${formatInt(m.parameters_counted)} parameters and every activation a straightforward implementation stores, attention scores included (Korthikanti et al. 2022), so this step peaks at ${formatBytes(m.peak_bytes, units)}, of which ${formatBytes(m.static_bytes, units)} is ${staticWords(m)}. Timing uses physical constants (one loading process manages ${rate(k.worker_tokens_per_s)}).${replayOpen ? ' Tick the box for the chapter’s numbers.' : ''}`);
  }
  if (c.prefetch && c.data_workers > 0) parts.push('Prefetch depth only limits how far ahead the workers may run; it absorbs jitter in loading time, which this steady model leaves out, so changing it moves nothing here.');
  if (!c.prefetch && c.data_workers > 0) parts.push('Workers without prefetching still load in parallel, but each batch is requested only when the step needs it. (PyTorch’s DataLoader always prefetches when it has workers.)');
  return parts;
}
export const calibrationText = (...args) => calibrationParagraphs(...args).join(' ');

// One sentence when nothing the act can set fits on the GPU: the smallest step (its config and
// evaluate result), the static memory that leaves too little room, and the GPUs where the settings on
// screen (fitsWhat) fit, names from the catalog (pass none when the GPU is fixed in the lab).
// tickFits: whether ticking the chapter calibration (open here, and off) makes a step fit on this GPU
// (walk 8: it was suggested with the calibration locked).
export function nothingFitsText(small, deviceName, fitsOn, replay, units, fitsWhat = 'these settings fit', { tickFits = false } = {}) {
  const m = small.result.memory;
  const c = small.config;
  const scheme = c.checkpointing === 'every_k' ? `checkpointing every ${c.every_k} layers` : SCHEME_WORDS[c.checkpointing];
  const tick = tickFits ? 'tick the chapter calibration' : '';
  const where = fitsOn.length ? `; choose the ${fitsOn.join(' or the ')}, where ${fitsWhat}${tick ? `, or ${tick}` : ''}` : tick ? `; ${tick}` : '';
  return `Nothing this act can set fits on the ${deviceName}${replay ? '' : ' with the physics model'}: even its smallest step (${PRECISION_WORDS[c.precision]}, ${scheme}, batch ${c.batch_size}) needs ${formatBytes(m.peak_bytes, units)} of the ${formatBytes(m.usable_device_bytes, units)} usable, because ${staticWords(m)} alone take ${formatBytes(m.static_bytes, units)}${where}.`;
}

// After the engine's advice on what limits the step: which of the settings it names a student can
// still use here, so the advice never sends anyone to a locked control, to one already at its best,
// or to one that cannot help (walk 8). levers: [{ status: 'try' | 'fixed' | 'why', try: words for
// using it, plural: whether those words are, noun: its name, why: why not, for status 'why' (null:
// said by another lever) }]. '' when every lever is left to try.
function leversLeft(levers) {
  const left = levers.filter((l) => l.status === 'try');
  if (left.length === levers.length) return '';
  const fixed = levers.filter((l) => l.status === 'fixed');
  const why = [
    ...(fixed.length ? [`${wordList(fixed.map((l) => l.noun))} ${fixed.length > 1 ? 'are' : 'is'} fixed in this lab`] : []),
    ...levers.filter((l) => l.status === 'why' && l.why).map((l) => l.why),
  ];
  if (!left.length) return ` None of those can help further here: ${wordList(why)}.`;
  const verb = left.length > 1 || left[0].plural ? 'are' : 'is';
  return ` Here ${wordList(left.map((l) => l.try))} ${verb} left to try: ${wordList(why)}.`;
}

// One lever: fixed when its control is not open here; else left to try unless whyNot says otherwise.
const lever = (open, key, noun, tryWords, whyNot) => ({ noun, try: tryWords, why: whyNot,
  status: !open.has(key) ? 'fixed' : whyNot ? 'why' : 'try' });

// Data-bound. When loading dominates the engine advises workers, prefetching and pinned memory; when
// the host-to-device copies do, pinning only (more workers and prefetching shorten loading, not the
// copies). config: Act 2's settings; open: the controls left open; maxWorkers: the slider's top;
// limiter: the engine's. Prefetching has no effect without a worker.
export function loaderAdvice(config, open, maxWorkers, limiter = 'data_loading') {
  if (limiter === 'transfer') {
    // With memory pinned the engine's sentence itself says what is left (walk 12: it used to advise
    // pinning, and this line then said it was done).
    if (config.pinned_memory) return '';
    return open.has('pin') ? '' : ' Pinned memory is fixed in this lab, so that cannot be tried here.';
  }
  const noWorker = config.data_workers === 0 && !open.has('workers');
  return leversLeft([
    { ...lever(open, 'workers', 'the number of loader workers', 'more loader workers',
      config.data_workers >= maxWorkers ? `the loader workers are at the slider’s maximum (${maxWorkers})` : null), plural: true },
    lever(open, 'prefetch', 'prefetching', 'prefetching', config.prefetch && config.data_workers > 0 ? 'prefetching is already on'
      : noWorker ? 'prefetching has no effect without a worker' : null),
    lever(open, 'pin', 'pinned memory', 'pinned memory', config.pinned_memory ? 'memory is already pinned' : null),
  ]);
}

// Out of memory (the engine: precision, optimizer, checkpointing, batch): this act keeps Adam; of the
// rest, what can still make a step fit (act2-best.js memoryOptions: fitsHere, otherGpus as names).
// Ticking the chapter calibration is not among them (student walk): it changes how the activations
// are counted, not what the step holds; nothingFitsText says it where nothing else is left.
// Every-1-layer checkpointing keeps as little as full recompute.
export function memoryAdvice(config, open, { fitsHere, otherGpus, smallestBatch }) {
  const stepLevers = [
    lever(open, 'prec', 'the precision', 'mixed precision', config.precision === 'mixed' ? 'the precision is already mixed' : null),
    lever(open, 'ckpt', 'checkpointing', 'more checkpointing',
      config.checkpointing === 'full' || (config.checkpointing === 'every_k' && config.every_k === 1) ? 'checkpointing already keeps the least' : null),
    lever(open, 'batch', 'the batch size', 'a smaller batch', config.batch_size <= smallestBatch ? `the batch is already the smallest (${smallestBatch})` : null),
  ];
  // When none of them can make a step fit on this GPU, the open ones say so together (walk 9).
  const openStep = stepLevers.filter((l) => l.status !== 'fixed');
  const stuck = !fitsHere && openStep.length
    ? [{ status: 'why', why: `no choice of ${wordList(openStep.map((l) => l.noun), 'or')} left open fits on this GPU` }, ...openStep.slice(1).map(() => ({ status: 'why', why: null }))]
    : openStep;
  return ` This act keeps Adam.${leversLeft([
    ...stepLevers.filter((l) => l.status === 'fixed'), ...stuck,
    lever(open, 'dev', 'the GPU', `another GPU (${wordList(otherGpus.map((n) => `the ${n}`), 'or')})`, otherGpus.length ? null : 'no other GPU here fits it'),
  ])}`;
}

// The design challenge when the settings fixed in this lab keep the tuned regime out of reach
// (act2-best.js regimeSearch's result); `regime` holds the thresholds. The act then does not ask for it.
export function regimeOutOfReach(res, regime) {
  const rest = 'so this part of the challenge is not asked for here.';
  // The shares on screen may already look tuned (walk 8): say why they do not count.
  if (res.calibration_off) return `The tuned regime is the chapter’s calibrated profile, and the calibration is fixed off in this lab. With the physics model’s constants the loader is fast enough from the start, so the shares above do not count for it, and this part of the challenge is not asked for here.`;
  if (res.lowest_data_share === null) return `Nothing the settings left open can set fits in memory with the ones fixed in this lab: no step can run here, ${rest}`;
  return `With the settings fixed in this lab, no choice of the ones left open gets data loading to ${pct(regime.max_data_share)} or less and GPU compute to ${pct(regime.min_compute_share)} or more of the step: the lowest loading share they reach is ${pct(res.lowest_data_share)} and the highest compute share ${pct(res.highest_compute_share)} (not necessarily with the same settings), ${rest}`;
}

export const CKPT_QUESTION = {
  // One stated scenario (CHAPTER_TUNED2, chapter calibration): its answer is the chapter's own 4×.
  intro: 'In the chapter’s tuned step (chapter calibration),',
  prompt: 'checkpointing every 4 layers reduces activation memory by about',
  ratioOptions: [
    { id: 'a', value: 2, label: '2×' }, { id: 'b', value: 4, label: '4×' },
    { id: 'c', value: 12, label: '12×' }, { id: 'd', value: 48, label: '48×' },
  ],
  overheadOptions: [
    { id: 'a', value: 0, label: '0% (memory for free)' }, { id: 'b', value: 0.1, label: '10%' },
    { id: 'c', value: 0.33, label: '33%' }, { id: 'd', value: 1, label: '100%' },
  ],
  reasonOptions: [
    { id: 'a', label: 'the backward pass has to recompute the activations that were dropped instead of stored' },
    { id: 'b', label: 'the optimizer has to run twice per step' },
    { id: 'c', label: 'checkpoints are written to disk and read back' },
    { id: 'd', label: 'the GPU compresses the stored activations' },
  ],
  correctReason: 'a',
};

// The Math Peek's line under HFU: the FLOPs recomputation adds per token and their share of the
// model's; under the chapter calibration that share is the chapter's flat one for every scheme,
// selective included, which the HFU line alone does not show (re-walk 13).
export function recomputeNote(flops, calibrated) {
  const share = pct(flops.recompute_per_token / flops.model_per_token);
  return `Recomputed FLOPs per token: ${formatInt(flops.recompute_per_token)} (${share} of the model’s FLOPs per token).${calibrated
    ? ' Under the chapter calibration, that is the chapter’s flat share for every checkpointing scheme; untick the calibration for the physics model’s count, which follows what each scheme drops.' : ''}`;
}

export function ckptScenarioText(n, units) {
  const from = formatBytes(n.without_bytes, units);
  const to = formatBytes(n.with_bytes, units);
  // with_bytes counts the segment rebuilt during backward (live at the same time): say so, as
  // memory.components.activations alone leaves it out.
  const rebuilt = n.rebuilt_bytes > 0 ? `; ${to} counts the ${formatBytes(n.rebuilt_bytes, units)} of one segment rebuilt during backward` : '';
  const change = from === to ? `activations stay at ${from} (no saving)`
    : n.with_bytes > n.without_bytes ? `activations rise from ${from} to ${to}${rebuilt}` : `activations fall from ${from} to ${to} (${formatRatio(n.ratio)}${rebuilt})`;
  return `For your Act 2 settings now, checkpointing every ${formatCount(n.k, 'layer')} (${n.replay ? 'chapter calibration' : 'physics model'}): ${change}, and recomputation adds ${pct(n.overhead)} to the model’s FLOPs.`;
}

// The reflection's ratio line, for the question's one scenario (n: ckptNumbers of CHAPTER_TUNED2;
// scored against the option nearest by ratio, scoring.js nearestByRatio).
export function ckptRatioFeedback(n, units) {
  return `Activation memory falls ${formatRatio(n.ratio)}, from ${formatBytes(n.without_bytes, units)} to ${formatBytes(n.with_bytes, units)}, in the chapter’s step.`;
}

// The reflection's extra-compute line, naming the option the answer is scored against (nearest by
// ratio; 0% counts as 1%, as act2-reflect.js scores it).
export function ckptOverheadFeedback(engineOverhead, options = CKPT_QUESTION.overheadOptions) {
  const best = options[nearestByRatio(options.map((o) => Math.max(o.value, 0.01)), engineOverhead)];
  return `Extra compute: ${pct(engineOverhead)} more FLOPs, so ${best.label} counts as right.`;
}

export function ckptFormulaText(n) {
  const stored = Number((n.k + n.layers / n.k).toFixed(2));
  const result = !savesNothing(n.formulaRatio) ? `${formatRatio(n.formulaRatio)} less`
    : n.formulaRatio < 1 ? `${formatRatio(n.formulaRatio)}: it stores ${stored}·A, slightly more than L·A = ${n.layers}·A, so no saving`
      : `${formatRatio(n.formulaRatio)}, so no saving`;
  return `The chapter quotes a flat 4× for checkpointing every 4 layers; the chapter calibration keeps that 4× at k = 4 and, for other k, follows the chapter’s formula with its saving scaled so that k = 4 still gives 4×. The formula counts ${formatCount(n.k, 'layer')} of activations rebuilt during backward plus one checkpoint per segment (L/k of them), each as one layer’s activations A: about k·A + (L/k)·A, against L·A without checkpointing. For k = ${n.k}: L/(k + L/k) = ${n.layers}/(${n.k} + ${n.layers}/${n.k}) = ${result}. The formula saves the most at k = √L ≈ ${n.sqrtL.toFixed(1)} (${formatRatio(n.optimumRatio)}). The physics model usually saves more than the formula, because a stored layer input (2·s·b·h bytes) is far smaller than a whole layer’s activations, which include the attention scores; with one segment of all layers (k = L) neither saves anything.`;
}

export const LAPTOP = {
  lead: 'Make GPT-2 XL training fit the 8 GB laptop GPU, starting from FP32, Adam, batch 32 and no checkpointing.',
  physics: 'These numbers come from the physics model: the exact parameter count and every activation a straightforward implementation stores, attention scores included. That is why the start is far above the chapter’s 89 GB, which uses the chapter’s own 65 GB activation figure (see the reference panel).',
  stallText: 'Fits, but cannot train: without an FP32 master copy, most updates are smaller than the gap between neighbouring 16-bit numbers and round away, so the weights stop changing (updates stall).',
  stallLink: 'See it happen in “Measure it”',
  beyond: 'Past this floor, the memory itself must be split across GPUs (ZeRO, fully sharded data parallel) or offloaded to the CPU.',
};

// Section 2's lead, naming only what the student can change (an instructor may lock or hide some).
export function stepLead({ pipeline = true, step = true } = {}) {
  const change = pipeline && step ? 'Change the data pipeline and the step itself; the bar' : pipeline ? 'Change the data pipeline; the bar'
    : step ? 'Change the step itself; the bar' : 'The bar';
  return `${change} shows where one step’s seconds go.`;
}

// ---- The design challenge (act2-design.js): the goal is the fastest step (issue 23).
export function designLead(regime) {
  return `Reach the chapter’s tuned regime (data loading ≤ ${regime.max_data_share * 100}%, GPU kernels ≥ ${regime.min_compute_share * 100}% of the step), then make the step as fast as you can (tokens/s).`;
}

// A GPU's short name for a sentence ("NVIDIA V100 SXM2 32 GB" → "V100"; the peaks do not depend on the memory).
export const shortGpu = (name) => name.replace(/^NVIDIA\s+/, '').replace(/\s+(SXM\d?|PCIe)\b.*$/, '');

// "Precision peak" words: mixed precision runs its matrix multiplications at the 16-bit rate.
const PEAK_WORDS = { fp32: 'FP32', mixed: '16-bit' };
const tflops = (flopsPerS) => `${formatNumber2(flopsPerS / 1e12).replace(/\.?0+$/, '')}\u00a0TFLOP/s`;

// An MFU named against the peak it is measured against: "25.7% of the V100’s 16-bit peak, 125 TFLOP/s".
export function mfuOfPeak(mfu, deviceName, precision, peakFlopsPerS) {
  return `${pct(mfu)} of the ${shortGpu(deviceName)}’s ${PEAK_WORDS[precision] || precision} peak, ${tflops(peakFlopsPerS)}`;
}

// Why an FP32 run can show a higher MFU while running slower, with the GPU's two peaks (catalog).
export function whyFp32MfuHigher(device) {
  return `FP32 can show a higher MFU yet run slower: its MFU counts against the ${shortGpu(device.name)}’s FP32 peak, ${tflops(device.peak_fp32_flops_per_s)}, ${formatRatio(device.peak_fp16_flops_per_s / device.peak_fp32_flops_per_s)} below its 16-bit peak (${tflops(device.peak_fp16_flops_per_s)}).`;
}

// The MFU ceiling of the settings on screen, and why (r: their evaluate result).
export function ceilingText(r) {
  const ceiling = r.pipeline.mfu_ceiling;
  const k = r.pipeline.gpu.kernel_efficiency;
  const overhead = r.flops.recompute_per_token / r.flops.model_per_token;
  return `MFU ceiling for these settings: ${pct(ceiling)}. Even if loading, copies and memory-bound kernels took no time, matrix multiplications run at ${pct(k)} of peak at this batch size${overhead > 0 ? ` and recomputation adds ${pct(overhead)} to the model’s FLOPs, so MFU ≤ ${pct(k)} ÷ ${(1 + overhead).toFixed(2)} = ${pct(ceiling)}` : ''}. Each setting has its own ceiling.`;
}
