// The design ledger's Act 3 record (issue 28): a lab state with Act 3's result carries it in
// result_snapshot.act3 and its knobs in knob_settings.act3, valid against the ledger schema, and the
// readable summary names the prediction and the solver's answer; a state without Act 3 has neither.
// The record's numbers here come from the stand-in engine (act3-fake-scale.mjs); labctl verify (S)
// re-computes them with lab_scale.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../../scripts/engine-node.mjs';
import { buildDesignLedger, validateLedger, ledgerText, deviceNames } from '../../../web/src/ledger/design-ledger.js';
import { plainText } from '../../../web/src/format/format.js';
import { defaultState, withAct3, validateState } from '../../../web/src/state/store.js';
import { withConfig3 } from '../../../web/src/state/act3-url.js';
import { toScenario3, PREDICT3, act3Record, devicesNeeded, stepByInterconnect } from '../../../web/src/models/act3-model.js';
import { DEFAULT_CONFIG3 } from '../../../web/src/state/act3-config.js';
import { fakeScale, SPEC } from './act3-fake-scale.mjs';
import { act3Calibration, act3Reflections } from '../../../web/src/ledger/ledger-act3.js';
import { withTry } from '../../../web/src/format/scoring.js';

const raw = await loadEngine();
const engine = {
  evaluate: (s) => JSON.parse(raw.evaluate(JSON.stringify(s))),
  solve: (s) => JSON.parse(raw.solve(JSON.stringify(s))),
  version: () => raw.version(),
};

function act3State() {
  const settings = toScenario3(DEFAULT_CONFIG3, SPEC);
  const k = devicesNeeded(fakeScale, SPEC).devices;
  const result = act3Record({ settings, prediction: { devices: 6 }, devicesNeeded: k, predictionScenario: toScenario3(PREDICT3, SPEC),
    stepByInterconnect: stepByInterconnect(fakeScale, settings).step_s, reflect: [{ id: 'act3_dp', choice: 'copies', correct: true }] });
  return withAct3(withConfig3(defaultState(), {}), { prediction: { devices: 6, truth_devices: k, error_ratio: 6 / k, direction: 'over',
    answered_at: '2026-01-02T03:04:05Z', scenario: result.prediction_scenario }, explored: true, revealed: true, result });
}

test('a lab state with Act 3 is valid, and its ledger carries the record and the knobs', () => {
  const state = act3State();
  assert.deepEqual(validateState(state), []);
  const l = buildDesignLedger(state, engine, { now: new Date('2026-01-02T03:04:05Z') });
  assert.deepEqual(validateLedger(l), []);
  assert.deepEqual(l.result_snapshot.act3, state.acts.act3.result);
  assert.deepEqual(l.knob_settings.act3, state.config3);
  const text = ledgerText(l, 'gb', deviceNames(raw.catalog()));
  assert.match(text, new RegExp(`Act 3 \\(GPUs for fully sharded GPT-2 XL on 8 GB laptop GPUs\\): you said 6, the solver needs ${state.acts.act3.result.devices_needed}\\.`));
});

test('a lab state without Act 3 gives a ledger without it', () => {
  const l = buildDesignLedger(defaultState(), engine, { now: new Date('2026-01-02T03:04:05Z') });
  assert.equal('act3' in l.result_snapshot, false);
  assert.equal('act3' in l.knob_settings, false);
});

test('an edited Act 3 record that breaks the schema is named', () => {
  const state = act3State();
  const l = buildDesignLedger(state, engine, { now: new Date('2026-01-02T03:04:05Z') });
  l.result_snapshot.act3.prediction = { devices: 0 };
  assert.ok(validateLedger(l).some((e) => /act3/.test(e)), validateLedger(l).join('; '));
});

test('the ledger page’s readable summary lists Act 3’s prediction and reflections; the file’s lists stay without them', () => {
  const state = withAct3(act3State(), { reflection_dp: withTry(null, { choice: 'copies', correct: true, answered_at: '2026-01-02T03:04:06Z' }) });
  const l = buildDesignLedger(state, engine, { now: new Date('2026-01-02T03:04:05Z') });
  assert.equal(l.predictions.some((p) => p.id === 'act3'), false);
  assert.equal(l.reflections.some((r) => r.act === 3), false);
  const item = act3Calibration(state, { holdUnseen: true });
  const [dp] = act3Reflections(state);
  const text = ledgerText(l, 'gb', { holdUnseen: true, act3: { item, reflections: [dp] } });
  const [predictions, reflections] = [text.slice(0, text.indexOf('\nReflections')), text.slice(text.indexOf('\nReflections'))];
  assert.ok(predictions.includes(`- ${plainText(item.phrase)}`), predictions);
  assert.match(item.phrase, new RegExp(`you chose 6 GPUs, the engine’s solver needs ${state.acts.act3.result.devices_needed} GPUs`));
  assert.ok(reflections.includes(`- ${plainText(dp.phrase)}`), reflections);
  assert.doesNotMatch(reflections, /^- none yet$/m);
  assert.doesNotMatch(ledgerText(l, 'gb', { holdUnseen: true }), /You chose “/); // without them, as before
});
