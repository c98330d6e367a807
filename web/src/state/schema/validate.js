// A small JSON Schema checker for the subset lab-state.schema.json uses (type, const, enum, pattern,
// minimum/maximum, maxLength, properties/required/additionalProperties, items, maxItems, oneOf). Pure; no code generation,
// so it runs under the page's strict CSP (general validators compile schemas with `new Function`).

const typeOk = (t, v) => {
  switch (t) {
    case 'null': return v === null;
    case 'boolean': return typeof v === 'boolean';
    case 'integer': return Number.isInteger(v);
    case 'number': return typeof v === 'number' && Number.isFinite(v);
    case 'string': return typeof v === 'string';
    case 'array': return Array.isArray(v);
    case 'object': return v !== null && typeof v === 'object' && !Array.isArray(v);
    default: return false;
  }
};

// Own properties only: a key named like a built-in ("constructor", "toString", "__proto__") must not
// find Object.prototype's member, in the schema or in the value (issue 24).
const own = (obj, key) => Object.prototype.hasOwnProperty.call(obj, key);
const ownValue = (obj, key) => (obj && own(obj, key) ? obj[key] : undefined);

// Returns a list of "path: message" strings; empty when value conforms.
export function validate(schema, value, path = '$') {
  const errors = [];
  const fail = (msg) => errors.push(`${path}: ${msg}`);
  if (own(schema, 'const') && value !== schema.const) fail(`must be ${JSON.stringify(schema.const)}`);
  if (schema.enum && !schema.enum.includes(value)) fail(`must be one of ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}`);
  if (schema.type) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((t) => typeOk(t, value))) { fail(`must be of type ${types.join(' or ')}`); return errors; }
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) fail(`must be ≥ ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) fail(`must be ≤ ${schema.maximum}`);
  }
  if (typeof value === 'string' && schema.pattern && !new RegExp(schema.pattern, 'u').test(value)) {
    fail(`must match ${schema.pattern}`);
  }
  if (typeof value === 'string' && schema.maxLength !== undefined && value.length > schema.maxLength) {
    fail(`must be at most ${schema.maxLength} characters`);
  }
  if (Array.isArray(value) && schema.maxItems !== undefined && value.length > schema.maxItems) {
    fail(`must have at most ${schema.maxItems} items`);
  }
  if (schema.oneOf) {
    const passing = schema.oneOf.filter((s) => validate(s, value, path).length === 0).length;
    if (passing !== 1) fail(`must match exactly one alternative (matched ${passing})`);
  }
  if (typeOk('object', value) && (schema.properties || schema.required)) {
    for (const key of schema.required || []) if (!own(value, key)) fail(`missing required '${key}'`);
    for (const [key, v] of Object.entries(value)) {
      const sub = ownValue(schema.properties, key);
      if (sub) errors.push(...validate(sub, v, `${path}.${key}`));
      else if (schema.additionalProperties === false) fail(`unexpected property '${key}'`);
    }
  }
  if (Array.isArray(value) && schema.items) {
    value.forEach((item, i) => errors.push(...validate(schema.items, item, `${path}[${i}]`)));
  }
  return errors;
}
