// Act 2's searches over the settings the act offers, kept off the input path (act2-best.js holds the
// searches themselves, without DOM or timing):
//  - the fit table per (GPU, calibration), ~30 ms for 26 rows: built row by row in idle time as soon
//    as a GPU or calibration is shown (warm), so the first setting that does not fit does not wait;
//  - the best setting per loader setting, ~8 ms (the act's ~100 settings, then the solver's ~3 ms):
//    run once the settings have rested for 250 ms, not after every step of a slider;
//  - whether the tuned regime is in reach of the controls an instructor left open, ~1 ms when it is,
//    ~0.4 s when it is not (the whole space): once per page, a slice at a time in idle time.
// Either one, needed at once, is computed (or finished) at once.
import { fitRows, bestSettable, regimeSearch } from './act2-best.js';

const REST_MS = 250;
const hasIdle = () => typeof requestIdleCallback === 'function';

// solveBest(config) → the solver's fastest run for the loader settings of config (or null).
export function createAct2Search({ evaluate, solveBest }) {
  const fitTables = new Map(); // (GPU, calibration) → { rows, next: the row generator, null once complete }
  const entry = (c) => {
    const key = JSON.stringify([c.device, c.replay]);
    if (!fitTables.has(key)) fitTables.set(key, { rows: [], next: fitRows(evaluate, c) });
    return fitTables.get(key);
  };
  const step = (e) => {
    const row = e.next.next();
    if (row.done) e.next = null; else e.rows.push(row.value);
  };
  const tableFor = (c) => {
    const e = entry(c);
    while (e.next) step(e);
    return e.rows;
  };
  let warmHandle = null;
  let warming = null; // the entry being built in idle time
  function warm(c) {
    const e = entry(c);
    if (!e.next || e === warming || !hasIdle()) return;
    if (warmHandle !== null) cancelIdleCallback(warmHandle);
    warming = e;
    const work = (deadline) => {
      while (e.next && deadline.timeRemaining() > 2) step(e);
      warmHandle = e.next ? requestIdleCallback(work) : null;
      if (!e.next) warming = null;
    };
    warmHandle = requestIdleCallback(work);
  }

  const bestCache = new Map(); // (GPU, loader settings, calibration) → { act, solver }
  const bestKey = (c) => JSON.stringify([c.device, c.data_workers, c.prefetch, c.prefetch_depth, c.pinned_memory, c.replay]);
  function bestFor(c) {
    const key = bestKey(c);
    if (!bestCache.has(key)) bestCache.set(key, { act: bestSettable(evaluate, c, tableFor(c)), solver: solveBest(c) });
    return bestCache.get(key);
  }
  let timer = null;
  // Calls done() once the best for c is known: REST_MS after the last call, so a slider's steps do
  // not each start a search; a call for any settings before then starts the wait over.
  function whenRested(c, done) {
    clearTimeout(timer);
    timer = setTimeout(() => { bestFor(c); done(); }, REST_MS);
  }

  // done(result) once regimeSearch(config, open) has run to the end, in slices of idle time (or of
  // 8 ms between tasks where the browser has no requestIdleCallback).
  let regimeHandle = null;
  // With a timeout: a page that is never idle (seen after a keyboard submit) must not starve it.
  const later = (fn) => (hasIdle() ? { idle: requestIdleCallback(fn, { timeout: 200 }) }
    : { timeout: setTimeout(() => { const end = performance.now() + 8; fn({ timeRemaining: () => end - performance.now() }); }, 0) });
  const cancelLater = (handle) => {
    if (handle && 'idle' in handle) cancelIdleCallback(handle.idle); else if (handle) clearTimeout(handle.timeout);
  };
  function regimeInIdle(config, open, done) {
    const it = regimeSearch(evaluate, config, open);
    const work = (deadline) => {
      const until = deadline.didTimeout ? performance.now() + 8 : null; // called by the timeout: an 8 ms slice
      do {
        const step = it.next();
        if (step.done) { regimeHandle = null; done(step.value); return; }
      } while (until !== null ? performance.now() < until : deadline.timeRemaining() > 2);
      regimeHandle = later(work);
    };
    cancelLater(regimeHandle);
    regimeHandle = later(work);
  }
  return {
    tableFor, warm, bestFor, whenRested, regimeInIdle,
    known: (c) => bestCache.has(bestKey(c)),
    stop: () => {
      clearTimeout(timer);
      if (warmHandle !== null) cancelIdleCallback(warmHandle);
      warmHandle = null; warming = null;
      cancelLater(regimeHandle); regimeHandle = null;
    },
  };
}
