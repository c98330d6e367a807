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
// One watched part, reported out of view when `outOfView`; draws are recorded in `calls`.
function watchedPart({ outOfView = false, scroller = null } = {}) {
  const parts = createOffscreenParts({ Observer: FakeObserver, scroller });
  const el = {};
  parts.watch(el);
  if (outOfView) FakeObserver.last.report(el, false);
  return { parts, el, observer: FakeObserver.last, ...counter() };
}

test('a part whose visibility is not known yet is drawn at once', () => {
  const { parts, el, calls, draw } = watchedPart();
  parts.draw(el, draw(1));
  assert.deepEqual(calls, [1]);
  assert.equal(parts.hasPending(), false);
});

test('a part out of view keeps only its latest draw, and flush draws it once', () => {
  const { parts, el, calls, draw } = watchedPart({ outOfView: true });
  parts.draw(el, draw(1));
  parts.draw(el, draw(2));
  assert.deepEqual(calls, []);
  assert.equal(parts.hasPending(), true);
  parts.flush();
  parts.flush();
  assert.deepEqual(calls, [2]);
});

test('a part that scrolls into view gets its kept draw at once, and flush then has nothing left', () => {
  const { parts, el, observer, calls, draw } = watchedPart({ outOfView: true });
  parts.draw(el, draw('late'));
  observer.report(el, true);
  assert.deepEqual(calls, ['late']);
  parts.flush();
  assert.deepEqual(calls, ['late']);
  parts.draw(el, draw('now')); // in view: drawn before the paint
  assert.deepEqual(calls, ['late', 'now']);
});

test('a draw while in view replaces a kept one, so an older draw never lands after a newer one', () => {
  const { parts, el, observer, calls, draw } = watchedPart({ outOfView: true });
  parts.draw(el, draw('old'));
  observer.callback([]); // a report about nothing changes nothing
  assert.equal(parts.hasPending(), true);
  // Back in view and drawn with new numbers before the kept draw would have run.
  observer.report(el, true);
  parts.draw(el, draw('new'));
  parts.flush();
  assert.deepEqual(calls, ['old', 'new']);
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
  const { parts, el, calls, draw } = watchedPart({ outOfView: true });
  parts.draw(el, draw(1));
  parts.stop();
  parts.flush();
  assert.deepEqual(calls, []);
});

test('a scroll while a part is kept draws it before that frame, and a stopped act stops listening', () => {
  const listeners = new Map();
  const scroller = {
    addEventListener: (type, fn, opts) => listeners.set(type, { fn, opts }),
    removeEventListener: (type, fn) => { if (listeners.get(type)?.fn === fn) listeners.delete(type); },
  };
  const { parts, el, calls, draw } = watchedPart({ outOfView: true, scroller });
  const scroll = listeners.get('scroll');
  assert.deepEqual(scroll.opts, { capture: true, passive: true });
  scroll.fn(); // nothing kept: nothing drawn
  parts.draw(el, draw('kept'));
  scroll.fn();
  assert.deepEqual(calls, ['kept']);
  assert.equal(parts.hasPending(), false);
  parts.stop();
  assert.equal(listeners.has('scroll'), false);
});
