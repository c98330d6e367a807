// Act 3's per-device memory ledger as SVG: the heaviest device's components stacked as in Act 1 (the
// same colours and names; DDP's gradient buckets and ZeRO-3's gathered layers striped, as copies of
// gradients and weights), the device's usable memory as a dashed line, and beside it the peak per
// device for ZeRO stages 0–3 at the same device counts. A stack over the line is hatched and says
// "✕ does not fit" (never drawn as working). Layout: memoryLayout() in models/parallel-memory-model.js.
//
// mountParallelMemoryChart(container, { format }) → { update(result, context), destroy() }
//   format:  'gb' | 'gib' or { units } (default GB).
//   result:  evaluate's JSON with `memory` (per device) and `parallel` (memory_by_stage).
//   context: { units?, deviceName? } — units override `format`; deviceName for the summary
//            (default: result.device.name).
import { select } from 'd3-selection';
import { ParallelChart, writeLabels, setLine, setAttrs } from './parallel-chart-frame.js';
import { attr, text } from './changed.js';
import { memoryModel, memoryLayout } from '../models/parallel-memory-model.js';
import { unitsOf } from '../models/parallel-chart-common.js';
import { unitOf } from '../format/format.js';

class ParallelMemoryChart extends ParallelChart {
  constructor(container, units) {
    super(container, { name: 'Memory per device', className: 'pmem', tables: 2 });
    this.units = units;
    const f = this.frame;
    this.hatch = f.pattern('hatch');
    this.stripes = f.pattern('stripes', { size: 6, width: 2 });
    this.gGrid = f.svg.append('g').attr('class', 'grid');
    this.yTitle = f.svg.append('text').attr('class', 'axis-title').attr('text-anchor', 'middle');
    this.gSegs = f.svg.append('g').attr('class', 'device-stack');
    this.gStages = f.svg.append('g').attr('class', 'stages');
    this.budget = f.svg.append('line').attr('class', 'budget-line');
    // Presentation attributes (the CSP forbids inline styles): the text colour, light and dark.
    this.peakMark = f.svg.append('line').attr('class', 'peak-mark').attr('stroke', 'currentColor').attr('stroke-width', 3.5).attr('stroke-linecap', 'round');
    this.gText = f.svg.append('g').attr('class', 'labels');
  }

  draw(result, context) {
    const units = context.units || this.units;
    const model = memoryModel(result, { units, deviceName: context.deviceName });
    const L = memoryLayout(model, this.width());
    const g = this.gGrid.selectAll('g.tick').data(L.ticks, (t) => t).join((e) => { const t = e.append('g').attr('class', 'tick'); t.append('line').attr('class', 'grid-line'); t.append('text').attr('class', 'tick-label').attr('text-anchor', 'end'); return t; });
    const yu = (t) => L.y(t * unitOf(units).bytes);
    g.each(function tick(t) {
      const yy = Math.round(yu(t) * 10) / 10;
      setLine(select(this).select('line'), L.M.left, yy, L.W - L.M.right, yy);
      text(attr(attr(select(this).select('text'), 'x', L.M.left - 6), 'y', yy + 4), L.tickFormat(t));
    });
    text(attr(this.yTitle, 'transform', `translate(${L.wide ? 14 : 11},${(L.M.top + L.H - L.M.bottom) / 2}) rotate(-90)`), L.axisTitle);

    // The device's stack, each segment with a stripe overlay for the copies and its label inside.
    const segs = this.gSegs.selectAll('g.seg-group').data(L.device.segs, (s) => s.key).join((e) => {
      const s = e.append('g').attr('class', 'seg-group');
      s.append('rect').attr('class', 'seg');
      s.append('rect').attr('class', 'seg-stripes');
      s.append('text').attr('class', 'seg-label').attr('text-anchor', 'middle');
      return s;
    });
    const stripes = this.stripes;
    segs.each(function seg(s) {
      const [rect, over, label] = this.children;
      const box = { x: s.x, width: s.width, y: s.y, height: s.height };
      setAttrs(rect, { ...box, class: `seg seg--${s.key}`, 'data-key': s.key });
      setAttrs(over, { ...box, fill: s.striped ? stripes : 'none' });
      setAttrs(label, { class: `seg-label seg-label--${s.key}`, x: s.label.x, y: s.label.y });
      if (label.textContent !== s.label.text) label.textContent = s.label.text;
    });
    let hatch = this.gSegs.select('rect.hatch');
    if (hatch.empty()) hatch = this.gSegs.append('rect').attr('class', 'hatch');
    const d = L.device;
    attr(attr(attr(attr(attr(attr(hatch, 'x', d.x), 'width', d.width), 'y', d.top), 'height', Math.max(0, d.base - d.top)), 'fill', d.state === 'ok' ? 'none' : this.hatch), 'data-state', d.state);
    this.gSegs.attr('data-state', d.state).attr('data-peak-bytes', model.device.peak_bytes);

    // The stages: model state (solid) under the rest of the peak; over budget hatched with ✕.
    const st = this.gStages.selectAll('g.stage').data(L.stages, (s) => s.zero_stage).join((e) => {
      const s = e.append('g').attr('class', 'stage');
      s.append('rect').attr('class', 'stage-static');
      s.append('rect').attr('class', 'stage-rest');
      s.append('rect').attr('class', 'stage-hatch');
      s.append('rect').attr('class', 'stage-outline');
      return s;
    });
    const hatchUrl = this.hatch;
    st.each(function stage(s) {
      const [stat, rest, hat, outline] = this.children;
      setAttrs(this, { 'data-stage': s.zero_stage, 'data-state': s.state });
      const set = setAttrs;
      set(stat, { x: s.x, width: s.width, y: s.static_top, height: Math.max(0, s.base - s.static_top) });
      set(rest, { x: s.x, width: s.width, y: s.top, height: Math.max(0, s.static_top - s.top) });
      set(hat, { x: s.x, width: s.width, y: s.top, height: Math.max(0, s.base - s.top), fill: s.fits ? 'none' : hatchUrl });
      set(outline, { x: s.x - 2.5, width: s.width + 5, y: s.top - 2.5, height: Math.max(0, s.base - s.top) + 2.5, display: s.selected ? null : 'none' });
    });
    setLine(this.budget, L.budget.x1, L.budget.y, L.budget.x2, L.budget.y);
    attr(this.peakMark, 'display', d.peakMark ? null : 'none');
    if (d.peakMark) setLine(this.peakMark, d.peakMark.x1, d.peakMark.y, d.peakMark.x2, d.peakMark.y);

    // Words: the budget, the device's peak and state, the stage values and names.
    const labels = [
      { key: 'budget', cls: 'budget-label', x: L.budget.tx, y: L.budget.ty, anchor: L.budget.anchor, text: L.budget.text },
      { key: 'total', cls: 'mark-label', x: d.total.x, y: d.total.y, anchor: 'middle', text: d.total.text },
      { key: 'flag', cls: 'mark-label mark-label--bad', x: d.flagPos.x, y: d.flagPos.y, anchor: 'middle', text: d.flag },
      { key: 'name', cls: 'col-name col-name--selected', x: d.name.x, y: d.name.y, anchor: 'middle', text: d.name.text },
      { key: 'stages', cls: 'mark-label mark-label--soft', x: L.stagesTitle.x, y: L.stagesTitle.y, anchor: 'middle', text: L.stagesTitle.text },
      ...L.stages.flatMap((s) => [
        { key: `v${s.zero_stage}`, cls: s.fits ? 'mark-label' : 'mark-label mark-label--bad', x: s.value.x, y: s.value.y, anchor: 'middle', text: s.value.text },
        { key: `x${s.zero_stage}`, cls: 'mark-label mark-label--bad', x: s.mark.x, y: s.mark.y, anchor: 'middle', text: s.mark.text },
        { key: `n${s.zero_stage}`, cls: `col-name${s.selected ? ' col-name--selected' : ''}`, x: s.name.x, y: s.name.y, anchor: 'middle', text: s.name.text },
      ]),
    ];
    writeLabels(this.gText, labels);

    const key = [
      ...[...model.device.segments].reverse().map((s) => ({ cls: `swatch--${s.key}`, text: s.legend })),
      { cls: 'swatch--stage-static', text: 'Stages: model state' },
      { cls: 'swatch--stage-rest', text: 'Stages: rest of the peak' },
      { cls: 'swatch--usable', text: 'Usable memory' },
      ...(d.peakMark ? [{ cls: 'swatch--peak-mark', text: 'Peak during a step (the column: the sum of the parts)' }] : []),
    ];
    this.frame.frame({ W: L.W, H: L.H, summary: model.summary, key, tables: model.tables });
  }
}

export function mountParallelMemoryChart(container, { format } = {}) {
  return new ParallelMemoryChart(container, unitsOf(format)).api();
}
