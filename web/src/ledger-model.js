// Pure view model for the training-memory ledger (no DOM): turns the engine's results for SGD,
// Momentum and Adam at the current settings into stacked columns, a data table, a one-sentence
// summary and the "what binds" banner. Only arithmetic on engine values (sums, differences) happens
// here; every byte count comes from the engine. Tested against the real engine in tests/web/unit.
import { OPTIMIZERS, LABELS, COMPONENT_KEYS } from './scenario.js';
import { formatBytes, formatRatio } from './format.js';

export const COMPONENT_LABELS = {
  weights: 'Weights (compute copy)',
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

export const SHORT_LABELS = {
  weights: 'W', master_weights: 'master', gradients: 'grads', momentum: 'mom.', adam_m: 'm', adam_v: 'v',
  activations: 'act.', logits: 'logits', reserve: 'reserve', transient: 'transient',
};

// Byte count of each component in one engine result (optimizer vectors split out; the transient is
// the engine's peak minus its steady total: the logits gradient and the recompute working set).
export function componentBytes(result) {
  const m = result.memory;
  const c = m.components;
  const out = {
    weights: c.weights, master_weights: c.master_weights, gradients: c.gradients,
    momentum: 0, adam_m: 0, adam_v: 0,
    activations: c.activations, logits: c.logits, reserve: c.reserve,
    transient: m.peak_bytes - m.total_bytes,
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
      segments.push({ key, label: COMPONENT_LABELS[key], bytes: bytes[key], y0: y, y1: y + bytes[key] });
      y += bytes[key];
    }
    return {
      optimizer: opt, label: LABELS.optimizer[opt], selected: opt === selected, bytes, segments,
      visible_bytes: y, total_bytes: r.memory.total_bytes, peak_bytes: r.memory.peak_bytes,
      static_bytes: r.memory.static_bytes, fits: r.memory.fits, binding: r.memory.binding.kind,
    };
  });
  const budget = results[selected].memory.usable_device_bytes;
  const maxBytes = Math.max(budget, ...columns.map((c) => Math.max(c.visible_bytes, 1)));
  return {
    columns, present, hidden: hidden.filter((k) => present.includes(k)),
    budget_bytes: budget, max_bytes: maxBytes, selected,
  };
}

// Rows for the chart's data-table twin: one per component present, then total, peak and budget.
export function ledgerTableRows(ledger) {
  const rows = ledger.present.map((key) => ({
    key, label: COMPONENT_LABELS[key], hidden: ledger.hidden.includes(key),
    values: ledger.columns.map((c) => c.bytes[key]),
  }));
  rows.push({ key: 'total', label: 'Total (steady state)', values: ledger.columns.map((c) => c.total_bytes) });
  rows.push({ key: 'peak', label: 'Peak (backward pass)', values: ledger.columns.map((c) => c.peak_bytes) });
  rows.push({ key: 'budget', label: 'Usable device memory', values: ledger.columns.map(() => ledger.budget_bytes) });
  return rows;
}

// Binding state of one engine result, in words, in the chosen units.
export function bannerFor(result, deviceName, units = 'gb') {
  const m = result.memory;
  const f = (b) => formatBytes(b, units);
  const staticAll = m.static_bytes + m.components.reserve;
  const kind = m.binding.kind;
  let title;
  let text;
  if (kind === 'none') {
    title = 'Fits in memory';
    text = `Peak ${f(m.peak_bytes)} of the ${f(m.usable_device_bytes)} usable on the ${deviceName}: ${f(m.binding.headroom_bytes)} to spare.`;
  } else if (kind === 'static') {
    title = 'Out of memory: static memory binds';
    text = `Weights, master copy, gradients, optimizer state and reserve (${f(staticAll)}) already exceed the ${f(m.usable_device_bytes)} usable on the ${deviceName}, before a single activation is stored. A smaller batch or checkpointing cannot fix this.`;
  } else {
    title = 'Out of memory: activations bind';
    text = `Static memory (${f(staticAll)}) fits on the ${deviceName}, but activations and transients (${f(m.peak_bytes - staticAll)}) exceed the ${f(m.usable_device_bytes - staticAll)} left after it.`;
  }
  const invalid = m.numerically_valid ? null
    : 'Numerically invalid for training: pure 16-bit weights have no FP32 master copy, so small updates round away and training stalls.';
  return { kind, fits: m.fits, title, text, invalid };
}

const CKPT_WORDS = {
  none: 'no checkpointing', selective: 'selective recompute', full: 'full recompute',
};

export function describeConfig(config) {
  const ck = config.checkpointing === 'every_k' ? `a checkpoint every ${config.every_k} layers` : CKPT_WORDS[config.checkpointing];
  return `${LABELS.optimizer[config.optimizer]}, ${LABELS.precision[config.precision]}, batch ${config.batch_size}, ${ck}`;
}

// The one-sentence summary that updates with the chart.
export function ledgerSummary(ledger, config, deviceName, units = 'gb') {
  const f = (b) => formatBytes(b, units);
  const sel = ledger.columns.find((c) => c.selected);
  const sgd = ledger.columns.find((c) => c.optimizer === 'sgd');
  const state = sel.fits
    ? `it fits, ${f(ledger.budget_bytes - sel.peak_bytes)} under the ${f(ledger.budget_bytes)} usable`
    : `out of memory: ${f(sel.peak_bytes - ledger.budget_bytes)} over the ${f(ledger.budget_bytes)} usable`;
  const tax = sel.optimizer === 'sgd' ? '' : `; its optimizer state costs ${f(sel.static_bytes - sgd.static_bytes)} more than SGD's (${formatRatio(sel.static_bytes / sgd.static_bytes)} the static memory)`;
  return `GPT-2 XL with ${describeConfig(config)} peaks at ${f(sel.peak_bytes)} on the ${deviceName}: ${state}${tax}.`;
}
