// The laptop challenge's moves as a step chart: peak memory after each move (log scale, since the
// start is tens of times the budget) against the laptop's usable memory. A move that does not fit is
// hatched, one that fits but cannot train has a dashed outline (the table twin says "cannot train");
// never colour alone.
import { select } from 'd3-selection';
import { scaleLog } from 'd3-scale';

const H = 180;
const TOP = 14;
const BOTTOM = 22;

export class MoveChart {
  constructor(container, { label = 'Peak memory after each move' } = {}) {
    this.svg = select(container).append('svg').attr('class', 'chart move-chart').attr('width', '100%')
      .attr('height', H).attr('role', 'img').attr('aria-label', label);
    this.svg.append('defs').append('pattern').attr('id', 'move-hatch').attr('patternUnits', 'userSpaceOnUse')
      .attr('width', 6).attr('height', 6).attr('patternTransform', 'rotate(45)')
      .append('rect').attr('class', 'hatch-stroke').attr('width', 2).attr('height', 6);
    this.gBars = this.svg.append('g');
    this.budget = this.svg.append('line').attr('class', 'budget-line').attr('x1', 0).attr('x2', '100%');
    this.budgetText = this.svg.append('text').attr('class', 'budget-label').attr('x', '100%').attr('text-anchor', 'end');
  }

  // moves: [{ peak_bytes, fits, trainable }]; budgetBytes; fmt(bytes) for the budget label.
  update(moves, { budgetBytes, budgetText, summary }) {
    this.svg.attr('aria-label', summary);
    const max = Math.max(budgetBytes * 2, ...moves.map((m) => m.peak_bytes));
    const min = Math.min(budgetBytes / 2, ...moves.map((m) => m.peak_bytes));
    const y = scaleLog().domain([min, max]).range([H - BOTTOM, TOP]);
    const n = Math.max(moves.length, 6);
    const bw = 100 / n;
    const bars = this.gBars.selectAll('g.move').data(moves).join((enter) => {
      const e = enter.append('g');
      e.append('rect').attr('class', 'move-bar');
      e.append('rect').attr('class', 'move-hatch').attr('fill', 'url(#move-hatch)');
      e.append('text').attr('class', 'move-index').attr('text-anchor', 'middle');
      return e;
    });
    bars.attr('class', (d) => `move move--${d.fits ? (d.trainable ? 'ok' : 'invalid') : 'oom'}`);
    bars.each(function place(d, i) {
      const g = select(this);
      const top = y(d.peak_bytes);
      const x = `${i * bw + bw * 0.15}%`;
      const w = `${bw * 0.7}%`;
      g.selectAll('rect').attr('x', x).attr('width', w).attr('y', top).attr('height', H - BOTTOM - top);
      g.select('.move-hatch').attr('visibility', d.fits ? 'hidden' : 'visible');
      g.select('text').attr('x', `${i * bw + bw / 2}%`).attr('y', H - 6).text(i === 0 ? 'start' : String(i));
    });
    const by = y(budgetBytes);
    this.budget.attr('y1', by).attr('y2', by);
    this.budgetText.attr('y', by - 4).text(budgetText);
  }

  reset() { this.gBars.selectAll('*').remove(); }
}
