// Act 1's words and sourced constants: the prediction, the reflection and its feedback, the
// convergence figures and the "Chapter says / Physics says / Why" notes. Numbers inside the prose are
// filled in from engine results passed as `n` (see act1-numbers.js); nothing here is a typed-in value
// except the chapter's own claims, which are quoted as the chapter's. A sentence quotes one scenario
// (n.facts.*, checked by oneScenario) and its sums add up on screen (sumText).
import { formatBytes, formatBytesApprox, formatInt, formatRatio, formatMultiple, formatPercent, sumText, UNITS, wordList, chapterUnits, besideChapter } from '../format/format.js';
import { oneScenario, staticTerms, familyName } from '../format/sentences.js';

export const TITLE = 'Act 1: The optimizer memory tax';
export const SHORT_TITLE = 'The optimizer memory tax';

export const INTRO = 'Is Adam, the default optimizer for transformers, a free choice: a different update rule for the same memory? This act puts a number on it.';

// Convergence figures: chapter "Model Training", the worked example "GPT-2 Optimizer Memory
// Requirements" (training_chapter.qmd L900): "GPT-2 converges in ~50K steps vs. ~150K+ steps with
// SGD+Momentum". Plain SGD has no figure there, and the "90K steps" for Momentum that circulates is not
// from the chapter, so it is left out.
export const CONVERGENCE = {
  source: 'the chapter’s worked example “GPT-2 Optimizer Memory Requirements”',
  sgd: { steps: null, text: 'not given in the chapter' },
  momentum: { steps: 150000, text: '~150K+ (the chapter’s “SGD + Momentum”)' },
  adam: { steps: 50000, text: '~50K' },
};

export const PREDICTION = {
  question: 'You train GPT-2 XL in FP32 and switch the optimizer from SGD to Adam. How much more GPU '
    + 'memory does training need?',
  // value(n) picks the engine number an option stands for.
  options: [
    { id: 'a', value: () => 0, label: (n, u) => `About the same (~${formatBytesApprox(0, u)} extra): an optimizer is just an update rule and stores no model-sized data` },
    { id: 'b', value: (n) => n.oneVector, label: (n, u) => `About ${formatBytesApprox(n.oneVector, u)} extra: Adam keeps one extra vector the size of the model` },
    { id: 'c', value: (n) => n.adamDelta, label: (n, u) => `About ${formatBytesApprox(n.adamDelta, u)} extra: Adam keeps two extra vectors the size of the model (m and v)` },
    { id: 'd', value: (n) => n.adamStaticFp32, label: (n, u) => `About ${formatBytesApprox(n.adamStaticFp32, u)} extra: Adam keeps a safety copy of everything training already holds` },
  ],
  correct: 'c',
};

// Static memory and the rest of the total, as terms that add up to the engine's total.
function totalTerms(f) {
  const terms = [{ label: 'static memory', bytes: f.static }, { label: 'activations', bytes: f.activations }];
  if (f.logits > 0) terms.push({ label: 'logits', bytes: f.logits });
  if (f.reserve > 0) terms.push({ label: 'reserve', bytes: f.reserve });
  return terms;
}

export const NOTHING_TO_EXPLORE = 'Every setting of this ledger is fixed in this lab, so there is nothing to explore: compare your prediction with the engine when you are ready.';

// What opens the reveal, naming only the controls the student can use (an instructor may lock some).
const EXPLORE_WORDS = { opt: 'optimizer', prec: 'precision', batch: 'batch', ckpt: 'checkpointing', dev: 'device', replay: 'Chapter replay', fw: 'how memory is counted' };
export function revealHint(open) {
  const settings = open.filter((k) => EXPLORE_WORDS[k]).map((k) => EXPLORE_WORDS[k]);
  // A long list of every control reads as a chore: three or more open ones are "a setting above".
  const which = settings.length > 2 ? 'a setting above' : `the setting${settings.length > 1 ? 's' : ''} above (${wordList(settings, 'or')})`;
  const ways = [...(settings.length ? [`change ${which}`] : []),
    ...(open.includes('comp') ? ['hide a component'] : [])];
  if (!ways.length) return 'When you are ready, compare your prediction with the engine.';
  return `Not yet: explore the ledger first. ${ways.join(' or ').replace(/^./, (c) => c.toUpperCase())}; then the reveal opens.`;
}

export function revealText(n, choiceLabel, errorSentence, u) {
  const { adamFp32: a, sgdFp32: s, momFp32: mom } = n.facts;
  oneScenario(a, s, mom);
  const f = (b) => formatBytes(b, u);
  return [
    `You predicted: ${choiceLabel}.`,
    `The engine computes ${f(a.static - s.static)} more for Adam than for SGD (GPT-2 XL in FP32). ${errorSentence}`,
    `Adam stores two moment vectors, m and v, each one FP32 number (4 B) per parameter: 2 × 4 B × ${formatInt(a.params)} `
      + `parameters = ${besideChapter(a.optimizer_state, u)}. The chapter rounds the model to 1.5 billion parameters and says 12 GB. Momentum stores one `
      + `such vector (${f(mom.optimizer_state)}), which is what the “one extra vector” answer describes.`,
    `Before a single activation is stored, FP32 Adam training holds ${sumText(staticTerms(a, { splitVectors: true }), u, a.static)}: `
      + `${formatMultiple(a.static / a.weights)} the weights.`,
  ];
}

// [what the trade-off is, the laptop and H100 cases behind a disclosure].
export function tradeoffText(n, u) {
  const f = (b) => formatBytes(b, u);
  const { momFp32: mom, adamFp32: adam, sgdLaptop: lap, adamH100: h } = n.facts;
  oneScenario(mom, adam, lap, h);
  const fewer = Math.round(CONVERGENCE.momentum.steps / CONVERGENCE.adam.steps);
  return [`The chapter reports GPT-2 converging in about 50K steps with Adam against 150K or more with `
    + `SGD + Momentum. Adam’s second vector costs ${f(adam.optimizer_state - mom.optimizer_state)} and buys roughly ${fewer}× fewer steps, if the memory fits.`,
  `Source: ${CONVERGENCE.source}. On the 8 GB laptop GPU even SGD in FP32 needs ${sumText(staticTerms(lap), u, lap.static)} `
    + `before any activation, more than the ${f(lap.usable)} it can use (pure 16-bit would fit, but cannot train). On the H100, `
    + `FP32 Adam at batch 1 peaks at ${f(h.peak)} of the ${f(h.usable)} usable.`];
}

// Mixed-precision reflection. The ratio is scored against the engine (nearest option wins).
export const REFLECTION = {
  prompt: 'Complete the sentence for the chapter’s GPT-2 XL walkthrough (Adam, batch 32, no checkpointing, '
    + 'the chapter’s activation figure): switching from FP32 to mixed precision reduces total training memory by about',
  ratioOptions: [
    { id: 'a', value: 1.3, label: '1.3×' },
    { id: 'b', value: 1.6, label: '1.6×' },
    { id: 'c', value: 2, label: '2×' },
    { id: 'd', value: 4, label: '4×' },
  ],
  reasonOptions: [
    { id: 'a', label: 'every tensor is stored in 16 bits instead of 32, so everything halves' },
    { id: 'b', label: 'weights and gradients halve while an FP32 master copy is kept, so static memory drops from 4W to 2.5W' },
    { id: 'c', label: 'static memory stays the same (16-bit weights and gradients, an FP32 master copy and two FP32 Adam moments are 16 B per parameter, as in FP32), and the saving comes from activations stored in 16 bits' },
    { id: 'd', label: 'the optimizer state is not needed when training in mixed precision' },
  ],
  correctReason: 'c',
};

export function ratioFeedback(correct, n, u) {
  const { replayFp32: fp, replayMixed: mx } = n.facts;
  const name = oneScenario(fp, mx);
  const base = `For ${name}, the engine computes ${formatBytes(fp.total, u)} in FP32 and ${formatBytes(mx.total, u)} `
    + `in mixed precision: FP32 needs ${formatRatio(fp.total / mx.total)} as much.`;
  return correct ? `Right. ${base}` : `Not quite. ${base}`;
}

// Feedback on the reason: right or not and why, in a sentence or two with the engine's numbers;
// reasonMore(id) gives the detail behind the "Why?" disclosure.
function reasonFacts(n, u) {
  const { replayFp32: fp, replayMixed: mx } = n.facts;
  const name = oneScenario(fp, mx);
  return { fp, mx, statics: `In ${name}, Adam’s static memory is ${formatBytes(fp.static, u)} in FP32 and ${formatBytes(mx.static, u)} in mixed precision` };
}

export function reasonFeedback(id, n, u) {
  const f = (b) => formatBytes(b, u);
  const { fp, mx, statics } = reasonFacts(n, u);
  switch (id) {
    case 'a': return `Not everything halves. ${statics}: the FP32 master copy and the two FP32 moments stay 32-bit.`;
    case 'b': return `This is the popular “4W → 2.5W” shortcut; it forgets Adam’s two FP32 moments and the master copy’s 4 B. ${statics}.`;
    case 'c': return `Right. ${statics}; the saving comes from activations, ${f(fp.activations)} → ${f(mx.activations)}.`;
    default: return `The optimizer state is still there in mixed precision, in FP32: ${f(mx.optimizer_state)} for Adam’s m and v.`;
  }
}

export function reasonMore(id, n, u) {
  const { fp, mx, statics } = reasonFacts(n, u);
  const totals = `${sumText(totalTerms(fp), u, fp.total)} in FP32, ${sumText(totalTerms(mx), u, mx.total)} in mixed precision.`;
  switch (id) {
    case 'a': return `A 2× saving would need the optimizer state in 16 bits too. ${totals}`;
    case 'b': return `Per parameter, 2 + 2 + 4 + 8 = 16 B in mixed precision, the same as 4 + 4 + 8 in FP32. ${totals}`;
    case 'c': return `${totals} The saving depends on how much of the total is activations.`;
    default: return `${statics}. ${totals}`;
  }
}

// cur: currentNumbers() for the configuration on the ledger (one scenario, two precisions). It quotes
// the peaks, the measure the chart and the banner show.
// textbookOfPytorch: true when the ledger shows PyTorch defaults and these numbers are the textbook layout's.
export function currentRatioText(cur, u, { textbookOfPytorch = false } = {}) {
  return `${textbookOfPytorch ? 'Counted in the textbook layout, on' : 'On'} the configuration now on your ledger, FP32 peaks at ${formatBytes(cur.curFp32Peak, u)} and mixed precision `
    + `at ${formatBytes(cur.curMixedPeak, u)}: FP32 needs ${formatRatio(cur.curPeakRatio)} as much at the peak. The more of the total that is activations, the closer the saving gets to 2×.`;
}

// "34.36 GB = 32.00 GiB": a device's bytes in both units, the chosen one first.
export function bothUnits(bytes, u) {
  const other = u === 'gib' ? 'gb' : 'gib';
  return `${formatBytes(bytes, u)} = ${formatBytes(bytes, other)}`;
}

// What Chapter replay changes, with the engine's own replay inputs.
export function replayAssumptions(n, u) {
  const fp = n.facts.replayFp32;
  return `Uses the chapter’s own assumptions: ${formatInt(fp.params)} parameters, its ${chapterUnits(fp.activations, u)} `
    + `activation figure (FP32, batch 32), no framework reserve, on the V100 (its “32 GB” is 32 GiB: ${bothUnits(fp.usable, u)}).`;
}

// The replay note on screen: the totals it reproduces; replayNoteText (behind "Why?") says how.
export function replayNoteShort(n, u) {
  const { replayFp32: fp, replayMixed: mx, replayCkpt: ck } = n.facts;
  oneScenario(fp, mx, ck);
  return `The walkthrough’s three steps reproduce the chapter’s totals: ${formatBytes(fp.total, u)} → ${formatBytes(mx.total, u)} → ${formatBytes(ck.total, u)}.`;
}

export function replayNoteText(n, u) {
  const { replayFp32: fp, replayMixed: mx, replayCkpt: ck } = n.facts;
  oneScenario(fp, mx, ck);
  return `The engine now uses the chapter’s assumptions: ${formatInt(fp.params)} parameters, ${formatBytes(fp.activations, u)} `
    + 'of FP32 activations at batch 32 (scaled with batch and precision; “checkpoint every 4 layers” divides by 4, and other k follow the chapter’s formula k·A + (L/k)·A for L layers of activations A each, its saving scaled so that k = 4 still divides by 4), '
    + `no logits or framework reserve, and the V100. The three walkthrough steps reproduce the chapter’s totals: `
    + `${formatBytes(fp.total, u)} → ${formatBytes(mx.total, u)} → ${formatBytes(ck.total, u)}; the notes below say where physics differs.`;
}

// Why a device's name and its budget line differ: names count GiB, the line is what the driver
// reports usable. device: a catalog entry ({ name, capacity_bytes }) or a custom capacity.
export function deviceNoteText(device, u) {
  const usable = `the driver reports ${bothUnits(device.capacity_bytes, u)} usable, and that is the dashed budget line`;
  if (device.custom) return `A custom device holds what you type, in GB (10^9 bytes): ${bothUnits(device.capacity_bytes, u)}.`;
  const sold = /(\d+) GB$/.exec(device.name);
  if (!sold) return `${usable.charAt(0).toUpperCase()}${usable.slice(1)}.`;
  const soldBytes = Number(sold[1]) * UNITS.gib.bytes;
  return `The “${sold[1]} GB” in the name counts binary gigabytes: ${sold[1]} GiB (2^30 bytes each) = ${formatBytes(soldBytes, 'gb')} `
    + `(10^9 bytes each); ${usable}.`;
}

// "Chapter says / Physics says / Why" notes for Act 1 (LAB_SPEC §7). `physics` is filled from engine values.
export const NOTE_HELD = 'Kept back for now: the reflection after the reveal asks you this. The engine’s numbers show here once you have answered it.';

export const NOTES = [
  {
    id: 'adam-3x',
    chapter: 'Adam needs 3× the memory of SGD (Momentum 2×).',
    physics: (n, u) => {
      const { sgdFp32: s, adamFp32: a } = n.facts;
      return `For ${oneScenario(s, a)} in FP32, counting weights + optimizer state, the ratio is ${formatMultiple(n.adamWO / n.sgdWO)} (${formatBytes(n.sgdWO, u)} → ${formatBytes(n.adamWO, u)}). Counting gradients too, it is ${formatMultiple(a.static / s.static)} (${formatBytes(s.static, u)} → ${formatBytes(a.static, u)}).`;
    },
    why: 'Both are true of different totals. Gradients live for the whole step, so any “will it fit” check must count them; then Adam is 2× SGD, not 3×.',
  },
  {
    id: 'adam-12gb',
    chapter: 'Adam’s state for GPT-2 XL is 1.5B × 8 bytes = 12 GB.',
    physics: (n, u) => `GPT-2 XL has exactly ${formatInt(n.facts.adamFp32.params)} parameters, so m and v take ${besideChapter(n.facts.adamFp32.optimizer_state, u)}.`,
    why: 'The chapter rounds the parameter count down to 1.5 billion.',
  },
  {
    id: 'mixed',
    // The reflection after the reveal asks exactly this: the physics waits for its answer.
    heldUntilReflection: true,
    chapter: 'Mixed precision roughly halves memory; a popular shortcut says 4W → 2.5W (about 1.5×).',
    physics: (n, u) => {
      const { adamFp32: a, adamMixed: m, replayFp32: fp, replayMixed: mx } = n.facts;
      return `For ${oneScenario(a, m)}, Adam’s static memory is ${formatBytes(a.static, u)} in FP32 and ${formatBytes(m.static, u)} in mixed precision (16 B per parameter both ways). `
        + `In ${oneScenario(fp, mx)}, the total falls from ${formatBytes(fp.total, u)} to ${formatBytes(mx.total, u)} (${formatRatio(fp.total / mx.total)}), all of it from activations (${formatBytes(fp.activations, u)} → ${formatBytes(mx.activations, u)}).`;
    },
    why: 'The FP32 master copy gives back the 4 B that 16-bit weights and gradients save, and Adam’s moments stay FP32. Only activations shrink.',
  },
  {
    id: '89gb',
    chapter: 'The FP32 baseline needs 89 GB, 65 GB of it activations (batch 32, 1,024 tokens).',
    physics: (n, u) => `For ${familyName(n.facts.adamMixed)}, counting each saved tensor (Korthikanti et al. 2022) at batch 32 gives ${formatBytes(n.physAct32Mixed, u)} of 16-bit activations with the attention scores stored, or ${formatBytes(n.physAct32Selective, u)} with selective recompute.`,
    why: (n, u) => `The chapter’s 65 GB is an empirical figure, not derived from layer shapes. Chapter replay uses it to reproduce ${chapterUnits(n.facts.replayFp32.total, u)} → ${chapterUnits(n.facts.replayMixed.total, u)} → ${chapterUnits(n.facts.replayCkpt.total, u)}; everywhere else the lab uses the per-tensor model.`,
  },
  {
    id: 'v100-32gb',
    chapter: 'The optimized 32 GB configuration fits on a 32 GB V100.',
    physics: (n, u) => {
      const { replayCkpt: ck } = n.facts;
      return `In ${oneScenario(ck)}, the optimized total is ${bothUnits(ck.total, u)}; the V100 holds ${bothUnits(ck.usable, u)}.`;
    },
    why: `The chapter counts model memory in GB (10^9 B), but the V100’s “32 GB” is 32 GiB (2^30 B each), ${formatPercent(UNITS.gib.bytes / UNITS.gb.bytes - 1)} more bytes. That margin is why the optimized run fits.`,
  },
  {
    id: 'h100',
    chapter: 'Exercises often picture an H100; the chapter’s walkthrough uses a V100.',
    physics: (n, u) => {
      const { replayMixed: v, replayH100: h } = n.facts;
      oneScenario(v, h);
      return `With the chapter’s numbers, mixed precision alone at batch 32 needs ${formatBytes(v.total, u)}: over the V100’s ${formatBytes(v.usable, u)}, ${h.fits ? 'but within' : 'and over'} the H100’s ${formatBytes(h.usable, u)}.`;
    },
    why: 'Checkpointing is needed in the walkthrough because of the V100; on an H100 the same run fits without it. Chapter replay is pinned to the V100.',
  },
  {
    id: 'momentum-steps',
    chapter: 'Some summaries give Momentum about 90K steps.',
    physics: () => 'Not from the chapter: it gives only Adam (~50K steps) and SGD + Momentum (~150K+ steps), so the lab leaves 90K out.',
    why: 'Step counts are measurements of particular training runs; the lab only shows the ones with a source.',
  },
];

// ---- The framework switch (Textbook layout / PyTorch defaults).
export const FRAMEWORK_LEGEND = 'How memory is counted';
export const FRAMEWORK_NOTE = {
  textbook: 'Textbook layout: the chapter’s way of counting (Megatron and ZeRO). Every component is counted as if it were in memory at the same moment.',
  pytorch: 'PyTorch defaults: what a plain PyTorch training loop holds, moment by moment through one step (a step after the first, gradients freed by zero_grad(), the foreach optimizer). '
    + 'Mixed precision here is torch.autocast with its default 16-bit type on a GPU, FP16 (BF16 needs the same memory); pure FP16/BF16 is the model cast with .half() or .bfloat16().',
};
export const CKPT_PYTORCH_REASON = 'Off under PyTorch defaults: the lab’s PyTorch model has no checkpointing.';
export const REPLAY_PYTORCH_REASON = 'Off under PyTorch defaults: replay is the chapter’s textbook walkthrough.';
export const PEEK_PYTORCH_NOTE = 'The Math Peek shows the textbook formula: switch to Textbook layout for it.';

// The notes' paragraph on PyTorch's mixed precision. ac / fp: scenarioFacts of the selected
// optimizer at the settings on screen under PyTorch defaults, with autocast and in FP32 (one
// scenario family, two precisions); acCache, acWhere, fpWhere: autocast's weight cache and where each
// peak happens (engine values for the same two results).
export const AUTOCAST_HEADING = 'Mixed precision in PyTorch is not the chapter’s';
export const AUTOCAST_TEXTBOOK = 'The chapter’s mixed precision keeps 16-bit weights plus an FP32 master copy. PyTorch’s torch.autocast does it the other way round: the FP32 parameters are the master copy, and during the forward pass it keeps a 16-bit copy of every weight matrix, so the peak can rise instead of fall. Switch the ledger to PyTorch defaults to see the numbers.';
export function autocastText({ ac, fp, acCache, acWhere, fpWhere }, u) {
  const f = (b) => formatBytes(b, u);
  const name = oneScenario(ac, fp);
  const change = ac.peak > fp.peak ? `${f(ac.peak - fp.peak)} more than` : ac.peak < fp.peak ? `${f(fp.peak - ac.peak)} less than` : 'the same as';
  return [
    'The chapter’s mixed precision keeps 16-bit weights plus an FP32 master copy. PyTorch’s torch.autocast does it the other way round: '
    + 'the FP32 parameters are the master copy, gradients and optimizer state stay FP32, and during the forward pass it keeps a 16-bit copy of every weight matrix. Only the saved activations shrink, so the peak can rise instead of fall.',
    `For ${name} with ${ac.optimizerLabel}, batch ${ac.batch} on the ${ac.device}, under PyTorch defaults: with autocast the parameters take ${f(ac.weights)}, the 16-bit copies ${f(acCache)} and the activations ${f(ac.activations)}, `
    + `and the peak during a step is ${f(ac.peak)} (${acWhere}); in FP32 the parameters take ${f(fp.weights)}, the activations ${f(fp.activations)}, and the peak is ${f(fp.peak)} (${fpWhere}). `
    + `Autocast’s peak is ${change} FP32’s here.`,
  ];
}
// Under PyTorch counting: opens this step in the workbench, which writes the script to measure it.
export const CHECK_LINK = 'Check this step on your GPU (opens the workbench)';
