// The embedding's messages, DOM-free: what the lab tells its host (height in three dialects, ready,
// progress, the design ledger) and which incoming messages it accepts. Everything else is rejected with
// a reason. Used by embed/frame.js (postMessage to the parent window) and embed/element.js (DOM events).
// Tested in tests/web/unit/embed-messages.test.mjs.
import { LAB_ID } from '../state/store.js';
import { act1Complete, act2Complete, act3Complete } from '../state/completion.js';

export { LAB_ID };
export const MAX_INSTANCE_LENGTH = 64;

// A parameter's value or all its values (URLSearchParams.getAll) → { value } (null when absent), or
// { distinct } when it is given with different values: ambiguous, so neither is used.
const shorten = (v) => (v.length > 80 ? `${v.slice(0, 80)}…` : v);
function oneValue(value) {
  if (!Array.isArray(value)) return { value };
  const distinct = [...new Set(value)];
  return distinct.length > 1 ? { value: null, distinct } : { value: distinct.length ? distinct[0] : null };
}

// `parentOrigin` (a URL parameter of the iframe page): the one origin allowed to receive the lab's
// messages and to send it requests. Returns { origin } or { origin: null, error } (words for a notice).
// Given twice with different values, a frame must not guess where its answers go.
export function parseParentOrigin(given) {
  const { value, distinct } = oneValue(given);
  if (distinct) {
    return { origin: null, error: `parentOrigin is given ${distinct.length} different values (${distinct.slice(0, 3).map(shorten).join(', ')}${distinct.length > 3 ? ', …' : ''}); the lab sends nothing (no height, progress or ledger) until it is given once.` };
  }
  if (value === null || value === undefined || value === '') return { origin: null, error: null };
  const shown = shorten(value);
  let url;
  try { url = new URL(value); } catch { url = null; }
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.origin !== value.replace(/\/$/, '')) {
    return { origin: null, error: `parentOrigin=${shown}: not an origin such as https://courses.example.edu (scheme, host and port only, no path); the lab sends nothing (no height, progress or ledger) until this is fixed.` };
  }
  return { origin: url.origin, error: null };
}

// parentOrigin names one site, but the page the lab is embedded in is on another (the browser's
// location.ancestorOrigins, where it has one): nothing would reach that page, and without a notice
// the frame would just stay small and silent. Null when they match or the browser does not say.
export function parentOriginMismatch(parentOrigin, embeddedIn) {
  if (!parentOrigin || !embeddedIn || embeddedIn === 'null' || embeddedIn === parentOrigin) return null;
  return `parentOrigin=${parentOrigin}, but this lab is embedded in a page on ${shorten(embeddedIn)}: the lab sends that page nothing (no height, progress or ledger) until parentOrigin names it.`;
}

// `instance` (optional): a name the host gives this frame, echoed in every message, to tell several
// embedded labs apart.
export function parseInstance(given) {
  const { value, distinct } = oneValue(given);
  if (distinct) return { instance: null, error: `instance is given ${distinct.length} different values; none was used.` };
  if (value === null || value === undefined || value === '') return { instance: null, error: null };
  if (/^[A-Za-z0-9_.:-]{1,64}$/.test(value)) return { instance: value, error: null };
  return { instance: null, error: `instance: use up to ${MAX_INSTANCE_LENGTH} letters, digits, '-', '_', '.' or ':'; it was ignored.` };
}

// Progress in a few booleans per act (no answers): safe to post to any host. Completion is derived
// from the record (completion.js), as the ledger check derives it, never read from the stored flag.
export function progressSummary(state) {
  const a1 = state.acts.act1;
  const a2 = state.acts.act2;
  const a3 = state.acts.act3 || {}; // absent until Act 3 is opened
  const acts = {
    act1: { predicted: Boolean(a1.prediction), explored: Boolean(a1.explored), revealed: Boolean(a1.revealed),
      reflected: Boolean(a1.reflection), completed: act1Complete(a1) },
    act2: { predicted: Boolean(a2.prediction), explored: Boolean(a2.explored), revealed: Boolean(a2.revealed),
      regime_reached: Boolean(a2.design && a2.design.regime_reached), laptop_fit_achieved: Boolean(a2.laptop && a2.laptop.fit_achieved),
      reflected: Boolean(a2.reflection_fix && a2.reflection_ckpt), completed: act2Complete(a2) },
    act3: { predicted: Boolean(a3.prediction), explored: Boolean(a3.explored), revealed: Boolean(a3.revealed),
      reflected: Boolean(a3.reflection_dp && a3.reflection_ceiling), completed: act3Complete(a3) },
  };
  return { current_act: state.current_act, acts, completed_acts: Object.values(acts).filter((a) => a.completed).length, total_acts: 3 };
}

// Outgoing messages. `tag`: { labId, instance? }.
export function heightMessages(height, tag) {
  return [
    { context: 'h5p', action: 'prepareResize', scrollHeight: height, clientHeight: height, height },
    { context: 'h5p', action: 'resize', scrollHeight: height, height },
    { subject: 'lti.frameResize', height },
    { type: 'lab:resize', height, ...tag },
  ];
}
// Which of heightMessages() to post. Answering H5P's 'resizePrepared' needs only H5P's 'resize', but if
// the height changed since the last report every other dialect must hear it too (a Canvas or generic host
// would otherwise keep the old height: the next change check sees nothing new). H5P's 'prepareResize' is
// not repeated there, since the parent answers it with another 'resizePrepared'.
export function heightMessagesToPost(height, tag, { changed, answeringResizePrepared = false }) {
  return heightMessages(height, tag).filter((m) => {
    if (!answeringResizePrepared) return true;
    if (m.context === 'h5p') return m.action === 'resize';
    return changed;
  });
}
export const h5pHello = () => ({ context: 'h5p', action: 'hello' });
export const readyMessage = (tag, extra) => ({ type: 'lab:ready', ...tag, ...extra });
export const progressMessage = (tag, progress) => ({ type: 'lab:progress', ...tag, progress });
export const ledgerMessage = (tag, ledger) => ({ type: 'lab:ledger', ...tag, ledger });

// Incoming: returns { kind } for a message the lab answers, or { kind: null, reason }.
//   H5P resizer: {context:'h5p', action:'hello' | 'prepareResize' | 'resizePrepared' | 'resize'}
//   generic:     {type:'lab:request-height'} and {type:'lab:request-ledger'} (the ledger only where allowed)
const H5P_ACTIONS = ['hello', 'prepareResize', 'resizePrepared', 'resize'];
const LAB_REQUESTS = ['lab:request-height', 'lab:request-ledger'];
const SENT_TYPES = ['lab:resize', 'lab:ready', 'lab:progress', 'lab:ledger'];
export function readIncoming(data) {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return { kind: null, reason: `not an object (${data === null ? 'null' : Array.isArray(data) ? 'an array' : typeof data})` };
  }
  if (Object.getPrototypeOf(data) !== Object.prototype && Object.getPrototypeOf(data) !== null) return { kind: null, reason: 'not a plain object' };
  if (data.context === 'h5p') {
    if (typeof data.action === 'string' && H5P_ACTIONS.includes(data.action)) return { kind: `h5p:${data.action}` };
    return { kind: null, reason: `an H5P message with an unknown action (${typeof data.action === 'string' ? data.action.slice(0, 40) : typeof data.action})` };
  }
  if (typeof data.type === 'string' && LAB_REQUESTS.includes(data.type)) {
    if (data.labId !== undefined && data.labId !== LAB_ID) return { kind: null, reason: `for another lab (labId ${String(data.labId).slice(0, 40)})` };
    return { kind: data.type };
  }
  if (typeof data.type === 'string' && data.type.startsWith('lab:')) {
    const t = data.type.slice(0, 40);
    return { kind: null, reason: SENT_TYPES.includes(data.type) ? `'${t}' is a message the lab sends, not a request it answers`
      : `'${t}' is not a request the lab answers (it answers ${LAB_REQUESTS.join(' and ')})` };
  }
  return { kind: null, reason: 'not a message the lab knows' };
}

// May a message from `origin` be answered? With parentOrigin set: only from it. Without: any origin
// (the parent window is checked separately), since the answers carry no answers of the student's.
export function originAllowed(origin, parentOrigin) {
  return parentOrigin ? origin === parentOrigin : true;
}

// Where the ledger (the student's own answers) may go: the configured parentOrigin; otherwise only a
// parent on the lab's own origin. null = not sent.
export function ledgerTarget({ parentOrigin, ownOrigin, parentIsSameOrigin }) {
  if (parentOrigin) return parentOrigin;
  if (parentIsSameOrigin && ownOrigin && ownOrigin !== 'null') return ownOrigin;
  return null;
}
