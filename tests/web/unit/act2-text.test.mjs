// Unit tests for Act 2's words (web/src/content/act2-text.js) on results of the real engine (the WASM
// build under Node): each sentence says exactly what its scenario's numbers say.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../../scripts/engine-node.mjs';
import { stepBar, timelineLanes } from '../../../web/src/models/act2-model.js';
import { nearestByRatio } from '../../../web/src/format/scoring.js';
import { fixedNumbers, ckptNumbers } from '../../../web/src/models/act2-numbers.js';
import { fixFeedback, fixWhy, timelineSentence, calibrationText, calibrationParagraphs, ckptOverheadFeedback, recomputeNote, nothingFitsText, reconciliation, ckptFormulaText, ckptScenarioText, ckptRatioFeedback, FIX_QUESTION, CKPT_QUESTION, secs, rate, pct, stepLead, loaderAdvice, memoryAdvice, regimeOutOfReach } from '../../../web/src/content/act2-text.js';
const T = { loaderAdvice, memoryAdvice, regimeOutOfReach };
import { fitTable, smallestStep } from '../../../web/src/models/act2-best.js';
import { DEFAULT_CONFIG2, CHAPTER_TUNED2, toScenario2 } from '../../../web/src/state/scenario.js';
import { formatBytes, formatInt, formatRatio, plainText } from '../../../web/src/format/format.js';

const m = await loadEngine();
const evaluate = (s) => JSON.parse(m.evaluate(JSON.stringify(s)));
const catalog = JSON.parse(m.catalog());
const n = fixedNumbers(evaluate, catalog);

// Walk finding MINOR-4: the sentence said "loading and copying" were hidden; only loading is.
test('the prefetch sentence names exactly the work prefetching hides and what stays on the critical path', () => {
  const r = evaluate(toScenario2(CHAPTER_TUNED2));
  const b = stepBar(r.pipeline);
  const tl = timelineLanes(r.pipeline);
  const text = timelineSentence(b, tl, r.pipeline.prefetch_effective);
  const load = b.segments.find((s) => s.key === 'data_loading');
  const transfer = b.segments.find((s) => s.key === 'transfer');
  assert.ok(load.hidden_seconds > 0.005 && transfer.hidden_seconds <= 0.005, 'the engine hides loading, not the copy');
  assert.ok(text.includes(`${secs(load.hidden_seconds)} of data loading per step no longer lengthens it`), text);
  const dma = b.segments.find((s) => s.key === 'dma');
  assert.ok(text.includes(`still on the critical path: data loading ${secs(load.seconds_shown)} and the host→device copy ${secs(transfer.seconds_shown + dma.seconds_shown)}`), text);
  assert.doesNotMatch(text, /loading and copying/);
  assert.ok(text.endsWith(`(${tl.steps} steps, ${secs(tl.end_seconds)}).`), text);
  const base = evaluate(toScenario2(DEFAULT_CONFIG2));
  assert.match(timelineSentence(stepBar(base.pipeline), timelineLanes(base.pipeline), base.pipeline.prefetch_effective), /^Without prefetching/);
});

// Walk finding MINOR-7: every choice got the same closing explanation (the faster GPU's).
test('the single-fix feedback is specific to the option chosen, with that option’s engine numbers and the right answer’s reason', () => {
  const texts = FIX_QUESTION.options.map((o) => {
    const f = n.fixes.find((x) => x.id === o.id);
    const text = `${fixFeedback(f.best, n.fixes, o.id)} ${fixWhy(f.best, n.fixes, o.id)}`; // on screen, then behind its Why?
    assert.ok(text.includes(rate(f.tokens)), `${o.id}: its own tokens/s`);
    assert.ok(text.includes(pct(f.shares.data_loading)), `${o.id}: its own data-loading share`);
    return { o, f, text };
  });
  const best = n.fixes.find((x) => x.best);
  assert.equal(best.change, 'prefetch', 'more loader workers with prefetching wins');
  for (const { f, text } of texts) {
    if (f.best) {
      assert.match(text, /^Right\./);
      assert.equal(text.match(/Workers load the next batches/g).length, 1);
    } else {
      assert.match(text, /^Not quite\./);
      assert.ok(text.includes(`The fastest single change is prefetching in background workers, at ${rate(best.tokens)}.`), text);
      assert.match(text, /Workers load the next batches while the GPU computes/, 'the right answer’s reason');
    }
  }
  assert.equal(new Set(texts.map((t) => t.text)).size, texts.length, 'no two choices read the same');
  assert.match(texts.find((t) => t.o.change === 'faster_gpu').text, /Twice the peak FLOP\/s shrinks only the GPU’s part/);
  assert.match(texts.find((t) => t.o.change === 'sgd').text, /SGD needs less memory than Adam/);
  assert.match(texts.find((t) => t.o.change === 'half_batch').text, /Half the batch/);
  assert.doesNotMatch(texts.find((t) => t.o.change === 'sgd').text, /faster GPU|Twice the peak/);
});

// Walk finding MAJOR-1: the box switched the memory model too, and nothing said so.
test('the calibration note says what the box switches, memory and timing, with the engine’s numbers', () => {
  const on = evaluate(toScenario2(DEFAULT_CONFIG2));
  const off = evaluate(toScenario2(DEFAULT_CONFIG2, { replay: false }));
  const tOn = calibrationText(DEFAULT_CONFIG2, on, n.chapterActivations, 'gb');
  assert.ok(tOn.includes(`N = ${formatInt(on.memory.parameters_counted)} parameters`), tOn);
  assert.ok(tOn.includes(formatBytes(n.chapterActivations.bytes, 'gb')), tOn);
  assert.equal(n.chapterActivations.bytes, 65e9, 'the chapter’s 65 GB figure, as the engine prices it');
  assert.match(tOn, /Memory as the chapter counts it/);
  assert.match(tOn, /Timing:/);
  // In GiB units the chapter's figure stays in its own unit, GiB beside it (a re-walk found "60.54 GiB").
  const tGib = calibrationText(DEFAULT_CONFIG2, on, n.chapterActivations, 'gib');
  assert.ok(tGib.includes(`figure of ${formatBytes(65e9, 'gb')} (${formatBytes(65e9, 'gib')})`), tGib);
  const tOff = calibrationText({ ...DEFAULT_CONFIG2, replay: false }, off, n.chapterActivations, 'gb');
  assert.ok(tOff.length > 0, 'the note never goes empty');
  assert.ok(tOff.includes(`N = ${formatInt(off.memory.parameters_counted)} parameters`), tOff);
  assert.notEqual(off.memory.parameters_counted, on.memory.parameters_counted);
  assert.ok(tOff.includes(`peaks at ${formatBytes(off.memory.peak_bytes, 'gb')}, of which ${formatBytes(off.memory.static_bytes, 'gb')}`), tOff);
  assert.match(tOff, /Korthikanti/);
});

test('when nothing the act can set fits on the V100, one sentence says why from the smallest step and names GPUs that fit', () => {
  const c = { ...DEFAULT_CONFIG2, replay: false };
  const small = smallestStep(fitTable(evaluate, c));
  assert.equal(small.result.memory.fits, false, 'the physics model does not fit on the V100 at any batch the act offers');
  assert.equal(small.config.batch_size, 16);
  const names = ['NVIDIA A100 SXM4 80 GB', 'NVIDIA H100 SXM 80 GB'];
  const text = nothingFitsText(small, 'NVIDIA V100 SXM2 32 GB', names, false, 'gb');
  const mm = small.result.memory;
  assert.ok(text.includes(`needs ${formatBytes(mm.peak_bytes, 'gb')} of the ${formatBytes(mm.usable_device_bytes, 'gb')} usable`), text);
  assert.ok(text.includes(`alone take ${formatBytes(mm.static_bytes, 'gb')}`), text);
  assert.ok(text.includes('choose the NVIDIA A100 SXM4 80 GB or the NVIDIA H100 SXM 80 GB'), text);
  assert.equal(text.split('. ').length, 1, 'one sentence');
  // With the calibration the V100 fits the act's smallest step: ticking it is suggested only where
  // it can be ticked (the page passes tickFits), and a fixed GPU is not suggested (no names passed).
  assert.equal(smallestStep(fitTable(evaluate, DEFAULT_CONFIG2)).result.memory.fits, true);
  assert.doesNotMatch(text, /tick/);
  assert.match(nothingFitsText(small, 'NVIDIA V100 SXM2 32 GB', names, false, 'gb', 'these settings fit', { tickFits: true }),
    /, where these settings fit, or tick the chapter calibration\.$/);
  assert.match(nothingFitsText(small, 'NVIDIA V100 SXM2 32 GB', [], false, 'gb', 'these settings fit', { tickFits: true }), /alone take [^;]+; tick the chapter calibration\.$/);
  assert.match(nothingFitsText(small, 'NVIDIA V100 SXM2 32 GB', [], false, 'gb'), /alone take [\d.]+\sGB\.$/);
});

// Walk finding MINOR-6: GiB amounts were compared with the chapter's GB.
test('the reference memory comparison is in the chapter’s GB, with GiB beside it in GiB mode', () => {
  const gb = reconciliation(n.reference, 'gb')[2];
  const gib = reconciliation(n.reference, 'gib')[2];
  assert.ok(gb.includes(formatBytes(n.reference.memBefore, 'gb')) && !gb.includes('GiB'), gb);
  assert.ok(gib.includes(`${formatBytes(n.reference.memBefore, 'gb')} (${formatBytes(n.reference.memBefore, 'gib')})`), gib);
  assert.ok(gib.includes(`${formatBytes(n.reference.memAfter, 'gb')} (${formatBytes(n.reference.memAfter, 'gib')})`), gib);
  assert.ok(plainText(gb).includes(`rounds ${formatInt(n.reference.memAfter)} B down`), gb);
});

// Stop 16 finding: with the calibration on, k ran backwards (k = 1 kept everything, k = 48 kept 1/48).
test('with the chapter calibration, every k layers saves most near √L, nothing at k = 1 or 48, and the note gives the engine’s share', () => {
  const act = (k) => evaluate(toScenario2({ ...DEFAULT_CONFIG2, checkpointing: 'every_k', every_k: k })).memory.components.activations;
  const none = evaluate(toScenario2({ ...DEFAULT_CONFIG2, checkpointing: 'none' })).memory.components.activations;
  assert.ok(act(48) > act(7) && act(1) > act(7), `k=1 ${act(1)}, k=7 ${act(7)}, k=48 ${act(48)}`);
  assert.equal(act(1), none, 'a checkpoint at every layer saves nothing in the formula');
  assert.equal(act(48), none, 'one segment of all 48 layers saves nothing');
  assert.equal(act(4), act(12), '(k + L/k) is the same for 4 and 12 when L = 48');
  const c = { ...DEFAULT_CONFIG2, checkpointing: 'every_k', every_k: 8 };
  const r = evaluate(toScenario2(c));
  const d = r.memory.activations_detail;
  const text = calibrationText(c, r, n.chapterActivations, 'gb');
  assert.ok(text.includes(`For k = 8 the calibration uses the chapter’s formula k·A + (L/k)·A (L = 48 layers, A = one layer’s activations) with its saving scaled by 1.125, so that k = 4 still saves the chapter’s 75%. At k = 8 the calibration keeps ${(d.chapter_kept_share * 100).toFixed(1)}% of the activations`), text);
  assert.equal((d.chapter_kept_share * 100).toFixed(1), '20.3', '1 − 1.125 × (1 − 14/48)');
  const c48 = { ...c, every_k: 48 };
  assert.match(calibrationText(c48, evaluate(toScenario2(c48)), n.chapterActivations, 'gb'), /For k = 48 .*75%\. At k = 48 the calibration keeps all the activations: one segment of all 48 layers saves nothing, in the formula and in the physics model\./);
  // Walk finding (stop 17): at k = 1 the note read as a general fact, while Full recompute (a checkpoint at every layer) saves the most.
  const c1 = { ...c, every_k: 1 };
  const t1 = calibrationText(c1, evaluate(toScenario2(c1)), n.chapterActivations, 'gb');
  // Walk finding (stop 17): the note chained three colons ("75%: it keeps all the activations: the formula …").
  assert.doesNotMatch(t1, /75%: /);
  assert.match(t1, /75%\. At k = 1 the calibration keeps all the activations\. The formula counts each checkpoint as a whole layer’s activations, so a checkpoint at every layer saves nothing\. Real implementations store only each layer’s input: that is why the Full recompute scheme \(a checkpoint at every layer\) and the physics model \(box unticked\) save the most at k = 1\./);
  const full = evaluate(toScenario2({ ...c, checkpointing: 'full' })).memory.components.activations;
  const phys = (k) => ckptNumbers(evaluate, { ...c, replay: false, every_k: k }).ratio;
  assert.ok(full < act(1) && phys(1) > phys(4) && phys(4) > phys(48), 'what the sentence claims holds in the engine');
  assert.doesNotMatch(calibrationText({ ...c, every_k: 4 }, evaluate(toScenario2({ ...c, every_k: 4 })), n.chapterActivations, 'gb'), /For k = /);
});

// Walk finding (stop 17): "48/(1 + 48/1) = 0.98× less than L·A", and "fall from 286.89 GB to 286.89 GB".
test('the checkpointing sentences say "no saving" where there is none, and "1 layer" in the singular', () => {
  for (const [replay, k] of [[true, 1], [true, 48], [false, 48]]) {
    const cn = ckptNumbers(evaluate, { ...DEFAULT_CONFIG2, replay, checkpointing: 'every_k', every_k: k });
    const formula = ckptFormulaText(cn);
    assert.ok(formula.includes(`L/(k + L/k) = 48/(${k} + 48/${k}) = ${formatRatio(cn.formulaRatio)}: it stores 49·A, slightly more than L·A = 48·A, so no saving.`), formula);
    assert.ok(cn.formulaRatio < 1, 'k + L/k = 49 > 48 stored layers');
    assert.doesNotMatch(formula, /0\.98× less/);
    const now = ckptScenarioText(cn, 'gb');
    assert.doesNotMatch(now, /fall from (\S+\sGB) to \1/, now);
    if (replay) assert.match(now, /activations stay at 32\.50\sGB \(no saving\)/, now);
    assert.ok(now.includes(`every ${k} layer${k === 1 ? '' : 's'} (`), now);
  }
  const seven = ckptNumbers(evaluate, { ...DEFAULT_CONFIG2, checkpointing: 'every_k', every_k: 7 });
  assert.ok(ckptFormulaText(seven).includes(`48/(7 + 48/7) = ${formatRatio(seven.formulaRatio)} less. The formula saves the most at k = √L ≈ 6.9`), ckptFormulaText(seven));
  // Walk finding (this stop): the physics model's figure counts the segment rebuilt during backward, which
  // memory.components.activations leaves out; the sentence names it.
  const phys1 = ckptNumbers(evaluate, { ...DEFAULT_CONFIG2, replay: false, checkpointing: 'every_k', every_k: 1 });
  assert.ok(phys1.rebuilt_bytes > 0 && phys1.rebuilt_bytes < phys1.with_bytes, JSON.stringify(phys1));
  assert.ok(ckptScenarioText(phys1, 'gb').includes(`(${formatRatio(phys1.ratio)}; ${formatBytes(phys1.with_bytes)} counts the ${formatBytes(phys1.rebuilt_bytes)} of one segment rebuilt during backward)`), ckptScenarioText(phys1, 'gb'));
  assert.ok(plainText(ckptScenarioText(seven, 'gb')).includes(plainText(`activations fall from 32.50 GB to ${formatBytes(seven.with_bytes)} (${formatRatio(seven.ratio)})`)), ckptScenarioText(seven, 'gb'));
});

// Issue 23: the checkpointing question asks about one stated scenario, the chapter's tuned step, so
// its right answer is the chapter's own 4× whatever the calibration box on screen says.
test('the checkpointing question’s one scenario gives the chapter’s 4× and its feedback names the engine’s bytes', () => {
  const chapter = ckptNumbers(evaluate, CHAPTER_TUNED2);
  assert.equal(formatRatio(chapter.ratio), '4.0×');
  assert.equal(CKPT_QUESTION.ratioOptions[nearestByRatio(CKPT_QUESTION.ratioOptions.map((o) => o.value), chapter.ratio)].label, '4×');
  assert.equal(ckptRatioFeedback(chapter, 'gb'), `Activation memory falls 4.0×, from ${formatBytes(chapter.without_bytes)} to ${formatBytes(chapter.with_bytes)}, in the chapter’s step.`);
  assert.match(CKPT_QUESTION.intro, /chapter’s tuned step .*chapter calibration/);
});

// Walk finding (this stop): at k = 1 the note was one ~170-word paragraph with the k sentence last,
// after the timing constants. One paragraph per subject, the k rule right after what memory counts.
test('the calibration note comes as paragraphs: memory, the k rule, timing, then the loader settings', () => {
  const c = { ...DEFAULT_CONFIG2, checkpointing: 'every_k', every_k: 1, data_workers: 4, prefetch: true };
  const ps = calibrationParagraphs(c, evaluate(toScenario2(c)), n.chapterActivations, 'gb');
  assert.equal(ps.length, 4, JSON.stringify(ps));
  assert.match(ps[0], /^Chapter calibration on\. Memory as the chapter counts it/);
  assert.match(ps[1], /^The chapter gives a saving only for every 4 layers .* At k = 1 the calibration keeps all the activations/);
  assert.match(ps[2], /^Timing: /);
  assert.match(ps[3], /^Prefetch depth only limits/);
  assert.equal(calibrationText(c, evaluate(toScenario2(c)), n.chapterActivations, 'gb'), ps.join(' '));
  const four = { ...c, every_k: 4 };
  assert.equal(calibrationParagraphs(four, evaluate(toScenario2(four)), n.chapterActivations, 'gb').length, 3, 'no k paragraph at the chapter’s own k = 4');
});

// Walk findings (this stop): the extra-compute line did not say which option counts; FP32 listed a
// master copy it does not have; in GiB the chapter's figure had two brackets in a row.
test('the extra-compute line names the option that counts, and the notes list only what the step holds', () => {
  assert.equal(ckptOverheadFeedback(0.318), 'Extra compute: 31.8% more FLOPs, so 33% counts as right.');
  assert.match(ckptOverheadFeedback(0.12), /so 10% counts as right\.$/);
  const fp32 = { ...DEFAULT_CONFIG2, precision: 'fp32', replay: false };
  const r32 = evaluate(toScenario2(fp32));
  assert.equal(r32.memory.components.master_weights, 0);
  const t32 = calibrationText(fp32, r32, n.chapterActivations, 'gb');
  assert.ok(t32.includes(`of which ${formatBytes(r32.memory.static_bytes)} is weights, gradients and optimizer state.`), t32);
  assert.doesNotMatch(t32, /master copy/);
  const mixed = { ...fp32, precision: 'mixed' };
  assert.match(calibrationText(mixed, evaluate(toScenario2(mixed)), n.chapterActivations, 'gb'), /is weights, gradients, master copy and optimizer state\./);
  const gib = calibrationText(DEFAULT_CONFIG2, evaluate(toScenario2(DEFAULT_CONFIG2)), n.chapterActivations, 'gib');
  assert.doesNotMatch(gib, /\) \(/, gib);
  assert.match(gib, /the chapter’s figure of 65\.00\sGB \(60\.54\sGiB\) for FP32, batch 32 and no checkpointing\./);
});

test('section 2’s lead names only what can be changed', () => {
  assert.match(stepLead(), /^Change the data pipeline and the step itself; the bar shows/);
  assert.match(stepLead({ pipeline: false }), /^Change the step itself; the bar shows/);
  assert.match(stepLead({ step: false }), /^Change the data pipeline; the bar shows/);
  assert.match(stepLead({ pipeline: false, step: false }), /^The bar shows where one step’s seconds go/);
});

test('the calibration note does not ask to tick or untick a box an instructor locked', () => {
  const ev = (c) => evaluate(toScenario2(c));
  for (const replay of [true, false]) {
    const c = { ...DEFAULT_CONFIG2, replay };
    const open = calibrationParagraphs(c, ev(c), n.chapterActivations, 'gb').join(' ');
    const locked = calibrationParagraphs(c, ev(c), n.chapterActivations, 'gb', { replayOpen: false }).join(' ');
    assert.match(open, replay ? /Untick the box/ : /Tick the box/);
    assert.doesNotMatch(locked, /[Tt]ick the box|Compare with the calibration off/);
  }
});

test('the data-bound advice says which loader settings are left to try here, and why the others are not', () => {
  const all = new Set(['workers', 'prefetch', 'pin', 'prec', 'ckpt', 'batch', 'dev', 'replay']);
  const but = (...fixed) => new Set([...all].filter((k) => !fixed.includes(k)));
  const base = { ...DEFAULT_CONFIG2, data_workers: 0, prefetch: false, pinned_memory: false };
  assert.equal(T.loaderAdvice(base, all, 16), '', 'all three open and useful: the engine’s advice stands');
  assert.equal(T.loaderAdvice(base, but('workers'), 16),
    ' Here pinned memory is left to try: the number of loader workers is fixed in this lab and prefetching has no effect without a worker.');
  assert.equal(T.loaderAdvice({ ...base, data_workers: 2 }, but('workers', 'pin'), 16),
    ' Here prefetching is left to try: the number of loader workers and pinned memory are fixed in this lab.');
  assert.equal(T.loaderAdvice(base, but('workers', 'prefetch', 'pin'), 16),
    ' None of those can help further here: the number of loader workers, prefetching and pinned memory are fixed in this lab.');
  assert.equal(T.loaderAdvice({ ...base, data_workers: 16, prefetch: true, pinned_memory: true }, all, 16),
    ' None of those can help further here: the loader workers are at the slider’s maximum (16), prefetching is already on and memory is already pinned.');
  assert.equal(T.loaderAdvice({ ...base, data_workers: 4, pinned_memory: true }, all, 16),
    ' Here more loader workers and prefetching are left to try: memory is already pinned.');
});

test('the tuned regime out of reach: the reason, with the search’s shares and the thresholds', () => {
  const regime = { max_data_share: 0.05, min_compute_share: 0.75 };
  const base = { reachable: false, calibration_off: false, example: null, lowest_data_share: null, highest_compute_share: null };
  assert.match(T.regimeOutOfReach({ ...base, calibration_off: true }, regime), /^The tuned regime is the chapter’s calibrated profile, and the calibration is fixed off in this lab\. With the physics model’s constants the loader is fast enough from the start, so the shares above do not count for it, and this part of the challenge is not asked for here/);
  assert.equal(T.regimeOutOfReach(base, regime), 'Nothing the settings left open can set fits in memory with the ones fixed in this lab: no step can run here, so this part of the challenge is not asked for here.');
  assert.equal(T.regimeOutOfReach({ ...base, lowest_data_share: 0.1312, highest_compute_share: 0.8125 }, regime),
    'With the settings fixed in this lab, no choice of the ones left open gets data loading to 5.0% or less and GPU compute to 75.0% or more of the step: the lowest loading share they reach is 13.1% and the highest compute share 81.3% (not necessarily with the same settings), so this part of the challenge is not asked for here.');
});

test('out of memory: the advice says this act keeps Adam and what can still make a step fit', () => {
  const all = new Set(['workers', 'prefetch', 'pin', 'prec', 'ckpt', 'batch', 'dev', 'replay']);
  const but = (...fixed) => new Set([...all].filter((k) => !fixed.includes(k)));
  const fp32 = { ...DEFAULT_CONFIG2, precision: 'fp32', checkpointing: 'none', batch_size: 64 };
  const A80 = 'NVIDIA A100 SXM4 80 GB';
  const o = (x) => ({ fitsHere: true, otherGpus: [A80], tickFits: false, smallestBatch: 16, ...x });
  assert.equal(T.memoryAdvice(fp32, all, o()), ' This act keeps Adam.');
  assert.equal(T.memoryAdvice(fp32, but('dev'), o()),
    ' This act keeps Adam. Here mixed precision, more checkpointing and a smaller batch are left to try: the GPU is fixed in this lab.');
  // Already at their least; every-1-layer keeps as little as full recompute; no other GPU fits.
  for (const ck of [{ checkpointing: 'full' }, { checkpointing: 'every_k', every_k: 1 }]) {
    assert.equal(T.memoryAdvice({ ...fp32, precision: 'mixed', ...ck, batch_size: 16 }, all, o({ fitsHere: false, otherGpus: [] })),
      ' This act keeps Adam. None of those can help further here: no choice of the precision, checkpointing or the batch size left open fits on this GPU and no other GPU here fits it.');
  }
  // Walk 9: with the GPU locked and nothing fitting on it, nothing is suggested; the student walk of
  // issue 23: ticking the calibration is not a memory fix (the banner names it where it is the way on).
  assert.equal(T.memoryAdvice({ ...fp32, precision: 'mixed', checkpointing: 'full', batch_size: 16 }, but('dev'), o({ fitsHere: false, otherGpus: [], tickFits: true })),
    ' This act keeps Adam. None of those can help further here: the GPU is fixed in this lab and no choice of the precision, checkpointing or the batch size left open fits on this GPU.');
  assert.equal(T.memoryAdvice(fp32, but('prec', 'ckpt', 'batch'), o({ fitsHere: false })),
    ' This act keeps Adam. Here another GPU (the NVIDIA A100 SXM4 80 GB) is left to try: the precision, checkpointing and the batch size are fixed in this lab.');
  assert.equal(T.memoryAdvice(fp32, but('prec', 'ckpt', 'batch'), o({ fitsHere: false, otherGpus: [] })),
    ' This act keeps Adam. None of those can help further here: the precision, checkpointing and the batch size are fixed in this lab and no other GPU here fits it.');
});

test('when the copies dominate, the engine advises pinning only, and the page says when that is fixed or done (walks 10, 11)', () => {
  const all = new Set(['workers', 'prefetch', 'pin', 'prec', 'ckpt', 'batch', 'dev', 'replay']);
  const c = { ...DEFAULT_CONFIG2, data_workers: 8, prefetch: true, pinned_memory: false };
  assert.equal(T.loaderAdvice(c, all, 16, 'transfer'), '', 'pinning is open: the engine’s advice stands');
  assert.equal(T.loaderAdvice(c, new Set([...all].filter((k) => k !== 'pin')), 16, 'transfer'), ' Pinned memory is fixed in this lab, so that cannot be tried here.');
  // Pinned already: the engine's sentence says what is left, so the page adds nothing, locked or not.
  assert.equal(T.loaderAdvice({ ...c, pinned_memory: true }, all, 16, 'transfer'), '');
  assert.equal(T.loaderAdvice({ ...c, pinned_memory: true }, new Set([...all].filter((k) => k !== 'pin')), 16, 'transfer'), '');
  // Loading dominating: "more loader workers" takes a plural verb.
  assert.equal(T.loaderAdvice({ ...c, prefetch: true, pinned_memory: true }, all, 16, 'data_loading'),
    ' Here more loader workers are left to try: prefetching is already on and memory is already pinned.');
});

// Re-walk 13: under the calibration the HFU line's recompute is the chapter's flat share for every
// scheme; the Peek's note says so, and it is true of the engine (the physics model differs by scheme).
test('the recompute note gives the engine’s share, and the calibration’s flat share holds for every scheme', () => {
  const share = (cal, ckpt) => {
    const f = evaluate(toScenario2({ ...DEFAULT_CONFIG2, replay: cal, checkpointing: ckpt })).flops;
    return f.recompute_per_token / f.model_per_token;
  };
  const cal = ['selective', 'full', 'every_k'].map((k) => share(true, k));
  assert.ok(cal.every((x) => x === cal[0] && x > 0), `calibrated shares: ${cal}`);
  assert.notEqual(share(false, 'selective'), share(false, 'full'), 'the physics model follows the scheme');
  const f = evaluate(toScenario2({ ...DEFAULT_CONFIG2, replay: true, checkpointing: 'selective' })).flops;
  const on = recomputeNote(f, true);
  assert.ok(on.startsWith(`Recomputed FLOPs per token: ${formatInt(f.recompute_per_token)} (${pct(cal[0])} of the model’s FLOPs per token).`), on);
  assert.match(on, /the chapter’s flat share for every checkpointing scheme/);
  const off = recomputeNote(evaluate(toScenario2({ ...DEFAULT_CONFIG2, replay: false, checkpointing: 'selective' })).flops, false);
  assert.doesNotMatch(off, /calibration/);
});
