// Measure it's run records (measure-record.js): what a run that ended puts in the lab's state, that it
// passes the lab-state schema (and so the design ledger's), that nothing is recorded without a
// measurement, and that only the newest runs are kept.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runRecord, withMeasureRun, measureRunsText, MAX_RUNS } from '../../../web/src/models/measure-record.js';
import { plainText } from '../../../web/src/format/format.js';
import { DEFAULT_SETTINGS } from '../../../web/src/models/measure-model.js';
import { defaultState, validateState } from '../../../web/src/state/store.js';

const report = {
  model: { parameters: 12345 },
  memory: { measured: { peak_bytes: 3000, at_peak: { weights: 1000, activations: 2000 }, peak_phase: 'backward' }, predicted: { peak_bytes: 3000 } },
  time: { median_seconds_per_step: 0.02, total_seconds: 0.2 },
  throughput: { tokens_per_s: 6400 },
};
const train = { losses: [4.2, 3.9, null, 3.5], total: 10, report, end: { outcome: 'done', stepsDone: 4 } };
const at = new Date('2026-01-02T03:04:05Z');

test('a finished run is recorded with its settings, measured and predicted peak bytes, loss and time', () => {
  const r = runRecord(train, { ...DEFAULT_SETTINGS, steps: 10 }, at);
  assert.deepEqual(r, {
    at: '2026-01-02T03:04:05.000Z', settings: { ...DEFAULT_SETTINGS, steps: 10 }, outcome: 'done', steps_done: 4, parameters: 12345,
    measured_peak_bytes: 3000, predicted_peak_bytes: 3000, measured_bytes_at_peak: { weights: 1000, activations: 2000 }, peak_phase: 'backward',
    first_loss_nats: 4.2, last_loss_nats: 3.5, median_seconds_per_step: 0.02, total_seconds: 0.2, tokens_per_s: 6400,
  });
  const state = withMeasureRun(defaultState(), r);
  assert.deepEqual(validateState(state), []);
  assert.deepEqual(validateState(defaultState()), [], 'a state without runs is valid too (the field is optional)');
});

test('nothing is recorded without a measurement: no report, a run that never started, or an error', () => {
  assert.equal(runRecord({ ...train, report: null }, DEFAULT_SETTINGS, at), null);
  assert.equal(runRecord({ ...train, end: { outcome: 'error' } }, DEFAULT_SETTINGS, at), null);
  const s = defaultState();
  assert.equal(withMeasureRun(s, null), s);
});

test(`only the newest ${MAX_RUNS} runs are kept`, () => {
  let s = defaultState();
  for (let i = 0; i < MAX_RUNS + 3; i += 1) s = withMeasureRun(s, runRecord({ ...train, end: { outcome: 'cancelled', stepsDone: i } }, DEFAULT_SETTINGS, at));
  assert.equal(s.measure_runs.length, MAX_RUNS);
  assert.equal(s.measure_runs[0].steps_done, 3);
  assert.equal(s.measure_runs.at(-1).steps_done, MAX_RUNS + 2);
  assert.deepEqual(validateState(s), []);
  assert.notDeepEqual(validateState({ ...s, measure_runs: [{ ...s.measure_runs[0], outcome: 'error' }] }), []);
});

test('the ledger’s readable summary names the last run’s settings, measured peak, loss and time, in the panel’s units', () => {
  assert.equal(measureRunsText([], 'gb'), null);
  assert.equal(measureRunsText(undefined, 'gb'), null);
  const r = runRecord(train, { ...DEFAULT_SETTINGS, steps: 10 }, at);
  assert.equal(plainText(measureRunsText([r, r], 'gb')), 'Measure it: 2 runs recorded; the last: FP32, Adam, checkpointing none, batch 4 × 32 tokens, '
    + '4 of 10 steps (done): measured peak 3.00 kB, as the ledger predicted, loss 4.20 → 3.50 nats, 20.0 ms per step (median).');
  const off = { ...r, predicted_peak_bytes: 2048, measured_peak_bytes: 3 * 1024 * 1024, first_loss_nats: null, median_seconds_per_step: null };
  assert.equal(plainText(measureRunsText([off], 'gib')), 'Measure it: 1 run recorded; the last: FP32, Adam, checkpointing none, batch 4 × 32 tokens, '
    + '4 of 10 steps (done): measured peak 3.00 MiB, the ledger predicted 2.00 KiB.');
});
