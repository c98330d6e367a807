// ui/offscreen-parts.js: parts out of view are drawn after the paint or on arrival, never lost and
// never drawn twice; a fake IntersectionObserver reports what is in view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createOffscreenParts } from '../../../web/src/ui/offscreen-parts.js';

class FakeObserver {
  static last = null;
  constructor(callback, options) { this.callback = callback; this.options = options; this.els = []; FakeObserver.last = this; }
  observe(el) { this.els.push(el); }
  disconnect() { this.els = []; }
  report(el, isIntersecting) { this.callback([{ target: el, isIntersecting }]); }
}
const counter = () => { const calls = []; return { calls, draw: (v) => () => calls.push(v) }; };

test('a part whose visibility is not known yet is drawn at once', () => {
  const parts = createOffscreenParts({ Observer: FakeObserver });
  const el = {};
  parts.watch(el);
  const c = counter();
  parts.draw(el, c.draw(1));
  assert.deepEqual(c.calls, [1]);
  assert.equal(parts.hasPending(), false);
});

test('a part out of view keeps only its latest draw, and flush draws it once', () => {
  const parts = createOffscreenParts({ Observer: FakeObserver });
  const el = {};
  parts.watch(el);
  FakeObserver.last.report(el, false);
  const c = counter();
  parts.draw(el, c.draw(1));
  parts.draw(el, c.draw(2));
  assert.deepEqual(c.calls, []);
  assert.equal(parts.hasPending(), true);
  parts.flush();
  parts.flush();
  assert.deepEqual(c.calls, [2]);
});

test('a part that scrolls into view gets its kept draw at once, and flush then has nothing left', () => {
  const parts = createOffscreenParts({ Observer: FakeObserver });
  const el = {};
  parts.watch(el);
  FakeObserver.last.report(el, false);
  const c = counter();
  parts.draw(el, c.draw('late'));
  FakeObserver.last.report(el, true);
  assert.deepEqual(c.calls, ['late']);
  parts.flush();
  assert.deepEqual(c.calls, ['late']);
  parts.draw(el, c.draw('now')); // in view: drawn before the paint
  assert.deepEqual(c.calls, ['late', 'now']);
});

test('a draw while in view replaces a kept one, so an older draw never lands after a newer one', () => {
  const parts = createOffscreenParts({ Observer: FakeObserver });
  const el = {};
  parts.watch(el);
  FakeObserver.last.report(el, false);
  const c = counter();
  parts.draw(el, c.draw('old'));
  FakeObserver.last.callback([]); // a report about nothing changes nothing
  assert.equal(parts.hasPending(), true);
  // Back in view and drawn with new numbers before the kept draw would have run.
  FakeObserver.last.report(el, true);
  parts.draw(el, c.draw('new'));
  parts.flush();
  assert.deepEqual(c.calls, ['old', 'new']);
});

test('parts are independent, and the margin reaches the observer', () => {
  const parts = createOffscreenParts({ Observer: FakeObserver, margin: '120px' });
  assert.equal(FakeObserver.last.options.rootMargin, '120px 0px 120px 0px');
  const a = {}; const b = {};
  parts.watch(a, b);
  FakeObserver.last.report(a, false);
  const c = counter();
  parts.draw(a, c.draw('a'));
  parts.draw(b, c.draw('b'));
  assert.deepEqual(c.calls, ['b']);
  parts.flush();
  assert.deepEqual(c.calls, ['b', 'a']);
});

test('without an IntersectionObserver every part is drawn at once', () => {
  const parts = createOffscreenParts({ Observer: undefined });
  const c = counter();
  parts.watch({});
  parts.draw({}, c.draw(1));
  assert.deepEqual(c.calls, [1]);
  assert.equal(parts.hasPending(), false);
});

test('stop drops what was kept: a destroyed act draws nothing', () => {
  const parts = createOffscreenParts({ Observer: FakeObserver });
  const el = {};
  parts.watch(el);
  FakeObserver.last.report(el, false);
  const c = counter();
  parts.draw(el, c.draw(1));
  parts.stop();
  parts.flush();
  assert.deepEqual(c.calls, []);
});
