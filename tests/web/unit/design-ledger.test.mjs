// Unit tests for web/src/ledger/design-ledger.js: the one ledger builder (against the real WASM engine), the
// calibration summary and its sentence, the readable text, and reading a ledger back (limits, version,
// migration, schema). Verification itself is tested in tests/wasm/ledger.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadEngine } from '../../../scripts/engine-node.mjs';
import { buildDesignLedger, calibrationSummary, ledgerText, resolveRefs, validateLedger, LEDGER_SCHEMA_VERSION, deviceNames, readableDate }
  from '../../../web/src/ledger/design-ledger.js';
import { verificationRows, verificationHeadline, shownValue, notRecomputedItems } from '../../../web/src/ledger/ledger-verify-view.js';
import { readLedger, checkLedger } from '../../../web/src/ledger/ledger-check.js';
import { LAPTOP_START, toLaptopScenario } from '../../../web/src/state/scenario.js';
import { laptopMove } from '../../../web/src/models/act2-model.js';
import { plainText } from '../../../web/src/format/format.js';
import { defaultState, withAct1, withAct2 } from '../../../web/src/state/store.js';

const raw = await loadEngine();
const engine = {
  evaluate: (s) => JSON.parse(raw.evaluate(JSON.stringify(s))),
  solve: (r) => JSON.parse(raw.solve(JSON.stringify(r))),
  version: () => raw.version(),
};
// With the ledger check and the catalog, as the page's checkLedger is given them.
const checker = { ...engine, verifyLedger: (text) => JSON.parse(raw.verify_ledger(text)), catalog: () => JSON.parse(raw.catalog()) };
const devices = deviceNames(raw.catalog());
const fixture = (name) => readFileSync(new URL(`../../fixtures/ledger/${name}`, import.meta.url), 'utf8');
const COMMON = ['lab_id', 'predictions', 'knob_settings', 'binding_constraints', 'decisions', 'reflections', 'result_snapshot', 'timestamp', 'ledger_schema_version'];
const PLAN = ['chapter', 'optimizer_chosen', 'precision_chosen', 'gradient_checkpointing', 'final_mfu_pct', 'baseline_mfu_estimate_pct',
  'laptop_fit_achieved', 'laptop_minimum_memory_gb', 'laptop_floor_derivation'];

test('a fresh lab’s ledger validates, with the plan’s fields blank where nothing was reached', () => {
  const l = buildDesignLedger(defaultState(), engine, { now: new Date('2026-01-02T03:04:05Z') });
  assert.deepEqual(validateLedger(l), []);
  for (const k of [...COMMON, ...PLAN, 'engine_version', 'lab_state', 'calibration']) assert.ok(k in l, k);
  assert.equal(l.ledger_schema_version, LEDGER_SCHEMA_VERSION);
  assert.equal(l.timestamp, '2026-01-02T03:04:05.000Z');
  assert.equal(l.engine_version, raw.version());
  assert.deepEqual([l.final_mfu_pct, l.baseline_mfu_estimate_pct, l.laptop_minimum_memory_gb, l.laptop_floor_derivation], [null, null, null, null]);
  // Issue 24: no part opened, so no choice in it (not the starting settings).
  assert.deepEqual([l.optimizer_chosen, l.precision_chosen, l.gradient_checkpointing], [null, null, null]);
  assert.equal(l.laptop_fit_achieved, false);
  assert.deepEqual([l.predictions, l.reflections, l.decisions], [[], [], []]);
  assert.equal(l.result_snapshot.laptop, null);
  assert.equal(l.calibration.sentence, 'No predictions recorded yet.');
  assert.equal(l.result_snapshot.act1.peak_bytes, engine.evaluate({ model: 'gpt2-xl', optimizer: 'adam', precision: 'fp32', batch_size: 1,
    checkpointing: 'none', device: 'h100-sxm-80gb', chapter_replay: false }).memory.peak_bytes);
});

test('rebuilding a finished lab’s ledger from its own lab state gives the same ledger, byte for byte', () => {
  const saved = JSON.parse(fixture('valid-complete.json'));
  const rebuilt = buildDesignLedger(saved.lab_state, engine, { now: new Date(saved.timestamp) });
  // Except the laptop floor's text: the fixture records the solver's first wording (both verify).
  assert.match(saved.laptop_floor_derivation, /mixed \+ sgd \+ full checkpointing/);
  const now = engine.solve({ model: 'gpt2-xl', device: 'rtx4060-laptop-8gb' }).floor.text;
  assert.deepEqual(rebuilt, { ...saved, laptop_floor_derivation: now,
    result_snapshot: { ...saved.result_snapshot, laptop: { ...saved.result_snapshot.laptop, floor_text: now } } });
  assert.equal(rebuilt.predictions.length, 2);
  assert.equal(rebuilt.reflections.length, 3);
  assert.equal(rebuilt.decisions.filter((d) => d.kind === 'laptop_move').length, saved.lab_state.acts.act2.laptop.moves.length);
  assert.equal(rebuilt.final_mfu_pct, saved.lab_state.acts.act2.design.best.mfu * 100);
  assert.equal(rebuilt.baseline_mfu_estimate_pct, saved.lab_state.acts.act2.prediction.predicted_mfu * 100);
  assert.match(rebuilt.laptop_floor_derivation, /12,460,889,600 B/);
});

test('the ledger is a snapshot: changing the state afterwards does not change it', () => {
  const state = JSON.parse(fixture('valid-complete.json')).lab_state;
  const l = buildDesignLedger(state, engine);
  state.acts.act2.laptop.moves[0].peak_bytes = 1;
  state.config.optimizer = 'sgd';
  assert.notEqual(l.lab_state.acts.act2.laptop.moves[0].peak_bytes, 1);
  assert.equal(l.lab_state.config.optimizer, l.optimizer_chosen);
});

test('an engine error while building names the settings it came from', () => {
  const broken = { ...engine, evaluate: () => ({ error: { field: 'device', message: 'unknown device' } }) };
  assert.throws(() => buildDesignLedger(defaultState(), broken), /engine \(Act 1 settings\): device: unknown device/);
});

const withPredictions = (p1, p2) => {
  let s = defaultState();
  if (p1) s = withAct1(s, { prediction: { choice: 'a', answered_at: 'x', ...p1 } });
  if (p2) s = withAct2(s, { prediction: { choice: 'a', answered_at: 'x', scenario: s.config2, ...p2 } });
  return s;
};

test('the calibration sentence says which way and how far each prediction was off', () => {
  let c = calibrationSummary(withPredictions({ predicted_bytes: 4e9, truth_bytes: 12e9, error_ratio: 3, direction: 'under' },
    { choice: 'c', predicted_mfu: 0.447, truth_mfu: 0.1, error_ratio: 4, direction: 'over' }));
  assert.equal(c.sentence, 'You under-estimated memory by about 3.0× and over-estimated MFU by about 4.0×.');
  // The option as the student saw it, with the amount it stands for (the ratio is computed from that).
  assert.equal(plainText(c.items[0].phrase), `${c.items[0].quantity}: you chose about 4 GB (4.00 GB), the engine says 12.00 GB (3.0× too low).`);
  // The chosen range, and the end it was scored from (40% / 10% = 4.0×).
  assert.match(c.items[1].phrase, /you chose 40–50%, the engine says 10\.0% \(the nearer end, 40%, is 4\.0× too high\)/);
  c = calibrationSummary(withPredictions({ predicted_bytes: 0, truth_bytes: 12e9, error_ratio: null, direction: 'zero' }, null));
  assert.equal(c.sentence, 'You expected no extra memory at all.');
  c = calibrationSummary(withPredictions(null, { predicted_mfu: 0.1, truth_mfu: 0.101, error_ratio: 1.01, direction: 'exact' }));
  assert.equal(c.sentence, 'You were spot on about MFU.');
  assert.equal(c.items.length, 1);
  assert.match(c.items[0].phrase, /\(inside your range: spot on\)/);
  // Two predictions spot on share one clause.
  c = calibrationSummary(withPredictions({ predicted_bytes: 12e9, truth_bytes: 12.2e9, error_ratio: 1.02, direction: 'exact' },
    { predicted_mfu: 0.1, truth_mfu: 0.101, error_ratio: 1, direction: 'exact' }));
  assert.equal(c.sentence, 'You were spot on about memory and MFU.');
  assert.equal(c.items.length, 2);
});

test('on the student’s own page a prediction’s answer waits for its act’s Reveal; the saved ledger keeps it', () => {
  const both = withPredictions({ predicted_bytes: 4e9, truth_bytes: 12e9, error_ratio: 3, direction: 'under' },
    { choice: 'c', predicted_mfu: 0.447, truth_mfu: 0.257, error_ratio: 1.6, direction: 'over' });
  let c = calibrationSummary(both, 'gb', { holdUnseen: true });
  assert.equal(c.sentence, 'Your Act 1 and Act 2 predictions wait for each act’s Reveal.');
  assert.match(c.items[1].phrase, /you chose 40–50%; the engine’s answer shows here after the Reveal in Act 2\.$/);
  for (const it of c.items) assert.doesNotMatch(it.phrase, /engine says|12\.00|25\.7/);
  // Act 1 revealed, Act 2 not: Act 1's line and clause, Act 2's held.
  const act1Shown = withAct1(both, { revealed: true });
  c = calibrationSummary(act1Shown, 'gb', { holdUnseen: true });
  assert.equal(c.sentence, 'You under-estimated memory by about 3.0×. Your Act 2 prediction waits for Act 2’s Reveal.');
  assert.match(c.items[0].phrase, /the engine says 12\.00\sGB/);
  // Both revealed: as without the hold.
  const all = withAct2(act1Shown, { revealed: true });
  assert.deepEqual(calibrationSummary(all, 'gb', { holdUnseen: true }), calibrationSummary(all));
  // The readable summary on the page holds it too; the record (the saved ledger, an imported one) does not.
  const l = buildDesignLedger(act1Shown, engine);
  assert.match(ledgerText(l, 'gb', { holdUnseen: true }), /Act 2: MFU of a well-configured GPT-2 XL training loop: you chose 40–50%; the engine’s answer shows here/);
  assert.match(ledgerText(l), /you chose 40–50%, the engine says 25\.7%/);
  assert.match(l.calibration.items[1].phrase, /the engine says 25\.7%/);
  // Before an act's prediction its results are not in the page's summary either (Act 2's gauges and
  // Act 1's chart open with the prediction); the record has them.
  const none = buildDesignLedger(defaultState(), engine);
  const held = ledgerText(none, 'gb', { holdUnseen: true });
  assert.match(held, /Act 1 settings: [^\n]*\. Its results show here once you lock in Act 1’s prediction\./);
  assert.match(held, /Act 2 settings: [^\n]*\. Its results show here once you lock in Act 2’s prediction\./);
  assert.doesNotMatch(held, /MFU \d|Peak \d/);
  assert.match(ledgerText(none), /MFU \d+\.\d%, GPU busy/);
  assert.match(ledgerText(l, 'gb', { holdUnseen: true }), /Act 2 settings: [^\n]*\. MFU \d+\.\d%, GPU busy/);
  assert.deepEqual(Object.keys(l.calibration.items[1]), ['id', 'quantity', 'predicted', 'truth', 'unit', 'error_ratio', 'direction', 'phrase']);
});

test('the readable summary states the predictions, each laptop move and the floor in words a report can use', () => {
  const l = JSON.parse(fixture('valid-complete.json'));
  const text = ledgerText(l, 'gb', { devices: deviceNames(raw.catalog()) });
  assert.ok(text.startsWith('Lab 08 (Model Training): design ledger, exported 23 November 2026, 19:00 UTC'));
  assert.ok(text.includes(`Calibration: ${l.calibration.sentence}`));
  assert.match(text, /precision → pure FP16: peak [0-9.]+\sGB, fits, but cannot train \(updates stall\)/);
  assert.match(text, /Laptop challenge \(8\sGB\): 5 moves, fit achieved: no\./);
  assert.match(text, /The least memory that can train GPT-2 XL at all is 13\.75\sGB; 12\.46\sGB of it is weights, gradients and optimizer state/);
  // The lab's words: catalog device names, the knobs' labels, a readable date; no internal ids or raw timestamp.
  assert.match(text, /Act 1 settings: Adam\(W\), Mixed \(16-bit compute \+ FP32 master\), batch 8, checkpointing every 6 layers, on NVIDIA GeForce RTX 4090 24\sGB\./);
  assert.match(text, /on NVIDIA H100 SXM 80\sGB/);
  assert.match(text, /Your choices \(Model Training, chapter 8\): optimizer Adam\(W\) \(Act 1\); precision Mixed \(16-bit compute \+ FP32 master\) and activation checkpointing on \(your best design\); best MFU in the design challenge 25\.8%; your MFU estimate 40–50% \(recorded as 44\.7%, the range’s geometric middle\); least memory that can train GPT-2 XL \(the laptop floor\) 13\.75 GB\.$/);
  assert.doesNotMatch(text, /h100-sxm-80gb|rtx4090-24gb|checkpointing none|B\/param|Volume 2|mixed \+ sgd|\d{4}-\d\d-\d\dT/);
  assert.equal(readableDate('2026-01-02T03:04:05.000Z'), '2 January 2026, 03:04 UTC');
  assert.equal(readableDate('soon'), 'soon');
  assert.match(text, /Design challenge: best MFU [0-9.]+%/);
  assert.match(text, /\nTuned regime \(data loading ≤ 5%, compute ≥ 75%\): (reached|not reached yet)\.\n/);
  // Completed under an instructor's locks that kept the regime out of reach: the summary says why it was not asked.
  const locked = JSON.parse(fixture('valid-complete.json'));
  locked.lab_state.acts.act2.design = { ...locked.lab_state.acts.act2.design, regime_reached: false, not_asked: 'out_of_reach' };
  assert.match(ledgerText(locked, 'gb', { devices: deviceNames(raw.catalog()) }), /\nTuned regime \(data loading ≤ 5%, compute ≥ 75%\): not asked in this lab, where the settings that were fixed kept it out of reach\.\n/);
  assert.deepEqual(validateLedger(locked), [], 'the schema takes the reason');
  locked.lab_state.acts.act2.design.not_asked = 'because';
  assert.notDeepEqual(validateLedger(locked), [], 'and only the lab’s own reasons');
  assert.match(ledgerText(buildDesignLedger(defaultState(), engine)), /Laptop challenge: not started\.[\s\S]*Reflections\n- none yet/);
});

test('schema references resolve to the lab-state schema, and an unknown reference is an error', () => {
  const docs = { 'x.json': { properties: { a: { const: 1 } } } };
  assert.deepEqual(resolveRefs({ items: { $ref: 'x.json#/properties/a' } }, docs), { items: { const: 1 } });
  assert.throws(() => resolveRefs({ $ref: 'y.json' }, docs), /unresolved schema reference y\.json/);
});

test('reading a ledger refuses oversized, non-JSON, foreign, future and damaged files with the field named', () => {
  const big = readLedger(`{"a":"${'x'.repeat(2_000_000)}"}`);
  assert.match(big.error.message, /^the file is 1\.91 MiB; a design ledger is at most 1 MiB \(a finished lab’s is about 20 KiB\)$/);
  assert.equal(readLedger('{"lab_id":').error.field, '');
  assert.equal(readLedger('[1]').error.message, 'a design ledger is a JSON object; this file holds an array');
  assert.equal(readLedger('"text"').error.message, 'a design ledger is a JSON object; this file holds a string');
  assert.match(readLedger('{"lab_id":"lab09-x","ledger_schema_version":2}').error.message, /belongs to 'lab09-x'/);
  assert.match(readLedger('{"lab_id":"lab08-model-train","ledger_schema_version":9}').error.message, /newer version/);
  const v1 = JSON.parse(fixture('older-version-1.json'));
  delete v1.knob_settings;
  assert.match(readLedger(JSON.stringify(v1)).error.message, /could not be migrated/);
  const wrong = JSON.parse(fixture('valid-complete.json'));
  wrong.lab_state.acts.act2.laptop.moves[0].fits = 'yes';
  assert.deepEqual(readLedger(JSON.stringify(wrong)).error, { field: 'lab_state.acts.act2.laptop.moves[0].fits', message: 'has the wrong type: it is a string ("yes"), but must be true or false' });
});

test('the verification table lists differing rows first with exact values, and the headline says what happened', () => {
  const result = { status: 'differs', checked: 3, differing: 1, cause: 'same engine version: the differing values were edited after export',
    fields: [{ field: 'a', label: 'A', recorded: 1, recomputed: 1, differs: false },
      { field: 'b', label: 'B', recorded: 0.25845395394582198, recomputed: 85, differs: true },
      { field: 'c', label: 'C', recorded: null, recomputed: 'text', differs: false }] };
  const rows = verificationRows(result);
  assert.deepEqual(rows.map((r) => r.key), ['b', 'a', 'c']);
  assert.deepEqual([rows[0].recorded.exact, rows[0].recomputed.exact, rows[2].recorded.text, rows[2].recomputed.text], ['0.258453953945822', '85', '—', 'text']);
  // In the lab's format, the exact value beside it where they differ.
  const f = (field, v, o) => plainText(shownValue(field, v, o));
  assert.equal(f('result_snapshot.act1.peak_bytes', 19924537856), '19.92 GB');
  assert.equal(f('result_snapshot.act1.peak_bytes', 19924537856, { units: 'gib' }), '18.56 GiB');
  assert.deepEqual(verificationRows({ fields: [{ field: 'x.peak_bytes', label: 'X', recorded: 19924537856, recomputed: 19924537856, differs: false }] })[0].recorded,
    { text: '19.92\u00a0GB', exact: '19,924,537,856\u00a0B', showExact: true });
  // A code word is not shown beside its words (walk 4: "too high over", "you expected none zero").
  const dir = verificationRows({ fields: [{ field: 'lab_state.acts.act1.prediction.direction', label: 'X', recorded: 'over', recomputed: 'zero', differs: true }] })[0];
  assert.deepEqual([dir.recorded.text, dir.recorded.showExact, dir.recomputed.text, dir.recomputed.showExact], ['too high', false, 'none expected', false]);
  assert.equal(f('result_snapshot.act2.mfu', 0.244507228167408), '24.5%');
  assert.equal(f('final_mfu_pct', 25.845395394582198), '25.8%');
  assert.equal(f('result_snapshot.act2.tokens_per_second', 2973.22237453679), '2,973 tokens/s');
  assert.equal(f('lab_state.acts.act1.reflection.engine_ratio', 1.575221238938053), '1.6×');
  assert.equal(f('lab_state.acts.act1.reflection.ratio_correct', true), 'right');
  assert.equal(f('result_snapshot.act1.fits', false), 'does not fit');
  assert.equal(f('optimizer_chosen', 'adam'), 'Adam(W)');
  assert.equal(f('knob_settings.act2', { precision: 'fp32', checkpointing: 'none', every_k: 4, batch_size: 16, device: 'a100-sxm4-40gb', data_workers: 1,
    prefetch: false, prefetch_depth: 2, pinned_memory: false, replay: false }, { devices: deviceNames(raw.catalog()) }),
  'FP32, batch 16, no checkpointing, on NVIDIA A100 SXM4 40 GB, 1 data worker, prefetch off, pinned memory off');
  const withPred = { predictions: [{ unit: 'bytes' }, { unit: 'fraction' }] };
  assert.equal(f('predictions[0].truth', 12460889600, { ledger: withPred }), '12.46 GB');
  assert.equal(f('predictions[1].truth', 0.256732589575778, { ledger: withPred }), '25.7%');
  assert.equal(verificationHeadline(result), '✕ 1 of 3 engine values differ from the re-computation. Same engine version: the differing values were edited after export.');
  assert.equal(verificationHeadline({ status: 'ok', checked: 69 }), '✓ Verified: all 69 engine values in this ledger re-computed identically.');
  assert.equal(verificationHeadline({ status: 'invalid', error: { field: 'lab_id', message: 'not ours' } }), '✕ This file cannot be used: lab_id: not ours.');
});

// ---- The new-student walk (design ledger panel): findings 1-5.

// The finished lab as the Act 2 page records it: the laptop challenge starts with the chapter's baseline
// settings ("start: …"), which the page shows as "start", not as a move ("5 moves so far").
function pageState(units = 'gb') {
  const state = structuredClone(JSON.parse(fixture('valid-complete.json')).lab_state);
  state.config.units = units;
  const start = laptopMove('start: the chapter’s baseline settings', LAPTOP_START, engine.evaluate(toLaptopScenario(LAPTOP_START)));
  state.acts.act2.laptop.moves.unshift(start);
  return state;
}
// Device names carry their catalog capacity ("RTX 4090 24 GB") and the laptop challenge is "(8 GB)":
// names, not amounts. Everything else with GB or GiB after it is an amount.
const amounts = (text) => Object.values(devices).reduce((t, name) => t.split(name).join('DEVICE'), text).replace('Laptop challenge (8 GB)', 'Laptop challenge');

test('walk 1: the readable summary in GiB gives every amount in GiB, the predictions and the laptop floor included; the saved ledger does not change', () => {
  const state = pageState('gib');
  const ledger = buildDesignLedger(state, engine, { now: new Date('2026-11-23T19:00:00Z') });
  const text = ledgerText(ledger, 'gib', { devices });
  assert.doesNotMatch(amounts(text), /\d GB\b/, text);
  // The prediction line as the panel shows it in GiB, and the floor from the engine's bytes.
  const panelLine = plainText(calibrationSummary(state, 'gib').items[0].phrase);
  assert.ok(text.includes(`- ${panelLine}`), panelLine);
  assert.match(panelLine, /you chose about 6 GiB \(5\.80 GiB\), the engine says 11\.61 GiB \(2\.0× too low\)/);
  assert.match(text, /least memory that can train GPT-2 XL \(the laptop floor\) 12\.81 GiB\.$/);
  assert.match(text, /The least memory that can train GPT-2 XL at all is 12\.81 GiB; 11\.61 GiB of it/);
  // A prediction of nothing (answer d), as the walker had it: "0.00 GiB", not "0.00 GB".
  const zero = structuredClone(state);
  zero.acts.act1.prediction = { ...zero.acts.act1.prediction, choice: 'd', predicted_bytes: 0, error_ratio: null, direction: 'zero' };
  assert.match(ledgerText(buildDesignLedger(zero, engine), 'gib', { devices }), /you chose 0\.00 GiB, the engine says 11\.61 GiB/);
  // The file itself keeps its GB lines whatever the units on screen, as every earlier version wrote them.
  const gb = buildDesignLedger({ ...state, config: { ...state.config, units: 'gb' } }, engine, { now: new Date('2026-11-23T19:00:00Z') });
  assert.deepEqual(ledger.calibration, gb.calibration);
  assert.match(ledger.calibration.items[0].phrase, /the engine says 12\.46 GB/);
  assert.equal(ledger.laptop_minimum_memory_gb, ledger.result_snapshot.laptop.floor_peak_bytes / 1e9);
});

test('walk 5: the summary counts and numbers the laptop moves as the Act 2 page does, the start unnumbered', () => {
  const state = pageState();
  const moves = state.acts.act2.laptop.moves;
  const text = ledgerText(buildDesignLedger(state, engine), 'gb', { devices });
  assert.match(text, new RegExp(`Laptop challenge \\(8\\sGB\\): ${moves.length - 1} moves, fit achieved: no\\.`)); // the page: "5 moves so far"
  assert.match(text, /\n {2}Start \(the chapter’s baseline settings\): peak [0-9.]+ GB, does not fit\n {2}1\. precision → mixed: peak/);
  assert.match(text, /\n {2}5\. precision → pure FP16: peak 7\.52 GB, fits, but cannot train \(updates stall\)\n/);
  assert.doesNotMatch(text, /\d\. start/);
  // A ledger whose moves have no start entry (older exports) numbers every move from 1, as before.
  assert.match(ledgerText(JSON.parse(fixture('valid-complete.json'))), /5 moves[^]*\n {2}1\. precision → mixed/);
});

// Words a student can read: no "the plan", no snake_case names, no "recorded twice", no "a = b".
const JARGON = /the plan|recorded twice|\b[a-z0-9]+_[a-z0-9_]+\b|\s=\s/;

test('walk 2: the verification table names every row in a student’s words, values in words, field paths kept beside them', () => {
  const state = pageState('gib');
  const text = JSON.stringify(buildDesignLedger(state, engine));
  for (const [name, ledgerText_] of [['page state', text], ['valid-complete', fixture('valid-complete.json')],
    ['valid-act1-only', fixture('valid-act1-only.json')], ['older-version-1', fixture('older-version-1.json')]]) {
    const checked = checkLedger(ledgerText_, checker);
    assert.equal(checked.status, 'ok', name);
    const rows = verificationRows(checked, { units: 'gib', devices, ledger: checked.ledger });
    for (const r of rows) {
      assert.doesNotMatch(r.label, JARGON, `${name}: ${r.field}: ${r.label}`);
      assert.match(r.label, /^[A-Z]/, `${name}: ${r.field}: ${r.label}`);
      assert.notEqual(r.label, r.field);
      assert.ok(r.field, 'the field path stays, for instructors');
    }
    assert.equal(new Set(rows.map((r) => r.label)).size, rows.length, `${name}: two rows share a label`);
    for (const n of notRecomputedItems(checked, { ledger: checked.ledger })) {
      assert.doesNotMatch(n.label, JARGON, `${name}: ${n.field}`);
      assert.match(n.label, /^[A-Z]/, `${name}: ${n.field}`);
    }
    assert.doesNotMatch(checked.can_prove, /the plan/, name);
    assert.doesNotMatch(checked.cannot_prove, /the plan/, name);
  }
  const checked = checkLedger(text, checker);
  const rows = verificationRows(checked, { units: 'gib', devices, ledger: checked.ledger });
  const row = (field) => rows.find((r) => r.field === field);
  const label = (field) => row(field).label;
  assert.equal(label('final_mfu_pct'), 'Best MFU reached in the design challenge (%)');
  assert.equal(label('optimizer_chosen'), 'Optimizer chosen in Act 1');
  assert.equal(label('reflections[1].correct'), 'Act 2 fix question: score (also stored in the reflections list)');
  assert.equal(label('binding_constraints[0].kind'), 'Act 1 settings: what binds (also stored in the list of what binds)');
  assert.equal(label('lab_state.acts.act2.laptop.moves[0].peak_bytes'), 'Laptop challenge, the start (the chapter’s baseline settings): peak memory');
  assert.equal(label('lab_state.acts.act2.laptop.moves[1].peak_bytes'), 'Laptop challenge, move 1: peak memory after it');
  // Engine values in the lab's words.
  assert.equal(row('result_snapshot.act2.bottleneck_axis').recorded.text, 'Algorithm-bound (compute, the desired state)');
  assert.equal(row('binding_constraints[1].kind').recorded.text, 'nothing binds (it fits)');
  assert.equal(row('result_snapshot.act1.binding_kind').recorded.text, 'activations bind');
  assert.equal(row('lab_state.acts.act1.prediction.direction').recorded.text, 'too low');
  assert.equal(row('predictions[1].direction').recorded.text, 'too high');
  // The floor in the chosen units, though the file records it in GB.
  assert.equal(plainText(row('laptop_minimum_memory_gb').recorded.text), '12.81 GiB');
  // Blank summary fields say why they are blank.
  const act1 = checkLedger(fixture('valid-act1-only.json'), checker);
  const blank = verificationRows(act1, { ledger: act1.ledger }).find((r) => r.field === 'final_mfu_pct');
  assert.equal(blank.label, 'Best MFU reached in the design challenge (%): blank until the design challenge has a result');
  assert.equal(notRecomputedItems(act1, { ledger: act1.ledger }).find((n) => n.field === 'lab_state.acts.act2.reflection_fix').reason, 'no answer to the fix question recorded yet');
});

test('walk 2: the readable summary ends with the student’s choices in words, not "Plan:" and field names', () => {
  const text = ledgerText(buildDesignLedger(pageState(), engine), 'gb', { devices });
  const last = text.split('\n').at(-1);
  assert.match(last, /^Your choices \(Model Training, chapter 8\): optimizer [^;]+ \(Act 1\); /);
  // Walk 10, issue 24: before an act's prediction nothing is chosen in it; the ledger records null.
  const fresh = buildDesignLedger(defaultState(), engine);
  assert.match(ledgerText(fresh).split('\n').at(-1), /: no optimizer chosen yet \(Act 1 not started\); no precision or activation checkpointing chosen yet \(Act 2 not started\); /);
  // A ledger from before that rule records the starting settings: they read as such, not as choices.
  const older = { ...fresh, optimizer_chosen: 'adam', precision_chosen: 'mixed', gradient_checkpointing: true };
  assert.match(ledgerText(older).split('\n').at(-1), /optimizer Adam\(W\) \(Act 1’s starting setting: Act 1 not started\); precision Mixed[^;]+ \(Act 2’s starting settings: Act 2 not started\); /);
  assert.doesNotMatch(text, /Plan:|final MFU|the plan/);
  assert.doesNotMatch(last, JARGON);
});

test('walk 3: a value the schema does not allow names its field and what is allowed', () => {
  const ledger = JSON.parse(fixture('valid-complete.json'));
  ledger.lab_state.acts.act1.prediction.choice = '<img src=x onerror=alert(1)>';
  const { error } = readLedger(JSON.stringify(ledger));
  assert.equal(error.field, 'lab_state.acts.act1.prediction.choice');
  assert.equal(error.message, 'is not one of the allowed values: it is a string ("<img src=x onerror=alert(1)>"), but must be "a", "b", "c" or "d"');
  // Inside any other record that may also be null (oneOf null | object): the innermost field, in words.
  const edits = [
    [(l) => { l.lab_state.acts.act2.reflection_ckpt.ratio_choice = 'z'; }, 'lab_state.acts.act2.reflection_ckpt.ratio_choice',
      'is not in the allowed form: it is a string ("z"), but must be one of the letters a, b, c or d'],
    [(l) => { l.lab_state.acts.act2.design.best.mfu = 'high'; }, 'lab_state.acts.act2.design.best.mfu',
      'has the wrong type: it is a string ("high"), but must be a number'],
    [(l) => { delete l.lab_state.acts.act1.reflection.attempts; }, 'lab_state.acts.act1.reflection.attempts', 'is missing: a design ledger always records it here'],
    [(l) => { l.lab_state.acts.act1.prediction = 'lots'; }, 'lab_state.acts.act1.prediction',
      'has the wrong type: it is a string ("lots"), but must be null or an object ({…})'],
    [(l) => { l.lab_state.acts.act1.prediction.grade = 'A'; }, 'lab_state.acts.act1.prediction.grade', 'is not part of a design ledger: the lab never writes this field here'],
    [(l) => { l.lab_state.config2.batch_size = '32'; }, 'lab_state.config2.batch_size',
      'has the wrong type: it is a string ("32"), but must be one of the numbers 16, 32, 64, 128 or 256'],
  ];
  for (const [edit, field, message] of edits) {
    const l = JSON.parse(fixture('valid-complete.json'));
    edit(l);
    assert.deepEqual(readLedger(JSON.stringify(l)).error, { field, message });
  }
  for (const l of [JSON.stringify(ledger), fixture('junk-decision.json')]) {
    const c = checkLedger(l, checker);
    assert.equal(c.status, 'invalid');
    assert.doesNotMatch(c.error.message, /alternative|matched \d/);
  }
});

test('walk 4: an empty file says it is empty; a version written as a string says it is a string', () => {
  for (const text of ['', '\ufeff', '  \n']) assert.match(readLedger(text).error.message, /^the file is empty/, JSON.stringify(text));
  assert.equal(checkLedger('', checker).error.message, 'the file is empty (it holds no ledger)');
  const l = JSON.parse(fixture('valid-complete.json'));
  assert.deepEqual(readLedger(JSON.stringify({ ...l, ledger_schema_version: '2' })).error,
    { field: 'ledger_schema_version', message: 'has the wrong type: it is a string ("2"), but must be a whole number (1 or more): write 2, without quotes' });
  assert.match(readLedger(JSON.stringify({ ...l, ledger_schema_version: 'two' })).error.message, /^has the wrong type: it is a string \("two"\), but must be a whole number \(1 or more\)$/);
  assert.match(readLedger(JSON.stringify({ ...l, ledger_schema_version: 2.5 })).error.message, /it is a number \(2\.5\)/);
  assert.match(readLedger(JSON.stringify({ ...l, ledger_schema_version: null })).error.message, /it is null/);
  // Not JSON at all is still called that.
  assert.match(readLedger('{"lab_id":').error.message, /not valid JSON/);
});

test('walk 2: "and 1 more problem" says where that problem is', () => {
  const l = JSON.parse(fixture('valid-complete.json'));
  l.predictions[0].choice = 'zz';
  l.lab_state.acts.act1.prediction.choice = 'zz';
  assert.deepEqual(readLedger(JSON.stringify(l)).error, { field: 'predictions[0].choice',
    message: 'is not one of the allowed values: it is a string ("zz"), but must be "a", "b", "c" or "d" (and 1 more problem, at lab_state.acts.act1.prediction)' });
});

test('walk 6, issue 23: the summary says when a reflection was answered more than once, and that the first is scored', () => {
  const l = JSON.parse(fixture('valid-complete.json'));
  l.lab_state.acts.act1.reflection.attempts = 1;
  assert.doesNotMatch(ledgerText(l), /answers, the one scored/);
  l.lab_state.acts.act1.reflection.attempts = 3;
  // One bracket for both notes (walk 7: '(the last of 2 answers) (the engine gives 1.6×)').
  assert.match(ledgerText(l), /Mixed precision reduces total training memory by about ___× because ___: (right|not right) \(the first of 3 answers, the one scored; the engine gives [0-9.]+×\)\n/);
});

test('the readable summary’s fix-question line says what was chosen and which change the engine times fastest', async () => {
  const { fixAnswerKey } = await import('../../../web/src/ledger/ledger-rescore.js');
  assert.equal(fixAnswerKey(engine), null, 'no catalog: the options cannot be timed');
  const key = fixAnswerKey(checker);
  assert.ok(key && key.filter((f) => f.best).length >= 1);
  const best = key.find((f) => f.best);
  const wrong = key.find((f) => !f.best);
  const rate = (t) => `${Math.round(t).toLocaleString('en-US')} tokens/s`;
  const st = (choice, correct) => withAct2(defaultState(), { reflection_fix: { choice, correct, answered_at: '2026-01-02T03:04:05.000Z' } });
  const wrongLine = ledgerText(buildDesignLedger(st(wrong.id, false), engine), 'gb', { fixKey: key }).split('\n').find((x) => x.includes('most effective single fix'));
  assert.equal(wrongLine, `- The most effective single fix for the chapter’s baseline loop: not right (you chose “${wrong.label}”, ${rate(wrong.tokens)}; the fastest is “${best.label}”, ${rate(best.tokens)}; the baseline makes ${rate(key.baseline)})`);
  const rightLine = ledgerText(buildDesignLedger(st(best.id, true), engine), 'gb', { fixKey: key }).split('\n').find((x) => x.includes('most effective single fix'));
  assert.equal(rightLine, `- The most effective single fix for the chapter’s baseline loop: right (you chose “${best.label}”, ${rate(best.tokens)}, the fastest; the baseline makes ${rate(key.baseline)})`);
  // Without the engine's key the line stays as it was.
  assert.match(ledgerText(buildDesignLedger(st(best.id, true), engine)), /single fix for the chapter’s baseline loop: right\n/);
});

// Issue 23: the design challenge's goal is the fastest step; the ledger records its throughput, the
// MFU beside it and their peaks, and every try of each reflection (the first is the one scored).
test('a ledger made under issue 23 records the fastest step with its peaks and every try of each reflection', () => {
  const l = JSON.parse(fixture('valid-fastest.json'));
  assert.deepEqual(validateLedger(l), []);
  const best = l.lab_state.acts.act2.design.best;
  assert.equal(l.final_tokens_per_second, best.tokens_per_second);
  assert.equal(l.final_mfu_peak_flops_per_s, best.peak_flops_per_s);
  assert.ok(Math.abs(l.final_tokens_per_second / l.final_peak_tokens_per_second - l.final_mfu_pct / 100) < 1e-9);
  const fix = l.reflections.find((r) => r.id === 'act2_fix');
  assert.deepEqual(fix.tries.map((t) => [t.answers.choice, t.correct]), [['c', true], ['a', false]]);
  assert.equal(fix.correct, true, 'the first answer is the one scored');
  assert.match(l.reflections.find((r) => r.id === 'act2_ckpt').prompt, /^In the chapter’s tuned step/);
  assert.equal(l.decisions.find((d) => d.id === 'design_best').description, 'the fastest configuration of the design challenge');
  const text = ledgerText(l, 'gb', { devices: deviceNames(raw.catalog()) });
  assert.match(text, /Design challenge: fastest step [0-9,]+ tokens\/s at MFU [0-9.]+% of a [0-9.]+ TFLOP\/s peak/);
  assert.match(text, /The most effective single fix for the chapter’s baseline loop: right \(the first of 2 answers, the one scored\)/);
  // Rebuilt from its own lab state, byte for byte (the ledger builder and the fixture agree).
  assert.deepEqual(buildDesignLedger(l.lab_state, engine, { now: new Date(l.timestamp) }), l);
});
