// The workbench results as data (DOM-free): from one evaluate result (and its textbook or PyTorch
// twin, and a solve answer) to what the page shows: the peak and its phase, the step's memory
// timeline, the fit, the textbook gap, the timing estimate. Every number is the engine's; this module
// only picks, labels and formats. The page is acts/workbench-results.js; tests: tests/web/unit/workbench-view.test.mjs.
import { fitState, INVALID_WHY } from './fit-state.js';
import { formatBytes, formatInt, formatPercent, formatNumber2, formatSeconds, unitOf, formatSum } from '../format/format.js';
import { phaseWords } from './ledger-model.js';
import { LABELS } from '../state/workbench-run.js';

// Scenario fields that only framework "pytorch" takes (core/facade/scenario_json.cpp parse_framework;
// pytorch_implementation and autocast_scope: issue 26).
const PYTORCH_ONLY = ['pytorch_build', 'step', 'mode', 'zero_grad', 'optimizer_impl', 'pytorch_implementation', 'autocast_scope'];
const TO_TEXTBOOK = { autocast_bf16: 'mixed', autocast_fp16: 'mixed' };

export const isPytorch = (scenario) => scenario.framework === 'pytorch' || /^autocast_/.test(scenario.precision || '');

// The same run counted the textbook way: every component live at once. torch.autocast has no textbook
// layout; its textbook counterpart is "mixed" (16-bit weights and an FP32 master copy).
export function textbookTwin(scenario) {
  const s = Object.fromEntries(Object.entries(scenario).filter(([k]) => !PYTORCH_ONLY.includes(k) && k !== 'activation_model'));
  s.framework = 'textbook';
  if (TO_TEXTBOOK[s.precision]) s.precision = TO_TEXTBOOK[s.precision];
  return s;
}

// The same run as PyTorch holds it (defaults for its knobs): no checkpointing (the step-phase model
// covers none), textbook "mixed" as autocast BF16.
export function pytorchTwin(scenario) {
  const s = { ...scenario, framework: 'pytorch' };
  delete s.activation_model;
  delete s.convention;
  delete s.chapter_replay;
  s.checkpointing = 'none';
  if (s.precision === 'mixed') s.precision = 'autocast_bf16';
  return s;
}

// ---- The step's memory timeline (framework "pytorch": memory.step_phases.timeline).
export const CATEGORIES = [
  { key: 'parameters', label: 'Weights' },
  { key: 'autocast_cache', label: '16-bit weight copies' },
  { key: 'gradients', label: 'Gradients' },
  { key: 'optimizer_state', label: 'Optimizer state' },
  { key: 'inputs', label: 'Token ids' },
  { key: 'activations', label: 'Saved activations' },
  { key: 'logits', label: 'Logits' },
  { key: 'transient', label: 'Temporaries' },
  { key: 'buffers', label: 'Model buffers (masks, RoPE tables)' },
  { key: 'cuda_workspace', label: 'cuBLAS workspaces' },
  { key: 'reserve', label: 'Framework reserve' },
];

const PHASE_LABEL = {
  start: 'Start of step', forward_end: 'End of forward', head: 'Output layer', loss_forward: 'Loss',
  loss_backward: 'Loss gradient', head_backward: 'Output layer gradient', backward_end: 'End of backward',
  optimizer_step: 'Optimizer step',
};
// A phase's short label for the table: "Forward, block 3", "Backward, block 3 attention".
export function phaseLabel(phase) {
  if (Object.hasOwn(PHASE_LABEL, phase)) return PHASE_LABEL[phase];
  const m = /^(forward|backward)\.layer\.(\d+)(\.attention|\.mlp)?$/.exec(phase);
  if (!m) return phase;
  const part = m[3] ? ` ${m[3].slice(1) === 'mlp' ? 'MLP' : 'attention'}` : '';
  return `${m[1] === 'forward' ? 'Forward' : 'Backward'}, block ${Number(m[2]) + 1}${part}`;
}
export function stageOf(phase) {
  if (phase === 'start') return 'setup';
  if (phase === 'optimizer_step') return 'optimizer';
  if (/^backward|^loss_backward|^head_backward/.test(phase)) return 'backward';
  return 'forward';
}

// { categories, phases: [{ i, name, label, stage, live: {key: bytes}, total_bytes }], stages, peakIndex,
// peak_bytes, peak_phase } or null (the textbook layout has no phases). Each phase's categories plus the
// reserve add up to its total; the largest total is memory.peak_bytes.
export function timelineView(result) {
  const sp = result.memory.step_phases;
  if (!sp) return null;
  const reserve = sp.reserve_bytes;
  const withReserve = (e) => ({ ...e, reserve });
  const present = CATEGORIES.filter((c) => sp.timeline.some((e) => withReserve(e)[c.key] > 0));
  const phases = sp.timeline.map((e, i) => {
    const live = Object.fromEntries(present.map((c) => [c.key, withReserve(e)[c.key]]));
    return { i, name: e.phase, label: phaseLabel(e.phase), stage: stageOf(e.phase), live, total_bytes: e.bytes + reserve };
  });
  const stages = [];
  for (const p of phases) {
    const last = stages.at(-1);
    if (last && last.stage === p.stage) last.to = p.i; else stages.push({ stage: p.stage, from: p.i, to: p.i });
  }
  let peakIndex = 0;
  for (const p of phases) if (p.total_bytes > phases[peakIndex].total_bytes) peakIndex = p.i;
  return { categories: present, phases, stages, peakIndex, peak_bytes: result.memory.peak_bytes, peak_phase: sp.peak_phase };
}

// The table twin's rows: one per phase, a cell per category and the total (exact bytes in data-value).
export function timelineRows(tl, units = 'gb') {
  return tl.phases.map((p) => ({
    key: p.name, header: p.label, cls: p.i === tl.peakIndex ? 'is-peak' : null,
    cells: [...tl.categories.map((c) => ({ text: formatBytes(p.live[c.key], units), value: p.live[c.key] })),
      { text: formatBytes(p.total_bytes, units), value: p.total_bytes }],
  }));
}

// ---- Peak, fit and the device's size.
export function peakView(result, units = 'gb') {
  const m = result.memory;
  const sp = m.step_phases;
  const phase = sp ? phaseWords(sp.peak_phase, result.model.layers) : 'with every component live at once (the textbook layout)';
  return { peak_bytes: m.peak_bytes, peak_text: formatBytes(m.peak_bytes, units), phase: sp ? sp.peak_phase : null, phase_words: phase };
}

// state 'ok' only when it fits AND can train (fit-state.js); the headline never says "fits" otherwise.
export function fitView(result, units = 'gb') {
  const m = result.memory;
  const state = fitState(m);
  const f = (b) => formatBytes(b, units);
  const spare = m.usable_device_bytes - m.peak_bytes;
  const headline = state === 'oom' ? `Out of memory: ${f(-spare)} over`
    : state === 'invalid' ? 'Cannot train: updates stall' : `Fits: ${f(spare)} to spare`;
  const detail = state === 'invalid' ? `It fits with ${f(spare)} to spare, but ${INVALID_WHY}.` : null;
  return { state, fits: m.fits, trainable: m.numerically_valid !== false, spare_bytes: spare, headline, detail,
    usable_bytes: m.usable_device_bytes, usable_text: f(m.usable_device_bytes) };
}

// What "24 GB" on the box means: the capacity the engine counts in GB (10^9 B) and GiB (2^30 B), and the
// reserve PyTorch keeps, which is part of the peak (not taken off the capacity).
export function deviceSizeWords(result) {
  const d = result.device;
  const reserve = result.memory.components.reserve;
  const gb = formatBytes(d.capacity_bytes, 'gb');
  const gib = formatBytes(d.capacity_bytes, 'gib');
  const r = reserve > 0 ? ` The framework reserve (${formatBytes(reserve, 'gb')}) is counted in the peak.` : '';
  const sold = /(\d+) ?GB\b/.exec(d.name || '');
  const box = sold ? ` “${sold[1]} GB” on the box is one of these, rounded.` : '';
  return `${d.name}: ${formatInt(d.capacity_bytes)} bytes usable, which is ${gb} (1 GB = 10^9 bytes) or ${gib} (1 GiB = 2^30 bytes).${box}${r}`;
}

// ---- The textbook sum beside the PyTorch peak, term by term (each column adds up to its peak).
const GAP_ROWS = [
  { key: 'weights', label: 'Weights and their copies', tb: (c) => c.weights + c.master_weights + (c.autocast_weight_cache || 0), pt: (e) => e.parameters + e.autocast_cache },
  { key: 'gradients', label: 'Gradients', tb: (c) => c.gradients, pt: (e) => e.gradients },
  { key: 'optimizer_state', label: 'Optimizer state', tb: (c) => c.optimizer_state, pt: (e) => e.optimizer_state },
  { key: 'activations', label: 'Saved activations', tb: (c) => c.activations, pt: (e) => e.activations },
  { key: 'logits', label: 'Logits', tb: (c) => c.logits, pt: (e) => e.logits },
  { key: 'transient', label: 'Temporaries and token ids', tb: (c, m) => m.peak_bytes - m.total_bytes, pt: (e) => e.transient + e.inputs },
  // On a GPU: cuBLAS's workspaces and the model's buffers (masks, RoPE tables), held all run long.
  { key: 'cuda_library', label: 'cuBLAS workspaces and model buffers', tb: () => 0, pt: (e) => (e.cuda_workspace || 0) + (e.buffers || 0) },
  { key: 'reserve', label: 'Framework reserve', tb: (c) => c.reserve, pt: (e, reserve) => reserve },
];
// pt: a framework "pytorch" result; tb: the textbook twin's. null when either is an error.
export function gapView(pt, tb, units = 'gb') {
  if (!pt || !tb || pt.error || tb.error || !pt.memory.step_phases) return null;
  const sp = pt.memory.step_phases;
  const at = sp.timeline.reduce((best, e) => (e.bytes > best.bytes ? e : best), sp.timeline[0]);
  const rows = GAP_ROWS.map((r) => {
    const textbook = r.tb(tb.memory.components, tb.memory);
    const pytorch = r.pt(at, sp.reserve_bytes);
    return { key: r.key, label: r.label, textbook, pytorch, diff: pytorch - textbook };
  }).filter((r) => r.textbook || r.pytorch);
  const diff = pt.memory.peak_bytes - tb.memory.peak_bytes;
  const f = (b) => formatBytes(b, units);
  const biggest = [...rows].sort((a, b) => Math.abs(b.diff) - Math.abs(a.diff)).filter((r) => r.diff).slice(0, 2);
  // The two largest differences and the rest of the rows' together, so the terms add up to the total.
  const rest = diff - biggest.reduce((a, r) => a + r.diff, 0);
  const terms = [...biggest.map((r) => ({ label: r.label.toLowerCase(), bytes: r.diff })), ...(rest ? [{ label: 'everything else', bytes: rest }] : [])];
  const signed = (b) => `${b >= 0 ? '+' : '−'}${f(Math.abs(b))}`;
  const adds = formatSum(terms.map((t) => t.bytes), units, diff).exact;
  const why = `${terms.map((t) => `${t.label} ${signed(t.bytes)}`).join(', ')}${adds || !terms.length ? '' : ' (each rounded)'}`;
  return {
    rows, textbook_bytes: tb.memory.peak_bytes, pytorch_bytes: pt.memory.peak_bytes, diff_bytes: diff, terms,
    ratio: pt.memory.peak_bytes / tb.memory.peak_bytes,
    sums_exact: formatSum(rows.map((r) => r.pytorch), units, pt.memory.peak_bytes).exact && formatSum(rows.map((r) => r.textbook), units, tb.memory.peak_bytes).exact,
    summary: `PyTorch’s peak is ${f(Math.abs(diff))} ${diff >= 0 ? 'above' : 'below'} the textbook sum${why ? `: ${why}` : ''}.`,
    textbook_precision: tb.scenario.precision,
    textbook_checkpointing: tb.scenario.checkpointing !== 'none' && tb.scenario.checkpointing !== undefined,
  };
}

// ---- Step time, tokens/s and MFU: the timing model's estimate, with what it assumes.
// A run that cannot train never reads as a speed it reaches: out of memory, the figures are labelled
// "if it fitted" (as Act 2's gauges are); pure 16-bit runs its steps but they do not train.
const TIMING_CAVEAT = {
  ok: { label: 'estimate', line: null },
  oom: { label: 'if it fitted', line: 'It does not fit, so no step runs.' },
  invalid: { label: 'estimate, does not train', line: 'Steps run, but do not train: updates stall.' },
};
export function timingView(result) {
  const p = result.pipeline;
  if (!p) return null;
  const g = p.gpu || {};
  const phases = p.phases.map((ph) => ({ phase: ph.phase, seconds: ph.exposed_seconds, share: ph.share }));
  const state = fitState(result.memory);
  const caveat = TIMING_CAVEAT[state];
  return {
    state, caveat: caveat.line,
    labels: { step: `Step time (${caveat.label})`, tokens: `Tokens/s (${caveat.label})`, mfu: `MFU (${caveat.label})` },
    step_seconds: p.step_seconds, tokens_per_second: p.tokens_per_second, mfu: p.mfu,
    step_text: formatSeconds(p.step_seconds), tokens_text: `${formatInt(p.tokens_per_second)} tokens/s`, mfu_text: formatPercent(p.mfu, 1),
    assumptions: [
      `Peak ${formatNumber2((g.peak_flops_per_s || result.flops.peak_flops_per_s) / 1e12)} TFLOP/s for this precision on this GPU; matrix multiplications run at ${formatPercent(g.kernel_efficiency || 0, 1)} of it at this batch size (read off the chapter’s measurements).`,
      `${formatInt(p.tokens_per_step)} tokens a step; ${formatInt(result.flops.model_per_token)} model FLOP a token.`,
      p.bottleneck ? p.bottleneck.message : null,
      'One GPU, no overlap of data loading with compute, nothing measured on your machine.',
    ].filter(Boolean),
    phases,
  };
}

// ---- The solver: largest micro-batch and the cheapest change that fits. `layout`: 'pytorch' when
// solve took the scenario as it is, 'textbook' when it answered for the textbook twin.
// usableBytes: the GPU's usable memory; a move under it that does not fit is refused for training
// (pure 16-bit), not for memory, and says so.
export function solveView(solved, layout, usableBytes = Infinity) {
  if (!solved || solved.error) return { error: solved ? solved.error.message : 'no answer', layout };
  const lb = solved.largest_batch;
  const path = solved.cheapest_path;
  const outcome = (m) => (m.fits ? 'fits' : m.peak_bytes > usableBytes ? 'still out of memory' : 'still cannot train: updates stall');
  return {
    layout, largest_batch: lb.largest_batch, largest_valid: lb.numerically_valid,
    fits_now: path.start.fits, reaches_fit: path.reaches_fit,
    moves: path.moves.map((m) => ({ move: m.move, words: moveWords(m.move), peak_bytes: m.peak_bytes, fits: m.fits, outcome: outcome(m) })),
    reason: path.reason,
  };
}

// The solver's move ("optimizer adam -> sgd") in the words of the workbench's controls
// ("Optimizer: Adam(W) → SGD"); a move it does not know reads as the engine wrote it, arrow drawn.
const MOVE_CONTROL = { precision: 'Precision', optimizer: 'Optimizer', checkpointing: 'Checkpointing', batch: 'Micro-batch' };
export function moveWords(move) {
  const m = /^(precision|optimizer|checkpointing|batch) (.+) -> (.+)$/.exec(move);
  if (!m) return move.replace(/->/g, '→');
  const [, kind, from, to] = m;
  const word = (v) => (LABELS[kind] && Object.hasOwn(LABELS[kind], v) ? LABELS[kind][v] : v);
  return `${MOVE_CONTROL[kind]}: ${word(from)} → ${word(to)}`;
}

// The request solve gets: the scenario as it is, or, where the solver does not take framework
// "pytorch" yet, its textbook twin (say so on the page). ask(request) → solve's answer.
export function solveFor(scenario, ask) {
  const first = ask(scenario);
  if (!first.error || !isPytorch(scenario) || !['framework', 'precision', 'activation_model'].includes(first.error.field)) {
    return { solved: first, layout: isPytorch(scenario) ? 'pytorch' : 'textbook' };
  }
  return { solved: ask(textbookTwin(scenario)), layout: 'textbook' };
}

// The largest micro-batch as the page's card and the ledger line both word it: "none" when none fits.
export const largestText = (n) => (n > 0 ? formatInt(n) : 'none');

// ---- The ledger's record of the workbench (result_snapshot.workbench; re-computed by verify_ledger).
export function workbenchRecord(scenario, engine) {
  if (!scenario) return null;
  const r = engine.evaluate(scenario);
  if (!r || r.error) return null;
  const { solved, layout } = solveFor(scenario, (s) => engine.solve(s));
  const p = r.pipeline;
  return {
    model_name: r.model.name || null, peak_bytes: r.memory.peak_bytes, peak_phase: r.memory.step_phases ? r.memory.step_phases.peak_phase : null,
    fits: r.memory.fits, numerically_valid: r.memory.numerically_valid, usable_device_bytes: r.memory.usable_device_bytes,
    largest_batch_size: solved && !solved.error ? solved.largest_batch.largest_batch : null, largest_batch_layout: layout,
    step_seconds: p.step_seconds, tokens_per_second: p.tokens_per_second, mfu: p.mfu,
  };
}

// The ledger's summary line of the workbench record (design-ledger.js ledgerText): one scenario's numbers.
export function workbenchText(rec, scenario, units = 'gb') {
  if (!rec) return 'Workbench: no results recorded (no model chosen, or its settings gave an error).';
  const model = rec.model_name || (typeof scenario.model === 'string' ? scenario.model : 'a custom model');
  const state = !rec.fits ? 'out of memory' : rec.numerically_valid ? 'fits' : 'fits but cannot train (updates stall)';
  const speed = `${formatSeconds(rec.step_seconds)}, ${formatInt(rec.tokens_per_second)} tokens/s, MFU ${formatPercent(rec.mfu, 1)}`;
  // As on the page: no speed reads as reached by a run that cannot train.
  const timing = !rec.fits ? `no step runs (if it fitted: estimated step ${speed})`
    : rec.numerically_valid ? `estimated step ${speed}` : `steps would take an estimated ${speed}, but do not train`;
  const where = rec.peak_phase ? ` ${phaseWords(rec.peak_phase)}` : '';
  const largest = rec.largest_batch_size === null ? 'no solver answer'
    : `largest micro-batch that fits: ${largestText(rec.largest_batch_size)}${rec.largest_batch_layout === 'textbook' ? ' (textbook layout)' : ''}`;
  return `Workbench: ${model}, batch ${scenario.batch_size ?? 'default'}: peak ${formatBytes(rec.peak_bytes, units)}${where}, `
    + `${state} in ${formatBytes(rec.usable_device_bytes, units)}; ${largest}; ${timing}.`;
}

export const unitLabel = (units) => unitOf(units).label;
