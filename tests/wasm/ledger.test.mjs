// verify_ledger in the built WASM module and the page's ledger code (web/src/ledger/design-ledger.js and
// ledger-check.js) on the shared fixtures: both agree with tests/fixtures/ledger/manifest.json, the
// C++ settings → scenario mapping agrees with web/src/state/scenario.js, every recorded engine value edited
// is caught, and hostile input gets a named error while the module keeps answering.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadLedgerEngine, fixtureText, manifest } from './ledger-engine.mjs';
import { buildDesignLedger, validateLedger } from '../../web/src/ledger/design-ledger.js';
import { checkLedger, readLedger, stripBom } from '../../web/src/ledger/ledger-check.js';
import { defaultState, withConfig, withConfig2 } from '../../web/src/state/store.js';
import { toScenario, toScenario2, toLaptopScenario, OPTIMIZERS, PRECISIONS, BATCH_SIZES, CHECKPOINTING, PRECISIONS2,
  BATCH_SIZES2, DEVICES2 } from '../../web/src/state/scenario.js';

const engine = await loadLedgerEngine();
const complete = () => JSON.parse(fixtureText('valid-complete.json'));

// "a.b[2].c" → [container, key] of that value.
function locate(root, dotted) {
  const parts = dotted.replace(/\[(\d+)\]/g, '.$1').split('.');
  let cur = root;
  for (const p of parts.slice(0, -1)) cur = cur[p];
  return [cur, parts.at(-1)];
}

test('the WASM verify_ledger gives every fixture the status, fields and version note its manifest entry says', () => {
  for (const entry of manifest) {
    const r = engine.verifyLedger(fixtureText(entry.file));
    const expect = entry.engine || entry.expect; // verify_ledger alone, without the schema
    assert.equal(r.status, expect, `${entry.file}: ${r.summary}`);
    assert.match(r.cannot_prove, /predictions/);
    if (expect === 'invalid') {
      assert.equal(r.error.field, entry.field, `${entry.file}: ${r.error.message}`);
      continue;
    }
    assert.deepEqual(r.differing_fields, entry.differing || [], entry.file);
    assert.equal(r.engine_version.differs, Boolean(entry.engine_version_differs), entry.file);
    assert.equal(r.migrated_from, entry.migrated_from ?? null, entry.file);
  }
});

test('the page reads the same fixtures the engine accepts and refuses the same ones, naming the same field', () => {
  for (const entry of manifest) {
    const r = readLedger(fixtureText(entry.file));
    if (entry.expect === 'invalid') {
      assert.ok(r.error, `${entry.file} should be refused`);
      assert.equal(r.error.field, entry.field, `${entry.file}: ${r.error.message}`);
    } else {
      assert.equal(r.error, undefined, `${entry.file}: ${r.error && r.error.message}`);
      assert.deepEqual(validateLedger(r.ledger), []);
      assert.equal(r.from, entry.migrated_from ?? null);
    }
  }
});

test('the full check (schema, engine, scores and calibration) answers as the manifest says for every fixture', () => {
  for (const entry of manifest) {
    const r = checkLedger(fixtureText(entry.file), engine);
    assert.equal(r.status, entry.expect, entry.file);
    if (entry.expect === 'invalid') assert.equal(r.error.field, entry.field, entry.file);
    else {
      assert.equal(r.ledger.ledger_schema_version, 2);
      assert.deepEqual(r.differing_fields, entry.check_differing || entry.differing || [], entry.file);
    }
  }
});

test('a version-1 ledger migrates to a version-2 ledger whose lab state the store accepts, Act 1 kept', () => {
  const { ledger, from } = readLedger(fixtureText('older-version-1.json'));
  assert.equal(from, 1);
  assert.equal(ledger.ledger_schema_version, 2);
  assert.equal(ledger.lab_state.schema_version, 2);
  const v1 = JSON.parse(fixtureText('older-version-1.json'));
  assert.deepEqual(ledger.lab_state.acts.act1.prediction, v1.lab_state.acts.act1.prediction);
  assert.equal(ledger.lab_state.acts.act1.explored, true);
  assert.equal(ledger.final_mfu_pct, null);
});

test('the C++ mapping of recorded settings resolves to the scenarios the page evaluates, for 40 random configurations', () => {
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const pick = (xs) => xs[Math.floor(rand() * xs.length)];
  for (let i = 0; i < 40; i++) {
    let s = withConfig(defaultState(), {
      optimizer: pick(OPTIMIZERS), precision: pick(PRECISIONS), batch_size: pick(BATCH_SIZES), checkpointing: pick(CHECKPOINTING),
      every_k: 1 + Math.floor(rand() * 48), device: pick(['custom', 'a100-sxm4-40gb', 'rtx4060-laptop-8gb', 'v100-sxm2-32gb']),
      custom_capacity_gb: 1 + Math.round(rand() * 999 * 100) / 100, replay: rand() < 0.3,
    });
    s = withConfig2(s, { precision: pick(PRECISIONS2), batch_size: pick(BATCH_SIZES2), device: pick(DEVICES2), checkpointing: pick(CHECKPOINTING),
      every_k: 1 + Math.floor(rand() * 48), data_workers: Math.floor(rand() * 17), prefetch: rand() < 0.5,
      prefetch_depth: 1 + Math.floor(rand() * 8), pinned_memory: rand() < 0.5, replay: rand() < 0.5 });
    const ledger = buildDesignLedger(s, engine);
    assert.deepEqual(validateLedger(ledger), []);
    const r = engine.verifyLedger(JSON.stringify(ledger));
    assert.equal(r.status, 'ok', `${JSON.stringify(s.config)} ${JSON.stringify(s.config2)}: ${r.summary}`);
    assert.deepEqual(r.scenarios.act1, engine.evaluate(toScenario(s.config)).scenario);
    assert.deepEqual(r.scenarios.act2, engine.evaluate(toScenario2(s.config2)).scenario);
  }
});

test('on every fixture that verifies, the C++ and the page map the recorded settings to the same scenarios', () => {
  for (const entry of manifest.filter((e) => e.expect !== 'invalid')) {
    const ledger = JSON.parse(stripBom(fixtureText(entry.file)));
    const r = engine.verifyLedger(JSON.stringify(ledger));
    assert.deepEqual(r.scenarios.act1, engine.evaluate(toScenario(ledger.lab_state.config)).scenario, entry.file);
    if (ledger.lab_state.config2) assert.deepEqual(r.scenarios.act2, engine.evaluate(toScenario2(ledger.lab_state.config2)).scenario, entry.file);
    else assert.equal(r.scenarios.act2, undefined);
  }
});

test('the laptop moves are re-computed with the page’s laptop scenario', () => {
  const ledger = complete();
  for (const m of ledger.lab_state.acts.act2.laptop.moves) {
    assert.equal(engine.evaluate(toLaptopScenario(m.config)).memory.peak_bytes, m.peak_bytes);
  }
  assert.equal(engine.verifyLedger(JSON.stringify(ledger)).status, 'ok');
});

const FLOOR_TEXT_FIELDS = ['result_snapshot.laptop.floor_text', 'laptop_floor_derivation'];
test('editing any one recorded engine value of a valid ledger is flagged, naming exactly that field', () => {
  const floorTextNow = engine.solve({ model: 'gpt2-xl', device: 'rtx4060-laptop-8gb' }).floor.text;
  const base = engine.verifyLedger(fixtureText('valid-complete.json'));
  assert.equal(base.status, 'ok');
  // Every engine value the ledger records is among them (walk 4: the binding's headroom and sentence were not).
  for (const f of ['binding_constraints[0].headroom_bytes', 'binding_constraints[0].message', 'binding_constraints[1].headroom_bytes', 'binding_constraints[1].message'])
    assert.ok(base.fields.some((x) => x.field === f), f);
  let edited = 0;
  for (const f of base.fields) {
    const ledger = complete();
    const [obj, key] = locate(ledger, f.field);
    const v = obj[key];
    if (v === null || typeof v === 'object') continue;
    obj[key] = typeof v === 'boolean' ? !v : typeof v === 'string' ? `${v} (edited)` : Number.isInteger(v) ? v + 1 : v * 1.001;
    const r = engine.verifyLedger(JSON.stringify(ledger));
    assert.equal(r.status, 'differs', f.field);
    assert.deepEqual(r.differing_fields, [f.field]);
    const row = r.fields.find((x) => x.field === f.field);
    // The fixture records the floor's text in the solver's first wording; an edited text matches
    // neither wording, and the re-computation shows today's.
    const expected = FLOOR_TEXT_FIELDS.includes(f.field) ? floorTextNow : v;
    assert.deepEqual([row.recorded, row.recomputed], [obj[key], expected]);
    edited++;
  }
  assert.ok(edited > 50, `only ${edited} values edited`);
});

test('a changed setting makes the recorded results differ from the re-computation', () => {
  const ledger = complete();
  ledger.lab_state.config2.data_workers = 0;
  const r = engine.verifyLedger(JSON.stringify(ledger));
  assert.equal(r.status, 'differs');
  assert.ok(r.differing_fields.includes('knob_settings.act2'));
  assert.ok(r.differing_fields.includes('result_snapshot.act2.step_seconds'));
});

test('hostile files get a named error and the module keeps verifying afterwards', () => {
  const cases = [
    [`{"lab_id":"lab08-model-train","pad":"${'x'.repeat(20_000_000)}"}`, /20\.0 MB/],
    [`${'['.repeat(100000)}`, /levels deep/],
    ['', /not valid JSON/],
    ['\u0000\u00ff', /not valid JSON/],
    ['[]', /JSON object/],
    ['{"lab_id": 8, "ledger_schema_version": 2}', /belongs to no lab/],
    ['{"lab_id": "lab08-model-train", "ledger_schema_version": 2.5}', /integer/],
    ['{"lab_id": "lab08-model-train", "ledger_schema_version": 1e400}', /not valid JSON|integer/],
  ];
  for (const [text, message] of cases) {
    const r = engine.verifyLedger(text);
    assert.equal(r.status, 'invalid');
    assert.match(r.error.message, message);
  }
  const ledger = complete();
  ledger.lab_state.acts.act2.laptop.moves = Array.from({ length: 201 }, () => ledger.lab_state.acts.act2.laptop.moves[0]);
  assert.match(engine.verifyLedger(JSON.stringify(ledger)).error.message, /at most 200/);
  assert.equal(engine.verifyLedger(fixtureText('valid-complete.json')).status, 'ok');
});

test('the Act 2 prediction’s error is re-computed from the chosen range; without the range it is listed as not re-computed', () => {
  const ledger = complete();
  const i = ledger.predictions.findIndex((p) => p.id === 'act2');
  ledger.predictions[i].predicted_range = [0.1, 0.2];
  const r = engine.verifyLedger(JSON.stringify(ledger));
  assert.equal(r.status, 'differs');
  assert.deepEqual(r.differing_fields, ['lab_state.acts.act2.prediction.error_ratio', 'lab_state.acts.act2.prediction.direction',
    `predictions[${i}].error_ratio`, `predictions[${i}].direction`]);
  ledger.predictions[i].predicted_range = null;
  const blank = engine.verifyLedger(JSON.stringify(ledger));
  assert.equal(blank.status, 'ok');
  assert.ok(blank.not_recomputed.some((n) => n.field === 'lab_state.acts.act2.prediction.error_ratio'));
  ledger.predictions[i].predicted_range = [0.5, 0.4];
  assert.equal(engine.verifyLedger(JSON.stringify(ledger)).error.field, `predictions[${i}].predicted_range`);
});

// ---- Re-scoring (checkLedger): every answer that can be re-scored is, and the calibration sentence is rebuilt.
const row = (r, field) => r.fields.find((f) => f.field === field);

test('flipped reflection scores are flagged: Act 1, the fix question (with evaluate) and checkpointing', () => {
  for (const [name, fields] of [['edited-reflection-score.json', ['lab_state.acts.act1.reflection.reason_correct', 'lab_state.acts.act1.reflection.ratio_correct', 'reflections[0].correct']],
    ['edited-fix-score.json', ['lab_state.acts.act2.reflection_fix.correct', 'reflections[1].correct']],
    ['edited-ckpt-score.json', ['lab_state.acts.act2.reflection_ckpt.overhead_correct', 'reflections[2].correct']]]) {
    assert.equal(engine.verifyLedger(fixtureText(name)).status, 'ok', `${name}: the engine alone does not score`);
    const r = checkLedger(fixtureText(name), engine);
    assert.equal(r.status, 'differs', name);
    assert.deepEqual(r.differing_fields, fields, name);
    assert.match(r.cause, /edited after export/);
    for (const f of fields) assert.deepEqual([row(r, f).recorded, row(r, f).recomputed], [true, false], `${name} ${f}`);
  }
  // A wrong answer recorded as wrong verifies.
  const l = complete();
  Object.assign(l.lab_state.acts.act1.reflection, { ratio_choice: 'd', ratio_correct: false });
  l.reflections[0].answers.ratio_choice = 'd';
  l.reflections[0].correct = false;
  assert.equal(checkLedger(JSON.stringify(l), engine).status, 'ok');
});

test('without the engine’s evaluate the fix question is listed as not re-scored, and nothing else changes', () => {
  const bare = { verifyLedger: engine.verifyLedger };
  const r = checkLedger(fixtureText('edited-fix-score.json'), bare);
  assert.equal(r.status, 'ok');
  assert.ok(r.not_recomputed.some((n) => n.field === 'lab_state.acts.act2.reflection_fix.correct' && /timing each change/.test(n.reason)));
  assert.ok(r.not_recomputed.some((n) => n.field === 'reflections[1].correct'));
  assert.equal(checkLedger(fixtureText('edited-reflection-score.json'), bare).status, 'differs');
});

test('the calibration sentence is rebuilt from the verified lab state: an edited one is flagged', () => {
  const r = checkLedger(fixtureText('edited-calibration.json'), engine);
  assert.equal(r.status, 'differs');
  const f = row(r, 'calibration.sentence');
  assert.equal(f.recorded, 'You were spot on for memory and MFU.');
  assert.equal(f.recomputed, complete().calibration.sentence);
  const l = complete();
  l.calibration.items[1].phrase = 'Act 2: spot on.';
  assert.deepEqual(checkLedger(JSON.stringify(l), engine).differing_fields, ['calibration.items[1].phrase']);
});

test('a checkpointing record without its settings: the reason is re-scored, ratio and overhead listed as not re-scored', () => {
  const l = complete();
  delete l.lab_state.acts.act2.reflection_ckpt.scenario;
  const r = checkLedger(JSON.stringify(l), engine);
  assert.equal(r.status, 'ok', r.summary);
  assert.ok(row(r, 'lab_state.acts.act2.reflection_ckpt.reason_correct'));
  for (const f of ['lab_state.acts.act2.reflection_ckpt.ratio_correct', 'lab_state.acts.act2.reflection_ckpt.overhead_correct', 'reflections[2].correct'])
    assert.ok(r.not_recomputed.some((n) => n.field === f), f);
  l.lab_state.acts.act2.reflection_ckpt.reason_choice = 'b';
  // The progress's answer is re-scored, and the reflections list's copy no longer agrees with it.
  assert.deepEqual(checkLedger(JSON.stringify(l), engine).differing_fields, ['reflections[2].answers', 'lab_state.acts.act2.reflection_ckpt.reason_correct']);
});

test('an answer edited in the reflections list alone differs (the list is rebuilt from the saved progress)', () => {
  const l = complete();
  const a1 = l.reflections.findIndex((r) => r.id === 'act1');
  const other = ['a', 'b', 'c', 'd', 'e'].find((x) => x !== l.reflections[a1].answers.ratio_choice);
  l.reflections[a1].answers.ratio_choice = other; // the walk's forgery: a wrong answer left marked right
  const r = checkLedger(JSON.stringify(l), engine);
  assert.equal(r.status, 'differs');
  assert.deepEqual(r.differing_fields, [`reflections[${a1}].answers`]);
  const fix = l.reflections.findIndex((x) => x.id === 'act2_fix');
  const m = complete();
  m.reflections[fix].answers.choice = m.reflections[fix].answers.choice === 'a' ? 'b' : 'a';
  assert.deepEqual(checkLedger(JSON.stringify(m), engine).differing_fields, [`reflections[${fix}].answers`]);
  const gone = complete();
  gone.reflections.splice(fix, 1);
  assert.ok(checkLedger(JSON.stringify(gone), engine).differing_fields.includes('reflections (which questions were answered)'));
});

test('a UTF-8 byte-order mark is accepted by the page’s reader and the full check alike', () => {
  const text = `\uFEFF${fixtureText('valid-complete.json')}`;
  assert.equal(readLedger(text).error, undefined);
  assert.equal(checkLedger(text, engine).status, 'ok');
});

test('invalid files get the schema’s message, naming arrays and wrong types as such', () => {
  assert.equal(checkLedger('[1]', engine).error.message, 'a design ledger is a JSON object; this file holds an array');
  const l = complete();
  l.knob_settings = 'oops';
  assert.deepEqual(checkLedger(JSON.stringify(l), engine).error,
    { field: 'knob_settings', message: 'has the wrong type: it is a string ("oops"), but must be an object ({…})' });
});

test('an edited truth is flagged on its own row; the rebuilt calibration quotes the engine, not the edit (walk 4)', () => {
  const r = checkLedger(fixtureText('edited-truth.json'), engine);
  assert.deepEqual(r.differing_fields, ['lab_state.acts.act1.prediction.truth_bytes']);
  const line = r.fields.find((f) => f.field === 'calibration.items[0].phrase');
  assert.match(line.recomputed, /the engine says 12\.46 GB \(2\.0× too low\)/);
  assert.doesNotMatch(line.recomputed, /6\.00 GB/);
  // The same for Act 2: a truth moved into the student's range does not make the rebuilt line "spot on".
  const ledger = JSON.parse(fixtureText('valid-complete.json'));
  ledger.lab_state.acts.act2.prediction.truth_mfu = 0.45;
  const r2 = checkLedger(JSON.stringify(ledger), engine);
  assert.deepEqual(r2.differing_fields, ['lab_state.acts.act2.prediction.truth_mfu']);
  const line2 = r2.fields.find((f) => f.field === 'calibration.items[1].phrase');
  assert.equal(line2.recomputed, ledger.calibration.items[1].phrase);
});

test('an edited setting is named first, as the cause, not read as edited results (walk 4)', () => {
  const ledger = JSON.parse(fixtureText('valid-complete.json'));
  ledger.lab_state.config.batch_size *= 2;
  const r = checkLedger(JSON.stringify(ledger), engine);
  assert.equal(r.status, 'differs');
  assert.equal(r.differing_fields[0], 'knob_settings.act1');
  assert.ok(r.differing_fields.includes('result_snapshot.act1.peak_bytes'));
  assert.match(r.cause, /^the Act 1 settings were edited after export \(the file’s two copies, knob_settings and the lab state, disagree\); the results re-computed/);
  assert.ok(r.summary.startsWith('differs: ') && r.summary.includes('(knob_settings.act1, '), r.summary);
  // Only the knob_settings copy edited: the results still match the lab state's settings.
  const other = JSON.parse(fixtureText('valid-complete.json'));
  other.knob_settings.act2.data_workers += 1;
  const r2 = checkLedger(JSON.stringify(other), engine);
  assert.deepEqual(r2.differing_fields, ['knob_settings.act2']);
  assert.equal(r2.cause, 'the Act 2 settings were edited after export (the file’s two copies, knob_settings and the lab state, disagree)');
});

test('a prediction’s letter changed without its amount, or its copy changed alone, is flagged (walk 4)', () => {
  const base = checkLedger(fixtureText('valid-complete.json'), engine);
  assert.equal(base.status, 'ok');
  for (const f of ['lab_state.acts.act1.prediction.predicted_bytes', 'predictions[0].choice', 'lab_state.acts.act2.prediction.predicted_mfu', 'predictions[1].choice', 'predictions[1].predicted_range'])
    assert.ok(base.fields.some((x) => x.field === f && !x.differs), f);
  const edits = [
    [(l) => { l.lab_state.acts.act1.prediction.choice = l.lab_state.acts.act1.prediction.choice === 'c' ? 'd' : 'c'; }, ['lab_state.acts.act1.prediction.predicted_bytes', 'predictions[0].choice']],
    [(l) => { l.predictions[0].choice = l.predictions[0].choice === 'a' ? 'b' : 'a'; }, ['predictions[0].choice']],
    [(l) => { l.lab_state.acts.act2.prediction.choice = l.lab_state.acts.act2.prediction.choice === 'd' ? 'a' : 'd'; }, ['lab_state.acts.act2.prediction.predicted_mfu', 'predictions[1].choice', 'predictions[1].predicted_range']],
    [(l) => { l.predictions[1].predicted_range = [0.15, 0.3]; }, ['predictions[1].predicted_range']],
  ];
  for (const [edit, expected] of edits) {
    const ledger = JSON.parse(fixtureText('valid-complete.json'));
    edit(ledger);
    const r = checkLedger(JSON.stringify(ledger), engine);
    assert.equal(r.status, 'differs');
    for (const f of expected) assert.ok(r.differing_fields.includes(f), `${f} in ${r.differing_fields}`);
  }
  // Without the engine's evaluate, Act 1's amounts are listed as not checked, never guessed.
  const noEvaluate = checkLedger(fixtureText('valid-complete.json'), { verifyLedger: engine.verifyLedger });
  assert.ok(noEvaluate.not_recomputed.some((n) => n.field === 'lab_state.acts.act1.prediction.predicted_bytes'));
});

test('a version-2 ledger relabelled version 1 is refused, naming what only version 2 writes (walk 4)', () => {
  const ledger = JSON.parse(fixtureText('valid-complete.json'));
  ledger.ledger_schema_version = 1;
  const r = checkLedger(JSON.stringify(ledger), engine);
  assert.equal(r.status, 'invalid');
  assert.equal(r.error.field, 'ledger_schema_version');
  assert.match(r.error.message, /^says 1, but the file has final_mfu_pct, baseline_mfu_estimate_pct, laptop_fit_achieved, …, which only version 2 writes: the version number was changed; it should be 2$/);
  assert.equal(checkLedger(fixtureText('older-version-1.json'), engine).status, 'ok'); // a real version 1 still reads
});

test('the rebuilt calibration line agrees with itself whichever copy of an answer was edited (walk 5)', () => {
  const phraseOf = (r) => r.fields.find((f) => f.field === 'calibration.items[1].phrase').recomputed;
  // Only the predictions list's range edited: the line is rebuilt from the saved choice (40–50%).
  let ledger = JSON.parse(fixtureText('valid-complete.json'));
  ledger.predictions[1].predicted_range = [0.6, 0.7];
  let r = checkLedger(JSON.stringify(ledger), engine);
  assert.equal(phraseOf(r), ledger.calibration.items[1].phrase); // unchanged: "the nearer end, 40%, is 1.6× too high"
  assert.match(phraseOf(r), /the nearer end, 40%, is 1\.6× too high/);
  // The saved choice edited to b (60–70%): the line says 60% and 2.3×, as 60 ÷ 25.7 is.
  ledger = JSON.parse(fixtureText('valid-complete.json'));
  ledger.lab_state.acts.act2.prediction.choice = 'b';
  r = checkLedger(JSON.stringify(ledger), engine);
  assert.match(phraseOf(r), /you chose 60–70%, the engine says 25\.7% \(the nearer end, 60%, is 2\.3× too high\)/);
});

// Issue 24: flags the record decides, derived again (web/src/ledger/ledger-derived.js, the page's completion.js).
test('flags set by hand differ from what the record holds: completion, the tuned regime, a finished laptop challenge, decisions', () => {
  const differing = (edit) => { const l = complete(); edit(l); return checkLedger(JSON.stringify(l), engine).differing_fields; };
  assert.deepEqual(differing(() => {}), []);
  assert.deepEqual(differing((l) => { l.lab_state.acts.act2.completed = false; }), ['lab_state.acts.act2.completed']);
  // Act 2 without its checkpointing answer is not complete, however the flag reads.
  assert.deepEqual(differing((l) => { l.lab_state.acts.act2.laptop.finished = false; }), ['lab_state.acts.act2.completed', 'decisions']);
  assert.deepEqual(differing((l) => { l.lab_state.acts.act2.laptop.floor_bytes = null; }), ['lab_state.acts.act2.laptop.finished']);
  // The regime's settings outside the regime; or the record says not reached while those settings reach it.
  assert.deepEqual(differing((l) => { l.lab_state.acts.act2.design.regime_config.data_workers = 0; }), ['lab_state.acts.act2.design.regime_reached']);
  assert.ok(differing((l) => { l.lab_state.acts.act2.design.regime_reached = false; }).includes('lab_state.acts.act2.design.regime_reached'));
  // A regime reached needs a design that counted.
  assert.ok(differing((l) => { l.lab_state.acts.act2.design.best = null; }).includes('lab_state.acts.act2.design.regime_reached'));
  assert.deepEqual(differing((l) => { l.decisions.pop(); }), ['decisions']);
  // Act 1 is complete with its reflection answered, and only then.
  const act1 = JSON.parse(fixtureText('valid-act1-only.json'));
  act1.lab_state.acts.act1.completed = false;
  assert.deepEqual(checkLedger(JSON.stringify(act1), engine).differing_fields, ['lab_state.acts.act1.completed']);
});

test('a regime recorded before its settings were kept, with the best design outside it: listed as not re-computed, honestly', () => {
  const l = complete();
  delete l.lab_state.acts.act2.design.regime_config;
  const r = checkLedger(JSON.stringify(l), engine);
  assert.equal(r.status, 'ok', r.summary);
  assert.match(r.not_recomputed.find((n) => n.field === 'lab_state.acts.act2.design.regime_reached').reason, /recorded before the lab kept the settings/);
  // Its best design inside the regime re-computes it even so.
  l.lab_state.acts.act2.design.best.config = { ...l.lab_state.acts.act2.prediction.scenario };
  const best = row(checkLedger(JSON.stringify(l), engine), 'lab_state.acts.act2.design.regime_reached');
  assert.deepEqual([best.recorded, best.recomputed], [true, true]);
});
