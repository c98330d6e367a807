// The training-memory ledger as an SVG stacked-column chart (d3-scale, d3-axis, d3-selection): one
// column per optimizer at the current settings, one segment per component, the device's usable
// memory as a budget line, and over-budget columns drawn with a hatch pattern and an "over budget"
// label (never colour alone). The data-table twin is charts/ledger-table.js; the view model is
// ledger-model.js. Reads only the model it is given.
import { select } from 'd3-selection';
import { scaleBand, scaleLinear } from 'd3-scale';
import { axisLeft } from 'd3-axis';
import { formatAmount, formatBytes, unitOf } from '../format.js';
import { SHORT_LABELS } from '../ledger-model.js';

const W = 640;
const H = 400;
const M = { top: 44, right: 118, bottom: 58, left: 64 };
let chartCount = 0;

export class LedgerChart {
  constructor(container, { label = 'Training memory ledger' } = {}) {
    const n = ++chartCount;
    this.hatchId = `ledger-hatch-${n}`;
    this.svg = select(container).append('svg')
      .attr('class', 'chart ledger-chart')
      .attr('viewBox', `0 0 ${W} ${H}`)
      .attr('role', 'img')
      .attr('aria-label', label);
    const defs = this.svg.append('defs');
    defs.append('pattern').attr('id', this.hatchId).attr('patternUnits', 'userSpaceOnUse')
      .attr('width', 8).attr('height', 8).attr('patternTransform', 'rotate(45)')
      .append('rect').attr('class', 'hatch-stroke').attr('width', 3).attr('height', 8);
    this.gAxis = this.svg.append('g').attr('class', 'axis axis--y').attr('transform', `translate(${M.left},0)`);
    this.axisTitle = this.svg.append('text').attr('class', 'axis-title')
      .attr('transform', `translate(16,${(M.top + H - M.bottom) / 2}) rotate(-90)`).attr('text-anchor', 'middle');
    this.gCols = this.svg.append('g').attr('class', 'columns');
    this.gBudget = this.svg.append('g').attr('class', 'budget');
    this.gBudget.append('line').attr('class', 'budget-line').attr('x1', M.left).attr('x2', W - M.right + 4);
    this.budgetLabel = this.gBudget.append('text').attr('class', 'budget-label').attr('text-anchor', 'start');
    this.budgetName = this.budgetLabel.append('tspan').attr('x', W - M.right + 8).text('Device budget');
    this.budgetValue = this.budgetLabel.append('tspan').attr('x', W - M.right + 8).attr('dy', '1.2em');
  }

  update(model, { units = 'gb', deviceName = '', summary = '' } = {}) {
    const u = unitOf(units);
    const y = scaleLinear().domain([0, model.max_bytes * 1.06]).range([H - M.bottom, M.top]).nice();
    const x = scaleBand().domain(model.columns.map((c) => c.optimizer)).range([M.left, W - M.right])
      .paddingInner(0.35).paddingOuter(0.25);
    if (summary) this.svg.attr('aria-label', `Training memory ledger chart. ${summary}`);

    this.gAxis.call(axisLeft(y).ticks(6).tickFormat((b) => String(Number((b / u.bytes).toFixed(2)))));
    this.axisTitle.text(`Memory (${u.label})`);

    const cols = this.gCols.selectAll('g.col').data(model.columns, (c) => c.optimizer).join((enter) => {
      const g = enter.append('g').attr('class', 'col');
      g.append('g').attr('class', 'segs');
      g.append('rect').attr('class', 'hatch');
      g.append('g').attr('class', 'seg-labels');
      g.append('rect').attr('class', 'outline');
      g.append('text').attr('class', 'col-total').attr('text-anchor', 'middle');
      g.append('text').attr('class', 'col-over').attr('text-anchor', 'middle');
      g.append('text').attr('class', 'col-label').attr('text-anchor', 'middle');
      g.append('text').attr('class', 'col-sub').attr('text-anchor', 'middle');
      return g;
    });
    cols.attr('data-optimizer', (c) => c.optimizer)
      .classed('col--selected', (c) => c.selected)
      .classed('col--over', (c) => !c.fits);

    const bw = x.bandwidth();
    const hatchFill = `url(#${this.hatchId})`;
    cols.each(function drawColumn(c) {
      const g = select(this);
      const x0 = x(c.optimizer);
      const top = y(c.visible_bytes);
      const segTop = (s) => y(s.y1);
      const segHeight = (s) => Math.max(0, y(s.y0) - y(s.y1));
      g.select('g.segs').selectAll('rect').data(c.segments, (s) => s.key).join('rect')
        .attr('class', (s) => `seg seg--${s.key}`)
        .attr('data-key', (s) => s.key)
        .attr('x', x0).attr('width', bw).attr('y', segTop).attr('height', segHeight);
      g.select('g.seg-labels').selectAll('text').data(c.segments, (s) => s.key).join('text')
        .attr('class', (s) => `seg-label seg-label--${s.key}`)
        .attr('text-anchor', 'middle')
        .attr('x', x0 + bw / 2).attr('y', (s) => segTop(s) + segHeight(s) / 2 + 4)
        .text((s) => (segHeight(s) >= 15 ? `${SHORT_LABELS[s.key]} ${formatAmount(s.bytes, units)}` : ''));
      g.select('rect.hatch').attr('x', x0).attr('width', bw).attr('y', top).attr('height', Math.max(0, y(0) - top))
        .attr('fill', hatchFill)
        .attr('display', c.fits ? 'none' : null);
      g.select('rect.outline').attr('x', x0 - 3).attr('width', bw + 6).attr('y', top - 3).attr('height', Math.max(0, y(0) - top) + 3)
        .attr('display', c.selected ? null : 'none');
      g.select('text.col-total').attr('x', x0 + bw / 2).attr('y', top - (c.fits ? 8 : 22))
        .text(`${formatBytes(c.peak_bytes, units)} peak`);
      g.select('text.col-over').attr('x', x0 + bw / 2).attr('y', top - 8).text(c.fits ? '' : '✕ over budget');
      g.select('text.col-label').attr('x', x0 + bw / 2).attr('y', H - M.bottom + 20).text(c.label);
      g.select('text.col-sub').attr('x', x0 + bw / 2).attr('y', H - M.bottom + 38).text(c.selected ? '(selected)' : '');
    });

    const yb = y(model.budget_bytes);
    this.gBudget.select('line').attr('y1', yb).attr('y2', yb);
    this.budgetLabel.attr('y', yb - 4);
    this.budgetValue.text(formatBytes(model.budget_bytes, units));
    this.gBudget.attr('data-device', deviceName);
  }

  reset() {
    this.gCols.selectAll('*').remove();
    this.svg.attr('aria-label', 'Training memory ledger chart');
  }
}
