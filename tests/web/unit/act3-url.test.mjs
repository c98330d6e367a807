// Act 3's URL state: its knobs survive serialize → parse, each bad value is named and leaves the
// knob as it was, the other acts' knobs are reported in an Act 3 link and Act 3's in theirs, and the
// hide/lock flags know Act 3's controls. Act 2's laptop challenge links into Act 3 with its settings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseUrlState, serializeUrlState, useAct3Url } from '../../../web/src/state/url-state.js';
import * as act3Url from '../../../web/src/state/act3-url.js';
import { DEFAULT_CONFIG } from '../../../web/src/state/scenario.js';
import { DEFAULT_CONFIG3, normalizeConfig3 } from '../../../web/src/state/act3-config.js';
import { act3Link } from '../../../web/src/acts/act2-laptop.js';

useAct3Url(act3Url); // as boot.js does for a link to Act 3, and Act 3 when it mounts
const ctx = { deviceIds: ['h100-sxm-80gb', 'rtx4060-laptop-8gb'], availableActs: [1, 2, 3, 'measure'] };

test('an Act 3 configuration survives serialize → parse unchanged', () => {
  const config3 = normalizeConfig3({ gpus: 64, strategy: 'pp', interconnect: 'infiniband-ndr', batch_size: 4, device: 'h100-sxm-80gb',
    precision: 'fp32', optimizer: 'sgd', checkpointing: 'every_k', every_k: 6 });
  const q = serializeUrlState({ act: 3, config: DEFAULT_CONFIG, config3 });
  assert.match(q, /^\?act=3&gpus=64&strategy=pp&net=infiniband-ndr&batch=4&dev=h100-sxm-80gb&prec=fp32&opt=sgd&ckpt=every&k=6&units=gb$/);
  const back = parseUrlState(q, ctx);
  assert.deepEqual(back.errors, []);
  assert.equal(back.act, 3);
  assert.deepEqual(normalizeConfig3(back.config3), config3);
});

test('each bad Act 3 value is named, and that knob keeps its value', () => {
  const r = parseUrlState('?act=3&gpus=3&strategy=magic&net=carrier-pigeon&batch=64&prec=fp16', ctx);
  assert.deepEqual(r.errors.map((e) => e.param).sort(), ['batch', 'gpus', 'net', 'prec', 'strategy']);
  assert.match(r.errors.find((e) => e.param === 'gpus').message, /^gpus=3: the number of GPUs must be a power of two from 1 to 1024/);
  assert.match(r.errors.find((e) => e.param === 'net').message, /not an interconnect \(use .*ethernet-10g.*\)/);
  assert.deepEqual(r.config3, {});
  for (const bad of ['1e308', 'NaN', '-8', '08x', '<script>']) assert.equal(parseUrlState(`?act=3&gpus=${encodeURIComponent(bad)}`, ctx).errors[0].param, 'gpus', bad);
});

test('the other acts\' knobs are reported in an Act 3 link, and Act 3\'s in theirs', () => {
  const r = parseUrlState('?act=3&workers=4&replay=1&fw=pytorch', ctx);
  assert.deepEqual(r.errors.map((e) => e.param).sort(), ['fw', 'replay', 'workers']);
  assert.match(parseUrlState('?act=2&gpus=8', ctx).errors[0].message, /a setting of Act 3/);
  assert.match(parseUrlState('?act=1&strategy=zero3', ctx).errors[0].message, /a setting of Act 3/);
});

test('the instructor flags name Act 3\'s controls', () => {
  const r = parseUrlState('?act=3&hide=net&lock=gpus,strategy', ctx);
  assert.deepEqual([r.hide, r.lock, r.errors], [['net'], ['gpus', 'strategy'], []]);
  assert.match(serializeUrlState({ act: 3, config: DEFAULT_CONFIG, config3: DEFAULT_CONFIG3, lock: ['gpus'] }), /&lock=gpus$/);
});

test('Act 2\'s laptop challenge links into Act 3 with its settings, which Act 3 reads without an error', () => {
  const q = act3Link({ precision: 'mixed', optimizer: 'sgd', checkpointing: 'every_k', every_k: 4, batch_size: 2 });
  const r = parseUrlState(q, ctx);
  assert.deepEqual(r.errors, []);
  assert.deepEqual(r.config3, { precision: 'mixed', optimizer: 'sgd', checkpointing: 'every_k', every_k: 4, batch_size: 2, device: 'rtx4060-laptop-8gb' });
  assert.equal(parseUrlState(act3Link({ precision: 'fp16', optimizer: 'adam', checkpointing: 'none', batch_size: 1 }), ctx).config3.precision, undefined,
    'pure 16-bit cannot train, so it is not carried');
});
