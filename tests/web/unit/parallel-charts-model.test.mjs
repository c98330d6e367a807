// Unit tests for web/src/parallel-charts-model.js (Act 3's four charts, DOM-free): the per-device
// stack adds up to the engine's peak, an out-of-memory device or stage is never drawn as fitting,
// every mark stays inside the chart at 390 px and at full width, the step's sentence adds up, the
// chapter's curve uses the engine's r, and the crossover follows the scenario's stage. Results: the
// hand-written fixtures in fixtures/parallel/ (issue 28's contract, until the engine computes them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  memoryModel, memoryLayout, timelineModel, timelineLayout, commTaxModel, commTaxLayout, crossoverModel, crossoverLayout,
  chapterSpeedup, roundTogether, placeLabels, labelBox, secondsSum, decadeTicks, deviceTicks, devicesWords, unitsOf, PARALLEL_COMPONENT_LABELS, deviceComponents,
} from '../../../web/src/parallel-charts-model.js';
import { formatBytes, formatRatio, formatInt } from '../../../web/src/format.js';

const load = (name) => JSON.parse(readFileSync(new URL(`./fixtures/parallel/${name}.json`, import.meta.url), 'utf8'));
const FIXTURES = ['zero3-laptops-ideal', 'ddp-laptops-pcie4-oom', 'h100-tp2-pp4-zero1'];
const results = Object.fromEntries(FIXTURES.map((n) => [n, load(n)]));
const WIDTHS = [280, 358, 390, 519, 520, 760];
const sweep = (fn) => { for (const [name, r] of Object.entries(results)) for (const W of WIDTHS) fn(r, W, `${name} at ${W} px`); };
// Hundredths shown in a "12.34 ms" / "0.83 s" amount.
const hundredths = (t) => Math.round(Number(t.replace(/,/g, '')) * 100);

test('the device stack is the engine’s components, in order, and adds up to its peak', () => {
  for (const r of Object.values(results)) {
    const m = memoryModel(r);
    let y = 0;
    for (const s of m.device.segments) { assert.equal(s.y0, y); y = s.y1; assert.ok(s.bytes > 0); }
    assert.equal(m.device.stack_bytes, r.memory.peak_bytes);
    assert.equal(m.adds_up, true);
    const opt = r.memory.optimizer_vectors.reduce((a, v) => a + v.bytes, 0);
    assert.equal(m.device.segments.filter((s) => ['adam_m', 'adam_v', 'momentum'].includes(s.key)).reduce((a, s) => a + s.bytes, 0), opt);
  }
});

test('the two components that exist only across devices are named for students', () => {
  const ddp = deviceComponents(results['ddp-laptops-pcie4-oom']);
  assert.equal(ddp.find((c) => c.key === 'gradient_buckets').bytes, results['ddp-laptops-pcie4-oom'].memory.components.gradient_buckets);
  const z3 = deviceComponents(results['zero3-laptops-ideal']);
  assert.equal(z3.find((c) => c.key === 'gathered_parameters').bytes, results['zero3-laptops-ideal'].memory.components.gathered_parameters);
  for (const k of ['gradient_buckets', 'gathered_parameters']) assert.match(PARALLEL_COMPONENT_LABELS[k], /^[A-Z][a-z]+ [a-z]+ \(/);
});

test('out of memory is never drawn as fitting: state, ✕ flag, hatch and words agree with the engine', () => {
  const r = results['ddp-laptops-pcie4-oom'];
  assert.equal(r.memory.fits, false);
  const m = memoryModel(r);
  assert.equal(m.device.state, 'oom');
  assert.match(m.summary, /does not fit: [\d.,]+\u00a0GB over/);
  assert.ok(m.summary.includes(formatBytes(r.memory.peak_bytes - r.memory.usable_device_bytes)));
  assert.match(m.tables[0].rows.find((row) => row.key === 'total').cells[0].text, /does not fit/);
  for (const W of WIDTHS) assert.equal(memoryLayout(m, W).device.flag, '✕ does not fit');
  // A device that fits has no flag, and its words say so.
  const ok = memoryModel(results['h100-tp2-pp4-zero1']);
  assert.equal(ok.device.state, 'ok');
  assert.equal(memoryLayout(ok, 390).device.flag, '');
  assert.match(ok.summary, /it fits, [\d.,]+\u00a0GB to spare/);
});

test('the stages come from memory_by_stage; the selected one is the scenario’s and stages over budget say ✕', () => {
  for (const r of Object.values(results)) {
    const m = memoryModel(r);
    assert.deepEqual(m.stages.map((s) => s.zero_stage), [0, 1, 2, 3]);
    assert.deepEqual(m.stages.filter((s) => s.selected).map((s) => s.zero_stage), [r.parallel.zero_stage]);
    for (const s of m.stages) {
      const src = r.parallel.memory_by_stage.find((x) => x.zero_stage === s.zero_stage);
      assert.equal(s.peak_bytes, src.peak_bytes);
      assert.equal(s.state, src.fits ? 'ok' : 'oom');
    }
    for (const W of WIDTHS) {
      for (const s of memoryLayout(m, W).stages) if (!s.fits) assert.match(s.value.text, /^✕/);
    }
    const stageRows = m.tables[1].rows;
    assert.equal(stageRows.length, 4);
    for (const row of stageRows) assert.match(row.cells[2].text, /^(✓ fits|✕ does not fit)$/);
  }
});

test('memory chart: every mark inside the box, no two columns overlapping, labels no wider than their column', () => {
  sweep((r, W, at) => {
    const m = memoryModel(r, { units: 'gib' });
    const L = memoryLayout(m, W);
    const spans = [[L.device.x, L.device.x + L.device.width], ...L.stages.map((s) => [s.x, s.x + s.width])];
    for (const [a, b] of spans) assert.ok(a >= L.M.left && b <= W - L.M.right, `${at}: column ${a}–${b}`);
    for (let i = 1; i < spans.length; i += 1) assert.ok(spans[i][0] > spans[i - 1][1] + 4, `${at}: columns ${i - 1} and ${i} overlap`);
    for (const s of L.device.segs) if (s.label.text) assert.ok(s.label.text.length * 6.4 <= s.width, `${at}: ${s.label.text}`);
    for (const s of L.stages) assert.ok(s.top >= L.M.top - 1 && s.static_top >= s.top && s.base >= s.static_top, at);
    assert.ok(L.budget.y > L.M.top && L.budget.y < L.H - L.M.bottom, at);
    assert.equal(L.wide, W >= 520);
    assert.match(L.axisTitle, /GiB/);
  });
});

test('the step: bars inside the box, in their lanes; hidden and exposed communication kept apart', () => {
  sweep((r, W, at) => {
    const m = timelineModel(r);
    const L = timelineLayout(m, W);
    for (const b of L.bars) {
      assert.ok(b.x >= L.x1 - 0.1 && b.x + b.width <= L.x2 + 1.1, `${at}: ${b.kind} at ${b.x}+${b.width}`);
      if (b.lane === 'communication') assert.equal(b.cls, `comm comm--${b.exposed ? 'exposed' : 'hidden'}`);
      else assert.equal(b.cls, `work work--${b.kind}`);
    }
    assert.equal(L.ticks.at(-1).x, L.x2);
  });
  const pp = timelineModel(results['h100-tp2-pp4-zero1']);
  assert.deepEqual(pp.key.map((k) => k.cls), ['work--forward', 'work--backward', 'work--optimizer', 'work--bubble', 'comm--hidden', 'comm--exposed']);
  // Free communication: no communication drawn, none in the key.
  const free = timelineModel(results['zero3-laptops-ideal']);
  assert.ok(free.key.every((k) => !k.cls.startsWith('comm')));
  assert.match(free.summary, /the whole step/);
});

test('the step’s sentence adds up: compute + bubble + exposed communication = the step, as shown', () => {
  for (const r of Object.values(results)) {
    const m = timelineModel(r);
    assert.equal(m.adds_up, true);
    const sentence = /: (.*?) = ([\d.,]+)\u00a0(ms|s)\./.exec(m.summary);
    if (!sentence) continue; // one term: "the whole step"
    const terms = [...sentence[1].matchAll(/([\d.,]+)\u00a0(?:ms|s)/g)].map((x) => hundredths(x[1]));
    assert.equal(terms.reduce((a, b) => a + b, 0), hundredths(sentence[2]), m.summary);
  }
});

test('rounded together, terms add up to their rounded total whatever the values', () => {
  for (let seed = 1; seed < 200; seed += 1) {
    const xs = Array.from({ length: 1 + (seed % 4) }, (_, i) => ((seed * 7919 * (i + 3)) % 100000) / 997);
    const total = xs.reduce((a, b) => a + b, 0);
    const shown = roundTogether(xs, total);
    assert.equal(Math.round(shown.reduce((a, b) => a + b, 0) * 100), Math.round(total * 100));
    shown.forEach((v, i) => assert.ok(Math.abs(v - xs[i]) < 0.01 + 1e-9));
  }
  const s = secondsSum([{ label: 'a', seconds: 0.3333 }, { label: 'b', seconds: 0.3333 }, { label: 'c', seconds: 0.3334 }], 1);
  assert.equal(s.text, 'a 0.33\u00a0s + b 0.33\u00a0s + c 0.34\u00a0s = 1.00\u00a0s');
  // Terms that do not add up to the total are not written as a sum that does.
  assert.match(secondsSum([{ label: 'a', seconds: 0.5 }, { label: 'b', seconds: 0.2 }], 1).text, /≈/);
});

test('the chapter’s curve is drawn with the engine’s r: 1 at N = 1, below the ideal, levelling off at 1/r', () => {
  for (const r of Object.values(results)) {
    const p = r.parallel;
    const m = commTaxModel(r, []);
    assert.equal(m.r, p.communication_ratio);
    assert.equal(m.curve[0].speedup, 1);
    assert.equal(m.curve.at(-1).devices, 1024);
    for (const q of m.curve.slice(1)) assert.ok(q.speedup < q.devices && q.speedup < 1 / p.communication_ratio);
    // The chapter's formula at the scenario's own N and r is what the engine's r means.
    assert.ok(Math.abs(chapterSpeedup(p.devices, p.communication_ratio) - p.speedup) < 1e-9 * p.speedup);
    assert.ok(m.summary.includes(formatRatio(1 / p.communication_ratio)));
    assert.ok(m.summary.includes(`${devicesWords(p)}: ${formatRatio(p.speedup)}`));
  }
  const free = structuredClone(results['zero3-laptops-ideal']);
  free.parallel.communication_ratio = 0;
  const m = commTaxModel(free, []);
  assert.equal(m.ceiling, null);
  for (const q of m.curve) assert.ok(Math.abs(q.speedup - q.devices) < 1e-9 * q.devices);
  assert.equal(commTaxLayout(m, 390).ceiling, null);
});

test('comm tax: the engine’s points and the scenario sit where their N is; points that do not fit are marked', () => {
  const r = results['ddp-laptops-pcie4-oom'];
  const points = deviceTicks(true).map((n) => ({ devices: n, speedup: chapterSpeedup(n, r.parallel.communication_ratio), fits: n >= 16 }));
  points.push({ devices: 3, speedup: Number.NaN }); // dropped: not a number
  const m = commTaxModel(r, points);
  assert.equal(m.engine.length, 11);
  assert.deepEqual(m.tables[0].rows.map((row) => row.header), deviceTicks(true).map((n) => formatInt(n)));
  assert.equal(m.tables[0].rows[0].cells[2].text, '✕ no');
  sweep((res, W, at) => {
    const L = commTaxLayout(commTaxModel(res, points), W);
    const xs = L.points.map((q) => q.cx);
    for (let i = 1; i < xs.length; i += 1) assert.ok(xs[i] > xs[i - 1], at);
    assert.ok(xs[0] === L.x1 && Math.abs(xs.at(-1) - L.x2) < 0.1, at);
    for (const q of L.points) assert.ok(q.cy >= L.M.top - 0.1 && q.cy <= L.base + 0.1, at);
    assert.equal(L.xTicks.length, W >= 520 ? 11 : 6);
  });
  // The scenario does not fit in memory: its point says so in words.
  const words = (W) => commTaxLayout(m, W).labels.find((l) => l.key === 'scenario');
  assert.equal(words(390).text, '✕ does not fit: 7.1×');
  assert.equal(words(760).text, '✕ this setup (does not fit): 7.1×');
  assert.equal(words(760).cls, 'mark-label mark-label--bad');
  assert.match(m.summary, /does not fit in memory/);
});

test('the crossover follows the scenario’s stage, and the verdict follows tokens against it', () => {
  const ddp = results['ddp-laptops-pcie4-oom'];
  const m = crossoverModel(ddp);
  assert.equal(m.kind, 'data_parallel');
  assert.equal(m.cross, ddp.parallel.crossover_tokens_per_device.data_parallel);
  assert.equal(m.hides, ddp.parallel.tokens_per_device >= m.cross);
  assert.match(m.summary, /can hide behind compute/);
  const z3 = structuredClone(ddp);
  z3.parallel.zero_stage = 3;
  z3.parallel.tokens_per_device = 100; // fewer than the fully sharded crossover
  const m3 = crossoverModel(z3);
  assert.equal(m3.kind, 'fully_sharded');
  assert.equal(m3.cross, ddp.parallel.crossover_tokens_per_device.fully_sharded);
  assert.equal(m3.hides, false);
  assert.match(m3.summary, /cannot all hide/);
  // A free interconnect: no communication line, no crossover, and the words say why.
  const free = crossoverModel(results['zero3-laptops-ideal']);
  assert.equal(free.cross, null);
  assert.match(free.summary, /takes no time, so there is no crossover/);
  assert.equal(crossoverLayout(free, 390).comm, null);
});

test('crossover chart: lines, marks and ticks inside the box; the compute line rises with tokens', () => {
  sweep((r, W, at) => {
    const m = crossoverModel(r);
    const L = crossoverLayout(m, W);
    assert.ok(L.compute.y2 < L.compute.y1, at); // more tokens, more time (SVG y grows downward)
    assert.ok(L.scenario.x >= L.M.left && L.scenario.x <= W - L.M.right, at);
    assert.ok(L.scenario.cy >= L.top - 0.1 && L.scenario.cy <= L.base + 0.1, at);
    if (L.cross) assert.ok(L.cross.x >= L.M.left && L.cross.x <= W - L.M.right, at);
    if (L.comm) assert.ok(L.comm.y >= L.top - 0.1 && L.comm.y <= L.base + 0.1, at);
    for (const t of L.xTicks) assert.ok(t.x >= L.M.left - 0.1 && t.x <= W - L.M.right + 0.1, at);
    assert.ok(L.xTicks.length >= 2 && L.yTicks.length >= 2, at);
  });
});

test('ticks and words: decades on log axes, powers of two for devices, units from `format`', () => {
  assert.deepEqual(decadeTicks(0.002, 30), [0.01, 0.1, 1, 10]);
  assert.deepEqual(deviceTicks(false), [1, 4, 16, 64, 256, 1024]);
  assert.equal(unitsOf('gib'), 'gib');
  assert.equal(unitsOf({ units: 'gib' }), 'gib');
  assert.equal(unitsOf(undefined), 'gb');
  assert.equal(devicesWords(results['h100-tp2-pp4-zero1'].parallel), '64 devices (data 8 × tensor 2 × pipeline 4)');
  assert.equal(devicesWords({ devices: 8, data_parallel: 8, tensor_parallel: 1, pipeline_parallel: 1 }), '8 devices');
});

test('words on the line charts are placed where they meet no other word and stay inside the chart', () => {
  const apart = (a, b) => a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
  sweep((r, W, at) => {
    const points = deviceTicks(true).map((n) => ({ devices: n, speedup: chapterSpeedup(n, r.parallel.communication_ratio) }));
    for (const L of [commTaxLayout(commTaxModel(r, points), W), crossoverLayout(crossoverModel(r), W)]) {
      const boxes = L.labels.map(labelBox);
      boxes.forEach((b, i) => {
        assert.ok(b.left >= 0 && b.right <= W, `${at}: ${L.labels[i].text} inside`);
        for (let j = 0; j < i; j += 1) assert.ok(apart(b, boxes[j]), `${at}: ${L.labels[i].text} meets ${L.labels[j].text}`);
      });
    }
  });
  // The first free candidate wins; an obstacle pushes a word to its next spot.
  const item = { key: 'a', cls: '', text: 'abc', candidates: [{ x: 10, y: 20, anchor: 'start' }, { x: 10, y: 60, anchor: 'start' }] };
  const bounds = { left: 0, right: 200, top: 0, bottom: 100 };
  assert.equal(placeLabels([item], bounds)[0].y, 20);
  assert.equal(placeLabels([item], bounds, [{ left: 0, right: 50, top: 0, bottom: 30 }])[0].y, 60);
});
