// Loads the browser WASM build (build/wasm/lab_core.mjs) in Node: the same artifact the page uses.
// Node 20's fetch cannot read file paths, so the .wasm bytes are handed to the factory directly.
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const wasmDir = process.env.LAB_WASM_DIR || path.join(root, 'build', 'wasm');

export async function loadEngine() {
  const glue = path.join(wasmDir, 'lab_core.mjs');
  if (!existsSync(glue)) throw new Error(`WASM build not found at ${glue}; run scripts/build-wasm.sh`);
  const { default: createLabCore } = await import(pathToFileURL(glue).href);
  return createLabCore({ wasmBinary: readFileSync(path.join(wasmDir, 'lab_core.wasm')) });
}
