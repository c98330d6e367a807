// <lab-model-train>: the whole lab as a custom element, added to a course page with one script tag
// (<script type="module" src=".../lab-model-train.js">). Its attributes use the URL parameters'
// vocabulary (act, opt, prec, batch, ckpt, k, dev, cap, units, replay, off, hide, lock, workers, prefetch,
// depth, pin; Act 3's gpus, strategy, net), read by the same parser (url-state.js); plus theme (auto | light | dark), storage
// (local | memory) and storage-key. Styles live in an open shadow root, themable with the palette's
// custom properties. Each element has its own store and switches acts in place; it never touches the
// page's address. Events (bubbling, composed): lab:ready, lab:progress, lab:ledger (detail below).
import stylesCss from '../ui/styles.css?inline';
import act2Css from '../acts/act2.css?inline';
import act3Css from '../acts/act3.css?inline';
import measureCss from '../acts/measure.css?inline';
import ledgerCss from '../acts/ledger-panel.css?inline';
import workbenchCss from '../acts/workbench.css?inline';
import { createStore, STORAGE_KEY, LAB_ID } from '../state/store.js';
import { h } from '../ui/dom.js';
import { bootLab, probeStorage, showFailure } from './boot.js';
import { createReporter } from './reporter.js';
import { shadowCss } from './shadow-css.js';

export const SCENARIO_ATTRIBUTES = ['act', 'opt', 'prec', 'batch', 'ckpt', 'k', 'dev', 'cap', 'units', 'replay', 'off', 'hide', 'lock',
  'workers', 'prefetch', 'depth', 'pin', 'fw', 'gpus', 'strategy', 'net'];
const THEMES = ['auto', 'light', 'dark'];
const STORAGES = ['local', 'memory'];

let sheet = null;
function labSheet() {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(shadowCss([stylesCss, act2Css, act3Css, measureCss, ledgerCss, workbenchCss].join('\n')));
  }
  return sheet;
}

// The attributes as a query string for parseUrlState, and the element's own settings with their problems.
export function readAttributes(el) {
  const params = new URLSearchParams();
  for (const name of SCENARIO_ATTRIBUTES) if (el.hasAttribute(name)) params.set(name, el.getAttribute(name));
  const problems = [];
  const theme = el.getAttribute('theme');
  if (theme !== null && !THEMES.includes(theme)) problems.push(`theme="${theme.slice(0, 40)}": use ${THEMES.join(', ')}; the page’s colour scheme is used.`);
  let storage = el.getAttribute('storage') || 'local';
  if (!STORAGES.includes(storage)) {
    problems.push(`storage="${storage.slice(0, 40)}": use local (progress saved in this browser) or memory (not saved); progress is saved.`);
    storage = 'local';
  }
  let key = el.getAttribute('storage-key');
  if (key !== null && !/^[\w./:#@-]{1,100}$/.test(key)) {
    problems.push(`storage-key="${key.slice(0, 40)}": use up to 100 letters, digits and - _ . / : # @; the default key is used.`);
    key = null;
  }
  let label = el.getAttribute('label');
  if (label !== null && (label.trim() === '' || label.length > 120)) {
    problems.push(`label="${label.slice(0, 40)}${label.length > 40 ? '…' : ''}": use 1 to 120 characters; the default name is used.`);
    label = null;
  }
  return { search: `?${params}`, storage, key, label, problems };
}

let count = 0;

// A second lab on the page repeats every panel's name ("1. Predict"), and assistive technology lists
// landmarks page-wide: name this copy's regions "<heading> (2)". A region named by its heading gets
// the same words plus the suffix as its own label (acts mount and switch later, hence the observer).
function uniqueRegionNames(root, suffix) {
  const rename = () => {
    for (const el of root.querySelectorAll('section[aria-labelledby]')) {
      const heading = root.getElementById(el.getAttribute('aria-labelledby'));
      if (!heading) continue;
      el.setAttribute('aria-label', `${heading.textContent}${suffix}`);
      el.removeAttribute('aria-labelledby');
    }
  };
  let queued = false;
  new MutationObserver(() => {
    if (queued) return;
    queued = true;
    queueMicrotask(() => { queued = false; rename(); });
  }).observe(root, { childList: true, subtree: true });
  rename();
}

export class LabModelTrain extends HTMLElement {
  connectedCallback() {
    if (this.shadowRoot) { // moved in the page: keep running as it is
      if (this._flush) window.addEventListener('pagehide', this._flush);
      return;
    }
    count += 1;
    const n = count;
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [labSheet()];
    const { search, storage, key, label: labelAttr, problems } = readAttributes(this);
    const suffix = n > 1 ? ` (${n})` : '';
    const label = labelAttr || `Lab 08: Model Training${suffix}`;
    root.append(h('section', { class: 'lab-body', 'aria-label': label },
      h('header', { class: 'site-header' }, h('div', { class: 'site-header__inner' },
        h('p', { class: 'kicker', text: 'Lab 08' }),
        h('h2', { class: 'lab-title', text: 'Model Training: where the memory and the time go' }),
        h('div', { id: 'header-tools', class: 'header-tools' }))),
      h('nav', { id: 'act-nav', class: 'act-nav', 'aria-label': `Acts of this lab${suffix}` }),
      h('div', { id: 'notices', class: 'notices', role: 'status', 'aria-live': 'polite' }),
      h('div', { class: 'lab-main' },
        h('div', { id: 'boot', class: 'boot' },
          h('p', { id: 'boot-status', class: 'boot__status', role: 'status' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), ' Loading the engine…')),
        h('div', { id: 'act-root' })),
      h('div', { id: 'announcer', class: 'visually-hidden', role: 'status', 'aria-live': 'polite' }),
      h('footer', { class: 'site-footer' }, h('p', { id: 'footer-engine', text: 'Every number in this lab is computed by the lab’s C++ engine for the scenario on screen.' }))));
    // Each element keeps its own progress: under storage-key, else the page's path and the element's id
    // (or its place among the page's labs).
    const index = [...document.querySelectorAll('lab-model-train')].indexOf(this);
    const storeKey = key || `${STORAGE_KEY}@${location.pathname}#${this.id || index}`;
    const store = createStore({ storage: storage === 'memory' ? null : probeStorage(window), key: storeKey, defer: (fn) => setTimeout(fn, 200) });
    this._flush = () => store.flush();
    window.addEventListener('pagehide', this._flush);
    const extraNotices = problems.length ? [h('div', { class: 'notice notice--warn', 'data-notice': 'element' },
      h('p', {}, h('strong', { text: 'Some settings of this embedded lab could not be used (tell your instructor):' })),
      h('ul', {}, problems.map((p) => h('li', { text: p }))))] : [];
    if (suffix) uniqueRegionNames(root, suffix);
    const emit = (type, detail) => this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
    bootLab({ doc: document, root, win: window, store, search, inPlace: true, syncUrl: false, share: false,
      settingsSource: 'of this embedded lab (its attributes)', extraNotices, memoryChosen: storage === 'memory' })
      .then((lab) => {
        if (!lab) return;
        this.setAttribute('data-ready', 'true');
        emit('lab:ready', { labId: LAB_ID, engine_version: lab.engine.version(), persistent: store.status().persistent });
        this._reporter = createReporter({ store, engine: lab.engine, emit: (kind, payload) => emit(`lab:${kind}`,
          kind === 'progress' ? { labId: LAB_ID, progress: payload } : { labId: LAB_ID, ledger: payload }) });
        this._reporter.reportNow();
      })
      .catch((err) => showFailure(root, err));
  }

  disconnectedCallback() {
    if (this._flush) { this._flush(); window.removeEventListener('pagehide', this._flush); }
  }

  // The current design ledger (the same object lab:ledger carries), or null before the engine is ready.
  get ledger() {
    return this._reporter ? this._reporter.ledger() : null;
  }
}

if (!customElements.get('lab-model-train')) customElements.define('lab-model-train', LabModelTrain);
