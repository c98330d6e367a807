// Act 2's searches over the settings the act offers, kept off the input path (act2-best.js holds the
// searches themselves, without DOM or timing):
//  - the fit table per (GPU, calibration), ~30 ms for 26 rows: built row by row in idle time as soon
//    as a GPU or calibration is shown (warm), so the first setting that does not fit does not wait;
//  - the best setting per loader setting, ~8 ms (the act's ~100 settings, then the solver's ~3 ms):
//    run once the settings have rested for 250 ms, not after every step of a slider.
// Either one, needed at once, is computed (or finished) at once.
import { fitRows, bestSettable } from './act2-best.js';

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
  return {
    tableFor, warm, bestFor, whenRested,
    known: (c) => bestCache.has(bestKey(c)),
    stop: () => { clearTimeout(timer); if (warmHandle !== null) cancelIdleCallback(warmHandle); warmHandle = null; warming = null; },
  };
}
