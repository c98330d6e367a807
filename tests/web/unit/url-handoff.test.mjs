// Unit tests for web/src/url-handoff.js: an address write pending when the page is left reaches the
// next load of the same address, once, and nothing else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { handOffAddress, takeAddress, sessionOf } from '../../../web/src/url-handoff.js';

const memory = () => { const m = new Map(); return { getItem: (k) => (m.has(k) ? m.get(k) : null), setItem: (k, v) => m.set(k, String(v)), removeItem: (k) => m.delete(k) }; };

test('a pending address reaches the next load of the same address, once', () => {
  const s = memory();
  handOffAddress(s, '?act=2&workers=0', '?act=2&workers=2');
  assert.equal(takeAddress(s, '?act=2&workers=0'), '?act=2&workers=2');
  assert.equal(takeAddress(s, '?act=2&workers=0'), '?act=2&workers=0', 'used up');
});

test('a load of another address (a link) ignores the hand-over and uses it up', () => {
  const s = memory();
  handOffAddress(s, '?act=2&workers=0', '?act=2&workers=2');
  assert.equal(takeAddress(s, '?act=1&opt=sgd'), '?act=1&opt=sgd');
  assert.equal(takeAddress(s, '?act=2&workers=0'), '?act=2&workers=0');
});

test('blocked or damaged storage changes nothing and never throws', () => {
  assert.equal(takeAddress(null, '?act=1'), '?act=1');
  assert.doesNotThrow(() => handOffAddress(null, '?a', '?b'));
  const s = memory();
  s.setItem('lab08-model-train/pending-address', '{not json');
  assert.equal(takeAddress(s, '?act=1'), '?act=1');
  handOffAddress(s, '?act=1', 'javascript:alert(1)');
  assert.equal(takeAddress(s, '?act=1'), '?act=1', 'only a query is taken');
  assert.equal(sessionOf({ get sessionStorage() { throw new Error('sandboxed'); } }), null);
});
