// The training-memory ledger as an SVG stacked-column chart (d3-scale, d3-axis, d3-selection): one
// column per optimizer at the current settings, one segment per component, the device's usable
// memory as a budget line. Over-budget columns are hatched and say "over budget"; columns that fit
// but cannot train (pure 16-bit) are dotted and say "cannot train" (never colour alone, never the
// success look). The SVG is drawn at the box's own width (no sideways scrolling at 390 px): narrow
// boxes get short column names, the budget label in the top margin, and labels that give way to the
// budget line. After the reveal it draws the student's prediction beside Adam's real extra memory.
// Under PyTorch defaults a line across each column marks the peak during a step (the column: the sum).
// Peak labels that would not fit their column become bare amounts, and a key line (wrapped to the
// chart's width) says what they are; no label is ever crossed by the budget or peak line.
// Table twin: charts/ledger-table.js; view model: ledger-model.js. Reads only the model it is given.
import { select } from 'd3-selection';
import { scaleBand, scaleLinear } from 'd3-scale';
import { axisLeft } from 'd3-axis';
import { formatAmount, formatBytes, unitOf } from '../format/format.js';
import { SHORT_LABELS } from '../models/ledger-model.js';
import { afterResize } from '../ui/after-paint.js';
import { setAttr } from '../ui/dom.js';

const H = 400;
const WIDE = 560; // below this the budget label moves to the top margin and names get shorter
const NARROW_NAMES = { sgd: 'SGD', momentum: 'Momentum', adam: 'Adam(W)' };
const TINY_NAMES = { sgd: 'SGD', momentum: 'Mom.', adam: 'Adam' }; // columns narrower than "Momentum" (320 px)
const NAME_PX = 8.4; // the 13 px column names, bold when selected
const CHAR_PX = 6.4; // average glyph width at the 11–12 px chart fonts, for "does this label fit"
const BOLD_PX = 7.7; // the bold 12 px peak labels' widest digits (DejaVu Sans Bold), for "does it fit"
const KEY_PX = 6.6; // the 11 px semi-bold key line (measured about 6.35 px a character in Chromium)
const KEY_LINE = 14; // key lines, one under the other
// When even the short name does not fit: a letter, as the Math Peek names them (W, G), or the short
// name without its full stop. The master copy is "FP32", not "M": beside Adam's "m" a case-only
// difference reads as the same label.
const TINY_LABELS = { master_weights: 'FP32', gradients: 'G', activations: 'act', momentum: 'mom' };
const NBSP = '\u00a0'; // joins words that a key line must not split ("all parts")
let chartCount = 0;

// Words into lines of at most maxPx (estimated at charPx a character); words joined by NBSP stay on
// one line, and print with a plain space.
export function wrapKey(text, maxPx, charPx = KEY_PX) {
  const max = Math.max(8, Math.floor(maxPx / charPx));
  const lines = [];
  let cur = '';
  for (const word of String(text).split(' ').filter(Boolean)) {
    if (cur && cur.length + 1 + word.length > max) { lines.push(cur); cur = word; } else cur = cur ? `${cur} ${word}` : word;
  }
  if (cur) lines.push(cur);
  return lines.map((l) => l.split(NBSP).join(' '));
}

// A segment's label: "grads 3.12", else "G 3.12", else "3.12", else nothing; roomPx: the column's width.
export function segmentLabelText(key, bytes, units, roomPx, charPx = CHAR_PX) {
  const amount = formatAmount(bytes, units);
  const fits = (t) => t.length * charPx <= roomPx - 4;
  for (const name of [SHORT_LABELS[key], TINY_LABELS[key]]) {
    if (name && fits(`${name} ${amount}`)) return `${name} ${amount}`;
  }
  return amount.length * charPx <= roomPx - 2 ? amount : '';
}

// The labels above the columns and the key lines that explain them. amounts: bytes per column, the
// peak in the textbook layout (where the peak is the column's sum) and the sum under PyTorch defaults
// (where the column stacks the parts and a line marks the lower peak), so a label always names what
// its column's height shows. roomPx: the width each label may take (its column's step, the plot's
// edges); hidden: some parts are hidden (the labels still count them). Wide boxes say "42.39 GB peak"
// (or "51.20 GB sum") when every label fits; otherwise (and always on narrow boxes) the labels are
// bare amounts and a key line names them.
export function peakLabelPlan(amounts, { units = 'gb', wide = true, pytorch = false, hidden = false, roomPx = Infinity, charPx = BOLD_PX } = {}) {
  const u = unitOf(units).label;
  const what = pytorch ? 'sum' : 'peak';
  const key = [];
  if (pytorch && wide) key.push('Column: the sum of the parts. Solid line: the peak during a step.');
  const named = amounts.map((b) => `${formatBytes(b, units)} ${what}`);
  const roomOf = (i) => (Array.isArray(roomPx) ? roomPx[i] : roomPx);
  if (wide && named.every((t, i) => t.length * charPx <= roomOf(i))) {
    if (hidden) key.push(`Each ${what} counts every part, hidden ones too.`);
    return { texts: named, key, bare: false };
  }
  const all = hidden ? `${NBSP}(all${NBSP}parts)` : '';
  key.push(pytorch && !wide
    ? `Number above: the sum of the parts, in${NBSP}${u}${all}. Solid line: the peak.`
    : `Above each column: its ${what}, in${NBSP}${u}${all}`);
  return { texts: amounts.map((b) => formatAmount(b, units)), key, bare: true };
}

// Sets attributes (and text) only where they changed: setAttribute invalidates style even when the
// value is equal, and most attributes stay put from one update to the next.
function set(sel, attrs, text) {
  sel.each(function apply(d, i) {
    for (const [name, v] of Object.entries(attrs)) setAttr(this, name, typeof v === 'function' ? v(d, i) : v);
    if (text !== undefined) {
      const t = typeof text === 'function' ? text(d, i) : text;
      if (this.textContent !== t) this.textContent = t;
    }
  });
  return sel;
}

// A text line at baseline y covers about [y - 12, y + 4]; does it cross the line at yb?
const crosses = (y, yb) => yb >= y - 12 && yb <= y + 4;

// A column's state: "ok", "oom" (over the device's budget) or "invalid" (fits, cannot train).
const stateOf = (c) => c.state || (c.fits ? 'ok' : 'oom');

// The state word above a column that does not simply fit ("" for one that does).
function flagOf(c, wide) {
  const state = stateOf(c);
  return state === 'oom' ? (wide ? '✕ over budget' : '✕ too big') : state === 'invalid' ? (wide ? '⚠ cannot train' : '⚠ can’t train') : '';
}

// The byte height the prediction's bracket reaches (from the bottom of Adam's m), or 0 with none.
function overlayTopBytes(model, overlay) {
  const adam = overlay && model.columns.find((c) => c.optimizer === 'adam');
  const m = adam && adam.segments.find((s) => s.key === 'adam_m');
  return m ? m.y0 + overlay.predicted_bytes : 0;
}

// One group per optimizer: its segments and their labels, the hatch or dots of a column that does
// not fit, the selected column's outline, the PyTorch peak line, and the words above and below it.
// L: the layout update() worked out (scales, margins, the peak labels' plan, the budget line's y).
function drawColumns(chart, model, { x, y, bw, r, M, units, wide, plan, yb, blockOf }) {
  const pytorch = model.framework === 'pytorch';
  const cols = chart.gCols.selectAll('g.col').data(model.columns, (c) => c.optimizer).join((enter) => {
    const g = enter.append('g').attr('class', 'col');
    g.append('g').attr('class', 'segs');
    g.append('rect').attr('class', 'hatch');
    g.append('g').attr('class', 'seg-labels');
    g.append('rect').attr('class', 'outline');
    // Presentation attributes (the CSP forbids inline styles): the text colour, light and dark.
    g.append('line').attr('class', 'peak-mark').attr('stroke', 'currentColor').attr('stroke-width', 3.5).attr('stroke-linecap', 'round');
    g.append('text').attr('class', 'col-total').attr('text-anchor', 'middle');
    g.append('text').attr('class', 'col-over').attr('text-anchor', 'middle');
    g.append('text').attr('class', 'col-label').attr('text-anchor', 'middle');
    g.append('text').attr('class', 'col-sub').attr('text-anchor', 'middle');
    return g;
  });
  set(cols, {
    'data-optimizer': (c) => c.optimizer, 'data-state': stateOf,
    class: (c) => `col${c.selected ? ' col--selected' : ''}${c.fits ? '' : ' col--over'}${c.state === 'invalid' ? ' col--invalid' : ''}`,
  });

  const fill = (c) => `url(#${c.fits ? chart.dotsId : chart.hatchId})`;
  const nameFits = Object.values(NARROW_NAMES).every((t) => t.length * NAME_PX <= x.step() - 6);
  const peakTexts = new Map(model.columns.map((c, i) => [c.optimizer, plan.texts[i]]));
  cols.each(function drawColumn(c) {
    const g = select(this);
    const x0 = r(x(c.optimizer));
    const mid = r(x0 + bw / 2);
    const top = r(y(c.visible_bytes));
    const base = r(y(0));
    const yp = r(y(c.peak_bytes));
    // The lines a label must not cross: the budget line, and (PyTorch) this column's peak line.
    const lines = pytorch ? [yb, yp] : [yb];
    const segTop = (s) => r(y(s.y1));
    const segHeight = (s) => Math.max(0, r(y(s.y0) - y(s.y1)));
    set(g.select('g.segs').selectAll('rect').data(c.segments, (s) => s.key).join('rect'), {
      class: (s) => `seg seg--${s.key}`, 'data-key': (s) => s.key,
      x: x0, width: r(bw), y: segTop, height: segHeight,
    });
    // A segment label: name and amount if both fit the column, else a one-letter name, else the
    // amount, else nothing; it moves within its segment (or gives way) where a line crosses it.
    const labelOf = (s) => {
      const hgt = segHeight(s);
      if (hgt < 15) return { text: '', y: 0 };
      let text = segmentLabelText(s.key, s.bytes, units, bw);
      let ly = segTop(s) + hgt / 2 + 4;
      if (text && lines.some((l) => crosses(ly, l))) {
        const inside = (v) => v - 11 >= segTop(s) + 1 && v + 3 <= segTop(s) + hgt - 1 && !lines.some((l) => crosses(v, l));
        const spots = lines.flatMap((l) => [l - 8, l + 16]).filter(inside).sort((a, b) => Math.abs(a - ly) - Math.abs(b - ly));
        if (spots.length) ly = spots[0];
        else text = '';
      }
      return { text, y: r(ly) };
    };
    set(g.select('g.seg-labels').selectAll('text').data(c.segments, (s) => s.key).join('text'), {
      class: (s) => `seg-label seg-label--${s.key}`, 'text-anchor': 'middle',
      x: mid, y: (s) => labelOf(s).y,
    }, (s) => labelOf(s).text);
    set(g.select('rect.hatch'), { x: x0, width: r(bw), y: top, height: Math.max(0, base - top), fill: fill(c), display: stateOf(c) === 'ok' ? 'none' : null });
    set(g.select('rect.outline'), { x: x0 - 3, width: r(bw + 6), y: top - 3, height: Math.max(0, base - top) + 3, display: c.selected ? null : 'none' });
    // PyTorch defaults: the column stacks the sum of the components; a line across it marks the
    // peak during a step (lower than the sum: not everything is live at once).
    set(g.select('line.peak-mark'), { x1: x0 - 4, x2: r(x0 + bw + 4), y1: yp, y2: yp, 'data-bytes': c.peak_bytes, display: pytorch ? null : 'none' });
    // With parts hidden the peak still counts them; the key line says so.
    const { y1, y2 } = blockOf(c, y, yb);
    set(g.select('text.col-total'), { x: mid, y: r(y2), class: plan.bare && !wide ? 'col-total col-total--narrow' : 'col-total' }, peakTexts.get(c.optimizer));
    set(g.select('text.col-over'), { x: mid, y: r(y1) }, flagOf(c, wide));
    set(g.select('text.col-label'), { x: mid, y: H - M.bottom + 20 }, wide ? c.label : nameFits ? NARROW_NAMES[c.optimizer] || c.label : TINY_NAMES[c.optimizer] || c.label);
    set(g.select('text.col-sub'), { x: mid, y: H - M.bottom + 38 }, c.selected ? '(selected)' : '');
  });

}

export class LedgerChart {
  constructor(container, { label = 'Training memory ledger' } = {}) {
    const n = ++chartCount;
    this.container = container;
    this.hatchId = `ledger-hatch-${n}`;
    this.dotsId = `ledger-dots-${n}`;
    this.svg = select(container).append('svg')
      .attr('class', 'chart ledger-chart')
      .attr('role', 'img')
      .attr('aria-label', label);
    const defs = this.svg.append('defs');
    defs.append('pattern').attr('id', this.hatchId).attr('patternUnits', 'userSpaceOnUse')
      .attr('width', 8).attr('height', 8).attr('patternTransform', 'rotate(45)')
      .append('rect').attr('class', 'hatch-stroke').attr('width', 3).attr('height', 8);
    defs.append('pattern').attr('id', this.dotsId).attr('patternUnits', 'userSpaceOnUse')
      .attr('width', 7).attr('height', 7)
      .append('circle').attr('class', 'hatch-stroke').attr('cx', 3.5).attr('cy', 3.5).attr('r', 1.6);
    this.gAxis = this.svg.append('g').attr('class', 'axis axis--y');
    this.axisTitle = this.svg.append('text').attr('class', 'axis-title').attr('text-anchor', 'middle');
    this.gCols = this.svg.append('g').attr('class', 'columns');
    this.gBudget = this.svg.append('g').attr('class', 'budget');
    this.gBudget.append('line').attr('class', 'budget-line');
    this.budgetLabel = this.gBudget.append('text').attr('class', 'budget-label').attr('text-anchor', 'start');
    this.budgetName = this.budgetLabel.append('tspan').text('Device budget');
    this.budgetValue = this.budgetLabel.append('tspan');
    // Narrow boxes: the peak labels are bare amounts, and this line in the top margin says what they are.
    this.peakKey = this.svg.append('text').attr('class', 'peak-key').attr('text-anchor', 'start');
    this.gOverlay = this.svg.append('g').attr('class', 'overlay');
    // Redraw at the new width when the box changes size (phone rotation, zoom, sidebar).
    if (typeof ResizeObserver === 'function') {
      // In the next frame, not inside the observer: a redraw there changes the size it observes, and
      // WebKit then reports "ResizeObserver loop completed with undelivered notifications" as an error.
      this.resizer = new ResizeObserver(() => afterResize(this, () => { if (this.last && this.width() !== this.drawnWidth) this.update(...this.last); }));
      this.resizer.observe(container);
    }
  }

  width() {
    return Math.max(280, Math.min(720, Math.floor(this.container.clientWidth || 640)));
  }

  // Lays the chart out at the box's width (margins, the y scale grown until the labels clear the key,
  // the columns' bands, the peak labels' plan), then draws the axis, columns, budget line and key.
  update(model, opts = {}) {
    this.last = [model, opts];
    const { units = 'gb', deviceName = '', summary = '', overlay = null } = opts;
    const W = this.width();
    this.drawnWidth = W;
    const wide = W >= WIDE;
    const pytorch = model.framework === 'pytorch';
    const M = wide ? { top: 44, right: 118, bottom: overlay ? 76 : 58, left: 64 } : { top: 62, right: 10, bottom: overlay ? 92 : 58, left: 46 };
    set(this.svg, { viewBox: `0 0 ${W} ${H}`, 'data-layout': wide ? 'wide' : 'narrow' });
    const u = unitOf(units);
    const r = (v) => Math.round(v * 10) / 10;
    // PyTorch: with parts hidden the peak line can stand above the column, so the scale reaches it.
    // After the reveal the scale also reaches the top of the prediction's bracket, which a large
    // guess on a small scenario would otherwise draw above the plot (a walk found it clipped).
    const maxBytes = Math.max(model.max_bytes, ...(pytorch ? model.columns.map((c) => c.peak_bytes) : []), overlayTopBytes(model, overlay));
    // The scale runs in display units so that the ticks are round numbers in GB or GiB. `head`: how
    // far above the tallest column the axis reaches (grown until the labels clear the key lines).
    const scaleFor = (head) => {
      const yUnits = scaleLinear().domain([0, (maxBytes * head) / u.bytes]).range([H - M.bottom, M.top]).nice();
      // The left margin leaves room for the widest tick ("1,500") beside the rotated axis title, so
      // the two never overlap: title band (about 18 px), tick text, tick mark and padding (9 px).
      const tickFormat = yUnits.tickFormat(6);
      const widestTick = Math.max(...yUnits.ticks(6).map((t) => tickFormat(t).length)) * 6.6;
      M.left = Math.max(M.left, Math.ceil((wide ? 22 : 17) + widestTick + 9 + 2));
      return yUnits;
    };
    let yUnits = scaleFor(1.06);
    const x = scaleBand().domain(model.columns.map((c) => c.optimizer)).range([M.left, W - M.right])
      .paddingInner(wide ? 0.35 : 0.22).paddingOuter(wide ? 0.25 : 0.12);
    // Each peak label may take its column's step (less a gap) and must stay over the plot.
    const mids = model.columns.map((c) => x(c.optimizer) + x.bandwidth() / 2);
    const rooms = mids.map((m) => Math.min(x.step() - 10, 2 * (m - M.left), 2 * (W - M.right - m)));
    const plan = peakLabelPlan(model.columns.map((c) => (pytorch ? c.total_bytes : c.peak_bytes)), { units, wide, pytorch, hidden: model.hidden.length > 0, roomPx: rooms });
    const keyLines = plan.key.flatMap((t) => wrapKey(t, W - M.left - 8));
    const keyTop = wide ? 16 : 32; // narrow: the budget label's line is above it (y = 14)
    const keyBottom = keyLines.length ? keyTop + (keyLines.length - 1) * KEY_LINE + 4 : wide ? 0 : 18;
    // Wide: the budget label (right margin, two lines from 16 px above the line) clears the key too.
    M.top = Math.max(M.top, keyBottom + (wide ? 20 : 14));
    // Above the column: the state word (if any) right above it, the peak above that. The pair sits
    // above the column's top and above its peak line (PyTorch), and moves above the budget line when
    // the line would run through it. The block spans [y2 - 12, y1 + 4].
    const blockOf = (c, y, yb) => {
      const top = r(y(c.visible_bytes));
      const anchor = pytorch ? Math.min(top, r(y(c.peak_bytes)) - 2) : top;
      const span = flagOf(c, wide) ? 14 : 0;
      // The selected column's outline runs 3 px above its top: its label sits 3 px higher, clear of it.
      let y1 = anchor - (c.selected ? 11 : 8);
      if (yb >= y1 - span - 12 && yb <= y1 + 4) y1 = yb - 6;
      return { y1, y2: y1 - span };
    };
    // Grow the axis until every label block clears the key lines (or the top edge).
    for (let head = 1.06, i = 0; i < 12; i += 1, head *= 1.08) {
      yUnits = scaleFor(head);
      const yy = (bytes) => yUnits(bytes / u.bytes);
      const ybb = r(yy(model.budget_bytes));
      if (Math.min(...model.columns.map((c) => blockOf(c, yy, ybb).y2 - 12)) >= keyBottom + 3) break;
    }
    x.range([M.left, W - M.right]);
    const y = (bytes) => yUnits(bytes / u.bytes);
    if (summary) set(this.svg, { 'aria-label': `Training memory ledger chart. ${summary}` });

    const axisKey = `${yUnits.domain().join(',')}|${u.id}|${W}|${M.left}|${M.bottom}|${M.top}`;
    if (axisKey !== this.axisKey) {
      this.axisKey = axisKey;
      this.gAxis.attr('transform', `translate(${M.left},0)`).call(axisLeft(yUnits).ticks(6));
      this.axisTitle.attr('transform', `translate(${wide ? 16 : 11},${(M.top + H - M.bottom) / 2}) rotate(-90)`).text(`Memory (${u.label})`);
    }
    const yb = r(y(model.budget_bytes));

    // The layout the column and overlay drawers read (blockOf: where a column's words go).
    const L = { x, y, bw: x.bandwidth(), r, M, W, units, wide, plan, yb, blockOf };
    drawColumns(this, model, L);

    set(this.gBudget.select('line'), { x1: M.left, x2: wide ? W - M.right + 4 : W - M.right, y1: yb, y2: yb });
    if (wide) {
      set(this.budgetLabel, { x: W - M.right + 8, y: yb - 4, 'text-anchor': 'start' });
      set(this.budgetName, { x: W - M.right + 8, dy: null }, 'Device budget');
      set(this.budgetValue, { x: W - M.right + 8, dy: '1.2em' }, formatBytes(model.budget_bytes, units));
    } else {
      // Narrow: one line in the top margin, away from every column label.
      set(this.budgetLabel, { x: M.left, y: 14, 'text-anchor': 'start' });
      set(this.budgetName, { x: M.left, dy: null }, '– – Device budget: ');
      set(this.budgetValue, { x: null, dy: null }, formatBytes(model.budget_bytes, units));
    }
    set(this.gBudget, { 'data-device': deviceName });
    // The key: what the column, the line and the numbers above mean, wrapped to the chart's width.
    set(this.peakKey, { x: M.left, y: keyTop, display: keyLines.length ? null : 'none' });
    const spans = this.peakKey.selectAll('tspan').data(keyLines).join('tspan');
    set(spans, { x: M.left, dy: (d, i) => (i === 0 ? null : KEY_LINE) }, (d) => d);
    this.drawOverlay(model, overlay, L);
  }

  // After the reveal: the student's prediction (dashed) and Adam's real extra memory over SGD at the
  // settings on screen (solid), as two brackets from the bottom of Adam's m, named in a key below.
  drawOverlay(model, overlay, { x, y, bw, r, M, W, units }) {
    const adam = model.columns.find((c) => c.optimizer === 'adam');
    const m = adam && adam.segments.find((s) => s.key === 'adam_m');
    const v = adam && adam.segments.find((s) => s.key === 'adam_v');
    const show = Boolean(overlay && m && v);
    this.gOverlay.attr('display', show ? null : 'none');
    if (!show) { this.gOverlay.selectAll('*').remove(); return; }
    const x1 = r(x('adam') + bw + 6);
    const base = r(y(m.y0));
    const realTop = r(y(v.y1));
    const guessTop = r(y(m.y0 + overlay.predicted_bytes));
    const wide = W >= WIDE;
    const rows = [
      { key: 'guess', x: x1 + 8, top: guessTop, text: wide ? `your prediction: ${overlay.predicted_label}` : `your prediction: ${overlay.predicted_short || overlay.predicted_label}` },
      { key: 'real', x: x1, top: realTop, text: `${wide ? 'Adam’s real extra over SGD here' : 'Adam − SGD here'}: ${formatBytes(overlay.gap_bytes, units)}` },
    ];
    const g = this.gOverlay.selectAll('g.bracket').data(rows, (d) => d.key).join((enter) => {
      const e = enter.append('g');
      e.append('line').attr('class', 'bracket-line');
      e.append('line').attr('class', 'bracket-cap bracket-cap--top');
      e.append('line').attr('class', 'bracket-cap bracket-cap--base');
      return e;
    });
    set(g, { class: (d) => `bracket bracket--${d.key}` });
    set(g.select('.bracket-line'), { x1: (d) => d.x, x2: (d) => d.x, y1: base, y2: (d) => d.top });
    set(g.select('.bracket-cap--top'), { x1: (d) => d.x - 4, x2: (d) => d.x + 4, y1: (d) => d.top, y2: (d) => d.top });
    set(g.select('.bracket-cap--base'), { x1: (d) => d.x - 4, x2: (d) => d.x + 4, y1: base, y2: base });
    // The key: one line per bracket under the column names, wrapped to the chart's width.
    const keyTop = H - M.bottom + 58;
    const key = this.gOverlay.selectAll('g.overlay-key').data(rows, (d) => d.key).join((enter) => {
      const e = enter.append('g');
      e.append('line').attr('class', 'bracket-line');
      e.append('text').attr('class', 'overlay-label');
      return e;
    });
    set(key, { class: (d) => `overlay-key overlay-key--${d.key}` });
    set(key.select('line'), { x1: M.left, x2: M.left + 18, y1: (d, i) => keyTop + i * 16 - 4, y2: (d, i) => keyTop + i * 16 - 4 });
    set(key.select('text'), { x: M.left + 24, y: (d, i) => keyTop + i * 16,
      class: (d) => (d.text.length * CHAR_PX > W - M.left - 30 ? 'overlay-label overlay-label--small' : 'overlay-label') }, (d) => d.text);
  }

  reset() {
    this.axisKey = null;
    this.last = null;
    this.gCols.selectAll('*').remove();
    this.gOverlay.selectAll('*').remove();
    this.svg.attr('aria-label', 'Training memory ledger chart');
  }
}
