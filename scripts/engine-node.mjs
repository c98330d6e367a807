// Loads the browser WASM build (build/wasm/lab_core.mjs) in Node: the same artifact the page uses.
// Node 20's fetch cannot read file paths, so the .wasm bytes are handed to the factory directly.
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const wasmDir = process.env.LAB_WASM_DIR || path.join(root, 'build', 'wasm');

async function loadModule(name) {
  const glue = path.join(wasmDir, `${name}.mjs`);
  if (!existsSync(glue)) throw new Error(`WASM build not found at ${glue}; run scripts/build-wasm.sh`);
  const { default: factory } = await import(pathToFileURL(glue).href);
  return factory({ wasmBinary: readFileSync(path.join(wasmDir, `${name}.wasm`)) });
}

// The page's engine: evaluate, solve, verify_ledger, catalog (JSON text in, JSON text out) and
// version. The module returns a byte view of its result buffer; it is decoded (copied out) here at
// once, as in engine.js. verify_ledger comes from lab_ledger (null in a build without it).
export async function loadEngine() {
  const mod = await loadModule('lab_core');
  const ledger = existsSync(path.join(wasmDir, 'lab_ledger.mjs')) ? await loadModule('lab_ledger') : null;
  const decoder = new TextDecoder();
  const text = (view) => decoder.decode(view);
  return {
    evaluate: (request) => text(mod.evaluate(request)),
    solve: (request) => text(mod.solve(request)),
    verify_ledger: ledger ? (request) => text(ledger.verify_ledger(request)) : null, // its own module, lab_ledger
    catalog: () => text(mod.catalog()),
    version: () => mod.version(),
  };
}

// lab_scale: evaluate, solve, catalog and version with multi-device scenarios (`parallel`), as the page's
// engine.scale() loads it for Act 3; results decoded at once, as above.
export async function loadScaleEngine() {
  const mod = await loadModule('lab_scale');
  const text = (view) => new TextDecoder().decode(view);
  return {
    evaluate: (request) => text(mod.evaluate(request)),
    solve: (request) => text(mod.solve(request)),
    catalog: () => text(mod.catalog()),
    version: () => mod.version(),
  };
}

// The reference training engine (train, TrainSession), as the "Measure it" worker loads it.
export function loadTrainEngine() {
  return loadModule('lab_train');
}

// The same engine with the fused multiply-add kernel (relaxed SIMD), which the worker prefers where
// the browser has it. Node 20 validates it only with --experimental-wasm-relaxed-simd.
export function loadTrainEngineFma() {
  return loadModule('lab_train_fma');
}
