// Unit tests for web/src/state/workbench-url.js (through url-state.js, as the page reads a link): the
// workbench's choices survive serialize → parse, a custom model travels as spec fields, and each bad
// parameter is a message naming it while the rest still applies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseUrlState, serializeUrlState, useWorkbenchUrl } from '../../../web/src/state/url-state.js';
import * as workbenchUrl from '../../../web/src/state/workbench-url.js';
import { defaultScenario, customDevice } from '../../../web/src/state/workbench-run.js';
import { defaultState, validateState, withWorkbench, createStore } from '../../../web/src/state/store.js';

const { parseWorkbenchParams, serializeWorkbench } = workbenchUrl;
useWorkbenchUrl(workbenchUrl); // as boot.js and the workbench do

const deviceIds = ['v100-sxm2-32gb', 'h100-sxm-80gb', 'rtx4090-24gb', 't4-16gb'];
const modelIds = ['gpt2-small', 'gpt2-xl', 'llama-3-8b', 'tinyllama-1.1b'];
const ctx = { deviceIds, modelIds, availableActs: [1, 2, 'measure', 'workbench', 'ledger'] };
const LLAMA = { layers: 32, hidden: 4096, heads: 32, vocab: 32000, context: 4096, mlp_hidden: 11008, mlp: 'swiglu', norm: 'rmsnorm',
  biases: false, tied_head: false, learned_positions: false, name: 'Llama-2 7B' };
const params = (query) => new URLSearchParams(query);
const roundTrip = (workbench) => parseUrlState(serializeUrlState({ act: 'workbench', config: { units: 'gib' }, workbench }), ctx);

test('a custom model on a custom GPU with the textbook layout survives serialize → parse unchanged', () => {
  const scenario = { model: LLAMA, device: customDevice({ base: 'rtx4090-24gb', memory: 24, unit: 'gib', tflops16: 165.2, tflops32: 82.6, bandwidth: 1008 }),
    precision: 'mixed', optimizer: 'momentum', batch_size: 3, seq_len: 2048, checkpointing: { every_k_layers: 4 }, framework: 'textbook' };
  const back = roundTrip({ scenario, gpu_unit: 'gib' });
  assert.deepEqual(back.errors, []);
  assert.equal(back.act, 'workbench');
  assert.deepEqual(back.workbench, { scenario, gpu_unit: 'gib' });
  assert.equal(back.config.units, 'gib');
});

test('PyTorch counting with its knobs survives the round trip, and the link names spec fields, not JSON', () => {
  const scenario = { ...defaultScenario(), model: LLAMA, step: 'first', zero_grad: 'zero', optimizer_impl: 'fused', pytorch_implementation: 'hf_llama', autocast_scope: 'step' };
  const query = serializeWorkbench({ scenario, gpu_unit: 'gb' });
  assert.match(query, /model=custom&layers=32&hidden=4096&heads=32&vocab=32000&context=4096&mlp_hidden=11008&mlp=swiglu&norm=rmsnorm/);
  assert.doesNotMatch(query, /[{}]|%7B/);
  assert.ok(query.length < 600, `${query.length} characters`);
  const back = parseUrlState(query, ctx);
  assert.deepEqual(back.errors, []);
  assert.deepEqual(back.workbench.scenario, scenario);
});

test('before the workbench’s URL module has loaded, a workbench address is ?act=workbench and its parameters wait', () => {
  useWorkbenchUrl(null);
  try {
    assert.equal(serializeUrlState({ act: 'workbench', config: { units: 'gb' }, workbench: null, hide: ['opt'] }), '?act=workbench&hide=opt');
    const r = parseUrlState('?act=workbench&model=gpt2-xl', ctx);
    assert.deepEqual([r.workbench, r.errors, r.hasConfig], [null, [], false]);
  } finally { useWorkbenchUrl(workbenchUrl); }
});

test('the default workbench link is short and readable', () => {
  assert.equal(serializeWorkbench(null), '?act=workbench&model=gpt2-small&gpu=rtx4090-24gb&prec=autocast_bf16&opt=adam&batch=8&seq=1024&ckpt=none&count=pytorch&units=gb');
});

test('a link with no workbench parameter changes nothing; a partial one applies over the stored choices', () => {
  assert.equal(parseWorkbenchParams(params('units=gb'), ctx).workbench, null);
  const current = { scenario: { ...defaultScenario(), batch_size: 2 }, gpu_unit: 'gb' };
  const r = parseWorkbenchParams(params('model=llama-3-8b&gpu=t4-16gb'), { ...ctx, current });
  assert.deepEqual(r.errors, []);
  assert.equal(r.workbench.scenario.model, 'llama-3-8b');
  assert.equal(r.workbench.scenario.device, 't4-16gb');
  assert.equal(r.workbench.scenario.batch_size, 2);
});

test('each bad parameter is named with its reason and ignored; the good ones still apply', () => {
  const r = parseUrlState('?act=workbench&model=gpt5&gpu=custom&mem=-3&prec=fp8&batch=0&seq=1e9&ckpt=some&opt=lion&count=tensorflow&step=last&layers=3&k=2', ctx);
  const named = r.errors.map((e) => e.param).sort();
  // gpu=custom itself is fine: its memory is what is wrong.
  assert.deepEqual(named, ['batch', 'ckpt', 'count', 'k', 'layers', 'mem', 'model', 'opt', 'prec', 'seq', 'step']);
  for (const e of r.errors) assert.match(e.message, new RegExp(`^${e.param}=`));
  assert.match(r.errors.find((e) => e.param === 'layers').message, /only applies with model=custom/);
  assert.deepEqual(r.workbench.scenario, { ...defaultScenario(), step: 'steady', zero_grad: 'set_to_none', optimizer_impl: 'foreach', autocast_scope: 'forward' });
});

test('a custom model missing a required field is refused as a whole, naming what it lacks', () => {
  const r = parseUrlState('?act=workbench&model=custom&layers=2&hidden=64&heads=4', ctx);
  assert.match(r.errors[0].message, /^model=custom: a custom model needs vocab and context/);
  assert.equal(r.workbench.scenario.model, defaultScenario().model);
});

test('checkpointing with PyTorch counting is reported and turned off; the chapter’s mixed becomes autocast there', () => {
  const r = parseUrlState('?act=workbench&count=pytorch&ckpt=full', ctx);
  assert.equal(r.workbench.scenario.checkpointing, 'none');
  assert.match(r.errors.find((e) => e.param === 'ckpt').message, /not available when memory is counted as PyTorch allocates it/);
  const m = parseUrlState('?act=workbench&count=pytorch&prec=mixed', ctx);
  assert.equal(m.workbench.scenario.precision, 'autocast_bf16');
  assert.match(m.errors[0].message, /^prec=mixed: not used with count=pytorch/);
});

test('Act 1 and Act 2 settings in a workbench link are reported, not applied; hostile values are cut and made visible', () => {
  const r = parseUrlState(`?act=workbench&replay=1&workers=4&dev=v100-sxm2-32gb&model=${'\u202e'}${'x'.repeat(100)}`, ctx);
  assert.deepEqual(r.errors.map((e) => e.param).sort(), ['dev', 'model', 'replay', 'workers']);
  const m = r.errors.find((e) => e.param === 'model').message;
  assert.match(m, /\[U\+202E\]/);
  assert.match(m, /100 characters|101 characters/);
});

test('the stored choices pass the lab-state schema, and a malformed one does not', () => {
  const s = withWorkbench(defaultState(), { scenario: { ...defaultScenario(), model: LLAMA }, gpu_unit: 'gib' });
  assert.deepEqual(validateState(s), []);
  assert.deepEqual(validateState(withWorkbench(defaultState(), { scenario: null })), []);
  assert.notDeepEqual(validateState({ ...s, workbench: { scenario: { ...s.workbench.scenario, batch_size: 0 } } }), []);
  assert.notDeepEqual(validateState({ ...s, workbench: { scenario: { ...s.workbench.scenario, precision: 'fp8' } } }), []);
});

test('the workbench’s choices are settings: “Reset my answers” keeps them, as it keeps the acts’ settings', () => {
  const store = createStore();
  store.update((s) => withWorkbench(s, { scenario: { ...defaultScenario(), batch_size: 3 }, gpu_unit: 'gib' }));
  store.reset();
  assert.deepEqual(store.getState().workbench, { scenario: { ...defaultScenario(), batch_size: 3 }, gpu_unit: 'gib' });
  const fresh = createStore();
  fresh.reset();
  assert.equal('workbench' in fresh.getState(), false);
  assert.deepEqual(validateState(fresh.getState()), []);
});
