// The address follows the lab's settings a moment after each change (app.js), but a reload within that
// moment loads the address as it was, and a link's settings win over saved progress: the change would
// be lost (walk 6). So an address write still pending when the page is left is handed to the next load
// of that same address in this tab (sessionStorage), which starts from the newer address instead.
const KEY = 'lab08-model-train/pending-address';

// The tab's sessionStorage, or null where the browser refuses it (a sandboxed frame throws on access).
export function sessionOf(win) {
  try { return win.sessionStorage || null; } catch { return null; }
}

// Called when the page is left with a write pending: `from` the address now, `to` the one due.
export function handOffAddress(storage, from, to) {
  try { storage.setItem(KEY, JSON.stringify({ from, to })); } catch { /* storage blocked: nothing to hand over */ }
}

// The query this load starts from: the handed-over one when this load is of the address it was handed
// from, else `search` itself. Either way the hand-over is used up.
export function takeAddress(storage, search) {
  let handed = null;
  try {
    handed = JSON.parse(storage.getItem(KEY) || 'null');
    storage.removeItem(KEY);
  } catch { return search; }
  return handed && handed.from === search && typeof handed.to === 'string' && handed.to.startsWith('?') ? handed.to : search;
}

// The address follows the settings `delayMs` after their last change (history.replaceState costs
// several milliseconds in Chromium and is rate-limited). Only a new address restarts the wait: answers
// and reveals change the store without changing the address, and restarting on them kept the address
// behind for as long as a student kept answering. `current()` reads the address, `write(q)` sets it.
export function addressFollower({ delayMs, schedule, cancel, current, write }) {
  let due = null;
  let timer = null;
  const flush = () => {
    if (timer !== null) cancel(timer);
    timer = null;
    if (due !== null && current() !== due) write(due);
  };
  return {
    want(query) {
      if (query === due && timer !== null) return;
      due = query;
      if (timer !== null) cancel(timer);
      timer = current() === query ? null : schedule(flush, delayMs);
    },
    flush,
    // The address due but not yet written, or null.
    pending: () => (timer !== null && due !== null && current() !== due ? due : null),
  };
}
