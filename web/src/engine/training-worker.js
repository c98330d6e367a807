// Starts the "Measure it" Web Worker (for the engine adapter, engine.js). Hosted builds load it as its
// own module file; the single-file build (vite.config.js, mode "single") replaces this module with one
// that starts the same worker, bundled into the page, from a blob URL.
export function createTrainingWorker() {
  return new Worker(new URL('./engine-worker.js', import.meta.url), { type: 'module' });
}

// A page without an origin of its own (a frame sandboxed without allow-same-origin) may not start a worker
// from a file: the panel warns before a run. (The single-file build starts it from a blob and says false.)
export function workerMayBeRefused(win = globalThis) {
  return Boolean(win && win.origin === 'null' && win.location && win.location.protocol !== 'file:');
}
