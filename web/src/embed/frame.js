// Entry point of the iframe page (embed.html): the lab as on its own page, plus messages to the parent
// window: its content height whenever it changes (H5P's resizer protocol, Canvas's lti.frameResize and
// the generic lab:resize), lab:ready, lab:progress and lab:ledger (embed/messages.js). Incoming
// messages are checked for source, origin and shape; everything else is ignored with a console warning.
// Acts switch in place (a reload would lose progress kept in memory where storage is blocked).
// URL parameters besides the lab's own: parentOrigin (the only origin that receives messages and may
// send requests), instance (a name echoed in every message).
import '../ui/styles.css';
import { createStore } from '../state/store.js';
import { h } from '../ui/dom.js';
import { bootLab, probeStorage, showFailure } from './boot.js';
import { createReporter } from './reporter.js';
import * as M from './messages.js';

const win = window;
document.documentElement.dataset.started = 'true'; // the module runs: boot-watchdog.js stays quiet
const params = new URLSearchParams(win.location.search);
const { origin: parentOrigin, error: originError } = M.parseParentOrigin(params.getAll('parentOrigin'));
const { instance, error: instanceError } = M.parseInstance(params.getAll('instance'));
const tag = instance ? { labId: M.LAB_ID, instance } : { labId: M.LAB_ID };
const parent = win.parent !== win ? win.parent : null;
let parentIsSameOrigin = false;
try { parentIsSameOrigin = Boolean(parent) && parent.location.origin === win.location.origin; } catch { parentIsSameOrigin = false; }
const generalTarget = parentOrigin || (originError ? null : '*');
// A parentOrigin that is not an origin: nothing is sent until it is fixed (the notice says so).
const ledgerTarget = originError ? null : M.ledgerTarget({ parentOrigin, ownOrigin: win.location.origin, parentIsSameOrigin });

function post(message, target = generalTarget) {
  if (!parent || !target) return;
  try { parent.postMessage(message, target); } catch { /* a parent that went away */ }
}

let ignored = 0;
function ignore(event, reason) {
  ignored += 1;
  document.documentElement.dataset.ignoredMessages = String(ignored);
  console.warn(`Lab 08 ignored a message from ${event.origin || 'an unknown origin'}: ${reason}.`);
}

// ---- height: reported whenever the content's height changes, and on request
let lastHeight = -1;
const measure = () => Math.ceil(Math.max(document.body.scrollHeight, document.body.getBoundingClientRect().height));
function sendHeight(force = false, answeringResizePrepared = false) {
  const height = measure();
  const changed = height !== lastHeight;
  if (!force && !changed) return;
  lastHeight = height;
  document.documentElement.dataset.height = String(height);
  for (const m of M.heightMessagesToPost(height, tag, { changed, answeringResizePrepared })) post(m);
}
let frame = 0;
new ResizeObserver(() => { if (!frame) frame = win.requestAnimationFrame(() => { frame = 0; sendHeight(); }); }).observe(document.body);

let reporter = null;
win.addEventListener('message', (event) => {
  if (!parent || event.source !== parent) { ignore(event, 'it did not come from the page this lab is embedded in'); return; }
  if (!M.originAllowed(event.origin, parentOrigin)) { ignore(event, `only ${parentOrigin} may send requests (parentOrigin)`); return; }
  const { kind, reason } = M.readIncoming(event.data);
  if (!kind) { ignore(event, reason); return; }
  if (kind === 'h5p:resizePrepared') sendHeight(true, true);
  else if (kind.startsWith('h5p:') || kind === 'lab:request-height') sendHeight(true);
  else if (kind === 'lab:request-ledger') {
    if (!ledgerTarget) { ignore(event, 'the ledger is only sent to the origin named by parentOrigin, or to a page on the lab’s own origin'); return; }
    const ledger = reporter && reporter.ledger();
    if (ledger) post(M.ledgerMessage(tag, ledger), ledgerTarget);
  }
});

// H5P's resizer answers 'hello' with 'prepareResize'; a parent whose resizer script loads after the lab
// would miss a single hello, so it is repeated (every 2 s, ten times) until a parent message arrives.
let helloAnswered = false;
win.addEventListener('message', (event) => { if (parent && event.source === parent) helloAnswered = true; });
post(M.h5pHello());
for (let i = 1; i <= 10; i += 1) setTimeout(() => { if (!helloAnswered) post(M.h5pHello()); }, 2000 * i);

async function boot() {
  const store = createStore({ storage: probeStorage(win), defer: (fn) => setTimeout(fn, 200) });
  win.addEventListener('pagehide', () => store.flush());
  const ancestors = win.location.ancestorOrigins; // Chromium and WebKit; undefined elsewhere
  const mismatch = M.parentOriginMismatch(parentOrigin, ancestors && ancestors.length ? ancestors[0] : null);
  const problems = [originError, mismatch, instanceError].filter(Boolean);
  const extraNotices = problems.length ? [h('div', { class: 'notice notice--warn', 'data-notice': 'embed' },
    h('p', {}, h('strong', { text: 'This embedded lab’s set-up needs fixing (tell your instructor):' })),
    h('ul', {}, problems.map((p) => h('li', { text: p }))))] : [];
  const lab = await bootLab({ doc: document, win, store, search: win.location.search, inPlace: true, syncUrl: false, share: false, extraNotices });
  if (!lab) { sendHeight(true); return; }
  document.documentElement.dataset.ready = 'true';
  post(M.readyMessage(tag, { engine_version: lab.engine.version(), persistent: store.status().persistent, height: measure() }));
  sendHeight(true);
  reporter = createReporter({ store, engine: lab.engine, win, emit: (kind, payload) => {
    if (kind === 'progress') post(M.progressMessage(tag, payload));
    else if (ledgerTarget) post(M.ledgerMessage(tag, payload), ledgerTarget);
  } });
  reporter.reportNow();
}

boot().catch((err) => { showFailure(document, err); sendHeight(true); });
