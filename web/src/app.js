// The app shell around the acts: act navigation, the units toggle, the notices (storage, URL
// problems), the share link and progress reset, and keeping the URL in step with the store.
// Acts mount into #act-root and never touch these parts. `root` (default: `doc`) is where those ids are
// looked up: the document, or a shadow root (the <lab-model-train> element). With `navigate(actId)`
// the act links switch in place (the page, the element, the iframe page) instead of loading a new page,
// so progress held in memory survives; `pushAddress` makes such a switch a new history entry (the
// page); with `syncUrl: false` the page's address is never written (an element must not rewrite its
// host's URL).
import { h, uid, replaceChildren, setText, setAttr } from './ui/dom.js';
import { ACTS, availableActs } from './acts/index.js';
import { serializeUrlState, withFlags } from './state/url-state.js';
import { handOffAddress, sessionOf, addressFollower } from './state/url-handoff.js';
import { withConfig } from './state/store.js';
import { UNITS } from './format/format.js';

// The storage notice's module (storage-notice.js), loaded the first time progress is not saved; kept for
// the app started again after an act switch, which then shows the notice at once.
let noticeModule = null;
const loadNotice = () => import('./ui/storage-notice.js').then((m) => { noticeModule = m; return m; });

// startApp wires the named parts below in page order (notices, header tools, act nav, the act, the act
// root's listeners, the address); each part returns what startApp needs later: a paint function for
// the store's changes, a function that undoes it for destroy(), or the address follower.
export function startApp({ doc, root = doc, win, engine, store, urlState, notes, arrival = {}, navigate = null, syncUrl = true, share: showShare = true,
  settingsSource = 'in the link', extraNotices = [], memoryChosen = false, pushAddress = false }) {
  const flags = { hide: urlState.hide, lock: urlState.lock };
  const announcer = root.getElementById('announcer');
  const announce = (text) => { announcer.textContent = ''; win.requestAnimationFrame(() => { announcer.textContent = text; }); };
  const act = ACTS.find((a) => a.id === (urlState.act || store.getState().current_act) && a.mount) || ACTS.find((a) => a.mount);
  const actRoot = root.getElementById('act-root');
  const noticesEl = root.getElementById('notices');
  // Notices: migration notes, the link's unusable settings and the page's own, after the storage notice.
  const stopNotices = showNotices(noticesEl, store, memoryChosen, withFlags('?act=ledger', flags), [
    ...notes.map((note) => h('p', { class: 'notice', 'data-notice': 'store', text: note })),
    urlErrorsNotice(act, urlState.errors, settingsSource), ...extraNotices]);
  const paintTools = buildHeaderTools(root, store, flags, announce, showShare);
  const paintNav = buildActNav(root, flags, act, navigate, focusAct);
  root.getElementById('boot').hidden = true;
  const mounted = act.mount({ root: actRoot, engine, store, flags, announce, arrival });
  // After a switch, focus goes to the act's heading (tabindex=-1), scrolling only as far as needed to
  // show it; an act still loading takes it on its loading line and hands it on (acts/index.js).
  function focusAct() {
    const target = actRoot.querySelector('#act-title, [data-loading]');
    if (target) {
      target.focus({ preventScroll: true });
      target.scrollIntoView({ block: 'nearest' });
    }
  }
  const unwireActRoot = wireActRoot(actRoot, noticesEl, flags, act, navigate, focusAct);
  const address = followAddress(win);
  // On pagehide a pending change is written and handed to a reload (url-handoff.js).
  const onPageHide = () => {
    const due = address.pending();
    if (due !== null) handOffAddress(sessionOf(win), win.location.search, due);
    address.flush();
  };
  if (syncUrl) win.addEventListener('pagehide', onPageHide);
  // Each store change (and the first paint, without `prev`): the address when this app writes it, then
  // the share link and units, then the act nav.
  function sync(state, prev) {
    const query = serializeUrlState({ ...state, ...flags, act: act.id });
    if (syncUrl) {
      address.want(query);
      // An act switched in place is a new history entry, with the address a page load would have.
      if (!prev && pushAddress) {
        try { win.history.pushState(null, '', query); } catch { /* e.g. sandboxed srcdoc frames: replaced below */ }
      }
      if (!prev) address.flush();
    }
    paintTools(state, new URL(query, win.location.href).href);
    paintNav(state, query);
  }
  // Panels beside the acts ("Measure it") are visited, not progressed through: current_act stays.
  if (act.progress !== false && store.getState().current_act !== act.id) store.update((s) => ({ ...s, current_act: act.id }));
  sync(store.getState());
  const unsubscribe = store.subscribe(sync);
  // destroy(): before starting the app again in place with another act.
  const destroy = () => {
    unsubscribe();
    stopNotices();
    address.flush();
    // Removed by name: an app started again in place must not write this act's address on pagehide.
    win.removeEventListener('pagehide', onPageHide);
    unwireActRoot();
    mounted.destroy();
    actRoot.replaceChildren();
  };
  return { act, flags, availableActs: availableActs(), focus: focusAct, destroy };
}

// The notices above the act: `given` (migration notes, bad settings in the link, the page's own) after
// the storage notice when progress is not saved. Returns stop(), which ends the watch on saving and
// drops a storage notice still loading.
function showNotices(noticesEl, store, memoryChosen, ledgerHref, given) {
  let destroyed = false;
  // Progress not saved: the notice says what is kept and what is lost (at once when its module is here).
  const showStorage = (status) => {
    if (noticeModule) return noticeModule.storageNotice(status, memoryChosen, ledgerHref);
    loadNotice().then((m) => { if (!destroyed) noticesEl.prepend(m.storageNotice(status, memoryChosen, ledgerHref)); });
    return null;
  };
  const items = [store.status().persistent ? null : showStorage(store.status()), ...given].filter(Boolean);
  // The same notices after an act switch are left as they are: a live region would read them again.
  if (noticesEl.textContent !== items.map((n) => n.textContent).join('') || !items.length) replaceChildren(noticesEl, items);
  // Saving that fails later (storage full or revoked) is said at once, in the notices' live region.
  const unwatch = store.watchStatus((status) => { const n = showStorage(status); if (n) noticesEl.prepend(n); });
  return () => { destroyed = true; unwatch(); };
}

// The settings in the link that could not be used, one line each (none: no notice).
function urlErrorsNotice(act, errors, settingsSource) {
  if (!errors.length) return null;
  return h('div', { class: 'notice notice--warn', 'data-notice': 'url' },
    h('p', {}, h('strong', { text: act.progress === false && !act.ownSettings
      // Panels beside the acts keep the acts' settings in the link but do not use them (the workbench has its own).
      ? `Some of the acts’ settings ${settingsSource} could not be used (they do not change this page):`
      : `Some settings ${settingsSource} could not be used:` })),
    h('ul', {}, errors.map((e) => h('li', { 'data-param': e.param, text: e.message }))));
}

// Header tools: the units toggle, the share link (when `showShare`) and the reset with its
// confirmation. Returns paint(state, href): the units and the link follow the store.
function buildHeaderTools(root, store, flags, announce, showShare) {
  const unitsName = uid('units');
  const unitInputs = Object.values(UNITS).map((u) => {
    const id = uid(`units-${u.id}`);
    const input = h('input', { type: 'radio', name: unitsName, id, value: u.id, disabled: flags.lock.includes('units'),
      onchange: () => input.checked && store.update((s) => withConfig(s, { units: u.id })) });
    return { input, el: h('span', { class: 'radio radio--inline' }, input, h('label', { for: id, title: u.name, text: u.label })) };
  });
  const unitsGroup = h('fieldset', { class: 'units', 'data-control': 'units', hidden: flags.hide.includes('units') },
    h('legend', { text: 'Units' }), unitInputs.map((u) => u.el),
    flags.lock.includes('units') ? h('span', { class: 'control__note--lock', text: ' (locked)' }) : null);
  const shareId = uid('share');
  const share = h('input', { type: 'text', id: shareId, readonly: true, class: 'share__url', onfocus: () => share.select() });
  // Reset asks first: it clears every prediction, reveal and reflection and cannot be undone.
  const confirmBox = h('div', { class: 'reset-confirm', role: 'group', 'aria-label': 'Confirm the reset', hidden: true });
  const reset = h('button', { type: 'button', class: 'btn btn--small', text: 'Reset my answers', 'aria-expanded': 'false',
    onclick: () => { confirmBox.hidden = false; reset.setAttribute('aria-expanded', 'true'); keep.focus(); } });
  const closeConfirm = () => { confirmBox.hidden = true; reset.setAttribute('aria-expanded', 'false'); reset.focus(); };
  const keep = h('button', { type: 'button', class: 'btn btn--small', text: 'Keep my answers', onclick: closeConfirm });
  const wipe = h('button', { type: 'button', class: 'btn btn--small btn--danger', text: 'Yes, clear them',
    onclick: () => { store.reset(); closeConfirm(); announce('Your answers were cleared. The prediction is open again.'); } });
  confirmBox.append(h('p', { text: 'Clear every prediction, reveal and reflection in this browser? This cannot be undone; your settings stay.' }), wipe, keep);
  confirmBox.addEventListener('keydown', (event) => { if (event.key === 'Escape') closeConfirm(); });
  const more = h('details', { class: 'share' }, h('summary', { text: showShare ? 'Share or reset' : 'Reset' }),
    showShare ? h('label', { for: shareId, text: 'Link to this exact configuration' }) : null, showShare ? share : null,
    h('p', { class: 'control__note', text: showShare ? 'Answers are kept in this browser only; the link carries the settings, not your answers.' : 'Answers are kept in this browser only.' }), reset, confirmBox);
  replaceChildren(root.getElementById('header-tools'), unitsGroup, more);
  return (state, href) => {
    if (share.value !== href) share.value = href;
    for (const u of unitInputs) u.input.checked = u.input.value === state.config.units;
  };
}

// Navigation: one entry per act; acts without a mount are shown as coming soon (not links). Returns
// paint(state, query): this act's link gets the address, each act's status its progress.
function buildActNav(root, flags, act, navigate, focus) {
  const navLinks = new Map();
  const nav = h('ol', { class: 'act-nav__list' }, ACTS.map((a) => {
    if (!a.mount) {
      return h('li', {}, h('span', { class: 'act-nav__item act-nav__item--soon', 'aria-disabled': 'true' },
        a.nav, h('span', { class: 'act-nav__status', text: ' (coming soon)' })));
    }
    const status = h('span', { class: 'act-nav__status' });
    const link = h('a', { class: 'act-nav__item', href: withFlags(`?act=${a.id}`, flags), 'aria-current': a === act ? 'page' : null,
      onclick: (event) => { if (a === act) { event.preventDefault(); focus(); } else if (navigate) { event.preventDefault(); navigate(a.id); } } },
    a.nav, status);
    navLinks.set(a.id, { link, status });
    return h('li', {}, link);
  }));
  replaceChildren(root.getElementById('act-nav'), nav);
  return (state, query) => {
    setAttr(navLinks.get(act.id).link, 'href', query);
    for (const a of ACTS) if (a.status && navLinks.has(a.id)) setText(navLinks.get(a.id).status, a.status(state));
  };
}

// The act root's delegated listeners: links to another act, forms in sandboxed frames, the
// instructor's flags on links. Returns unwire(), which removes them by name.
function wireActRoot(actRoot, noticesEl, flags, act, navigate, focus) {
  // In-place navigation: links inside the acts (and the notices) to another act (?act=2, ?act=measure) switch too.
  const onLinkClick = (event) => {
    const link = event.target instanceof Element ? event.target.closest('a[href^="?"]') : null;
    if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    const target = new URLSearchParams(link.getAttribute('href')).get('act');
    const next = ACTS.find((a) => String(a.id) === target && a.mount);
    if (!next) return;
    event.preventDefault();
    // A workbench link with settings (Act 1's check link) or an Act 3 link with settings (Act 2's laptop
    // challenge) carries them; other links switch the act only.
    const settings = (target === 'workbench' || target === '3') && [...new URLSearchParams(link.getAttribute('href')).keys()].length > 1;
    if (next === act) focus(); else navigate(next.id, undefined, settings ? link.getAttribute('href') : null);
  };
  if (navigate) for (const el of [actRoot, noticesEl]) el.addEventListener('click', onLinkClick);
  // A frame sandboxed without allow-forms blocks a form's submission before its submit event, so the
  // acts' forms (all answered in script: predictions, reflections) would never answer there. Their
  // submit buttons' clicks (Enter in a form clicks one too) are turned into the submit event here.
  const onSubmitClick = (event) => {
    const button = event.target.closest('button[type=submit]');
    if (!button || !button.form || event.defaultPrevented) return;
    event.preventDefault();
    button.form.dispatchEvent(new SubmitEvent('submit', { bubbles: true, cancelable: true, submitter: button }));
  };
  actRoot.addEventListener('click', onSubmitClick);
  // Links inside the acts to another part of the lab carry the instructor's hide and lock lists,
  // written into the link as it is followed (click, middle click, or its context menu's new tab).
  const carryFlags = (event) => {
    const link = event.target instanceof Element ? event.target.closest('a[href^="?"]') : null;
    if (link) link.setAttribute('href', withFlags(link.getAttribute('href'), flags));
  };
  for (const type of ['click', 'auxclick', 'contextmenu']) actRoot.addEventListener(type, carryFlags, true);
  return () => {
    for (const el of [actRoot, noticesEl]) el.removeEventListener('click', onLinkClick);
    actRoot.removeEventListener('click', onSubmitClick);
    for (const type of ['click', 'auxclick', 'contextmenu']) actRoot.removeEventListener(type, carryFlags, true);
  };
}

// The address follows the store a moment after each change (url-handoff.js).
function followAddress(win) {
  return addressFollower({
    delayMs: 250,
    schedule: (fn, ms) => win.setTimeout(fn, ms),
    cancel: (t) => win.clearTimeout(t),
    current: () => win.location.search,
    write: (query) => {
      try { win.history.replaceState(null, '', query + win.location.hash); } catch { /* e.g. sandboxed srcdoc frames */ }
    },
  });
}

