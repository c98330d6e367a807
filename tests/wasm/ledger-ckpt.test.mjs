// verify_ledger recomputes the checkpointing reflection's engine values from the Act 2 settings the
// record keeps (act2-numbers.js ckptNumbers ↔ core/facade/facade_ledger_checks.cpp), flags an edited one,
// and lists a record made before the settings were kept as not recomputed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadLedgerEngine } from './ledger-engine.mjs';
import { buildDesignLedger } from '../../web/src/ledger/design-ledger.js';
import { defaultState, withAct2, withConfig2 } from '../../web/src/state/store.js';
import { ckptNumbers } from '../../web/src/models/act2-numbers.js';

const engine = await loadLedgerEngine();

function ledgerWithCkpt(config2Patch, { keepScenario = true } = {}) {
  let s = withConfig2(defaultState(), config2Patch);
  const c = ckptNumbers(engine.evaluate, s.config2);
  const rec = { ratio_choice: 'b', overhead_choice: 'c', reason_choice: 'a', ratio_correct: true, overhead_correct: true,
    reason_correct: true, engine_ratio: c.ratio, engine_overhead: c.overhead, answered_at: '2026-11-23T00:00:00.000Z' };
  if (keepScenario) rec.scenario = { ...s.config2 };
  s = withAct2(s, { revealed: true, reflection_ckpt: rec });
  return buildDesignLedger(s, engine, { now: new Date('2026-11-23T00:00:00Z') });
}

const field = (r, name) => r.fields.find((f) => f.field === name);

for (const [name, patch] of [
  ['the chapter calibration, every 4 layers', {}],
  ['the physics model, every 7 layers', { replay: false, every_k: 7 }],
  ['full recompute selected (the reflection uses every 4 layers)', { replay: false, checkpointing: 'full' }],
]) {
  test(`the checkpointing reflection verifies: ${name}`, () => {
    const r = engine.verifyLedger(JSON.stringify(ledgerWithCkpt(patch)));
    assert.equal(r.status, 'ok', r.summary);
    for (const k of ['engine_ratio', 'engine_overhead']) {
      const f = field(r, `lab_state.acts.act2.reflection_ckpt.${k}`);
      assert.ok(f, k);
      assert.equal(f.differs, false);
    }
  });
}

test('an edited checkpointing ratio is flagged, naming the field', () => {
  const ledger = ledgerWithCkpt({});
  ledger.lab_state.acts.act2.reflection_ckpt.engine_ratio = 3;
  const r = engine.verifyLedger(JSON.stringify(ledger));
  assert.equal(r.status, 'differs');
  assert.deepEqual(r.differing_fields, ['lab_state.acts.act2.reflection_ckpt.engine_ratio']);
});

test('a record without its settings is listed as not recomputed, not as differing', () => {
  const r = engine.verifyLedger(JSON.stringify(ledgerWithCkpt({}, { keepScenario: false })));
  assert.equal(r.status, 'ok');
  assert.ok(r.not_recomputed.some((n) => n.field === 'lab_state.acts.act2.reflection_ckpt'));
});
