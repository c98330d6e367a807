// Reading a design ledger back and checking it, DOM-free, as the page's ledger panel and `labctl verify`
// both do: readLedger (size, JSON, lab, version, migration, schema), then the engine's verify_ledger
// (core/facade/facade_ledger.cpp) re-computes every engine value, then rescore re-builds what the
// engine does not re-compute (the calibration sentence, the answers' scores: ledger-rescore.js). The
// ledger itself is built in design-ledger.js.
import { migrate as migrateState, LAB_ID } from '../state/store.js';
import { wordList } from '../format/format.js';
import { validate } from '../state/schema/validate.js';
import { nestingDepth } from '../state/json-depth.js';
import { validateLedger, LEDGER_SCHEMA, LEDGER_MAX_BYTES, LEDGER_SCHEMA_VERSION } from './design-ledger.js';
import { rescore } from './ledger-rescore.js';

// ---- Reading a ledger back: size, JSON, lab, version, migration, schema. Returns { ledger, from } or
// { error: { field, message } }; never throws. The engine's verify_ledger then re-computes it.
export const LEDGER_MIGRATIONS = {
  // Version 1: Act 1 only, lab state version 1. The state is migrated as the store migrates saved
  // progress; the Act 2 parts are "not reached".
  1(old) {
    const { state } = migrateState(old.lab_state);
    return { ...old, ledger_schema_version: 2, final_mfu_pct: null, baseline_mfu_estimate_pct: null, laptop_fit_achieved: false,
      laptop_minimum_memory_gb: null, laptop_floor_derivation: null, knob_settings: { act1: old.knob_settings.act1, act2: null },
      result_snapshot: { act1: old.result_snapshot.act1, act2: null, laptop: null }, lab_state: state };
  },
};

// Top-level fields version 1 never had (the plan's Act 2 and laptop fields).
const VERSION_2_ONLY = ['final_mfu_pct', 'baseline_mfu_estimate_pct', 'laptop_fit_achieved', 'laptop_minimum_memory_gb', 'laptop_floor_derivation'];

export const LEDGER_MAX_DEPTH = 32; // as core/facade/facade_ledger.hpp kLedgerMaxDepth

// A file saved with a UTF-8 byte-order mark (some Windows editors) reads as the same ledger: the page
// and labctl both go through readLedger/checkLedger, which strip it here, in one place.
export function stripBom(text) {
  return typeof text === 'string' && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

// One unit system (binary, as the limit is 1 MiB) for the size message the page and labctl give.
export function tooLargeMessage(bytes) {
  const mib = bytes / (1 << 20);
  const size = bytes >= 1 << 20 ? `${mib.toFixed(mib < 10 ? 2 : 1)} MiB` : `${(bytes / 1024).toFixed(0)} KiB`;
  return `the file is ${size}; a design ledger is at most 1 MiB (a finished lab’s is about 20 KiB)`;
}

const typeName = (v) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object'
  : typeof v === 'string' ? `a string ("${v.length > 30 ? `${v.slice(0, 30)}…` : v}")` : `${typeof v === 'number' ? 'a number' : typeof v === 'boolean' ? 'a boolean' : typeof v} (${String(v)})`);
const TYPE_WORDS = { object: 'an object ({…})', array: 'an array ([…])', string: 'a string', number: 'a number', integer: 'a whole number', boolean: 'true or false', null: 'null' };
function valueAt(root, path) {
  let cur = root;
  for (const part of path.replace(/\[(\d+)\]/g, '.$1').split('.').filter(Boolean)) {
    if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, part)) return undefined;
    cur = cur[part];
  }
  return cur;
}

// The schema node for a path ("lab_state.acts.act1.prediction"); inside a oneOf, the alternative that
// has properties or items (the schema's alternatives are null or one object/array shape).
function schemaAt(schema, path) {
  let node = schema;
  for (const part of path.replace(/\[(\d+)\]/g, '.$1').split('.').filter(Boolean)) {
    if (node && node.oneOf) node = node.oneOf.find((alt) => alt.properties || alt.items) || node;
    node = node && (/^\d+$/.test(part) ? node.items : node.properties && Object.hasOwn(node.properties, part) ? node.properties[part] : null);
    if (!node) return null;
  }
  return node;
}
const TYPE_OF = (v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const orList = (items) => wordList(items, 'or');
// Patterns the schema uses, in words.
const PATTERN_WORDS = { '^[a-d]$': 'one of the letters a, b, c or d', '^[a-z0-9-]{1,40}$': 'a device name of up to 40 lowercase letters, digits and hyphens' };

// validate.js's first "path: message" → { field, message } in words, naming the innermost field: a value
// that matches none of a oneOf's shapes (null or a record) is checked against the shape of its own type,
// so "prediction: must match exactly one alternative" becomes what is wrong inside the prediction.
function schemaError(ledger, errors) {
  let [first] = errors;
  let more = errors.length - 1;
  for (let depth = 0; depth < 8; depth++) {
    const [where] = first.split(': ');
    const path = where.replace(/^\$\.?/, '');
    if (!/^must match exactly one alternative/.test(first.slice(where.length + 2))) break;
    const node = schemaAt(LEDGER_SCHEMA, path);
    const value = valueAt(ledger, path);
    const alts = node && node.oneOf ? node.oneOf : [];
    const own = alts.find((alt) => alt.type && [].concat(alt.type).includes(TYPE_OF(value)) && TYPE_OF(value) !== 'null');
    if (!own) {
      const allowed = alts.flatMap((alt) => [].concat(alt.type || [])).map((t) => TYPE_WORDS[t] || t);
      return { field: path, message: `has the wrong type: it is ${typeName(value)}, but must be ${orList(allowed)}`, more };
    }
    const inner = validate(own, value, where);
    if (!inner.length) break;
    more += inner.length - 1;
    first = inner[0];
  }
  const [where, ...rest] = first.split(': ');
  let message = rest.join(': ');
  const path = where.replace(/^\$\.?/, '');
  const extra = /^unexpected property '(.*)'$/.exec(message);
  const missing = /^missing required '(.*)'$/.exec(message);
  const value = valueAt(ledger, path);
  // "must be of type object" → name what the file holds instead, so a wrong type reads as one.
  const type = /^must be of type (\w+)(?: or (\w+))?$/.exec(message);
  const oneOf = /^must be one of (.*)$/.exec(message);
  const pattern = /^must match (.*)$/.exec(message);
  if (type) message = `has the wrong type: it is ${typeName(value)}, but must be ${orList(type.slice(1).filter(Boolean).map((t) => TYPE_WORDS[t] || t))}`;
  else if (oneOf) {
    // A number written as text ("32" for 32) is a wrong type, and says so.
    const allowed = (schemaAt(LEDGER_SCHEMA, path) || {}).enum || [];
    const kinds = [...new Set(allowed.map((a) => TYPE_OF(a)))];
    message = allowed.length && !kinds.includes(TYPE_OF(value))
      ? `has the wrong type: it is ${typeName(value)}, but must be ${kinds.length === 1 && kinds[0] === 'number' ? 'one of the numbers' : 'one of'} ${orList(allowed.map((a) => JSON.stringify(a)))}`
      : `is not one of the allowed values: it is ${typeName(value)}, but must be ${orList(oneOf[1].split(', '))}`;
  }
  else if (pattern) message = `is not in the allowed form: it is ${typeName(value)}, but must be ${PATTERN_WORDS[pattern[1]] || `text matching ${pattern[1]}`}`;
  else if (extra) message = 'is not part of a design ledger: the lab never writes this field here';
  else if (missing) message = 'is missing: a design ledger always records it here';
  const named = extra || missing;
  return { field: named ? (path ? `${path}.${named[1]}` : named[1]) : path, message, more };
}

export function readLedger(text) {
  const fail = (field, message) => ({ error: { field, message } });
  if (typeof text !== 'string') return fail('', 'the file could not be read as text');
  text = stripBom(text);
  if (!text.trim()) return fail('', text.length ? 'the file is empty (it holds only blank space, no ledger)' : 'the file is empty (it holds no ledger)');
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > LEDGER_MAX_BYTES) return fail('', tooLargeMessage(bytes));
  if (nestingDepth(text, LEDGER_MAX_DEPTH) > LEDGER_MAX_DEPTH) return fail('', `the file nests arrays or objects more than ${LEDGER_MAX_DEPTH} levels deep; a design ledger nests about 8`);
  let raw;
  try { raw = JSON.parse(text); } catch { return fail('', 'the file is not valid JSON (it may be truncated or not a ledger at all)'); }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return fail('', `a design ledger is a JSON object; this file holds ${typeName(raw).replace(/ \(.*$/, '')}`);
  if (!Object.hasOwn(raw, 'lab_id') && !Object.hasOwn(raw, 'ledger_schema_version')) return fail('', "this is not a design ledger: it has neither 'lab_id' nor 'ledger_schema_version'");
  if (raw.lab_id !== LAB_ID) return fail('lab_id', `this ledger belongs to ${typeof raw.lab_id === 'string' ? `'${raw.lab_id.slice(0, 60)}'` : 'no lab'}, not to Lab 08 ("${LAB_ID}")`);
  const v = raw.ledger_schema_version;
  if (v === undefined) return fail('ledger_schema_version', 'is missing: a design ledger records its version, a whole number (1 or more)');
  if (typeof v !== 'number') {
    const hint = typeof v === 'string' && /^\d+$/.test(v.trim()) ? `: write ${v.trim()}, without quotes` : '';
    return fail('ledger_schema_version', `has the wrong type: it is ${typeName(v)}, but must be a whole number (1 or more)${hint}`);
  }
  if (!Number.isInteger(v) || v < 1) return fail('ledger_schema_version', `must be a whole number (1 or more); it is ${typeName(v)}`);
  if (v > LEDGER_SCHEMA_VERSION) return fail('ledger_schema_version', `written by a newer version of the lab (ledger version ${v}); this version of the lab reads ${LEDGER_SCHEMA_VERSION === 2 ? 'versions 1 and 2' : `versions 1 to ${LEDGER_SCHEMA_VERSION}`}`);
  // A version-2 file relabelled 1 would be read as Act 1 only, its Act 2 records silently dropped.
  const newer = v === 1 ? VERSION_2_ONLY.filter((k) => Object.hasOwn(raw, k)) : [];
  if (newer.length) return fail('ledger_schema_version', `says 1, but the file has ${newer.slice(0, 3).join(', ')}${newer.length > 3 ? ', …' : ''}, which only version 2 writes: the version number was changed; it should be 2`);
  let ledger = raw;
  try {
    for (let n = v; n < LEDGER_SCHEMA_VERSION; n++) ledger = LEDGER_MIGRATIONS[n](ledger);
  } catch {
    return fail('', `the version-${v} ledger could not be migrated: its layout is damaged`);
  }
  const errors = validateLedger(ledger);
  if (errors.length) {
    const { field, message, more } = schemaError(ledger, errors);
    // Name where the other problems are (up to three), so "1 more problem" can be found.
    const others = [...new Set(errors.slice(1).map((e) => e.split(': ')[0].replace(/^\$\.?/, '') || 'the top level'))];
    const where = others.length ? `, at ${others.slice(0, 3).join(', ')}${others.length > 3 ? ', …' : ''}` : '';
    return fail(field, `${message}${more > 0 ? ` (and ${more} more problem${more > 1 ? 's' : ''}${where})` : ''}`);
  }
  return { ledger, from: v < LEDGER_SCHEMA_VERSION ? v : null };
}

const SETTINGS_FIELD = /^knob_settings\.act[12]$/;
const CANNOT_PROVE_SCORING = /Whether a multiple-choice answer was scored right[^.]*\.\s*/;
// What this check cannot prove: the engine's words, with its sentence on scores replaced by what the
// check adds (it re-scores them). The same for every file, valid or not, on the page and in labctl.
const cannotProveText = (engineText) => `${String(engineText || '').replace(CANNOT_PROVE_SCORING, '')} Each multiple-choice answer is re-scored from the re-computed engine values, the calibration sentence is rebuilt, and the flags that follow from the record (each act completed, the tuned regime reached, the list of decisions) are derived again, so a flipped score, an edited sentence or a flag set by hand is flagged. Answers rewritten consistently (every copy changed together) cannot be told from the student's own: no check of the file can detect that.`.replace(/\s+/g, ' ').trim();

// The whole check, as the page and `labctl verify` both run it: the schema (readLedger), the engine's
// re-computation (verify_ledger), then the calibration sentence and the answers' scores re-built from
// the verified values (rescore). verify_ledger reads only what it re-computes, so a file the schema
// refuses (e.g. junk inside `decisions`) is invalid here even when the engine has no objection; the
// schema's message is the one given, as it names the problem in the lab's words. `engine`: {
// verifyLedger(text), evaluate?(scenario), catalog?() }; without evaluate the fix question is listed
// as not re-scored. Returns verify_ledger's answer, extended, plus { ledger, from } when readable.
export function checkLedger(text, engine) {
  text = stripBom(text);
  const read = readLedger(text);
  let verified;
  try {
    verified = engine.verifyLedger(text);
  } catch (err) {
    verified = { status: 'invalid', error: { field: '', message: `the engine could not check it (${err.message})` } };
  }
  if (read.error) {
    return { status: 'invalid', error: read.error, summary: `invalid: ${read.error.field ? `${read.error.field}: ` : ''}${read.error.message}`,
      can_prove: verified.can_prove, cannot_prove: cannotProveText(verified.cannot_prove) };
  }
  if (verified.status === 'invalid') return { ...verified, cannot_prove: cannotProveText(verified.cannot_prove) };
  const { rows, notRecomputed } = rescore(read.ledger, verified, engine);

  // An edited setting makes every result computed from it differ too: the settings come first, and the
  // cause says so, so an instructor does not read the results as the edit (walk 4).
  const fields = [...verified.fields, ...rows].sort((a, b) => Number(SETTINGS_FIELD.test(b.field) && b.differs) - Number(SETTINGS_FIELD.test(a.field) && a.differs));
  const differing = fields.filter((f) => f.differs).map((f) => f.field);
  const status = differing.length ? 'differs' : 'ok';
  const versionDiffers = verified.engine_version.differs;
  let { summary, cause } = verified;
  const editedSettings = differing.filter((f) => SETTINGS_FIELD.test(f)).map((f) => (f.endsWith('act1') ? 'Act 1' : 'Act 2'));
  if (status === 'differs') {
    summary = `differs: ${differing.length} of ${fields.length} values (${differing.slice(0, 3).join(', ')}${differing.length > 3 ? ', …' : ''})`;
    if (editedSettings.length && !versionDiffers) {
      const more = differing.length > editedSettings.length ? '; the results re-computed from the lab state’s copy differ from those recorded with it' : '';
      cause = `the ${editedSettings.join(' and ')} settings were edited after export (the file’s two copies, knob_settings and the lab state, disagree)${more}`;
    }
    cause ||= versionDiffers
      ? `recorded with engine ${verified.engine_version.recorded}, re-computed with ${verified.engine_version.current}: the differences may come from the engine change rather than from editing`
      : 'same engine version: the differing values were edited after export (or the file was damaged)';
  } else {
    summary = `ok: all ${fields.length} recorded values re-computed identically${versionDiffers ? ` (recorded with engine ${verified.engine_version.recorded}, this is ${verified.engine_version.current})` : ''}`;
  }
  // The engine's own "not re-computed" entries that this check now re-scores are dropped.
  const rescored = new Set(rows.map((r) => r.field.replace(/\.[a-z_]+$/, '')));
  const engineSkips = (verified.not_recomputed || []).filter((n) => !(n.field === 'lab_state.acts.act2.reflection_fix' && rescored.has(n.field)));
  const cannotProve = cannotProveText(verified.cannot_prove);
  return { ...verified, status, summary, cause: status === 'differs' ? cause : null, checked: fields.length, differing: differing.length,
    differing_fields: differing, fields, not_recomputed: [...engineSkips, ...notRecomputed], cannot_prove: cannotProve,
    ledger: read.ledger, from: read.from };
}
