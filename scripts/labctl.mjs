// labctl: the JSON facade from the terminal. `labctl <command> [FILE]` reads a request from FILE
// (or stdin) and prints the engine's JSON. Exit 0 on success, 2 on bad input or usage.
// `labctl train --fma [FILE]` runs the fused-multiply-add build (lab_train_fma), the one the
// "Measure it" panel runs in browsers with relaxed SIMD, so its numbers match the panel's; Node 20
// needs --experimental-wasm-relaxed-simd for it, which scripts/labctl passes.
// `labctl verify [--json|--csv] FILE|DIR ...` verifies design ledgers in bulk (verifyCommand below).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadEngine, loadTrainEngine, loadTrainEngineFma, wasmDir } from './engine-node.mjs';
import { relaxedSimdSupported } from '../web/src/wasm-features.js';
import { checkLedger, tooLargeMessage } from '../web/src/ledger-check.js';
import { labelledFields } from '../web/src/ledger-verify-view.js';

const COMMANDS = { evaluate: 'evaluate', solve: 'solve', verify: 'verify', train: 'train' };
const usage = 'usage: labctl <evaluate|solve|train> [FILE]   (FILE omitted: read stdin)\n' +
  '       labctl train --fma [FILE]   (the fused-multiply-add build the browser panel uses)\n' +
  '       labctl verify [--json|--csv] FILE|DIR|- ...   (design ledgers; a DIR: every *.json under it; -: stdin)';

// The error as JSON on stdout (one line, no escaped newlines: the usage's lines are joined by ' | '),
// and, when it quotes the usage, the usage as plain text on stderr for a person at a terminal.
function fail(field, message) {
  process.stdout.write(JSON.stringify({ error: { field, message: message.replace(/\n\s*/g, ' | ') } }) + '\n');
  if (message.includes(usage)) process.stderr.write(usage + '\n');
  process.exit(2);
}

const [command, ...args] = process.argv.slice(2);
if (!command || command === '--help' || command === '-h') {
  process.stderr.write(usage + '\n');
  process.exit(command ? 0 : 2);
}
if (!(command in COMMANDS)) fail('command', `unknown command '${command}'; ${usage}`);
if (command === 'verify') process.exit(await verifyCommand(args));
const fma = args.includes('--fma');
if (fma && command !== 'train') fail('arguments', `--fma applies to train only; ${usage}`);
const [file, ...rest] = args.filter((a) => a !== '--fma');
if (rest.length) fail('arguments', `unexpected extra arguments: ${rest.join(' ')}; ${usage}`);
if (fma && !relaxedSimdSupported())
  fail('fma', 'this Node does not accept WebAssembly relaxed SIMD; run it through scripts/labctl, or node --experimental-wasm-relaxed-simd');

let text;
try {
  text = file && file !== '-' ? readFileSync(file, 'utf8') : readFileSync(0, 'utf8');
} catch (err) {
  fail('file', `cannot read ${file || 'stdin'}: ${err.code || err.message}`);
}

let engine;
try {
  engine = command === 'train' ? await (fma ? loadTrainEngineFma() : loadTrainEngine()) : await loadEngine();
} catch (err) {
  fail('engine', `the WASM engine could not be loaded: ${String(err.message || err).split('\n')[0]}`);
}
const fn = engine[COMMANDS[command]];
if (typeof fn !== 'function') fail('command', `'${command}' is not available in this engine build`);
const out = fn(text);
process.stdout.write(out + '\n');
process.exit(JSON.parse(out).error ? 2 : 0);

// ---- verify: one line per ledger (ok / differs / invalid, with the first differing fields), or a
// JSON report (--json), or a gradebook table (--csv: one row per ledger, the plan's fields and the
// status). Exit 0 when every ledger verifies, 1 when any differs, 2 on usage, an unreadable file or
// an invalid ledger. The check is the page's: the schema, then the engine's verify_ledger.
// (Functions only: verifyCommand runs from the top of the file, before later constants exist.)
function ledgerMaxBytes() { return 1 << 20; } // core/facade/facade_ledger.hpp kLedgerMaxBytes
function planFields() {
  return ['chapter', 'optimizer_chosen', 'precision_chosen', 'gradient_checkpointing', 'final_mfu_pct',
    'baseline_mfu_estimate_pct', 'laptop_fit_achieved', 'laptop_minimum_memory_gb', 'laptop_floor_derivation'];
}

// Gradebook cells: percentages to two decimals (the engine's 25.845395394582198 reads 25.85); the
// laptop minimum is bytes / 10^9, exact as recorded.
function planCell(key, v) {
  return (key === 'final_mfu_pct' || key === 'baseline_mfu_estimate_pct') && typeof v === 'number' ? Number(v.toFixed(2)) : v;
}

function ledgerFiles(target) {
  const st = statSync(target);
  if (!st.isDirectory()) return [target];
  const out = [];
  for (const e of readdirSync(target, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = path.join(target, e.name);
    if (e.isDirectory()) out.push(...ledgerFiles(p));
    else if (e.isFile() && e.name.toLowerCase().endsWith('.json')) out.push(p);
  }
  return out;
}

// RFC 4180 quoting; a cell that a spreadsheet would run as a formula gets a leading apostrophe.
function csvCell(v) {
  let t = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  if (/^[=+\-@\t\r]/.test(t) && !/^-?[0-9.]+(e[+-]?[0-9]+)?$/i.test(t)) t = `'${t}`;
  return /[",\r\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
}

function lineFor(file, r) {
  if (r.status === 'ok') return `ok       ${file}  ${r.summary.replace(/^ok: /, '')}`;
  if (r.status === 'differs') {
    const first = r.differing_fields.slice(0, 3).join(', ') + (r.differing_fields.length > 3 ? `, … (${r.differing_fields.length} in all)` : '');
    return `differs  ${file}  ${first}; ${r.cause}`;
  }
  return `${r.status === 'unreadable' ? 'unreadable' : 'invalid '} ${file}  ${r.error.field ? `${r.error.field}: ` : ''}${r.error.message}`;
}

async function loadVerifier() {
  const mod = await loadEngine();
  if (!mod.verify_ledger) throw new Error(`the engine in ${wasmDir} has no verify_ledger; rebuild it`);
  const verifyLedger = (text) => JSON.parse(mod.verify_ledger(text));
  // The page's check: the schema, then the engine, then the scores and the calibration sentence
  // (web/src/ledger-check.js checkLedger). evaluate and catalog let it re-score the fix question.
  const evaluate = (scenario) => JSON.parse(mod.evaluate(JSON.stringify(scenario)));
  let catalog = null;
  const engine = { verifyLedger, evaluate, catalog: () => (catalog ||= JSON.parse(mod.catalog())) };
  // Each field's label is the page's (labelledFields), so the terminal and the page name a row alike.
  return { verify: (text) => {
    const { ledger, from, ...r } = checkLedger(text, engine);
    return { ...r, ...(r.fields ? { fields: labelledFields(r, { ledger }) } : {}), grades: ledger ? gradeCells(ledger) : null };
  },
    version: () => mod.version() };
}

// What an instructor grades on, beside the plan's fields (--csv only): acts completed, reflections
// answered right, and each prediction's error as the calibration states it.
function gradeCells(ledger) {
  const acts = ledger.lab_state && ledger.lab_state.acts ? Object.values(ledger.lab_state.acts) : [];
  const refl = Array.isArray(ledger.reflections) ? ledger.reflections : [];
  const pred = (id) => {
    const p = (ledger.predictions || []).find((x) => x.id === id);
    if (!p) return '';
    if (p.direction === 'exact') return 'spot on';
    if (p.direction === 'zero') return 'expected none';
    return `${Number(p.error_ratio).toFixed(2)}x ${p.direction === 'under' ? 'too low' : 'too high'}`;
  };
  return { acts_completed: `${acts.filter((a) => a && a.completed).length} of 2`,
    reflections_right: `${refl.filter((r) => r.correct).length} of ${refl.length}`,
    act1_prediction_error: pred('act1'), act2_prediction_error: pred('act2') };
}

async function verifyCommand(args) {
  const format = args.includes('--json') ? 'json' : args.includes('--csv') ? 'csv' : 'text';
  const bad = args.filter((a) => a.startsWith('-') && a !== '-' && a !== '--json' && a !== '--csv');
  const targets = args.filter((a) => a === '-' || !a.startsWith('-')); // '-': one ledger on stdin
  if (args.includes('--json') && args.includes('--csv')) fail('arguments', `choose one of --json and --csv; ${usage}`);
  if (bad.length) fail('arguments', `unknown option ${bad.join(' ')}; ${usage}`);
  if (!targets.length) fail('arguments', `verify needs at least one ledger file or folder; ${usage}`);
  let engine;
  try {
    engine = await loadVerifier();
  } catch (err) {
    fail('engine', `the WASM engine could not be loaded: ${String(err.message || err).split('\n')[0]}`);
  }
  const results = [];
  for (const target of targets) {
    let files;
    try {
      files = target === '-' ? ['-'] : ledgerFiles(target);
    } catch (err) {
      results.push({ file: target, status: 'unreadable', error: { field: 'file', message: `cannot read ${target}: ${err.code || err.message}` } });
      continue;
    }
    if (!files.length) results.push({ file: target, status: 'unreadable', error: { field: 'file', message: `no *.json files under ${target}` } });
    for (const file of files) {
      let text = null;
      let size = 0;
      try {
        size = file === '-' ? 0 : statSync(file).size;
        if (size <= ledgerMaxBytes()) text = readFileSync(file === '-' ? 0 : file, 'utf8');
      } catch (err) {
        results.push({ file, status: 'unreadable', error: { field: 'file', message: `cannot read ${file}: ${err.code || err.message}` } });
        continue;
      }
      const r = text === null
        ? { status: 'invalid', error: { field: '', message: tooLargeMessage(size) } }
        : engine.verify(text);
      results.push({ file, ...r });
    }
  }
  const counts = { ok: 0, differs: 0, invalid: 0, unreadable: 0 };
  for (const r of results) counts[r.status] += 1;
  if (format === 'json') {
    const ledgers = results.map(({ grades, ...r }) => r); // the full report has the ledger's own fields
    process.stdout.write(`${JSON.stringify({ engine_version: engine.version(), counts, ledgers }, null, 1)}\n`);
  } else if (format === 'csv') {
    const grades = ['acts_completed', 'reflections_right', 'act1_prediction_error', 'act2_prediction_error'];
    const header = ['file', 'status', ...grades, ...planFields(), 'engine_version', 'engine_version_differs', 'differing_fields', 'timestamp', 'error'];
    const rows = results.map((r) => [r.file, r.status, ...grades.map((k) => (r.grades ? r.grades[k] : '')),
      ...planFields().map((k) => (r.plan_fields ? planCell(k, r.plan_fields[k]) : '')),
      r.engine_version ? r.engine_version.recorded : '', r.engine_version ? r.engine_version.differs : '',
      (r.differing_fields || []).join('; '), r.timestamp || '', r.error ? `${r.error.field ? `${r.error.field}: ` : ''}${r.error.message}` : '']);
    process.stdout.write(`${[header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`);
  } else {
    process.stdout.write(`${results.map((r) => lineFor(r.file, r)).join('\n')}\n`);
  }
  process.stderr.write(`${results.length} ledger${results.length === 1 ? '' : 's'}: ${counts.ok} ok, ${counts.differs} differ, ${counts.invalid} invalid, ${counts.unreadable} unreadable\n`);
  return counts.invalid || counts.unreadable ? 2 : counts.differs ? 1 : 0;
}
