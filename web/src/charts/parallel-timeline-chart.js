// Act 3's one-step timeline as SVG: the heaviest device's step from the engine's `parallel.timeline`
// (schematic), a compute lane (forward, backward, optimizer step, the pipeline bubble) over a
// communication lane where the part hidden under compute is plain orange and the part the step waits
// for is vermilion, hatched and outlined (never colour alone). Layout: timelineLayout() in
// models/parallel-timeline-model.js; the tables list the step's parts and every collective.
//
// mountParallelTimelineChart(container, { format }) → { update(result, context), destroy() }
//   format:  'gb' | 'gib' or { units } (the collectives' bytes in the table).
//   result:  evaluate's JSON with `parallel` (timeline, step_s, compute_s, bubble_s, …, collectives).
//   context: { units? } (optional; overrides `format`).
import { ParallelChart, setAttrs } from './parallel-chart-frame.js';
import { attr, text } from './changed.js';
import { timelineModel, timelineLayout } from '../models/parallel-timeline-model.js';
import { unitsOf } from '../models/parallel-chart-common.js';

class ParallelTimelineChart extends ParallelChart {
  constructor(container, units) {
    super(container, { name: 'One training step', className: 'ptl', tables: 2, twinLabel: 'The step’s numbers as a table' });
    this.units = units;
    const f = this.frame;
    this.hatch = f.pattern('hatch', { size: 6, width: 2 });
    this.gLanes = f.svg.append('g').attr('class', 'lanes');
    this.gBars = f.svg.append('g').attr('class', 'bars');
    this.gAxis = f.svg.append('g').attr('class', 'time-axis');
  }

  draw(result, context) {
    const model = timelineModel(result, { units: context.units || this.units });
    const L = timelineLayout(model, this.width());
    const lanes = this.gLanes.selectAll('g.lane').data(L.lanes, (l) => l.key).join((e) => {
      const g = e.append('g').attr('class', 'lane');
      g.append('text').attr('class', 'lane-label');
      g.append('line').attr('class', 'lane-rule');
      g.append('text').attr('class', 'lane-empty');
      return g;
    });
    text(attr(attr(lanes.select('text.lane-empty'), 'x', (l) => (l.empty ? l.empty.x : null)), 'y', (l) => (l.empty ? l.empty.y : null)), (l) => (l.empty ? l.empty.text : ''));
    attr(lanes, 'data-lane', (l) => l.key);
    text(attr(attr(lanes.select('text.lane-label'), 'x', L.x1), 'y', (l) => l.y), (l) => l.label);
    attr(attr(attr(attr(lanes.select('line'), 'x1', L.x1), 'x2', L.x2), 'y1', (l) => l.rule), 'y2', (l) => l.rule);

    const bars = this.gBars.selectAll('g.bar-group').data(L.bars, (b) => b.key).join((e) => {
      const g = e.append('g').attr('class', 'bar-group');
      g.append('rect').attr('class', 'bar');
      g.append('rect').attr('class', 'bar-hatch');
      return g;
    });
    const hatch = this.hatch;
    bars.each(function place(b) {
      const [fill, over] = this.children;
      setAttrs(this, { 'data-kind': b.kind, 'data-lane': b.lane, 'data-exposed': String(b.exposed) });
      const box = { x: b.x, width: b.width, y: b.y, height: b.height };
      setAttrs(fill, { ...box, class: `bar ${b.cls}` });
      setAttrs(over, { ...box, fill: b.hatched ? hatch : 'none' });
    });
    const ticks = this.gAxis.selectAll('text').data(L.ticks).join('text');
    attr(ticks, 'class', 'tick-label');
    attr(ticks, 'x', (t) => t.x);
    attr(ticks, 'y', L.axisY + 14);
    attr(ticks, 'text-anchor', (t) => t.anchor);
    text(ticks, (t) => t.text);
    this.frame.frame({ W: L.W, H: L.H, summary: model.summary, key: model.key, tables: model.tables });
  }
}

export function mountParallelTimelineChart(container, { format } = {}) {
  return new ParallelTimelineChart(container, unitsOf(format)).api();
}
