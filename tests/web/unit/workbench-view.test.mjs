// Unit tests for web/src/models/workbench-view.js, the workbench results' view model, against the real WASM
// engine: the timeline adds up to the peak, out of memory and pure 16-bit never read as success, the
// textbook gap's columns add up to their peaks, the solver's fallback to the textbook twin is named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../../scripts/engine-node.mjs';
import {
  textbookTwin, pytorchTwin, isPytorch, timelineView, timelineRows, phaseLabel, peakView, fitView, deviceSizeWords,
  gapView, timingView, solveView, solveFor, workbenchRecord, workbenchText, moveWords, largestText,
} from '../../../web/src/models/workbench-view.js';

const raw = await loadEngine();
const engine = { evaluate: (s) => JSON.parse(raw.evaluate(JSON.stringify(s))), solve: (s) => JSON.parse(raw.solve(JSON.stringify(s))) };
const BASE = { model: 'gpt2-small', device: 'rtx4090-24gb', precision: 'autocast_bf16', optimizer: 'adam', batch_size: 8, seq_len: 1024, framework: 'pytorch' };
// A Llama-style custom model with 128 blocks (today's engine: no kv_heads yet).
const DEEP = { layers: 128, hidden: 2048, heads: 16, vocab: 32000, context: 4096, mlp_hidden: 5632, mlp: 'swiglu', norm: 'rmsnorm',
  biases: false, tied_head: false, learned_positions: false };

test('the textbook twin drops PyTorch-only knobs and counts autocast as mixed; the PyTorch twin undoes it', () => {
  const tb = textbookTwin({ ...BASE, zero_grad: 'zero', optimizer_impl: 'fused', activation_model: 'pytorch_eager' });
  assert.deepEqual(tb, { ...BASE, framework: 'textbook', precision: 'mixed' });
  assert.equal(isPytorch(tb), false);
  assert.equal(engine.evaluate(tb).error, undefined);
  const pt = pytorchTwin({ ...tb, checkpointing: 'full', convention: 'ours' });
  assert.deepEqual(pt, { ...BASE, checkpointing: 'none' });
  assert.equal(engine.evaluate(pt).error, undefined);
});

test('each phase’s categories and the reserve add up to its total, and the largest total is the engine’s peak at its phase', () => {
  for (const scenario of [BASE, { ...BASE, model: DEEP, batch_size: 1, seq_len: 2048 }]) {
    const r = engine.evaluate(scenario);
    const tl = timelineView(r);
    assert.equal(tl.phases.length, r.memory.step_phases.timeline.length);
    for (const p of tl.phases) assert.equal(Object.values(p.live).reduce((a, b) => a + b, 0), p.total_bytes, p.name);
    assert.equal(Math.max(...tl.phases.map((p) => p.total_bytes)), r.memory.peak_bytes);
    assert.equal(tl.phases[tl.peakIndex].name, r.memory.step_phases.peak_phase);
    // Stages cover every phase once, in order.
    assert.equal(tl.stages[0].from, 0);
    assert.equal(tl.stages.at(-1).to, tl.phases.length - 1);
    for (let i = 1; i < tl.stages.length; i += 1) assert.equal(tl.stages[i].from, tl.stages[i - 1].to + 1);
  }
});

test('a 128-block model’s timeline names every block forward and backward', () => {
  const r = engine.evaluate({ ...BASE, model: DEEP, batch_size: 1, seq_len: 2048 });
  const labels = timelineView(r).phases.map((p) => p.label);
  assert.ok(labels.includes('Forward, block 1'));
  assert.ok(labels.includes('Backward, block 128'));
  assert.ok(labels.includes('Backward, block 1 attention'));
  assert.equal(phaseLabel('optimizer_step'), 'Optimizer step');
});

test('the table twin’s cells carry the chart’s exact bytes, the peak row marked', () => {
  const tl = timelineView(engine.evaluate(BASE));
  const rows = timelineRows(tl);
  assert.equal(rows.length, tl.phases.length);
  rows.forEach((row, i) => {
    assert.deepEqual(row.cells.map((c) => c.value), [...tl.categories.map((c) => tl.phases[i].live[c.key]), tl.phases[i].total_bytes]);
  });
  assert.deepEqual(rows.filter((r) => r.cls === 'is-peak').map((r) => r.key), [tl.phases[tl.peakIndex].name]);
});

test('out of memory and pure 16-bit never read as success', () => {
  const ok = engine.evaluate(BASE);
  const fit = fitView(ok);
  assert.equal(fit.state, 'ok');
  assert.equal(fit.spare_bytes, ok.memory.usable_device_bytes - ok.memory.peak_bytes);
  assert.match(fit.headline, /^Fits: /);
  const oom = fitView(engine.evaluate({ ...BASE, batch_size: 64 }));
  assert.equal(oom.state, 'oom');
  assert.match(oom.headline, /^Out of memory: /);
  assert.doesNotMatch(oom.headline, /Fits/);
  const pure = fitView(engine.evaluate({ ...BASE, precision: 'bf16' }));
  assert.equal(pure.state, 'invalid');
  assert.match(pure.headline, /Cannot train/);
  assert.doesNotMatch(pure.headline, /^Fits/);
  assert.match(pure.detail, /master copy/);
});

test('the peak names its phase in words; the device size says GB and GiB', () => {
  const r = engine.evaluate(BASE);
  const p = peakView(r);
  assert.equal(p.peak_bytes, r.memory.peak_bytes);
  assert.equal(p.phase, r.memory.step_phases.peak_phase);
  assert.doesNotMatch(p.phase_words, /_|\./); // no engine ids
  const words = deviceSizeWords(r);
  assert.match(words, /10\^9 bytes/);
  assert.match(words, /2\^30 bytes/);
  assert.ok(words.includes(new Intl.NumberFormat('en-US').format(r.device.capacity_bytes)));
});

test('the textbook and PyTorch columns each add up to their own peak, byte for byte', () => {
  for (const s of [BASE, { ...BASE, precision: 'fp32' }, { ...BASE, optimizer: 'sgd', batch_size: 2 }]) {
    const pt = engine.evaluate(s);
    const tb = engine.evaluate(textbookTwin(s));
    const gap = gapView(pt, tb);
    assert.equal(gap.rows.reduce((a, r) => a + r.pytorch, 0), pt.memory.peak_bytes);
    assert.equal(gap.rows.reduce((a, r) => a + r.textbook, 0), tb.memory.peak_bytes);
    assert.equal(gap.diff_bytes, pt.memory.peak_bytes - tb.memory.peak_bytes);
    assert.match(gap.summary, /textbook sum/);
  }
});

test('the timing estimate is the pipeline’s, with its assumptions', () => {
  const r = engine.evaluate(BASE);
  const t = timingView(r);
  assert.deepEqual([t.step_seconds, t.tokens_per_second, t.mfu], [r.pipeline.step_seconds, r.pipeline.tokens_per_second, r.pipeline.mfu]);
  assert.ok(t.assumptions.length >= 3);
});

test('the solver answers for the scenario, or for its textbook twin where it does not take PyTorch, and says which', () => {
  const asked = [];
  const { solved, layout } = solveFor(BASE, (s) => { asked.push(s); return engine.solve(s); });
  const direct = engine.solve(BASE);
  if (direct.error) {
    assert.equal(layout, 'textbook');
    assert.deepEqual(asked.at(-1), textbookTwin(BASE));
  } else {
    assert.equal(layout, 'pytorch');
    assert.equal(asked.length, 1);
  }
  const v = solveView(solved, layout);
  assert.equal(v.largest_batch, solved.largest_batch.largest_batch);
  assert.equal(v.layout, layout);
  const textbook = solveFor(textbookTwin(BASE), engine.solve);
  assert.equal(textbook.layout, 'textbook');
  // An out-of-memory run gets the cheapest path's moves.
  const oom = solveView(...Object.values(solveFor({ ...BASE, batch_size: 64 }, engine.solve)));
  assert.equal(oom.fits_now, false);
  assert.ok(oom.moves.length > 0);
});

test('the ledger record is the engine’s answers for the scenario, and its line says out of memory when it is', () => {
  const rec = workbenchRecord(BASE, engine);
  const r = engine.evaluate(BASE);
  assert.equal(rec.peak_bytes, r.memory.peak_bytes);
  assert.equal(rec.peak_phase, r.memory.step_phases.peak_phase);
  assert.equal(rec.fits, true);
  assert.equal(rec.step_seconds, r.pipeline.step_seconds);
  assert.equal(rec.model_name, r.model.name);
  assert.match(workbenchText(rec, BASE), /fits in/);
  const oom = workbenchRecord({ ...BASE, batch_size: 64 }, engine);
  assert.match(workbenchText(oom, { ...BASE, batch_size: 64 }), /out of memory/);
  assert.equal(workbenchRecord(null, engine), null);
  assert.equal(workbenchRecord({ ...BASE, batch_size: -1 }, engine), null);
});

test('a grouped-query model with a sliding window: the timeline still adds up, and the engine’s notes come through', () => {
  const model = { ...DEEP, layers: 32, kv_heads: 4, sliding_window: 1024 };
  const r = engine.evaluate({ ...BASE, model, batch_size: 1, seq_len: 2048 });
  assert.equal(r.error, undefined, r.error && r.error.message);
  assert.equal(r.model.kv_heads, 4);
  const tl = timelineView(r);
  for (const p of tl.phases) assert.equal(Object.values(p.live).reduce((a, b) => a + b, 0), p.total_bytes, p.name);
  assert.equal(Math.max(...tl.phases.map((p) => p.total_bytes)), r.memory.peak_bytes);
  assert.ok(r.model.notes.some((n) => /Sliding window of 1024 tokens/.test(n)));
  // Fewer key/value heads keep fewer weights than the same model with every head its own.
  const mha = engine.evaluate({ ...BASE, model: { ...model, kv_heads: 16 }, batch_size: 1, seq_len: 2048 });
  assert.ok(r.model.parameters < mha.model.parameters);
});

test('a run that cannot train shows its speed only as what it would be: out of memory "if it fitted", pure 16-bit "does not train"', () => {
  const ok = timingView(engine.evaluate(BASE));
  assert.equal(ok.state, 'ok');
  assert.equal(ok.caveat, null);
  assert.equal(ok.labels.mfu, 'MFU (estimate)');
  const oomResult = engine.evaluate({ ...BASE, batch_size: 64 });
  assert.equal(oomResult.memory.fits, false);
  const oom = timingView(oomResult);
  assert.equal(oom.state, 'oom');
  assert.match(oom.caveat, /no step runs/);
  for (const label of Object.values(oom.labels)) assert.match(label, /if it fitted/);
  assert.equal(oom.mfu, oomResult.pipeline.mfu); // the figure is still the engine's, only labelled
  const pure = timingView(engine.evaluate({ ...BASE, precision: 'bf16' }));
  assert.equal(pure.state, 'invalid');
  assert.match(pure.caveat, /updates stall/);
  for (const label of Object.values(pure.labels)) assert.match(label, /does not train/);
  // The ledger's line says the same: no speed reads as reached.
  const s = { ...BASE, batch_size: 64 };
  const line = workbenchText(workbenchRecord(s, engine), s);
  assert.match(line, /no step runs \(if it fitted: estimated step /);
  assert.doesNotMatch(line, /; estimated step/);
  const p = { ...BASE, precision: 'bf16' };
  assert.match(workbenchText(workbenchRecord(p, engine), p), /but do not train\.$/);
  assert.match(workbenchText(workbenchRecord(BASE, engine), BASE), /; estimated step [\d.]+\ss, /);
});

test('the cheapest path names its moves as the controls do, and says why a move does not fit', () => {
  assert.equal(moveWords('optimizer adam -> sgd'), 'Optimizer: Adam(W) → SGD');
  assert.equal(moveWords('precision autocast_bf16 -> fp32'), 'Precision: Autocast BF16 → FP32');
  assert.equal(moveWords('precision bf16 -> mixed'), 'Precision: Pure BF16 → Mixed (FP32 master)');
  assert.equal(moveWords('batch 8 -> 4'), 'Micro-batch: 8 → 4');
  assert.equal(moveWords('checkpointing none -> every 4 layers'), 'Checkpointing: None → every 4 layers');
  // Pure BF16 that fits: its first move is under the usable memory and still refused, for training.
  const s = { model: 'qwen2-7b', device: 'h100-sxm-80gb', precision: 'bf16', optimizer: 'adam', batch_size: 1, seq_len: 1024, checkpointing: 'full', framework: 'textbook' };
  const r = engine.evaluate(s);
  assert.equal(r.error, undefined, r.error && r.error.message);
  const v = solveView(engine.solve(s), 'textbook', r.memory.usable_device_bytes);
  assert.equal(v.fits_now, false);
  const refused = v.moves.filter((m) => !m.fits);
  assert.ok(refused.length > 0);
  for (const m of refused) {
    assert.equal(m.outcome, m.peak_bytes > r.memory.usable_device_bytes ? 'still out of memory' : 'still cannot train: updates stall');
  }
  assert.ok(refused.some((m) => m.outcome === 'still cannot train: updates stall'));
  for (const m of v.moves) assert.doesNotMatch(m.words, /->|adam|autocast_|\bbf16\b/);
  // Out of memory: a move still over the usable memory says so.
  const big = { ...BASE, model: 'llama-3-8b' };
  const rb = engine.evaluate(big);
  const vb = solveView(...Object.values(solveFor(big, engine.solve)), rb.memory.usable_device_bytes);
  assert.ok(vb.moves.some((m) => m.outcome === 'still out of memory'));
  assert.ok(vb.moves.every((m) => m.outcome !== 'still out of memory' || m.peak_bytes > rb.memory.usable_device_bytes));
});

test('the "Why different?" sentence names every term of the gap: its terms add up to the total it shows', () => {
  const hundredths = (text) => Math.round(Number(text.replace(/,/g, '')) * 100);
  for (const s of [BASE, { ...BASE, precision: 'fp32' }, { ...BASE, optimizer: 'sgd', batch_size: 2 }, { ...BASE, model: 'tinyllama-1.1b', batch_size: 1 }]) {
    const pt = engine.evaluate(s);
    assert.equal(pt.error, undefined, pt.error && pt.error.message);
    const gap = gapView(pt, engine.evaluate(textbookTwin(s)));
    assert.equal(gap.terms.reduce((a, t) => a + t.bytes, 0), gap.diff_bytes); // exact, in bytes
    // As shown: "… is 5.00 GB above …: saved activations +4.42 GB, temporaries … +1.65 GB, everything else −1.07 GB."
    const m = /is ([\d,.]+)\sGB (above|below) the textbook sum: (.*)\.$/.exec(gap.summary);
    assert.ok(m, gap.summary);
    const shown = [...m[3].matchAll(/([+−])([\d,.]+)\sGB/g)].map(([, sign, x]) => (sign === '−' ? -1 : 1) * hundredths(x));
    assert.equal(shown.length, gap.terms.length);
    const total = (m[2] === 'above' ? 1 : -1) * hundredths(m[1]);
    if (!/\(each rounded\)/.test(m[3])) assert.equal(shown.reduce((a, b) => a + b, 0), total, gap.summary);
  }
  const gap = gapView(engine.evaluate(BASE), engine.evaluate(textbookTwin(BASE)));
  assert.ok(gap.terms.some((t) => t.label === 'everything else'), gap.summary);
});

test('a tiny model’s step reads in milliseconds, on the page and in the ledger line, never "0.00 s"', () => {
  const s = { ...BASE, model: 'measure-tiny', seq_len: 64 };
  const r = engine.evaluate(s);
  assert.equal(r.error, undefined, r.error && r.error.message);
  assert.ok(r.pipeline.step_seconds < 0.1);
  const t = timingView(r);
  assert.equal(t.step_text, `${(r.pipeline.step_seconds * 1000).toFixed(2)}\u00a0ms`);
  const line = workbenchText(workbenchRecord(s, engine), s);
  assert.ok(line.includes(`estimated step ${t.step_text}`), line);
  assert.doesNotMatch(line, /0\.00\s+s/);
  const base = engine.evaluate(BASE);
  assert.ok(base.pipeline.step_seconds >= 0.1);
  assert.equal(timingView(base).step_text, `${base.pipeline.step_seconds.toFixed(2)}\u00a0s`);
});

test('no micro-batch that fits reads "none" in the ledger line, as on the page', () => {
  const s = { model: 'tinyllama-1.1b', device: 't4-16gb', precision: 'autocast_fp16', optimizer: 'adam', batch_size: 1, seq_len: 1024, framework: 'pytorch' };
  const rec = workbenchRecord(s, engine);
  assert.equal(rec.largest_batch_size, 0);
  const line = workbenchText(rec, s);
  assert.match(line, /largest micro-batch that fits: none;/);
  assert.equal(largestText(0), 'none');
  assert.equal(largestText(1024), '1,024');
  assert.match(workbenchText(workbenchRecord(BASE, engine), BASE), /largest micro-batch that fits: [\d,]+;/);
});
