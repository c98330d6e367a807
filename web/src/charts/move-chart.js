// The laptop challenge's moves as a step chart: peak memory after each move (log scale, since the
// start is tens of times the budget) against the laptop's usable memory. Every bar's peak (the
// caller's number format) is written under it, in as many staggered rows as the width needs, so at
// 390 px every move is labelled, the floor included (issue 23: on the log scale 7.52 and 13.75 GB
// look alike, and on-bar labels were dropped where they collided). The dashed budget line has its
// label in a margin of its own, so no bar or label crosses it. A move that does not fit is hatched, one that fits but cannot train has a dashed
// outline (the table twin says "cannot train"); never colour alone. Drawn in pixels at the box's
// width and redrawn when it changes (fit-width.js).
import { select } from 'd3-selection';
import { scaleLog } from 'd3-scale';
import { redrawOnResize, observedWidthOr } from './fit-width.js';

const H = 210;
const TOP = 40; // title line + the tallest bar's label
const BOTTOM = 22;
const RIGHT = 78; // the budget label's margin
const LABEL_PX = 7.5; // a digit at the 12 px bold bar labels, a little generous
const INDEX_PX = 7; // a character of the move numbers (12–13 px), a little generous
const ROW_PX = 15; // one row of values under the move numbers
let count = 0;

export class MoveChart {
  constructor(container, { label = 'Peak memory after each move' } = {}) {
    this.container = container;
    this.hatchId = `move-hatch-${++count}`;
    this.svg = select(container).append('svg').attr('class', 'chart move-chart').attr('width', '100%')
      .attr('height', H).attr('role', 'img').attr('aria-label', label);
    this.svg.append('defs').append('pattern').attr('id', this.hatchId).attr('patternUnits', 'userSpaceOnUse')
      .attr('width', 6).attr('height', 6).attr('patternTransform', 'rotate(45)')
      .append('rect').attr('class', 'hatch-stroke').attr('width', 2).attr('height', 6);
    this.title = this.svg.append('text').attr('class', 'move-title').attr('x', 0).attr('y', 13);
    this.gBars = this.svg.append('g');
    this.budget = this.svg.append('line').attr('class', 'budget-line').attr('x1', 0);
    this.budgetText = this.svg.append('text').attr('class', 'budget-label').attr('text-anchor', 'end');
    this.last = null;
    this.drawnWidth = 0;
    this.observer = redrawOnResize(container, this);
  }

  width() { return observedWidthOr(this, () => Math.floor(this.svg.node().getBoundingClientRect().width) || 640); }

  // moves: [{ peak_bytes, fits, trainable }]; amount(bytes): the number shown on a bar (unit in the
  // title); title: the chart's heading line; budgetBytes and budgetLines ([two short lines]).
  update(moves, { budgetBytes, budgetLines, amount, title, summary }) {
    this.last = [moves, { budgetBytes, budgetLines, amount, title, summary }];
    const width = this.width();
    this.drawnWidth = width;
    this.svg.attr('aria-label', summary);
    this.title.text(title);
    const plotW = Math.max(60, width - RIGHT);
    const max = Math.max(budgetBytes * 2, ...moves.map((m) => m.peak_bytes));
    const min = Math.min(budgetBytes / 2, ...moves.map((m) => m.peak_bytes));
    const y = scaleLog().domain([min, max]).range([H - BOTTOM, TOP]);
    const n = Math.max(moves.length, 6);
    const slot = plotW / n;
    const texts = moves.map((m) => amount(m.peak_bytes));
    const by = y(budgetBytes);
    // Each value under its bar's centre (kept inside the plot), in the first row where it does not
    // run into the value before it: one row when the bars are wide, more on a phone.
    const rowEnds = [];
    const place = moves.map((m, i) => {
      const half = (texts[i].length * LABEL_PX) / 2 + 2;
      const x = Math.min(Math.max(i * slot + slot / 2, half), plotW - half);
      let row = rowEnds.findIndex((end) => x - half >= end + 4);
      if (row < 0) { row = rowEnds.length; rowEnds.push(0); }
      rowEnds[row] = x + half;
      return { top: y(m.peak_bytes), x, row };
    });
    this.svg.attr('height', H + rowEnds.length * ROW_PX);
    // Move numbers under the bars: "start", the latest move and every k-th one between, where they do
    // not run into each other (slots narrower than the numbers), each kept inside the chart.
    const indexText = (i) => (i === 0 ? 'start' : String(i));
    const indexHalf = (i) => (indexText(i).length * INDEX_PX) / 2;
    const indexX = (i) => Math.min(Math.max(i * slot + slot / 2, indexHalf(i)), plotW - indexHalf(i));
    const apart = (a, b) => indexX(b) - indexHalf(b) >= indexX(a) + indexHalf(a) + 6; // a left of b
    const lastI = moves.length - 1;
    const every = Math.max(1, Math.ceil((2 * indexHalf(lastI) + 6) / slot));
    const indexShown = new Set([lastI]);
    let prev = lastI > 0 && apart(0, lastI) ? 0 : null;
    if (prev === 0) indexShown.add(0);
    for (let i = every; i < lastI; i += every) {
      if ((prev === null || apart(prev, i)) && apart(i, lastI)) { indexShown.add(i); prev = i; }
    }
    const bars = this.gBars.selectAll('g.move').data(moves).join((enter) => {
      const e = enter.append('g');
      e.append('rect').attr('class', 'move-bar');
      e.append('rect').attr('class', 'move-hatch');
      e.append('text').attr('class', 'move-value').attr('text-anchor', 'middle');
      e.append('text').attr('class', 'move-index').attr('text-anchor', 'middle');
      return e;
    });
    bars.attr('class', (d) => `move move--${d.fits ? (d.trainable ? 'ok' : 'invalid') : 'oom'}`);
    const hatch = `url(#${this.hatchId})`;
    bars.each(function draw(d, i) {
      const g = select(this);
      const { top, x, row } = place[i];
      g.selectAll('rect').attr('x', i * slot + slot * 0.15).attr('width', slot * 0.7).attr('y', top).attr('height', Math.max(0, H - BOTTOM - top));
      g.select('.move-hatch').attr('fill', hatch).attr('visibility', d.fits ? 'hidden' : 'visible');
      g.select('.move-value').attr('x', x).attr('y', H - 6 + ROW_PX * (row + 1)).text(texts[i]);
      g.select('.move-index').attr('x', indexX(i)).attr('y', H - 6).text(indexShown.has(i) ? indexText(i) : '');
    });
    this.budget.attr('x2', width).attr('y1', by).attr('y2', by);
    const lines = budgetLines.filter(Boolean);
    this.budgetText.attr('x', width).attr('y', by - 4 - 14 * (lines.length - 1));
    this.budgetText.selectAll('tspan').data(lines).join('tspan').attr('x', width).attr('dy', (t, i) => (i ? 14 : 0)).text((t, i) => (i < lines.length - 1 ? `${t} ` : t)); // spaced, so its text reads as words
  }

  reset() {
    if (this.observer) this.observer.disconnect();
    this.last = null;
    this.gBars.selectAll('*').remove();
  }
}
