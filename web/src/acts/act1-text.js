// Act 1's words and sourced constants: the prediction, the reflection and its feedback, the
// convergence figures and the "Chapter says / Physics says / Why" notes. Numbers inside the prose are
// filled in from engine results passed as `n` (see act1-numbers.js); nothing here is a typed-in value
// except the chapter's own claims, which are quoted as the chapter's and carry a line reference.
import { formatBytes, formatBytesApprox, formatInt, formatRatio, formatMultiple } from '../format.js';

export const TITLE = 'Act 1 — The optimizer memory tax';
export const SHORT_TITLE = 'The optimizer memory tax';

export const INTRO = [
  'Adam is the default optimizer for transformers, and it is easy to think of it as a free choice: a '
  + 'different update rule, the same memory. This act puts a number on that belief.',
  'First commit to a prediction. The memory ledger, the comparison table and the notes unlock once '
  + 'your answer is locked in.',
];

// Convergence figures: chapter "Model Training", GPT-2 optimizer notebook (training_chapter.qmd L900):
// "GPT-2 converges in ~50K steps vs. ~150K+ steps with SGD+Momentum". Plain SGD has no figure there,
// and the plan's "90K steps" for Momentum is not from the chapter, so it is left out.
export const CONVERGENCE = {
  source: 'the chapter’s GPT-2 optimizer walkthrough, line 900',
  sgd: { steps: null, text: 'not given in the chapter' },
  momentum: { steps: 150000, text: '~150K+ (the chapter’s “SGD + Momentum”)' },
  adam: { steps: 50000, text: '~50K' },
};

export const PREDICTION = {
  question: 'You train GPT-2 XL in FP32 and switch the optimizer from SGD to Adam. How much more GPU '
    + 'memory does training need?',
  // value(n) picks the engine number an option stands for.
  options: [
    { id: 'a', value: () => 0, label: () => 'About the same (~0 GB extra): an optimizer is just an update rule and stores no model-sized data' },
    { id: 'b', value: (n) => n.oneVector, label: (n, u) => `About ${formatBytesApprox(n.oneVector, u)} extra: Adam keeps one extra vector the size of the model` },
    { id: 'c', value: (n) => n.adamDelta, label: (n, u) => `About ${formatBytesApprox(n.adamDelta, u)} extra: Adam keeps two extra vectors the size of the model (m and v)` },
    { id: 'd', value: (n) => n.adamStaticFp32, label: (n, u) => `About ${formatBytesApprox(n.adamStaticFp32, u)} extra: Adam keeps a safety copy of everything training already holds` },
  ],
  correct: 'c',
};

export function revealText(n, choiceLabel, errorSentence, u) {
  return [
    `You predicted: ${choiceLabel}.`,
    `The engine computes ${formatBytes(n.adamDelta, u)} more for Adam than for SGD. ${errorSentence}`,
    `Adam stores two moment vectors, m and v, each one FP32 number per parameter: 2 × 4 B × ${formatInt(n.params)} `
      + `parameters. The chapter rounds the model to 1.5 billion parameters and says 12 GB. Momentum stores one `
      + `vector (${formatBytes(n.oneVector, u)}), which is what the “one extra vector” answer describes.`,
    `Before a single activation, FP32 Adam training holds ${formatBytes(n.adamStaticFp32, u)}: weights `
      + `${formatBytes(n.weightsFp32, u)} + gradients ${formatBytes(n.weightsFp32, u)} + m and v `
      + `${formatBytes(n.adamDelta, u)}. That is ${formatMultiple(n.adamStaticFp32 / n.weightsFp32)} the weights.`,
  ];
}

export function tradeoffText(n, u) {
  return `The chapter reports GPT-2 converging in about 50K steps with Adam against 150K or more with `
    + `SGD + Momentum (${CONVERGENCE.source}). Relative to Momentum, Adam's second vector costs `
    + `${formatBytes(n.oneVector, u)} and buys roughly 3× fewer steps. Whether that is worth it depends on `
    + `whether the extra memory fits: on the 8 GB laptop GPU nothing fits at all, on an 80 GB H100 it does.`;
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
  const base = `The engine computes ${formatBytes(n.replayFp32Total, u)} in FP32 and ${formatBytes(n.replayMixedTotal, u)} `
    + `in mixed precision: ${formatRatio(n.replayRatio)}.`;
  return correct ? `Right. ${base}` : `Not quite. ${base}`;
}

export function reasonFeedback(id, n, u) {
  const f = (b) => formatBytes(b, u);
  const statics = `Adam's static memory is ${f(n.adamStaticFp32)} in FP32 and ${f(n.adamStaticMixed)} in mixed precision`;
  switch (id) {
    case 'a': return `Not everything halves. ${statics}: the FP32 master copy and the two FP32 moments stay 32-bit. A 2× saving would need the optimizer state in 16 bits too.`;
    case 'b': return `This is the plan's “4W → 2.5W”, and it forgets that Adam's two moments stay FP32 and that the master copy adds 4 B back: 2 + 2 + 4 + 8 = 16 B per parameter, the same as 4 + 4 + 8. ${statics}.`;
    case 'c': return `Right. ${statics}, and activations fall from ${f(n.replayFp32Act)} to ${f(n.replayMixedAct)}. The saving depends on how much of the total is activations.`;
    default: return `The optimizer state is still there in mixed precision, in FP32: ${f(n.adamStateMixed)} for Adam's m and v. ${statics}.`;
  }
}

export function currentRatioText(n, u) {
  return `On the configuration now on your ledger, FP32 needs ${formatBytes(n.curFp32Total, u)} and mixed precision `
    + `${formatBytes(n.curMixedTotal, u)}: ${formatRatio(n.curRatio)}. The more of the total that is activations, the closer the saving gets to 2×.`;
}

// What Chapter replay changes, with the engine's own replay inputs.
export function replayAssumptions(n, u) {
  return `Uses the chapter’s own assumptions: ${formatInt(n.replayParams)} parameters, its ${formatBytes(n.replayFp32Act, u)} `
    + `activation figure (FP32, batch 32), no framework reserve, on the ${formatBytes(n.v100Bytes, u)} (32 GiB) V100.`;
}

export function replayNoteText(n, u) {
  return `The engine now uses the chapter’s assumptions: ${formatInt(n.replayParams)} parameters, ${formatBytes(n.replayFp32Act, u)} `
    + 'of FP32 activations at batch 32 (scaled with batch and precision, divided by k for “checkpoint every k layers”), '
    + 'no logits or framework reserve, and the V100. The three walkthrough steps reproduce the chapter’s totals exactly; '
    + 'the notes below say where physics differs.';
}

// "Chapter says / Physics says / Why" notes for Act 1 (LAB_SPEC §7). `physics` is filled from engine values.
export const NOTES = [
  {
    id: 'adam-3x',
    chapter: 'Adam needs 3× the memory of SGD (1× for SGD, 2× for Momentum, 3× for Adam).',
    physics: (n, u) => `Counting weights + optimizer state, the ratio is ${formatMultiple(n.adamWO / n.sgdWO)} (${formatBytes(n.sgdWO, u)} → ${formatBytes(n.adamWO, u)}). Counting gradients too, it is ${formatMultiple(n.adamStaticFp32 / n.sgdStaticFp32)} (${formatBytes(n.sgdStaticFp32, u)} → ${formatBytes(n.adamStaticFp32, u)}).`,
    why: 'Both are true of different totals. Gradients live for the whole step, so any “will it fit” check must count them; then Adam is 2× SGD, not 3×.',
  },
  {
    id: 'adam-12gb',
    chapter: 'Adam’s state for GPT-2 XL is 1.5B × 8 bytes = 12 GB.',
    physics: (n, u) => `GPT-2 XL has exactly ${formatInt(n.params)} parameters, so m and v take ${formatBytes(n.adamDelta, u)}.`,
    why: 'The chapter rounds the parameter count down to 1.5 billion.',
  },
  {
    id: 'mixed',
    chapter: 'Mixed precision roughly halves memory; the lab plan says static memory falls from 4W to 2.5W (about 1.5×).',
    physics: (n, u) => `With Adam, static memory is ${formatBytes(n.adamStaticFp32, u)} in FP32 and ${formatBytes(n.adamStaticMixed, u)} in mixed precision (16 B per parameter both ways). In the chapter’s walkthrough the total falls ${formatRatio(n.replayRatio)}, all of it from activations.`,
    why: 'The FP32 master copy gives back the 4 B that 16-bit weights and gradients save, and Adam’s moments stay FP32. Only activations shrink.',
  },
  {
    id: '89gb',
    chapter: 'The FP32 baseline needs 89 GB, 65 GB of it activations (batch 32, 1,024 tokens).',
    physics: (n, u) => `Counting each saved tensor (Korthikanti et al. 2022) at batch 32 gives ${formatBytes(n.physAct32Mixed, u)} of 16-bit activations with the attention scores stored, or ${formatBytes(n.physAct32Selective, u)} with selective recompute.`,
    why: 'The chapter’s 65 GB is an empirical figure, not derived from layer shapes. Chapter replay uses it to reproduce 89.0 → 56.5 → 32.125 GB; everywhere else the lab uses the per-tensor model.',
  },
  {
    id: 'v100-32gb',
    chapter: 'The optimized 32 GB configuration fits on a 32 GB V100.',
    physics: (n, u) => `The optimized total is ${formatBytes(n.replayCkptTotal, u)}; the V100 holds ${formatBytes(n.v100Bytes, u)} (32 GiB).`,
    why: 'The chapter counts model memory in GB (10^9 B) but device memory in GiB (2^30 B); the 7% between them is why it fits.',
  },
  {
    id: 'h100',
    chapter: 'The lab plan uses an H100 training node; the chapter’s walkthrough uses a V100.',
    physics: (n, u) => `With the chapter’s numbers, mixed precision alone at batch 32 needs ${formatBytes(n.replayMixedTotal, u)}: over the V100’s ${formatBytes(n.v100Bytes, u)}, ${n.h100MixedFits ? 'but within' : 'and over'} the H100’s ${formatBytes(n.h100Bytes, u)}.`,
    why: 'Checkpointing is needed in the walkthrough because of the V100; on an H100 the same run fits without it. Chapter replay is pinned to the V100.',
  },
  {
    id: 'momentum-steps',
    chapter: 'The lab plan lists Momentum at about 90K steps.',
    physics: () => 'Not from the chapter: it gives only Adam (~50K steps) and SGD + Momentum (~150K+ steps), so the lab leaves 90K out.',
    why: 'Step counts are measurements of particular training runs; the lab only shows the ones with a source.',
  },
];
