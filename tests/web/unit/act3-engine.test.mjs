// Act 3's view model and sentences on the real multi-device engine (lab_scale, as the page's
// engine.scale() loads it): every strategy × GPU count the controls can reach is a scenario the engine
// accepts; the prediction's answer is the fewest GPUs that fit (one fewer does not); the step's parts
// add up to the step and one GPU's parts to its total; the reflections' keys from the engine's numbers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadScaleEngine } from '../../../scripts/engine-node.mjs';
import { PREDICT3, toScenario3, devicesNeeded, reflectNumbers, reflectKeys, stepParts, state3, taxPoints, stepByInterconnect, REVEAL_INTERCONNECTS, memoryTerms } from '../../../web/src/models/act3-model.js';
import { DEFAULT_CONFIG3, STRATEGIES3, GPU_COUNTS3, DEVICES3, INTERCONNECTS3 } from '../../../web/src/state/act3-config.js';
import * as T from '../../../web/src/content/act3-text.js';
import { plainText, formatSeconds, formatInt } from '../../../web/src/format/format.js';
import { sumsThatDoNotAddUp } from './sum-check.mjs';
import { memoryModel, memoryLayout } from '../../../web/src/models/parallel-memory-model.js';
import { formatAmount } from '../../../web/src/format/format.js';

const raw = await loadScaleEngine();
const scale = { evaluate: (s) => JSON.parse(raw.evaluate(JSON.stringify(s))), solve: (s) => JSON.parse(raw.solve(JSON.stringify(s))) };
const catalog = JSON.parse(raw.catalog());
const spec = catalog.models.find((m) => m.id === 'gpt2-xl').spec;

test('the catalogue has every interconnect and GPU Act 3 offers, and GPT-2 XL\'s spec', () => {
  assert.deepEqual(catalog.interconnects.map((x) => x.id).sort(), [...INTERCONNECTS3].sort());
  for (const d of DEVICES3) assert.ok(catalog.devices.some((x) => x.id === d), d);
  assert.ok(spec.heads > 0 && spec.mlp_hidden > 0 && spec.layers > 0);
});

test('every strategy at every GPU count is a scenario the engine accepts, with parts that add up', () => {
  for (const strategy of STRATEGIES3) {
    for (const gpus of GPU_COUNTS3) {
      const r = scale.evaluate(toScenario3({ ...DEFAULT_CONFIG3, strategy, gpus, interconnect: 'pcie4' }, spec));
      assert.equal(r.error, undefined, `${strategy} × ${gpus}: ${JSON.stringify(r.error)}`);
      assert.equal(stepParts(r.parallel).adds_up, true, `${strategy} × ${gpus}`);
      assert.ok(r.parallel.devices <= gpus);
      assert.deepEqual(sumsThatDoNotAddUp(plainText(T.memorySentence(r.memory, 'gb'))), [], `${strategy} × ${gpus}`);
      if (!r.memory.fits) assert.equal(state3(r), 'oom');
    }
  }
});

// The walk found each part rounded on its own: 8 GPUs of ZeRO-3 read "… ≈ 4.24 GB" with parts adding to 4.26.
test('the memory sentence\'s parts, rounded together, add up to the total shown ("="), in GB and GiB', () => {
  for (const strategy of STRATEGIES3) {
    for (const gpus of GPU_COUNTS3) {
      const r = scale.evaluate(toScenario3({ ...DEFAULT_CONFIG3, strategy, gpus }, spec));
      for (const units of ['gb', 'gib']) {
        const text = plainText(T.memorySentence(r.memory, units, memoryTerms(r.memory, units)));
        assert.match(text, / = /, `${strategy} × ${gpus} (${units}): ${text}`);
        assert.doesNotMatch(text, /≈/, `${strategy} × ${gpus} (${units})`);
        assert.deepEqual(sumsThatDoNotAddUp(text), [], `${strategy} × ${gpus} (${units})`);
      }
      // Each part moves by less than a hundredth of the unit: the sentence is still the engine's.
      memoryTerms(r.memory, 'gb').forEach((t) => assert.ok(Math.abs(t.bytes - r.memory.components[t.key]) < 1e7, t.key));
    }
  }
});

test('the prediction\'s answer is the fewest GPUs that fit fully sharded: one fewer does not fit', () => {
  const k = devicesNeeded(scale, spec);
  assert.ok(Number.isInteger(k.devices) && k.devices > 1, JSON.stringify(k));
  const at = (n) => scale.evaluate(toScenario3(PREDICT3, spec, { gpus: n }));
  assert.equal(at(k.devices).memory.fits, true);
  assert.equal(at(k.devices - 1).memory.fits, false);
});

test('the reflections\' keys from the engine: data parallelism keeps whole copies; r > 0 sets the ceiling', () => {
  const k = devicesNeeded(scale, spec).devices;
  const nums = reflectNumbers(scale, spec, k);
  assert.equal(nums.error, undefined);
  assert.deepEqual(reflectKeys(nums), { dp: 'copies', ceiling: 'ratio' });
  assert.ok(nums.zero3_static_many_bytes < nums.ddp_static_many_bytes);
  assert.match(T.ceilingFeedback(true, nums), /r is 0\.0*[1-9]/, 'r is never shown as 0.000');
});

// The walk: the feedback cited 24.92 GB, a number only a closed table held, while the DDP bar read 29.33.
test('the first reflection\'s feedback cites the amounts the memory chart labels at the question\'s settings, at 390 and 1,280 px', () => {
  const k = devicesNeeded(scale, spec).devices;
  const nums = reflectNumbers(scale, spec, k);
  const text = plainText(T.dpFeedback(false, nums, 'gb'));
  const labels = (gpus, W) => memoryLayout(memoryModel(scale.evaluate(toScenario3(DEFAULT_CONFIG3, spec, { gpus }))), W).stages.map((s) => s.value.text);
  for (const W of [340, 760]) {
    const [one, many] = [labels(1, W), labels(k, W)];
    const cited = [[one[0], nums.ddp_peak_one_bytes], [many[0], nums.ddp_peak_many_bytes], [many[3], nums.zero3_peak_many_bytes]];
    for (const [label, bytes] of cited) {
      assert.ok(label.includes(formatAmount(bytes)), `${W} px: the bar reads "${label}", the feedback ${formatAmount(bytes)}`);
      assert.ok(text.includes(`${formatAmount(bytes)} GB`), text);
    }
  }
  assert.ok(text.includes(`${k} GPUs`), text);
});

test('the reveal\'s wires: Ethernet is slower than NVLink for the answer\'s GPUs; the tax curve has every count', () => {
  const k = devicesNeeded(scale, spec).devices;
  const { step_s } = stepByInterconnect(scale, toScenario3(PREDICT3, spec, { gpus: k }), REVEAL_INTERCONNECTS);
  assert.ok(step_s['ethernet-10g'] > step_s.nvlink4, JSON.stringify(step_s));
  const pts = taxPoints(scale, DEFAULT_CONFIG3, spec);
  assert.deepEqual(pts.map((p) => p.gpus), GPU_COUNTS3);
  assert.ok(pts.every((p) => !p.error));
});

test('the Math Peek\'s all-reduce note: DDP quotes its time; tensor parallel alone runs no gradient all-reduce, only its own', () => {
  const at = (strategy, gpus) => scale.evaluate(toScenario3({ ...DEFAULT_CONFIG3, strategy, gpus, interconnect: 'nvlink4' }, spec)).parallel;
  const ddp = at('ddp', 4);
  assert.match(T.allReduceNote(ddp, 'all-reduce'), /^here \d/);
  const tp = at('tp', 8); // GPT-2 XL's 25 heads: 5-way tensor parallel, one copy
  assert.equal(tp.data_parallel, 1);
  const runs = tp.collectives.filter((c) => c.seconds > 0).map((c) => T.collectiveWords(c)).join(' + ');
  assert.match(runs, /tensor-parallel all-reduce/);
  assert.match(T.allReduceNote(tp, runs), /^this step runs no all-reduce of the gradients; it runs tensor-parallel all-reduce/);
});

test('the Math Peek\'s crossover line is the crossover the chart draws: data parallel for DDP, fully sharded for ZeRO-3', () => {
  const at = (strategy) => scale.evaluate(toScenario3({ ...DEFAULT_CONFIG3, strategy, gpus: 4, interconnect: 'nvlink4' }, spec)).parallel;
  const ddp = at('ddp');
  const c = ddp.formulas.crossover;
  assert.equal(T.crossoverPeek(ddp), `Crossover, data parallel: ${formatSeconds(c.data_parallel_seconds)} of gradient all-reduce ÷ ${formatSeconds(c.backward_s_per_token * 1000)} of backward pass per 1,000 tokens = ${formatInt(c.data_parallel)} tokens per GPU; below that, the wires cannot hide behind compute`);
  const z3 = at('zero3');
  assert.match(T.crossoverPeek(z3), new RegExp(`^Crossover, fully sharded: ${formatSeconds(z3.formulas.crossover.fully_sharded_seconds)} of gathering and scattering`));
  // One copy of the model (5-way tensor parallel on 8 GPUs): no "0 tokens per GPU" crossover to quote.
  const tp = scale.evaluate(toScenario3({ ...DEFAULT_CONFIG3, strategy: 'tp', gpus: 8, interconnect: 'nvlink4' }, spec)).parallel;
  assert.equal(tp.data_parallel, 1);
  assert.match(T.crossoverPeek(tp), /no gradients to synchronise and no crossover$/);
});
