// Entry point: make the store (persistent if the browser allows), start the engine with a visible
// loading state and a clear message if it fails, read the URL, then hand everything to the app shell.
import './styles.css';
import { loadEngine } from './engine.js';
import { createStore, withConfig, withConfig2 } from './store.js';
import { parseUrlState } from './url-state.js';
import { availableActs } from './acts/index.js';
import { startApp } from './app.js';

// localStorage can be missing or throw (sandboxed / cross-site iframes, privacy modes).
function probeStorage() {
  try {
    const s = window.localStorage;
    const key = 'lab08-model-train/probe';
    s.setItem(key, '1');
    s.removeItem(key);
    return s;
  } catch {
    return null;
  }
}

function showFailure(err) {
  const status = document.getElementById('boot-status');
  status.removeAttribute('role');
  const box = document.getElementById('boot');
  box.setAttribute('role', 'alert');
  box.classList.add('boot--failed');
  status.textContent = 'The lab’s engine could not start, so the lab cannot run. ';
  const detail = document.createElement('p');
  detail.className = 'boot__detail';
  detail.textContent = `Details: ${err && err.message ? err.message : String(err)}. The lab needs a browser with WebAssembly enabled; try reloading the page, or a current version of Chrome, Edge, Firefox or Safari.`;
  box.append(detail);
}

async function boot() {
  // Writes to storage and the URL are coalesced (both cost milliseconds in Chromium) and flushed
  // when the page is hidden, so a reload or a closed tab never loses the last change.
  const store = createStore({ storage: probeStorage(), defer: (fn) => setTimeout(fn, 200) });
  window.addEventListener('pagehide', () => store.flush());
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'hidden') store.flush(); });
  const slow = setTimeout(() => {
    const status = document.getElementById('boot-status');
    if (status) status.lastChild.textContent = ' Still loading the engine…';
  }, 8000);
  let engine;
  try {
    engine = await loadEngine();
  } catch (err) {
    clearTimeout(slow);
    showFailure(err);
    return;
  }
  clearTimeout(slow);
  const catalog = engine.catalog();
  const urlState = parseUrlState(window.location.search, {
    deviceIds: catalog.devices.map((d) => d.id), availableActs: availableActs(),
  });
  if (urlState.hasConfig) store.update((s) => withConfig2(withConfig(s, urlState.config), urlState.config2));
  const notes = store.status().notes;
  startApp({ doc: document, win: window, engine, store, urlState, notes });
  document.getElementById('footer-engine').textContent = `Every number in this lab is computed by the lab's C++ engine (version ${engine.version()}, compiled to WebAssembly) for the scenario on screen. Sources: the chapter “Model Training”; Korthikanti et al. 2022; Rajbhandari et al. 2019 (ZeRO); Micikevicius et al. 2017.`;
  document.documentElement.dataset.ready = 'true';
  performance.mark('lab-interactive');
}

boot().catch((err) => showFailure(err));
