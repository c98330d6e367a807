// The three gauges on one 0–100% scale, so their order is visible: GPU busy ≥ pipeline efficiency ≥
// MFU, plus HFU when recompute is on and the MFU ceiling as a dashed mark. One row per mark (labels
// never collide); positions in pixels of the box's current width (redrawn when it changes), so the
// text keeps its size and a label flips to the left of its mark when it would run off the edge.
import { select } from 'd3-selection';

const ROW_H = 26;

export class GaugeScale {
  constructor(container, { label = 'Busy, pipeline efficiency and MFU on one scale' } = {}) {
    this.svg = select(container).append('svg').attr('class', 'chart gauge-scale').attr('width', '100%')
      .attr('role', 'img').attr('aria-label', label);
    this.gTrack = this.svg.append('g');
    this.gRows = this.svg.append('g');
    this.last = null;
    if (typeof ResizeObserver === 'function') {
      this.observer = new ResizeObserver(() => { if (this.last) this.update(...this.last); });
      this.observer.observe(container);
    }
  }

  // marks: [{ key, label, value (0–1), text, short? (used when text fits on neither side), dashed? }]
  update(marks, { summary }) {
    this.last = [marks, { summary }];
    const width = this.svg.node().getBoundingClientRect().width || 640;
    const pad = 7;
    const px = (v) => pad + Math.min(1, Math.max(0, v)) * (width - 2 * pad);
    const h = marks.length * ROW_H + 24;
    this.svg.attr('height', h).attr('aria-label', summary);
    const trackY = marks.length * ROW_H + 6;
    this.gTrack.selectAll('*').remove();
    this.gTrack.append('rect').attr('class', 'gauge-track').attr('x', pad).attr('y', trackY).attr('width', Math.max(0, width - 2 * pad)).attr('height', 6);
    for (const f of [0, 0.5, 1]) {
      this.gTrack.append('text').attr('class', 'gauge-tick').attr('y', trackY + 18)
        .attr('x', px(f)).attr('text-anchor', f === 0 ? 'start' : f === 1 ? 'end' : 'middle').text(`${f * 100}%`);
    }
    const rows = this.gRows.selectAll('g.gauge-row').data(marks, (d) => d.key).join((enter) => {
      const e = enter.append('g').attr('class', 'gauge-row');
      e.append('line').attr('class', 'gauge-stem');
      e.append('circle').attr('r', 5);
      e.append('text').attr('class', 'gauge-label');
      return e;
    });
    rows.attr('data-gauge', (d) => d.key).attr('class', (d) => `gauge-row gauge-row--${d.key}${d.dashed ? ' gauge-row--dashed' : ''}`);
    rows.each(function place(d, i) {
      const g = select(this);
      const x = px(d.value);
      const y = i * ROW_H + 12;
      g.select('line').attr('x1', x).attr('x2', x).attr('y1', y).attr('y2', trackY + 6);
      g.select('circle').attr('cx', x).attr('cy', y);
      const room = { right: width - x - 9, left: x - 9 };
      const fits = (t) => t.length * 7.6; // px at 13px bold, a little generous
      const text = fits(d.text) <= Math.max(room.left, room.right) || !d.short ? d.text : d.short;
      const left = fits(text) > room.right && room.left > room.right;
      g.select('text').attr('x', x).attr('dx', left ? -9 : 9).attr('y', y + 4)
        .attr('text-anchor', left ? 'end' : 'start').text(text);
    });
  }

  reset() {
    if (this.observer) this.observer.disconnect();
    this.last = null;
    this.gRows.selectAll('*').remove();
    this.gTrack.selectAll('*').remove();
  }
}
