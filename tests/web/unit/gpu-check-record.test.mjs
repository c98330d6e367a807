// "Check it on your GPU" in the design ledger (web/src/models/gpu-check-record.js): a comparison recorded in
// the lab state reaches the ledger (valid against the schema), the ledger check
// re-computes its prediction side with the engine (an edited prediction differs, a forged result is
// named and not re-computed), as the page's import and `labctl verify` run it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadLedgerEngine } from '../../wasm/ledger-engine.mjs';
import { checkLedger } from '../../../web/src/ledger/ledger-check.js';
import { labelledFields } from '../../../web/src/ledger/ledger-verify-view.js';
import { validateLedger } from '../../../web/src/ledger/design-ledger.js';
import { compareMeasured } from '../../../web/src/models/pytorch-compare.js';
import { checkRecord, withGpuCheck, MAX_CHECKS } from '../../../web/src/models/gpu-check-record.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const userDir = path.join(here, '..', '..', 'fixtures', 'pytorch', 'user');
const text = readFileSync(path.join(userDir, readdirSync(userDir).filter((f) => f.endsWith('.json')).sort()[0]), 'utf8');
const engine = await loadLedgerEngine();
const base = JSON.parse(readFileSync(path.join(here, '..', '..', 'fixtures', 'ledger', 'valid-complete.json'), 'utf8'));
const cmp = compareMeasured(engine.evaluate, JSON.parse(text).scenario, text);
const record = checkRecord(cmp, text, new Date('2026-11-27T06:30:00Z'));
const ledgerWith = (checks) => ({ ...base, lab_state: { ...base.lab_state, gpu_checks: checks } });
const rowsOf = (checked) => (checked.rescored || checked.fields || []);

test('a comparison is recorded with the measurement as pasted and the prediction beside it; the newest five are kept', () => {
  assert.deepEqual(record.measured, JSON.parse(text));
  assert.equal(record.predicted.status, 'agrees');
  assert.equal(record.predicted.phases.length, cmp.phases.length);
  let state = {};
  for (let i = 0; i < MAX_CHECKS + 2; i++) state = withGpuCheck(state, { ...record, at: String(i) });
  assert.deepEqual(state.gpu_checks.map((c) => c.at), ['2', '3', '4', '5', '6']);
  assert.equal(withGpuCheck(state, null), state);
  assert.equal(checkRecord({ error: { field: 'x', message: 'y' } }, text), null);
});

test('the ledger with a comparison is valid and verifies; an edited prediction differs', () => {
  const ledger = ledgerWith([record]);
  assert.deepEqual(validateLedger(ledger), []);
  const ok = checkLedger(JSON.stringify(ledger), engine);
  assert.equal(ok.error, undefined, JSON.stringify(ok.error));
  const gpuRows = JSON.stringify(ok).match(/lab_state\.gpu_checks\[0\]\.predicted[^"]*/g) || [];
  assert.ok(gpuRows.length >= cmp.phases.length + 5, gpuRows.join(' '));
  assert.equal(ok.status, 'ok', JSON.stringify(ok).slice(0, 400));
  const edited = structuredClone(ledger);
  edited.lab_state.gpu_checks[0].predicted.phases[7].predicted_bytes += 1000;
  const bad = checkLedger(JSON.stringify(edited), engine);
  assert.equal(bad.status, 'differs');
  assert.match(JSON.stringify(bad), /lab_state\.gpu_checks\[0\]\.predicted\.phases\[7\]\.predicted_bytes/);
  // The ledger page names the row in words (the path stays beside it for instructors).
  const differing = labelledFields(bad, { ledger: edited }).filter((f) => f.differs);
  assert.deepEqual(differing.map((f) => f.label), ['GPU check 1, steady step, peak: the bytes predicted']);
  for (const f of labelledFields(bad, { ledger: edited }).filter((x) => x.field.includes('gpu_checks'))) assert.doesNotMatch(f.label, /gpu_checks|_/, f.label);
  // A measurement edited inconsistently cannot be compared: named, not re-computed.
  const forged = structuredClone(ledger);
  forged.lab_state.gpu_checks[0].measured.steady_step.peak_bytes += 1;
  assert.match(JSON.stringify(checkLedger(JSON.stringify(forged), engine)), /the recorded result cannot be compared\. The steady step's peak: [^"]*changed after the run/);
});
