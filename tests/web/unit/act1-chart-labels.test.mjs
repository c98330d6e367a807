// The ledger chart's label fitting, DOM-free (walkthrough findings F2, F3, F9): peak labels that would
// not fit their column become bare amounts with a key line, key lines wrap without splitting "all
// parts", segment names shorten consistently (W, G, M) before they drop, and the batch slider says
// "1 sequence".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { peakLabelPlan, segmentLabelText, wrapKey } from '../../../web/src/charts/ledger-chart.js';
import { batchValueText } from '../../../web/src/ui/controls.js';
import { formatAmount, formatBytes } from '../../../web/src/format/format.js';

const PEAKS = [148.41e9, 154.64e9, 160.87e9];

test('wide columns with room get "X GB peak"; with parts hidden a key line says the peaks count them', () => {
  const plain = peakLabelPlan(PEAKS, { wide: true, roomPx: 160 });
  assert.deepEqual(plain.texts, PEAKS.map((b) => `${formatBytes(b)} peak`));
  assert.deepEqual(plain.key, []);
  assert.equal(plain.bare, false);
  const hidden = peakLabelPlan(PEAKS, { wide: true, hidden: true, roomPx: 160 });
  assert.deepEqual(hidden.texts, plain.texts);
  assert.equal(hidden.key.length, 1);
  assert.match(hidden.key[0], /hidden ones too/);
  // No peak label ever carries "(all parts)" itself: that is what ran labels together at 1280 px.
  assert.ok(hidden.texts.every((t) => !t.includes('all parts')));
});

test('a label that would not fit its column turns every label into a bare amount, named by the key', () => {
  // The first column is squeezed by the axis: its room is smaller than the others'.
  const plan = peakLabelPlan([1205.11e9, 1208.23e9, 1211.35e9], { wide: true, pytorch: true, hidden: true, roomPx: [100, 160, 160] });
  assert.equal(plan.bare, true);
  assert.deepEqual(plan.texts, ['1,205.11', '1,208.23', '1,211.35']);
  assert.match(plan.key[0], /^Column: the sum of the parts\. Solid line: the peak during a step\.$/);
  // Under PyTorch defaults the column stacks the parts: the number above it is their sum, not the peak.
  assert.match(plan.key.at(-1).replace(/\u00a0/g, ' '), /^Above each column: its sum, in GB \(all parts\)$/);
  // Every text fits its room at the estimate the chart uses.
  for (const [i, t] of plan.texts.entries()) assert.ok(t.length * 7.7 <= [100, 160, 160][i], t);
});

test('under PyTorch defaults a wide label names the sum its column shows, never the lower peak (issue 23, item 5)', () => {
  const plan = peakLabelPlan(PEAKS, { wide: true, pytorch: true, roomPx: 160 });
  assert.equal(plan.bare, false);
  assert.deepEqual(plan.texts, PEAKS.map((b) => `${formatBytes(b)} sum`));
  assert.deepEqual(plan.key, ['Column: the sum of the parts. Solid line: the peak during a step.']);
});

test('narrow boxes always use bare amounts and a key, in the units shown', () => {
  const gib = peakLabelPlan(PEAKS, { wide: false, units: 'gib', hidden: true, roomPx: 500 });
  assert.equal(gib.bare, true);
  assert.deepEqual(gib.texts, PEAKS.map((b) => formatAmount(b, 'gib')));
  assert.match(gib.key[0].replace(/\u00a0/g, ' '), /in GiB \(all parts\)$/);
  const pt = peakLabelPlan(PEAKS, { wide: false, pytorch: true });
  assert.equal(pt.key.length, 1);
  assert.match(pt.key[0].replace(/\u00a0/g, ' '), /^Number above: the sum of the parts, in GB\. Solid line: the peak\.$/);
});

test('key lines wrap to the width they are given and never split "(all parts)" (F3: the 390 px key)', () => {
  const [key] = peakLabelPlan(PEAKS, { wide: false, hidden: true }).key;
  for (const width of [200, 240, 262, 300]) {
    const lines = wrapKey(key, width);
    assert.ok(lines.every((l) => l.length * 6.6 <= width || !l.includes(' ')), `${width}: ${JSON.stringify(lines)}`);
    assert.equal(lines.join(' '), key.replace(/\u00a0/g, ' '));
    assert.ok(lines.some((l) => l.includes('(all parts)')), JSON.stringify(lines));
    assert.ok(lines.every((l) => !l.includes('\u00a0')));
  }
  assert.deepEqual(wrapKey('Above each column: its peak, in GB', 1000), ['Above each column: its peak, in GB']);
});

test('segment labels: the short name, then one letter (W, G as in the Math Peek; FP32 for the master copy), then the bare amount (F9)', () => {
  const b = 3.12e9;
  assert.equal(segmentLabelText('gradients', b, 'gb', 120), 'grads 3.12');
  assert.equal(segmentLabelText('weights', b, 'gb', 60), 'W 3.12');
  assert.equal(segmentLabelText('gradients', b, 'gb', 60), 'G 3.12');
  // Not "M": beside Adam's "m" that differs only by case.
  assert.equal(segmentLabelText('master_weights', b, 'gb', 70), 'FP32 3.12');
  assert.equal(segmentLabelText('master_weights', b, 'gb', 60), '3.12');
  // At a width where weights keep their name, gradients keep one too.
  for (const room of [45, 50, 60, 70, 80]) {
    const w = segmentLabelText('weights', b, 'gb', room);
    const g = segmentLabelText('gradients', b, 'gb', room);
    assert.equal(/^[A-Za-z]/.test(w), /^[A-Za-z]/.test(g), `${room}: ${w} / ${g}`);
  }
  assert.equal(segmentLabelText('activations', 1161.94e9, 'gb', 60), '1,161.94');
  assert.equal(segmentLabelText('activations', 1161.94e9, 'gb', 30), '');
});

test('the batch slider says "1 sequence" and "8 sequences"', () => {
  assert.equal(batchValueText(1), '1 sequence');
  assert.equal(batchValueText(8), '8 sequences');
});
