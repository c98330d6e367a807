// The embedding's pure parts: the iframe page's messages (web/src/embed/messages.js) and the element's
// stylesheet rewrite for a shadow root (web/src/embed/shadow-css.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  parseParentOrigin, parentOriginMismatch, parseInstance, progressSummary, heightMessages, heightMessagesToPost, readIncoming, originAllowed, ledgerTarget, LAB_ID,
} from '../../../web/src/embed/messages.js';
import { shadowCss } from '../../../web/src/embed/shadow-css.js';
import { defaultState, withAct1 } from '../../../web/src/state/store.js';

test('parentOrigin accepts an origin and names what is wrong with anything else', () => {
  assert.deepEqual(parseParentOrigin('https://canvas.example.edu'), { origin: 'https://canvas.example.edu', error: null });
  assert.deepEqual(parseParentOrigin('http://127.0.0.1:8080/'), { origin: 'http://127.0.0.1:8080', error: null });
  assert.deepEqual(parseParentOrigin(null), { origin: null, error: null });
  for (const bad of ['https://canvas.example.edu/courses/1', 'javascript:alert(1)', '*', 'canvas.example.edu', 'x'.repeat(500)]) {
    const out = parseParentOrigin(bad);
    assert.equal(out.origin, null, bad);
    assert.match(out.error, /^parentOrigin=.*not an origin/, bad);
    assert.ok(out.error.length < 300);
  }
});

test('a parentOrigin that is not the embedding page’s origin is named, with the page’s origin', () => {
  assert.equal(parentOriginMismatch('https://canvas.example.edu', 'https://canvas.example.edu'), null);
  assert.equal(parentOriginMismatch(null, 'https://canvas.example.edu'), null);
  assert.equal(parentOriginMismatch('https://canvas.example.edu', null), null, 'a browser without ancestorOrigins says nothing');
  assert.equal(parentOriginMismatch('https://canvas.example.edu', 'null'), null, 'an opaque (sandboxed) parent cannot be compared');
  assert.equal(parentOriginMismatch('https://canvas.example.edu', 'https://moodle.example.edu'),
    'parentOrigin=https://canvas.example.edu, but this lab is embedded in a page on https://moodle.example.edu: the lab sends that page nothing (no height, progress or ledger) until parentOrigin names it.');
});

test('instance names are short and plain', () => {
  assert.equal(parseInstance('week8-lab').instance, 'week8-lab');
  assert.match(parseInstance('<b>').error, /^instance:/);
  assert.match(parseInstance('a'.repeat(65)).error, /^instance:/);
});

test('progress says which steps are done and carries no answers', () => {
  const s = withAct1(defaultState(), { prediction: { choice: 'c', predicted_bytes: 1, truth_bytes: 2, error_ratio: 2, direction: 'under', answered_at: 'x' } });
  const p = progressSummary(s);
  assert.equal(p.acts.act1.predicted, true);
  assert.equal(p.acts.act2.predicted, false);
  assert.equal(p.completed_acts, 0);
  assert.equal(p.acts.act3.predicted, false, 'Act 3 not opened yet');
  assert.equal(p.total_acts, 3);
  assert.equal(JSON.stringify(p).includes('choice'), false);
});

test('the height goes out in H5P, Canvas and generic form', () => {
  const [prep, resize, canvas, generic] = heightMessages(812, { labId: LAB_ID, instance: 'w8' });
  assert.deepEqual(prep, { context: 'h5p', action: 'prepareResize', scrollHeight: 812, clientHeight: 812, height: 812 });
  assert.deepEqual(resize, { context: 'h5p', action: 'resize', scrollHeight: 812, height: 812 });
  assert.deepEqual(canvas, { subject: 'lti.frameResize', height: 812 });
  assert.deepEqual(generic, { type: 'lab:resize', height: 812, labId: LAB_ID, instance: 'w8' });
});

test('answering H5P\'s resizePrepared posts its resize, and a changed height in every other dialect too', () => {
  const tag = { labId: LAB_ID };
  const kinds = (list) => list.map((m) => m.action || m.subject || m.type);
  assert.deepEqual(kinds(heightMessagesToPost(900, tag, { changed: false, answeringResizePrepared: true })), ['resize']);
  // Regression: the height had changed when resizePrepared arrived, and only H5P heard about it, so a
  // Canvas or generic host kept the old height for good (the next check saw no change).
  assert.deepEqual(kinds(heightMessagesToPost(950, tag, { changed: true, answeringResizePrepared: true })),
    ['resize', 'lti.frameResize', 'lab:resize']);
  assert.deepEqual(kinds(heightMessagesToPost(950, tag, { changed: true })), ['prepareResize', 'resize', 'lti.frameResize', 'lab:resize']);
  assert.deepEqual(kinds(heightMessagesToPost(950, tag, { changed: false })), ['prepareResize', 'resize', 'lti.frameResize', 'lab:resize']);
});

test('only the requests the lab answers are accepted; everything else says why not', () => {
  assert.equal(readIncoming({ context: 'h5p', action: 'hello' }).kind, 'h5p:hello');
  assert.equal(readIncoming({ context: 'h5p', action: 'resizePrepared' }).kind, 'h5p:resizePrepared');
  assert.equal(readIncoming({ type: 'lab:request-ledger' }).kind, 'lab:request-ledger');
  assert.equal(readIncoming({ type: 'lab:request-height', labId: LAB_ID }).kind, 'lab:request-height');
  const rejected = [null, 'lab:request-ledger', [1], 42, { context: 'h5p', action: '__proto__' }, { context: 'h5p', action: { toString: 1 } },
    { type: 'lab:ledger', ledger: {} }, { type: 'lab:request-ledger', labId: 'other' }, { subject: 'lti.frameResize', height: 1 },
    new Date(), Object.create({ type: 'lab:request-height' })];
  for (const m of rejected) {
    const out = readIncoming(m);
    assert.equal(out.kind, null, JSON.stringify(m));
    assert.ok(typeof out.reason === 'string' && out.reason.length > 5, JSON.stringify(m));
  }
});

test('origins: requests only from parentOrigin when set; the ledger only to it or a same-origin parent', () => {
  assert.equal(originAllowed('https://a.edu', 'https://a.edu'), true);
  assert.equal(originAllowed('https://evil.example', 'https://a.edu'), false);
  assert.equal(originAllowed('https://evil.example', null), true);
  assert.equal(ledgerTarget({ parentOrigin: 'https://a.edu', ownOrigin: 'https://lab.edu', parentIsSameOrigin: false }), 'https://a.edu');
  assert.equal(ledgerTarget({ parentOrigin: null, ownOrigin: 'https://lab.edu', parentIsSameOrigin: true }), 'https://lab.edu');
  assert.equal(ledgerTarget({ parentOrigin: null, ownOrigin: 'https://lab.edu', parentIsSameOrigin: false }), null);
  assert.equal(ledgerTarget({ parentOrigin: null, ownOrigin: 'null', parentIsSameOrigin: true }), null);
});

test('the shadow stylesheet puts the palette on :host, with a forced dark theme and no html/body/main rules', () => {
  const css = readFileSync(new URL('../../../web/src/ui/styles.css', import.meta.url), 'utf8');
  for (const input of [css, css.replace(/\s+/g, ' ').replace(/\s*([{}:;,])\s*/g, '$1')]) {
    const out = shadowCss(input);
    assert.doesNotMatch(out, /:root/);
    assert.doesNotMatch(out, /(^|[}\s;])(html|body|main)\s*\{/);
    assert.match(out, /:host\s*\{[^}]*--accent/);
    assert.match(out, /:host\(\[theme="dark"\]\)\s*\{[^}]*--bg:\s*#111418[^}]*color-scheme: dark/);
    assert.match(out, /prefers-color-scheme:\s*dark\)\s*\{\s*:host\(:not\(\[theme="light"\]\)\)/);
  }
});

test('parentOrigin or instance given twice with different values is used neither way, and says so', () => {
  assert.deepEqual(parseParentOrigin(['https://a.edu', 'https://a.edu']), { origin: 'https://a.edu', error: null });
  assert.deepEqual(parseParentOrigin([]), { origin: null, error: null });
  const twice = parseParentOrigin(['https://a.edu', 'https://b.edu']);
  assert.equal(twice.origin, null);
  assert.equal(twice.error, 'parentOrigin is given 2 different values (https://a.edu, https://b.edu); the lab sends nothing (no height, progress or ledger) until it is given once.');
  assert.deepEqual(parseInstance(['w8', 'w9']), { instance: null, error: 'instance is given 2 different values; none was used.' });
  assert.deepEqual(parseInstance(['w8']), { instance: 'w8', error: null });
});
