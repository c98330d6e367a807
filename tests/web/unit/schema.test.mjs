// Unit tests for the lab-state schema and the small validator that checks it (web/src/schema/).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { validate } from '../../../web/src/state/schema/validate.js';
import { defaultState, withAct1 } from '../../../web/src/state/store.js';

const schema = JSON.parse(readFileSync(new URL('../../../web/src/state/schema/lab-state.schema.json', import.meta.url), 'utf8'));

test('the schema is versioned and names the lab', () => {
  assert.equal(schema.properties.schema_version.const, 2);
  assert.equal(schema.properties.lab_id.const, 'lab08-model-train');
  assert.match(schema.$id, /v2$/);
});

test('a finished Act 1 validates', () => {
  let s = withAct1(defaultState(), {
    prediction: { choice: 'a', predicted_bytes: 0, truth_bytes: 12460889600, error_ratio: null, direction: 'zero', answered_at: 'now' },
    revealed: true,
    reflection: { ratio_choice: 'b', reason_choice: 'c', ratio_correct: true, reason_correct: true, engine_ratio: 1.575, attempts: 2, answered_at: 'now' },
    completed: true,
  });
  assert.deepEqual(validate(schema, s), []);
  s = { ...s, config: { ...s.config, hidden_components: ['activations', 'adam_v'] } };
  assert.deepEqual(validate(schema, s), []);
});

test('the validator reports type, enum, range, pattern, required, extra and oneOf failures with paths', () => {
  const bad = structuredClone(defaultState());
  bad.config.batch_size = 3;
  bad.config.every_k = 0;
  bad.config.device = 'Not A Device!';
  bad.config.replay = 'yes';
  delete bad.config.units;
  bad.extra = 1;
  bad.acts.act1.prediction = { choice: 'e' };
  const errors = validate(schema, bad);
  const text = errors.join('\n');
  assert.match(text, /\$\.config\.batch_size: must be one of/);
  assert.match(text, /\$\.config\.every_k: must be ≥ 1/);
  assert.match(text, /\$\.config\.device: must match/);
  assert.match(text, /\$\.config\.replay: must be of type boolean/);
  assert.match(text, /\$\.config: missing required 'units'/);
  assert.match(text, /\$: unexpected property 'extra'/);
  assert.match(text, /\$\.acts\.act1\.prediction: must match exactly one alternative/);
});

test('integers and numbers are told apart', () => {
  assert.deepEqual(validate({ type: 'integer' }, 3), []);
  assert.equal(validate({ type: 'integer' }, 3.5).length, 1);
  assert.equal(validate({ type: 'number' }, NaN).length, 1);
  assert.deepEqual(validate({ type: ['number', 'null'] }, null), []);
  assert.deepEqual(validate({ type: 'array', items: { enum: [1] } }, [1, 1]), []);
  assert.equal(validate({ type: 'array', items: { enum: [1] } }, [1, 2]).length, 1);
});

// The design ledger's schema (web/src/state/schema/design-ledger.schema.json) embeds the lab state's.
const ledgerSchema = JSON.parse(readFileSync(new URL('../../../web/src/state/schema/design-ledger.schema.json', import.meta.url), 'utf8'));

test('the design-ledger schema is versioned and requires the course’s common fields and the plan’s fields', () => {
  assert.equal(ledgerSchema.properties.ledger_schema_version.const, 2);
  assert.match(ledgerSchema.$id, /design-ledger\/v2$/);
  const common = ['lab_id', 'predictions', 'knob_settings', 'binding_constraints', 'decisions', 'reflections', 'result_snapshot', 'timestamp', 'ledger_schema_version'];
  const plan = ['chapter', 'optimizer_chosen', 'precision_chosen', 'gradient_checkpointing', 'final_mfu_pct', 'baseline_mfu_estimate_pct',
    'laptop_fit_achieved', 'laptop_minimum_memory_gb', 'laptop_floor_derivation'];
  for (const k of [...common, ...plan, 'engine_version', 'lab_state']) assert.ok(ledgerSchema.required.includes(k), k);
  assert.equal(ledgerSchema.additionalProperties, false);
});

test('the design-ledger schema carries the lab state by reference, and the settings by pointer into it', () => {
  assert.deepEqual(ledgerSchema.properties.lab_state, { $ref: 'lab-state.schema.json' });
  assert.equal(ledgerSchema.properties.knob_settings.properties.act1.$ref, 'lab-state.schema.json#/properties/config');
  const text = JSON.stringify(ledgerSchema);
  for (const key of text.matchAll(/"([a-zA-Z]+)":/g)) {
    // only keywords validate.js checks (plus annotations), so the page and the tests read it the same way
    if (['$schema', '$id', 'title', 'description', 'type', 'const', 'enum', 'pattern', 'minimum', 'maximum', 'maxLength', 'properties',
      'required', 'additionalProperties', 'items', 'maxItems', 'oneOf', '$ref'].includes(key[1])) continue;
    assert.ok(/^[a-z0-9_]+$/.test(key[1]), `unsupported schema keyword ${key[1]}`);
  }
});

// Issue 24: `schema.properties[key]` found Object.prototype's members, so a key named like one
// passed. Every object inside the lab state and the ledger's knob_settings gets each such key (an
// own property, as JSON.parse makes it): refused where the schema allows no extra keys, named.
const BUILT_IN_NAMES = ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__', 'isPrototypeOf', '__defineGetter__'];
const withOwnKey = (obj, key) => Object.defineProperty(obj, key, { value: 1, enumerable: true, writable: true, configurable: true });
// Every path to an object in `value` (arrays' items too), with the schema node that governs it.
function objectPaths(node, value, path, out) {
  if (!node || value === null || typeof value !== 'object') return out;
  if (node.oneOf) node = node.oneOf.find((alt) => alt.type === (Array.isArray(value) ? 'array' : 'object')) || node;
  if (Array.isArray(value)) { value.forEach((v, i) => objectPaths(node.items, v, [...path, i], out)); return out; }
  out.push({ path, closed: node.additionalProperties === false });
  for (const [k, v] of Object.entries(value)) objectPaths(node.properties && Object.hasOwn(node.properties, k) ? node.properties[k] : null, v, [...path, k], out);
  return out;
}
const at = (root, path) => path.reduce((o, k) => o[k], root);

test('keys named like built-in object members are refused at every level of the lab state and knob settings', async () => {
  const { LEDGER_SCHEMA } = await import('../../../web/src/ledger/design-ledger.js');
  const { readLedger } = await import('../../../web/src/ledger/ledger-check.js');
  const ledger = JSON.parse(readFileSync(new URL('../../fixtures/ledger/valid-complete.json', import.meta.url), 'utf8'));
  assert.deepEqual(validate(LEDGER_SCHEMA, ledger), []);
  const paths = [...objectPaths(LEDGER_SCHEMA.properties.lab_state, ledger.lab_state, ['lab_state'], []),
    ...objectPaths(LEDGER_SCHEMA.properties.knob_settings, ledger.knob_settings, ['knob_settings'], [])];
  assert.ok(paths.length >= 20, `${paths.length} objects`);
  let refused = 0;
  for (const { path, closed } of paths) {
    for (const key of BUILT_IN_NAMES) {
      const l = structuredClone(ledger);
      withOwnKey(at(l, path), key);
      const where = `$.${path.join('.').replace(/\.(\d+)(?=\.|$)/g, '[$1]')}`;
      const errors = validate(LEDGER_SCHEMA, l);
      if (closed) {
        // Inside a oneOf (null or a record) the validator says no alternative matched; the page's and
        // labctl's reader (readLedger) then names the key itself.
        assert.equal(errors.length, 1, `${where}.${key}: ${errors}`);
        const [errWhere, errText] = errors[0].split(': ');
        assert.ok(errors[0] === `${where}: unexpected property '${key}'`
          || (where.startsWith(errWhere) && errText === 'must match exactly one alternative (matched 0)'), errors[0]);
        const read = readLedger(JSON.stringify(l));
        assert.equal(read.error && read.error.field, `${path.join('.').replace(/\.(\d+)(?=\.|$)/g, '[$1]')}.${key}`, `${where}.${key}`);
        assert.match(read.error.message, /is not part of a design ledger/);
        refused += 1;
      } else assert.deepEqual(errors, [], `${where} allows any key (${key})`);
    }
  }
  assert.ok(refused >= 20 * BUILT_IN_NAMES.length);
  // Through JSON text, as a file arrives: JSON.parse makes "__proto__" an own key.
  const text = JSON.stringify(ledger).replace('"acts":{', '"acts":{"__proto__":{"completed":true},');
  assert.match(validate(LEDGER_SCHEMA, JSON.parse(text)).join('\n'), /\$\.lab_state\.acts: unexpected property '__proto__'/);
});

test('a required key is found only as an own property, never inherited', () => {
  const s = structuredClone(defaultState());
  const proto = { units: 'gb' };
  const config = Object.create(proto);
  Object.assign(config, s.config);
  delete config.units;
  s.config = config;
  assert.match(validate(schema, s).join('\n'), /\$\.config: missing required 'units'/);
  const nulls = Object.assign(Object.create(null), structuredClone(defaultState()).config);
  assert.deepEqual(validate(schema, { ...structuredClone(defaultState()), config: nulls }), []);
});
