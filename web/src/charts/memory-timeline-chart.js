// The measured memory timeline of one training step as SVG (d3-scale, d3-axis, d3-shape,
// d3-selection): live bytes at the end of each phase stacked by category (the ledger's colours, with
// an HTML legend), the highest point reached inside each phase (measured: solid; predicted: dashed),
// bands naming forward / backward / optimizer, the peak marked with its phase, and a dotted line at
// the sum of every category's own maximum, which the peak stays below. View model: timelineModel()
// in measure-model.js; table twin: charts/data-table.js.
import { select } from 'd3-selection';
import { scaleLinear } from 'd3-scale';
import { axisLeft } from 'd3-axis';
import { area, line, stack, curveStepAfter } from 'd3-shape';
import { formatSmallBytes, formatTickBytes } from '../format.js';
import { h, replaceChildren } from '../ui/dom.js';
import { phaseWords } from '../measure-model.js';

const W = 640;
const H = 360;
const M = { top: 34, right: 150, bottom: 40, left: 70 };
const STAGE_LABEL = { setup: 'setup', forward: 'forward', backward: 'backward', optimizer: 'opt.' };
let chartCount = 0;

export class MemoryTimelineChart {
  constructor(container, { label }) {
    this.label = label;
    this.svg = select(container).append('svg').attr('class', 'chart timeline-chart')
      .attr('viewBox', `0 0 ${W} ${H}`).attr('role', 'img').attr('aria-label', label);
    this.gStages = this.svg.append('g').attr('class', 'stages');
    this.gy = this.svg.append('g').attr('class', 'axis axis--y').attr('transform', `translate(${M.left},0)`);
    this.xTitle = this.svg.append('text').attr('class', 'axis-title').attr('x', (M.left + W - M.right) / 2).attr('y', H - 8)
      .attr('text-anchor', 'middle').text('Phases of one training step, in order');
    this.yTitle = this.svg.append('text').attr('class', 'axis-title')
      .attr('transform', `translate(14,${(M.top + H - M.bottom) / 2}) rotate(-90)`).attr('text-anchor', 'middle');
    const clipId = `timeline-clip-${++chartCount}`;
    this.svg.append('defs').append('clipPath').attr('id', clipId).append('rect')
      .attr('x', M.left).attr('y', M.top).attr('width', W - M.right - M.left).attr('height', H - M.bottom - M.top);
    this.gAreas = this.svg.append('g').attr('class', 'areas').attr('clip-path', `url(#${clipId})`);
    this.sumLine = this.svg.append('line').attr('class', 'sum-line');
    this.sumLabel = this.svg.append('text').attr('class', 'sum-label');
    this.sumName = this.sumLabel.append('tspan').attr('x', W - M.right + 6).text('sum of maxima');
    this.sumValue = this.sumLabel.append('tspan').attr('x', W - M.right + 6).attr('dy', '1.2em');
    this.peakMeasured = this.gAreas.append('path').attr('class', 'peak-line peak-line--measured');
    this.peakPredicted = this.gAreas.append('path').attr('class', 'peak-line peak-line--predicted');
    this.gPeak = this.svg.append('g').attr('class', 'peak-marker');
    this.gPeak.append('line');
    this.gPeak.append('circle').attr('r', 4.5);
    this.peakText = this.gPeak.append('text').attr('class', 'peak-label');
    this.legend = h('ul', { class: 'chart-legend' });
    container.append(this.legend);
  }

  // zoom: start the axis just below the memory held for the whole step (weights, gradients,
  // optimizer state), so what changes within the step fills the height; the title says so.
  update(tl, { units = 'gb', summary = '', zoom = false } = {}) {
    const n = tl.phases.length;
    const x = scaleLinear().domain([0, n]).range([M.left, W - M.right]);
    // The scale runs in MB (or MiB) so that the ticks are round numbers in the unit shown.
    const unit = units === 'gib' ? 2 ** 20 : 1e6;
    const lo = zoom ? Math.min(...tl.phases.map((p) => p.live_total)) * 0.98 : 0;
    const yu = scaleLinear().domain([lo / unit, (tl.max_bytes * (zoom ? 1.01 : 1.08)) / unit]).range([H - M.bottom, M.top]).nice();
    const y = (b) => yu(b / unit);
    this.gy.call(axisLeft(yu).ticks(6).tickFormat((v) => formatTickBytes(v * unit, units)));
    const name = units === 'gib' ? 'MiB' : 'MB';
    this.yTitle.text(zoom ? `Live memory (${name}; axis starts at ${formatTickBytes(yu.domain()[0] * unit, units)})` : `Live memory (${name})`);
    if (summary) this.svg.attr('aria-label', `${this.label}. ${summary}`);

    // Stage bands along the top, with a faint column behind each stage.
    const st = this.gStages.selectAll('g.stage').data(tl.stages, (s) => `${s.stage}-${s.from}`).join((enter) => {
      const g = enter.append('g');
      g.append('rect').attr('class', 'stage-bg');
      g.append('rect').attr('class', 'stage-bar');
      g.append('text').attr('class', 'stage-label').attr('text-anchor', 'middle');
      return g;
    });
    st.attr('class', (s) => `stage stage--${s.stage}`);
    st.select('rect.stage-bg').attr('x', (s) => x(s.from)).attr('width', (s) => x(s.to + 1) - x(s.from))
      .attr('y', M.top).attr('height', H - M.bottom - M.top);
    st.select('rect.stage-bar').attr('x', (s) => x(s.from)).attr('width', (s) => Math.max(1, x(s.to + 1) - x(s.from) - 1))
      .attr('y', M.top - 18).attr('height', 14);
    st.select('text').attr('x', (s) => (x(s.from) + x(s.to + 1)) / 2).attr('y', M.top - 7)
      .text((s) => (x(s.to + 1) - x(s.from) > 30 ? STAGE_LABEL[s.stage] : ''));

    // Live bytes at the end of each phase, stacked; each phase spans [i, i + 1).
    const keys = tl.categories.map((c) => c.key);
    const rows = tl.phases.map((p) => p.live);
    const series = stack().keys(keys)([...rows, rows[n - 1]]);
    const shape = area().curve(curveStepAfter).x((d, i) => x(i)).y0((d) => y(d[0])).y1((d) => y(d[1]));
    this.gAreas.selectAll('path.tl-area').data(series, (s) => s.key).join((enter) => enter.insert('path', 'path.peak-line'))
      .attr('class', (s) => `tl-area seg--${s.key}`).attr('d', shape);

    const step = line().curve(curveStepAfter).x((d, i) => x(i)).y((d) => y(d));
    const measured = tl.phases.map((p) => p.measured_peak);
    const predicted = tl.phases.map((p) => p.predicted_peak);
    this.peakMeasured.attr('d', tl.measured ? step([...measured, measured[n - 1]]) : null);
    this.peakPredicted.attr('d', step([...predicted, predicted[n - 1]]));

    const ys = y(tl.sum_of_max_bytes);
    this.sumLine.attr('x1', M.left).attr('x2', W - M.right).attr('y1', ys).attr('y2', ys);
    this.sumLabel.attr('y', ys - 2);
    this.sumValue.text(formatSmallBytes(tl.sum_of_max_bytes, units));

    const px = x(tl.peakIndex + 0.5);
    const py = y(tl.peak_bytes);
    this.gPeak.select('line').attr('x1', px).attr('x2', px).attr('y1', py).attr('y2', H - M.bottom);
    this.gPeak.select('circle').attr('cx', px).attr('cy', py);
    const right = px > (M.left + W - M.right) / 2;
    // Above the dot, and above the sum-of-maxima line when that line would cross the text.
    const ly = ys <= py - 8 + 4 && ys >= py - 8 - 12 ? ys - 5 : py - 8;
    this.peakText.attr('x', right ? px - 8 : px + 8).attr('y', ly).attr('text-anchor', right ? 'end' : 'start')
      .text(`peak ${formatSmallBytes(tl.peak_bytes, units)}`);
    // Where the peak is, in words, under the phases: too long to sit beside the dot.
    this.xTitle.text(`Phases of one training step, in order. Peak: ${phaseWords(tl.peak_phase)}`);

    replaceChildren(this.legend,
      tl.categories.map((c) => h('li', {}, h('span', { class: `swatch swatch--${c.key}`, 'aria-hidden': 'true' }), c.label)),
      h('li', {}, h('span', { class: 'key-line key-line--measured', 'aria-hidden': 'true' }), 'highest point inside each phase (measured)'),
      h('li', {}, h('span', { class: 'key-line key-line--predicted', 'aria-hidden': 'true' }), 'the same, predicted'));
  }

  reset() {
    this.gAreas.selectAll('path.tl-area').remove();
    this.legend.replaceChildren();
    this.svg.attr('aria-label', this.label);
  }
}
