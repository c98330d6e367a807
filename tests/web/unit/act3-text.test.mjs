// Act 3's sentences (content/act3-text.js) on results shaped like lab_scale's (the stand-in of
// act3-fake-scale.mjs): one GPU's parts add up to its total, out of memory never reads as working,
// parts that are zero are left out, and the layout names the GPUs a strategy leaves unused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as T from '../../../web/src/content/act3-text.js';
import { toScenario3 } from '../../../web/src/models/act3-model.js';
import { DEFAULT_CONFIG3 } from '../../../web/src/state/act3-config.js';
import { plainText } from '../../../web/src/format/format.js';
import { fakeScale, SPEC } from './act3-fake-scale.mjs';
import { sumsThatDoNotAddUp } from './sum-check.mjs';

const at = (over) => fakeScale.evaluate(toScenario3({ ...DEFAULT_CONFIG3, ...over }, SPEC));

test('the memory sentence lists one GPU\'s parts and they add up to the total shown', () => {
  const r = at({ gpus: 8 });
  const text = plainText(T.memorySentence(r.memory, 'gb'));
  assert.match(text, /^One GPU holds weights .* \+ activations .* \+ reserve .* = .* GB\.$/);
  assert.deepEqual(sumsThatDoNotAddUp(text), []);
  assert.match(text, / = /, 'a sum is shown');
});

test('out of memory never reads as working: the banner says so and the step is what it would take', () => {
  const r = at({ gpus: 1, strategy: 'ddp' });
  assert.equal(r.memory.fits, false);
  assert.match(T.memoryTitle(r, 'gb', 'NVIDIA GeForce RTX 4060 Laptop 8 GB'), /^Out of memory: .* so this cannot train/);
  assert.match(T.stepSentence(r.parallel, false), /^If it fitted, one step takes/);
});

test('the step sentence leaves out parts that are zero, and says when communication hides entirely', () => {
  const dp = at({ gpus: 8, interconnect: 'nvlink4' });
  const s = T.stepSentence(dp.parallel, true);
  assert.doesNotMatch(s, /bubble/);
  assert.match(at({ gpus: 32, strategy: 'pp', interconnect: 'pcie4' }).parallel.bubble_s > 0 ? T.stepSentence(at({ gpus: 32, strategy: 'pp', interconnect: 'pcie4' }).parallel, true) : '', /pipeline bubble/);
  if (dp.parallel.exposed_communication_s === 0) assert.match(s, /All communication hides behind compute/);
});

test('the layout names the GPUs tensor parallelism cannot use, and counts sequences in words', () => {
  const r = at({ gpus: 8, strategy: 'tp' });
  assert.match(T.layoutWords(r.parallel, 8), /^Uses 5 of the 8 GPUs \(the model splits 5 ways, which does not divide 8\): 1 data-parallel × 5 tensor-parallel; 1 sequence per step\.$/);
  assert.match(T.layoutWords(at({ gpus: 4 }).parallel, 4), /^4 GPUs: 4 data-parallel; 4 sequences per step\.$/);
});

// The walk: "micro-batches", "NVLink" and "InfiniBand" showed with no word of explanation.
test('jargon is glossed in plain words where it shows: micro-batches in the layout, the wires under their menu', () => {
  const pp = at({ gpus: 16, strategy: 'pp' });
  assert.match(T.layoutWords(pp.parallel, 16), /micro-batches \(slices of the batch, passed stage to stage\)/);
  for (const word of ['NVLink', 'PCIe', 'InfiniBand', 'Ethernet']) assert.match(T.INTERCONNECT_NOTE, new RegExp(`${word}[^.]*: [a-z]`));
});

test('r is written without exponents and never rounds a real tax to 0', () => {
  assert.equal(T.formatR(0.1234), '0.123');
  assert.equal(T.formatR(0.0000121013), '0.000012');
  assert.equal(T.formatR(0), '0');
  for (const r of [3e-9, 4.5e-6, 0.0009]) assert.match(T.formatR(r), /^0\.0*[1-9]\d?$/, String(r));
});

test('with one GPU or a free interconnect there is no crossover to name', () => {
  const one = at({ gpus: 1 });
  assert.match(T.crossoverSentence({ ...one.parallel, crossover_tokens_per_device: { data_parallel: 0, fully_sharded: 0 } }), /with one GPU there is no communication to hide/);
});
