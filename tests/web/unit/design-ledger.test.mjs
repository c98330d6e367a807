// Unit tests for web/src/design-ledger.js: the one ledger builder (against the real WASM engine), the
// calibration summary and its sentence, the readable text, and reading a ledger back (limits, version,
// migration, schema). Verification itself is tested in tests/wasm/ledger.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadEngine } from '../../../scripts/engine-node.mjs';
import { buildDesignLedger, calibrationSummary, ledgerText, resolveRefs, validateLedger, verificationRows, verificationHeadline,
  LEDGER_SCHEMA_VERSION, deviceNames, readableDate, shownValue }
  from '../../../web/src/design-ledger.js';
import { readLedger } from '../../../web/src/ledger-check.js';
import { plainText } from '../../../web/src/format.js';
import { defaultState, withAct1, withAct2 } from '../../../web/src/store.js';

const raw = await loadEngine();
const engine = {
  evaluate: (s) => JSON.parse(raw.evaluate(JSON.stringify(s))),
  solve: (r) => JSON.parse(raw.solve(JSON.stringify(r))),
  version: () => raw.version(),
};
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
  assert.deepEqual(rebuilt, saved);
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
  assert.match(text, /Plan: chapter 8; optimizer Adam\(W\); precision Mixed/);
  assert.doesNotMatch(text, /h100-sxm-80gb|rtx4090-24gb|checkpointing none|B\/param|Volume 2|mixed \+ sgd|\d{4}-\d\d-\d\dT/);
  assert.equal(readableDate('2026-01-02T03:04:05.000Z'), '2 January 2026, 03:04 UTC');
  assert.equal(readableDate('soon'), 'soon');
  assert.match(text, /Design challenge: best MFU [0-9.]+%/);
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
  assert.equal(verificationHeadline(result), '✕ 1 of 3 engine values differ from the re-computation: same engine version: the differing values were edited after export.');
  assert.equal(verificationHeadline({ status: 'ok', checked: 69 }), '✓ Verified: all 69 engine values in this ledger re-computed identically.');
  assert.equal(verificationHeadline({ status: 'invalid', error: { field: 'lab_id', message: 'not ours' } }), '✕ This file cannot be used: lab_id: not ours.');
});
