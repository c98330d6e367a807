// Entry point of the lab's own page: make the store (persistent if the browser allows), then start the
// lab (embed/boot.js: the engine with a visible loading state and a clear message if it fails, the URL,
// the app shell). The iframe page (embed/frame.js) and <lab-model-train> start the same way.
import './ui/styles.css';
import { createStore } from './state/store.js';
import { bootLab, probeStorage, showFailure } from './embed/boot.js';
import { takeAddress, sessionOf } from './state/url-handoff.js';

// The module runs: boot-watchdog.js (a classic script, for when it cannot) stays quiet.
document.documentElement.dataset.started = 'true';

async function boot() {
  // Writes to storage and the URL are coalesced (both cost milliseconds in Chromium) and flushed
  // when the page is hidden; a reload reads the address before that flush, so the address due is
  // handed over too (url-handoff.js): a reload or a closed tab never loses the last change.
  const store = createStore({ storage: probeStorage(window), defer: (fn) => setTimeout(fn, 200) });
  window.addEventListener('pagehide', () => store.flush());
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'hidden') store.flush(); });
  // A change made just before a reload is in the address handed over when the page was left.
  const search = takeAddress(sessionOf(window), window.location.search);
  // Acts switch in place, as history entries: progress kept in memory (storage blocked, or saving
  // failed) survives a switch, and Back/Forward move between acts.
  const lab = await bootLab({ doc: document, win: window, store, search, inPlace: true });
  if (!lab) return;
  document.documentElement.dataset.ready = 'true';
  performance.mark('lab-interactive');
}

boot().catch((err) => showFailure(document, err));
