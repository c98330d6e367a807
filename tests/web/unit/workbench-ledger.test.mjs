// The design ledger's workbench record (issue 25): built from lab_state.workbench.scenario with the real
// WASM engine, valid against the schema, re-computed identically by verify_ledger (core/facade/
// facade_ledger_checks.cpp), and an edited value is reported by name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildDesignLedger, ledgerText, validateLedger } from '../../../web/src/ledger/design-ledger.js';
import { checkLedger } from '../../../web/src/ledger/ledger-check.js';
import { workbenchRecord } from '../../../web/src/models/workbench-view.js';
import { defaultState, validateState } from '../../../web/src/state/store.js';
import { loadLedgerEngine } from '../../wasm/ledger-engine.mjs';

const engine = await loadLedgerEngine(); // evaluate, solve, verifyLedger, catalog, version
const NOW = { now: new Date('2026-11-27T06:00:00Z') };
const SCENARIO = { model: 'gpt2-small', device: 'rtx4090-24gb', precision: 'autocast_bf16', optimizer: 'adam', batch_size: 8, seq_len: 1024, checkpointing: 'none', framework: 'pytorch' };
const CUSTOM = { model: { layers: 4, hidden: 256, heads: 4, vocab: 1000, context: 512, mlp_hidden: 688, mlp: 'swiglu', norm: 'rmsnorm',
  biases: false, tied_head: false, learned_positions: false }, device: 'rtx4090-24gb', precision: 'fp32', optimizer: 'adam', batch_size: 4, seq_len: 512, checkpointing: 'none', framework: 'textbook' };
const withWorkbench = (scenario) => ({ ...defaultState(), workbench: { scenario } });
const verify = (ledger) => engine.verifyLedger(JSON.stringify(ledger));

test('the ledger records the workbench’s scenario and the engine’s answers for it, and verify re-computes them', () => {
  const state = withWorkbench(SCENARIO);
  assert.deepEqual(validateState(state), []);
  const ledger = buildDesignLedger(state, engine, NOW);
  assert.deepEqual(validateLedger(ledger), []);
  assert.deepEqual(ledger.lab_state.workbench.scenario, SCENARIO);
  assert.deepEqual(ledger.result_snapshot.workbench, workbenchRecord(SCENARIO, engine));
  assert.equal(ledger.result_snapshot.workbench.peak_bytes, engine.evaluate(SCENARIO).memory.peak_bytes);
  const v = verify(ledger);
  assert.equal(v.status, 'ok', v.summary);
  const checked = v.fields.filter((f) => f.field.startsWith('result_snapshot.workbench.')).map((f) => f.field.split('.').at(-1));
  assert.deepEqual(checked.sort(), Object.keys(ledger.result_snapshot.workbench).sort());
  assert.ok(v.scenarios.workbench);
  assert.equal(checkLedger(JSON.stringify(ledger), engine).status, 'ok');
  // The engine's own peak, in GB with two decimals (18.67 GB today).
  const gb = (engine.evaluate(SCENARIO).memory.peak_bytes / 1e9).toFixed(2);
  assert.match(ledgerText(ledger), new RegExp(`Workbench: GPT-2 small \\(124M\\), batch 8: peak ${gb.replace('.', '\\.')} GB`));
});

test('an edited workbench value is reported by name, and so is an edited scenario', () => {
  const ledger = buildDesignLedger(withWorkbench(SCENARIO), engine, NOW);
  const edited = structuredClone(ledger);
  edited.result_snapshot.workbench.peak_bytes -= 1;
  edited.result_snapshot.workbench.fits = !edited.result_snapshot.workbench.fits;
  const v = verify(edited);
  assert.equal(v.status, 'differs');
  assert.deepEqual(v.differing_fields.sort(), ['result_snapshot.workbench.fits', 'result_snapshot.workbench.peak_bytes']);
  const moved = structuredClone(ledger);
  moved.lab_state.workbench.scenario.batch_size = 64; // out of memory now: the recorded "fits" is stale
  const m = verify(moved);
  assert.equal(m.status, 'differs');
  assert.ok(m.differing_fields.includes('result_snapshot.workbench.fits'));
  assert.ok(m.differing_fields.includes('result_snapshot.workbench.peak_bytes'));
});

test('a textbook-layout custom model is recorded with no phase, and verifies', () => {
  const ledger = buildDesignLedger(withWorkbench(CUSTOM), engine, NOW);
  assert.deepEqual(validateLedger(ledger), []);
  assert.equal(ledger.result_snapshot.workbench.peak_phase, null);
  assert.equal(ledger.result_snapshot.workbench.largest_batch_layout, 'textbook');
  assert.equal(verify(ledger).status, 'ok');
});

test('no scenario, or one the engine refuses, records null; a record where there should be none differs', () => {
  // The second: GPT-2 has 1,024 positions, so the engine refuses a 4,096-token sequence.
  for (const scenario of [null, { ...SCENARIO, seq_len: 4096 }]) {
    const ledger = buildDesignLedger(withWorkbench(scenario), engine, NOW);
    assert.equal(ledger.result_snapshot.workbench, null);
    assert.deepEqual(validateLedger(ledger), []);
    assert.equal(verify(ledger).status, 'ok');
    assert.match(ledgerText(ledger), /Workbench: no results recorded/);
  }
  const forged = buildDesignLedger(withWorkbench(null), engine, NOW);
  forged.result_snapshot.workbench = workbenchRecord(SCENARIO, engine);
  assert.deepEqual(verify(forged).differing_fields, ['result_snapshot.workbench']);
});

test('a ledger from before the workbench has no record and still verifies', () => {
  const ledger = buildDesignLedger(defaultState(), engine, NOW);
  assert.equal('workbench' in ledger.result_snapshot, false);
  const v = verify(ledger);
  assert.equal(v.status, 'ok');
  assert.ok(v.not_recomputed.some((n) => n.field === 'result_snapshot.workbench'));
});
