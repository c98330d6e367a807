// Act 3's one-step timeline as a DOM-free model (charts/parallel-timeline-chart.js draws it): the
// engine's schematic timeline as compute and communication lanes, its words and table rows.
import { scaleLinear } from 'd3-scale';
import { formatBytes, formatInt, formatNumber2, formatSeconds, UNIT_SPACE } from '../format/format.js';
import { NARROW_PX, devicesWords, secondsUnit, secondsSum } from './parallel-chart-common.js';

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
