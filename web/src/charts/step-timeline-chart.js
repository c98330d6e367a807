// The predicted memory timeline of one training step (the workbench) as SVG: live bytes at each phase
// stacked by category, stage bands (forward / backward / optimizer), the peak marked and the device's
// usable memory as a line. Built for many phases (a 128-block model has ~390): one path per category,
// no element per phase. View model: timelineView() in workbench-view.js; table twin: charts/data-table.js.
// Measure it's measured timeline (few phases, measured and predicted peaks) is memory-timeline-chart.js.
import { select } from 'd3-selection';
import { scaleLinear } from 'd3-scale';
import { axisLeft } from 'd3-axis';
import { area, stack, curveStepAfter } from 'd3-shape';
import { formatBytes, unitOf } from '../format/format.js';
import { h, replaceChildren } from '../ui/dom.js';
import { boxWidth, redrawOnResize, CHAR_PX, NARROW } from './fit-width.js';

const PLOT_H = 240;
const M = { top: 30, right: 12, bottom: 28 };
const STAGE_LABEL = { setup: 'start', forward: 'forward', backward: 'backward', optimizer: 'optimizer' };
const STAGE_SHORT = { setup: '', forward: 'fwd', backward: 'bwd', optimizer: 'opt.' };

export class StepTimelineChart {
  constructor(container, { label }) {
    this.label = label;
    this.container = container;
    this.svg = select(container).append('svg').attr('class', 'chart step-timeline').attr('role', 'img').attr('aria-label', label);
    this.gStages = this.svg.append('g').attr('class', 'stages');
    this.gy = this.svg.append('g').attr('class', 'axis axis--y');
    this.yTitle = this.svg.append('text').attr('class', 'axis-title').attr('text-anchor', 'middle');
    this.xTitle = this.svg.append('text').attr('class', 'axis-title').attr('text-anchor', 'middle').text('Phases of one training step, in order');
    this.gAreas = this.svg.append('g').attr('class', 'areas');
    this.usable = this.svg.append('line').attr('class', 'usable-line');
    this.usableText = this.svg.append('text').attr('class', 'usable-label');
    this.gPeak = this.svg.append('g').attr('class', 'peak-marker');
    this.gPeak.append('line');
    this.gPeak.append('circle').attr('r', 4.5);
    this.peakText = this.gPeak.append('text').attr('class', 'peak-label');
    this.legend = h('ul', { class: 'chart-legend' });
    container.append(this.legend);
    this.resizer = redrawOnResize(container, this);
  }

  // The observer's last width (no layout forced in the middle of an update), else a measurement.
  width() {
    const w = this.observedWidth || boxWidth(this.container, { max: 900 });
    return Math.max(280, Math.min(900, w));
  }

  // tl: timelineView(result); usableBytes: the device's usable memory; units 'gb' | 'gib'.
  update(tl, { usableBytes, units = 'gb', summary = '' } = {}) {
    this.last = [tl, { usableBytes, units, summary }];
    const W = this.width();
    this.drawnWidth = W;
    const wide = W >= NARROW;
    const unit = unitOf(units);
    const H = M.top + PLOT_H + M.bottom;
    const top = Math.max(tl.peak_bytes, usableBytes) * 1.08;
    const yu = scaleLinear().domain([0, top / unit.bytes]).range([H - M.bottom, M.top]).nice();
    const y = (b) => yu(b / unit.bytes);
    const left = 26 + Math.max(...yu.ticks(5).map((v) => String(Number(v.toFixed(2))).length)) * 7;
    const n = tl.phases.length;
    const x = scaleLinear().domain([0, n]).range([left, W - M.right]);
    this.svg.attr('viewBox', `0 0 ${W} ${H}`).attr('data-layout', wide ? 'wide' : 'narrow');
    this.gy.attr('transform', `translate(${left},0)`).call(axisLeft(yu).ticks(5).tickFormat((v) => String(Number(v.toFixed(2)))));
    this.yTitle.attr('transform', `translate(12,${(M.top + H - M.bottom) / 2}) rotate(-90)`).text(`Live memory (${unit.label})`);
    this.xTitle.attr('x', (left + W - M.right) / 2).attr('y', H - 8);
    if (summary) this.svg.attr('aria-label', `${this.label}. ${summary}`);

    const st = this.gStages.selectAll('g.stage').data(tl.stages, (s) => `${s.stage}-${s.from}`).join((enter) => {
      const g = enter.append('g');
      g.append('rect').attr('class', 'stage-bar');
      g.append('text').attr('class', 'stage-label').attr('text-anchor', 'middle');
      return g;
    });
    st.attr('class', (s) => `stage stage--${s.stage}`);
    st.select('rect').attr('x', (s) => x(s.from)).attr('width', (s) => Math.max(1, x(s.to + 1) - x(s.from) - 1)).attr('y', M.top - 20).attr('height', 14);
    st.select('text').attr('x', (s) => (x(s.from) + x(s.to + 1)) / 2).attr('y', M.top - 9).text((s) => {
      const room = x(s.to + 1) - x(s.from) - 4;
      if (STAGE_LABEL[s.stage].length * CHAR_PX <= room) return STAGE_LABEL[s.stage];
      return STAGE_SHORT[s.stage].length * CHAR_PX <= room ? STAGE_SHORT[s.stage] : '';
    });

    // Live bytes at each phase, stacked; phase i spans [i, i + 1).
    const keys = tl.categories.map((c) => c.key);
    const rows = tl.phases.map((p) => p.live);
    const series = stack().keys(keys)([...rows, rows[n - 1]]);
    // One decimal of a pixel: shorter path strings for ~400 phases (the browser parses every 'd').
    const shape = area().digits(1).curve(curveStepAfter).x((d, i) => x(i)).y0((d) => y(d[0])).y1((d) => y(d[1]));
    this.gAreas.selectAll('path').data(series, (s) => s.key).join('path').attr('class', (s) => `tl-area seg--${s.key}`).attr('d', shape);

    const yu2 = y(usableBytes);
    this.usable.attr('x1', left).attr('x2', W - M.right).attr('y1', yu2).attr('y2', yu2);
    this.usableText.attr('x', W - M.right - 4).attr('y', yu2 - 4).attr('text-anchor', 'end').text(`usable ${formatBytes(usableBytes, units)}`);

    const px = x(tl.peakIndex + 0.5);
    const py = y(tl.peak_bytes);
    this.gPeak.select('line').attr('x1', px).attr('x2', px).attr('y1', py).attr('y2', H - M.bottom);
    this.gPeak.select('circle').attr('cx', px).attr('cy', py);
    const right = px > (left + W - M.right) / 2;
    // Below the usable line's label when the two would meet.
    const ly = Math.abs(py - 8 - (yu2 - 4)) < 14 ? py + 18 : py - 8;
    this.peakText.attr('x', right ? px - 8 : px + 8).attr('y', ly).attr('text-anchor', right ? 'end' : 'start')
      .text(`peak ${formatBytes(tl.peak_bytes, units)}`);

    replaceChildren(this.legend,
      [...tl.categories].reverse().map((c) => h('li', {}, h('span', { class: `swatch swatch--${c.key}`, 'aria-hidden': 'true' }), c.label)),
      h('li', {}, h('span', { class: 'key-line key-line--usable', 'aria-hidden': 'true' }), 'usable device memory'));
  }

  reset() {
    this.gAreas.selectAll('path').remove();
    this.legend.replaceChildren();
    this.svg.attr('aria-label', this.label);
  }

  destroy() {
    if (this.resizer) this.resizer.disconnect();
  }
}
