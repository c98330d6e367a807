// `scripts/labctl verify` as an instructor uses it: files and folders, one line per ledger, --json,
// --csv (the plan's fields and the status per ledger), exit 0 / 1 / 3 / 2 / 4, the files a folder scan
// skips, copies under other names, flags set by hand, and a folder of 200 ledgers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { classOf, fixtureText, manifest } from './ledger-engine.mjs';
import { verificationRows } from '../../web/src/ledger/ledger-verify-view.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const fixtures = path.join(root, 'tests', 'fixtures', 'ledger');
const labctl = (args) => spawnSync(path.join(root, 'scripts', 'labctl'), ['verify', ...args], { encoding: 'utf8', timeout: 120000 });
const withDir = (fn) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'labctl-verify-'));
  try { return fn(dir); } finally { rmSync(dir, { recursive: true, force: true }); }
};
const fx = (name) => path.join(fixtures, name);

test('one line per ledger names its status and, when it differs, the first differing fields', () => {
  const files = manifest.map((e) => e.file);
  const r = labctl(files.map(fx));
  assert.equal(r.status, 3, r.stderr); // some fixtures are invalid
  const lines = r.stdout.trim().split('\n');
  assert.equal(lines.length, files.length);
  manifest.forEach((e, i) => {
    assert.match(lines[i], new RegExp(`^${e.expect === 'invalid' ? 'invalid' : e.expect}\\s+${fx(e.file).replace(/[.]/g, '\\.')}`));
    for (const f of (e.check_differing || e.differing || []).slice(0, 3)) assert.ok(lines[i].includes(f), lines[i]);
  });
  assert.match(lines[files.indexOf('other-engine-version-edited.json')], /engine 0\.0\.9/);
  const count = (s) => manifest.filter((e) => e.expect === s).length;
  assert.ok(r.stderr.includes(`${count('ok')} ok, ${count('differs')} differ, ${count('invalid')} invalid, 0 unreadable`), r.stderr);
});

test('exit 0 when every ledger verifies, 1 when one differs, 3 when one is invalid or unreadable, 2 for usage only, 4 without an engine', () => {
  withDir((dir) => {
    const [a, b] = classOf(2);
    writeFileSync(path.join(dir, 'a.json'), a);
    writeFileSync(path.join(dir, 'b.json'), b);
    assert.equal(labctl([dir]).status, 0);
    assert.equal(labctl([fx('older-version-1.json')]).status, 0);
    assert.equal(labctl([path.join(dir, 'a.json'), fx('edited-final-mfu.json')]).status, 1);
    assert.equal(labctl([fx('edited-final-mfu.json'), fx('truncated.json')]).status, 3);
    assert.equal(labctl([path.join(dir, 'a.json'), path.join(dir, 'no-such.json')]).status, 3);
    assert.equal(labctl(['--xml', dir]).status, 2);
    const noEngine = spawnSync(path.join(root, 'scripts', 'labctl'), ['verify', dir], { encoding: 'utf8', timeout: 120000, env: { ...process.env, LAB_WASM_DIR: path.join(dir, 'none') } });
    assert.equal(noEngine.status, 4);
    assert.equal(JSON.parse(noEngine.stdout).error.field, 'engine');
  });
  // The codes are documented where a script writer looks.
  const help = spawnSync(path.join(root, 'scripts', 'labctl'), ['--help'], { encoding: 'utf8' });
  assert.equal(help.status, 0);
  for (const args of [['verify', '--help'], ['verify', '-h'], ['evaluate', '--help']]) {
    const r = spawnSync(path.join(root, 'scripts', 'labctl'), args, { encoding: 'utf8' });
    assert.equal(r.status, 0, args.join(' '));
    assert.equal(r.stdout, help.stdout, `${args.join(' ')} prints the same help`);
  }
  assert.match(help.stdout, /0 every ledger verifies; 1 some differ[^;]*; 3 some are invalid or unreadable; 2 usage errors only; 4 the engine/);
});

test('a ledger piped to stdin is verified with the name -', () => {
  const r = spawnSync(path.join(root, 'scripts', 'labctl'), ['verify', '-'], { input: fixtureText('edited-final-mfu.json'), encoding: 'utf8', timeout: 120000 });
  assert.equal(r.status, 1);
  assert.match(r.stdout, /^differs {2}- {2}final_mfu_pct; /);
});

test('labctl re-scores answers and the calibration sentence as the page does, and reads a file with a byte-order mark', () => {
  const r = labctl(['--json', fx('edited-fix-score.json'), fx('edited-calibration.json'), fx('edited-reflection-score.json'), fx('with-bom.json'), fx('valid-complete.json')]);
  assert.equal(r.status, 1, r.stderr);
  const [fix, cal, refl, bom, good] = JSON.parse(r.stdout).ledgers;
  assert.deepEqual(fix.differing_fields, ['lab_state.acts.act2.reflection_fix.correct', 'reflections[1].correct']); // evaluate is given
  assert.deepEqual(cal.differing_fields, ['calibration.sentence']);
  assert.ok(refl.differing_fields.includes('lab_state.acts.act1.reflection.ratio_correct'));
  assert.equal(bom.status, 'ok', bom.error && bom.error.message);
  assert.ok(!good.not_recomputed.some((n) => n.field.includes('reflection_fix')), JSON.stringify(good.not_recomputed));
  assert.ok(good.not_recomputed.some((n) => n.field.includes('timestamp')));
  assert.doesNotMatch(good.cannot_prove, /not re-scored/);
});

test('messages name the problem: an array, a wrong type, a file over the limit (in MiB)', () => {
  withDir((dir) => {
    writeFileSync(path.join(dir, 'a-array.json'), '[{"lab_id": "lab08-model-train"}]');
    const oops = JSON.parse(fixtureText('valid-complete.json'));
    oops.knob_settings = 'oops';
    writeFileSync(path.join(dir, 'b-oops.json'), JSON.stringify(oops));
    writeFileSync(path.join(dir, 'c-big.json'), `{"a":"${'x'.repeat(22 * 1024 * 1024)}"}`);
    const lines = labctl([dir]).stdout.trim().split('\n');
    assert.match(lines[0], /a design ledger is a JSON object; this file holds an array$/);
    assert.match(lines[1], /knob_settings: has the wrong type: it is a string \("oops"\), but must be an object/);
    assert.match(lines[2], /the file is 22\.0 MiB; a design ledger is at most 1 MiB \(a finished lab’s is about 20 KiB\)$/);
  });
});

test('usage errors exit 2 and unreadable input 3, each with a message naming the problem', () => {
  for (const [args, pattern] of [[[], /at least one ledger/], [['--json', '--csv', fx('valid-complete.json')], /one of --json and --csv/],
    [['--xml', fx('valid-complete.json')], /unknown option --xml/]]) {
    const r = labctl(args);
    assert.equal(r.status, 2);
    assert.match(JSON.parse(r.stdout).error.message, pattern);
    // One line of JSON without escaped newlines; the usage itself, readable, on stderr.
    assert.doesNotMatch(JSON.parse(r.stdout).error.message, /\n/);
    assert.match(r.stderr, /^usage: labctl /);
  }
  const missing = labctl([path.join(fixtures, 'no-such-ledger.json')]);
  assert.equal(missing.status, 3);
  assert.match(missing.stdout, /^unreadable .*no-such-ledger\.json .*ENOENT/);
  withDir((dir) => {
    const r = labctl([dir]);
    assert.equal(r.status, 3);
    assert.match(r.stdout, /no \*\.json files under/);
  });
});

test('--json reports every ledger with recorded and recomputed values and the counts', () => {
  const r = labctl(['--json', fx('valid-complete.json'), fx('edited-final-mfu.json'), fx('foreign-lab.json')]);
  assert.equal(r.status, 3);
  const report = JSON.parse(r.stdout);
  // The two fixtures are one student's answers at one time: flagged as copies of each other.
  assert.deepEqual(report.counts, { ok: 1, differs: 1, invalid: 1, unreadable: 0, duplicates: 2, skipped: 0 });
  assert.deepEqual(report.skipped, []);
  const [ok, differs, invalid] = report.ledgers;
  assert.equal(ok.status, 'ok');
  const row = differs.fields.find((f) => f.field === 'final_mfu_pct');
  assert.deepEqual([row.recorded, row.differs], [85, true]);
  assert.equal(invalid.error.field, 'lab_id');
  assert.equal(typeof ok.cannot_prove, 'string');
  // An invalid file says what a check cannot prove in the same words as a valid one (walk 4).
  assert.equal(invalid.cannot_prove, ok.cannot_prove);
  assert.doesNotMatch(invalid.cannot_prove, /not re-scored here/);
  // Rows are named as the page names them (one source of labels: ledger-verify-view.js), not with
  // the engine's own working labels.
  const ledger = JSON.parse(fixtureText('valid-complete.json'));
  const pageRows = verificationRows({ fields: ok.fields }, { ledger });
  assert.deepEqual(Object.fromEntries(ok.fields.map((f) => [f.field, f.label])), Object.fromEntries(pageRows.map((x) => [x.field, x.label])));
  assert.equal(row.label, 'Best MFU reached in the design challenge (%)');
  for (const f of [...ok.fields, ...differs.fields]) assert.doesNotMatch(f.label, /\bplan\b|recorded twice|^[a-z]/, f.field);
});

test('--csv has one row per ledger with the plan’s fields and the status, safe for spreadsheets', () => {
  withDir((dir) => {
    const evil = JSON.parse(fixtureText('valid-complete.json'));
    evil.laptop_floor_derivation = '=HYPERLINK("http://example.invalid","x")';
    writeFileSync(path.join(dir, 'b-evil.json'), JSON.stringify(evil));
    copyFileSync(fx('valid-complete.json'), path.join(dir, 'a-good.json'));
    const r = labctl(['--csv', dir]);
    assert.equal(r.status, 1);
    const lines = r.stdout.trim().split('\r\n');
    assert.equal(lines.length, 3);
    assert.equal(lines[0], 'file,status,acts_completed,reflections_right,act1_prediction_error,act2_prediction_error,chapter,optimizer_chosen,precision_chosen,gradient_checkpointing,final_mfu_pct,' +
      'baseline_mfu_estimate_pct,laptop_fit_achieved,laptop_minimum_memory_gb,laptop_floor_derivation,engine_version,' +
      'engine_version_differs,differing_fields,timestamp,duplicate_of,error');
    const good = JSON.parse(fixtureText('valid-complete.json'));
    // The grade columns, read from the ledger (the complete fixture: both acts done, both predictions off).
    const acts = 2;
    const right = good.reflections.filter((x) => x.correct).length;
    const err = (id) => { const p = good.predictions.find((x) => x.id === id); return `${p.error_ratio.toFixed(2)}x ${p.direction === 'under' ? 'too low' : 'too high'}`; };
    assert.ok(lines[1].startsWith(`${path.join(dir, 'a-good.json')},ok,${acts} of 3,${right} of ${good.reflections.length},${err('act1')},${err('act2')},8,adam,${good.precision_chosen},true,${Number(good.final_mfu_pct.toFixed(2))},${good.baseline_mfu_estimate_pct},false,${good.laptop_minimum_memory_gb},"`));
    const v = good.engine_version.replaceAll('.', '\\.');
    assert.match(lines[2], new RegExp(`,differs,.*,"'=HYPERLINK\\(""http://example\\.invalid"",""x""\\)",${v},false,laptop_floor_derivation,`));
  });
});

test('a folder of 200 ledgers (in sub-folders) verifies in seconds', () => {
  withDir((dir) => {
    // Each student's own answer times: identical files would be flagged as copies.
    const good = classOf(100);
    const act1 = classOf(100, 'valid-act1-only.json', 100);
    for (let i = 0; i < 200; i++) {
      const sub = path.join(dir, `section-${i % 4}`);
      mkdirSync(sub, { recursive: true });
      writeFileSync(path.join(sub, `student-${String(i).padStart(3, '0')}.json`), i % 2 ? good[i >> 1] : act1[i >> 1]);
    }
    writeFileSync(path.join(dir, 'notes.txt'), 'not a ledger, not read');
    const t0 = performance.now();
    const r = labctl([dir]);
    const seconds = (performance.now() - t0) / 1000;
    assert.equal(r.status, 0, r.stdout.slice(0, 500));
    assert.equal(r.stdout.trim().split('\n').length, 200);
    assert.match(r.stderr, /^skipped {2}.*notes\.txt {2}its name does not end in \.json: not read$/m);
    assert.ok(seconds < 20, `took ${seconds.toFixed(1)} s`);
  });
});

test('a folder scan names every file it skips: a line on stderr, a record in --json and a row in --csv', () => {
  withDir((dir) => {
    const [a] = classOf(1);
    writeFileSync(path.join(dir, 'a.json'), a);
    writeFileSync(path.join(dir, 'b.json.txt'), a); // a browser's "save as" may add .txt
    writeFileSync(path.join(dir, '.DS_Store'), 'x');
    const text = labctl([dir]);
    assert.equal(text.status, 0, text.stderr);
    assert.equal(text.stdout.trim().split('\n').length, 1);
    assert.match(text.stderr, new RegExp(`^skipped {2}${path.join(dir, 'b.json.txt').replace(/[.]/g, '\\.')} {2}its name does not end in \\.json: not read$`, 'm'));
    assert.match(text.stderr, /^skipped {2}.*\.DS_Store {2}/m);
    assert.match(text.stderr, /1 ledger: 1 ok, 0 differ, 0 invalid, 0 unreadable; 2 other files skipped/);
    const json = JSON.parse(labctl(['--json', dir]).stdout);
    assert.deepEqual(json.skipped.map((s) => path.basename(s.file)), ['.DS_Store', 'b.json.txt']);
    assert.equal(json.counts.skipped, 2);
    const csv = labctl(['--csv', dir]).stdout.trim().split('\r\n');
    assert.equal(csv.length, 4);
    assert.match(csv[3], /b\.json\.txt,skipped,.*,its name does not end in \.json: not read$/);
  });
});

test('copies are flagged: the same content under another name, reformatted, or the same answers at the same times', () => {
  withDir((dir) => {
    const [a, b, c] = classOf(3);
    const write = (name, text) => writeFileSync(path.join(dir, name), text);
    write('alice.json', a);
    write('bob.json', a); // the same file under another name
    write('carol.json', JSON.stringify(JSON.parse(a))); // reformatted
    const changed = JSON.parse(b);
    write('dave.json', b);
    // Erin took Dave's file and changed her answers and the export time: the answer times stay Dave's.
    changed.timestamp = '2026-11-24T10:00:00.000Z';
    changed.lab_state.acts.act2.reflection_fix.choice = 'a';
    changed.reflections.find((r) => r.id === 'act2_fix').answers.choice = 'a';
    write('erin.json', JSON.stringify(changed));
    write('frank.json', c);
    // Gina copied Frank's Act 1 only and did Act 2 herself: one act's answer times are Frank's.
    const gina = JSON.parse(classOf(1, 'valid-complete.json', 7)[0]);
    gina.lab_state.acts.act1 = JSON.parse(c).lab_state.acts.act1;
    write('gina.json', JSON.stringify(gina));
    const r = labctl(['--json', dir]);
    assert.equal(r.status, 1, r.stderr);
    const by = Object.fromEntries(JSON.parse(r.stdout).ledgers.map((l) => [path.basename(l.file), l]));
    const dups = (name) => (by[name].duplicates || []).map((d) => `${path.basename(d.file)}: ${d.kind}`);
    assert.deepEqual(dups('alice.json'), ['bob.json: identical', 'carol.json: identical']);
    assert.deepEqual(dups('bob.json'), ['alice.json: identical', 'carol.json: identical']);
    assert.deepEqual(dups('dave.json'), ['erin.json: same answer times']);
    assert.deepEqual(dups('erin.json'), ['dave.json: same answer times']);
    assert.deepEqual(dups('frank.json'), ['gina.json: some answers at the same times']);
    assert.equal(by['frank.json'].status, 'ok');
    assert.match(r.stderr, /; 7 look like copies of another/);
    // Each student's own times: nothing flagged.
    withDir((own) => {
      classOf(3).forEach((t, i) => writeFileSync(path.join(own, `${i}.json`), t));
      const clean = labctl(['--json', own]);
      assert.equal(clean.status, 0);
      assert.equal(JSON.parse(clean.stdout).counts.duplicates, 0);
    });
    const lines = labctl([dir]).stdout.trim().split('\n');
    assert.match(lines[0], /^ok {7}.*alice\.json .*; COPY\? identical to .*bob\.json; identical to .*carol\.json$/);
    const csv = labctl(['--csv', dir]).stdout.trim().split('\r\n');
    assert.match(csv.find((l) => l.includes('dave.json')), /,same answer times as [^,]*erin\.json,$/);
  });
});

test('completion and the tuned regime set by hand differ, with the flags named; the gradebook counts the acts as derived', () => {
  const r = labctl(['--json', fx('edited-act2-completed.json')]);
  assert.equal(r.status, 1, r.stderr);
  const [l] = JSON.parse(r.stdout).ledgers;
  assert.deepEqual(l.differing_fields, ['lab_state.acts.act2.completed', 'lab_state.acts.act2.design.regime_reached', 'decisions']);
  const row = (f) => l.fields.find((x) => x.field === f);
  assert.deepEqual([row('lab_state.acts.act2.completed').recorded, row('lab_state.acts.act2.completed').recomputed], [true, false]);
  assert.equal(row('lab_state.acts.act2.completed').label, 'Act 2 complete (derived from what the record holds)');
  assert.match(l.cannot_prove, /Answers rewritten consistently \(every copy changed together\) cannot be told from the student's own/);
  const csv = labctl(['--csv', fx('edited-act2-completed.json')]).stdout.trim().split('\r\n');
  assert.match(csv[1], /,differs,1 of 3,/);
  // The untouched ledger: the flags agree with the record.
  const good = JSON.parse(labctl(['--json', fx('valid-complete.json')]).stdout).ledgers[0];
  assert.equal(good.status, 'ok');
  for (const f of ['lab_state.acts.act1.completed', 'lab_state.acts.act2.completed', 'lab_state.acts.act2.design.regime_reached', 'decisions'])
    assert.equal(good.fields.find((x) => x.field === f).differs, false, f);
});

test('plan fields of a part not started are blank; a ledger from before that rule still verifies, and says why', () => {
  // One at a time: the two are one student's answers (a folder of both flags them as copies).
  const [fresh, older] = ['valid-act1-only.json', 'older-plan-fields.json'].map((f) => {
    const r = labctl(['--json', fx(f)]);
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout).ledgers[0];
  });
  assert.deepEqual([fresh.plan_fields.precision_chosen, fresh.plan_fields.gradient_checkpointing], [null, null]);
  assert.deepEqual([older.plan_fields.precision_chosen, older.plan_fields.gradient_checkpointing], ['mixed', true]);
  assert.ok(!fresh.not_recomputed.some((n) => n.field === 'precision_chosen'));
  assert.match(older.not_recomputed.find((n) => n.field === 'precision_chosen').reason, /not started: the value is its starting setting, not a choice/);
  // A part that was started cannot leave its choice blank.
  const blank = JSON.parse(fixtureText('valid-complete.json'));
  blank.precision_chosen = null;
  withDir((dir) => {
    writeFileSync(path.join(dir, 'blank.json'), JSON.stringify(blank));
    const b = JSON.parse(labctl(['--json', dir]).stdout).ledgers[0];
    assert.deepEqual(b.differing_fields, ['precision_chosen']);
  });
});

test('a pipe named on the command line is unreadable at once (exit 3), not a read that never ends', () => withDir((dir) => {
  const fifo = path.join(dir, 'ledger.json');
  const made = spawnSync('mkfifo', [fifo]);
  assert.equal(made.status, 0, 'mkfifo');
  const r = spawnSync(path.join(root, 'scripts', 'labctl'), ['verify', fifo, fx('valid-complete.json')], { encoding: 'utf8', timeout: 60000 });
  assert.equal(r.error, undefined, 'labctl returned (it used to wait for a writer for ever)');
  assert.equal(r.status, 3, r.stderr);
  assert.match(r.stdout, /unreadable.*not a regular file/);
}));

test('--csv leaves the plan choice of a part never started blank, even where an older ledger records the starting setting', () => {
  const r = labctl(['--csv', fx('older-plan-fields.json')]);
  assert.equal(r.error, undefined);
  const [header, row] = r.stdout.trim().split('\r\n').map((l) => l.split(','));
  const cell = (k) => row[header.indexOf(k)];
  assert.equal(cell('status'), 'ok');
  assert.equal(cell('precision_chosen'), '', 'Act 2 was not started');
  assert.equal(cell('gradient_checkpointing'), '');
});
