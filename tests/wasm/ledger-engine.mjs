// Test helper: the page's engine (lab_core) with verify_ledger, results parsed, in the interface
// web/src/ledger/design-ledger.js takes.
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

// `count` ledgers like the fixture `name`, each its own student: distinct export and answer times
// (a class folder of identical files would be flagged as copies by labctl verify).
// `first`: the first student's number, so two classes made from different fixtures do not share times.
export function classOf(count, name = 'valid-complete.json', first = 0) {
  const base = JSON.parse(fixtureText(name));
  const stamp = (i, k) => new Date(Date.UTC(2026, 10, 23, 9, 0, 0) + i * 60000 + k * 1000).toISOString();
  return Array.from({ length: count }, (_, n) => {
    const i = n + first;
    const l = structuredClone(base);
    l.timestamp = stamp(i, 59);
    let k = 0;
    const restamp = (rec) => { if (rec && typeof rec === 'object' && 'answered_at' in rec) rec.answered_at = stamp(i, k++); };
    for (const a of Object.values(l.lab_state.acts)) for (const rec of Object.values(a)) restamp(rec);
    for (const p of l.predictions) p.answered_at = l.lab_state.acts[`act${p.act}`].prediction.answered_at;
    for (const r of l.reflections) {
      const a = l.lab_state.acts[`act${r.act}`];
      r.answered_at = (r.id === 'act1' ? a.reflection : r.id === 'act2_fix' ? a.reflection_fix : a.reflection_ckpt).answered_at;
    }
    return `${JSON.stringify(l, null, 2)}\n`;
  });
}
