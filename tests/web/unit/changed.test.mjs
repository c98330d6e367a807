// charts/changed.js and dom.js setAttr: writes that skip equal values (each write to an SVG element
// costs a re-layout in Chromium, equal or not). A fake element counts the writes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attr, text } from '../../../web/src/charts/changed.js';
import { setAttr } from '../../../web/src/ui/dom.js';

function fakeElement(attrs = {}) {
  const el = { attrs: { ...attrs }, writes: 0, removes: 0, text: '', textWrites: 0,
    getAttribute: (k) => (k in el.attrs ? el.attrs[k] : null), hasAttribute: (k) => k in el.attrs,
    setAttribute: (k, v) => { el.writes += 1; el.attrs[k] = String(v); },
    removeAttribute: (k) => { el.removes += 1; delete el.attrs[k]; } };
  Object.defineProperty(el, 'textContent', { get: () => el.text, set: (v) => { el.textWrites += 1; el.text = v; } });
  return el;
}
// The part of a d3 selection these helpers use: each(fn) with this = node, (d, i, nodes).
const selection = (nodes, data) => ({ each(fn) { nodes.forEach((n, i) => fn.call(n, data[i], i, nodes)); return this; } });

test('setAttr writes a changed value, skips an equal one, and removes on null', () => {
  const el = fakeElement({ x: '10%' });
  setAttr(el, 'x', '10%');
  assert.equal(el.writes, 0);
  setAttr(el, 'x', '12%');
  assert.deepEqual([el.writes, el.attrs.x], [1, '12%']);
  setAttr(el, 'width', 4); // numbers compare as the strings the DOM stores
  setAttr(el, 'width', 4);
  assert.deepEqual([el.writes, el.attrs.width], [2, '4']);
  setAttr(el, 'x', null);
  setAttr(el, 'x', undefined);
  assert.deepEqual([el.removes, el.hasAttribute('x')], [1, false]);
});

test('attr and text follow d3: constants or functions of (d, i), and write only what changed', () => {
  const nodes = [fakeElement({ x: '1' }), fakeElement({ x: '5' })];
  const sel = selection(nodes, [{ v: 1 }, { v: 2 }]);
  assert.equal(attr(sel, 'x', (d) => d.v), sel, 'returns the selection, so calls chain');
  assert.deepEqual(nodes.map((n) => [n.attrs.x, n.writes]), [['1', 0], ['2', 1]]);
  attr(sel, 'class', (d, i) => (i === 0 ? 'first' : null));
  assert.deepEqual(nodes.map((n) => n.attrs.class ?? null), ['first', null]);
  text(sel, (d) => `${d.v}%`);
  text(sel, (d) => `${d.v}%`);
  assert.deepEqual(nodes.map((n) => [n.text, n.textWrites]), [['1%', 1], ['2%', 1]]);
  text(sel, null);
  assert.deepEqual(nodes.map((n) => n.text), ['', '']);
});

test('setText rewrites a lone text node in place, and falls back to textContent otherwise', async () => {
  const { setText } = await import('../../../web/src/ui/dom.js');
  const node = { nodeType: 3, data: 'One step takes 2.00 s' };
  const el = fakeElement();
  el.text = node.data;
  Object.defineProperty(el, 'firstChild', { get: () => node });
  Object.defineProperty(el, 'lastChild', { get: () => node });
  setText(el, 'One step takes 1.50 s');
  assert.deepEqual([node.data, el.textWrites], ['One step takes 1.50\u00a0s', 0]); // the same node, new words (unit kept on its line)
  // Emptied, or an element with other children (or none): textContent, as before.
  setText(el, '');
  assert.equal(el.textWrites, 1);
  const empty = fakeElement();
  setText(empty, '12 GB');
  assert.deepEqual([empty.textWrites, empty.text], [1, '12\u00a0GB']);
});
