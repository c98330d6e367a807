// Unit tests for web/src/state/url-handoff.js: an address write pending when the page is left reaches the
// next load of the same address, once, and nothing else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { handOffAddress, takeAddress, sessionOf, addressFollower } from '../../../web/src/state/url-handoff.js';

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

// A fake clock and address bar for addressFollower.
function follower(start) {
  const clock = { now: 0, timers: new Map(), next: 1 };
  const bar = { search: start, writes: [] };
  const f = addressFollower({
    delayMs: 250,
    schedule: (fn, ms) => { const id = clock.next++; clock.timers.set(id, { at: clock.now + ms, fn }); return id; },
    cancel: (id) => clock.timers.delete(id),
    current: () => bar.search,
    write: (q) => { bar.search = q; bar.writes.push(q); },
  });
  const advance = (ms) => {
    clock.now += ms;
    for (const [id, t] of [...clock.timers]) if (t.at <= clock.now) { clock.timers.delete(id); t.fn(); }
  };
  return { f, bar, advance };
}

test('the address follows a change after the delay, once, and a new change restarts the wait', () => {
  const { f, bar, advance } = follower('?a=1');
  f.want('?a=2');
  advance(200);
  assert.equal(bar.search, '?a=1');
  assert.equal(f.pending(), '?a=2');
  f.want('?a=3');
  advance(200);
  assert.equal(bar.search, '?a=1', 'a new address restarts the wait');
  advance(50);
  assert.deepEqual(bar.writes, ['?a=3']);
  assert.equal(f.pending(), null);
});

test('store changes that leave the address alone (answers, reveals) do not hold it back', () => {
  const { f, bar, advance } = follower('?a=1');
  f.want('?a=2');
  for (let i = 0; i < 5; i += 1) { advance(100); f.want('?a=2'); }
  assert.deepEqual(bar.writes, ['?a=2'], 'written 250 ms after the change, not after the last answer');
});

test('flush writes a pending address at once; nothing is written when nothing is due', () => {
  const { f, bar, advance } = follower('?a=1');
  f.flush();
  f.want('?a=1');
  advance(1000);
  assert.deepEqual(bar.writes, []);
  f.want('?a=2');
  f.flush();
  assert.deepEqual(bar.writes, ['?a=2']);
  advance(1000);
  assert.deepEqual(bar.writes, ['?a=2'], 'the cancelled timer writes nothing more');
});
