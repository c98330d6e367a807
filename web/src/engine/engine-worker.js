// The "Measure it" Web Worker: the second half of the engine adapter (engine.js creates it and is the
// only module that talks to it). It loads the reference training engine (a WASM module of its own so
// the page's first load stays small) and runs one TrainSession at a time through train-runner.js, so
// the page's main thread never runs a training step.
// Two builds of the engine exist; they differ only in the matmul kernel's arithmetic: lab_train_fma
// fuses each multiply-add (relaxed SIMD; faster, one rounding) and is loaded where the browser
// validates relaxed SIMD, lab_train (multiply, then add) everywhere else or if the first fails.
// Protocol: page → worker {type:'load'} | {type:'run', id, request} | {type:'cancel', id};
// worker → page {type:'ready', version} | {type:'failed', message} | run messages tagged with id.
// (Which build ran is in every report: flops.matmul_arithmetic.)
import { runTraining } from './train-runner.js';
import { relaxedSimdSupported } from './wasm-features.js';
import { inlineWasm } from './wasm-inline.js';

let modulePromise = null;
let current = null; // { id, stop }

async function instantiate() {
  if (relaxedSimdSupported()) {
    try {
      const { default: createFma } = await import('@engine/lab_train_fma.mjs');
      return await createFma(wasmOptions('lab_train_fma'));
    } catch {
      // fall through to the plain build: same engine, multiply then add
    }
  }
  const { default: createPlain } = await import('@engine/lab_train.mjs');
  return createPlain(wasmOptions('lab_train'));
}

// Single-file build: the module's bytes are in the worker's own code (no fetch).
function wasmOptions(name) {
  const wasmBinary = inlineWasm(name);
  return wasmBinary ? { wasmBinary } : {};
}

function load() {
  modulePromise ||= instantiate().catch((err) => {
    modulePromise = null;
    throw err;
  });
  return modulePromise;
}

async function run(id, request) {
  const job = { id, stop: false };
  current = job;
  try {
    const mod = await load();
    await runTraining(mod.TrainSession, request, {
      post: (msg) => self.postMessage({ ...msg, id }),
      shouldStop: () => job.stop,
    });
  } catch (err) {
    self.postMessage({ type: 'error', id, error: { field: '', message: `the training engine failed: ${err && err.message ? err.message : String(err)}` } });
  } finally {
    if (current === job) current = null;
  }
}

self.onmessage = (event) => {
  const msg = event.data || {};
  if (msg.type === 'load') {
    load().then((mod) => self.postMessage({ type: 'ready', version: mod.version() }),
      (err) => self.postMessage({ type: 'failed', message: err && err.message ? err.message : String(err) }));
  } else if (msg.type === 'run') {
    run(msg.id, msg.request);
  } else if (msg.type === 'cancel' && current && current.id === msg.id) {
    current.stop = true;
  }
};
