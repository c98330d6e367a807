// Act 1's framework switch (issue 13, item 6): the mapping of a configuration under "PyTorch
// defaults" to the engine's scenario (and the C++ mirror used by design-ledger verify), the optional
// config.framework (absent = textbook, old states still valid), the fw= URL parameter, and the view
// model's sum / peak / phase, all against the real engine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../../scripts/engine-node.mjs';
import {
  toScenario, normalizeConfig, frameworkOf, DEFAULT_CONFIG, OPTIMIZERS, PRECISIONS, PYTORCH_PRECISION,
} from '../../../web/src/state/scenario.js';
import { buildLedger, ledgerTableRows, sumPeak, sumPeakText, phaseWords, describeConfig, componentBytes, bannerFor, liveAtPeak } from '../../../web/src/models/ledger-model.js';
import { parseUrlState, serializeUrlState, CONTROL_KEYS } from '../../../web/src/state/url-state.js';
import { defaultState, validateState } from '../../../web/src/state/store.js';
import { autocastText, currentRatioText } from '../../../web/src/content/act1-text.js';
import { scenarioFacts } from '../../../web/src/format/sentences.js';
import { formatBytes, shownHundredths } from '../../../web/src/format/format.js';

const m = await loadEngine();
const evaluate = (s) => JSON.parse(m.evaluate(JSON.stringify(s)));
const ctx = { deviceIds: ['v100-sxm2-32gb', 'a100-sxm4-40gb', 'a100-sxm4-80gb', 'h100-sxm-80gb', 'rtx4090-24gb', 'rtx4060-laptop-8gb'], availableActs: [1] };
const results = (config) => Object.fromEntries(OPTIMIZERS.map((o) => [o, evaluate(toScenario(config, { optimizer: o }))]));

test('absent framework is the textbook layout: toScenario is unchanged and normalizeConfig keeps it absent', () => {
  assert.equal(frameworkOf(DEFAULT_CONFIG), 'textbook');
  assert.equal(normalizeConfig({}).framework, undefined);
  assert.equal(normalizeConfig({ framework: 'textbook' }).framework, undefined);
  assert.equal(normalizeConfig({ framework: 'keras' }).framework, undefined);
  assert.deepEqual(toScenario(normalizeConfig({ framework: 'textbook' })), toScenario(DEFAULT_CONFIG));
  assert.equal(toScenario(DEFAULT_CONFIG).framework, undefined);
});

test('PyTorch defaults map to the engine’s pytorch fields; mixed is autocast FP16; no checkpointing, no replay', () => {
  const c = normalizeConfig({ framework: 'pytorch', precision: 'mixed', checkpointing: 'every_k', every_k: 4, replay: true });
  assert.equal(c.checkpointing, 'none');
  assert.equal(c.replay, false);
  const s = toScenario(c);
  assert.deepEqual(s, {
    model: 'gpt2-xl', optimizer: 'adam', precision: 'autocast_fp16', batch_size: 1, checkpointing: 'none',
    device: 'h100-sxm-80gb', chapter_replay: false, framework: 'pytorch', activation_model: 'pytorch_eager',
    step: 'steady', zero_grad: 'set_to_none', optimizer_impl: 'foreach',
  });
  // toScenario alone (a hand-made config) also drops checkpointing and replay.
  const raw = toScenario({ ...DEFAULT_CONFIG, framework: 'pytorch', checkpointing: 'full', replay: true });
  assert.equal(raw.checkpointing, 'none');
  assert.equal(raw.chapter_replay, false);
  assert.equal(raw.device, 'h100-sxm-80gb');
  for (const p of PRECISIONS) {
    for (const opt of OPTIMIZERS) {
      const r = evaluate(toScenario({ ...c, precision: p, optimizer: opt }));
      assert.equal(r.error, undefined, `${p}/${opt}: ${JSON.stringify(r.error)}`);
      assert.equal(r.memory.framework, 'pytorch');
      assert.equal(r.scenario.precision, PYTORCH_PRECISION[p]);
      assert.equal(r.scenario.optimizer_impl, 'foreach');
    }
  }
});

test('the C++ mapping (design-ledger verify) resolves PyTorch defaults to the scenarios the page evaluates', async () => {
  const { loadLedgerEngine } = await import('../../wasm/ledger-engine.mjs');
  const { buildDesignLedger, validateLedger } = await import('../../../web/src/ledger/design-ledger.js');
  const engine = await loadLedgerEngine();
  for (const config of [
    normalizeConfig({ framework: 'pytorch' }),
    normalizeConfig({ framework: 'pytorch', precision: 'mixed', optimizer: 'sgd', batch_size: 32, device: 'custom', custom_capacity_gb: 24 }),
    normalizeConfig({ framework: 'pytorch', precision: 'bf16', optimizer: 'momentum', device: 'rtx4060-laptop-8gb' }),
    { ...DEFAULT_CONFIG, framework: 'textbook', precision: 'mixed' },
  ]) {
    const ledger = buildDesignLedger({ ...defaultState(), config }, engine);
    assert.deepEqual(validateLedger(ledger), []);
    const r = engine.verifyLedger(JSON.stringify(ledger));
    assert.equal(r.status, 'ok', `${JSON.stringify(config)}: ${r.summary}`);
    assert.deepEqual(r.scenarios.act1, evaluate(toScenario(config)).scenario, JSON.stringify(config));
  }
  // A hand-edited record with checkpointing and replay under pytorch: both ignored, as toScenario does.
  const edited = buildDesignLedger({ ...defaultState(), config: normalizeConfig({ framework: 'pytorch' }) }, engine);
  Object.assign(edited.lab_state.config, { checkpointing: 'full', replay: true });
  const r = engine.verifyLedger(JSON.stringify(edited));
  assert.deepEqual(r.scenarios.act1, evaluate(toScenario(edited.lab_state.config)).scenario);
});

test('old states and states with framework validate against schema version 2', () => {
  const s = defaultState();
  assert.equal(s.config.framework, undefined);
  assert.deepEqual(validateState(s), []);
  assert.deepEqual(validateState({ ...s, config: { ...s.config, framework: 'pytorch', hidden_components: ['autocast_cache'] } }), []);
  assert.deepEqual(validateState({ ...s, config: { ...s.config, framework: 'textbook' } }), []);
  assert.notDeepEqual(validateState({ ...s, config: { ...s.config, framework: 'jax' } }), []);
});

test('fw= in the URL: textbook / pytorch round-trip, bad values are reported, fw is a control key', () => {
  assert.ok(CONTROL_KEYS.includes('fw'));
  const c = normalizeConfig({ framework: 'pytorch', optimizer: 'sgd', precision: 'mixed' });
  const q = serializeUrlState({ act: 1, config: c });
  assert.match(q, /&fw=pytorch/);
  const back = parseUrlState(q, ctx);
  assert.deepEqual(back.errors, []);
  assert.deepEqual(normalizeConfig(back.config), c);
  assert.match(serializeUrlState({ act: 1, config: DEFAULT_CONFIG }), /&fw=textbook&off=$/);
  // fw=textbook overrides a stored pytorch framework (the merge in the store drops it).
  const t = parseUrlState('?fw=textbook', ctx);
  assert.equal(t.config.framework, 'textbook');
  assert.equal(normalizeConfig({ ...c, ...t.config }).framework, undefined);
  const bad = parseUrlState('?fw=PyTorch', ctx);
  assert.equal(bad.config.framework, undefined);
  assert.match(bad.errors[0].message, /^fw=PyTorch: not a framework \(use fw=textbook .* or fw=pytorch .*\); that setting was left as it was\.$/);
  const ck = parseUrlState('?fw=pytorch&ckpt=every&k=4&replay=1', ctx);
  assert.equal(ck.config.checkpointing, 'none');
  assert.equal(ck.config.replay, false);
  assert.deepEqual(ck.errors.map((e) => e.param).sort(), ['ckpt', 'replay']);
  assert.match(parseUrlState('?act=2&fw=pytorch', { ...ctx, availableActs: [1, 2] }).errors[0].message, /a setting of Act 1/);
  assert.deepEqual(parseUrlState('?hide=fw&lock=fw', ctx).hide, ['fw']);
});

test('phase words a student can read', () => {
  assert.equal(phaseWords('optimizer_step', 48), 'at the optimizer step');
  assert.equal(phaseWords('loss_backward', 48), 'at the start of the backward pass, when the loss’s gradient is computed');
  assert.equal(phaseWords('forward.layer.47.attention', 48), 'during the forward pass, in the attention of block 48 of 48');
  assert.equal(phaseWords('backward.layer.0', 48), 'during the backward pass, at block 1 of 48');
  assert.equal(phaseWords('forward_end', 48), 'at the end of the forward pass');
});

test('view model under PyTorch defaults: sum of components and peak side by side, no transient, the autocast cache as a part', () => {
  const config = normalizeConfig({ framework: 'pytorch', precision: 'mixed' });
  const rs = results(config);
  const ledger = buildLedger(rs, 'adam');
  assert.equal(ledger.framework, 'pytorch');
  assert.ok(ledger.present.includes('autocast_cache'));
  assert.ok(!ledger.present.includes('transient'));
  for (const col of ledger.columns) {
    const r = rs[col.optimizer].memory;
    assert.equal(componentBytes(rs[col.optimizer]).transient, 0);
    assert.equal(col.bytes.autocast_cache, r.components.autocast_weight_cache);
    assert.equal(col.sum_bytes, r.step_phases.sum_bytes);
    assert.equal(col.peak_bytes, r.step_phases.device_peak_bytes);
    assert.equal(col.peak_phase, r.step_phases.peak_phase);
    // The stack is the sum of the components.
    assert.equal(col.segments.at(-1).y1, r.total_bytes);
  }
  const rows = ledgerTableRows(ledger);
  assert.deepEqual(rows.slice(-4).map((x) => x.key), ['total', 'peak', 'phase', 'budget']);
  assert.equal(rows.find((x) => x.key === 'total').label, 'Sum of components');
  assert.equal(rows.find((x) => x.key === 'phase').values[2], phaseWords(rs.adam.memory.step_phases.peak_phase, 48));
  const sp = sumPeak(ledger);
  const sel = rs.adam.memory;
  assert.equal(sp.gap_bytes, sel.step_phases.sum_minus_peak_bytes);
  const text = sumPeakText(sp, 'gb');
  assert.ok(text.includes(formatBytes(sel.step_phases.sum_bytes, 'gb')) && text.includes(formatBytes(sel.peak_bytes, 'gb')), text);
  assert.ok(text.includes(phaseWords(sel.step_phases.peak_phase, 48)), text);
  assert.match(describeConfig(config), /autocast FP16.*PyTorch defaults/);
});

test('the weights row says which copy it is: 16-bit compute copy, FP32 parameters that are the master copy, or plain weights', () => {
  const weightsLabel = (cfg) => ledgerTableRows(buildLedger(results(normalizeConfig(cfg)), 'adam')).find((x) => x.key === 'weights').label;
  assert.equal(weightsLabel({ framework: 'pytorch', precision: 'mixed' }), 'Weights (FP32 parameters, also the master copy)');
  assert.equal(weightsLabel({ precision: 'mixed' }), 'Weights (16-bit compute copy)');
  assert.equal(weightsLabel({ precision: 'fp32' }), 'Weights');
  assert.equal(weightsLabel({ framework: 'pytorch', precision: 'fp32' }), 'Weights');
  // The chart's segment carries the same label as the table row.
  const seg = buildLedger(results(normalizeConfig({ framework: 'pytorch', precision: 'mixed' })), 'adam').columns[2].segments.find((x) => x.key === 'weights');
  assert.equal(seg.label, 'Weights (FP32 parameters, also the master copy)');
});

test('view model in the textbook layout: sum and peak are the same number, said once', () => {
  const rs = results(DEFAULT_CONFIG);
  const ledger = buildLedger(rs, 'adam');
  assert.equal(ledger.framework, 'textbook');
  const sp = sumPeak(ledger);
  assert.equal(sp.sum_bytes, rs.adam.memory.peak_bytes);
  assert.equal(sp.gap_bytes, 0);
  assert.equal(sp.peak_phase, null);
  assert.match(sumPeakText(sp, 'gb'), /^Textbook layout: .*the peak during a step is the sum of the components \(/);
  assert.deepEqual(ledgerTableRows(ledger).slice(-3).map((x) => x.key), ['total', 'peak', 'budget']);
});

test('the autocast note quotes one scenario family (PyTorch defaults) at the settings on screen', () => {
  const config = normalizeConfig({ framework: 'pytorch', optimizer: 'adam', batch_size: 8 });
  const acR = evaluate(toScenario(config, { precision: 'mixed' }));
  const fpR = evaluate(toScenario(config, { precision: 'fp32' }));
  const facts = (r) => ({ ...scenarioFacts(r), optimizerLabel: 'Adam(W)', batch: 8 });
  const lines = autocastText({ ac: facts(acR), fp: facts(fpR), acCache: acR.memory.components.autocast_weight_cache, acWhere: 'x', fpWhere: 'y' }, 'gb');
  assert.equal(lines.length, 2);
  assert.match(lines[0], /FP32 parameters are the master copy/);
  for (const b of [acR.memory.peak_bytes, fpR.memory.peak_bytes, acR.memory.components.autocast_weight_cache]) assert.ok(lines[1].includes(formatBytes(b, 'gb')), lines[1]);
  // Mixing a textbook result into the sentence is refused.
  const tb = evaluate(toScenario({ ...config, framework: 'textbook' }, { precision: 'mixed' }));
  assert.throws(() => autocastText({ ac: facts(tb), fp: facts(fpR), acCache: 0, acWhere: 'x', fpWhere: 'y' }, 'gb'), /one sentence, two scenarios/);
  assert.match(currentRatioText({ curFp32Total: 2e9, curMixedTotal: 1e9, curRatio: 2, curFp32Peak: 2.1e9, curMixedPeak: 1e9, curPeakRatio: 2.1 }, 'gb', { textbookOfPytorch: true }), /^Counted in the textbook layout, on the configuration/);
});

// Regression: out of memory under PyTorch defaults, the banner said "static memory … fits, leaving X;
// activations, logits and transients need Y more at the peak", counting gradients that are not live
// then. It now names what is live at the peak, and those terms add up to the peak it states.
test('PyTorch defaults out of memory: the banner lists what is live at the peak, adding up to the peak', () => {
  for (const [config, units] of [
    [{ ...DEFAULT_CONFIG, framework: 'pytorch', optimizer: 'adam', precision: 'mixed', batch_size: 32, device: 'v100-sxm2-32gb' }, 'gb'],
    [{ ...DEFAULT_CONFIG, framework: 'pytorch', optimizer: 'sgd', precision: 'fp32', batch_size: 8, device: 'rtx4090-24gb' }, 'gib'],
  ]) {
    const r = evaluate(toScenario(normalizeConfig(config)));
    const m = r.memory;
    assert.equal(m.binding.kind, 'activations', JSON.stringify(config));
    const terms = liveAtPeak(m);
    assert.equal(terms.reduce((a, t) => a + t.bytes, 0), m.peak_bytes);
    const atPeak = m.step_phases.timeline.reduce((b, e) => (e.bytes > b.bytes ? e : b));
    assert.equal(atPeak.phase, m.step_phases.peak_phase);
    const b = bannerFor(r, 'the device', units);
    assert.equal(b.state, 'oom');
    assert.ok(b.text.includes(phaseWords(m.step_phases.peak_phase, r.model.layers)), b.text);
    assert.ok(b.text.includes(formatBytes(m.peak_bytes, units)) && b.text.includes(formatBytes(m.usable_device_bytes, units)), b.text);
    assert.doesNotMatch(b.text, /leaving|need .* more/);
    if (atPeak.gradients === 0) assert.doesNotMatch(b.text, /gradients/);
  }
});

test('the gap between sum and peak says "about" when the two shown amounts do not subtract to it', () => {
  const base = { framework: 'pytorch', optimizer: 'adam', label: 'Adam', peak_phase: 'optimizer_step', peak_words: 'at the optimizer step' };
  // 77.094 - 72.505 = 4.589 → shown 77.09 - 72.51 = 4.58, but the gap rounds to 4.59.
  const odd = sumPeakText({ ...base, sum_bytes: 77.094e9, peak_bytes: 72.505e9, gap_bytes: 4.589e9 }, 'gb');
  assert.match(odd, /about 4\.59\sGB below the sum/);
  assert.equal(shownHundredths(77.094e9) - shownHundredths(72.505e9), 458);
  const even = sumPeakText({ ...base, sum_bytes: 77.09e9, peak_bytes: 72.5e9, gap_bytes: 4.59e9 }, 'gb');
  assert.match(even, /: 4\.59\sGB below the sum/);
});
