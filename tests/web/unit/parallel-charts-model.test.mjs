// Unit tests for web/src/models/parallel-*-model.js, comm-tax-model.js, crossover-model.js and parallel-chart-common.js (Act 3's four charts, DOM-free) on results of the
// real engine (lab_scale, the WASM build under Node): the per-device stack adds up to the engine's
// peak, an out-of-memory device or stage is never drawn as fitting, every mark and word stays inside
// the chart from 280 to 760 px, the step's sentence adds up, the chapter's curve uses the engine's r,
// and the crossover's two lines meet at the engine's crossover.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadScaleEngine } from '../../../scripts/engine-node.mjs';
import { memoryModel, memoryLayout, PARALLEL_COMPONENT_LABELS, deviceComponents } from '../../../web/src/models/parallel-memory-model.js';
import { timelineModel, timelineLayout } from '../../../web/src/models/parallel-timeline-model.js';
import { commTaxModel, commTaxLayout, chapterSpeedup } from '../../../web/src/models/comm-tax-model.js';
import { crossoverModel, crossoverLayout, crossoverParts } from '../../../web/src/models/crossover-model.js';
import { roundTogether, placeLabels, labelBox, lineBoxes, overlaps, secondsSum, decadeTicks, deviceTicks, devicesWords, unitsOf } from '../../../web/src/models/parallel-chart-common.js';
import { formatBytes, formatRatio, formatInt, formatAmount } from '../../../web/src/format/format.js';
import { ACT3_SCENARIOS, enginePoints } from './parallel-scenarios.mjs';

const engine = await loadScaleEngine();
const evaluate = (s) => { const r = JSON.parse(engine.evaluate(JSON.stringify(s))); if (r.error) throw new Error(JSON.stringify(r.error)); return r; };
const results = Object.fromEntries(Object.entries(ACT3_SCENARIOS).map(([k, s]) => [k, evaluate(s)]));
const points = Object.fromEntries(Object.entries(ACT3_SCENARIOS).map(([k, s]) => [k, enginePoints(evaluate, s)]));
const WIDTHS = [280, 300, 330, 358, 390, 519, 520, 640, 760];
const sweep = (fn) => { for (const [name, r] of Object.entries(results)) for (const W of WIDTHS) fn(r, W, `${name} at ${W} px`, name); };
const hundredths = (t) => Math.round(Number(t.replace(/,/g, '')) * 100);

test('the scenarios cover what the charts must draw', () => {
  const { laptopsZero3Free: z3, laptopsDdpPcie: ddp, h100ThreeWays: h3, h100Zero3Ethernet: eth, laptopsPureFp16: fp16 } = results;
  assert.equal(z3.memory.fits, true);
  assert.equal(ddp.memory.fits, false);
  assert.ok(h3.parallel.bubble_s > 0 && h3.parallel.exposed_communication_s > 0);
  assert.ok(eth.parallel.speedup < 1 && eth.parallel.tokens_per_device < eth.parallel.crossover_tokens_per_device.fully_sharded);
  assert.equal(fp16.memory.numerically_valid, false);
  for (const r of Object.values(results)) assert.equal(r.memory.per_device, true);
});

test('the device stack is the engine’s components, in order, and adds up to its peak', () => {
  for (const r of Object.values(results)) {
    const m = memoryModel(r);
    let y = 0;
    for (const s of m.device.segments) { assert.equal(s.y0, y); y = s.y1; assert.ok(s.bytes > 0); }
    // The textbook layout stacks the peak; PyTorch's step model stacks the sum of the parts.
    assert.equal(m.device.stack_bytes, r.memory.step_phases ? r.memory.total_bytes : r.memory.peak_bytes);
    assert.equal(m.adds_up, true);
    const opt = r.memory.optimizer_vectors.reduce((a, v) => a + v.bytes, 0);
    assert.equal(m.device.segments.filter((s) => ['adam_m', 'adam_v', 'momentum'].includes(s.key)).reduce((a, s) => a + s.bytes, 0), opt);
  }
});

test('the two components that exist only across devices come from the engine and are named for students', () => {
  const ddp = deviceComponents(results.laptopsDdpPcie);
  assert.equal(ddp.find((c) => c.key === 'gradient_buckets').bytes, results.laptopsDdpPcie.memory.components.gradient_buckets);
  const z3 = deviceComponents(results.laptopsZero3Free);
  assert.equal(z3.find((c) => c.key === 'gathered_parameters').bytes, results.laptopsZero3Free.memory.components.gathered_parameters);
  for (const k of ['gradient_buckets', 'gathered_parameters']) assert.match(PARALLEL_COMPONENT_LABELS[k], /^[A-Z][a-z]+ [a-z]+ \(/);
});

test('out of memory is never drawn as fitting: state, ✕ flag and words agree with the engine', () => {
  const r = results.laptopsDdpPcie;
  const m = memoryModel(r);
  assert.equal(m.device.state, 'oom');
  assert.match(m.summary, /does not fit: [\d.,]+\u00a0GB over/);
  assert.ok(m.summary.includes(formatBytes(r.memory.peak_bytes - r.memory.usable_device_bytes)));
  assert.match(m.tables[0].rows.find((row) => row.key === 'total').cells[0].text, /does not fit/);
  for (const W of WIDTHS) assert.equal(memoryLayout(m, W).device.flag, W >= 520 ? '✕ does not fit' : '✕ too big');
  const ok = memoryModel(results.laptopsZero3Free);
  assert.equal(ok.device.state, 'ok');
  assert.equal(memoryLayout(ok, 390).device.flag, '');
  assert.match(ok.summary, /it fits, [\d.,]+\u00a0GB to spare/);
  // Fits but cannot train (pure FP16): flagged, and never called a fit without the caveat.
  const bad = memoryModel(results.laptopsPureFp16);
  assert.equal(bad.device.state, 'invalid');
  assert.equal(memoryLayout(bad, 390).device.flag, '⚠ can’t train');
  assert.equal(memoryLayout(bad, 760).device.flag, '⚠ cannot train');
  assert.match(bad.summary, /but cannot train/);
});

test('the stages come from memory_by_stage; the selected one is the scenario’s own peak, and stages over budget say ✕', () => {
  for (const r of Object.values(results)) {
    const m = memoryModel(r);
    assert.deepEqual(m.stages.map((s) => s.zero_stage), r.scenario.framework === 'pytorch' ? [0, 1] : [0, 1, 2, 3]);
    const sel = m.stages.filter((s) => s.selected);
    assert.deepEqual(sel.map((s) => s.zero_stage), [r.parallel.zero_stage]);
    assert.equal(sel[0].peak_bytes, r.memory.peak_bytes);
    for (const s of m.stages) assert.equal(s.state, s.fits ? 'ok' : 'oom');
    // Over budget: a ✕, and from 330 px its amount too (the walk found a bare ✕ at 390 px).
    for (const W of WIDTHS) {
      for (const s of memoryLayout(m, W).stages.filter((x) => !x.fits)) {
        assert.match(`${s.mark.text}${s.value.text}`, /^✕/, `${W} px`);
        if (W >= 330) assert.ok(s.value.text.includes(formatAmount(s.peak_bytes)), `${W} px: “${s.mark.text}” “${s.value.text}”`);
      }
    }
    for (const row of m.tables[1].rows) assert.match(row.cells[2].text, /^(✓ fits|✕ does not fit)$/);
  }
});

// The walk: under a pipeline the stage columns framed "DDP" and the left column read "One device".
test('the memory chart names what it draws: the setup chosen, and under tensor or pipeline parallelism that layout with each ZeRO stage', () => {
  const base = { ...ACT3_SCENARIOS.laptopsZero3Free, parallel: { data_parallel: 1, zero_stage: 0, interconnect: 'nvlink4' } };
  const pp = memoryModel(evaluate({ ...base, parallel: { ...base.parallel, pipeline_parallel: 4, micro_batches: 8 } }));
  const tp = memoryModel(evaluate({ ...base, parallel: { ...base.parallel, tensor_parallel: 5 } }));
  for (const [m, name] of [[pp, 'Pipeline'], [tp, 'Tensor parallel']]) {
    assert.equal(m.stages[0].name, 'No ZeRO');
    assert.equal(m.stages.find((s) => s.selected).zero_stage, 0);
    assert.doesNotMatch(m.summary, /DDP|plain data parallel/);
    assert.doesNotMatch(m.tables[1].rows[0].header, /DDP/);
    assert.equal(memoryLayout(m, 760).stagesTitle.text, `${name} with each ZeRO stage`);
    assert.equal(memoryLayout(m, 340).stagesTitle.text, `${name} + ZeRO`);
    assert.equal(memoryLayout(m, 340).stages[0].name.text, 'None');
  }
  const dp = memoryModel(results.laptopsDdpPcie);
  assert.equal(dp.stages[0].name, 'DDP');
  for (const W of [340, 760]) assert.equal(memoryLayout(dp, W).device.name.text, 'This setup');
});

test('memory chart: every mark inside the box, no two columns overlapping, labels no wider than their column', () => {
  sweep((r, W, at) => {
    const L = memoryLayout(memoryModel(r, { units: 'gib' }), W);
    const spans = [[L.device.x, L.device.x + L.device.width], ...L.stages.map((s) => [s.x, s.x + s.width])];
    for (const [a, b] of spans) assert.ok(a >= L.M.left && b <= W - L.M.right, `${at}: column ${a}–${b}`);
    for (let i = 1; i < spans.length; i += 1) assert.ok(spans[i][0] > spans[i - 1][1] + 4, `${at}: columns ${i - 1} and ${i} overlap`);
    const lines = [L.budget.y, ...(L.device.peakMark ? [L.device.peakMark.y] : [])];
    for (const s of L.device.segs) {
      if (!s.label.text) continue;
      assert.ok(s.label.text.length * 6.4 <= s.width, `${at}: ${s.label.text}`);
      assert.ok(s.label.y - 11 >= s.y && s.label.y + 3 <= s.y + s.height, `${at}: ${s.label.text} inside its segment`);
      for (const l of lines) assert.ok(!(l >= s.label.y - 12 && l <= s.label.y + 4), `${at}: a line crosses ${s.label.text}`);
    }
    for (const s of L.stages) assert.ok(s.top >= L.M.top - 1 && s.static_top >= s.top && s.base >= s.static_top, at);
    assert.ok(L.budget.y > L.M.top && L.budget.y < L.H - L.M.bottom, at);
    assert.match(L.axisTitle, /GiB/);
    const t = L.stagesTitle;
    assert.ok(t.x - (t.text.length * 7) / 2 >= 0 && t.x + (t.text.length * 7) / 2 <= W, `${at}: “${t.text}” fits`);
    // No word above a column is crossed by the budget line, and none reaches the line's name in the top margin.
    const words = [L.device.total, { ...L.device.flagPos, text: L.device.flag }, ...L.stages.flatMap((s) => [s.value, s.mark])].filter((w) => w.text);
    for (const w of words) {
      assert.ok(!(L.budget.y >= w.y - 11 && L.budget.y <= w.y + 4), `${at}: the budget line crosses “${w.text}”`);
      assert.ok(w.y - 11 > L.budget.ty + 4, `${at}: “${w.text}” reaches the top margin`);
    }
  });
});

test('the step: bars inside the box, in their lanes; hidden and exposed communication kept apart, compute never hatched', () => {
  sweep((r, W, at) => {
    const L = timelineLayout(timelineModel(r), W);
    for (const b of L.bars) {
      assert.ok(b.x >= L.x1 - 0.1 && b.x + b.width <= L.x2 + 1.1, `${at}: ${b.kind} at ${b.x}+${b.width}`);
      if (b.lane === 'communication') assert.equal(b.cls, `comm comm--${b.exposed ? 'exposed' : 'hidden'}`);
      else assert.equal(b.cls, `work work--${b.kind}`);
      assert.equal(b.hatched, (b.lane === 'communication' && b.exposed) || b.kind === 'bubble', at);
    }
  });
  const h3 = timelineModel(results.h100ThreeWays);
  assert.deepEqual(h3.key.map((k) => k.cls).filter((c) => ['work--bubble', 'comm--exposed'].includes(c)), ['work--bubble', 'comm--exposed']);
  const free = timelineModel(results.laptopsZero3Free);
  assert.ok(free.key.every((k) => !k.cls.startsWith('comm')));
  assert.match(free.summary, /the whole step/);
  assert.ok(timelineLayout(free, 390).lanes.find((l) => l.key === 'communication').empty);
});

test('the step’s sentence adds up: compute + bubble + exposed communication = the engine’s step, as shown', () => {
  for (const r of Object.values(results)) {
    const m = timelineModel(r);
    assert.equal(m.adds_up, true, m.summary);
    const sentence = /: (.*?) = ([\d.,]+)\u00a0(ms|s)\./.exec(m.summary);
    if (!sentence) { assert.match(m.summary, /the whole step/); continue; }
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
  assert.match(secondsSum([{ label: 'a', seconds: 0.5 }, { label: 'b', seconds: 0.2 }], 1).text, /≈/);
});

test('the chapter’s curve is drawn with the engine’s r: through the scenario’s own speedup, levelling off at 1/r', () => {
  for (const [name, r] of Object.entries(results)) {
    const p = r.parallel;
    const m = commTaxModel(r, points[name]);
    assert.equal(m.curve[0].speedup, 1);
    assert.equal(m.curve.at(-1).devices, m.max_devices);
    assert.equal(m.max_devices, name === 'h100ThreeWays' ? 32768 : 1024); // 8 × 5 × 4 × … up to 1,024 replicas
    // The engine's r is the chapter's r at this scenario's N: its curve passes through the scenario's speedup.
    assert.ok(Math.abs(chapterSpeedup(p.devices, m.r) - p.speedup) < 1e-9 * p.speedup, name);
    if (m.r > 0) {
      for (const q of m.curve.slice(1)) assert.ok(q.speedup < q.devices, name);
      assert.ok(m.summary.includes(formatRatio(1 / m.r)), name);
    }
  }
  // A free interconnect: the engine's r is rounding noise, and there is no ceiling.
  const free = commTaxModel(results.laptopsZero3Free, points.laptopsZero3Free);
  assert.equal(free.r, 0);
  assert.equal(free.ceiling, null);
  assert.match(free.summary, /stays on the ideal line/);
  assert.equal(commTaxLayout(free, 390).ceiling, null);
  // Slower than one device: said so, not "faster".
  assert.match(commTaxModel(results.h100Zero3Ethernet, []).summary, /slower than one device \(0\.\d× its speed\)/);
});

test('comm tax: the engine’s points for N = 1 … 1,024 sit where their N is; those that do not fit are marked', () => {
  const pts = points.laptopsDdpPcie;
  assert.equal(pts.length, 11);
  const m = commTaxModel(results.laptopsDdpPcie, pts);
  assert.deepEqual(m.tables[0].rows.map((row) => row.header), deviceTicks(true).map((n) => formatInt(n)));
  assert.deepEqual(m.tables[0].rows.map((row) => row.cells[2].text), pts.map((q) => (q.fits ? 'yes' : '✕ no')));
  sweep((res, W, at, name) => {
    const tax = commTaxModel(res, points[name]);
    const L = commTaxLayout(tax, W);
    const xs = L.points.map((q) => q.cx);
    for (let i = 1; i < xs.length; i += 1) assert.ok(xs[i] > xs[i - 1], at);
    for (const q of L.points) assert.ok(q.cy >= L.M.top - 0.1 && q.cy <= L.base + 0.1, at);
    assert.ok(L.xTicks.length <= (W >= 520 ? 11 : 6) && L.xTicks.at(-1).text === formatInt(tax.max_devices), at);
    for (let i = 1; i < L.xTicks.length; i += 1) assert.ok(L.xTicks[i].x - L.xTicks[i - 1].x >= 60, `${at}: ticks ${L.xTicks[i - 1].text} and ${L.xTicks[i].text} apart`);
  });
  const words = (W) => commTaxLayout(m, W).labels.find((l) => l.key === 'scenario');
  assert.match(words(390).text, /^✕ does not fit: /);
  assert.match(words(760).text, /^✕ this setup \(does not fit\): /);
  assert.equal(words(760).cls, 'mark-label mark-label--bad');
});

test('the crossover’s two lines meet at the engine’s crossover, for the scenario’s kind of sharding', () => {
  for (const [name, r] of Object.entries(results)) {
    const m = crossoverModel(r);
    assert.equal(m.kind, r.parallel.zero_stage === 3 ? 'fully_sharded' : 'data_parallel', name);
    if (m.cross === null) continue;
    assert.ok(Math.abs(m.k * m.cross - m.comm) < 1e-9 * m.comm, `${name}: compute at the crossover = communication`);
    assert.equal(m.hides, r.parallel.tokens_per_device >= m.cross);
    const L = crossoverLayout(m, 760);
    const slope = (L.compute.y2 - L.compute.y1) / (L.compute.x2 - L.compute.x1);
    assert.ok(Math.abs(L.compute.y1 + slope * (L.cross.x - L.compute.x1) - L.comm.y) < 1.5, `${name}: the lines meet on the crossover's mark`);
  }
  assert.equal(crossoverParts(results.laptopsDdpPcie.parallel).k, results.laptopsDdpPcie.parallel.formulas.crossover.backward_s_per_token);
  assert.match(crossoverModel(results.laptopsDdpPcie).summary, /can hide behind the backward pass/);
  assert.match(crossoverModel(results.h100Zero3Ethernet).summary, /cannot all hide behind the forward \+ backward/);
  const free = crossoverModel(results.laptopsZero3Free);
  assert.equal(free.cross, null);
  assert.match(free.summary, /takes no time, so there is no crossover/);
  assert.equal(crossoverLayout(free, 390).comm, null);
  assert.equal(crossoverLayout(free, 760).labels.find((l) => l.key === 'note').text, 'no communication line: it takes no time');
  // One data-parallel copy (tensor parallel alone) syncs no gradients: the note says so, not "no time".
  const tpOnly = crossoverModel(evaluate({ ...ACT3_SCENARIOS.h100ThreeWays, parallel: { data_parallel: 1, tensor_parallel: 5, interconnect: 'nvlink4' } }));
  assert.match(tpOnly.summary, /nothing to synchronise/);
  assert.equal(crossoverLayout(tpOnly, 760).labels.find((l) => l.key === 'note').text, 'one copy of the model: nothing to synchronise');
});

test('crossover chart: lines, marks and ticks inside the box; the compute line rises with tokens', () => {
  sweep((r, W, at) => {
    const L = crossoverLayout(crossoverModel(r), W);
    assert.ok(L.compute.y2 < L.compute.y1, at);
    assert.ok(L.scenario.x >= L.M.left && L.scenario.x <= W - L.M.right, at);
    assert.ok(L.scenario.cy >= L.top - 0.1 && L.scenario.cy <= L.base + 0.1, at);
    if (L.cross) assert.ok(L.cross.x >= L.M.left && L.cross.x <= W - L.M.right, at);
    if (L.comm) assert.ok(L.comm.y >= L.top - 0.1 && L.comm.y <= L.base + 0.1, at);
    for (const t of L.xTicks) assert.ok(t.x >= L.M.left - 0.1 && t.x <= W - L.M.right + 0.1, at);
    assert.ok(L.xTicks.length >= 2 && L.yTicks.length >= 2, at);
  });
});

test('words on the line charts are placed where they meet no other word and stay inside the chart', () => {
  const apart = (a, b) => a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
  sweep((r, W, at, name) => {
    for (const L of [commTaxLayout(commTaxModel(r, points[name]), W), crossoverLayout(crossoverModel(r), W)]) {
      // The axis titles fit the chart too (a 300 px box inside Act 3's disclosure once cut the x title).
      for (const t of [L.xTitle]) assert.ok(t.x - (t.text.length * 7) / 2 >= 0 && t.x + (t.text.length * 7) / 2 <= W, `${at}: “${t.text}” fits`);
      const shown = L.labels.filter((l) => l.text);
      assert.ok(shown.some((l) => l.key === 'scenario'), `${at}: the scenario is always named`);
      const boxes = shown.map(labelBox);
      boxes.forEach((b, i) => {
        assert.ok(b.left >= L.M.left && b.right <= W, `${at}: ${shown[i].text} inside the plot, clear of the y axis's words`);
        for (let j = 0; j < i; j += 1) assert.ok(apart(b, boxes[j]), `${at}: ${shown[i].text} meets ${shown[j].text}`);
      });
    }
  });
  const item = { key: 'a', cls: '', text: 'abc', candidates: [{ x: 10, y: 20, anchor: 'start' }, { x: 10, y: 60, anchor: 'start' }] };
  const bounds = { left: 0, right: 200, top: 0, bottom: 100 };
  assert.equal(placeLabels([item], bounds)[0].y, 20);
  assert.equal(placeLabels([item], bounds, [{ left: 0, right: 50, top: 0, bottom: 30 }])[0].y, 60);
});

// The walk (8 laptops, ZeRO-3 over NVLink 4): the gathers' name lay across the compute line and
// "forward + backward" sat under the communication line, far from its own.
test('crossover: each line’s name lies across no line, beside its own line and 10 px clear of the other', () => {
  const walk = evaluate({ ...ACT3_SCENARIOS.laptopsZero3Free, parallel: { ...ACT3_SCENARIOS.laptopsZero3Free.parallel, interconnect: 'nvlink4' } });
  const cases = [...Object.entries(results), ['walk', walk]];
  for (const [name, r] of cases) {
    for (const W of [...WIDTHS, 1000]) {
      const L = crossoverLayout(crossoverModel(r), W);
      const c = L.compute;
      const lines = { compute: (pad) => lineBoxes(c.x1, c.y1, c.x2, c.y2, pad), comm: (pad) => (L.comm ? lineBoxes(L.comm.x1, L.comm.y, L.comm.x2, L.comm.y, pad) : []) };
      const meets = (box, boxes) => boxes.some((b) => overlaps(box, b));
      for (const l of L.labels.filter((x) => x.text)) assert.ok(!meets(labelBox(l), [...lines.compute(1), ...lines.comm(1)]), `${name} at ${W} px: a line crosses “${l.text}”`);
      for (const [own, other] of [['compute', 'comm'], ['comm', 'compute']]) {
        const l = L.labels.find((x) => x.key === own);
        if (!l || !l.text) continue;
        assert.ok(meets(labelBox(l), lines[own](24)), `${name} at ${W} px: “${l.text}” beside its line`);
        assert.ok(!meets(labelBox(l), lines[other](10)), `${name} at ${W} px: “${l.text}” 10 px clear of the other line`);
      }
    }
  }
});

test('ticks and words: decades on log axes, powers of two for devices, units from `format`', () => {
  assert.deepEqual(decadeTicks(0.002, 30), [0.01, 0.1, 1, 10]);
  assert.deepEqual(deviceTicks(false), [1, 4, 16, 64, 256, 1024]);
  assert.equal(unitsOf('gib'), 'gib');
  assert.equal(unitsOf({ units: 'gib' }), 'gib');
  assert.equal(unitsOf(undefined), 'gb');
  assert.equal(devicesWords(results.h100ThreeWays.parallel), '160 devices (data 8 × tensor 5 × pipeline 4)');
  assert.equal(devicesWords(results.laptopsDdpPcie.parallel), '8 devices');
});

test('under PyTorch’s step model the stack is the sum, named so, and a line marks the lower peak', () => {
  const r = results.h100PytorchZero1;
  assert.ok(r.memory.step_phases && r.memory.peak_bytes < r.memory.total_bytes);
  const m = memoryModel(r);
  assert.equal(m.device.stack_is_peak, false);
  assert.equal(m.device.stack_bytes, r.memory.total_bytes);
  assert.ok(m.device.segments.some((s) => s.key === 'gradient_buckets') && m.device.segments.some((s) => s.key === 'autocast_cache'));
  const L = memoryLayout(m, 760);
  assert.match(L.device.total.text, /sum$/);
  assert.ok(L.device.peakMark.y > L.device.top, 'the peak line sits below the top of the stack');
  assert.match(m.summary, new RegExp(`peaks at ${formatBytes(r.memory.peak_bytes)}`));
  assert.equal(memoryLayout(memoryModel(results.h100ThreeWays), 760).device.peakMark, null);
});
