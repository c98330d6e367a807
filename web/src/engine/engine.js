// The engine adapter: the only module that imports a generated WASM module (lab_core here, lab_ledger
// on demand for verify_ledger, lab_scale on demand for multi-device scenarios), and,
// with engine-worker.js (which it alone starts and talks to), the only way to the training module
// lab_train. Every call copies its result out as plain JSON immediately (no views into WASM memory
// survive a call). Results are cached by scenario text and shared: callers must treat them as
// read-only. Errors from the facade come back as values ({ error: { field, message } }), never as
// exceptions.
import createLabCore from '@engine/lab_core.mjs';
import { inlineWasm } from './wasm-inline.js';
import { createTrainingWorker, workerMayBeRefused } from './training-worker.js';

let modulePromise = null;
const CACHE_LIMIT = 256;

// A module fetched on first use: its glue (a static import() for the bundler), then the factory, with
// the bytes inlined in the page where the single-file build has them.
const instantiate = (glue, name) => glue.then(({ default: create }) => {
  const wasmBinary = inlineWasm(name);
  return create(wasmBinary ? { wasmBinary } : {});
});

// verify_ledger lives in its own module (lab_ledger), fetched the first time a ledger is verified.
let ledgerPromise = null;
export function loadLedgerVerifier() {
  if (!ledgerPromise) {
    ledgerPromise = instantiate(import('@engine/lab_ledger.mjs'), 'lab_ledger')
      .then((mod) => ({ verifyLedger: (text) => call(mod, 'verify_ledger', text) }))
      .catch((err) => { ledgerPromise = null; throw err; });
  }
  return ledgerPromise;
}

// Multi-device scenarios (`parallel`, Act 3) live in their own module (lab_scale: lab_core's functions
// with the parallel physics), fetched the first time Act 3 asks: the first load stays within its budget.
// Resolves to { evaluate, solve, catalog, version }, cached and with errors as values, as the main engine.
let scalePromise = null;
export function loadScaleEngine() {
  if (!scalePromise) {
    scalePromise = instantiate(import('@engine/lab_scale.mjs'), 'lab_scale').then((mod) => {
      const evaluate = cached((key) => call(mod, 'evaluate', key));
      const solve = cached((key) => call(mod, 'solve', key));
      let catalog = null;
      return { evaluate, solve, catalog: () => (catalog ||= JSON.parse(decoder.decode(mod.catalog()))), version: () => mod.version() };
    }).catch((err) => { scalePromise = null; throw err; });
  }
  return scalePromise;
}

export function loadEngine(options = {}) {
  if (!modulePromise) {
    // Single-file build: the bytes are in the page (no fetch); otherwise the glue fetches lab_core.wasm.
    const wasmBinary = inlineWasm('lab_core');
    modulePromise = createLabCore(wasmBinary ? { wasmBinary, ...options } : options).catch((err) => {
      modulePromise = null;
      throw err;
    });
  }
  return modulePromise.then((m) => makeEngine(m));
}

// The module returns a byte view of its result buffer (valid until the next call): decode it now.
const decoder = new TextDecoder();

function call(mod, name, request) {
  const text = typeof request === 'string' ? request : JSON.stringify(request);
  return JSON.parse(decoder.decode(mod[name](text)));
}

// run(requestText) memoized by the request's text (the oldest entry goes first past CACHE_LIMIT).
function cached(run) {
  const cache = new Map();
  return (request) => {
    const key = typeof request === 'string' ? request : JSON.stringify(request);
    let hit = cache.get(key);
    if (!hit) {
      hit = run(key);
      if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value);
      cache.set(key, hit);
    }
    return hit;
  };
}

function makeEngine(mod) {
  let catalog = null;
  const evaluate = cached((key) => call(mod, 'evaluate', key));
  return {
    version: () => mod.version(),
    catalog: () => (catalog ||= JSON.parse(decoder.decode(mod.catalog()))),
    evaluate,
    has: (name) => typeof mod[name] === 'function',
    call: (name, request) => call(mod, name, request),
    prepareTraining,
    ledgerVerifier: loadLedgerVerifier,
    scale: loadScaleEngine,
    startTraining,
    trainingMayBeRefused: () => workerMayBeRefused(),
  };
}

// ---- The reference training engine, in a Web Worker (engine-worker.js loads lab_train).
// startTraining(request, { onStarted, onProgress, onReport }) → { promise, cancel }. The promise
// resolves with { outcome: 'done' | 'cancelled' | 'error', stepsDone, report, error } and rejects
// only when the worker itself cannot run (then the next call starts a fresh one). cancel() asks the
// worker to stop after its current chunk of steps; if it has not answered within CANCEL_GRACE_MS
// the worker is terminated. One run at a time.
const CANCEL_GRACE_MS = 2000;
let worker = null;
let workerReady = null;
let job = null;
let nextJobId = 1;

function dropWorker(err) {
  const w = worker;
  worker = null;
  workerReady = null;
  if (w) w.terminate();
  if (job && err) { const j = job; job = null; j.reject(err); }
}

// Starts the worker and its WASM module (idempotent); resolves with { version }.
export function prepareTraining() {
  if (workerReady) return workerReady;
  let settle;
  workerReady = new Promise((resolve, reject) => { settle = { resolve, reject }; });
  workerReady.catch(() => {});
  try {
    worker = createTrainingWorker();
  } catch (err) {
    workerReady = null;
    // A frame sandboxed without allow-same-origin has no origin of its own, so no worker file is "its own".
    if (err && err.name === 'SecurityError') {
      const refused = new Error('this page is inside a sandboxed frame that may not start the training worker; open the lab in a tab of its own to use “Measure it”');
      refused.code = 'sandboxed';
      return Promise.reject(refused);
    }
    return Promise.reject(err);
  }
  const fail = (message) => {
    const err = new Error(message);
    settle.reject(err);
    dropWorker(err);
  };
  worker.onmessage = (event) => {
    const msg = event.data || {};
    if (msg.type === 'ready') settle.resolve({ version: msg.version });
    else if (msg.type === 'failed') fail(msg.message);
    else if (job && msg.id === job.id) job.handle(msg);
  };
  worker.onerror = (event) => {
    if (event && event.preventDefault) event.preventDefault();
    fail(`the training worker stopped: ${event && event.message ? event.message : 'it could not be loaded'}`);
  };
  worker.postMessage({ type: 'load' });
  return workerReady;
}

export function startTraining(request, { onStarted, onProgress, onReport } = {}) {
  // One run at a time (one worker per page, shared by every <lab-model-train> on it).
  // code 'busy': nothing is wrong with the page, so the panel must not suggest reloading it (that would
  // stop the other run).
  if (job) {
    const busy = new Error('another “Measure it” run on this page is still going (one run at a time); wait for it to end or cancel it, then press Run again');
    busy.code = 'busy';
    return { promise: Promise.reject(busy), cancel: () => {} };
  }
  const id = nextJobId++;
  let stepsDone = 0;
  let lastReport = null;
  let graceTimer = null;
  let resolveRun;
  let rejectRun;
  const promise = new Promise((resolve, reject) => { resolveRun = resolve; rejectRun = reject; });
  const finish = (result) => {
    clearTimeout(graceTimer);
    if (job && job.id === id) job = null;
    resolveRun({ stepsDone, report: lastReport, error: null, ...result });
  };
  job = {
    id,
    reject: (err) => { clearTimeout(graceTimer); rejectRun(err); },
    handle(msg) {
      if (msg.type === 'started') { if (onStarted) onStarted(msg.status); } else if (msg.type === 'progress') {
        stepsDone = msg.stepsDone;
        if (onProgress) onProgress(msg);
      } else if (msg.type === 'report') {
        lastReport = msg.report;
        if (onReport) onReport(msg.report);
      } else if (msg.type === 'done') finish({ outcome: 'done', report: msg.report });
      else if (msg.type === 'cancelled') finish({ outcome: 'cancelled', stepsDone: msg.stepsDone, report: msg.report || lastReport });
      else if (msg.type === 'error') finish({ outcome: 'error', error: msg.error });
    },
  };
  prepareTraining().then(() => {
    if (job && job.id === id) worker.postMessage({ type: 'run', id, request });
  }, (err) => { if (job && job.id === id) { job = null; rejectRun(err); } });
  const cancel = () => {
    if (!job || job.id !== id || graceTimer) return;
    if (worker) worker.postMessage({ type: 'cancel', id });
    graceTimer = setTimeout(() => {
      if (!job || job.id !== id) return;
      dropWorker(null); // a step that will not yield: stop the worker itself
      finish({ outcome: 'cancelled', terminated: true });
    }, CANCEL_GRACE_MS);
  };
  return { promise, cancel };
}
