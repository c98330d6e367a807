// Test helper: the page's engine (lab_core) with verify_ledger, results parsed, in the interface
// web/src/design-ledger.js takes. (scripts/engine-node.mjs's loadEngine does not expose verify_ledger.)
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { wasmDir } from '../../scripts/engine-node.mjs';

export async function loadLedgerEngine() {
  const { default: factory } = await import(pathToFileURL(path.join(wasmDir, 'lab_core.mjs')).href);
  const mod = await factory({ wasmBinary: readFileSync(path.join(wasmDir, 'lab_core.wasm')) });
  const decoder = new TextDecoder();
  const call = (name, request) => decoder.decode(mod[name](typeof request === 'string' ? request : JSON.stringify(request)));
  return {
    evaluate: (s) => JSON.parse(call('evaluate', s)),
    solve: (r) => JSON.parse(call('solve', r)),
    verifyLedger: (text) => JSON.parse(call('verify_ledger', text)),
    verifyText: (text) => call('verify_ledger', text),
    version: () => mod.version(),
  };
}

export const fixturesDir = new URL('../fixtures/ledger/', import.meta.url);
export const fixtureText = (name) => readFileSync(new URL(name, fixturesDir), 'utf8');
export const manifest = JSON.parse(fixtureText('manifest.json'));
