// Writes that skip equal values. Chromium invalidates an SVG element's style and layout on every
// attribute write and replaces a text node on every textContent write, equal or not; a slider step
// rewrote ~400 attributes of which most were unchanged, and the frame after each input paid for all
// of them. These keep d3's (d, i, nodes) calling convention, so a chart reads as it would with
// selection.attr / selection.text.
import { setAttr, setText } from '../ui/dom.js';

const valueOf = (value, self, d, i, nodes) => (typeof value === 'function' ? value.call(self, d, i, nodes) : value);

// sel: a d3 selection; value: a constant or a function of (d, i, nodes).
export function attr(sel, name, value) {
  return sel.each(function write(d, i, nodes) { setAttr(this, name, valueOf(value, this, d, i, nodes)); });
}

export function text(sel, value) {
  return sel.each(function write(d, i, nodes) {
    const v = valueOf(value, this, d, i, nodes);
    setText(this, v === null || v === undefined ? '' : String(v));
  });
}
