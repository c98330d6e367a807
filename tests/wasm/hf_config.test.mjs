// A Hugging Face config.json as the model, through the WASM facade: released checkpoints' configs give
// their published counts, and hostile configs get an error naming the field while the module keeps
// answering (never an abort).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadEngine } from '../../scripts/engine-node.mjs';

const engine = await loadEngine();
const evaluate = (x) => JSON.parse(engine.evaluate(typeof x === 'string' ? x : JSON.stringify(x)));
const solve = (x) => JSON.parse(engine.solve(JSON.stringify(x)));
const configs = JSON.parse(readFileSync(new URL('../fixtures/hf/configs.json', import.meta.url), 'utf8'));
const config = (name) => structuredClone(configs.find((c) => c.name === name).config);
const hf = (cfg, extra = {}) => ({ model: { hf_config: cfg }, ...extra });

test('every released config evaluates to its published parameter count, under both frameworks', () => {
  assert.ok(configs.length >= 10);
  for (const c of configs) {
    for (const framework of ['textbook', 'pytorch']) {
      const r = evaluate(hf(c.config, { framework }));
      assert.equal(r.error, undefined, `${c.name}: ${JSON.stringify(r.error)}`);
      assert.equal(r.model.parameters, c.published_parameters, c.name);
      assert.equal(r.model.family, c.config.model_type, c.name);
    }
  }
});

test('the model block carries the widths, notes and a spec that parses back to the same model', () => {
  const r = evaluate(hf(config('gemma-2-2b'), { framework: 'pytorch', precision: 'autocast_bf16' }));
  assert.equal(r.model.heads, 8);
  assert.equal(r.model.kv_heads, 4);
  assert.equal(r.model.head_dim, 256);
  assert.equal(r.model.vocab, 256000);
  assert.equal(r.model.mlp_hidden, 9216);
  assert.equal(r.model.spec.mlp, 'geglu');
  assert.equal(r.model.spec.norms_per_layer, 4);
  assert.ok(r.model.notes.some((n) => /sliding window/i.test(n)), r.model.notes.join(' | '));
  assert.ok(r.model.notes.some((n) => /soft-capping/i.test(n)), r.model.notes.join(' | '));
  const again = evaluate({ model: r.model.spec, framework: 'pytorch', precision: 'autocast_bf16' });
  assert.equal(again.model.parameters, r.model.parameters);
  assert.equal(again.memory.peak_bytes, r.memory.peak_bytes);
});

test('solve takes an hf_config too', () => {
  const r = solve(hf(config('tinyllama-1.1b'), { device: 'rtx4090-24gb' }));
  assert.equal(r.error, undefined, JSON.stringify(r.error));
});

const llama = config('llama-3-8b');
const deep = (n) => '['.repeat(n) + ']'.repeat(n);
const hostile = [
  ['a string, not an object', hf('{"model_type": "llama"}'), 'model.hf_config'],
  ['an array', hf([llama]), 'model.hf_config'],
  ['null', hf(null), 'model.hf_config'],
  ['Mixture-of-Experts (Mixtral)', hf({ ...llama, model_type: 'mixtral', num_local_experts: 8 }), 'model.hf_config.num_local_experts'],
  ['Mixture-of-Experts (Qwen2-MoE)', hf({ ...llama, num_experts: 60 }), 'model.hf_config.num_experts'],
  ['an unknown model_type', hf({ ...llama, model_type: 'mamba' }), 'model.hf_config.model_type'],
  ['no model_type', hf({ hidden_size: 4096 }), 'model.hf_config.model_type'],
  ['a missing size', hf({ model_type: 'llama', hidden_size: 4096 }), 'model.hf_config.num_hidden_layers'],
  ['a negative size', hf({ ...llama, intermediate_size: -1 }), 'model.hf_config.intermediate_size'],
  ['a size as a string', hf({ ...llama, vocab_size: '128256' }), 'model.hf_config.vocab_size'],
  ['a NaN-like string', hf({ ...llama, hidden_size: 'NaN' }), 'model.hf_config.hidden_size'],
  ['a fractional size', hf({ ...llama, num_attention_heads: 32.5 }), 'model.hf_config.num_attention_heads'],
  ['a huge int', hf({ ...llama, num_hidden_layers: 2 ** 62 }), 'model.hf_config.num_hidden_layers'],
  ['kv heads not dividing heads', hf({ ...llama, num_key_value_heads: 7 }), 'model.hf_config.num_key_value_heads'],
  ['absurd vocab', hf({ ...llama, vocab_size: 1e15 }), 'model.hf_config.vocab_size'],
  ['a 10 MB config', hf({ ...llama, padding: 'x'.repeat(10 * 1024 * 1024) }), 'model.hf_config'],
  ['another field beside hf_config', { model: { hf_config: llama, heads: 4 } }, 'model.heads'],
];

for (const [name, request, field] of hostile) {
  test(`hostile config: ${name} -> an error naming ${field}`, () => {
    const r = evaluate(request);
    assert.ok(r.error, JSON.stringify(r).slice(0, 200));
    assert.equal(r.error.field, field);
    assert.ok(r.error.message.length > 10 && r.error.message.length < 400, r.error.message);
  });
}

test('hostile text: deep nesting, 1e400, NaN, not JSON -> an error, and the module still answers', () => {
  const texts = [
    `{"model": {"hf_config": ${deep(100000)}}}`,
    `{"model": {"hf_config": {"model_type": "llama", "hidden_size": 1e400}}}`,
    `{"model": {"hf_config": {"model_type": "llama", "hidden_size": NaN}}}`,
    `{"model": {"hf_config": {"model_type": "llama",`,
    `{"model": {"hf_config": {"model_type": "llama", "model_type": "gpt2"}}}`,
  ];
  for (const t of texts) {
    const r = evaluate(t);
    assert.ok(r.error && r.error.message.length > 10, t.slice(0, 80));
  }
  assert.equal(evaluate(hf(llama)).model.parameters, 8030261248);
});
