// labctl verify: design ledgers in bulk. One line per ledger (ok / differs / invalid, with the first
// differing fields), or a JSON report (--json), or a gradebook table (--csv: one row per ledger, the
// plan's fields and the status). The check is the page's (web/src/ledger/ledger-check.js checkLedger): the
// schema, the engine's verify_ledger, the re-scored answers and the flags derived from the record.
// A folder scan names every file it skips; copies of one ledger under other names are flagged.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadEngine, wasmDir } from './engine-node.mjs';
import { checkLedger, tooLargeMessage } from '../web/src/ledger/ledger-check.js';
import { labelledFields } from '../web/src/ledger/ledger-verify-view.js';
import { LEDGER_MAX_BYTES } from '../web/src/ledger/design-ledger.js';
import { completedActs, ACT_COUNT } from '../web/src/state/completion.js';
import { findDuplicates } from './ledger-duplicates.mjs';

// The exit statuses, for scripts: documented in `labctl --help` and scripts/README.md.
export const EXIT = { ok: 0, differs: 1, usage: 2, invalid: 3, engine: 4 };
export const VERIFY_EXIT_HELP = 'exit status of verify: 0 every ledger verifies; 1 some differ or copy another ledger (and none is\n' +
  '  invalid); 3 some are invalid or unreadable; 2 usage errors only; 4 the engine could not be loaded.\n' +
  '  A folder scan reads every *.json under it and names each other file it skips (stderr; a record in --json/--csv).';

const PLAN_FIELDS = ['chapter', 'optimizer_chosen', 'precision_chosen', 'gradient_checkpointing', 'final_mfu_pct',
  'baseline_mfu_estimate_pct', 'laptop_fit_achieved', 'laptop_minimum_memory_gb', 'laptop_floor_derivation'];
const GRADES = ['acts_completed', 'reflections_right', 'act1_prediction_error', 'act2_prediction_error'];

// Gradebook cells: percentages to two decimals (the engine's 25.845395394582198 reads 25.85); the
// laptop minimum is bytes / 10^9, exact as recorded.
function planCell(key, v) {
  return (key === 'final_mfu_pct' || key === 'baseline_mfu_estimate_pct') && typeof v === 'number' ? Number(v.toFixed(2)) : v;
}

// Every *.json under a folder (sub-folders too), and every other entry with why it was skipped. A
// sub-folder that cannot be read is an unreadable entry of its own; the rest of the scan goes on.
function scan(target, files, skipped, unreadable, top = true) {
  let entries;
  try {
    if (!statSync(target).isDirectory()) { files.push(target); return; }
    entries = readdirSync(target, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
  } catch (err) {
    if (top) throw err;
    unreadable.push({ file: target, status: 'unreadable', error: { field: 'file', message: `cannot read ${target}: ${err.code || err.message}` } });
    return;
  }
  for (const e of entries) {
    const p = path.join(target, e.name);
    if (e.isDirectory()) scan(p, files, skipped, unreadable, false);
    else if (!e.isFile()) skipped.push({ file: p, reason: 'not a regular file (a link, device or socket): not read' });
    else if (e.name.toLowerCase().endsWith('.json')) files.push(p);
    else skipped.push({ file: p, reason: 'its name does not end in .json: not read' });
  }
}

// RFC 4180 quoting; a cell that a spreadsheet would run as a formula gets a leading apostrophe.
function csvCell(v) {
  let t = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  if (/^[=+\-@\t\r]/.test(t) && !/^-?[0-9.]+(e[+-]?[0-9]+)?$/i.test(t)) t = `'${t}`;
  return /[",\r\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
}

const dupWords = (d) => d.map((x) => `${x.kind === 'identical' ? 'identical to' : `${x.kind} as`} ${x.file}`).join('; ');
function lineFor(file, r) {
  const dup = r.duplicates ? `; COPY? ${dupWords(r.duplicates)}` : '';
  if (r.status === 'ok') return `ok       ${file}  ${r.summary.replace(/^ok: /, '')}${dup}`;
  if (r.status === 'differs') {
    const first = r.differing_fields.slice(0, 3).join(', ') + (r.differing_fields.length > 3 ? `, … (${r.differing_fields.length} in all)` : '');
    return `differs  ${file}  ${first}; ${r.cause}${dup}`;
  }
  return `${r.status === 'unreadable' ? 'unreadable' : 'invalid '} ${file}  ${r.error.field ? `${r.error.field}: ` : ''}${r.error.message}${dup}`;
}

// What an instructor grades on, beside the plan's fields (--csv only): acts completed (derived from
// the record as the page derives it, never the flag as written), reflections answered right, and
// each prediction's error as the calibration states it.
function gradeCells(ledger) {
  const refl = Array.isArray(ledger.reflections) ? ledger.reflections : [];
  const pred = (id) => {
    const p = (ledger.predictions || []).find((x) => x.id === id);
    if (!p) return '';
    if (p.direction === 'exact') return 'spot on';
    if (p.direction === 'zero') return 'expected none';
    return `${Number(p.error_ratio).toFixed(2)}x ${p.direction === 'under' ? 'too low' : 'too high'}`;
  };
  const acts = (ledger.lab_state && ledger.lab_state.acts) || {};
  // Act 3's two reflections sit in its record (verify_ledger re-scores them there).
  const snap = ledger.result_snapshot && ledger.result_snapshot.act3;
  const refl3 = snap && Array.isArray(snap.reflect) ? snap.reflect : [];
  return { acts_completed: `${completedActs(ledger.lab_state)} of ${ACT_COUNT}`,
    reflections_right: `${refl.filter((r) => r.correct).length + refl3.filter((r) => r && r.correct === true).length} of ${refl.length + refl3.length}`,
    act1_prediction_error: pred('act1'), act2_prediction_error: pred('act2'),
    started: { act1: Boolean(acts.act1 && acts.act1.prediction), act2: Boolean(acts.act2 && acts.act2.prediction) } };
}

// A plan choice of a part the student never started is left blank in the gradebook: an older ledger
// (or an edited one) records the starting setting there, which is not a choice (instructor walk).
const PLAN_PART = { optimizer_chosen: 'act1', precision_chosen: 'act2', gradient_checkpointing: 'act2' };
const planOf = (r, k) => (r.grades && PLAN_PART[k] && !r.grades.started[PLAN_PART[k]] ? '' : planCell(k, r.plan_fields[k]));

async function loadVerifier() {
  const mod = await loadEngine();
  if (!mod.verify_ledger) throw new Error(`the engine in ${wasmDir} has no verify_ledger; rebuild it`);
  const verifyLedger = (text) => JSON.parse(mod.verify_ledger(text));
  // evaluate and catalog let the check re-score the fix question and re-compute derived flags.
  const evaluate = (scenario) => JSON.parse(mod.evaluate(JSON.stringify(scenario)));
  let catalog = null;
  const engine = { verifyLedger, evaluate, catalog: () => (catalog ||= JSON.parse(mod.catalog())) };
  // Each field's label is the page's (labelledFields), so the terminal and the page name a row alike.
  return { verify: (text) => {
    const { ledger, from, ...r } = checkLedger(text, engine);
    return { ledger, result: { ...r, ...(r.fields ? { fields: labelledFields(r, { ledger }) } : {}), grades: ledger ? gradeCells(ledger) : null } };
  },
    version: () => mod.version() };
}

function readOne(file, verifier) {
  let text = null;
  let size = 0;
  try {
    const st = file === '-' ? null : statSync(file);
    // A FIFO or device named on the command line would block the read for ever (instructor walk).
    if (st && !st.isFile()) return { result: { file, status: 'unreadable', error: { field: 'file', message: `cannot read ${file}: not a regular file (a pipe, device or socket)` } } };
    size = st ? st.size : 0;
    if (size <= LEDGER_MAX_BYTES) text = readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (err) {
    return { result: { file, status: 'unreadable', error: { field: 'file', message: `cannot read ${file}: ${err.code || err.message}` } } };
  }
  if (text === null) return { result: { file, status: 'invalid', error: { field: '', message: tooLargeMessage(size) } } };
  const { ledger, result } = verifier.verify(text);
  return { text, ledger, result: { file, ...result } };
}

function write(format, version, results, skipped, counts) {
  if (format === 'json') {
    const ledgers = results.map(({ grades, ...r }) => r); // the full report has the ledger's own fields
    process.stdout.write(`${JSON.stringify({ engine_version: version, counts, ledgers, skipped }, null, 1)}\n`);
  } else if (format === 'csv') {
    const header = ['file', 'status', ...GRADES, ...PLAN_FIELDS, 'engine_version', 'engine_version_differs', 'differing_fields', 'timestamp', 'duplicate_of', 'error'];
    const rows = results.map((r) => [r.file, r.status, ...GRADES.map((k) => (r.grades ? r.grades[k] : '')),
      ...PLAN_FIELDS.map((k) => (r.plan_fields ? planOf(r, k) : '')),
      r.engine_version ? r.engine_version.recorded : '', r.engine_version ? r.engine_version.differs : '',
      (r.differing_fields || []).join('; '), r.timestamp || '', r.duplicates ? dupWords(r.duplicates) : '',
      r.error ? `${r.error.field ? `${r.error.field}: ` : ''}${r.error.message}` : '']);
    const skippedRows = skipped.map((s) => [s.file, 'skipped', ...GRADES.map(() => ''), ...PLAN_FIELDS.map(() => ''), '', '', '', '', '', s.reason]);
    process.stdout.write(`${[header, ...rows, ...skippedRows].map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`);
  } else {
    process.stdout.write(results.length ? `${results.map((r) => lineFor(r.file, r)).join('\n')}\n` : '');
  }
}

// Returns the exit status (EXIT); `fail` (labctl.mjs) reports a usage or engine error and throws.
export async function verifyCommand(args, { fail, usage }) {
  const format = args.includes('--json') ? 'json' : args.includes('--csv') ? 'csv' : 'text';
  const bad = args.filter((a) => a.startsWith('-') && a !== '-' && a !== '--json' && a !== '--csv');
  const targets = args.filter((a) => a === '-' || !a.startsWith('-')); // '-': one ledger on stdin
  if (args.includes('--json') && args.includes('--csv')) fail('arguments', `choose one of --json and --csv; ${usage}`);
  if (bad.length) fail('arguments', `unknown option ${bad.join(' ')}; ${usage}`);
  if (!targets.length) fail('arguments', `verify needs at least one ledger file or folder; ${usage}`);
  let verifier;
  try {
    verifier = await loadVerifier();
  } catch (err) {
    fail('engine', `the WASM engine could not be loaded: ${String(err.message || err).split('\n')[0]}`, EXIT.engine);
  }
  const read = [];
  const skipped = [];
  for (const target of targets) {
    const files = [];
    const skippedHere = [];
    const unreadable = [];
    try {
      if (target === '-') files.push('-'); else scan(target, files, skippedHere, unreadable);
    } catch (err) {
      read.push({ result: { file: target, status: 'unreadable', error: { field: 'file', message: `cannot read ${target}: ${err.code || err.message}` } } });
      continue;
    }
    skipped.push(...skippedHere);
    read.push(...unreadable.map((result) => ({ result })));
    if (!files.length && !unreadable.length) read.push({ result: { file: target, status: 'unreadable', error: { field: 'file', message: `no *.json files under ${target}` } } });
    for (const file of files) read.push(readOne(file, verifier));
  }
  const dups = findDuplicates(read.filter((x) => x.text !== undefined).map((x) => ({ file: x.result.file, text: x.text, ledger: x.ledger })));
  const results = read.map(({ result }) => (dups.has(result.file) ? { ...result, duplicates: dups.get(result.file) } : result));
  const counts = { ok: 0, differs: 0, invalid: 0, unreadable: 0, duplicates: dups.size, skipped: skipped.length };
  for (const r of results) counts[r.status] += 1;
  write(format, verifier.version(), results, skipped, counts);
  for (const s of skipped) process.stderr.write(`skipped  ${s.file}  ${s.reason}\n`);
  const n = results.length;
  process.stderr.write(`${n} ledger${n === 1 ? '' : 's'}: ${counts.ok} ok, ${counts.differs} differ, ${counts.invalid} invalid, ${counts.unreadable} unreadable` +
    `${dups.size ? `; ${dups.size} look like copies of another` : ''}${skipped.length ? `; ${skipped.length} other file${skipped.length === 1 ? '' : 's'} skipped` : ''}\n`);
  // What no check of a file can catch, said where a grader reads the totals (--json: cannot_prove).
  if (format !== 'json') process.stderr.write('Not detectable: answers rewritten consistently (every copy in the file changed together); --json says what each check proves.\n');
  return counts.invalid || counts.unreadable ? EXIT.invalid : counts.differs || dups.size ? EXIT.differs : EXIT.ok;
}
