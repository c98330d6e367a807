// Unit tests for web/src/ledger/ledger-act3.js (DOM-free): Act 3's prediction and reflections on the design
// ledger's page, read from the lab state; the saved ledger's own lists are not touched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { act3Calibration, act3Reflections, displayCalibration, QUANTITY3 } from '../../../web/src/ledger/ledger-act3.js';
import { calibrationSummary, savedCalibration } from '../../../web/src/ledger/design-ledger.js';
import { countError } from '../../../web/src/models/act3-model.js';
import { DP_QUESTION, CEILING_QUESTION } from '../../../web/src/content/act3-text.js';
import { defaultState, withAct3 } from '../../../web/src/state/store.js';
import { withTry } from '../../../web/src/format/scoring.js';
import { formatRatio, plainText } from '../../../web/src/format/format.js';

// A locked prediction as act3.js onLock stores it; `needed` stands in for the solver's count.
function locked(devices, needed, patch = {}) {
  const err = countError(devices, needed);
  return withAct3(defaultState(), { prediction: { devices, truth_devices: needed, error_ratio: err.ratio, direction: err.direction,
    answered_at: '2026-01-01T00:00:00.000Z', scenario: null }, ...patch });
}

test('no Act 3 prediction: nothing added, and the page reads as before', () => {
  const s = defaultState();
  assert.equal(act3Calibration(s), null);
  assert.deepEqual(act3Reflections(s), []);
  assert.deepEqual(displayCalibration(s), calibrationSummary(s));
  assert.equal(displayCalibration(s).sentence, 'No predictions recorded yet.');
});

test('a locked, unrevealed prediction waits for the Reveal on the student’s page', () => {
  const s = locked(2, 8);
  const it = act3Calibration(s, { holdUnseen: true });
  assert.equal(it.held, true);
  assert.ok(!('truth' in it));
  assert.match(it.phrase, /after the Reveal in Act 3/);
  assert.doesNotMatch(it.phrase, /\b8 GPUs/);
  assert.equal(displayCalibration(s, 'gb', { holdUnseen: true }).sentence, 'Your Act 3 prediction waits for Act 3’s Reveal.');
});

test('revealed: the engine’s count, the ratio and the direction, in the act’s own words', () => {
  for (const [devices, needed, way] of [[2, 8, 'too few'], [32, 8, 'too many']]) {
    const s = locked(devices, needed, { revealed: true });
    const it = act3Calibration(s, { holdUnseen: true });
    const r = formatRatio(countError(devices, needed).ratio);
    assert.equal(plainText(it.phrase), `${QUANTITY3}: you chose ${devices} GPUs, the engine’s solver needs ${needed} GPUs: off by ${plainText(r)} (${way}).`);
    const verb = way === 'too few' ? 'under' : 'over';
    assert.equal(displayCalibration(s, 'gb', { holdUnseen: true }).sentence, `You ${verb}-estimated the GPUs needed by about ${r}.`);
  }
  const exact = locked(8, 8, { revealed: true });
  assert.match(act3Calibration(exact).phrase, /: spot on\.$/);
  assert.equal(displayCalibration(exact).sentence, 'You were spot on about the GPUs needed.');
});

test('the recorded result’s count (what a ledger’s check re-computes) is the one shown', () => {
  const s = locked(4, 8, { revealed: true, result: { act: 3, prediction: { devices: 4 }, devices_needed: 16, reflect: [] } });
  assert.equal(act3Calibration(s).truth, 16);
  assert.match(plainText(act3Calibration(s).phrase), /needs 16 GPUs/);
});

test('both reflections: the question, the answer chosen, right or not; the first answer is scored', () => {
  let s = locked(2, 8, { revealed: true });
  s = withAct3(s, { reflection_dp: withTry(null, { choice: 'copies', correct: true, answered_at: 'a' }) });
  s = withAct3(s, { reflection_ceiling: withTry(withTry(null, { choice: 'count', correct: false, answered_at: 'b' }), { choice: 'ratio', correct: true, answered_at: 'c' }) });
  const [dp, ceiling] = act3Reflections(s);
  assert.equal(dp.prompt, DP_QUESTION.prompt);
  assert.equal(dp.chosen, DP_QUESTION.options.find((o) => o.id === 'copies').label);
  assert.equal(dp.correct, true);
  assert.equal(dp.phrase, `${DP_QUESTION.prompt} You chose “${dp.chosen}”: right.`);
  assert.equal(ceiling.prompt, CEILING_QUESTION.prompt);
  assert.equal(ceiling.choice, 'count');
  assert.equal(ceiling.correct, false);
  assert.match(ceiling.phrase, /: not right \(the first of 2 answers, the one scored\)\.$/);
});

test('display only: the saved ledger’s calibration has no Act 3 item', () => {
  const s = locked(2, 8, { revealed: true });
  assert.deepEqual(savedCalibration(s).items.map((it) => it.id), []);
  assert.deepEqual(displayCalibration(s).items.map((it) => it.id), ['act3']);
});
