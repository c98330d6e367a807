// Act 3's words: the questions, options, labels and the sentences around the engine's numbers. No
// number is written here: each function takes the engine's values and formats them. The act
// (act3.js) and the design ledger read the same questions.
import { formatBytes, formatSeconds, formatRatio, formatInt, formatPercent, formatCount, sumText } from '../format/format.js';

export const TITLE = 'Act 3: Past one GPU';
export const SHORT_TITLE = 'Past one GPU';
export const INTRO = [
  'Act 2 ended at a wall: GPT-2 XL cannot train on one 8 GB laptop GPU, whatever the settings. Here you add GPUs, split the model’s memory across them, and pay for it in communication.',
];

export const PREDICTION = {
  question: 'GPT-2 XL on 8 GB laptop GPUs, fully sharded (ZeRO-3: each GPU keeps 1/N of the weights, gradients and Adam’s state), mixed-precision Adam, batch 1 with full recompute, and an interconnect that costs no time. How many GPUs does it take to train?',
  label: 'Number of GPUs (1 to 1,024)',
};

// Short enough for a closed menu at 390 px (about 30 characters).
export const STRATEGY_WORDS = {
  ddp: 'DDP: a full copy on each GPU',
  zero1: 'ZeRO-1: shard optimizer state',
  zero2: 'ZeRO-2: and the gradients',
  zero3: 'ZeRO-3 / FSDP: shard it all',
  tp: 'Tensor parallel: split layers',
  pp: 'Pipeline: layers in stages',
};
export const INTERCONNECT_FALLBACK = { ideal: 'Free (no time)' };
// Under the interconnect menu: the wires' names in plain words.
export const INTERCONNECT_NOTE = 'NVLink: direct links between the GPUs of one machine. PCIe: the machine’s own bus. InfiniBand, Ethernet: networks between machines.';
export const OPTIMIZER_WORDS3 = { adam: 'Adam', momentum: 'SGD with momentum', sgd: 'SGD (no state)' };
export const PRECISION_WORDS3 = { mixed: 'Mixed (16-bit, FP32 master)', fp32: 'FP32' };
export const CKPT_WORDS3 = { none: 'None', selective: 'Selective', full: 'Full recompute' };
export const STATE_WORDS = { ok: 'fits and trains', oom: 'does not fit', invalid: 'fits, but cannot train', error: 'could not be computed' };

// The chapter's r: three decimals, or two significant digits when smaller (the engine's r for a
// fully sharded step is often near 0.00001, which three decimals would show as 0.000); never exponents.
export function formatR(r) {
  if (!(r > 0)) return '0';
  if (r >= 0.001) return r.toFixed(3);
  return r.toFixed(Math.min(12, 1 - Math.floor(Math.log10(r))));
}

export const gpuWords = (n) => `${formatInt(n)} GPU${n === 1 ? '' : 's'}`;

// The explore panel's banner: per-GPU memory against the GPU, in words that never call OOM working.
export function memoryTitle(r, units, deviceName) {
  const m = r.memory;
  const per = `${formatBytes(m.peak_bytes, units)} per GPU of the ${deviceName}’s ${formatBytes(m.usable_device_bytes, units)} usable`;
  return m.fits ? `Fits: ${per}.` : `Out of memory: ${per}, so this cannot train; the times below are what it would take if it fitted.`;
}

// How the GPUs are used; `gpus`: the count chosen, which tensor parallelism may not use in full.
export function layoutWords(p, gpus, { tpMin = null, heads = null } = {}) {
  const parts = [`${formatInt(p.data_parallel)} data-parallel`];
  if (p.tensor_parallel > 1) parts.push(`${p.tensor_parallel} tensor-parallel`);
  // Glossed where it shows (a new student does not know the word).
  if (p.pipeline_parallel > 1) parts.push(`${p.pipeline_parallel} pipeline stages × ${p.micro_batches} micro-batches (slices of the batch, passed stage to stage)`);
  const used = p.devices < gpus ? `Uses ${formatInt(p.devices)} of the ${gpuWords(gpus)} (the model splits ${p.tensor_parallel} ways, which does not divide ${formatInt(gpus)})` : gpuWords(p.devices);
  // Tensor parallelism chosen with fewer GPUs than the model's smallest split: say so, or it reads as
  // "tensor parallelism does nothing" (a walk at 2 and 4 GPUs).
  const tpNote = tpMin ? ` Tensor parallelism needs at least ${tpMin} GPUs here (${heads} attention heads), so this runs as plain data parallelism.` : '';
  return `${used}: ${parts.join(' × ')}; ${formatCount(p.global_batch, 'sequence')} per step.${tpNote}`;
}

// The memory chart's sentence: one GPU's parts, adding up to its total. `terms`: [{ key, bytes }] as
// the view model rounds them together (act3-model.js memoryTerms); by default the engine's parts.
const PART_WORDS = { weights: 'weights', master_weights: 'FP32 master', gradients: 'gradients', optimizer_state: 'optimizer state',
  activations: 'activations', logits: 'logits', reserve: 'reserve', gradient_buckets: 'gradient bucket copy',
  gathered_parameters: 'gathered layers', autocast_weight_cache: 'autocast copies' };
export function memorySentence(m, units, terms = Object.entries(m.components).filter(([, b]) => b > 0).map(([key, bytes]) => ({ key, bytes }))) {
  const labelled = terms.map(({ key, bytes }) => ({ label: PART_WORDS[key] || key.replace(/_/g, ' '), bytes }));
  // The banner's figure is the peak: short-lived buffers of the step come on top of what is held.
  const peak = m.peak_bytes > m.total_bytes ? `; its peak, with the step’s short-lived buffers, is ${formatBytes(m.peak_bytes, units)}` : '';
  return `One GPU holds ${sumText(labelled, units, m.total_bytes)}${peak}.`;
}

export function stepSentence(p, fits) {
  const lead = fits ? 'One step' : 'If it fitted, one step';
  // Parts that are zero are left out (a "0.00 ms" bubble without a pipeline reads as a measurement).
  const parts = [`compute ${formatSeconds(p.compute_s)}`,
    ...(p.exposed_communication_s > 0 ? [`communication not hidden ${formatSeconds(p.exposed_communication_s)}`] : []),
    ...(p.bubble_s > 0 ? [`pipeline bubble ${formatSeconds(p.bubble_s)}`] : [])];
  const hidden = p.exposed_communication_s > 0 || !(p.communication_s > 0) ? '' : ' All communication hides behind compute.';
  return `${lead} takes ${formatSeconds(p.step_s)}: ${parts.join(', ')}.${hidden} Speedup over one GPU at the same batch ${formatRatio(p.speedup)} (${formatPercent(p.scaling_efficiency)} of ideal).`;
}

export const notAddingUp = 'The engine’s step also waits on other work, so these parts do not add up to the whole step.';

export function crossoverSentence(p) {
  const x = p.crossover_tokens_per_device;
  const key = p.zero_stage === 3 ? 'fully_sharded' : 'data_parallel';
  // One GPU, or a free interconnect: nothing to hide, so no crossover.
  if (!(x[key] > 0)) return `Each GPU computes ${formatInt(p.tokens_per_device)} tokens per step; with ${p.devices === 1 ? 'one GPU' : 'a free interconnect'} there is no communication to hide.`;
  const below = p.tokens_per_device < x[key];
  return `Each GPU computes ${formatInt(p.tokens_per_device)} tokens per step; below ${formatInt(x[key])} tokens per GPU, communication cannot hide behind compute on this interconnect${below ? ', and this step is below it' : ''}.`;
}

// The Math Peek's all-reduce line: the engine's formula is the gradients' all-reduce of plain data
// parallelism; a step that runs none (ZeRO's gathers and scatters, a pipeline's sends) is said so,
// with what it runs instead, rather than quoting a time it never spends.
const COLLECTIVE_WORDS = { all_gather: 'all-gather', reduce_scatter: 'reduce-scatter', point_to_point: 'sends between stages', all_reduce: 'all-reduce' };
export const collectiveWords = (c) => (c.purpose === 'tensor_parallel' ? 'tensor-parallel all-reduce' : COLLECTIVE_WORDS[c.kind] || c.kind.replace(/_/g, ' '));
export function allReduceNote(p, runs) {
  const grads = p.collectives.find((c) => c.kind === 'all_reduce' && c.purpose === 'gradients');
  if (grads) return `here ${formatSeconds(p.formulas.all_reduce.seconds)} per step.`;
  if (!runs) return `this step sends nothing: ${p.devices === 1 ? 'one GPU' : 'each GPU holds its own part'}.`;
  const instead = p.formulas.all_reduce.seconds > 0 ? ` Plain data parallelism’s all-reduce of the gradients would take ${formatSeconds(p.formulas.all_reduce.seconds)}.` : '';
  return `this step runs no all-reduce of the gradients; it runs ${runs} per step.${instead}`;
}

// The Math Peek's crossover line, for the crossover the chart draws: fully sharded (ZeRO-3: gathers
// and scatters against forward + backward) or data parallel (the gradients' all-reduce against the
// backward pass), so a DDP step no longer quotes ZeRO-3's figures.
export function crossoverPeek(p) {
  const c = p.formulas.crossover;
  if (p.data_parallel === 1) return 'Crossover: one copy of the model (no data parallelism), so there are no gradients to synchronise and no crossover';
  const [name, seconds, comm, perToken, work, tokens] = p.zero_stage === 3
    ? ['fully sharded', c.fully_sharded_seconds, 'gathering and scattering', c.compute_s_per_token, 'compute', c.fully_sharded]
    : ['data parallel', c.data_parallel_seconds, 'gradient all-reduce', c.backward_s_per_token, 'backward pass', c.data_parallel];
  return `Crossover, ${name}: ${formatSeconds(seconds)} of ${comm} ÷ ${formatSeconds(perToken * 1000)} of ${work} per 1,000 tokens = ${formatInt(tokens)} tokens per GPU; below that, the wires cannot hide behind compute`;
}

export function taxSentence(p) {
  return `The chapter’s tax: speedup = N ÷ (1 + (N − 1)·r), with r = ${formatR(p.communication_ratio)} for this step.`;
}

// The reveal: the engine's answer against the prediction, then the price of talking.
export function revealLines(predicted, truth, err) {
  const verdict = err.direction === 'exact' ? 'Exactly right.' : `You were off by ${formatRatio(err.ratio)} (${err.direction === 'under' ? 'too few' : 'too many'}).`;
  return `You said ${gpuWords(predicted)}; the engine’s solver needs ${gpuWords(truth)}. ${verdict}`;
}
export function costLine(k, stepsById, names) {
  const parts = Object.entries(stepsById).map(([id, s]) => `${names[id] || id} ${s === null ? '—' : formatSeconds(s)}`);
  return `With ${gpuWords(k)} and real wires, one step takes: ${parts.join('; ')}.`;
}
export const REVEAL_WHY = 'Sharded states need each GPU to fetch every layer’s weights before using it and to share its gradients after: ZeRO-3 moves about 1.5 times the data of plain data parallelism. A free interconnect hides that; a slow one puts it on the critical path.';

// The reflections: the chapter's two checkpoint questions.
export const DP_QUESTION = {
  prompt: 'Why does data parallelism alone not help a model that does not fit on one GPU?',
  options: [
    { id: 'copies', label: 'Every GPU still holds the whole model’s weights, gradients and optimizer state; only the batch is split.' },
    { id: 'split', label: 'It does help: each of N GPUs holds 1/N of the model.' },
    { id: 'comm', label: 'The GPUs spend all their time communicating.' },
    { id: 'layers', label: 'It splits the layers, but not the optimizer state.' },
  ],
};
export const CEILING_QUESTION = {
  prompt: 'What sets the ceiling on how much faster more GPUs can make a step?',
  options: [
    { id: 'ratio', label: 'Communication time relative to compute time (the chapter’s r): speedup can never pass 1/r.' },
    { id: 'count', label: 'Only the number of GPUs: N GPUs are always N times faster.' },
    { id: 'memory', label: 'Each GPU’s memory capacity.' },
    { id: 'flops', label: 'The GPU’s peak FLOP/s alone.' },
  ],
};

// Numbers a student can see: the memory chart's stage bars, labelled with their peaks, at the
// question's settings (not the closed table's model states).
export function dpFeedback(ok, nums, units) {
  const lead = ok ? 'Yes.' : 'No.';
  const f = (b) => formatBytes(b, units);
  return `${lead} Each GPU keeps a whole copy. In the memory chart at the question’s settings, DDP’s bar peaks at ${f(nums.ddp_peak_one_bytes)} on 1 GPU and ${f(nums.ddp_peak_many_bytes)} on each of ${gpuWords(nums.gpus)} (it adds a copy of the gradients to send); ZeRO-3’s is ${f(nums.zero3_peak_many_bytes)} there.`;
}
export function ceilingFeedback(ok, nums) {
  const lead = ok ? 'Yes.' : 'No.';
  const ceiling = nums.r > 0 ? `, so no number of GPUs passes ${formatRatio(1 / nums.r)}` : '';
  const why = ok ? '' : ' Memory decides whether a step fits, and FLOP/s how fast each GPU computes; neither stops the gain from more GPUs.';
  return `${lead} Take this model over PCIe 4.0 at ${formatInt(nums.gpus_far)} GPUs: the engine’s r is ${formatR(nums.r)}${ceiling}, and it gives a speedup of ${formatRatio(nums.speedup_far)}, not ${formatInt(nums.gpus_far)}×.${why}`;
}

export const DONE = 'Act 3 complete: you found how many GPUs sharding needs, and what talking between them costs. ';
