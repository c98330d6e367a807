// The Math Peek's lines against the real engine: a single term is never shown as a sum that equals
// itself ("momentum 3.12 GB = 3.12 GB", walkthrough finding F9), and the one-vector product holds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../../scripts/engine-node.mjs';
import { toScenario, normalizeConfig, OPTIMIZERS, PRECISIONS } from '../../../web/src/state/scenario.js';
import { peekLines } from '../../../web/src/models/peek-model.js';
import { formatBytes, formatInt } from '../../../web/src/format/format.js';

const mod = await loadEngine();
const evaluate = (s) => JSON.parse(mod.evaluate(JSON.stringify(s)));

// "<anything> X = X": a line whose formula ends in the very amount it equals.
const echoes = (l) => l.op && l.formula.trim().endsWith(l.value);

test('no Math Peek line shows one term "= the same term", for any optimizer, precision or units', () => {
  for (const units of ['gb', 'gib']) {
    for (const precision of PRECISIONS) {
      for (const optimizer of OPTIMIZERS) {
        for (const extra of [{}, { replay: true, batch_size: 32 }]) {
          const r = evaluate(toScenario(normalizeConfig({ units, precision, optimizer, ...extra })));
          for (const l of peekLines(r, units)) assert.ok(!echoes(l), `${units} ${precision} ${optimizer} ${JSON.stringify(extra)} ${l.key}: ${l.formula} ${l.op} ${l.value}`);
        }
      }
    }
  }
});

test('Momentum’s one vector is shown as the product N × 4 B, equal to the engine’s optimizer state', () => {
  const r = evaluate(toScenario(normalizeConfig({ optimizer: 'momentum' })));
  const l = peekLines(r, 'gb').find((x) => x.key === 'optimizer');
  const N = r.memory.parameters_counted;
  assert.equal(l.formula, `N × O, O = momentum 4 B (FP32) per parameter: ${formatInt(N)} × 4 B`);
  assert.equal(l.op, '=');
  assert.equal(l.value, formatBytes(r.memory.components.optimizer_state));
  assert.equal(N * 4, r.memory.components.optimizer_state);
});

test('a logits-only extra line (Chapter replay has no reserve) reads "logits = X" when there is one term', () => {
  for (const cfg of [{}, { replay: true, batch_size: 32 }, { precision: 'mixed' }]) {
    const r = evaluate(toScenario(normalizeConfig(cfg)));
    const l = peekLines(r, 'gb').find((x) => x.key === 'extra');
    if (!l) continue;
    const terms = l.formula.split(' + ');
    if (terms.length === 1) assert.ok(!/\d/.test(l.formula), `${JSON.stringify(cfg)}: ${l.formula}`);
  }
});

// Chapter replay's activations line names the chapter's 65 GB for every scheme and k, and the share the
// engine kept: every k layers follows 1 − s·(1 − (k + L/k)/L) (4× at k = 4), selective/full the physics ratio.
test('Chapter replay: the activations line starts from the chapter’s 65.00 GB and names the engine’s kept share', () => {
  const cases = [['none', 4], ['every_k', 4], ['every_k', 1], ['every_k', 7], ['every_k', 48], ['selective', 4], ['full', 4]];
  for (const [checkpointing, every_k] of cases) {
    const r = evaluate(toScenario(normalizeConfig({ replay: true, batch_size: 32, precision: 'mixed', checkpointing, every_k })));
    const l = peekLines(r, 'gb').find((x) => x.key === 'activations');
    assert.match(l.formula, /^the chapter’s 65\.00\sGB \(FP32, batch 32\)/, `${checkpointing} ${every_k}: ${l.formula}`);
    const share = r.memory.activations_detail.chapter_kept_share;
    if (checkpointing === 'every_k') {
      const s = r.memory.activations_detail.chapter_saving_scale;
      assert.ok(Math.abs(s - 1.125) < 1e-12, String(s));
      assert.ok(Math.abs(share - Math.max(1 / 48, Math.min(1, 1 - s * (1 - (every_k + 48 / every_k) / 48)))) < 1e-12, `${every_k}: ${share}`);
      assert.ok(l.formula.includes(`× kept share ${share.toFixed(3)} (1 − s·(1 − (k + L/k)/L), at most 1, with k = ${every_k}, L = 48, s = 1.125`), l.formula);
    }
    if (checkpointing === 'none') assert.equal(share, 1);
    assert.equal(Math.round(65e9 * 0.5 * share), r.memory.components.activations, `${checkpointing} ${every_k}`);
  }
});
