// Pure view model for the training-memory ledger (no DOM): turns the engine's results for SGD,
// Momentum and Adam at the current settings into stacked columns, a data table, a one-sentence
// summary and the "what binds" banner. Only arithmetic on engine values (sums, differences) happens
// here; every byte count comes from the engine. Tested against the real engine in tests/web/unit.
import { OPTIMIZERS, LABELS, COMPONENT_KEYS, frameworkOf } from '../state/scenario.js';
import { formatBytes, formatRatio, formatSum, shownHundredths, sumText, formatCount, wordList } from '../format/format.js';
import { fitState, STATE_ICONS, INVALID_WHY } from './fit-state.js';
import { scenarioFacts, staticTerms, staticWords } from '../format/sentences.js';

export const COMPONENT_LABELS = {
  weights: 'Weights',
  autocast_cache: 'Autocast’s 16-bit weight copies',
  master_weights: 'FP32 master copy',
  gradients: 'Gradients',
  momentum: 'Momentum vector',
  adam_m: 'Adam m (1st moment)',
  adam_v: 'Adam v (2nd moment)',
  activations: 'Activations',
  logits: 'Logits',
  reserve: 'Framework / context reserve',
  transient: 'Transient at backward peak',
};

// The weights row says which copy it is: beside an FP32 master copy (the chapter's mixed precision)
// it is the 16-bit compute copy; under PyTorch's autocast the FP32 parameters are the master copy
// and the 16-bit copies are the autocast row.
function weightsLabel(present) {
  if (present.includes('autocast_cache')) return 'Weights (FP32 parameters, also the master copy)';
  if (present.includes('master_weights')) return 'Weights (16-bit compute copy)';
  return COMPONENT_LABELS.weights;
}
const labelOf = (key, present) => (key === 'weights' ? weightsLabel(present) : COMPONENT_LABELS[key]);

export const SHORT_LABELS = {
  weights: 'W', autocast_cache: '16-bit', master_weights: 'master', gradients: 'grads', momentum: 'mom.', adam_m: 'm', adam_v: 'v',
  activations: 'act.', logits: 'logits', reserve: 'reserve', transient: 'transient',
};

// Byte count of each component in one engine result (optimizer vectors split out; the transient is
// the engine's peak minus its steady total: the logits gradient and the recompute working set).
// Under PyTorch defaults the peak is the maximum of a step's timeline, not the sum plus a
// transient, so there is no transient component (the peak is shown beside the sum instead).
export function componentBytes(result) {
  const m = result.memory;
  const c = m.components;
  const out = {
    weights: c.weights, autocast_cache: c.autocast_weight_cache || 0, master_weights: c.master_weights, gradients: c.gradients,
    momentum: 0, adam_m: 0, adam_v: 0,
    activations: c.activations, logits: c.logits, reserve: c.reserve,
    transient: m.step_phases ? 0 : m.peak_bytes - m.total_bytes,
  };
  for (const v of m.optimizer_vectors) out[v.name] = v.bytes;
  return out;
}

// results: { sgd, momentum, adam } engine results; selected: optimizer id; hidden: component keys.
export function buildLedger(results, selected, hidden = []) {
  const perColumn = OPTIMIZERS.map((opt) => ({ opt, bytes: componentBytes(results[opt]) }));
  const present = COMPONENT_KEYS.filter((k) => perColumn.some((col) => col.bytes[k] > 0));
  const columns = perColumn.map(({ opt, bytes }) => {
    const r = results[opt];
    let y = 0;
    const segments = [];
    for (const key of present) {
      if (!(bytes[key] > 0) || hidden.includes(key)) continue;
      segments.push({ key, label: labelOf(key, present), bytes: bytes[key], y0: y, y1: y + bytes[key] });
      y += bytes[key];
    }
    return {
      optimizer: opt, label: LABELS.optimizer[opt], selected: opt === selected, bytes, segments,
      visible_bytes: y, total_bytes: r.memory.total_bytes, peak_bytes: r.memory.peak_bytes,
      static_bytes: r.memory.static_bytes, fits: r.memory.fits, binding: r.memory.binding.kind,
      valid: r.memory.numerically_valid !== false, state: fitState(r.memory),
      // Sum of the components (what the textbook counts as live at once) and where the peak is.
      sum_bytes: r.memory.total_bytes + Math.max(0, bytes.transient),
      peak_phase: r.memory.step_phases ? r.memory.step_phases.peak_phase : null,
      peak_words: r.memory.step_phases ? phaseWords(r.memory.step_phases.peak_phase, r.model.layers) : null,
    };
  });
  const budget = results[selected].memory.usable_device_bytes;
  const maxBytes = Math.max(budget, ...columns.map((c) => Math.max(c.visible_bytes, 1)));
  return {
    columns, present, hidden: hidden.filter((k) => present.includes(k)),
    budget_bytes: budget, max_bytes: maxBytes, selected,
    framework: results[selected].memory.step_phases ? 'pytorch' : 'textbook',
  };
}

// A step phase of the engine's timeline (memory.step_phases.peak_phase) in words a student can read,
// to follow "the peak is …": e.g. "at the optimizer step". layers: the model's block count.
export function phaseWords(phase, layers) {
  const fixed = {
    start: 'at the start of the step, before the forward pass',
    forward_end: 'at the end of the forward pass',
    loss_forward: 'while the loss is computed',
    loss_backward: 'at the start of the backward pass, when the loss’s gradient is computed',
    head_backward: 'at the start of the backward pass, at the output layer’s gradient',
    backward_end: 'at the end of the backward pass',
    optimizer_step: 'at the optimizer step',
    head: 'at the output layer',
  };
  if (Object.hasOwn(fixed, phase)) return fixed[phase];
  const m = /^(forward|backward)\.layer\.(\d+)(\.attention|\.mlp)?$/.exec(phase || '');
  if (!m) return `in the phase “${phase}”`;
  const block = `block ${Number(m[2]) + 1}${layers ? ` of ${layers}` : ''}`;
  const pass = m[1] === 'forward' ? 'the forward pass' : 'the backward pass';
  if (m[3] === '.attention') return `during ${pass}, in the attention of ${block}`;
  if (m[3] === '.mlp') return `during ${pass}, in the MLP of ${block}`;
  return `during ${pass}, at ${block}`;
}

// The selected column's sum of components and peak during a step, for the line under the chart.
// Textbook layout: everything counts as live at once, so the two are the same number.
export function sumPeak(ledger) {
  const sel = ledger.columns.find((c) => c.selected);
  return {
    framework: ledger.framework, optimizer: sel.optimizer, label: sel.label,
    sum_bytes: sel.sum_bytes, peak_bytes: sel.peak_bytes, peak_phase: sel.peak_phase, peak_words: sel.peak_words,
    gap_bytes: sel.sum_bytes - sel.peak_bytes,
  };
}

export function sumPeakText(sp, units = 'gb') {
  const f = (b) => formatBytes(b, units);
  if (sp.framework !== 'pytorch') {
    return `Textbook layout: every component counts as live at the same moment, so the peak during a step is the sum of the components (${f(sp.sum_bytes)} for ${sp.label}).`;
  }
  // The gap is rounded from exact bytes; where that differs from the difference of the two shown
  // amounts, it says "about".
  const about = shownHundredths(sp.sum_bytes, units) - shownHundredths(sp.peak_bytes, units) === shownHundredths(sp.gap_bytes, units) ? '' : 'about ';
  const gap = sp.gap_bytes >= 0 ? `${about}${f(sp.gap_bytes)} below the sum` : `${about}${f(-sp.gap_bytes)} above the sum`;
  return `${sp.label}: the components add up to ${f(sp.sum_bytes)}, never all live at once. `
    + `The peak during a step is ${f(sp.peak_bytes)}, ${sp.peak_words}: ${gap}.`;
}

// Rows for the chart's data-table twin: one per component present, then total, peak and budget.
export function ledgerTableRows(ledger) {
  const rows = ledger.present.map((key) => ({
    key, label: labelOf(key, ledger.present), hidden: ledger.hidden.includes(key),
    values: ledger.columns.map((c) => c.bytes[key]),
  }));
  if (ledger.framework === 'pytorch') {
    rows.push({ key: 'total', label: 'Sum of components', values: ledger.columns.map((c) => c.total_bytes) });
    rows.push({ key: 'peak', label: 'Peak during a step', values: ledger.columns.map((c) => c.peak_bytes) });
    rows.push({ key: 'phase', label: 'The peak happens', values: ledger.columns.map((c) => c.peak_words) });
  } else {
    rows.push({ key: 'total', label: 'Total (steady state)', values: ledger.columns.map((c) => c.total_bytes) });
    rows.push({ key: 'peak', label: 'Peak (backward pass)', values: ledger.columns.map((c) => c.peak_bytes) });
  }
  rows.push({ key: 'budget', label: 'Usable device memory', values: ledger.columns.map(() => ledger.budget_bytes) });
  return rows;
}

// What is live at the step's peak (PyTorch defaults), by category, plus the framework reserve: the
// terms of memory.peak_bytes. The timeline's largest entry is the peak (its phase is peak_phase).
const LIVE_WORDS = { parameters: 'parameters', gradients: 'gradients', optimizer_state: 'optimizer state', activations: 'activations',
  autocast_cache: '16-bit weight copies', logits: 'logits', inputs: 'token ids', transient: 'temporaries',
  buffers: 'model buffers', cuda_workspace: 'cuBLAS workspaces' };
export function liveAtPeak(m) {
  const sp = m.step_phases;
  const at = sp.timeline.reduce((best, e) => (e.bytes > best.bytes ? e : best), sp.timeline[0]);
  const terms = Object.keys(LIVE_WORDS).filter((k) => at[k] > 0).map((k) => ({ label: LIVE_WORDS[k], bytes: at[k] }));
  if (sp.reserve_bytes > 0) terms.push({ label: 'framework reserve', bytes: sp.reserve_bytes });
  return terms;
}

// Binding state of one engine result, in words, in the chosen units: { state, icon, title, text,
// lines } for ui/banner.js (plus kind, fits, invalid for older callers). Terms add up (sumText) and
// name only the components this result has (FP32 has no master copy).
export function bannerFor(result, deviceName, units = 'gb') {
  const m = result.memory;
  const f = (b) => formatBytes(b, units);
  const facts = scenarioFacts(result);
  const staticAll = m.static_bytes + m.components.reserve;
  const withReserve = [{ label: 'static memory', bytes: m.static_bytes }, { label: 'framework reserve', bytes: m.components.reserve }].filter((t) => t.bytes > 0);
  const staticSum = withReserve.length > 1 ? sumText(withReserve, units, staticAll) : `static memory (${f(staticAll)})`;
  const kind = m.binding.kind;
  const state = fitState(m);
  let title;
  let text;
  if (kind === 'none') {
    title = state === 'invalid' ? 'Fits in memory, but cannot train: updates stall' : 'Fits in memory';
    text = `Peak ${f(m.peak_bytes)} of the ${f(m.usable_device_bytes)} usable on the ${deviceName}: ${f(m.binding.headroom_bytes)} to spare.`;
  } else if (kind === 'static') {
    title = 'Out of memory: static memory binds';
    const about = formatSum([m.static_bytes, m.components.reserve], units, staticAll).exact ? '' : 'about ';
    const reserve = m.components.reserve > 0 ? ` plus the framework reserve (${f(m.components.reserve)}), ${about}${f(staticAll)} in all,` : '';
    text = `Static memory alone (${sumText(staticTerms(facts), units, m.static_bytes)})${reserve} is more than the `
      + `${f(m.usable_device_bytes)} usable on the ${deviceName}, before a single activation is stored. A smaller batch or checkpointing cannot fix this.`;
  } else if (m.step_phases) {
    // PyTorch defaults: the peak is one moment of the step, so say what is live then (gradients, for
    // one, may be gone), not "static memory + the rest".
    title = 'Out of memory: the peak during a step binds';
    text = `The peak during a step comes ${phaseWords(m.step_phases.peak_phase, result.model && result.model.layers)}: `
      + `${sumText(liveAtPeak(m), units, m.peak_bytes)}, more than the ${f(m.usable_device_bytes)} usable on the ${deviceName}.`;
  } else {
    title = 'Out of memory: activations bind';
    // "need X at the peak, Y more than is left": Y is the shortfall (peak − usable), and says "about"
    // when the two shown amounts do not subtract to it.
    const left = m.usable_device_bytes - staticAll;
    const need = m.peak_bytes - staticAll;
    const short = m.peak_bytes - m.usable_device_bytes;
    const about = shownHundredths(need, units) - shownHundredths(left, units) === shownHundredths(short, units) ? '' : 'about ';
    text = `${staticSum.charAt(0).toUpperCase()}${staticSum.slice(1)} fits on the ${deviceName}, leaving ${f(left)} of its ${f(m.usable_device_bytes)}; `
      + `${aboveStaticWords(m, staticAll)} ${f(need)} at the peak, ${about}${f(short)} more than is left.`;
  }
  const invalid = m.numerically_valid ? null
    : `${kind === 'none' ? 'It fits, but it cannot train' : 'Even on a larger device it could not train'}: ${INVALID_WHY}. Mixed precision (16-bit compute with an FP32 master copy) can.`;
  return {
    state, icon: STATE_ICONS[state], title, text, lines: invalid ? [invalid] : [],
    kind, fits: m.fits, invalid, words: staticWords(facts),
  };
}

// What the peak holds beyond static memory and the reserve, naming only what is there (the chapter
// replay has no logits and no transients): "activations need", "activations, logits and transients need".
function aboveStaticWords(m, staticAll) {
  const transients = m.peak_bytes - staticAll - m.components.activations - m.components.logits;
  const parts = ['activations', m.components.logits > 0 ? 'logits' : null, transients > 0 ? 'transients' : null].filter(Boolean);
  return `${wordList(parts)} need`; // every part is plural
}

const CKPT_WORDS = {
  none: 'no checkpointing', selective: 'selective recompute', full: 'full recompute',
};

export function describeConfig(config) {
  if (frameworkOf(config) === 'pytorch') {
    return `${LABELS.optimizer[config.optimizer]}, ${LABELS.precisionPytorch[config.precision]}, batch ${config.batch_size}, PyTorch defaults`;
  }
  const ck = config.checkpointing === 'every_k' ? `a checkpoint every ${formatCount(config.every_k, 'layer')}` : CKPT_WORDS[config.checkpointing];
  // Chapter replay is another scenario (1.5 billion parameters, the chapter's activation figure): say so.
  return `${LABELS.optimizer[config.optimizer]}, ${LABELS.precision[config.precision]}, batch ${config.batch_size}, ${ck}${config.replay ? ', in Chapter replay' : ''}`;
}

// The one-sentence summary that updates with the chart.
export function ledgerSummary(ledger, config, deviceName, units = 'gb') {
  const f = (b) => formatBytes(b, units);
  const sel = ledger.columns.find((c) => c.selected);
  const sgd = ledger.columns.find((c) => c.optimizer === 'sgd');
  let state;
  if (!sel.fits) state = `out of memory, ${f(sel.peak_bytes - ledger.budget_bytes)} over the ${f(ledger.budget_bytes)} usable`;
  else if (!sel.valid) state = `it fits in memory, ${f(ledger.budget_bytes - sel.peak_bytes)} under the ${f(ledger.budget_bytes)} usable, but it cannot train: ${INVALID_WHY}`;
  else state = `it fits, ${f(ledger.budget_bytes - sel.peak_bytes)} under the ${f(ledger.budget_bytes)} usable`;
  const tax = sel.optimizer === 'sgd' ? '' : `. Its optimizer state adds ${f(sel.static_bytes - sgd.static_bytes)} to SGD’s static memory (${f(sgd.static_bytes)} → ${f(sel.static_bytes)}, ${formatRatio(sel.static_bytes / sgd.static_bytes)} as much)`;
  return `GPT-2 XL with ${describeConfig(config)} peaks at ${f(sel.peak_bytes)} on the ${deviceName}: ${state}${tax}.`;
}
