// Test helper: the page's engine (lab_core) with verify_ledger, results parsed, in the interface
// web/src/design-ledger.js takes.
import { readFileSync } from 'node:fs';
import { loadEngine } from '../../scripts/engine-node.mjs';

export async function loadLedgerEngine() {
  const mod = await loadEngine();
  const str = (request) => (typeof request === 'string' ? request : JSON.stringify(request));
  return {
    evaluate: (s) => JSON.parse(mod.evaluate(str(s))),
    solve: (r) => JSON.parse(mod.solve(str(r))),
    verifyLedger: (text) => JSON.parse(mod.verify_ledger(text)),
    verifyText: (text) => mod.verify_ledger(text),
    catalog: () => JSON.parse(mod.catalog()), // lets checkLedger re-score the fix question
    version: () => mod.version(),
  };
}

export const fixturesDir = new URL('../fixtures/ledger/', import.meta.url);
export const fixtureText = (name) => readFileSync(new URL(name, fixturesDir), 'utf8');
export const manifest = JSON.parse(fixtureText('manifest.json'));
