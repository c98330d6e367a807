// Unit tests for web/src/state/url-state.js: round trips, instructor flags, and bad parameters that become
// messages without losing the rest of the state.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseUrlState, serializeUrlState, CONTROL_KEYS, openControls, withFlags, actOf } from '../../../web/src/state/url-state.js';
import { DEFAULT_CONFIG, normalizeConfig } from '../../../web/src/state/scenario.js';

const deviceIds = ['v100-sxm2-32gb', 'a100-sxm4-40gb', 'a100-sxm4-80gb', 'h100-sxm-80gb', 'rtx4090-24gb', 'rtx4060-laptop-8gb'];
const ctx = { deviceIds, availableActs: [1] };

test('a full configuration survives serialize → parse unchanged', () => {
  const config = normalizeConfig({ optimizer: 'momentum', precision: 'mixed', batch_size: 32, checkpointing: 'every_k', every_k: 6, device: 'custom', custom_capacity_gb: 40.5, units: 'gib', replay: true, hidden_components: ['logits', 'reserve'] });
  const query = serializeUrlState({ act: 1, config, hide: ['ckpt'], lock: ['prec', 'dev'] });
  const back = parseUrlState(query, ctx);
  assert.deepEqual(back.errors, []);
  assert.equal(back.act, 1);
  assert.deepEqual(normalizeConfig(back.config), config);
  assert.deepEqual(back.hide, ['ckpt']);
  assert.deepEqual(back.lock, ['prec', 'dev']);
});

test('the documented example URL parses to the expected knobs', () => {
  const r = parseUrlState('?act=1&opt=adam&prec=fp32&batch=8&ckpt=none&dev=h100-sxm-80gb&units=gb&replay=0', ctx);
  assert.deepEqual(r.errors, []);
  assert.deepEqual(r.config, { optimizer: 'adam', precision: 'fp32', batch_size: 8, checkpointing: 'none', device: 'h100-sxm-80gb', units: 'gb', replay: false });
  assert.equal(r.hasConfig, true);
});

test('the default configuration serializes to a short, readable query', () => {
  // off= is written even when empty, so a shared link also shows what the receiver had hidden.
  assert.equal(serializeUrlState({ config: DEFAULT_CONFIG }), '?act=1&opt=adam&prec=fp32&batch=1&ckpt=none&dev=h100-sxm-80gb&units=gb&replay=0&fw=textbook&off=');
});

test('an empty query sets nothing and reports nothing', () => {
  const r = parseUrlState('', ctx);
  assert.deepEqual(r.config, {});
  assert.deepEqual(r.errors, []);
  assert.equal(r.hasConfig, false);
  assert.equal(r.act, null);
});

test('each bad parameter becomes a message, and the good ones still apply', () => {
  const r = parseUrlState('?opt=lion&prec=fp8&batch=banana&ckpt=sometimes&k=0&dev=tpu-v9&cap=-3&units=kb&replay=yes&prec2=x&batch2=1&opt2=sgd&dev2=x&units2=x&replay2=x&off=weights,bogus&hide=dev,wings&lock=prec', ctx);
  const params = r.errors.map((e) => e.param).sort();
  assert.deepEqual(params, ['batch', 'cap', 'ckpt', 'dev', 'hide', 'k', 'off', 'opt', 'prec', 'replay', 'units']);
  for (const e of r.errors) assert.ok(e.message.length > 20, e.message);
  assert.match(r.errors.find((e) => e.param === 'opt').message, /opt=lion: not an optimizer \(use sgd, momentum or adam\); that setting was left as it was\./);
  assert.match(parseUrlState('?units=mb').errors[0].message, /^units=mb: units must be gb or gib; /);
  assert.deepEqual(r.config, { hidden_components: ['weights'] });
  assert.deepEqual(r.hide, ['dev']);
  assert.deepEqual(r.lock, ['prec']);
});

test('batch sizes outside the slider and fractional values are rejected', () => {
  for (const b of ['0', '3', '1.5', '256', '-8', '', '1e3']) {
    const r = parseUrlState(`?batch=${b}`, ctx);
    assert.equal(r.config.batch_size, undefined, b);
    assert.equal(r.errors.length, 1, b);
  }
});

test('an act that does not exist yet falls back to the first one with a message', () => {
  const r = parseUrlState('?act=2', ctx);
  assert.equal(r.act, null);
  assert.match(r.errors[0].message, /Act 2 is not available yet/);
  assert.match(parseUrlState('?act=zz', ctx).errors[0].message, /not a part of this lab/);
});

test('hostile text in a parameter stays text in the message', () => {
  const r = parseUrlState(`?opt=${encodeURIComponent('<img src=x onerror=alert(1)>')}`, ctx);
  assert.match(r.errors[0].message, /^opt=<img src=x onerror=alert\(1\)>: /);
});

test('invisible characters in a value are shown by their code, so a direction mark cannot reverse the notice', () => {
  // U+202E (right-to-left override) would show "…ko 8" reversed; U+200B (zero width) would hide.
  const r = parseUrlState('?batch=%E2%80%AE8%20ok&opt=%E2%80%AEmada&prec=fp%E2%80%8B32');
  const text = r.errors.map((e) => e.message).join(' ');
  assert.match(text, /batch=\[U\+202E\]8 ok: /);
  assert.match(text, /opt=\[U\+202E\]mada: /);
  assert.match(text, /prec=fp\[U\+200B\]32: /);
  assert.doesNotMatch(text, /[\u202e\u200b]/);
  assert.equal(r.errors.length, 3);
});

test('every control key is accepted by hide and lock', () => {
  const r = parseUrlState(`?hide=${CONTROL_KEYS.join(',')}&lock=${CONTROL_KEYS.join(',')}`, ctx);
  assert.deepEqual(r.hide, CONTROL_KEYS);
  assert.deepEqual(r.lock, CONTROL_KEYS);
  assert.deepEqual(r.errors, []);
});

test('URLSearchParams objects are accepted as input', () => {
  const r = parseUrlState(new URLSearchParams({ opt: 'sgd' }), ctx);
  assert.equal(r.config.optimizer, 'sgd');
});

test('the "Measure it" panel is reached with act=measure; numbered acts still parse as numbers', () => {
  const withPanel = { deviceIds, availableActs: [1, 'measure'] };
  assert.equal(parseUrlState('?act=measure', withPanel).act, 'measure');
  assert.equal(parseUrlState('?act=1', withPanel).act, 1);
  assert.match(parseUrlState('?act=measure', ctx).errors[0].message, /not a part of this lab/);
  assert.match(parseUrlState('?act=4', withPanel).errors[0].message, /^act=4: not a part of this lab; it can be 1 or measure, so the lab opens where you were last \(Act 1 the first time\)\.$/);
  assert.match(parseUrlState('?act=MEASURE', withPanel).errors[0].message, /^act=MEASURE: not a part of this lab \(did you mean act=measure\?\)/);
  assert.match(serializeUrlState({ act: 'measure', config: DEFAULT_CONFIG }), /^\?act=measure&opt=adam/);
});

// ---- Act 2 and ambiguous links
import { DEFAULT_CONFIG2, normalizeConfig2 } from '../../../web/src/state/scenario.js';
const ctx2 = { deviceIds, availableActs: [1, 2, 'measure'] };

test('an Act 2 configuration survives serialize → parse unchanged', () => {
  const config2 = normalizeConfig2({ precision: 'fp32', batch_size: 128, checkpointing: 'every_k', every_k: 7, device: 'a100-sxm4-80gb', data_workers: 12, prefetch: true, prefetch_depth: 5, pinned_memory: true, replay: false });
  const query = serializeUrlState({ act: 2, config: { ...DEFAULT_CONFIG, units: 'gib' }, config2, lock: ['workers'] });
  const back = parseUrlState(query, ctx2);
  assert.deepEqual(back.errors, []);
  assert.equal(back.act, 2);
  assert.deepEqual(normalizeConfig2(back.config2), config2);
  assert.equal(back.config.units, 'gib');
  assert.deepEqual(back.lock, ['workers']);
});

test('the default Act 2 configuration serializes to the chapter baseline', () => {
  assert.equal(serializeUrlState({ act: 2, config: DEFAULT_CONFIG, config2: DEFAULT_CONFIG2 }),
    '?act=2&prec=mixed&batch=32&ckpt=every&k=4&dev=v100-sxm2-32gb&workers=0&prefetch=0&pin=0&replay=1&units=gb');
});

test('a repeated parameter is reported and none of its values is used', () => {
  const r = parseUrlState('?batch=8&batch=16&opt=sgd', ctx);
  assert.equal(r.config.batch_size, undefined);
  assert.equal(r.config.optimizer, 'sgd');
  assert.equal(r.errors.length, 1);
  assert.match(r.errors[0].message, /batch is given 2 different values \(batch=8, batch=16\); none of them was used/);
});

test('a parameter that only means something beside another is reported when it stands alone', () => {
  const r = parseUrlState('?ckpt=none&k=4&cap=12', ctx);
  assert.deepEqual(r.errors.map((e) => e.param).sort(), ['cap', 'k']);
  assert.equal(r.config.every_k, undefined);
  const r2 = parseUrlState('?act=2&prefetch=0&depth=3', ctx2);
  assert.deepEqual(r2.errors.map((e) => e.param), ['depth']);
  assert.equal(r2.config2.prefetch, false);
});

test('a setting of the other act is reported, not applied', () => {
  const r = parseUrlState('?act=1&workers=8', ctx2);
  assert.deepEqual(r.errors.map((e) => e.param), ['workers']);
  assert.deepEqual(r.config2, {});
  const r2 = parseUrlState('?act=2&opt=sgd&batch=8', ctx2);
  assert.deepEqual(r2.errors.map((e) => e.param).sort(), ['batch', 'opt']);
  assert.match(r2.errors.find((e) => e.param === 'batch').message, /16, 32, 64, 128, 256/);
});

test('Act 2 bad values each become a message and keep the knob', () => {
  const r = parseUrlState('?act=2&workers=99&prefetch=yes&pin=2&dev=rtx4060-laptop-8gb&prec=fp16', ctx2);
  assert.deepEqual(r.errors.map((e) => e.param).sort(), ['dev', 'pin', 'prec', 'prefetch', 'workers']);
  assert.deepEqual(r.config2, {});
});

test('a very long value is cut in the message, and a capitalised known name is reported', () => {
  const r = parseUrlState(`?act=2&workers=${'9'.repeat(5000)}&Pin=1&foo=1`, ctx2);
  const w = r.errors.find((e) => e.param === 'workers');
  assert.ok(w.message.length < 300, w.message.length);
  assert.match(w.message, /… \(5000 characters\)/);
  assert.match(r.errors.find((e) => e.param === 'Pin').message, /did you mean pin\?/);
  assert.equal(r.errors.some((e) => e.param === 'foo'), false, 'unknown names (an LMS’s own) are ignored');
  assert.equal(r.config2.pinned_memory, undefined);
});

test('the same value repeated is one setting', () => {
  const r = parseUrlState('?batch=8&batch=8', ctx);
  assert.deepEqual(r.errors, []);
  assert.equal(r.config.batch_size, 8);
});

// Walk finding MINOR-1: k and depth were judged against the link alone, so with stored settings that
// already had ckpt=every and prefetch on they were dropped silently, and out-of-range values got the
// wrong reason.
test('Act 2 k and depth are judged against the stored checkpointing and prefetch when the link does not set them', () => {
  const stored = { config2: normalizeConfig2({ checkpointing: 'every_k', every_k: 4, prefetch: true, prefetch_depth: 2 }) };
  const r = parseUrlState('?act=2&k=8&depth=4', { ...ctx2, current: stored });
  assert.deepEqual(r.errors, []);
  assert.equal(r.config2.every_k, 8);
  assert.equal(r.config2.prefetch_depth, 4);
  const off = { config2: normalizeConfig2({ checkpointing: 'full', prefetch: false }) };
  const r2 = parseUrlState('?act=2&k=8&depth=4', { ...ctx2, current: off });
  assert.deepEqual(r2.errors.map((e) => e.param).sort(), ['depth', 'k']);
  assert.match(r2.errors.find((e) => e.param === 'k').message, /only applies with ckpt=every/);
  assert.match(r2.errors.find((e) => e.param === 'depth').message, /only applies with prefetch=1/);
  assert.equal(r2.config2.every_k, undefined);
  // The link's own ckpt/prefetch win over the stored ones, both ways.
  const r3 = parseUrlState('?act=2&ckpt=none&k=8&prefetch=0&depth=4', { ...ctx2, current: stored });
  assert.deepEqual(r3.errors.map((e) => e.param).sort(), ['depth', 'k']);
  const r4 = parseUrlState('?act=2&ckpt=every&k=8&prefetch=1&depth=4', { ...ctx2, current: off });
  assert.deepEqual(r4.errors, []);
  assert.equal(r4.config2.every_k, 8);
  // Without a stored state the value is kept for when it applies (never silently lost).
  const r5 = parseUrlState('?act=2&k=8&depth=4', ctx2);
  assert.deepEqual(r5.errors, []);
  assert.equal(r5.config2.every_k, 8);
});

test('Act 2 out-of-range k and depth name the range, whatever the other knob says', () => {
  const stored = { config2: normalizeConfig2({ checkpointing: 'every_k', prefetch: true }) };
  for (const v of ['49', '0', '-3', '1e308', '4.5', 'NaN']) {
    for (const current of [stored, null]) {
      const r = parseUrlState(`?act=2&k=${v}`, { ...ctx2, current });
      assert.equal(r.errors.length, 1, v);
      assert.match(r.errors[0].message, /whole number of layers from 1 to 48; that setting was left as it was\./, v);
      assert.equal(r.config2.every_k, undefined);
    }
  }
  for (const v of ['9', '0', '-1', '1e308']) {
    const r = parseUrlState(`?act=2&ckpt=none&depth=${v}`, { ...ctx2, current: stored });
    assert.deepEqual(r.errors.map((e) => e.param), ['depth']);
    assert.match(r.errors[0].message, /whole number of batches from 1 to 8/, v);
  }
});

// Regressions from a student walk: a shared link without off= left the receiver's hidden components
// hidden; replay=1 over a stored PyTorch mode was dropped without a word.
test('an empty off= un-hides every component, and a stored PyTorch mode is named when it turns replay off', () => {
  const ctx = { deviceIds: ['h100-sxm-80gb', 'v100-sxm2-32gb'], availableActs: [1, 2] };
  assert.deepEqual(parseUrlState('?act=1&off=', ctx).config.hidden_components, []);
  const stored = { config: { ...DEFAULT_CONFIG, framework: 'pytorch' } };
  const r = parseUrlState('?act=1&replay=1&dev=h100-sxm-80gb', { ...ctx, current: stored });
  assert.equal(r.config.replay, false);
  assert.match(r.errors.find((e) => e.param === 'replay').message, /^replay=1: Chapter replay uses the textbook layout, but your saved settings use PyTorch defaults \(add fw=textbook/);
  // With fw=textbook in the link, the stored mode does not matter.
  assert.equal(parseUrlState('?act=1&replay=1&fw=textbook', { ...ctx, current: stored }).config.replay, true);
  assert.equal(parseUrlState('?act=1&replay=1', { ...ctx, current: { config: DEFAULT_CONFIG } }).errors.length, 0);
});

test('openControls: what an instructor has neither locked nor hidden', () => {
  const keys = ['opt', 'prec', 'comp'];
  assert.deepEqual(openControls(keys, { hide: [], lock: [] }), keys);
  assert.deepEqual(openControls(keys, { hide: ['comp'], lock: ['opt'] }), ['prec']);
  assert.deepEqual(openControls(keys, { hide: ['opt', 'comp'], lock: ['prec', 'units'] }), []);
});

test('links to another part of the lab carry the instructor’s hide and lock lists (walk 8)', () => {
  const flags = { hide: ['opt'], lock: ['workers', 'pin'] };
  assert.equal(withFlags('?act=1', flags), '?act=1&hide=opt&lock=workers,pin');
  assert.equal(withFlags('?act=ledger', { hide: [], lock: ['dev'] }), '?act=ledger&lock=dev');
  assert.equal(withFlags('?act=2&workers=8&prefetch=1', flags), '?act=2&workers=8&prefetch=1&hide=opt&lock=workers,pin');
  // A link with its own lists keeps them; nothing to carry, or not a link to a part of the lab: unchanged.
  assert.equal(withFlags('?act=2&lock=dev', flags), '?act=2&lock=dev');
  assert.equal(withFlags('?act=2', { hide: [], lock: [] }), '?act=2');
  assert.equal(withFlags('?batch=8', flags), '?batch=8');
  assert.equal(withFlags('https://example.org/?act=1', flags), 'https://example.org/?act=1');
  assert.equal(withFlags('#section', flags), '#section');
  // What it writes parses back to the same lists.
  const back = parseUrlState(withFlags('?act=1', flags), { deviceIds: ['v100-sxm2-32gb'] });
  assert.deepEqual([back.hide, back.lock], [flags.hide, flags.lock]);
});

test('actOf: the part of the lab an address names, for Back and Forward', () => {
  const acts = [1, 2, 'measure', 'ledger'];
  assert.equal(actOf('?act=2&opt=sgd&hide=ckpt', acts), 2);
  assert.equal(actOf('?act=1', acts), 1);
  assert.equal(actOf('?opt=sgd&act=ledger', acts), 'ledger');
  assert.equal(actOf('?act=measure', acts), 'measure');
  assert.equal(actOf('', acts), null, 'no act named');
  assert.equal(actOf('?act=3', acts), null, 'not a part of this lab');
  assert.equal(actOf('?act=1&act=2', acts), null, 'named twice');
  assert.equal(actOf('?act=02', acts), null, 'not written as the lab writes it');
  assert.equal(actOf('?act=ledger', [1, 2]), null, 'not available here');
});
