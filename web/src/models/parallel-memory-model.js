// Act 3's per-device memory chart as a DOM-free model (charts/parallel-memory-chart.js draws it): the
// heaviest device's components stacked, the four ZeRO stages beside it, the summary and table rows.
// Only arithmetic on the engine's numbers; no physics.
import { scaleLinear } from 'd3-scale';
import { COMPONENT_LABELS, SHORT_LABELS, componentBytes } from './ledger-model.js';
import { fitState, STATE_ICONS } from './fit-state.js';
import { formatBytes, formatAmount, unitOf } from '../format/format.js';
import { NARROW_PX, CHAR_PX, STAGE_WORDS, stageName, devicesWords } from './parallel-chart-common.js';

// ---- 1. the per-device memory ledger (parallel-memory-chart.js)

// The lab's components plus the two that exist only across devices, in words for students.
export const PARALLEL_COMPONENT_LABELS = {
  ...COMPONENT_LABELS,
  gradient_buckets: 'Gradient buckets (DDP’s copy of the gradients, sent in pieces)',
  gathered_parameters: 'Gathered layers (full weights of the layers in use, fetched from the other devices)',
};
// Short names for the legend (the table twin has the long ones); the less plain ones glossed in a few words.
const LEGEND_LABELS = {
  weights: 'Weights', autocast_cache: '16-bit weight copies', master_weights: 'FP32 master copy', gradients: 'Gradients',
  gradient_buckets: 'Gradient buckets', momentum: 'Momentum', adam_m: 'Adam m', adam_v: 'Adam v',
  gathered_parameters: 'Gathered layers (fetched from other GPUs)', activations: 'Activations', logits: 'Logits',
  reserve: 'Reserve (CUDA and framework overhead)', transient: 'Transient (short-lived buffers)',
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
// The layout beside data parallelism, in words ('pipeline', 'tensor parallel'), or null for none.
export const layoutOf = (p) => (p.pipeline_parallel > 1 ? 'pipeline' : p.tensor_parallel > 1 ? 'tensor parallel' : null);

// The memory chart's model: the device's stack, the four stages beside it, summary and table rows.
export function memoryModel(result, { units = 'gb', deviceName } = {}) {
  const m = result.memory;
  const p = result.parallel;
  const f = (b) => formatBytes(b, units);
  let y = 0;
  const segments = deviceComponents(result).map((s) => { const seg = { ...s, y0: y, y1: y + s.bytes }; y += s.bytes; return seg; });
  const state = fitState(m);
  const budget = m.usable_device_bytes;
  // Under tensor or pipeline parallelism the stages are that layout with each ZeRO stage on its
  // data-parallel copies: stage 0 is the layout alone ("No ZeRO"), not DDP.
  const layout = layoutOf(p);
  const stageWords = (z) => (layout && z === 0 ? `${layout} alone (no ZeRO)` : STAGE_WORDS[z] || stageName(z));
  const stages = (p.memory_by_stage || []).map((s) => ({
    zero_stage: s.zero_stage, name: layout && s.zero_stage === 0 ? 'No ZeRO' : stageName(s.zero_stage), static_bytes: s.static_bytes, peak_bytes: s.peak_bytes,
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
  const summary = `With ${stageWords(p.zero_stage)} on ${devicesWords(p)}, each ${name} peaks at ${f(m.peak_bytes)} `
    + `of the ${f(budget)} it can use: it ${how}.${stages.length ? ` Peak per device by stage: ${byStage}.` : ''}`;
  const rows = segments.map((s) => ({ key: s.key, header: s.label, cells: [{ text: f(s.bytes), value: s.bytes }] }));
  rows.push({ key: 'total', header: 'Peak on this device', cls: 'row--sum', cells: [{ text: `${f(m.peak_bytes)} (${STATE_WORDS[state]})`, value: m.peak_bytes, cls: state === 'ok' ? null : 'cell--over' }] });
  rows.push({ key: 'budget', header: 'Usable memory per device', cls: 'row--sum', cells: [{ text: f(budget), value: budget }] });
  const stageRows = stages.map((s) => ({
    key: `stage-${s.zero_stage}`, header: `${stageWords(s.zero_stage)}${s.selected ? ' (selected)' : ''}`,
    cells: [{ text: f(s.static_bytes), value: s.static_bytes }, { text: f(s.peak_bytes), value: s.peak_bytes },
      { text: s.fits ? '✓ fits' : '✕ does not fit', cls: s.fits ? null : 'cell--over' }],
  }));
  return {
    units, device, stages, layout, budget_bytes: budget, max_bytes: max, summary,
    // The stack's terms add up to its height: the components (with the transient) sum to the peak.
    adds_up: device.stack_is_peak || Math.abs(y - m.total_bytes) <= 1,
    tables: [
      { caption: `Memory on one device. ${summary}`, columns: ['Component', 'Bytes per device'], rows },
      { caption: `The same devices${layout ? `, ${layout} with each ZeRO stage` : ', each ZeRO stage'} (peak includes activations and the reserve)`, columns: ['Stage', 'Model state', 'Peak', 'Fits?'], rows: stageRows },
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
    return {
      ...s, x, width: round(stageW), top, static_top: staticTop, base: round(y(0)),
      ...stageValue(s, { cx: round(x + stageW / 2), top, step, clear, units: model.units }),
      // "ZeRO-1" where it fits its step with room to spare (12 px names: ~7.4 px a character), else "Z1" ("None").
      name: { text: s.name.length * 7.4 <= step - 8 ? s.name : s.name === 'No ZeRO' ? 'None' : s.name.replace('ZeRO-', 'Z'), x: round(x + stageW / 2), y: H - M.bottom + 16 },
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
      // The column is the setup chosen, one of its devices (the heaviest), not a run on one device.
      name: { text: 'This setup', x: mainX + mainW / 2, y: H - M.bottom + 16 } },
    stages, stagesTitle: { text: stagesTitle(model.layout, wide), x: groupX0 + groupW / 2, y: H - M.bottom + 34 },
    // In the top margin, where no column's words can meet it (beside the line it crossed the stages' amounts).
    budget: { y: yb, x1: M.left, x2: W - M.right, text: `– – usable per device: ${f(model.budget_bytes)}`, tx: M.left, ty: 14, anchor: 'start' },
  };
}

// Words under the stage columns: by ZeRO stage, or (tensor or pipeline parallelism) that layout with each stage.
function stagesTitle(layout, wide) {
  if (!layout) return wide ? 'Peak per device, by ZeRO stage' : 'By ZeRO stage';
  const name = layout.charAt(0).toUpperCase() + layout.slice(1);
  return wide ? `${name} with each ZeRO stage` : `${name} + ZeRO`;
}

// A stage column's amount above it (bold 11.5 px: ~7 px a character): "✕ 29.33" where that fits its
// step, else the amount with the ✕ on a line above it; where not even the amount fits, "✕" alone.
// `clear(y, lines)` moves words off the budget line.
function stageValue(s, { cx, top, step, clear, units }) {
  const amount = formatAmount(s.peak_bytes, units);
  const fits = (t) => t.length * 7 <= step - 4;
  if (s.fits || fits(`✕ ${amount}`)) {
    const text = s.fits ? (fits(amount) ? amount : '') : `✕ ${amount}`;
    return { value: { text, x: cx, y: clear(top - 6) }, mark: { text: '', x: cx, y: clear(top - 6) } };
  }
  const y = clear(top - 6, 2);
  return fits(amount) ? { value: { text: amount, x: cx, y }, mark: { text: '✕', x: cx, y: y - 14 } }
    : { value: { text: '✕', x: cx, y }, mark: { text: '', x: cx, y } };
}
