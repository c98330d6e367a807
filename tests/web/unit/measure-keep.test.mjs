// Unit tests for web/src/models/measure-keep.js ("Measure it" kept for the tab) with real training reports
// from the lab_train WASM module: a round trip gives back what the panel drew, a run ends with the same
// judgement after the trip (a failed or stalled run never comes back as a success), stale, edited or
// oversized data is dropped part by part, and missing or throwing storage changes nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTrainEngine } from '../../../scripts/engine-node.mjs';
import {
  KEEP_KEY, MAX_CHARS, serialize, deserialize, saveKept, loadKept, forgetKept, keptTrainStatus, reportOk, validSettings,
} from '../../../web/src/models/measure-keep.js';
import { DEFAULT_SETTINGS, trainRequest } from '../../../web/src/models/measure-model.js';
import { STALL, stallRequests } from '../../../web/src/models/stall-model.js';

const engine = await loadTrainEngine();
const train = (req) => JSON.parse(engine.train(JSON.stringify(req)));
const request = (s) => ({ ...trainRequest({ ...DEFAULT_SETTINGS, batch_size: 2, seq_len: 16, steps: 10, ...s }), measure_peak: false });
const done = (report, total = report.steps_done) => ({ losses: report.losses, seconds: report.seconds_per_step, total, report, end: { outcome: 'done', stepsDone: total } });
const memory = () => { const m = new Map(); return { m, getItem: (k) => (m.has(k) ? m.get(k) : null), setItem: (k, v) => m.set(k, String(v)), removeItem: (k) => m.delete(k) }; };
const copy = (x) => JSON.parse(JSON.stringify(x));

const base = { settings: { ...DEFAULT_SETTINGS, precision: 'mixed', steps: 10 }, stallSettings: { pure: 'fp16', steps: 30 } };
const fp32 = train(request({}));
const stallReqs = stallRequests('bf16', 30);
const stallRuns = { pure: train(stallReqs.pure), mixed: train(stallReqs.mixed) };
const stallDone = { pure: 'bf16', steps: 30, reports: stallRuns, live: { pure: stallRuns.pure.losses, mixed: stallRuns.mixed.losses }, end: { outcome: 'done', stepsDone: 60 } };

test('a finished run, the stall demo and the settings come back as they were kept', () => {
  assert.ok(reportOk(fp32), 'a real report passes the checks');
  const text = serialize({ ...base, train: done(fp32), stall: stallDone });
  assert.ok(text.length < MAX_CHARS, `${text.length} characters`);
  const back = deserialize(text);
  assert.deepEqual(back.settings, base.settings);
  assert.deepEqual(back.stallSettings, base.stallSettings);
  assert.deepEqual(back.train, done(fp32));
  // The stall demo keeps what its charts read of each report, nothing else.
  assert.deepEqual(back.stall.reports.pure, { losses: stallRuns.pure.losses, task: stallRuns.pure.task, stall: {
    weight_elements: stallRuns.pure.stall.weight_elements, weights_unchanged_per_step: stallRuns.pure.stall.weights_unchanged_per_step,
    master_unchanged_per_step: null } });
  assert.deepEqual(back.stall.reports.mixed.stall.master_unchanged_per_step, stallRuns.mixed.stall.master_unchanged_per_step);
  assert.deepEqual({ ...back.stall, reports: null }, { ...stallDone, reports: null });
  // Through a storage, under the versioned key.
  const s = memory();
  assert.equal(saveKept(s, { ...base, train: done(fp32), stall: stallDone }), true);
  assert.deepEqual([...s.m.keys()], [KEEP_KEY]);
  assert.match(KEEP_KEY, /\/v\d+$/);
  assert.deepEqual(loadKept(s), back);
  forgetKept(s);
  assert.equal(loadKept(s), null);
});

test('the status after the trip is the panel’s own judgement: done, cancelled, left, and a failed run stays failed', () => {
  assert.match(keptTrainStatus(deserialize(serialize({ ...base, train: done(fp32) })).train).text, /^Done: 10 steps in [\d.]+ s of training\.$/);
  const cut = { ...done(fp32, 40), end: { outcome: 'cancelled', stepsDone: 10 } };
  assert.deepEqual(keptTrainStatus(cut).state, 'cancelled');
  assert.equal(keptTrainStatus(cut).text, 'Cancelled after 10 of 40 steps.');
  // Left mid-way: the first report (after 2 steps) and the losses of every step that arrived.
  const session = new engine.TrainSession(JSON.stringify(request({ steps: 40 })));
  session.step(2);
  const first = JSON.parse(session.report());
  const more = JSON.parse(session.step(5));
  session.delete();
  const left = { losses: [...first.losses, ...more.losses], seconds: [0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01], total: 40, report: first, end: { outcome: 'left', stepsDone: 7 } };
  const back = deserialize(serialize({ ...base, train: left })).train;
  assert.deepEqual(back, left);
  assert.deepEqual({ state: keptTrainStatus(back).state, text: keptTrainStatus(back).text },
    { state: 'cancelled', text: 'Stopped when you left Measure it, after 7 of 40 steps.' });
  // A pure-FP16 run that diverged, kept whole or left after its first report: failed either way.
  const diverged = train(request({ precision: 'fp16', optimizer: 'adam', learning_rate: 0.03, batch_size: 4, seq_len: 32, steps: 20 }));
  assert.ok(diverged.losses.includes(null), 'this request diverges');
  const failed = keptTrainStatus(deserialize(serialize({ ...base, train: done(diverged) })).train);
  assert.equal(failed.state, 'failed');
  assert.match(failed.text, /^Failed — the run diverged/);
  const firstOnly = { ...diverged, losses: diverged.losses.slice(0, 1), steps_done: 1, skipped_steps: [] };
  const leftFailed = { losses: diverged.losses.slice(0, 5), seconds: [], total: 20, report: firstOnly, end: { outcome: 'left', stepsDone: 5 } };
  const lf = keptTrainStatus(deserialize(serialize({ ...base, train: leftFailed })).train);
  assert.equal(lf.state, 'failed');
  assert.match(lf.text, /\(stopped when you left Measure it, after 5 of 20 steps\)\. Pure FP16 keeps Adam’s second moment v in FP16/);
  // Pure BF16 with plain SGD at a small rate: stalled stays stalled.
  const stalled = train(request({ precision: 'bf16', optimizer: 'sgd', learning_rate: 0.0003 }));
  assert.equal(keptTrainStatus(deserialize(serialize({ ...base, train: done(stalled) })).train).state, 'stalled');
});

test('settings off the panel’s lists fall back one by one; unusable runs are dropped, the rest is kept', () => {
  assert.deepEqual(validSettings({ precision: 'fp64', optimizer: 'sgd', steps: '40', learning_rate: 0.003, batch_size: 1e308 }),
    { ...DEFAULT_SETTINGS, optimizer: 'sgd' });
  assert.deepEqual(validSettings('adam'), DEFAULT_SETTINGS);
  const good = JSON.parse(serialize({ ...base, train: done(fp32), stall: stallDone }));
  const broken = (mutate) => { const x = copy(good); mutate(x); return deserialize(JSON.stringify(x)); };
  const trainCases = {
    'no report on a finished run': (x) => { x.train.report = null; },
    'a loss as text': (x) => { x.train.losses[3] = '4.1'; },
    'more losses than steps': (x) => { x.train.total = 10; x.train.losses.push(...x.train.losses); },
    'steps not on the list': (x) => { x.train.total = 12; },
    'an outcome that is not one': (x) => { x.train.end.outcome = 'success'; },
    'a report from an older engine without its task': (x) => { delete x.train.report.task; },
    'a byte count as text': (x) => { x.train.report.memory.predicted.at_peak.weights = '1 MB'; },
    'a timeline series of the wrong length': (x) => { x.train.report.memory.timeline.predicted_peak_bytes.pop(); },
    'no memory at all': (x) => { x.train.report.memory = []; },
    'negative seconds': (x) => { x.train.seconds[0] = -1; },
    'a run with no step': (x) => { x.train.losses = []; x.train.end = { outcome: 'cancelled', stepsDone: 0 }; },
  };
  for (const [what, mutate] of Object.entries(trainCases)) {
    const back = broken(mutate);
    assert.equal(back.train, null, what);
    assert.notEqual(back.stall, null, `${what}: the stall demo stays`);
    assert.deepEqual(back.settings, base.settings, `${what}: the settings stay`);
  }
  const stallCases = {
    'a finished demo without its mixed run': (x) => { x.stall.reports.mixed = null; },
    'unchanged counts of another length': (x) => { x.stall.reports.pure.stall.weights_unchanged_per_step.pop(); },
    'no weights': (x) => { x.stall.reports.pure.stall.weight_elements = 0; },
    'a format the demo does not run': (x) => { x.stall.pure = 'fp8'; },
    'live losses longer than the run': (x) => { x.stall.live.pure = [...x.stall.live.pure, ...x.stall.live.pure]; },
  };
  for (const [what, mutate] of Object.entries(stallCases)) {
    const back = broken(mutate);
    assert.equal(back.stall, null, what);
    assert.notEqual(back.train, null, `${what}: the run stays`);
  }
  for (const text of [null, '', '{not json', '[]', '42', 'null', JSON.stringify({ settings: 5, train: 'x', stall: [] })]) {
    const back = deserialize(text);
    assert.ok(back === null || (back.train === null && back.stall === null && back.settings.steps === DEFAULT_SETTINGS.steps), String(text));
  }
  assert.equal(deserialize(' '.repeat(MAX_CHARS + 1)), null, 'over the size limit: not even parsed');
  // Another version's key is never read.
  const s = memory();
  s.setItem(KEEP_KEY.replace(/v\d+$/, 'v0'), serialize({ ...base, train: done(fp32) }));
  assert.equal(loadKept(s), null);
});

test('too much to keep: the stall demo goes first, then the run; the settings always fit', () => {
  const big = (n) => ({ ...fp32, padding: 'x'.repeat(n) });
  const runOnly = serialize({ ...base, train: done(fp32) }).length;
  const t2 = JSON.parse(serialize({ ...base, train: done(big(MAX_CHARS - runOnly - 100)), stall: stallDone }));
  assert.equal(t2.stall, null, 'the stall demo was left out');
  assert.notEqual(t2.train, null, 'the run still fits');
  const t3 = JSON.parse(serialize({ ...base, train: done(big(MAX_CHARS)), stall: stallDone }));
  assert.deepEqual([t3.train, t3.stall], [null, null]);
  assert.deepEqual(t3.settings, base.settings);
});

test('no storage, or storage that throws, keeps nothing and never throws', () => {
  const state = { ...base, train: done(fp32), stall: stallDone };
  assert.equal(saveKept(null, state), false);
  assert.equal(loadKept(null), null);
  assert.doesNotThrow(() => forgetKept(null));
  const hostile = { getItem() { throw new Error('SecurityError'); }, setItem() { throw new Error('SecurityError'); }, removeItem() { throw new Error('SecurityError'); } };
  assert.equal(saveKept(hostile, state), false);
  assert.equal(loadKept(hostile), null);
  assert.doesNotThrow(() => forgetKept(hostile));
  // A full storage: the write fails, and the older run kept before is removed, never shown as the latest.
  const full = memory();
  full.setItem(KEEP_KEY, serialize({ ...base, train: done(fp32) }));
  full.setItem = () => { throw new Error('QuotaExceededError'); };
  assert.equal(saveKept(full, { ...base, train: null, stall: null }), false);
  assert.equal(loadKept(full), null);
});

test('the stall demo’s default settings are on its lists', () => {
  assert.ok(STALL.pure.includes(STALL.default_pure) && STALL.steps.includes(STALL.default_steps));
  assert.deepEqual(deserialize(JSON.stringify({})).stallSettings, { pure: STALL.default_pure, steps: STALL.default_steps });
});
