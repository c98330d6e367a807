// Unit tests for the workbench's DOM-free model and run modules (web/src/state/workbench-model.js,
// workbench-run.js), against the real WASM engine: the editor offers the fields the engine reads,
// every preset's spec fills it and gives the same exact parameter count, a pasted config is read
// with a clear message for each kind of bad input, and every scenario normalizeRun makes is accepted.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../../scripts/engine-node.mjs';
import {
  MODEL_FIELDS, supportedFields, specOf, modelFromFields, followDerived, readConfigText, modelFromConfig, modelErrorText, presetGroups, parametersText, MAX_CONFIG_BYTES, CONFIG_LIMIT_WORDS,
} from '../../../web/src/state/workbench-model.js';
import { normalizeRun, defaultScenario, PRECISIONS, COUNTINGS, customDevice, customValues, runErrorText } from '../../../web/src/state/workbench-run.js';

let evaluate;
let catalog;
before(async () => {
  const e = await loadEngine();
  evaluate = (s) => JSON.parse(e.evaluate(JSON.stringify(s)));
  catalog = JSON.parse(e.catalog());
});

test('the editor offers every field the engine reads, and each preset’s spec gives the preset’s exact parameter count', () => {
  const base = specOf(evaluate, catalog.models[0].id);
  const { fields } = supportedFields(evaluate, base);
  const keys = fields.map((f) => f.key);
  for (const k of ['layers', 'hidden', 'heads', 'vocab', 'context', 'mlp_hidden', 'mlp', 'norm', 'tied_head', 'learned_positions']) assert.ok(keys.includes(k), k);
  // The `biases` shorthand, or (where the engine reads them) the per-projection biases that override it.
  assert.ok(keys.includes('biases') !== keys.includes('qkv_bias'), keys.join(' '));
  for (const m of catalog.models) {
    const spec = specOf(evaluate, m.id);
    const values = Object.fromEntries(fields.map((f) => [f.key, f.kind === 'bool' ? spec[f.key] : String(spec[f.key] ?? '')]));
    const { model } = modelFromFields(fields, values);
    const r = evaluate({ model });
    assert.equal(r.model.parameters, m.parameters, m.id);
    assert.equal(parametersText(r.model.parameters), `${m.parameters.toLocaleString('en-US')} parameters`);
  }
});

test('every field of every preset’s spec is one the editor and the link know, so a shared link loses nothing', () => {
  const known = new Set([...MODEL_FIELDS.map((f) => f.key), 'name']);
  for (const m of catalog.models) {
    const spec = specOf(evaluate, m.id);
    assert.deepEqual(Object.keys(spec).filter((k) => !known.has(k)), [], m.id);
  }
});

test('a field that is not a whole number is named before the engine is asked; a bad size is named by the engine', () => {
  const base = specOf(evaluate, 'gpt2-small');
  const { fields } = supportedFields(evaluate, base);
  const values = Object.fromEntries(fields.map((f) => [f.key, f.kind === 'bool' ? base[f.key] : String(base[f.key] ?? '')]));
  const made = modelFromFields(fields, { ...values, layers: '-3' });
  assert.equal(made.error.field, 'model.layers');
  assert.equal(modelErrorText(made.error), 'Layers: must be a whole number (got “-3”).');
  const r = evaluate({ model: modelFromFields(fields, { ...values, layers: '5000' }).model });
  assert.equal(r.error.field, 'model.layers');
  assert.match(modelErrorText(r.error), /^Layers: must be an integer from 1 to 1000 \(got 5000\)\.$/);
  const heads = evaluate({ model: modelFromFields(fields, { ...values, heads: '7' }).model });
  // Today's engine: hidden must be divisible by heads; with key/value heads, they must divide heads.
  assert.match(modelErrorText(heads.error), /^(Attention heads: .*divisible|Key\/value heads: .*must divide heads \(7\))/);
});

test('head size and key/value heads follow an edit of hidden or heads until they are set on their own', () => {
  const prev = { hidden: 768, heads: 12, head_dim: 64, kv_heads: 12 };
  assert.deepEqual(followDerived(prev, { hidden: '1024', heads: '16', head_dim: '64', kv_heads: '12' }), { hidden: '1024', heads: '16', head_dim: '', kv_heads: '16' });
  assert.deepEqual(followDerived(prev, { hidden: '768', heads: '12', head_dim: '128', kv_heads: '4' }), { hidden: '768', heads: '12', head_dim: '128', kv_heads: '4' });
  const gqa = { hidden: 4096, heads: 32, head_dim: 256, kv_heads: 8 }; // set on their own: they stay
  assert.deepEqual(followDerived(gqa, { hidden: '2048', heads: '32', head_dim: '256', kv_heads: '8' }), { hidden: '2048', heads: '32', head_dim: '256', kv_heads: '8' });
  const fields = [{ key: 'hidden', kind: 'int', min: 1, max: 9 }, { key: 'head_dim', kind: 'int', min: 1, max: 9, optional: true }];
  assert.deepEqual(modelFromFields(fields, { hidden: '8', head_dim: '' }), { model: { hidden: 8 } });
});

test('pasted text: too large, empty, not JSON and not an object each get their own message; a model object is read as one', () => {
  assert.match(readConfigText('x'.repeat(10 * 1024 * 1024)).error, /^This text is 10\.49\sMB, over 256\sKiB \(262,144\sbytes\): a model’s config\.json is a few kB/);
  assert.ok(readConfigText('{}'.padEnd(MAX_CONFIG_BYTES, ' ')).config);
  assert.ok(readConfigText('{}'.padEnd(MAX_CONFIG_BYTES + 1, ' ')).error);
  assert.match(readConfigText('  ').error, /empty/);
  assert.match(readConfigText('{"hidden_size": 4096,').error, /^This is not valid JSON \(/);
  assert.match(readConfigText('[1, 2]').error, /not a list/);
  assert.match(readConfigText('42').error, /not a number/);
  const llama = { layers: 32, hidden: 4096, heads: 32, vocab: 32000, context: 4096, mlp_hidden: 11008, mlp: 'swiglu', norm: 'rmsnorm', biases: false, tied_head: false, learned_positions: false };
  const read = readConfigText(JSON.stringify(llama));
  assert.deepEqual(modelFromConfig(read.config), llama);
  assert.equal(evaluate({ model: modelFromConfig(read.config) }).model.parameters, 6738415616);
  assert.deepEqual(Object.keys(modelFromConfig({ model_type: 'llama', num_hidden_layers: 2 })), ['hf_config']);
  assert.deepEqual(Object.keys(modelFromConfig({ n_layer: 12, n_embd: 768 })), ['hf_config']); // an old GPT-2 config without model_type
});

test('the engine’s errors read as words: a config’s key is named as the config names it', () => {
  assert.equal(modelErrorText({ field: 'model.hf_config.num_key_value_heads', message: 'must divide num_attention_heads (32)' }),
    'In your config, “num_key_value_heads”: must divide num_attention_heads (32).');
  assert.equal(modelErrorText({ field: 'model.hf_config', message: "unknown field 'hf_config'; known fields: base" }),
    'This version of the lab’s engine cannot read config.json files yet; paste the lab’s own model object, or edit the fields.');
  assert.equal(runErrorText({ field: 'seq_len', message: 'must be an integer from 1 to 1024 (got 5000)' }), 'Sequence length: must be an integer from 1 to 1024 (got 5000).');
});

test('presets are grouped by family in catalogue order', () => {
  const groups = presetGroups([{ id: 'a', name: 'A', family: 'GPT-2' }, { id: 'b', name: 'B', family: 'Llama' }, { id: 'c', name: 'C', family: 'GPT-2' }]);
  assert.deepEqual(groups.map((g) => [g.family, g.models.map((m) => m.id)]), [['GPT-2', ['a', 'c']], ['Llama', ['b']]]);
  assert.equal(presetGroups(catalog.models).reduce((n, g) => n + g.models.length, 0), catalog.models.length);
});

test('every precision under either way of counting, normalized, is a scenario the engine accepts', () => {
  for (const framework of COUNTINGS) {
    for (const precision of PRECISIONS) {
      for (const checkpointing of ['none', 'full', { every_k_layers: 3 }]) {
        const { scenario } = normalizeRun({ ...defaultScenario(), framework, precision, checkpointing, step: 'first' });
        const r = evaluate(scenario);
        assert.equal(r.error, undefined, `${framework} ${precision} ${JSON.stringify(checkpointing)}: ${JSON.stringify(r.error)}`);
      }
    }
  }
});

test('the newer PyTorch knobs are kept only where the engine reads them, with PyTorch counting, and autocast’s scope only with autocast', () => {
  const both = ['pytorch_implementation', 'autocast_scope'];
  const asked = { ...defaultScenario(), pytorch_implementation: 'from_scratch', autocast_scope: 'step' };
  assert.deepEqual(normalizeRun(asked, both).scenario, { ...asked, step: 'steady', zero_grad: 'set_to_none', optimizer_impl: 'foreach' });
  assert.equal(normalizeRun({ ...asked, precision: 'fp32' }, both).scenario.autocast_scope, undefined);
  const older = normalizeRun(asked, []).scenario;
  assert.equal('pytorch_implementation' in older || 'autocast_scope' in older, false);
  const textbook = normalizeRun({ ...asked, framework: 'textbook', checkpointing: 'full' }, both);
  assert.deepEqual(Object.keys(textbook.scenario).filter((k) => ['step', 'zero_grad', 'optimizer_impl', ...both].includes(k)), []);
  assert.deepEqual([textbook.scenario.precision, textbook.scenario.checkpointing], ['mixed', 'full']);
  assert.deepEqual(textbook.changed, ['autocast is PyTorch counting’s, so the chapter’s mixed precision is used']);
});

test('a custom GPU keeps its memory in the unit typed (GB = 1e9 B, GiB = 2^30 B) and the engine uses those bytes', () => {
  const d = customDevice({ base: 'rtx4090-24gb', memory: 16, unit: 'gib', tflops16: 65, tflops32: 8.1, bandwidth: 320 });
  assert.equal(d.capacity_bytes, 16 * 2 ** 30);
  assert.deepEqual(customValues(d, 'gib'), { memory: 16, tflops16: 65, tflops32: 8.1, bandwidth: 320 });
  assert.equal(customValues(d, 'gb').memory, 17.18);
  const r = evaluate({ ...defaultScenario(), device: d });
  assert.equal(r.error, undefined);
  assert.equal(r.scenario.device.capacity_bytes, 16 * 2 ** 30);
  assert.equal(r.memory.usable_device_bytes, 16 * 2 ** 30);
});

test('the page refuses a config over the engine’s limit, in the engine’s words (labctl and the page agree)', () => {
  assert.equal(MAX_CONFIG_BYTES, 256 * 1024);
  // A config whose one string is just over the limit: the engine refuses it, and so does the page.
  const config = { model_type: 'llama', pad: 'x'.repeat(MAX_CONFIG_BYTES) };
  const e = evaluate({ model: { hf_config: config } });
  assert.equal(e.error.field, 'model.hf_config');
  assert.equal(e.error.message.replace(/'/g, '’'), `is ${CONFIG_LIMIT_WORDS}`);
  assert.ok(readConfigText(JSON.stringify(config)).error.includes(CONFIG_LIMIT_WORDS));
  // A 300 KB text (accepted by the page before, refused by labctl) is refused.
  assert.ok(readConfigText(JSON.stringify({ model_type: 'llama', pad: 'x'.repeat(300000) })).error);
});
