// Measured vs predicted bytes per category at the step's peak, as SVG paired bars (d3-scale, d3-axis,
// d3-selection): for each category the inventory's prediction (hatched outline) above the bytes the
// tagged allocator actually held (solid, the ledger's colour), each bar labelled with its amount and
// the measured one with "✓ match" or "✕ differs" (never colour alone). View model: bytePairs() in
// measure-model.js; table twin: charts/data-table.js. Drawn at its box's width: on a narrow box each
// category's name sits on its own line above its bars, the legend takes two lines, and the note
// "not live at the peak" moves under the bars.
import { select } from 'd3-selection';
import { scaleLinear } from 'd3-scale';
import { axisBottom } from 'd3-axis';
import { formatSmallBytes, formatTickBytes } from '../format/format.js';
import { boxWidth, redrawOnResize, NARROW } from './fit-width.js';

const WIDE_M = { top: 36, right: 200, bottom: 36, left: 186 };
const NARROW_M = { top: 52, right: 118, bottom: 36, left: 8 };
const ROW = 36;
const NARROW_ROW = 50; // a name line, two bars
const NOTE = 14; // the narrow layout's extra line for "not live at the peak"
const BAR = 12;
let chartCount = 0;

export class MeasuredBytesChart {
  constructor(container, { label }) {
    this.label = label;
    this.container = container;
    this.hatchId = `measured-hatch-${++chartCount}`;
    this.svg = select(container).append('svg').attr('class', 'chart bytes-chart').attr('role', 'img').attr('aria-label', label);
    this.svg.append('defs').append('pattern').attr('id', this.hatchId).attr('patternUnits', 'userSpaceOnUse')
      .attr('width', 6).attr('height', 6).attr('patternTransform', 'rotate(45)')
      .append('rect').attr('class', 'hatch-stroke--pred').attr('width', 2).attr('height', 6);
    this.legend = this.svg.append('g').attr('class', 'legend');
    this.legend.append('rect').attr('class', 'bar--predicted').attr('width', 18).attr('height', BAR).attr('fill', `url(#${this.hatchId})`);
    this.legend.append('text').attr('x', 24).attr('y', 10).text('predicted (memory ledger)');
    this.legendMeasured = this.legend.append('g').attr('class', 'legend-measured');
    this.legendMeasured.append('rect').attr('class', 'bar--measured legend-solid').attr('width', 18).attr('height', BAR);
    this.legendMeasured.append('text').attr('x', 24).attr('y', 10).text('measured (allocator)');
    this.gx = this.svg.append('g').attr('class', 'axis axis--x');
    this.gRows = this.svg.append('g').attr('class', 'rows');
    this.resizer = redrawOnResize(container, this);
  }

  width() {
    return boxWidth(this.container);
  }

  update(pairs, opts = {}) {
    this.last = [pairs, opts];
    const { units = 'gb', summary = '' } = opts;
    const W = this.width();
    this.drawnWidth = W;
    const wide = W >= NARROW;
    const M = wide ? WIDE_M : NARROW_M;
    const rows = pairs.rows;
    // Narrow: a category whose prediction is not live at the peak gets a note line under its bars.
    const noted = (r) => r.predicted_at_peak === 0 && r.predicted_max > 0;
    const rowTop = [];
    let yy = M.top;
    for (const r of rows) { rowTop.push(yy); yy += wide ? ROW : NARROW_ROW + (noted(r) ? NOTE : 0); }
    const H = yy + M.bottom;
    this.svg.attr('viewBox', `0 0 ${W} ${H}`).attr('data-layout', wide ? 'wide' : 'narrow');
    this.legend.attr('transform', `translate(${M.left},10)`);
    this.legendMeasured.attr('transform', wide ? 'translate(215,0)' : 'translate(0,18)');
    // The scale runs in MB (or MiB) so that the ticks are round numbers in the unit shown.
    const unit = units === 'gib' ? 2 ** 20 : 1e6;
    const xu = scaleLinear().domain([0, (pairs.maxBytes * 1.02) / unit]).range([M.left, W - M.right]).nice();
    const x = (b) => xu(b / unit);
    this.gx.attr('transform', `translate(0,${H - M.bottom + 4})`)
      .call(axisBottom(xu).ticks(wide ? 5 : 3).tickFormat((v) => formatTickBytes(v * unit, units)));
    if (summary) this.svg.attr('aria-label', `${this.label}. ${summary}`);
    const hatch = `url(#${this.hatchId})`;
    const g = this.gRows.selectAll('g.bytes-row').data(rows, (r) => r.name).join((enter) => {
      const e = enter.append('g');
      e.append('text').attr('class', 'row-label').attr('text-anchor', 'end').attr('x', M.left - 8);
      e.append('rect').attr('class', 'bar--predicted');
      e.append('text').attr('class', 'bar-value bar-value--predicted');
      e.append('rect').attr('class', 'bar--measured');
      e.append('text').attr('class', 'bar-value bar-value--measured');
      e.append('text').attr('class', 'bar-note');
      return e;
    });
    const top = wide ? 0 : 18; // narrow: the name line above the bars
    g.attr('class', (r) => `bytes-row${r.match === false ? ' bytes-row--differs' : ''}`).attr('data-category', (r) => r.name)
      .attr('transform', (r, i) => `translate(0,${rowTop[i]})`);
    g.select('text.row-label').attr('x', wide ? M.left - 8 : M.left).attr('text-anchor', wide ? 'end' : 'start')
      .attr('y', wide ? BAR + 4 : 12).text((r) => r.label);
    const w = (b) => Math.max(b > 0 ? 1 : 0, x(b) - x(0));
    g.select('rect.bar--predicted').attr('x', M.left).attr('y', top).attr('height', BAR)
      .attr('width', (r) => w(r.predicted_at_peak)).attr('fill', hatch);
    const note = (r) => `not live at the peak; up to ${formatSmallBytes(r.predicted_max, units)} at other times`;
    g.select('text.bar-value--predicted').attr('x', (r) => M.left + w(r.predicted_at_peak) + 6).attr('y', top + BAR - 2)
      .text((r) => `${formatSmallBytes(r.predicted_at_peak, units)} predicted${wide && noted(r) ? ` (${note(r)})` : ''}`);
    g.select('text.bar-note').attr('x', M.left).attr('y', top + 2 * BAR + 2 + NOTE)
      .text((r) => (!wide && noted(r) ? `(none at the peak; up to ${formatSmallBytes(r.predicted_max, units)} at other times)` : ''));
    g.select('rect.bar--measured').attr('x', M.left).attr('y', top + BAR + 2).attr('height', BAR)
      .attr('class', (r) => `bar--measured seg--${r.key}`)
      .attr('width', (r) => (r.measured_at_peak === null ? 0 : w(r.measured_at_peak)));
    g.select('text.bar-value--measured').attr('x', (r) => M.left + w(r.measured_at_peak || 0) + 6).attr('y', top + 2 * BAR)
      .text((r) => {
        if (r.measured_at_peak === null) return 'not measured yet';
        return `${formatSmallBytes(r.measured_at_peak, units)} ${r.match ? '✓ match' : '✕ differs'}`;
      });
  }

  reset() {
    this.gRows.selectAll('*').remove();
    this.svg.attr('aria-label', this.label);
  }
}
