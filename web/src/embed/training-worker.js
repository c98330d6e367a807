// Starts the "Measure it" Web Worker (for the engine adapter, engine.js). Hosted builds load it as its
// own module file; the single-file build (vite.config.js, mode "single") replaces this module with one
// that starts the same worker, bundled into the page, from a blob URL.
export function createTrainingWorker() {
  return new Worker(new URL('../engine-worker.js', import.meta.url), { type: 'module' });
}
