// Starting the lab into a page or a shadow root: the engine (with a visible loading state and a clear
// message if it cannot start), the settings from a query string, then the app shell (app.js). The page
// (main.js), the iframe page (embed/frame.js) and <lab-model-train> (embed/element.js) all start here;
// what differs between them (storage, in-place act switching, the address bar) is in the options.
import { loadEngine } from '../engine/engine.js';
import { withConfig, withConfig2, withWorkbench, saveFailure } from '../state/store.js';
import { parseUrlState, actOf, useWorkbenchUrl, useAct3Url } from '../state/url-state.js';
import { availableActs } from '../acts/index.js';
import { startApp } from '../app.js';

// Act 3's URL module, set in url-state.js; null when it did not arrive (Act 3 then says it could not load).
async function loadAct3Url() {
  try { const m = await import('../state/act3-url.js'); useAct3Url(m); return m; } catch { return null; }
}

// localStorage can be missing or throw (sandboxed / cross-site iframes, privacy modes). A full one is
// still read (saved progress comes back); its first write fails and the page says so (app.js).
export function probeStorage(win) {
  let s = null;
  try {
    s = win.localStorage;
    const key = 'lab08-model-train/probe';
    s.setItem(key, '1');
    s.removeItem(key);
    return s;
  } catch (err) {
    return s && saveFailure(err) === 'full' ? s : null;
  }
}

export function showFailure(root, err) {
  const status = root.getElementById('boot-status');
  const box = root.getElementById('boot');
  if (!status || !box) return;
  status.removeAttribute('role');
  box.setAttribute('role', 'alert');
  box.classList.add('boot--failed');
  status.textContent = 'The lab’s engine could not start, so the lab cannot run. ';
  const detail = root.ownerDocument ? root.ownerDocument.createElement('p') : document.createElement('p');
  detail.className = 'boot__detail';
  detail.textContent = `Details: ${err && err.message ? err.message : String(err)}. The lab needs a browser with WebAssembly enabled; try reloading the page, or a current version of Chrome, Edge, Firefox or Safari.`;
  box.append(detail);
}

// Resolves with { engine, app(), navigate(actId) } once the first act is on screen, or null when the
// engine could not start (the failure is then shown in place of the loading line).
// root: the Document or ShadowRoot holding #boot, #act-root, #notices, #announcer, #header-tools, #act-nav.
// inPlace: act links switch the act without loading a page, so progress kept in memory (storage
// blocked, or saving failed) survives. With syncUrl too (the page; the element and the iframe page
// never write an address) each switch is a history entry with the address a page load would have,
// and Back/Forward switch back. memoryChosen: the course page asked for memory.
export async function bootLab({ doc, root = doc, win, store, search, inPlace = false, syncUrl = true, share = true,
  settingsSource, extraNotices = [], memoryChosen = false }) {
  const slow = win.setTimeout(() => {
    const status = root.getElementById('boot-status');
    if (status && status.lastChild) status.lastChild.textContent = ' Still loading the engine…';
  }, 8000);
  let engine;
  try {
    engine = await loadEngine();
  } catch (err) {
    showFailure(root, err);
    return null;
  } finally {
    win.clearTimeout(slow);
  }
  const catalog = engine.catalog();
  // A link to the workbench: its URL module first (with the workbench's code, not the first load).
  if (actOf(search, availableActs()) === 'workbench') {
    try { useWorkbenchUrl(await import('../state/workbench-url.js')); } catch { /* the workbench says it could not load */ }
  }
  // A link to Act 3: its URL module first (with Act 3's code, not the first load).
  let act3Url = null;
  if (actOf(search, availableActs()) === 3) act3Url = await loadAct3Url();
  // The stored state decides whether a lone k= or depth= applies (checkpointing every k, prefetch on).
  const urlState = parseUrlState(search, { deviceIds: catalog.devices.map((d) => d.id), modelIds: catalog.models.map((m) => m.id), availableActs: availableActs(), current: store.getState() });
  const config2Before = JSON.stringify(store.getState().config2);
  if (urlState.hasConfig) {
    store.update((s) => withWorkbench(withConfig2(withConfig(s, urlState.config), urlState.config2), urlState.workbench));
    if (act3Url && Object.keys(urlState.config3).length) store.update((s) => act3Url.withConfig3(s, urlState.config3));
  }
  // Act 2 settings a link changed are the link's until the student changes one (Act 2's design
  // challenge does not count them); one object for every act mounted from this page load.
  const arrival = { act2FromLink: JSON.stringify(store.getState().config2) !== config2Before };
  const notes = store.status().notes;
  let app = null;
  const start = (act, pushAddress = false) => {
    app = startApp({ doc, root, win, engine, store, urlState: act === undefined ? urlState : { ...urlState, act }, notes, arrival,
      navigate: inPlace ? navigate : null, syncUrl, share, settingsSource, extraNotices, memoryChosen, pushAddress });
  };
  const historyEntries = inPlace && syncUrl;
  function navigate(actId, push = historyEntries, search = null) {
    if (search) { followWorkbenchLink(actId, push, search); return; }
    app.destroy();
    start(actId, push);
    app.focus();
  }
  // A link inside the lab that carries the workbench's settings (Act 1's "Check this step on your
  // GPU"): its settings apply as an address's would, then the workbench opens in place.
  async function followWorkbenchLink(actId, push, search) {
    const act3 = actId === 3 ? await loadAct3Url() : null;
    if (actId === 'workbench') try { useWorkbenchUrl(await import('../state/workbench-url.js')); } catch { /* the workbench says it could not load */ }
    const linked = parseUrlState(search, { deviceIds: catalog.devices.map((d) => d.id), modelIds: catalog.models.map((m) => m.id), availableActs: availableActs(), current: store.getState() });
    if (linked.workbench) store.update((s) => withWorkbench(s, linked.workbench));
    // Act 2's laptop challenge links into Act 3 with its settings.
    if (act3 && Object.keys(linked.config3).length) store.update((s) => act3.withConfig3(s, linked.config3));
    navigate(actId, push);
  }
  start();
  if (historyEntries) {
    // Back and Forward between entries of this page: the act the address names, settings as they are now.
    win.addEventListener('popstate', () => {
      const actId = actOf(win.location.search, availableActs());
      if (actId !== null && actId !== app.act.id) navigate(actId, false);
    });
  }
  const footer = root.getElementById('footer-engine');
  if (footer) footer.textContent = `Every number in this lab is computed by the lab's C++ engine (version ${engine.version()}, compiled to WebAssembly) for the scenario on screen. Sources: the chapter “Model Training”; Korthikanti et al. 2022; Rajbhandari et al. 2019 (ZeRO); Micikevicius et al. 2017.`;
  return { engine, app: () => app, navigate };
}
