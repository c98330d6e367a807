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

// Sets attributes (and text) only where they changed: setAttribute invalidates style even when the
// value is equal, and most attributes stay put from one update to the next.
function set(sel, attrs, text) {
  sel.each(function apply(d, i) {
    for (const [name, v] of Object.entries(attrs)) {
      const value = typeof v === 'function' ? v(d, i) : v;
      if (value === null) { if (this.hasAttribute(name)) this.removeAttribute(name); continue; }
      const str = String(value);
      if (this.getAttribute(name) !== str) this.setAttribute(name, str);
    }
    if (text !== undefined) {
      const t = typeof text === 'function' ? text(d, i) : text;
      if (this.textContent !== t) this.textContent = t;
    }
  });
  return sel;
}

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
    // The scale runs in display units so that the ticks are round numbers in GB or GiB.
    const yUnits = scaleLinear().domain([0, (model.max_bytes * 1.06) / u.bytes]).range([H - M.bottom, M.top]).nice();
    const y = (bytes) => yUnits(bytes / u.bytes);
    const x = scaleBand().domain(model.columns.map((c) => c.optimizer)).range([M.left, W - M.right])
      .paddingInner(0.35).paddingOuter(0.25);
    if (summary) set(this.svg, { 'aria-label': `Training memory ledger chart. ${summary}` });

    const axisKey = `${yUnits.domain().join(',')}|${u.id}`;
    if (axisKey !== this.axisKey) {
      this.axisKey = axisKey;
      this.gAxis.call(axisLeft(yUnits).ticks(6));
      this.axisTitle.text(`Memory (${u.label})`);
    }

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
    set(cols, { 'data-optimizer': (c) => c.optimizer, class: (c) => `col${c.selected ? ' col--selected' : ''}${c.fits ? '' : ' col--over'}` });

    const bw = x.bandwidth();
    const hatchFill = `url(#${this.hatchId})`;
    const r = (v) => Math.round(v * 10) / 10;
    cols.each(function drawColumn(c) {
      const g = select(this);
      const x0 = r(x(c.optimizer));
      const mid = r(x0 + bw / 2);
      const top = r(y(c.visible_bytes));
      const base = r(y(0));
      const segTop = (s) => r(y(s.y1));
      const segHeight = (s) => Math.max(0, r(y(s.y0) - y(s.y1)));
      set(g.select('g.segs').selectAll('rect').data(c.segments, (s) => s.key).join('rect'), {
        class: (s) => `seg seg--${s.key}`, 'data-key': (s) => s.key,
        x: x0, width: r(bw), y: segTop, height: segHeight,
      });
      set(g.select('g.seg-labels').selectAll('text').data(c.segments, (s) => s.key).join('text'), {
        class: (s) => `seg-label seg-label--${s.key}`, 'text-anchor': 'middle',
        x: mid, y: (s) => r(segTop(s) + segHeight(s) / 2 + 4),
      }, (s) => (segHeight(s) >= 15 ? `${SHORT_LABELS[s.key]} ${formatAmount(s.bytes, units)}` : ''));
      set(g.select('rect.hatch'), { x: x0, width: r(bw), y: top, height: Math.max(0, base - top), fill: hatchFill, display: c.fits ? 'none' : null });
      set(g.select('rect.outline'), { x: x0 - 3, width: r(bw + 6), y: top - 3, height: Math.max(0, base - top) + 3, display: c.selected ? null : 'none' });
      set(g.select('text.col-total'), { x: mid, y: top - (c.fits ? 8 : 22) }, `${formatBytes(c.peak_bytes, units)} peak`);
      set(g.select('text.col-over'), { x: mid, y: top - 8 }, c.fits ? '' : '✕ over budget');
      set(g.select('text.col-label'), { x: mid, y: H - M.bottom + 20 }, c.label);
      set(g.select('text.col-sub'), { x: mid, y: H - M.bottom + 38 }, c.selected ? '(selected)' : '');
    });

    const yb = r(y(model.budget_bytes));
    set(this.gBudget.select('line'), { y1: yb, y2: yb });
    set(this.budgetLabel, { y: yb - 4 });
    set(this.budgetValue, {}, formatBytes(model.budget_bytes, units));
    set(this.gBudget, { 'data-device': deviceName });
  }

  reset() {
    this.axisKey = null;
    this.gCols.selectAll('*').remove();
    this.svg.attr('aria-label', 'Training memory ledger chart');
  }
}
