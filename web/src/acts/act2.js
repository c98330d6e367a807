// Act 2, "The MFU gap": predict → explore the step → reveal → reference → design and laptop
// challenges (act2-design.js, act2-laptop.js) → reflect (act2-reflect.js). Words live in
// act2-text.js, fixed engine numbers in act2-numbers.js, view models in ../act2-model.js, charts in
// ../charts/. The act reads and writes only the store.
import './act2.css';
import { h, setText, setParagraphs, setAttr, setLocked, replaceChildren } from '../ui/dom.js';
import { panel, renderSteps } from '../ui/act-parts.js';
import { createPrediction } from '../ui/prediction.js';
import { createAct2Controls } from '../ui/act2-controls.js';
import { Banner, fitState } from '../ui/banner.js';
import { createAfterPaint } from '../ui/after-paint.js';
import { createOffscreenParts } from '../ui/offscreen-parts.js';
import { keepViewBesideControls, focusNearTop } from '../ui/keep-in-view.js';
import { PipelineBar } from '../charts/pipeline-bar.js';
import { TimelineChart } from '../charts/timeline-chart.js';
import { GaugeScale } from '../charts/gauge-scale.js';
import { DataTable } from '../charts/data-table.js';
import { DEVICES2, CHAPTER_TUNED2, BATCH_SIZES2, WORKERS, toScenario2 } from '../state/scenario.js';
import { stepBar, timelineLanes, gauges, rangeError, PHASE_WORDS, withNotAsked } from '../models/act2-model.js';
import { smallestStep, memoryOptions } from '../models/act2-best.js';
import { createAct2Search } from '../models/act2-search.js';
import { formatBytes, formatRatio } from '../format/format.js';
import { withConfig2, withAct2 } from '../state/store.js';
import { act2Complete } from '../state/completion.js';
import { openControls, withFlags } from '../state/url-state.js';
import { fixedNumbers } from '../models/act2-numbers.js';
import { renderReference, renderMathPeek } from './act2-panels.js';
import { createLaptopChallenge } from './act2-laptop.js';
import { createAct2Reflections } from './act2-reflect.js';
import { createDesignPanel } from './act2-design.js';
import * as T from '../content/act2-text.js';
import { whyDetails } from '../ui/why-details.js';

export const id = 2;
export const title = T.TITLE;
export const shortTitle = T.SHORT_TITLE;

// Each step carries the number of its section, so the list and the headings agree; sections 3 and 5,
// the gauges and the reference, are read rather than done, and count as done once reached (the
// gauges with the exploring, the reference with the reveal that opens it). Walks 7 and 10: a list
// without them read 1, 2, 4, 6 as if steps were missing.
const STEPS = [
  { id: 'predict', section: 1, label: 'Predict', done: (a) => Boolean(a.prediction) },
  { id: 'explore', section: 2, label: 'Explore the step', done: (a) => Boolean(a.explored) },
  { id: 'gauges', section: 3, label: 'Read the gauges', done: (a) => Boolean(a.explored) },
  { id: 'reveal', section: 4, label: 'Reveal', done: (a) => a.revealed },
  { id: 'reference', section: 5, label: 'Compare with the chapter', done: (a) => a.revealed },
  { id: 'design', section: 6, label: 'Design challenge', done: (a) => a.design.regime_reached },
  { id: 'laptop', section: 7, label: 'Laptop challenge', done: (a) => a.laptop.finished },
  { id: 'reflect', section: 8, label: 'Reflect', done: (a) => Boolean(a.reflection_fix && a.reflection_ckpt) },
];


const describeSegment = (s) => `${PHASE_WORDS[s.phase]} for step ${s.step}, ${T.secs(s.start_seconds)} to ${T.secs(s.end_seconds)}`;

export function mount({ root, engine, store, flags, announce, arrival = {} }) {
  const evaluate = (s) => engine.evaluate(s);
  const catalog = engine.catalog();
  const n = fixedNumbers(evaluate, catalog);
  const devices = DEVICES2.map((d) => catalog.devices.find((x) => x.id === d)).filter(Boolean);

  // ---- 1. prediction
  const stepList = h('ol', { class: 'steps', 'aria-label': 'Your progress in Act 2' });
  const prediction = createPrediction({
    question: T.PREDICTION.question, options: T.PREDICTION.options, unlocks: '',
    onLock: (choice) => {
      const opt = T.PREDICTION.options.find((o) => o.id === choice);
      const { ratio, direction } = rangeError(opt.range[0], opt.range[1], n.tuned.mfu);
      store.update((s) => withAct2(s, { prediction: {
        choice, predicted_mfu: opt.value, truth_mfu: n.tuned.mfu, error_ratio: Number.isFinite(ratio) ? ratio : null,
        direction, answered_at: new Date().toISOString(), scenario: { ...CHAPTER_TUNED2 },
      } }));
      announce('Prediction locked in. The pipeline instruments are now open.');
      focusNearTop(stepPanel.heading);
    },
  });
  const predictPanel = panel('1. Predict', prediction.el);
  const lockedHint = h('p', { class: 'locked-hint' }, h('strong', { text: 'Locked: ' }), 'the step timing, the gauges and the challenges open once you lock in a prediction.');

  // ---- 2. the step: controls, bar, timeline
  const controls = createAct2Controls({ devices, flags, onChange: (patch) => {
    arrival.act2FromLink = false; // a change of the student's own: from now on the settings are theirs
    store.update((s) => withAct2(withConfig2(s, patch), { explored: true }));
  } });
  // What the calibration box changes, the GPU's capacity in both units, and the constants: one click
  // away (issue 23: every number intact, behind a short "Why?").
  const calibNote = h('div', { class: 'control__note calib-note' });
  const capacityNote = h('p', { class: 'control__note', 'data-note': 'capacity' });
  const calibWhy = whyDetails('Why? Calibration, constants, units', calibNote, capacityNote);
  const stepBanner = new Banner();
  const status = stepBanner.el;
  const barBox = h('div', { class: 'chart-box chart-box--fluid' });
  const barSummary = h('p', { class: 'chart-summary', 'data-summary': 'bar' });
  const barTwin = h('details', { class: 'twin' }, h('summary', { text: 'The step’s numbers as a table' }));
  const bar = new PipelineBar(barBox, { label: 'One training step, by phase' });
  const barTable = new DataTable(barTwin, { caption: 'One training step by phase', className: 'step-table' });
  // Shares are rounded inside the bar's brackets to the gauges' own values (act2-model.js stepBar);
  // seconds to add up to the step (walk 9: 20.2% compute here, 20.1% pipeline efficiency there).
  barTwin.append(h('p', { class: 'control__note', text: 'Seconds and shares are rounded so that each column adds up to its whole, and the shares inside GPU busy, GPU kernels and pipeline efficiency to the gauges’ values; a second may differ by 0.01 s from the engine’s.' }));
  const tlBox = h('div', { class: 'chart-box chart-box--fluid' });
  const tlSummary = h('p', { class: 'chart-summary', 'data-summary': 'timeline' });
  const tlTwin = h('details', { class: 'twin' }, h('summary', { text: 'The timeline as a table' }));
  const timeline = new TimelineChart(tlBox);
  const tlTable = new DataTable(tlTwin, { caption: 'Work on each resource, step by step', className: 'timeline-table' });
  const stepControls = h('div', { class: 'step-layout__controls' }, controls.el);
  const barFigure = h('figure', { class: 'chart-figure' }, barBox, h('figcaption', {}, barSummary));
  const tlFigure = h('figure', { class: 'chart-figure' }, tlBox, h('figcaption', {}, tlSummary));
  // The timeline, one click away: the bar's legend already says what prefetching hides.
  const tlDetails = h('details', { class: 'why timeline-details' }, h('summary', { text: 'Three steps on a timeline' }), tlFigure, tlTwin);
  const stepView = h('div', { class: 'step-layout__view' }, status, barFigure, barTwin, tlDetails);
  const stepPanel = panel('2. Where one step’s time goes',
    h('p', { class: 'panel__lead', text: T.stepLead({ pipeline: openControls(['workers', 'prefetch', 'pin'], flags).length > 0,
      step: openControls(['prec', 'ckpt', 'batch', 'dev', 'replay'], flags).length > 0 }) }),
    // On a wide screen the controls sit beside the bar and the timeline, so a change and what it does
    // are on screen together (act2.css); on a narrow one they stack in this order.
    h('div', { class: 'step-layout' }, stepControls, calibWhy, stepView));
  keepViewBesideControls({ layout: stepControls.parentElement, controls: stepControls, view: stepView });

  // ---- 3. gauges
  const gaugeBox = h('div', { class: 'chart-box chart-box--fluid' });
  const gauge = new GaugeScale(gaugeBox);
  const gaugeList = h('dl', { class: 'gauge-list' });
  const bottleneck = h('p', { class: 'bottleneck' });
  // Out of memory the gauges still show the step's timing (walk 9: read as a real throughput).
  const gaugeOom = h('p', { class: 'control__note gauge-oom', hidden: true,
    text: 'This step does not fit in memory, so it cannot run: these gauges show what it would do if it fitted.' });
  const gaugePanel = panel('3. Gauges, kept apart', h('p', { class: 'panel__lead', text: T.orderExplainer() }),
    gaugeOom, h('figure', { class: 'chart-figure' }, gaugeBox), gaugeList, bottleneck);

  // An instructor may lock or hide every control; then there is nothing to explore and the reveal opens.
  const ACT2_CONTROLS = ['workers', 'prefetch', 'pin', 'prec', 'ckpt', 'batch', 'dev', 'replay'];
  const open2 = new Set(openControls(ACT2_CONTROLS, flags));
  const nothingToExplore = open2.size === 0;
  const replayOpen = openControls(['replay'], flags).length > 0;

  // ---- 4. reveal
  const revealBody = h('div', { class: 'reveal', role: 'status' });
  const revealHint = h('p', { class: 'control__note' });
  const revealButton = h('button', { type: 'button', class: 'btn btn--primary reveal-button', text: 'Reveal: how far off was my prediction?',
    onclick: () => { store.update((s) => withAct2(s, { revealed: true })); revealPanel.heading.focus(); } });
  const revealPanel = panel('4. Reveal', revealHint, revealButton, revealBody);

  // ---- 5. reference, 6. design challenge, 7. laptop, 8. reflections, Math Peek
  const afterReveal = () => h('p', { class: 'locked-hint', text: 'Opens after the reveal.' });
  const refLocked = afterReveal();
  const refBody = h('div');
  const refPanel = panel('5. The chapter’s walkthrough beside the engine', refLocked, refBody);

  // The fit table and the best-setting search, scheduled off the input path (act2-search.js).
  const search = createAct2Search({ evaluate, solveBest: (c) => {
    const sv = engine.call('solve', { ...toScenario2(c, { schedule_steps: 0 }), max_batch_size: BATCH_SIZES2[BATCH_SIZES2.length - 1] });
    return sv.error ? null : sv.best_throughput;
  } });
  const tableFor = (c) => search.tableFor(c);
  const design = createDesignPanel({ evaluate, store, search, devices, arrival, nothingToExplore, open: open2,
    allOpen: open2.size === ACT2_CONTROLS.length });
  const laptop = createLaptopChallenge({ engine, store, announce, flags });
  const laptopPanel = panel('7. Laptop challenge: fit GPT-2 XL training in 8 GB', laptop.el);

  const reflect = createAct2Reflections({ evaluate, store, fixes: n.fixes, lockedHint: afterReveal() });
  const peek = h('details', { class: 'panel panel--peek math-peek' }, h('summary', { text: 'Math Peek: MFU and the Iron Law' }));
  const peekBody = h('div');
  peek.append(peekBody);
  const done = h('p', { class: 'done', role: 'status' });

  const unlocked = h('div', { class: 'act-unlocked' },
    stepPanel.el, gaugePanel.el, peek, revealPanel.el, refPanel.el, design.el, laptopPanel.el, reflect.el, done);
  const titleEl = h('h2', { id: 'act-title', tabindex: '-1', text: T.TITLE });
  root.append(h('section', { class: 'act act2', 'aria-labelledby': 'act-title', 'data-act': '2' },
    titleEl, stepList, T.INTRO.map((p) => h('p', { class: 'act-intro', text: p })), predictPanel.el, lockedHint, unlocked));

  // Tables wider than a phone scroll inside their box: make each box reachable by keyboard and named.
  for (const [twin, name] of [[barTwin, 'Step table'], [tlTwin, 'Timeline table']]) {
    const box = twin.querySelector('.table-scroll');
    if (box) { box.tabIndex = 0; box.setAttribute('role', 'region'); box.setAttribute('aria-label', `${name} (scrolls sideways on narrow screens)`); }
  }

  // ---- render
  const afterPaint = createAfterPaint(root);
  // What is out of view when the settings change is drawn just after the paint, or when it scrolls
  // in (ui/offscreen-parts.js): at 1,280 px the gauges sit below the step, at 390 px the bar and the
  // timeline sit below the controls, and the frame after an input then costs only what is seen.
  const offscreen = createOffscreenParts();
  offscreen.watch(calibNote, barFigure, tlFigure, gaugePanel.el);
  function renderInstrument(state) {
    const c = state.config2;
    const u = state.config.units;
    const r = evaluate(toScenario2(c));
    if (r.error) {
      stepBanner.update({ state: 'error', title: 'The engine could not compute this setting.', text: `${r.error.field}: ${r.error.message}` });
      return null;
    }
    search.warm(c);
    offscreen.draw(calibNote, () => setParagraphs(calibNote, T.calibrationParagraphs(c, r, n.chapterActivations, u, { replayOpen })));
    const m = r.memory;
    const fit = fitState(m); // Act 2 trains in FP32 or mixed precision: never 'invalid'
    // What can still make a step fit, once per change, for the banner and the bottleneck advice.
    const mem = m.fits ? null : memoryOptions(evaluate, c, open2, tableFor, devices);
    const nothing = m.fits ? null : nothingFits(c, r, u, mem);
    stepBanner.update({
      state: fit,
      title: fit === 'ok' ? `Fits: peak memory ${formatBytes(m.peak_bytes, u)} of the ${T.shortGpu(r.device.name)}’s ${formatBytes(m.usable_device_bytes, u)} usable.`
        : `Out of memory: this step needs ${formatBytes(m.peak_bytes, u)} and the ${r.device.name} holds ${formatBytes(m.usable_device_bytes, u)}, so it cannot run; the timing below is what it would take if it fitted.`,
      lines: nothing ? [nothing] : [],
    });
    setText(capacityNote, capacityWords(r.device, m.usable_device_bytes, u));
    const p = r.pipeline;
    const b = stepBar(p);
    const top = [...b.segments].sort((x, y) => y.seconds - x.seconds)[0];
    const barSentence = `One step takes ${T.secs(b.step_seconds_shown)}; the largest part, ${top.share_pct_shown.toFixed(1)}%, is ${top.label.toLowerCase()}.`;
    offscreen.draw(barFigure, () => {
      bar.update(b, { secs: T.secs, summary: barSentence });
      setText(barSummary, barSentence);
    });
    const tl = timelineLanes(p);
    offscreen.draw(tlFigure, () => {
      const tlSentence = T.timelineSentence(b, tl, p.prefetch_effective);
      timeline.update(tl, { secs: T.secs, summary: tlSentence, key: timelineKey(tl) });
      setText(tlSummary, tlSentence);
      setAttr(timeline.svg.node(), 'aria-description', tl.lanes.flatMap((l) => l.segments.slice(0, 2).map(describeSegment)).join('; '));
    });
    offscreen.draw(gaugePanel.el, () => renderGauges(r, c, mem));
    // The table twins and the Math Peek are not on screen right after a change: they follow one
    // frame later, so the charts and gauges paint first.
    afterPaint(() => {
      offscreen.flush();
      design.render(store.getState(), r); // section 6 is below the fold: after the paint too
      barTable.update({ columns: ['Phase', 'On the critical path', 'Share of the step', 'Hidden behind other work'],
        rows: [...b.segments.map((s) => ({ key: s.key, header: s.label, cells: [
          { text: T.secs(s.seconds_shown), value: s.seconds }, { text: `${s.share_pct_shown.toFixed(1)}%`, value: s.share },
          { text: s.hidden_seconds > 0.005 ? T.secs(s.hidden_seconds) : '—', value: s.hidden_seconds }] })),
        { key: 'total', header: 'Whole step', cls: 'row--total', cells: [{ text: T.secs(b.step_seconds_shown), value: b.step_seconds }, { text: '100.0%', value: 1 }, { text: '', value: b.segments.reduce((t, x) => t + x.hidden_seconds, 0) }] },
        // The brackets under the bar, with the segments they cover (the same values as the gauges).
        ...b.spans.map((sp) => {
          const inside = b.segments.filter((s) => s.start_seconds >= sp.start_seconds - 1e-12 && s.start_seconds + s.seconds <= sp.end_seconds + 1e-12);
          return { key: `span-${sp.key}`, header: `${sp.label}: ${inside.map((s) => s.label).join(' + ')}`, cls: 'row--span', cells: [
            { text: T.secs(inside.reduce((t, s) => t + s.seconds_shown, 0)), value: sp.end_seconds - sp.start_seconds },
            { text: `${sp.pct_shown.toFixed(1)}%`, value: (sp.end_seconds - sp.start_seconds) / b.step_seconds }, { text: '' }] };
        })] });
      tlTable.update({ columns: ['Resource', 'Work', 'Step', 'From', 'To'],
        rows: tl.lanes.flatMap((l) => l.segments.map((s, i) => ({ key: `${l.key}-${i}`, header: l.label,
          cells: [{ text: PHASE_WORDS[s.phase] }, { text: String(s.step), value: s.step }, { text: T.secs(s.start_seconds), value: s.start_seconds }, { text: T.secs(s.end_seconds), value: s.end_seconds }] }))) });
      renderMathPeek(peekBody, r);
      reflect.renderNumbers(c, u);
    });
    return r;
  }

  // A device's marketing name next to its usable bytes (the V100 and A100 are named in GiB).
  function capacityWords(device, usable, u) {
    const gib = usable / 2 ** 30;
    return `The ${device.name} has ${formatBytes(usable, 'gb')} = ${formatBytes(usable, 'gib')} usable${u === 'gib' ? '' : ' (GB = 10^9 bytes, GiB = 2^30 bytes)'}${Math.abs(gib - Math.round(gib)) < 0.01 ? `: its “${Math.round(gib)} GB” name counts GiB` : ''}.`;
  }


  // When nothing the act can set fits on this GPU: why, from the smallest step, and which GPUs fit.
  function nothingFits(c, r, u, mem) {
    const small = smallestStep(tableFor(c));
    if (small.result.memory.fits) return null;
    const others = open2.has('dev') ? devices.filter((d) => d.id !== c.device) : []; // a fixed GPU is not suggested
    const fitsOn = (patch) => others.filter((d) => evaluate(toScenario2(c, { ...patch, device: d.id, schedule_steps: 0 })).memory.fits).map((d) => d.name);
    const these = fitsOn({});
    const opts = { tickFits: mem.tickFits };
    return these.length ? T.nothingFitsText(small, r.device.name, these, c.replay, u, 'these settings fit', opts)
      : T.nothingFitsText(small, r.device.name, fitsOn(small.config), c.replay, u, 'that smallest step fits', opts);
  }

  // The timeline's key: each kind of work drawn, and the hatching of alternate steps.
  function timelineKey(tl) {
    const phases = [...new Set(tl.lanes.flatMap((l) => l.segments.map((x) => x.phase)))];
    const hatched = Array.from({ length: tl.steps }, (_, i) => i + 1).filter((st) => st % 2 === 0);
    // Loading and handing over a batch share one colour (both are data work; their lanes tell them
    // apart): one key entry for both.
    const same = phases.includes('data_loading') && phases.includes('data_handoff');
    const entries = phases.filter((ph) => !(same && ph === 'data_handoff')).map((ph) => ({ cls: `phase--${ph}`,
      text: same && ph === 'data_loading' ? `${PHASE_WORDS.data_loading}, or ${PHASE_WORDS.data_handoff}` : PHASE_WORDS[ph] }));
    return [...entries,
      ...(hatched.length ? [{ cls: 'swatch--hatch', text: `hatched: step${hatched.length > 1 ? 's' : ''} ${hatched.join(', ')} (alternate steps)` }] : [])];
  }

  // The gauge list's rows are rebuilt only when which gauges show changes (HFU comes and goes with
  // recomputation); otherwise their words change in place, so an input re-lays-out only its numbers.
  let gaugeRows = { keys: null, cells: [] };
  function updateGaugeList(items) {
    const keys = items.map(([key]) => key).join(' ');
    if (keys !== gaugeRows.keys) {
      const cells = items.map(([key]) => ({ dt: h('dt'), dd: h('dd', { 'data-gauge': key }) }));
      gaugeRows = { keys, cells };
      gaugeList.replaceChildren(...cells.flatMap((c) => [c.dt, c.dd]));
    }
    items.forEach(([, term, value], i) => { setText(gaugeRows.cells[i].dt, term); setText(gaugeRows.cells[i].dd, value); });
  }

  // What of the engine's advice is left to try with the controls open here (act2-text.js).
  function adviceHere(b, c, mem) {
    if (b.axis === 'data') return T.loaderAdvice(c, open2, WORKERS.max, b.limiter);
    if (b.limiter === 'memory_capacity') {
      return T.memoryAdvice(c, open2, { ...mem, otherGpus: mem.otherGpus.map((d) => d.name), smallestBatch: BATCH_SIZES2[0] });
    }
    return '';
  }

  function renderGauges(r, c, mem) {
    const fits = r.memory.fits;
    if (gaugeOom.hidden !== fits) gaugeOom.hidden = fits;
    const g = gauges(r);
    const marks = [
      { key: 'busy', label: 'GPU busy', value: g.busy, text: `GPU busy ${T.pct(g.busy)}` },
      { key: 'pe', label: 'Pipeline efficiency', value: g.pipeline_efficiency, text: `Pipeline efficiency ${T.pct(g.pipeline_efficiency)}`, short: `Pipeline eff. ${T.pct(g.pipeline_efficiency)}` },
      ...(g.hfu !== null ? [{ key: 'hfu', value: g.hfu, text: `HFU ${T.pct(g.hfu)}` }] : []),
      { key: 'mfu', label: 'MFU', value: g.mfu, text: `MFU ${T.pct(g.mfu)}` },
      { key: 'ceiling', value: g.mfu_ceiling, text: `MFU ceiling ${T.pct(g.mfu_ceiling)}`, short: `Ceiling ${T.pct(g.mfu_ceiling)}`, dashed: true },
    ];
    gauge.update(marks, { hypothetical: !fits,
      summary: `${fits ? '' : 'If it fitted: '}GPU busy ${T.pct(g.busy)} ≥ pipeline efficiency ${T.pct(g.pipeline_efficiency)}${g.hfu !== null ? ` ≥ HFU ${T.pct(g.hfu)}` : ''} ≥ MFU ${T.pct(g.mfu)}.` });
    // One name and one value per quantity: the same as the bar's brackets and the design challenge.
    const ifFitted = fits ? '' : ', if it fitted';
    updateGaugeList([
      ['busy', `GPU busy${ifFitted}`, T.pct(g.busy)],
      ['kernels', `GPU kernels${ifFitted}`, T.pct(r.pipeline.chapter_shares.compute)],
      // With recomputation the bar splits the matrix multiplications into the model's and the
      // recompute: the efficiency counts both (walk 8: it matched neither segment).
      ['pe', `Pipeline efficiency${ifFitted}`, T.pct(g.pipeline_efficiency)],
      ...(g.hfu !== null ? [['hfu', `HFU${ifFitted}`, T.pct(g.hfu)]] : []),
      ['mfu', `MFU (of the ${r.scenario.precision === 'fp32' ? 'FP32' : '16-bit'} peak)${ifFitted}`, T.pct(g.mfu)],
      ['ceiling', `MFU ceiling${ifFitted}`, T.pct(g.mfu_ceiling)],
      // Out of memory these two read as a real speed (walk 12): their names say they are hypothetical.
      ['tokens', `Throughput${ifFitted}`, T.rate(g.tokens_per_second)],
      ['epoch', `Time per epoch (${(r.pipeline.epoch_tokens / 1e6).toLocaleString('en-US', { maximumFractionDigits: 3 })} million tokens)${ifFitted}`, T.hours(g.epoch_hours)],
    ]);
    setText(bottleneck, `Bottleneck: ${g.bottleneck.message}${adviceHere(g.bottleneck, c, mem)}`);
    setAttr(bottleneck, 'data-axis', g.bottleneck.axis);
  }

  function renderWords(state) {
    const a = state.acts.act2;
    const u = state.config.units;
    const labels = Object.fromEntries(T.PREDICTION.options.map((o) => [o.id, o.label]));
    prediction.update(labels, a.prediction ? a.prediction.choice : null);
    // With every setting fixed, or the tuned regime out of reach of those left open, the design
    // challenge is not asked for: the step list says so.
    renderSteps(stepList, STEPS, { ...a, explored: a.explored || (nothingToExplore && Boolean(a.prediction)) }, design.asked() ? {} : { design: nothingToExplore ? 'not asked here' : 'its tuned regime is not asked here' });
    setLocked(unlocked, !a.prediction);
    lockedHint.hidden = Boolean(a.prediction);
    revealButton.hidden = a.revealed;
    const explored = a.explored || nothingToExplore;
    revealButton.disabled = !explored;
    setText(revealHint, a.revealed ? '' : nothingToExplore ? 'Every setting of the step is fixed in this lab, so there is nothing to explore: compare your prediction with the engine when you are ready.'
      : explored ? 'When you are ready, compare your prediction with the engine.' : 'Change a setting in section 2 first; then the reveal opens.');
    if (a.revealed && a.prediction) {
      const i = T.PREDICTION.options.findIndex((o) => o.id === a.prediction.choice);
      const opt = T.PREDICTION.options[i];
      const err = rangeError(opt.range[0], opt.range[1], a.prediction.truth_mfu);
      const errText = err.direction === 'exact' ? 'That is inside the range you chose: right.' : `The nearer end of your range is off by ${formatRatio(err.ratio)} (${err.direction === 'under' ? 'too low' : 'too high'}).`;
      const lines = T.revealLines(n, `${String.fromCharCode(65 + i)} (${labels[a.prediction.choice]})`, errText);
      replaceChildren(revealBody, h('p', { class: 'reveal__key', text: lines[0] }), h('p', { text: lines[1] }),
        whyDetails('Why? The three numbers', lines.slice(2).map((t) => h('p', { text: t }))));
      revealBody.dataset.revealed = 'true';
    } else { revealBody.replaceChildren(); delete revealBody.dataset.revealed; }
    setLocked(refBody, !a.revealed);
    refLocked.hidden = a.revealed;
    if (a.revealed) renderReference(refBody, n.reference, u);
    reflect.update(a, u);
    const complete = act2Complete(a, { asked: design.asked() }); // one DOM-free rule (completion.js)
    // The record keeps why the regime was not asked, so a ledger completed under an instructor's
    // locks says so (regime_reached false beside completed true, explained).
    const notAsked = design.notAsked();
    if (complete !== a.completed || withNotAsked(a.design, notAsked) !== a.design) {
      queueMicrotask(() => store.update((s) => withAct2(s, { completed: complete, design: withNotAsked(s.acts.act2.design, notAsked) })));
    }
    replaceChildren(done, complete ? ['Act 2 complete: you have seen where a step’s time goes, why MFU sits below busy time, and where one GPU runs out of memory. ',
      h('a', { href: withFlags('?act=ledger', flags), text: 'Compare your predictions and export your design ledger' }), '.'] : []);
  }

  let last = {};
  function render(state) {
    const configKey = JSON.stringify([state.config2, state.config.units]);
    let r = last.result;
    const configChanged = configKey !== last.config;
    if (configChanged) { controls.update(state.config2); r = renderInstrument(state); }
    const a = state.acts.act2;
    const designKey = JSON.stringify([configKey, a.design, Boolean(a.prediction), a.explored, Boolean(arrival.act2FromLink)]);
    // A settings change renders the design panel after the paint (renderInstrument schedules it).
    if (designKey !== last.design && !(configChanged && r)) design.render(state, r);
    const wordsKey = JSON.stringify([a.prediction, a.explored, a.revealed, a.reflection_fix, a.reflection_ckpt, a.completed, a.design.regime_reached, a.laptop.finished, state.config.units]);
    if (wordsKey !== last.words) renderWords(state);
    const lapKey = JSON.stringify([a.laptop, state.config.units]);
    if (lapKey !== last.lap) laptop.render(state);
    last = { config: configKey, words: wordsKey, design: designKey, lap: lapKey, result: r };
  }

  render(store.getState());
  const unsubscribe = store.subscribe((state) => render(state));
  // Once it is known whether the tuned regime is in reach, the panel and the step list are drawn again.
  design.start(store.getState().config2, () => { last = { ...last, design: null, words: null }; render(store.getState()); });
  return { focus: () => titleEl.focus(), destroy: () => { unsubscribe(); search.stop(); offscreen.stop(); bar.reset(); timeline.reset(); gauge.reset(); root.replaceChildren(); } };
}

