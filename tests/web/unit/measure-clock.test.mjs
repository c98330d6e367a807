// The clock's words in the Measure-it panel (web/src/models/measure-clock.js) on real lab_train reports: the
// speed list names the engine's measured clock step; a coarse clock (Firefox and Safari round theirs
// to 1 ms) and a run too short for spans of 100 ticks are said in a sentence, with the engine's figures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTrainEngine } from '../../../scripts/engine-node.mjs';
import { trainRequest, DEFAULT_SETTINGS, speedRows } from '../../../web/src/models/measure-model.js';
import { clockRow, clockSentence, clockStepText } from '../../../web/src/models/measure-clock.js';

const engine = await loadTrainEngine();
const report = JSON.parse(engine.train(JSON.stringify({ ...trainRequest({ ...DEFAULT_SETTINGS, batch_size: 2, seq_len: 16, steps: 3 }), measure_peak: true })));
// The same report as a browser with a 1 ms clock would have it (the fields the engine fills in).
const coarse = (r, ticks = 150) => ({ ...r, time: { ...r.time, clock_resolution_seconds: 1e-3, shortest_span_ticks: ticks }, peak: { ...r.peak, clock_resolution_seconds: 1e-3, repetitions_per_span: 128 } });

test('the speed list shows the clock step the engine measured', () => {
  assert.equal(report.error, undefined);
  const row = speedRows(report).find((r) => r.key === 'clock_resolution');
  assert.equal(row.value, report.time.clock_resolution_seconds);
  assert.equal(row.text, clockStepText(report.time.clock_resolution_seconds));
  assert.deepEqual(clockRow(report), row);
  assert.equal(clockStepText(1e-3), '1.0 ms');
  assert.equal(clockStepText(1e-4), '0.1 ms');
  assert.equal(clockStepText(2e-6), '2.0 µs');
});

test('a fine clock and long spans need no sentence; a coarse clock says how the engine timed', () => {
  assert.ok(report.time.clock_resolution_seconds < 1e-4, 'Node’s clock is fine');
  assert.equal(clockSentence(report), '');
  const s = clockSentence(coarse(report));
  assert.match(s, /^This browser’s clock moves in steps of 1\.0 ms/);
  assert.match(s, /peak over 128 matrix multiplies at a time/);
  assert.match(s, /at least 100 clock steps\.$/);
});

test('a run too short for spans of 100 ticks says how far off its speed may be', () => {
  const s = clockSentence(coarse(report, 40));
  assert.match(s, /too short to time precisely: its steps lasted only 40 clock steps, so its speed may be off by up to 3%\./);
  assert.equal(clockSentence({ ...report, time: { ...report.time, clock_resolution_seconds: undefined } }), '');
  assert.equal(clockRow({ ...report, time: {} }), null);
});
