// Tells a host about the student's progress and design ledger as they change: progressSummary (a few
// booleans) and buildDesignLedger (design-ledger.js, the same builder as export and verify), each sent
// only when it differs from the last one sent, at most once per `delayMs` burst of store changes.
// `emit(kind, payload)` with kind 'progress' | 'ledger'; how it travels is the caller's (events, postMessage).
import { buildDesignLedger, ledgerEngine } from '../ledger/design-ledger.js';
import { progressSummary } from './messages.js';

export function createReporter({ store, engine, emit, win = globalThis, delayMs = 400, warn = (m) => console.warn(m) }) {
  // The ledger is rebuilt after every burst of changes; the laptop floor's solve never changes: keep it.
  const base = ledgerEngine(engine);
  const solved = new Map();
  const eng = { ...base, solve: (r) => { const k = JSON.stringify(r); if (!solved.has(k)) solved.set(k, base.solve(r)); return solved.get(k); } };
  let lastProgress = '';
  let lastLedger = '';
  let timer = null;
  const ledgerNow = () => {
    try {
      return buildDesignLedger(store.getState(), eng);
    } catch (err) {
      warn(`Lab 08: the design ledger could not be built (${err && err.message ? err.message : err}).`);
      return null;
    }
  };
  function report(force = false) {
    timer = null;
    const progress = progressSummary(store.getState());
    const p = JSON.stringify(progress);
    if (force || p !== lastProgress) { lastProgress = p; emit('progress', progress); }
    const ledger = ledgerNow();
    if (!ledger) return;
    const key = JSON.stringify({ ...ledger, timestamp: null });
    if (force || key !== lastLedger) { lastLedger = key; emit('ledger', ledger); }
  }
  const unsubscribe = store.subscribe(() => {
    if (timer === null) timer = win.setTimeout(() => report(), delayMs);
  });
  return {
    reportNow: () => { if (timer !== null) win.clearTimeout(timer); report(true); },
    ledger: ledgerNow,
    stop: () => { unsubscribe(); if (timer !== null) win.clearTimeout(timer); },
  };
}
