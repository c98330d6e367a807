// The frame Act 3's four charts share: an SVG drawn at its box's width (role="img", named by the
// chart's summary sentence), a key under it, and the same numbers as tables in a closed disclosure
// (the text alternative). Layout and words come from the models (models/parallel-memory-model.js and its three siblings); each chart draws its
// own marks into `svg`. No physics and no layout maths here.
import { select } from 'd3-selection';
import { h, replaceChildren, setAttr, setHidden, setText } from '../ui/dom.js';
import { DataTable } from './data-table.js';
import { boxWidth, redrawOnResize } from './fit-width.js';
import { attr, text } from './changed.js';
import chartsCss from './parallel-charts.css?inline';

let count = 0;

// The charts' styles reach whatever root they are mounted in: the page, or the shadow root of
// <lab-model-train> (which takes only the CSS its element lists). One constructable sheet, adopted
// by each root once; the strict CSP allows it (no <style> element, no inline style).
let sheet = null;
function adoptStyles(node) {
  const root = node.getRootNode ? node.getRootNode() : document;
  const target = root && 'adoptedStyleSheets' in root ? root : document;
  if (typeof CSSStyleSheet !== 'function' || !('adoptedStyleSheets' in target)) return;
  if (!sheet) { sheet = new CSSStyleSheet(); sheet.replaceSync(chartsCss); }
  if (!target.adoptedStyleSheets.includes(sheet)) target.adoptedStyleSheets = [...target.adoptedStyleSheets, sheet];
}

export class ParallelChartFrame {
  // chart: the chart object (its update(result, context) is called again when the box's width
  // changes); name: the chart's name, first words of its accessible name; tables: how many tables.
  constructor(container, chart, { name, className, tables = 1, twinLabel = 'The chart’s numbers as a table' }) {
    this.id = ++count;
    this.name = name;
    this.box = h('div', { class: `pchart ${className}` });
    this.svg = select(this.box).append('svg').attr('class', `chart pchart__svg ${className}__svg`).attr('role', 'img').attr('aria-label', name);
    this.defs = this.svg.append('defs');
    this.key = h('ul', { class: 'pchart__key', 'aria-label': `Key to the ${name.toLowerCase()}` });
    this.empty = h('p', { class: 'pchart__empty', hidden: true });
    this.twin = h('details', { class: 'twin pchart__twin' }, h('summary', { text: twinLabel }));
    // One name per table (a region's name must be unique on the page): the chart's, then "…, part 2".
    this.tables = Array.from({ length: tables }, (_, i) => new DataTable(this.twin, { caption: i ? `${name}, part ${i + 1}` : name, className: 'table--reflow' }));
    this.box.append(this.empty, this.key, this.twin);
    // The tables are written when their disclosure is open (or opens): rebuilding closed tables on
    // every input would cost each frame for nothing on screen.
    this.twin.addEventListener('toggle', () => this.writeTables());
    container.append(this.box);
    adoptStyles(container);
    this.chart = chart;
    this.resizer = redrawOnResize(this.box, chart);
  }

  // A pattern (hatching, dots or stripes) in this chart's defs, with an id unique on the page.
  pattern(kind, { size = 8, rotate = 45, width = 3 } = {}) {
    const id = `pchart-${kind}-${this.id}`;
    const pat = this.defs.append('pattern').attr('id', id).attr('patternUnits', 'userSpaceOnUse')
      .attr('width', size).attr('height', size).attr('patternTransform', rotate ? `rotate(${rotate})` : null);
    if (kind === 'dots') pat.append('circle').attr('class', 'hatch-stroke').attr('cx', size / 2).attr('cy', size / 2).attr('r', 1.6);
    else pat.append('rect').attr('class', kind === 'stripes' ? 'pchart__stripe' : 'hatch-stroke').attr('width', width).attr('height', size);
    return `url(#${id})`;
  }

  width() { return boxWidth(this.box, { min: 280, max: 760 }); }

  // Sizes the SVG, names it by its summary, fills the key and the tables.
  frame({ W, H, summary, key, tables }) {
    this.chart.drawnWidth = W;
    attr(this.svg, 'viewBox', `0 0 ${W} ${H}`);
    attr(this.svg, 'data-layout', W >= 520 ? 'wide' : 'narrow');
    attr(this.svg, 'aria-label', `${this.name}. ${summary}`);
    setHidden(this.empty, true);
    attr(this.svg, 'display', null);
    const keyText = JSON.stringify(key);
    if (keyText !== this.keyText) {
      this.keyText = keyText;
      replaceChildren(this.key, key.map((k) => h('li', {}, h('span', { class: `swatch pchart__swatch ${k.cls}`, 'aria-hidden': 'true' }), h('span', { text: k.text }))));
    }
    this.pendingTables = tables;
    this.writeTables();
  }

  writeTables() {
    if (!this.twin.open || !this.pendingTables) return;
    this.pendingTables.forEach((t, i) => this.tables[i].update(t));
    this.pendingTables = null;
  }

  // Nothing to draw (no result, an engine error, no `parallel` block): say so in words.
  showEmpty(message) {
    setText(this.empty, message);
    setHidden(this.empty, false);
    attr(this.svg, 'display', 'none');
    attr(this.svg, 'aria-label', `${this.name}: ${message}`);
    this.key.replaceChildren();
    this.keyText = null;
    this.pendingTables = null;
    this.tables.forEach((t) => t.reset());
  }

  destroy() {
    if (this.resizer) this.resizer.disconnect();
    this.box.remove();
  }
}

// Why there is nothing to draw, in words: an engine error's message, or a result without `parallel`.
export function emptyReason(result) {
  if (!result) return 'No result yet.';
  if (result.error) return `The engine could not compute this setup: ${result.error.message || 'unknown error'}`;
  if (!result.parallel || !result.memory) return 'This result has no multi-device numbers.';
  return null;
}

// Grid lines and tick words for both axes of a log-log chart (L.xTicks, L.yTicks, L.base, L.x1, L.x2).
export function gridLines(g, L) {
  const rows = [
    // A tick word at either end of the axis ends (or starts) there, so it stays inside the chart.
    // The first starts at the axis's left end, clear of the lowest y tick's word beside it.
    ...L.xTicks.map((t) => ({ key: `x${t.text}`, x1: t.x, x2: t.x, y1: L.top ?? L.M.top, y2: L.base, tx: t.x, ty: L.base + 16,
      anchor: t.x > L.x2 - 14 ? 'end' : t.x < L.x1 + 14 ? 'start' : 'middle', text: t.text })),
    ...L.yTicks.map((t) => ({ key: `y${t.text}`, x1: L.x1, x2: L.x2, y1: t.y, y2: t.y, tx: L.x1 - 6, ty: t.y + 4, anchor: 'end', text: t.text })),
  ];
  const sel = g.selectAll('g.tick').data(rows, (r) => r.key).join((e) => { const t = e.append('g').attr('class', 'tick'); t.append('line').attr('class', 'grid-line'); t.append('text').attr('class', 'tick-label'); return t; });
  const lines = sel.select('line');
  attr(lines, 'x1', (r) => r.x1); attr(lines, 'x2', (r) => r.x2); attr(lines, 'y1', (r) => r.y1); attr(lines, 'y2', (r) => r.y2);
  const words = sel.select('text');
  attr(words, 'x', (r) => r.tx); attr(words, 'y', (r) => r.ty); attr(words, 'text-anchor', (r) => r.anchor);
  text(words, (r) => r.text);
}


// Words placed on a chart: [{ key, cls, x, y, anchor, text }] as <text> elements in g, one per key.
export function writeLabels(g, labels) {
  const t = g.selectAll('text').data(labels, (l) => l.key).join('text');
  attr(t, 'class', (l) => l.cls);
  attr(t, 'data-key', (l) => l.key);
  attr(t, 'x', (l) => l.x);
  attr(t, 'y', (l) => l.y);
  attr(t, 'text-anchor', (l) => l.anchor);
  text(t, (l) => l.text);
}

// A line's two ends (a d3 selection), written only where they changed.
export function setLine(sel, x1, y1, x2, y2) {
  attr(attr(attr(attr(sel, 'x1', x1), 'y1', y1), 'x2', x2), 'y2', y2);
}

// The two axis titles of a line chart ({ text, x, y } each; the y title turned to read upward).
export function setAxisTitles(xTitle, yTitle, L) {
  text(attr(attr(xTitle, 'x', L.xTitle.x), 'y', L.xTitle.y), L.xTitle.text);
  text(attr(yTitle, 'transform', `translate(${L.yTitle.x},${L.yTitle.y}) rotate(-90)`), L.yTitle.text);
}

// The part every Act 3 chart shares: its frame, its width, and the update that draws nothing (and says
// why) without a result to draw. A chart extends it with draw(result, context) and its marks.
export class ParallelChart {
  constructor(container, frameOptions) {
    this.frame = new ParallelChartFrame(container, this, frameOptions);
  }

  // The two axis titles of a line chart, as <text> elements.
  addAxisTitles() {
    this.xTitle = this.frame.svg.append('text').attr('class', 'axis-title').attr('text-anchor', 'middle');
    this.yTitle = this.frame.svg.append('text').attr('class', 'axis-title').attr('text-anchor', 'middle');
  }

  width() { return this.frame.width(); }

  update(result, context = {}) {
    this.last = [result, context];
    const why = emptyReason(result);
    if (why) this.frame.showEmpty(why);
    else this.draw(result, context);
  }

  destroy() { this.frame.destroy(); }

  // The public face a mount function returns.
  api() { return { update: (result, context) => this.update(result, context), destroy: () => this.destroy() }; }
}

// Several attributes of one element, each written only when it changed (null removes it).
export function setAttrs(el, attrs) {
  for (const [name, v] of Object.entries(attrs)) setAttr(el, name, v);
}
