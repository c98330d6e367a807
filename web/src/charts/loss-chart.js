// A line chart over training steps as SVG (d3-scale, d3-axis, d3-shape, d3-selection): one or more
// series (loss per step, or the share of weights left unchanged per step), optional dashed reference
// lines (the uniform-guess loss, the task's floor), each line labelled at its end so nothing relies
// on colour alone (series also differ in dash pattern). The x axis is fixed to the run's length, so
// a curve grows left to right while training runs. Drawn at its box's width (no sideways scrolling):
// on a narrow box the labels sit inside the plot, right-aligned above their lines, instead of in a
// right-hand column. Table twin: charts/data-table.js.
import { select } from 'd3-selection';
import { scaleLinear } from 'd3-scale';
import { axisBottom, axisLeft } from 'd3-axis';
import { line } from 'd3-shape';
import { boxWidth, redrawOnResize, CHAR_PX, NARROW } from './fit-width.js';

const H = 320;
const WIDE_M = { top: 16, right: 160, bottom: 44, left: 60 };
const NARROW_M = { top: 16, right: 12, bottom: 44, left: 50 };

export class LossChart {
  constructor(container, { label, yLabel = 'Loss (nats)', yFormat = null, className = '' }) {
    this.label = label;
    this.yFormat = yFormat;
    this.container = container;
    this.svg = select(container).append('svg')
      .attr('class', `chart line-chart ${className}`.trim())
      .attr('role', 'img')
      .attr('aria-label', label);
    this.gx = this.svg.append('g').attr('class', 'axis axis--x');
    this.gy = this.svg.append('g').attr('class', 'axis axis--y');
    this.xTitle = this.svg.append('text').attr('class', 'axis-title').attr('text-anchor', 'middle').text('Training step');
    this.yTitle = this.svg.append('text').attr('class', 'axis-title').attr('text-anchor', 'middle').text(yLabel);
    this.gRefs = this.svg.append('g').attr('class', 'refs');
    this.gLines = this.svg.append('g').attr('class', 'lines');
    this.gLabels = this.svg.append('g').attr('class', 'line-labels');
    this.resizer = redrawOnResize(container, this);
  }

  width() {
    return boxWidth(this.container);
  }

  // series: [{ key, label, values }] (values[i] is step i + 1); refs: [{ key, label, value }];
  // steps: the x extent; yDomain: optional fixed [lo, hi].
  update(opts) {
    this.last = [opts];
    const { series, refs = [], steps, yDomain = null, summary = '' } = opts;
    const W = this.width();
    const wide = W >= NARROW;
    const M = wide ? WIDE_M : NARROW_M;
    if (W !== this.drawnWidth) {
      this.drawnWidth = W;
      this.axisKey = null;
      this.svg.attr('viewBox', `0 0 ${W} ${H}`).attr('data-layout', wide ? 'wide' : 'narrow');
      this.gx.attr('transform', `translate(0,${H - M.bottom})`);
      this.gy.attr('transform', `translate(${M.left},0)`);
      this.xTitle.attr('x', (M.left + W - M.right) / 2).attr('y', H - 6);
      this.yTitle.attr('transform', `translate(${wide ? 14 : 12},${(M.top + H - M.bottom) / 2}) rotate(-90)`);
    }
    const all = [...series.flatMap((s) => s.values), ...refs.map((r) => r.value)].filter(Number.isFinite);
    const lo = yDomain ? yDomain[0] : Math.min(...all, Infinity);
    const hi = yDomain ? yDomain[1] : Math.max(...all, -Infinity);
    const pad = yDomain ? 0 : (hi - lo) * 0.06 || 0.5;
    const y = scaleLinear().domain(Number.isFinite(lo) ? [lo - pad, hi + pad] : [0, 1]).range([H - M.bottom, M.top]).nice();
    const x = scaleLinear().domain([1, Math.max(2, steps)]).range([M.left, W - M.right]);
    const key = `${y.domain().join(',')}|${x.domain().join(',')}`;
    if (key !== this.axisKey) {
      this.axisKey = key;
      this.gx.call(axisBottom(x).ticks(Math.min(wide ? 8 : 5, steps)).tickFormat((d) => (Number.isInteger(d) ? String(d) : '')));
      const ay = axisLeft(y).ticks(6);
      if (this.yFormat) ay.tickFormat(this.yFormat);
      this.gy.call(ay);
    }
    if (summary) this.svg.attr('aria-label', `${this.label}. ${summary}`);

    // The last finite value of each series (a diverged run's losses end in nulls). A diverged series
    // is labelled where it broke off (a dashed marker at that step), not in the right-hand column.
    const drawn = series.map((s) => ({ ...s, last: s.values.findLastIndex(Number.isFinite), bad: s.values.findIndex((v) => !Number.isFinite(v)) }))
      .filter((s) => s.last >= 0);
    const broken = drawn.filter((s) => s.bad >= 0);
    // Labels at the right: reference labels and line-end labels share one column, nudged apart.
    const items = [
      ...refs.map((r) => ({ kind: 'ref', key: r.key, yy: y(r.value) })),
      ...drawn.filter((s) => s.bad < 0).map((s) => ({ kind: 'series', key: s.key, yy: y(s.values[s.last]) })),
    ].sort((a, b) => a.yy - b.yy);
    // Narrow: the labels sit inside the plot, right-aligned just above their lines (baseline 5 px up).
    const lift = wide ? 4 : -5;
    for (let i = 1; i < items.length; i += 1) items[i].yy = Math.max(items[i].yy, items[i - 1].yy + 14);
    const labelY = (kind, k) => items.find((it) => it.kind === kind && it.key === k).yy + lift;
    const labelX = wide ? W - M.right + 6 : W - M.right;
    const labelAnchor = wide ? 'start' : 'end';
    const mid = (M.left + W - M.right) / 2;
    const breaks = broken.map((s, i) => ({ key: s.key, x: x(s.bad + 1), y: M.top + 12 + i * 16, text: `${s.label}: not a number from step ${s.bad + 1} (diverged)` }));
    this.gBreaks ||= this.svg.append('g').attr('class', 'breaks');
    const gb = this.gBreaks.selectAll('g.break').data(breaks, (d) => d.key).join((enter) => {
      const g = enter.append('g');
      g.append('line');
      g.append('text').attr('class', 'break-label');
      return g;
    });
    gb.attr('class', (d) => `break break--${d.key}`);
    gb.select('line').attr('x1', (d) => d.x).attr('x2', (d) => d.x).attr('y1', M.top).attr('y2', H - M.bottom);
    // The break label stays inside the chart: beside its marker where it fits, else against the edge.
    gb.select('text').text((d) => d.text).attr('y', (d) => d.y).each(function place(d) {
      const w = (this.getComputedTextLength && this.getComputedTextLength()) || d.text.length * CHAR_PX;
      const right = d.x > mid;
      let tx = right ? d.x - 6 : d.x + 6;
      if (right) tx = Math.max(tx, M.left + w + 2); else tx = Math.min(tx, W - 4 - w);
      select(this).attr('x', tx).attr('text-anchor', right ? 'end' : 'start');
    });

    const refs2 = this.gRefs.selectAll('g.ref').data(refs, (r) => r.key).join((enter) => {
      const g = enter.append('g');
      g.append('line');
      g.append('text').attr('class', 'ref-label');
      return g;
    });
    refs2.attr('class', (r) => `ref ref--${r.key}`);
    refs2.select('text').attr('x', labelX).attr('text-anchor', labelAnchor);
    refs2.select('line').attr('x1', M.left).attr('x2', W - M.right).attr('y1', (r) => y(r.value)).attr('y2', (r) => y(r.value));
    refs2.select('text').attr('y', (r) => labelY('ref', r.key)).text((r) => r.label);

    const path = line().x((d, i) => x(i + 1)).y((d) => y(d)).defined(Number.isFinite);
    this.gLines.selectAll('path').data(series, (s) => s.key).join('path')
      .attr('class', (s) => `series series--${s.key}`)
      .attr('data-points', (s) => String(s.values.length))
      .attr('d', (s) => (s.values.length ? path(s.values) : null));
    this.gLines.selectAll('circle.last').data(drawn, (s) => s.key).join('circle')
      .attr('class', (s) => `last series-dot--${s.key}`).attr('r', 3.5)
      .attr('cx', (s) => x(s.last + 1)).attr('cy', (s) => y(s.values[s.last]));
    this.gLabels.selectAll('text').data(drawn.filter((s) => s.bad < 0), (s) => s.key).join('text')
      .attr('class', (s) => `line-label line-label--${s.key}`)
      .attr('x', labelX).attr('text-anchor', labelAnchor).attr('y', (s) => labelY('series', s.key))
      .text((s) => s.label);
  }

  reset() {
    this.axisKey = null;
    this.gLines.selectAll('*').remove();
    this.gLabels.selectAll('*').remove();
    this.gRefs.selectAll('*').remove();
    if (this.gBreaks) this.gBreaks.selectAll('*').remove();
    this.svg.attr('aria-label', this.label);
  }
}
