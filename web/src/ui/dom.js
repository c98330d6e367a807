// Tiny DOM helpers: build elements without innerHTML (text always goes in as text), unique ids.
// Attributes only, never inline style (the page runs under a strict CSP). Text keeps every amount on
// one line with its unit (keepUnits: "32 GB" never breaks after the 32).
import { keepUnits } from '../format/format.js';

let nextId = 0;
export const uid = (prefix) => `${prefix}-${++nextId}`;

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') el.className = value;
    else if (key === 'text') el.textContent = keepUnits(String(value));
    else if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (value === true) el.setAttribute(key, '');
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(keepUnits(String(child))));
  }
  return el;
}

export function setText(el, text) {
  const t = keepUnits(String(text));
  if (el.textContent === t) return;
  // A lone text node is rewritten in place: textContent would replace it, and Chromium then drops
  // and rebuilds its layout object and restyles it (about 30 of them after each Act 2 input).
  const only = el.firstChild;
  if (t !== '' && only && only === el.lastChild && only.nodeType === 3) only.data = t;
  else el.textContent = t;
}

// el's children become one <p> per text (of class `className`, if given), reusing the paragraphs
// already there (only changed text is written, as setText does).
export function setParagraphs(el, texts, className = null) {
  while (el.children.length > texts.length) el.lastElementChild.remove();
  texts.forEach((t, i) => setText(el.children[i] || el.appendChild(h('p', { class: className })), t));
}

// An attribute write that skips an equal value (null removes it): Chromium invalidates style and
// layout on every write, equal or not.
export function setAttr(el, name, v) {
  if (v === null || v === undefined) { if (el.hasAttribute(name)) el.removeAttribute(name); return; }
  const s = String(v);
  if (el.getAttribute(name) !== s) el.setAttribute(name, s);
}

// Shows or hides an element, writing only a change (see setAttr).
export function setHidden(el, hidden) {
  if (el.hidden !== hidden) el.hidden = hidden;
}

export function replaceChildren(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

// Shows or hides a section; hidden parts are also inert so nothing inside can take focus.
export function setLocked(el, locked) {
  el.hidden = locked;
  el.inert = locked;
}

// A box that may scroll sideways (a wide table on a phone): focusable and named, so keyboard users
// can scroll it too (axe: scrollable-region-focusable).
export function scrollBox(child, label) {
  return h('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': label }, child);
}
