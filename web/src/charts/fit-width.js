// Drawing a chart at its box's own width (issue 10: fit, don't scroll). The "Measure it" charts
// measure their box like the Act 1 ledger chart does, redraw when it changes size, and wrap or
// shorten their words on narrow boxes. No DOM beyond the box's width and a ResizeObserver.
import { afterResize } from '../ui/after-paint.js';

export const CHAR_PX = 6.4; // average glyph width at the 11–12 px chart fonts
export const NARROW = 520; // below this a chart uses its narrow layout

export function boxWidth(container, { min = 280, max = 760, fallback = 640 } = {}) {
  return Math.max(min, Math.min(max, Math.floor((container && container.clientWidth) || fallback)));
}

// Redraws chart (chart.last: the arguments of its last update; chart.drawnWidth: the width it drew
// at) when its box changes width. It also keeps the box's width as the observer reports it in
// chart.observedWidth, so an update can read it without measuring: a measurement right after the
// update's own DOM writes would force a layout in the middle of every input (see observedWidthOr).
export function redrawOnResize(container, chart) {
  if (typeof ResizeObserver !== 'function') return null;
  const ro = new ResizeObserver((entries) => {
    const box = entries[entries.length - 1].contentRect;
    if (box && box.width > 0) chart.observedWidth = Math.floor(box.width);
    afterResize(chart, () => { if (chart.last && chart.width() !== chart.drawnWidth) chart.update(...chart.last); });
  });
  ro.observe(container);
  return ro;
}

// The width a chart draws at: the observer's last report, or (before the first report) a measurement.
export function observedWidthOr(chart, measure) {
  return chart.observedWidth || measure();
}

// Words into lines of at most maxPx (estimated at charPx a character); a word longer than a line
// gets a line of its own.
export function wrapText(text, maxPx, charPx = CHAR_PX) {
  const max = Math.max(8, Math.floor(maxPx / charPx));
  const lines = [];
  let cur = '';
  for (const word of String(text).split(/\s+/).filter(Boolean)) {
    if (cur && (cur.length + 1 + word.length) > max) { lines.push(cur); cur = word; } else cur = cur ? `${cur} ${word}` : word;
  }
  if (cur) lines.push(cur);
  return lines;
}

// Writes lines into an SVG text (d3 selection) as tspans at x, one lineHeight apart. Every line but
// the last keeps a trailing space, so the text read as a whole (by a screen reader or a copy) has its
// words apart ("down-projection, backward", not "down-projection,backward").
export function setLines(textSel, lines, x, lineHeight = 15) {
  textSel.selectAll('tspan').data(lines).join('tspan')
    .attr('x', x).attr('dy', (d, i) => (i === 0 ? 0 : lineHeight)).text((d, i) => (i < lines.length - 1 ? `${d} ` : d));
}
