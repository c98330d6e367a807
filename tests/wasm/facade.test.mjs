// Node tests of the built WASM module through the JSON facade: reference values, and bad input of
// every kind answered with a structured error while the module keeps working.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../scripts/engine-node.mjs';

const engine = await loadEngine();
const evaluate = (x) => JSON.parse(engine.evaluate(typeof x === 'string' ? x : JSON.stringify(x)));
const good = { model: 'gpt2-xl', precision: 'fp32', optimizer: 'adam', batch_size: 1 };

test('evaluate reproduces the GPT-2 XL reference values through WASM', () => {
  const r = evaluate(good);
  assert.equal(r.model.parameters, 1557611200);
  assert.equal(r.memory.static_bytes, 24921779200);
  assert.equal(r.flops.model_per_token, 10279555200);
  const sgd = evaluate({ ...good, optimizer: 'sgd' });
  assert.equal(r.memory.static_bytes - sgd.memory.static_bytes, 12460889600);
  const mixed = evaluate({ model: 'gpt2-xl', precision: 'mixed', checkpointing: 'selective' });
  assert.equal(mixed.memory.components.activations, 2673868800);
});

test('chapter replay reproduces 89.0 -> 56.5 -> 32.125 GB through WASM', () => {
  const base = { chapter_replay: true, batch_size: 32, optimizer: 'adam' };
  assert.equal(evaluate({ ...base, precision: 'fp32' }).memory.total_bytes, 89e9);
  assert.equal(evaluate({ ...base, precision: 'mixed' }).memory.total_bytes, 56.5e9);
  const ck = evaluate({ ...base, precision: 'mixed', checkpointing: { every_k_layers: 4 } });
  assert.equal(ck.memory.total_bytes, 32.125e9);
  assert.equal(ck.memory.fits, true);
});

const bad = [
  ['malformed JSON', '{"model": "gpt2-xl",', ''],
  ['NaN literal', '{"batch_size": NaN}', ''],
  ['not an object', '[1,2,3]', ''],
  ['empty text', '', ''],
  ['negative batch', { batch_size: -4 }, 'batch_size'],
  ['zero batch', { batch_size: 0 }, 'batch_size'],
  ['fractional batch', { batch_size: 2.5 }, 'batch_size'],
  ['absurd batch', { batch_size: 1e30 }, 'batch_size'],
  ['string batch', { batch_size: '32' }, 'batch_size'],
  ['huge seq_len', { seq_len: 99999999 }, 'seq_len'],
  ['unknown model', { model: 'gpt-7' }, 'model'],
  ['unknown device', { device: 'tpu-v9' }, 'device'],
  ['wrong precision type', { precision: 16 }, 'precision'],
  ['unknown precision', { precision: 'fp8' }, 'precision'],
  ['unknown field', { batchsize: 4 }, 'batchsize'],
  ['bad checkpointing k', { checkpointing: { every_k_layers: 0 } }, 'checkpointing.every_k_layers'],
  ['custom model heads mismatch', { model: { layers: 2, hidden: 10, heads: 3, vocab: 5, context: 8 } }, 'model.heads'],
  ['custom model missing field', { model: { layers: 2, hidden: 8 } }, 'model.heads'],
  ['custom device negative capacity', { device: { base: 'h100-sxm-80gb', capacity_bytes: -1 } }, 'device.capacity_bytes'],
  ['efficiency above 1', { efficiency: 1.5 }, 'efficiency'],
  ['huge custom model overflows', { model: { layers: 1000, hidden: 131072, heads: 1024, vocab: 10000000, context: 1048576 }, seq_len: 1048576, batch_size: 65536 }, 'scenario'],
];

for (const [name, input, field] of bad) {
  test(`bad input (${name}) gives a structured error naming '${field}', and the module keeps working`, () => {
    const r = evaluate(input);
    assert.ok(r.error, `expected an error, got ${JSON.stringify(r).slice(0, 200)}`);
    assert.equal(r.error.field, field);
    assert.ok(r.error.message.length > 10);
    assert.equal(evaluate(good).memory.static_bytes, 24921779200);
  });
}

// Issue 24: the JSON boundary through the built module (core/facade/json_parse.cpp).
test('through WASM: byte positions, a NUL kept in the message, duplicate keys named, the size limit', () => {
  assert.equal(evaluate('').error.message, 'malformed JSON at byte 0 of 0: the request is empty');
  assert.match(evaluate('{"model": "gpt2-xl",').error.message, /^malformed JSON at byte 20 of 20: .*unexpected end of input/);
  assert.match(evaluate('{"model": "\\ud800"}').error.message, /^malformed JSON at byte \d+ of 19: .*surrogate/);
  const nul = evaluate('{"model": "gpt2\\u0000tail"}').error;
  assert.equal(nul.field, 'model');
  assert.ok(nul.message.includes('gpt2\u0000tail'), JSON.stringify(nul.message));
  const dup = evaluate('{"model": {"layers": 2, "layers": 3}}').error;
  assert.deepEqual([dup.field, dup.message], ['model.layers', "duplicate key 'layers': each key may appear once in an object"]);
  const big = `{"a":"${'x'.repeat(1 << 24)}"}`;
  assert.equal(evaluate(big).error.message, `request too large: ${big.length} bytes; a request is at most 16 MiB (16777216 bytes)`);
  assert.equal(evaluate(good).model.parameters, 1557611200, 'the module keeps answering');
});
