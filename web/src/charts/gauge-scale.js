// The gauges on one shared 0–100% scale, so their order is visible: GPU busy ≥ pipeline efficiency ≥
// MFU, plus HFU when recompute is on and the MFU ceiling as a dashed bar. One row per gauge: its label
// on a line of its own at the left edge, then its bar from 0 to the value on a full-width track, so no
// line ever crosses a label at any width (walk finding MINOR-3); the shared axis is under the rows.
// Drawn in pixels at the box's width and redrawn when it changes (fit-width.js). A step that does not
// fit in memory cannot run: then every bar is greyed and hatched and every label says "if it fitted"
// (issue 23: a line above the gauges was not enough).
import { select } from 'd3-selection';
import { redrawOnResize, observedWidthOr } from './fit-width.js';
import { attr, text } from './changed.js';

const ROW_H = 36; // label line (16 px) + bar (10 px) + gap
const BAR_Y = 19;
const BAR_H = 10;
let count = 0;

export class GaugeScale {
  constructor(container, { label = 'Busy, pipeline efficiency and MFU on one scale' } = {}) {
    this.svg = select(container).append('svg').attr('class', 'chart gauge-scale').attr('width', '100%')
      .attr('role', 'img').attr('aria-label', label);
    this.hatchId = `gauge-hatch-${++count}`;
    this.svg.append('defs').append('pattern').attr('id', this.hatchId).attr('patternUnits', 'userSpaceOnUse')
      .attr('width', 6).attr('height', 6).attr('patternTransform', 'rotate(45)')
      .append('rect').attr('class', 'hatch-stroke').attr('width', 2).attr('height', 6);
    this.gRows = this.svg.append('g');
    this.gAxis = this.svg.append('g').attr('class', 'gauge-axis');
    this.last = null;
    this.drawnWidth = 0;
    this.observer = redrawOnResize(container, this);
  }

  width() { return observedWidthOr(this, () => Math.floor(this.svg.node().getBoundingClientRect().width) || 640); }

  // marks: [{ key, value (0–1), text, dashed? }], in the order the rows are drawn; hypothetical: the
  // step does not fit in memory, so the values are what it would do if it fitted.
  update(marks, { summary, hypothetical = false }) {
    this.last = [marks, { summary, hypothetical }];
    attr(this.svg, 'class', `chart gauge-scale${hypothetical ? ' gauge-scale--oom' : ''}`);
    const width = this.width();
    this.drawnWidth = width;
    const pad = 1;
    const span = Math.max(0, width - 2 * pad);
    const px = (v) => pad + Math.min(1, Math.max(0, v)) * span;
    const axisY = marks.length * ROW_H + 2;
    attr(attr(this.svg, 'height', axisY + 20), 'aria-label', summary);
    const rows = this.gRows.selectAll('g.gauge-row').data(marks, (d) => d.key).join((enter) => {
      const e = enter.append('g').attr('class', 'gauge-row');
      e.append('text').attr('class', 'gauge-label').attr('y', 13);
      e.append('rect').attr('class', 'gauge-track').attr('y', BAR_Y).attr('height', BAR_H);
      e.append('rect').attr('class', 'gauge-bar').attr('y', BAR_Y).attr('height', BAR_H);
      e.append('rect').attr('class', 'gauge-hatch').attr('y', BAR_Y).attr('height', BAR_H);
      return e;
    });
    rows.order();
    attr(rows, 'data-gauge', (d) => d.key);
    attr(rows, 'class', (d) => `gauge-row gauge-row--${d.key}${d.dashed ? ' gauge-row--dashed' : ''}`);
    attr(rows, 'transform', (d, i) => `translate(0,${i * ROW_H})`);
    text(attr(rows.select('.gauge-label'), 'x', pad), (d) => (hypothetical ? `${d.text}, if it fitted` : d.text));
    attr(attr(rows.select('.gauge-track'), 'x', pad), 'width', span);
    attr(attr(rows.select('.gauge-bar'), 'x', pad), 'width', (d) => Math.max(0, px(d.value) - pad));
    const hatch = attr(attr(rows.select('.gauge-hatch'), 'x', pad), 'width', (d) => (hypothetical && !d.dashed ? Math.max(0, px(d.value) - pad) : 0));
    attr(attr(hatch, 'fill', `url(#${this.hatchId})`), 'display', hypothetical ? null : 'none');
    const ticks = [0, 0.25, 0.5, 0.75, 1];
    const marksSel = attr(this.gAxis.selectAll('line').data(ticks).join('line'), 'class', 'gauge-tick-mark');
    attr(attr(marksSel, 'x1', (f) => px(f)), 'x2', (f) => px(f));
    attr(attr(marksSel, 'y1', axisY - 4), 'y2', axisY + 2);
    const tickText = this.gAxis.selectAll('text').data(ticks.filter((f) => f !== 0.25 && f !== 0.75)).join('text');
    attr(attr(attr(tickText, 'class', 'gauge-tick'), 'y', axisY + 16), 'x', (f) => px(f));
    text(attr(tickText, 'text-anchor', (f) => (f === 0 ? 'start' : f === 1 ? 'end' : 'middle')), (f) => `${f * 100}%`);
  }

  reset() {
    if (this.observer) this.observer.disconnect();
    this.last = null;
    this.gRows.selectAll('*').remove();
    this.gAxis.selectAll('*').remove();
  }
}
