// One training step as a stacked horizontal bar (SVG, positions in percent so the text keeps its size
// at any width): one segment per phase from the engine's exposed seconds, labelled with its share
// where it is wide enough; a legend list below gives every segment's seconds and share. The view model
// is act2-model.js stepBar(); the data-table twin is built by the act. Which segments are wide enough
// for a label depends on the box's width, so the bar is redrawn when it changes (fit-width.js).
// Below the bar, one bracket per span (GPU busy, GPU kernels, pipeline efficiency: act2-model.js
// STEP_SPANS) shows which segments each gauge's number covers.
import { select } from 'd3-selection';
import { h, setText, setAttr, setHidden } from '../ui/dom.js';
import { redrawOnResize, observedWidthOr } from './fit-width.js';
import { attr, text } from './changed.js';

const MIN_LABEL_PX = 48; // narrower segments carry no text inside (the legend has it)
const BAR_PX = 44;
const SPAN_ROW_PX = 22; // one row per bracket below the bar

export class PipelineBar {
  constructor(container, { label = 'One training step' } = {}) {
    this.svg = select(container).append('svg')
      .attr('class', 'chart pipeline-bar').attr('width', '100%').attr('height', BAR_PX)
      .attr('role', 'img').attr('aria-label', label);
    this.gSegs = this.svg.append('g');
    this.gSpans = this.svg.append('g').attr('class', 'spans');
    this.legend = h('ul', { class: 'step-legend' });
    container.append(this.legend);
    this.last = null;
    this.drawnWidth = 0;
    this.observer = redrawOnResize(container, this);
  }

  width() { return observedWidthOr(this, () => Math.floor(this.svg.node().getBoundingClientRect().width) || 640); }

  // bar: stepBar(pipeline); fmt: { secs(s), pct(share%) } for the legend words.
  update(bar, { secs, summary }) {
    this.last = [bar, { secs, summary }];
    attr(this.svg, 'aria-label', summary);
    const segs = bar.segments.filter((s) => s.seconds > 0);
    const widthPx = this.width();
    this.drawnWidth = widthPx;
    const x = (s) => `${(100 * s.start_seconds) / bar.step_seconds}%`;
    const w = (s) => `${(100 * s.seconds) / bar.step_seconds}%`;
    const g = this.gSegs.selectAll('g.seg').data(segs, (d) => d.key).join((enter) => {
      const e = enter.append('g');
      e.append('rect').attr('y', 4).attr('height', 36);
      e.append('text').attr('y', 27).attr('class', 'seg-label').attr('text-anchor', 'middle');
      return e;
    });
    attr(g, 'class', (d) => `seg seg--${d.key}`);
    attr(g, 'data-phase', (d) => d.key);
    attr(attr(g.select('rect'), 'x', x), 'width', w);
    const labels = g.select('text');
    attr(labels, 'x', (d) => `${(100 * (d.start_seconds + d.seconds / 2)) / bar.step_seconds}%`);
    text(labels, (d) => (d.share * widthPx >= MIN_LABEL_PX ? `${d.share_pct_shown.toFixed(1)}%` : ''));
    this.updateSpans(bar, widthPx);
    this.updateLegend(bar.segments, secs);
  }

  // The brackets: a line under the segments a span covers, with end ticks and its name and value.
  // A label starts at the bracket's left end, or ends at its right end when it would run off the box.
  updateSpans(bar, widthPx) {
    const spans = (bar.spans || []).filter((sp) => sp.end_seconds > sp.start_seconds);
    attr(this.svg, 'height', BAR_PX + spans.length * SPAN_ROW_PX);
    const pc = (t) => `${(100 * t) / bar.step_seconds}%`;
    const g = this.gSpans.selectAll('g.span').data(spans, (d) => d.key).join((enter) => {
      const e = enter.append('g');
      e.append('line').attr('class', 'span__line');
      e.append('line').attr('class', 'span__tick span__tick--from');
      e.append('line').attr('class', 'span__tick span__tick--to');
      e.append('text').attr('class', 'span__label');
      return e;
    });
    attr(g, 'class', (d) => `span span--${d.key}`);
    attr(g, 'data-span', (d) => d.key);
    const y = (i) => BAR_PX + 4 + i * SPAN_ROW_PX;
    g.each(function draw(d, i) {
      const sel = select(this);
      attr(attr(attr(attr(sel.select('.span__line'), 'x1', pc(d.start_seconds)), 'x2', pc(d.end_seconds)), 'y1', y(i)), 'y2', y(i));
      attr(attr(attr(attr(sel.select('.span__tick--from'), 'x1', pc(d.start_seconds)), 'x2', pc(d.start_seconds)), 'y1', y(i) - 5), 'y2', y(i) + 1);
      attr(attr(attr(attr(sel.select('.span__tick--to'), 'x1', pc(d.end_seconds)), 'x2', pc(d.end_seconds)), 'y1', y(i) - 5), 'y2', y(i) + 1);
      const words = `${d.label} ${d.pct_shown.toFixed(1)}%`;
      const rightEnd = (d.start_seconds / bar.step_seconds) * widthPx + words.length * 7 > widthPx;
      const label = attr(attr(sel.select('.span__label'), 'y', y(i) + 14), 'text-anchor', rightEnd ? 'end' : 'start');
      attr(label, 'x', rightEnd ? pc(d.end_seconds) : pc(d.start_seconds));
      text(label, words);
    });
  }

  // The legend's items are rebuilt only when the set of phases changes; otherwise their words are
  // updated in place (a rebuild on every input re-laid-out the whole list).
  updateLegend(segments, secs) {
    const keys = segments.map((s) => s.key).join(' ');
    if (keys !== this.legendKeys) {
      this.legendKeys = keys;
      this.items = segments.map(() => {
        const words = h('span');
        const hidden = h('span', { class: 'step-legend__hidden' });
        const swatch = h('span', { 'aria-hidden': 'true' });
        return { li: h('li', {}, swatch, h('span', {}, words, hidden)), swatch, words, hidden };
      });
      this.legend.replaceChildren(...this.items.map((it) => it.li));
    }
    segments.forEach((s, i) => {
      const it = this.items[i];
      setAttr(it.li, 'data-phase', s.key);
      setAttr(it.li, 'class', s.seconds > 0 ? null : 'step-legend__none');
      setAttr(it.swatch, 'class', `swatch swatch--phase-${s.key}`);
      setText(it.words, `${s.label} ${s.share_pct_shown.toFixed(1)}%`); // seconds: in the table twin
      setText(it.hidden, s.hidden_seconds > 0.005 ? ` + ${secs(s.hidden_seconds)} hidden behind other work` : '');
      setHidden(it.hidden, !(s.hidden_seconds > 0.005));
    });
  }

  reset() {
    if (this.observer) this.observer.disconnect();
    this.last = null;
    this.gSegs.selectAll('*').remove();
    this.gSpans.selectAll('*').remove();
    this.legend.replaceChildren();
    this.legendKeys = null;
  }
}
