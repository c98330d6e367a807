// The measured memory timeline of one training step as SVG (d3-scale, d3-axis, d3-shape,
// d3-selection): live bytes at the end of each phase stacked by category (the ledger's colours, with
// an HTML legend), the highest point reached inside each phase (measured: solid; predicted: dashed),
// bands naming forward / backward / optimizer, the peak marked with its phase, and a dotted line at
// the sum of every category's own maximum, which the peak stays below. View model: timelineModel()
// in measure-model.js; table twin: charts/data-table.js. Drawn at its box's width: on a narrow box the
// sum-of-maxima label sits inside the plot, stage names shorten where a stage is narrow, and the
// caption under the phases wraps onto as many lines as it needs.
import { select } from 'd3-selection';
import { scaleLinear } from 'd3-scale';
import { axisLeft } from 'd3-axis';
import { area, line, stack, curveStepAfter } from 'd3-shape';
import { formatSmallBytes, formatTickBytes } from '../format/format.js';
import { h, replaceChildren } from '../ui/dom.js';
import { phaseWords } from '../models/measure-model.js';
import { boxWidth, redrawOnResize, wrapText, setLines, CHAR_PX, NARROW } from './fit-width.js';

const PLOT_H = 286; // height of the plot area
const WIDE_M = { top: 34, right: 150, bottom: 40, left: 70 };
const NARROW_M = { top: 34, right: 10, bottom: 40, left: 56 };
const CAPTION_LINE = 15;
const STAGE_LABEL = { setup: 'setup', forward: 'forward', backward: 'backward', optimizer: 'optimizer' };
const STAGE_SHORT = { setup: 'setup', forward: 'fwd', backward: 'bwd', optimizer: 'opt.' };
let chartCount = 0;

export class MemoryTimelineChart {
  constructor(container, { label }) {
    this.label = label;
    this.container = container;
    this.svg = select(container).append('svg').attr('class', 'chart timeline-chart')
      .attr('role', 'img').attr('aria-label', label);
    this.gStages = this.svg.append('g').attr('class', 'stages');
    this.gy = this.svg.append('g').attr('class', 'axis axis--y');
    this.xTitle = this.svg.append('text').attr('class', 'axis-title').attr('text-anchor', 'middle');
    this.yTitle = this.svg.append('text').attr('class', 'axis-title').attr('text-anchor', 'middle');
    const clipId = `timeline-clip-${++chartCount}`;
    this.clip = this.svg.append('defs').append('clipPath').attr('id', clipId).append('rect');
    this.gAreas = this.svg.append('g').attr('class', 'areas').attr('clip-path', `url(#${clipId})`);
    this.sumLine = this.svg.append('line').attr('class', 'sum-line');
    this.sumLabel = this.svg.append('text').attr('class', 'sum-label');
    this.sumName = this.sumLabel.append('tspan').text('sum of maxima');
    this.sumValue = this.sumLabel.append('tspan');
    this.peakMeasured = this.gAreas.append('path').attr('class', 'peak-line peak-line--measured');
    this.peakPredicted = this.gAreas.append('path').attr('class', 'peak-line peak-line--predicted');
    this.gPeak = this.svg.append('g').attr('class', 'peak-marker');
    this.gPeak.append('line');
    this.gPeak.append('circle').attr('r', 4.5);
    this.peakText = this.gPeak.append('text').attr('class', 'peak-label');
    this.legend = h('ul', { class: 'chart-legend' });
    container.append(this.legend);
    this.resizer = redrawOnResize(container, this);
  }

  width() {
    return boxWidth(this.container);
  }

  // zoom: start the axis just below the memory held for the whole step (weights, gradients,
  // optimizer state), so what changes within the step fills the height; the title says so.
  update(tl, opts = {}) {
    this.last = [tl, opts];
    const { units = 'gb', summary = '', zoom = false } = opts;
    const W = this.width();
    this.drawnWidth = W;
    const wide = W >= NARROW;
    // The caption under the phases, wrapped to the chart's width (the peak's place in words).
    const caption = wrapText(`Phases of one training step, in order. Peak: ${phaseWords(tl.peak_phase)}`, W >= NARROW ? W - 110 : W - 16, 6.9);
    const M = { ...(wide ? WIDE_M : NARROW_M) };
    M.bottom += (caption.length - 1) * CAPTION_LINE;
    const H = M.top + PLOT_H + M.bottom;
    // The scale runs in MB (or MiB) so that the ticks are round numbers in the unit shown.
    const unit = units === 'gib' ? 2 ** 20 : 1e6;
    const lo = zoom ? Math.min(...tl.phases.map((p) => p.live_total)) * 0.98 : 0;
    const yu = scaleLinear().domain([lo / unit, (tl.max_bytes * (zoom ? 1.01 : 1.08)) / unit]).range([H - M.bottom, M.top]).nice();
    const y = (b) => yu(b / unit);
    // Room for the widest tick ("20 MB") beside the rotated axis title, so the two never overlap.
    const widestTick = Math.max(...yu.ticks(6).map((v) => formatTickBytes(v * unit, units).length)) * 6.6;
    M.left = Math.max(M.left, Math.ceil((wide ? 22 : 19) + widestTick + 9 + 2));
    this.svg.attr('viewBox', `0 0 ${W} ${H}`).attr('data-layout', wide ? 'wide' : 'narrow');
    this.gy.attr('transform', `translate(${M.left},0)`);
    this.yTitle.attr('transform', `translate(${wide ? 14 : 12},${(M.top + H - M.bottom) / 2}) rotate(-90)`);
    this.clip.attr('x', M.left).attr('y', M.top).attr('width', W - M.right - M.left).attr('height', H - M.bottom - M.top);
    this.xTitle.attr('y', H - M.bottom + 32);
    setLines(this.xTitle, caption, wide ? (M.left + W - M.right) / 2 : W / 2, CAPTION_LINE);
    const n = tl.phases.length;
    const x = scaleLinear().domain([0, n]).range([M.left, W - M.right]);
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
      .text((s) => {
        // The full name where the stage is wide enough, else the short one, else none.
        const room = x(s.to + 1) - x(s.from) - 4;
        if (STAGE_LABEL[s.stage].length * CHAR_PX <= room) return STAGE_LABEL[s.stage];
        return STAGE_SHORT[s.stage].length * CHAR_PX <= room ? STAGE_SHORT[s.stage] : '';
      });

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
    if (wide) {
      this.sumLabel.attr('y', ys - 2).attr('text-anchor', 'start');
      this.sumName.attr('x', W - M.right + 6).attr('dy', null);
      this.sumValue.attr('x', W - M.right + 6).attr('dy', '1.2em').text(formatSmallBytes(tl.sum_of_max_bytes, units));
    }
    // Narrow: no room beside the plot; the legend under the chart names the dotted line and its value.
    this.sumLabel.attr('display', wide ? null : 'none');

    const px = x(tl.peakIndex + 0.5);
    const py = y(tl.peak_bytes);
    this.gPeak.select('line').attr('x1', px).attr('x2', px).attr('y1', py).attr('y2', H - M.bottom);
    this.gPeak.select('circle').attr('cx', px).attr('cy', py);
    const right = px > (M.left + W - M.right) / 2;
    // Above the dot, and above the sum-of-maxima line when that line would cross the text.
    const ly = ys <= py - 8 + 4 && ys >= py - 8 - 12 ? ys - 5 : py - 8;
    this.peakText.attr('x', right ? px - 8 : px + 8).attr('y', ly).attr('text-anchor', right ? 'end' : 'start')
      .text(`peak ${formatSmallBytes(tl.peak_bytes, units)}`);

    replaceChildren(this.legend,
      tl.categories.map((c) => h('li', {}, h('span', { class: `swatch swatch--${c.key}`, 'aria-hidden': 'true' }), c.label)),
      h('li', {}, h('span', { class: 'key-line key-line--measured', 'aria-hidden': 'true' }), 'highest point inside each phase (measured)'),
      h('li', {}, h('span', { class: 'key-line key-line--predicted', 'aria-hidden': 'true' }), 'the same, predicted'),
      wide ? null : h('li', { class: 'legend-sum' }, h('span', { class: 'key-line key-line--sum', 'aria-hidden': 'true' }), `sum of maxima: ${formatSmallBytes(tl.sum_of_max_bytes, units)}`));
  }

  reset() {
    this.gAreas.selectAll('path.tl-area').remove();
    this.legend.replaceChildren();
    this.svg.attr('aria-label', this.label);
  }
}
