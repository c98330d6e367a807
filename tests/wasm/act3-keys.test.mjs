// Act 3's two reflections are scored twice: on the page by models/act3-model.js reflectKeys (from
// lab_scale's numbers) and again by `labctl verify` in C++ (core/facade/facade_ledger_act3.cpp dp_key
// and ceiling_key, from the recorded prediction scenario). The two keys are written separately, so this
// checks they agree: every option of both questions, scored by the page's keys, verifies as scored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadEngine, loadScaleEngine } from '../../scripts/engine-node.mjs';
import { devicesNeeded, reflectNumbers, reflectKeys, toScenario3, stepByInterconnect, act3Record } from '../../web/src/models/act3-model.js';
import { DEFAULT_CONFIG3 } from '../../web/src/state/act3-config.js';
import { DP_QUESTION, CEILING_QUESTION } from '../../web/src/content/act3-text.js';

const raw = await loadScaleEngine();
const scale = { evaluate: (s) => JSON.parse(raw.evaluate(JSON.stringify(s))), solve: (s) => JSON.parse(raw.solve(JSON.stringify(s))) };
const spec = JSON.parse(raw.catalog()).models.find((m) => m.id === 'gpt2-xl').spec;
const { verify_ledger: verifyLedger } = await loadEngine();
const base = JSON.parse(readFileSync(new URL('../fixtures/ledger/valid-complete.json', import.meta.url), 'utf8'));
const verify = (record) => JSON.parse(verifyLedger(JSON.stringify({ ...base, result_snapshot: { ...base.result_snapshot, act3: record } })));

// The page's side, as acts/act3.js computes it once the engine is ready.
const answer = devicesNeeded(scale, spec);
const keys = reflectKeys(reflectNumbers(scale, spec, answer.devices));
const settings = toScenario3(DEFAULT_CONFIG3, spec);
const recordWith = (reflect) => act3Record({ settings, prediction: { devices: answer.devices }, devicesNeeded: answer.devices,
  predictionScenario: answer.scenario, stepByInterconnect: stepByInterconnect(scale, settings).step_s, reflect });

test('the page\'s answer keys are options of the questions', () => {
  assert.ok(DP_QUESTION.options.some((o) => o.id === keys.dp), keys.dp);
  assert.ok(CEILING_QUESTION.options.some((o) => o.id === keys.ceiling), keys.ceiling);
});

test('every answer the page scores verifies in C++ with the same score', () => {
  for (const dp of DP_QUESTION.options) {
    for (const ceiling of CEILING_QUESTION.options) {
      const r = verify(recordWith([{ id: 'act3_dp', choice: dp.id, correct: dp.id === keys.dp },
        { id: 'act3_ceiling', choice: ceiling.id, correct: ceiling.id === keys.ceiling }]));
      assert.equal(r.status, 'ok', `${dp.id} / ${ceiling.id}: ${JSON.stringify(r.differing_fields || r.error)}`);
    }
  }
});

test('a score the page would not give is caught (the check can fail)', () => {
  const wrong = DP_QUESTION.options.find((o) => o.id !== keys.dp).id;
  const r = verify(recordWith([{ id: 'act3_dp', choice: wrong, correct: true }]));
  assert.equal(r.status, 'differs');
  assert.deepEqual(r.differing_fields, ['result_snapshot.act3.reflect[0].correct']);
});
