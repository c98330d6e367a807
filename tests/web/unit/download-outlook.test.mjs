// Unit tests for web/src/ui/download-outlook.js: whether a download can reach the student, from what
// a page can see of the frames above it (frameChain on fake windows).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { downloadOutlook, frameChain } from '../../../web/src/ui/download-outlook.js';

const sandbox = (tokens) => ({ sandboxed: true, tokens });
const plain = { sandboxed: false, tokens: [] };

test('downloadOutlook: yes, no or unknown from the readable frames, the top and the origin', () => {
  assert.equal(downloadOutlook({}), 'yes', 'a page of its own');
  assert.equal(downloadOutlook({ frames: [plain] }), 'yes', 'a frame without a sandbox');
  assert.equal(downloadOutlook({ frames: [sandbox(['allow-scripts', 'allow-same-origin', 'allow-downloads'])] }), 'yes');
  assert.equal(downloadOutlook({ frames: [sandbox(['allow-scripts', 'allow-same-origin'])] }), 'no');
  assert.equal(downloadOutlook({ frames: [sandbox([])] }), 'no', 'sandbox="" allows nothing');
  assert.equal(downloadOutlook({ frames: [plain, sandbox(['allow-scripts', 'allow-same-origin'])] }), 'no', 'a sandbox further up counts too');
  assert.equal(downloadOutlook({ frames: [], reachedTop: false }), 'unknown', 'an embedding page on another origin');
  assert.equal(downloadOutlook({ frames: [plain], reachedTop: false }), 'unknown');
  assert.equal(downloadOutlook({ frames: [sandbox(['allow-scripts'])], reachedTop: false }), 'no', 'a readable sandbox decides even if the top cannot be read');
  assert.equal(downloadOutlook({ reachedTop: false, opaque: true }), 'unknown', 'sandboxed without allow-same-origin');
  assert.equal(downloadOutlook({ opaque: true }), 'unknown', 'a top page with no origin (a CSP sandbox)');
});

// A fake window: `frame` is the <iframe> (or null when the parent is on another origin, or 'throw').
function fakeWindow({ frame, parent = null, origin = 'https://labs.example.edu', protocol = 'https:' }) {
  const w = { origin, location: { protocol } };
  w.parent = parent || w;
  w.top = parent ? parent.top : w;
  Object.defineProperty(w, 'frameElement', { get() { if (frame === 'throw') throw new DOMException('x', 'SecurityError'); return frame; } });
  return w;
}
const iframe = (attr) => ({ hasAttribute: (n) => n === 'sandbox' && attr !== null, sandbox: attr === null ? [] : attr.split(' ').filter(Boolean) });

test('frameChain: what a window can see of the frames above it', () => {
  const top = fakeWindow({ frame: null });
  assert.deepEqual(frameChain(top), { frames: [], reachedTop: true, opaque: false });
  const same = fakeWindow({ frame: iframe('allow-scripts allow-same-origin'), parent: top });
  assert.deepEqual(frameChain(same), { frames: [sandbox(['allow-scripts', 'allow-same-origin'])], reachedTop: true, opaque: false });
  assert.equal(downloadOutlook(frameChain(same)), 'no');
  const cross = fakeWindow({ frame: null, parent: top });
  assert.deepEqual(frameChain(cross), { frames: [], reachedTop: false, opaque: false });
  const opaque = fakeWindow({ frame: 'throw', parent: top, origin: 'null' });
  assert.deepEqual(frameChain(opaque), { frames: [], reachedTop: false, opaque: true });
  const nested = fakeWindow({ frame: iframe(null), parent: fakeWindow({ frame: null, parent: top }) });
  assert.deepEqual(frameChain(nested), { frames: [plain], reachedTop: false, opaque: false });
  const file = fakeWindow({ frame: null, origin: 'null', protocol: 'file:' });
  assert.equal(downloadOutlook(frameChain(file)), 'yes', 'the single file opened from disk');
});
