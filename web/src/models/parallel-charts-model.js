// Act 3's four charts as DOM-free layout models: engine results (evaluate's `memory` and `parallel`
// blocks) → scales, stacks, marks, ticks, words and table rows. Only arithmetic on engine values
// (sums, positions, the chapter's curve from the engine's r) happens here; no physics. The SVG is drawn
// by web/src/charts/{parallel-memory,parallel-timeline,comm-tax,crossover}-chart.js.
import { scaleLinear, scaleLog } from 'd3-scale';
import { COMPONENT_LABELS, SHORT_LABELS, componentBytes } from './ledger-model.js';
import { fitState, STATE_ICONS } from './fit-state.js';
import { formatBytes, formatAmount, formatInt, formatNumber2, formatPercent, formatRatio, formatSeconds, unitOf, UNIT_SPACE } from '../format/format.js';

export const NARROW_PX = 520; // below this a chart uses its narrow layout (as fit-width.js)
const CHAR_PX = 6.4; // average glyph width of the 11–12 px chart fonts

// `format` as the charts take it: 'gb' | 'gib', or { units }.
export const unitsOf = (format) => (typeof format === 'string' ? format : (format && format.units) || 'gb');

// ---- shared: words for strategies, rounding terms together, ticks

const STAGE_NAMES = ['DDP', 'ZeRO-1', 'ZeRO-2', 'ZeRO-3'];
const STAGE_WORDS = ['plain data parallel (DDP)', 'ZeRO-1 (optimizer state sharded)', 'ZeRO-2 (optimizer state and gradients sharded)',
  'ZeRO-3 (everything sharded, as FSDP)'];
export const stageName = (z) => STAGE_NAMES[z] ?? `stage ${z}`;

// "8 devices", "8 devices (data 4 × tensor 2)": the device count and how it splits.
export function devicesWords(p) {
  const parts = [['data', p.data_parallel], ['tensor', p.tensor_parallel], ['pipeline', p.pipeline_parallel]].filter(([, n]) => n > 1);
  const count = `${formatInt(p.devices)} ${p.devices === 1 ? 'device' : 'devices'}`;
  return parts.length > 1 ? `${count} (${parts.map(([w, n]) => `${w} ${formatInt(n)}`).join(' × ')})` : count;
}

// Values rounded to hundredths so that the shown terms add up to the shown total (largest remainder):
// each term is its exact value rounded down or up. Only when the exact terms do add up to the total.
export function roundTogether(values, total) {
  const exact = values.map((v) => v * 100);
  const target = Math.round(total * 100);
  const out = exact.map(Math.floor);
  let left = target - out.reduce((a, x) => a + x, 0);
  const order = exact.map((x, i) => ({ i, r: x - Math.floor(x) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of order) { if (left <= 0) break; out[i] += 1; left -= 1; }
  return out.map((x) => x / 100);
}

// Seconds in one unit for a sentence whose terms add up: ms when the total is under 0.1 s (as
// formatSeconds), or when a term is and the total is under a minute (so no term reads "0.00 s").
export function secondsUnit(totalSeconds, smallestSeconds = totalSeconds) {
  const ms = Math.abs(totalSeconds) < 0.1 || (Math.abs(smallestSeconds) < 0.1 && Math.abs(totalSeconds) < 60);
  return ms ? { scale: 1000, label: 'ms' } : { scale: 1, label: 's' };
}

// "compute 0.83 s + exposed communication 0.10 s = 0.93 s": terms [{ label, seconds }] that add up to
// totalSeconds exactly (relative 1e-9), each rounded so the shown ones add up too. Zero terms are left out.
export function secondsSum(terms, totalSeconds) {
  const kept = terms.filter((t) => t.seconds > 0);
  const u = secondsUnit(totalSeconds, Math.min(totalSeconds, ...kept.map((t) => t.seconds)));
  const exactSum = kept.reduce((a, t) => a + t.seconds, 0);
  const addsUp = Math.abs(exactSum - totalSeconds) <= 1e-9 * Math.max(1, Math.abs(totalSeconds));
  const shown = addsUp ? roundTogether(kept.map((t) => t.seconds * u.scale), totalSeconds * u.scale) : kept.map((t) => t.seconds * u.scale);
  const f = (x) => `${formatNumber2(x)}${UNIT_SPACE}${u.label}`;
  const format = (seconds) => f(seconds * u.scale);
  if (kept.length === 1 && addsUp) return { adds_up: true, format, text: `${kept[0].label} ${f(totalSeconds * u.scale)}, the whole step` };
  return { adds_up: addsUp, format, text: `${kept.map((t, i) => `${t.label} ${f(shown[i])}`).join(' + ')} ${addsUp ? '=' : '≈'} ${f(totalSeconds * u.scale)}` };
}

// Powers of two from 1 to maxDevices (the device axis: 1,024, or more when tensor and pipeline
// parallelism multiply the count); at most 11 on a wide box and 6 on a narrow one, and at least
// `minStep` doublings apart (where the plot is too narrow for more), counted back from the last.
export function deviceTicks(wide, maxDevices = 1024, minStep = 1) {
  const all = Array.from({ length: Math.round(Math.log2(maxDevices)) + 1 }, (_, i) => 2 ** i);
  const step = Math.max(minStep, Math.ceil(all.length / (wide ? 11 : 6)));
  return all.filter((n, i) => (all.length - 1 - i) % step === 0);
}

// Powers of ten inside [lo, hi] (a log axis); at most `max` of them, thinned evenly.
export function decadeTicks(lo, hi, max = 6) {
  const out = [];
  for (let e = Math.ceil(Math.log10(lo) - 1e-9); e <= Math.floor(Math.log10(hi) + 1e-9); e += 1) out.push(10 ** e);
  const step = Math.ceil(out.length / max);
  return out.filter((v, i) => i % step === 0);
}

// Tick words: "1", "10", "1K", "10K", "1M" (tokens); "1 ms", "0.1 s", "10 s" (seconds); "1,024" (devices).
export function countTick(n) {
  if (n >= 1e6) return `${Number((n / 1e6).toPrecision(3))}M`;
  if (n >= 1e3) return `${Number((n / 1e3).toPrecision(3))}K`;
  return `${Number(n.toPrecision(3))}`;
}
export function secondsTick(s) {
  if (s >= 0.1) return `${Number(s.toPrecision(3))}${UNIT_SPACE}s`;
  if (s >= 1e-4) return `${Number((s * 1e3).toPrecision(3))}${UNIT_SPACE}ms`;
  return `${Number((s * 1e6).toPrecision(3))}${UNIT_SPACE}µs`;
}

// The left margin that holds the widest y tick word (11 px, ~6.6 px a character) beside the turned axis title.
export const leftMargin = (tickTexts) => Math.ceil(22 + Math.max(0, ...tickTexts.map((t) => t.length)) * 6.6 + 10);

// Words beside a mark at x, inside [x1, x2]: to its right where they fit (bold 11.5 px: ~7 px a
// character), else to its left, else the side with more room, starting or ending at that edge.
export function placeBeside(x, text, x1, x2, gap = 8) {
  const px = text.length * 7;
  if (x + gap + px <= x2) return { tx: x + gap, anchor: 'start' };
  if (x - gap - px >= x1) return { tx: x - gap, anchor: 'end' };
  return x - x1 > x2 - x ? { tx: x1, anchor: 'start' } : { tx: x2, anchor: 'end' };
}

// A label's box as drawn (bold 11.5 px: ~7 px a character; baseline y, ~11 px above it and 3 below).
export function labelBox({ x, y, anchor, text }) {
  const w = text.length * 7;
  const left = anchor === 'end' ? x - w : anchor === 'middle' ? x - w / 2 : x;
  return { left, right: left + w, top: y - 11, bottom: y + 3 };
}
const overlaps = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

// Words placed in turn, each at its first candidate spot inside `bounds` that meets no word placed
// before it and no mark in `obstacles` (boxes); with none free, its first spot inside the bounds.
// items: [{ key, cls, text, candidates: [{ x, y, anchor }] }] → [{ key, cls, text, x, y, anchor }].
export function placeLabels(items, bounds, obstacles = []) {
  const taken = [...obstacles];
  return items.map((item) => {
    const spots = item.candidates.map((c) => ({ ...c, text: item.text }));
    const inside = spots.filter((c) => { const b = labelBox(c); return b.left >= bounds.left && b.right <= bounds.right && b.top >= bounds.top && b.bottom <= bounds.bottom; });
    const free = inside.find((c) => !taken.some((t) => overlaps(labelBox(c), t)));
    // An optional word (one the key or the summary also gives) is left out rather than drawn over another.
    if (!free && item.optional) return { key: item.key, cls: item.cls, text: '', x: spots[0].x, y: spots[0].y, anchor: spots[0].anchor };
    const spot = free || inside[0] || spots[0];
    taken.push(labelBox(spot));
    return { key: item.key, cls: item.cls, text: item.text, x: spot.x, y: spot.y, anchor: spot.anchor };
  });
}
// A round mark's box, for placeLabels' obstacles.
const dotBox = (cx, cy, r) => ({ left: cx - r, right: cx + r, top: cy - r, bottom: cy + r });

// An x-axis title centred under the plot [x1, x2], moved left where it would run past the chart's
// right edge W (12 px semi-bold: ~7 px a character).
export function axisTitleUnder(text, x1, x2, W, y) {
  const half = (text.length * 7) / 2;
  return { text, x: Math.max(half + 2, Math.min((x1 + x2) / 2, W - half - 2)), y };
}

// The chapter's r, a ratio with no unit: three significant figures (0.0172), so 1/r stays readable.
export const formatR = (r) => (Number.isFinite(r) ? (r === 0 ? '0' : String(Number(r.toPrecision(3)))) : '—');

// ---- 1. the per-device memory ledger (parallel-memory-chart.js)

// The lab's components plus the two that exist only across devices, in words for students.
export const PARALLEL_COMPONENT_LABELS = {
  ...COMPONENT_LABELS,
  gradient_buckets: 'Gradient buckets (DDP’s copy of the gradients, sent in pieces)',
  gathered_parameters: 'Gathered layers (full weights of the layers in use, fetched from the other devices)',
};
// Short names for the legend (the table twin has the long ones).
const LEGEND_LABELS = {
  weights: 'Weights', autocast_cache: '16-bit weight copies', master_weights: 'FP32 master copy', gradients: 'Gradients',
  gradient_buckets: 'Gradient buckets', momentum: 'Momentum', adam_m: 'Adam m', adam_v: 'Adam v',
  gathered_parameters: 'Gathered layers', activations: 'Activations', logits: 'Logits', reserve: 'Reserve', transient: 'Transient',
};
const SEG_SHORT = { ...SHORT_LABELS, gradient_buckets: 'buckets', gathered_parameters: 'gathered' };
// The stacking order: static model state first (each copy beside what it copies), then the step's working memory.
export const PARALLEL_COMPONENT_KEYS = ['weights', 'autocast_cache', 'master_weights', 'gradients', 'gradient_buckets', 'momentum',
  'adam_m', 'adam_v', 'gathered_parameters', 'activations', 'logits', 'reserve', 'transient'];
// Copies of another component: drawn in its colour with stripes, so they read apart without colour.
export const STRIPED = ['gradient_buckets', 'gathered_parameters'];

// Bytes per component on the heaviest device: the ledger's split plus the new components.
export function deviceComponents(result) {
  const bytes = componentBytes(result);
  const c = result.memory.components;
  bytes.gradient_buckets = c.gradient_buckets || 0;
  bytes.gathered_parameters = c.gathered_parameters || 0;
  return PARALLEL_COMPONENT_KEYS.filter((k) => bytes[k] > 0).map((k) => ({ key: k, bytes: bytes[k], label: PARALLEL_COMPONENT_LABELS[k], legend: LEGEND_LABELS[k] }));
}

const STATE_WORDS = { oom: 'does not fit', invalid: 'fits, cannot train', ok: 'fits' };

// The memory chart's model: the device's stack, the four stages beside it, summary and table rows.
export function memoryModel(result, { units = 'gb', deviceName } = {}) {
  const m = result.memory;
  const p = result.parallel;
  const f = (b) => formatBytes(b, units);
  let y = 0;
  const segments = deviceComponents(result).map((s) => { const seg = { ...s, y0: y, y1: y + s.bytes }; y += s.bytes; return seg; });
  const state = fitState(m);
  const budget = m.usable_device_bytes;
  const stages = (p.memory_by_stage || []).map((s) => ({
    zero_stage: s.zero_stage, name: stageName(s.zero_stage), static_bytes: s.static_bytes, peak_bytes: s.peak_bytes,
    fits: s.fits, state: s.fits ? 'ok' : 'oom', selected: s.zero_stage === p.zero_stage,
  }));
  // The textbook layout counts everything live at once (the stack is the peak); PyTorch's step model
  // never has every part live together, so there the stack is the sum and a line marks the lower peak.
  const device = { segments, stack_bytes: y, total_bytes: m.total_bytes, peak_bytes: m.peak_bytes, state, icon: STATE_ICONS[state],
    stack_is_peak: Math.abs(y - m.peak_bytes) <= 1 };
  const max = Math.max(budget, y, m.peak_bytes, ...stages.map((s) => s.peak_bytes));
  const name = deviceName || (result.device && result.device.name) || 'device';
  const how = state === 'oom' ? `does not fit: ${f(m.peak_bytes - budget)} over`
    : state === 'invalid' ? `fits (${f(budget - m.peak_bytes)} to spare) but cannot train`
      : `fits, ${f(budget - m.peak_bytes)} to spare`;
  const byStage = stages.map((s) => `${s.name} ${f(s.peak_bytes)}${s.fits ? '' : ' (does not fit)'}`).join(', ');
  const summary = `With ${STAGE_WORDS[p.zero_stage] || stageName(p.zero_stage)} on ${devicesWords(p)}, each ${name} peaks at ${f(m.peak_bytes)} `
    + `of the ${f(budget)} it can use: it ${how}.${stages.length ? ` Peak per device by stage: ${byStage}.` : ''}`;
  const rows = segments.map((s) => ({ key: s.key, header: s.label, cells: [{ text: f(s.bytes), value: s.bytes }] }));
  rows.push({ key: 'total', header: 'Peak on this device', cls: 'row--sum', cells: [{ text: `${f(m.peak_bytes)} (${STATE_WORDS[state]})`, value: m.peak_bytes, cls: state === 'ok' ? null : 'cell--over' }] });
  rows.push({ key: 'budget', header: 'Usable memory per device', cls: 'row--sum', cells: [{ text: f(budget), value: budget }] });
  const stageRows = stages.map((s) => ({
    key: `stage-${s.zero_stage}`, header: `${STAGE_WORDS[s.zero_stage] || s.name}${s.selected ? ' (selected)' : ''}`,
    cells: [{ text: f(s.static_bytes), value: s.static_bytes }, { text: f(s.peak_bytes), value: s.peak_bytes },
      { text: s.fits ? '✓ fits' : '✕ does not fit', cls: s.fits ? null : 'cell--over' }],
  }));
  return {
    units, device, stages, budget_bytes: budget, max_bytes: max, summary,
    // The stack's terms add up to its height: the components (with the transient) sum to the peak.
    adds_up: device.stack_is_peak || Math.abs(y - m.total_bytes) <= 1,
    tables: [
      { caption: `Memory on one device. ${summary}`, columns: ['Component', 'Bytes per device'], rows },
      { caption: `The same devices, each ZeRO stage (peak includes activations and the reserve)`, columns: ['Stage', 'Model state', 'Peak', 'Fits?'], rows: stageRows },
    ],
  };
}

// Where each part of the memory chart goes at width W (height fixed). Main stack left, stages right.
export function memoryLayout(model, W) {
  const wide = W >= NARROW_PX;
  const H = 340;
  const u = unitOf(model.units);
  const M = { top: 46, right: wide ? 12 : 8, bottom: 44, left: 0 };
  const yu = scaleLinear().domain([0, (model.max_bytes * 1.1) / u.bytes]).range([H - M.bottom, M.top]).nice();
  const ticks = yu.ticks(5);
  const tickFormat = yu.tickFormat(5);
  M.left = Math.ceil((wide ? 22 : 18) + Math.max(...ticks.map((t) => tickFormat(t).length)) * 6.6 + 11);
  const y = (b) => yu(b / u.bytes);
  const plotW = W - M.left - M.right;
  // The device's stack takes ~40% of the plot; the stages' four columns share the rest.
  const mainW = Math.min(140, Math.round(plotW * (wide ? 0.28 : 0.26)));
  const mainX = M.left + Math.round(plotW * (wide ? 0.04 : 0.02));
  const groupX0 = mainX + mainW + Math.round(plotW * (wide ? 0.14 : 0.07));
  const groupW = W - M.right - groupX0;
  const step = groupW / Math.max(1, model.stages.length);
  const stageW = Math.max(10, Math.min(56, step * 0.62));
  const round = (v) => Math.round(v * 10) / 10;
  // The lines a segment's words must not cross: the budget line and (PyTorch) the peak line.
  const crossing = [y(model.budget_bytes), ...(model.device.stack_is_peak ? [] : [y(model.device.peak_bytes)])].map(round);
  const crossed = (ly) => crossing.some((l) => l >= ly - 12 && l <= ly + 4);
  const segs = model.device.segments.map((s) => {
    const top = round(y(s.y1));
    const height = Math.max(0, round(y(s.y0) - y(s.y1)));
    const named = `${SEG_SHORT[s.key] || s.key} ${formatAmount(s.bytes, model.units)}`;
    const bare = formatAmount(s.bytes, model.units);
    let text = height < 14 ? '' : named.length * CHAR_PX <= mainW - 6 ? named : bare.length * CHAR_PX <= mainW - 4 ? bare : '';
    // Words a line runs through move within their segment (just above or below the line), or give way.
    let ly = round(top + height / 2 + 4);
    if (text && crossed(ly)) {
      const inside = (v) => v - 11 >= top + 1 && v + 3 <= top + height - 1 && !crossed(v);
      const spots = crossing.flatMap((l) => [l - 6, l + 15]).filter(inside).sort((a, b) => Math.abs(a - ly) - Math.abs(b - ly));
      if (spots.length) ly = round(spots[0]); else text = '';
    }
    return { key: s.key, x: mainX, width: mainW, y: top, height, striped: STRIPED.includes(s.key), label: { text, x: mainX + mainW / 2, y: ly } };
  });
  const f = (b) => formatBytes(b, model.units);
  const yb = round(y(model.budget_bytes));
  // Words above a column at baseline yy (spanning yy − 11 … yy + 3, `lines` of them stacked upward) move
  // above the budget line when it would run through them.
  const clear = (yy, lines = 1) => (yb >= yy - 11 - (lines - 1) * 14 && yb <= yy + 4 ? yb - 5 : yy);
  const deviceTop = round(y(model.device.stack_bytes));
  const flag = model.device.state === 'oom' ? (wide ? '✕ does not fit' : '✕ too big') : model.device.state === 'invalid' ? (wide ? '⚠ cannot train' : '⚠ can’t train') : '';
  // Words centred over a column, kept right of the y axis and inside the chart (~7 px a character).
  const centred = (text, cx) => { const half = (text.length * 7) / 2; return Math.max(M.left + half + 2, Math.min(cx, W - half - 2)); };
  const stages = model.stages.map((s, i) => {
    const x = round(groupX0 + step * i + (step - stageW) / 2);
    const top = round(y(s.peak_bytes));
    const staticTop = round(y(s.static_bytes));
    const amount = formatAmount(s.peak_bytes, model.units);
    return {
      ...s, x, width: round(stageW), top, static_top: staticTop, base: round(y(0)),
      // The bold 11.5 px amounts take ~7 px a character; where they do not fit, only a ✕ stays.
      value: { text: `${s.fits ? '' : '✕ '}${amount}`.length * 7 <= step - 4 ? `${s.fits ? '' : '✕ '}${amount}` : s.fits ? '' : '✕', x: round(x + stageW / 2), y: clear(top - 6) },
      // "ZeRO-1" where it fits its step with room to spare (12 px names: ~7.4 px a character), else "Z1".
      name: { text: s.name.length * 7.4 <= step - 8 ? s.name : s.name.replace('ZeRO-', 'Z'), x: round(x + stageW / 2), y: H - M.bottom + 16 },
    };
  });
  const flagY = clear(deviceTop - 6, flag ? 2 : 1);
  // The number above names what the column's height shows: the peak, or (PyTorch) the sum.
  const totalText = wide ? `${f(model.device.stack_bytes)} ${model.device.stack_is_peak ? 'peak' : 'sum'}` : formatAmount(model.device.stack_bytes, model.units);
  return {
    W, H, M, wide, ticks, tickFormat, axisTitle: `Memory per device (${u.label})`, y,
    device: { x: mainX, width: mainW, top: deviceTop, base: round(y(0)), segs, flag, state: model.device.state,
      total: { text: totalText, x: centred(totalText, mainX + mainW / 2), y: flagY - (flag ? 14 : 0) },
      peakMark: model.device.stack_is_peak ? null : { y: round(y(model.device.peak_bytes)), x1: mainX - 4, x2: mainX + mainW + 4 },
      flagPos: { x: centred(flag, mainX + mainW / 2), y: flagY },
      name: { text: wide ? 'One device' : 'Device', x: mainX + mainW / 2, y: H - M.bottom + 16 } },
    stages, stagesTitle: { text: wide ? 'Peak per device, by ZeRO stage' : 'By ZeRO stage', x: groupX0 + groupW / 2, y: H - M.bottom + 34 },
    // In the top margin, where no column's words can meet it (beside the line it crossed the stages' amounts).
    budget: { y: yb, x1: M.left, x2: W - M.right, text: `– – usable per device: ${f(model.budget_bytes)}`, tx: M.left, ty: 14, anchor: 'start' },
  };
}

// ---- 2. one step's timeline (parallel-timeline-chart.js)

export const TIMELINE_LANES = [{ key: 'compute', label: 'Compute' }, { key: 'communication', label: 'Communication' }];
const KIND_WORDS = {
  forward: 'forward', backward: 'backward', optimizer: 'optimizer step', bubble: 'pipeline bubble (idle)',
  all_reduce: 'all-reduce', reduce_scatter: 'reduce-scatter', all_gather: 'all-gather', point_to_point: 'send/receive between stages',
};
const COMM_KINDS = ['all_reduce', 'reduce_scatter', 'all_gather', 'point_to_point'];
const PURPOSE_WORDS = { gradients: 'gradients', parameters: 'parameters', tensor_parallel: 'tensor parallel', pipeline: 'pipeline' };

// A bar's class: a compute kind, the bubble, or communication hidden / exposed (the collective is in words).
// (The engine marks every compute segment exposed: compute is always on the step's critical path.)
export const barClass = (e) => (COMM_KINDS.includes(e.kind) ? `comm comm--${e.exposed ? 'exposed' : 'hidden'}` : `work work--${e.kind}`);

export function timelineModel(result, { units = 'gb' } = {}) {
  const p = result.parallel;
  const end = Math.max(p.step_s, ...p.timeline.map((e) => e.end_s));
  const bars = p.timeline.filter((e) => e.end_s > e.start_s).map((e, i) => ({
    key: `${e.lane}-${i}`, lane: e.lane, kind: e.kind, exposed: Boolean(e.exposed), start_s: e.start_s, end_s: e.end_s, cls: barClass(e),
    // Hatched: what the step waits for (communication no compute hides, the bubble).
    hatched: (e.lane === 'communication' && Boolean(e.exposed)) || e.kind === 'bubble',
  }));
  const kinds = new Set(bars.map((b) => (b.lane === 'communication' ? `comm--${b.exposed ? 'exposed' : 'hidden'}` : `work--${b.kind}`)));
  const KEY = [
    ['work--forward', 'Forward'], ['work--backward', 'Backward'], ['work--optimizer', 'Optimizer step'], ['work--bubble', 'Bubble (waiting)'],
    ['comm--hidden', 'Communication under compute (hidden)'], ['comm--exposed', 'Communication the step waits for (exposed)'],
  ].filter(([k]) => kinds.has(k)).map(([cls, text]) => ({ cls, text }));
  const sum = secondsSum([
    { label: 'compute', seconds: p.compute_s }, { label: 'bubble', seconds: p.bubble_s },
    { label: 'exposed communication', seconds: p.exposed_communication_s },
  ], p.step_s);
  const hidden = p.hidden_communication_s > 0 ? ` A further ${sum.format(p.hidden_communication_s)} of communication runs under compute, hidden.` : '';
  const none = p.communication_s > 0 ? '' : ' Nothing is communicated that takes time.';
  const summary = `One step of the busiest device on ${devicesWords(p)}: ${sum.text}.${hidden}${none}`;
  const rows = p.collectives.map((c, i) => ({
    key: `c${i}`, header: `${KIND_WORDS[c.kind] || c.kind} (${PURPOSE_WORDS[c.purpose] || c.purpose})`,
    cells: [{ text: formatInt(c.calls), value: c.calls }, { text: formatBytes(c.bytes, units), value: c.bytes },
      { text: formatSeconds(c.seconds), value: c.seconds }, { text: formatSeconds(c.exposed_seconds), value: c.exposed_seconds }],
  }));
  const phaseRows = [['compute', 'Compute (forward, backward, optimizer)', p.compute_s], ['bubble', 'Pipeline bubble', p.bubble_s],
    ['exposed', 'Communication the step waits for', p.exposed_communication_s], ['hidden', 'Communication hidden under compute', p.hidden_communication_s],
    ['step', 'Step', p.step_s]].map(([key, header, s]) => ({ key, header, cls: key === 'step' ? 'row--sum' : null, cells: [{ text: formatSeconds(s), value: s }] }));
  return {
    end_s: end, lanes: TIMELINE_LANES, bars, key: KEY, summary, adds_up: sum.adds_up,
    tables: [
      { caption: `One step. ${summary}`, columns: ['Part of the step', 'Time'], rows: phaseRows },
      { caption: 'Collectives in one step', columns: ['Collective', 'Calls', 'Bytes', 'Time', 'Not hidden'], rows },
    ],
  };
}

// Bars in pixels at width W; ticks at 0, ¼, ½, ¾ and the end (narrow boxes: 0, ½, end).
export function timelineLayout(model, W) {
  const wide = W >= NARROW_PX;
  const M = { left: 8, right: 12, top: 4 };
  const LANE_H = 46;
  const x = scaleLinear().domain([0, model.end_s]).range([M.left, W - M.right]);
  const round = (v) => Math.round(v * 10) / 10;
  const laneIndex = Object.fromEntries(model.lanes.map((l, i) => [l.key, i]));
  const bars = model.bars.map((b) => ({
    ...b, x: round(x(b.start_s)), width: Math.max(1, round(x(b.end_s) - x(b.start_s))), y: M.top + laneIndex[b.lane] * LANE_H + 20, height: 20,
  }));
  const fractions = wide ? [0, 0.25, 0.5, 0.75, 1] : [0, 0.5, 1];
  const axisY = M.top + model.lanes.length * LANE_H + 4;
  const u = secondsUnit(model.end_s);
  const ticks = fractions.map((fr, i) => ({
    x: round(x(fr * model.end_s)), text: `${formatNumber2(fr * model.end_s * u.scale)}${UNIT_SPACE}${u.label}`,
    anchor: i === 0 ? 'start' : i === fractions.length - 1 ? 'end' : 'middle',
  }));
  return {
    W, H: axisY + 24, wide, bars, ticks, axisY,
    // A lane with no bar says so in words (a free interconnect, one device).
    lanes: model.lanes.map((l, i) => ({ ...l, y: M.top + i * LANE_H + 14, rule: M.top + i * LANE_H + 42,
      empty: model.bars.some((b) => b.lane === l.key) ? null : { text: 'nothing here takes time', x: M.left, y: M.top + i * LANE_H + 34 } })),
    x1: M.left, x2: W - M.right,
  };
}

// ---- 3. the communication tax (comm-tax-chart.js)

export const R_NOISE = 1e-9;

// The chapter's speedup N / (1 + (N − 1) r) for the engine's r.
export const chapterSpeedup = (n, r) => n / (1 + (n - 1) * r);

// points: the act's engine results for N = 1, 2, 4, … 1,024 ([{ devices, speedup, fits? }]).
export function commTaxModel(result, points = []) {
  const p = result.parallel;
  // An r this small is the engine's rounding (a free interconnect gives ~3e-17), not a ceiling.
  const r = Math.abs(p.communication_ratio) < R_NOISE ? 0 : p.communication_ratio;
  const ceiling = r > 0 ? 1 / r : null;
  const engine = points.filter((q) => Number.isFinite(q.devices) && q.devices >= 1 && Number.isFinite(q.speedup) && q.speedup > 0)
    .map((q) => ({ devices: q.devices, speedup: q.speedup, fits: q.fits !== false }));
  // The axis runs to 1,024 devices, or to the next power of two that holds every point drawn.
  const maxDevices = 2 ** Math.ceil(Math.log2(Math.max(1024, p.devices, ...engine.map((q) => q.devices))));
  const curve = Array.from({ length: 8 * Math.log2(maxDevices) + 1 }, (_, k) => { const n = 2 ** (k / 8); return { devices: n, speedup: chapterSpeedup(n, r) }; });
  const fits = result.memory ? result.memory.fits : true;
  const scenario = { devices: p.devices, speedup: p.speedup, efficiency: p.scaling_efficiency, fits };
  const at1024 = chapterSpeedup(1024, r);
  const ceilingWords = ceiling ? `levels off toward 1/r = ${formatRatio(ceiling)}: 1,024 devices would give ${formatRatio(at1024)}, not 1,024×`
    : 'stays on the ideal line: communication costs nothing here';
  const pace = p.speedup >= 1 ? `${formatRatio(p.speedup)} faster than one device` : `slower than one device (${formatRatio(p.speedup)} its speed)`;
  const here = `${devicesWords(p)}: ${pace}, ${formatPercent(p.scaling_efficiency)} efficiency${fits ? '' : ', but it does not fit in memory'}`;
  const summary = `With this setup’s communication ratio r = ${formatR(r)}, the chapter’s curve N / (1 + (N − 1) r) ${ceilingWords}. This setup, ${here}.`;
  const rows = engine.map((q) => ({
    key: `n${q.devices}`, header: formatInt(q.devices),
    cells: [{ text: formatRatio(q.speedup), value: q.speedup }, { text: formatRatio(chapterSpeedup(q.devices, r)), value: chapterSpeedup(q.devices, r) },
      { text: q.fits ? 'yes' : '✕ no', cls: q.fits ? null : 'cell--over' }],
  }));
  return {
    r, ceiling, curve, engine, scenario, summary, max_devices: maxDevices,
    tables: [{ caption: `Speedup against one device. ${summary}`, columns: ['Devices', 'Engine', 'Chapter’s curve', 'Fits in memory'], rows }],
  };
}

export function commTaxLayout(model, W) {
  const wide = W >= NARROW_PX;
  const H = 300;
  const M = { top: 16, right: wide ? 16 : 10, bottom: 42, left: 0 };
  const lows = [1, ...model.engine.map((q) => q.speedup), model.scenario.speedup].filter((v) => v > 0);
  const lo = Math.min(...lows) / 1.3;
  const yTickText = (v) => `${v >= 1 ? formatInt(v) : Number(v.toPrecision(2))}×`;
  const top = model.max_devices * 1.15;
  const yTicks = decadeTicks(lo, top, 5);
  M.left = leftMargin(yTicks.map(yTickText));
  const x = scaleLog().base(2).domain([1, model.max_devices]).range([M.left, W - M.right]);
  const y = scaleLog().domain([lo, top]).range([H - M.bottom, M.top]);
  const round = (v) => Math.round(v * 10) / 10;
  const path = (pts) => pts.map((q, i) => `${i ? 'L' : 'M'}${round(x(q.devices))},${round(y(Math.max(lo, q.speedup)))}`).join('');
  const s = model.scenario;
  const sx = round(x(Math.max(1, s.devices)));
  const sy = round(y(Math.max(lo, s.speedup)));
  const words = `${s.fits ? 'this setup' : wide ? '✕ this setup (does not fit)' : '✕ does not fit'}: ${formatRatio(s.speedup)}`;
  const ceil = model.ceiling && model.ceiling < top && model.ceiling > lo ? round(y(model.ceiling)) : null;
  const x1 = M.left;
  const x2 = W - M.right;
  const points = model.engine.map((q) => ({ ...q, cx: round(x(q.devices)), cy: round(y(Math.max(lo, q.speedup))) }));
  const ceilingText = model.ceiling ? `ceiling 1/r = ${formatRatio(model.ceiling)}` : '';
  const items = [
    { key: 'scenario', cls: s.fits ? 'mark-label' : 'mark-label mark-label--bad', text: words,
      candidates: [
        ...[[9, -9, 'start'], [9, 19, 'start'], [-9, -9, 'end'], [-9, 19, 'end'], [0, -14, 'middle'], [0, 24, 'middle']].map(([dx, dy, anchor]) => ({ x: sx + dx, y: sy + dy, anchor })),
        // A narrow plot: at its left or right edge, above or below the point.
        ...[-14, 24].flatMap((dy) => [{ x: x1 + 2, y: sy + dy, anchor: 'start' }, { x: x2, y: sy + dy, anchor: 'end' }]),
      ] },
    ceil === null ? null : { key: 'ceiling', cls: 'mark-label', text: ceilingText, optional: true,
      candidates: [{ x: x1 + 4, y: ceil - 5, anchor: 'start' }, { x: x1 + 4, y: ceil + 15, anchor: 'start' }, { x: x2 - 4, y: ceil + 15, anchor: 'end' }, { x: x2 - 4, y: ceil - 5, anchor: 'end' }] },
    // Above-left of the ideal line (the curve runs below it).
    { key: 'ideal', cls: 'mark-label mark-label--soft', text: 'ideal: N×', optional: true,
      candidates: [256, 128, 512, 64, 32].map((n) => ({ x: round(x(n)) - 6, y: round(y(n)) - 6, anchor: 'end' })) },
  ].filter(Boolean);
  // Inside the plot, clear of the axes' tick words.
  const labels = placeLabels(items, { left: x1, right: W, top: 0, bottom: H - M.bottom }, [dotBox(sx, sy, 8), ...points.map((q) => dotBox(q.cx, q.cy, 5))]);
  return {
    W, H, M, wide,
    ideal: path([{ devices: 1, speedup: 1 }, { devices: model.max_devices, speedup: model.max_devices }]),
    curve: path(model.curve),
    points,
    scenario: { ...s, cx: sx, cy: sy },
    ceiling: ceil === null ? null : { y: ceil },
    labels,
    // A tick word ("32,768") takes ~45 px, and the last one ends at the axis's end: ticks 64 px apart at least.
    xTicks: deviceTicks(wide, model.max_devices, Math.ceil(64 / ((x2 - x1) / Math.log2(model.max_devices)))).map((n) => ({ x: round(x(n)), text: formatInt(n) })),
    yTicks: yTicks.map((v) => ({ y: round(y(v)), text: yTickText(v) })),
    xTitle: axisTitleUnder('Devices N (log scale)', M.left, W - M.right, W, H - 6),
    yTitle: { text: 'Speedup (log scale)', x: 12, y: (M.top + H - M.bottom) / 2 },
    base: H - M.bottom, x1: M.left, x2: W - M.right,
  };
}

// ---- 4. the crossover (crossover-chart.js)

// Which crossover the scenario's communication is: fully sharded (ZeRO-3) or data parallel (DDP, ZeRO-1/2).
export const crossoverKind = (p) => (p.zero_stage === 3 ? 'fully_sharded' : 'data_parallel');

// The two lines that meet at the engine's crossover: the compute that hides the communication (the
// backward pass for data parallel's all-reduce; forward + backward for full sharding's gathers) and
// that communication, from formulas.crossover (their quotient is the crossover). Without those
// parts (an older engine): the contract's compute_s_per_token and communication_s.
const CROSS_WORDS = {
  data_parallel: { compute: 'backward pass', comm: 'gradient all-reduce', band: 'the all-reduce cannot hide behind the backward pass' },
  fully_sharded: { compute: 'forward + backward', comm: 'ZeRO-3 gathers and reduce-scatter', band: 'the gathers cannot hide behind compute' },
};
export function crossoverParts(p) {
  const kind = crossoverKind(p);
  const f = p.formulas && p.formulas.crossover;
  const slope = f && (kind === 'data_parallel' ? f.backward_s_per_token : f.compute_s_per_token);
  const seconds = f && f[`${kind}_seconds`];
  if (Number.isFinite(slope) && slope > 0 && Number.isFinite(seconds)) return { kind, k: slope, comm: seconds, words: CROSS_WORDS[kind] };
  return { kind, k: p.compute_s_per_token, comm: p.communication_s, words: { compute: 'compute', comm: 'communication', band: 'communication cannot hide' } };
}

export function crossoverModel(result) {
  const p = result.parallel;
  const { kind, k, comm, words } = crossoverParts(p);
  const tokens = p.tokens_per_device;
  const cross = p.crossover_tokens_per_device[kind];
  const has = comm > 0 && cross > 0;
  const ic = p.interconnect.name;
  const dev = result.device && result.device.name ? `the ${result.device.name}` : 'this device';
  const compute = k * tokens;
  const verdict = !has ? (p.data_parallel === 1 ? 'with one copy of the model there is nothing to synchronise, so no crossover'
    : `communication over ${ic} takes no time, so there is no crossover`)
    : tokens >= cross ? `at least the crossover of ${formatInt(cross)}, so the ${words.comm} can hide behind the ${words.compute}`
      : `fewer than the crossover of ${formatInt(cross)}, so the ${words.comm} cannot all hide behind the ${words.compute}`;
  const summary = `Each device computes ${formatInt(tokens)} tokens per step (the ${words.compute} takes ${formatSeconds(compute)} on ${dev}`
    + `${has ? `, the ${words.comm} ${formatSeconds(comm)} over ${ic}` : ''}): ${verdict}.`;
  const lows = [tokens, has ? cross : tokens].filter((v) => v > 0);
  // A fixed span of 100 to a million tokens (wider only when a value needs it), so that a change of
  // device or interconnect moves the lines and the crossover, not the axis under them.
  const lo = Math.min(100, 10 ** Math.floor(Math.log10(Math.min(...lows) / 3)));
  const hi = Math.max(1e6, 10 ** Math.ceil(Math.log10(Math.max(...lows) * 3)));
  const crossCell = (v) => ({ text: v > 0 ? formatInt(v) : '—', value: v });
  const rows = [
    { key: 'tokens', header: 'Tokens per device per step', cells: [{ text: formatInt(tokens), value: tokens }] },
    { key: 'compute', header: `The ${words.compute}, per step`, cells: [{ text: formatSeconds(compute), value: compute }] },
    { key: 'comm', header: `The ${words.comm}, per step (${ic})`, cells: [{ text: formatSeconds(comm), value: comm }] },
    { key: 'data_parallel', header: 'Crossover, data parallel (tokens per device)', cells: [crossCell(p.crossover_tokens_per_device.data_parallel)] },
    { key: 'fully_sharded', header: 'Crossover, fully sharded (tokens per device)', cells: [crossCell(p.crossover_tokens_per_device.fully_sharded)] },
  ];
  return {
    k, tokens, comm, kind, cross: has ? cross : null, lo, hi, hides: has ? tokens >= cross : true, summary, interconnect: ic, words,
    tables: [{ caption: `Compute against communication. ${summary}`, columns: ['Quantity', 'Value'], rows }],
  };
}

export function crossoverLayout(model, W) {
  const wide = W >= NARROW_PX;
  const H = 290;
  const M = { top: 18, right: wide ? 16 : 10, bottom: 42, left: 0 };
  const ys = [model.k * model.lo, model.k * model.hi, ...(model.comm > 0 ? [model.comm] : [])];
  const ylo = 10 ** Math.floor(Math.log10(Math.min(...ys)));
  const yhi = 10 ** Math.ceil(Math.log10(Math.max(...ys)));
  const yTicks = decadeTicks(ylo, yhi, 5);
  M.left = leftMargin(yTicks.map(secondsTick));
  const x = scaleLog().domain([model.lo, model.hi]).range([M.left, W - M.right]);
  const y = scaleLog().domain([ylo, yhi]).range([H - M.bottom, M.top]);
  const round = (v) => Math.round(v * 10) / 10;
  const sx = round(x(model.tokens));
  const sy = round(y(model.k * model.tokens));
  const cx = model.cross ? round(x(Math.min(model.hi, Math.max(model.lo, model.cross)))) : null;
  const base = H - M.bottom;
  const x1 = M.left;
  const x2 = W - M.right;
  const along = (f) => ({ x: round(x1 + (x2 - x1) * f), y: round(y(model.k * 10 ** (Math.log10(model.lo) + f * Math.log10(model.hi / model.lo)))) });
  const beside = (px, py, text, gap) => { const b = placeBeside(px, text, x1 + 2, x2, gap); return { x: b.tx, y: py, anchor: b.anchor }; };
  const cy = model.comm > 0 ? round(y(model.comm)) : null;
  const items = [
    cx === null ? null : { key: 'cross', cls: 'mark-label', text: `crossover ${formatInt(model.cross)}`, candidates: [beside(cx, M.top + 12, `crossover ${formatInt(model.cross)}`, 5), beside(cx, M.top + 28, `crossover ${formatInt(model.cross)}`, 5)] },
    { key: 'scenario', cls: model.hides ? 'mark-label' : 'mark-label mark-label--bad', text: `this setup: ${formatInt(model.tokens)} tokens`,
      candidates: [base - 8, sy - 10, sy + 20, base - 24].map((yy) => beside(sx, yy, `this setup: ${formatInt(model.tokens)} tokens`, 6)) },
    cy === null ? null : { key: 'comm', cls: 'mark-label', text: `${wide ? model.words.comm : 'communication'} ${formatSeconds(model.comm)}`,
      candidates: [{ x: x1 + 4, y: cy - 6, anchor: 'start' }, { x: x2 - 4, y: cy - 6, anchor: 'end' }, { x: x1 + 4, y: cy + 16, anchor: 'start' }, { x: x2 - 4, y: cy + 16, anchor: 'end' }] },
    // Under the compute line (it rises to the right, so the space below-right of it is open).
    { key: 'compute', cls: 'mark-label', text: model.words.compute, candidates: [0.2, 0.45, 0.7, 0.1].map((f) => ({ x: along(f).x, y: along(f).y + 18, anchor: 'start' })) },
    model.comm > 0 ? null : { key: 'note', cls: 'mark-label mark-label--soft', text: wide ? 'no communication line: it takes no time' : 'communication takes no time', candidates: [{ x: x1 + 6, y: M.top + 14, anchor: 'start' }, { x: x2 - 6, y: base - 8, anchor: 'end' }] },
  ].filter(Boolean);
  const labels = placeLabels(items, { left: x1, right: W, top: 0, bottom: base }, [dotBox(sx, sy, 7)]);
  return {
    W, H, M, wide,
    compute: { x1: M.left, y1: round(y(model.k * model.lo)), x2: W - M.right, y2: round(y(model.k * model.hi)) },
    comm: cy === null ? null : { y: cy, x1, x2 },
    // The band left of the crossover: there communication takes longer than compute and cannot hide.
    band: cx === null ? null : { x: M.left, width: Math.max(0, cx - M.left), y: M.top, height: H - M.bottom - M.top },
    cross: cx === null ? null : { x: cx },
    scenario: { x: sx, cy: sy },
    labels,
    xTicks: decadeTicks(model.lo, model.hi, wide ? 7 : 4).map((v) => ({ x: round(x(v)), text: countTick(v) })),
    yTicks: yTicks.map((v) => ({ y: round(y(v)), text: secondsTick(v) })),
    xTitle: axisTitleUnder(wide ? 'Tokens per device per step (log scale)' : 'Tokens per device (log scale)', M.left, W - M.right, W, H - 6),
    yTitle: { text: 'Time per step (log scale)', x: 12, y: (M.top + H - M.bottom) / 2 },
    base: H - M.bottom, top: M.top,
  };
}
