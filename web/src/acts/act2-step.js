// Act 2's sections 2 and 3, the instruments: the controls beside the step's bar and timeline (with
// their table twins, the fit banner and the calibration note) and the gauges. Builders put their
// elements on the act's context (act2.js); renderers draw one engine result, leaving out-of-view
// parts to ui/offscreen-parts.js. Words from act2-text.js, view models from ../models/act2-model.js.
import { h, setText, setParagraphs, setAttr } from '../ui/dom.js';
import { panel } from '../ui/act-parts.js';
import { createAct2Controls } from '../ui/act2-controls.js';
import { Banner, fitState } from '../ui/banner.js';
import { keepViewBesideControls } from '../ui/keep-in-view.js';
import { PipelineBar } from '../charts/pipeline-bar.js';
import { TimelineChart } from '../charts/timeline-chart.js';
import { GaugeScale } from '../charts/gauge-scale.js';
import { DataTable } from '../charts/data-table.js';
import { BATCH_SIZES2, WORKERS, toScenario2 } from '../state/scenario.js';
import { stepBar, timelineLanes, gauges, PHASE_WORDS } from '../models/act2-model.js';
import { smallestStep, memoryOptions } from '../models/act2-best.js';
import { formatBytes } from '../format/format.js';
import { withConfig2, withAct2 } from '../state/store.js';
import { openControls } from '../state/url-state.js';
import * as T from '../content/act2-text.js';
import { whyDetails } from '../ui/why-details.js';

// Section 2: the controls, and beside them (on a wide screen) the fit banner, the step's bar and the
// timeline, each with its table twin; the calibration and capacity notes behind a "Why?".
export function buildStepSection(ctx) {
  const { flags, store, arrival } = ctx;
  const controls = createAct2Controls({ devices: ctx.devices, flags, onChange: (patch) => {
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
  Object.assign(ctx, { controls, calibNote, capacityNote, stepBanner, barSummary, barTwin, bar, barTable,
    tlSummary, tlTwin, timeline, tlTable, barFigure, tlFigure, stepPanel });
}

// Section 3: the gauges on one scale, their values as a list, and the bottleneck in words.
export function buildGaugeSection(ctx) {
  const gaugeBox = h('div', { class: 'chart-box chart-box--fluid' });
  const gauge = new GaugeScale(gaugeBox);
  const gaugeList = h('dl', { class: 'gauge-list' });
  const bottleneck = h('p', { class: 'bottleneck' });
  // Out of memory the gauges still show the step's timing (walk 9: read as a real throughput).
  const gaugeOom = h('p', { class: 'control__note gauge-oom', hidden: true,
    text: 'This step does not fit in memory, so it cannot run: these gauges show what it would do if it fitted.' });
  const gaugePanel = panel('3. Gauges, kept apart', h('p', { class: 'panel__lead', text: T.orderExplainer() }),
    gaugeOom, h('figure', { class: 'chart-figure' }, gaugeBox), gaugeList, bottleneck);
  // The gauge list's rows, kept between renders (updateGaugeList).
  Object.assign(ctx, { gauge, gaugeList, bottleneck, gaugeOom, gaugePanel, gaugeRows: { keys: null, cells: [] } });
}

// Sections 2 and 3 for the settings in `state`: the banner at once, each chart now or, out of view,
// just after the paint. Returns { r, b, tl } for the parts drawn after the paint, or null when the
// engine cannot compute the setting.
export function renderStep(ctx, state) {
  const c = state.config2;
  const u = state.config.units;
  const r = ctx.evaluate(toScenario2(c));
  if (r.error) {
    ctx.stepBanner.update({ state: 'error', title: 'The engine could not compute this setting.', text: `${r.error.field}: ${r.error.message}` });
    return null;
  }
  ctx.search.warm(c);
  const { offscreen, calibNote } = ctx;
  offscreen.draw(calibNote, () => setParagraphs(calibNote, T.calibrationParagraphs(c, r, ctx.n.chapterActivations, u, { replayOpen: ctx.replayOpen })));
  const mem = renderFit(ctx, c, r, u);
  const p = r.pipeline;
  const b = stepBar(p);
  drawBar(ctx, b);
  const tl = timelineLanes(p);
  drawTimeline(ctx, b, tl, p.prefetch_effective);
  offscreen.draw(ctx.gaugePanel.el, () => renderGauges(ctx, r, c, mem));
  return { r, b, tl };
}

// The fit banner and the GPU's capacity note. Returns what can still make the step fit, once per
// change, for the banner and the bottleneck advice (null when it fits).
function renderFit(ctx, c, r, u) {
  const m = r.memory;
  const fit = fitState(m); // Act 2 trains in FP32 or mixed precision: never 'invalid'
  const mem = m.fits ? null : memoryOptions(ctx.evaluate, c, ctx.open2, ctx.tableFor, ctx.devices);
  const nothing = m.fits ? null : nothingFits(ctx, c, r, u, mem);
  ctx.stepBanner.update({
    state: fit,
    title: fit === 'ok' ? `Fits: peak memory ${formatBytes(m.peak_bytes, u)} of the ${T.shortGpu(r.device.name)}’s ${formatBytes(m.usable_device_bytes, u)} usable.`
      : `Out of memory: this step needs ${formatBytes(m.peak_bytes, u)} and the ${r.device.name} holds ${formatBytes(m.usable_device_bytes, u)}, so it cannot run; the timing below is what it would take if it fitted.`,
    lines: nothing ? [nothing] : [],
  });
  setText(ctx.capacityNote, capacityWords(r.device, m.usable_device_bytes, u));
  return mem;
}

// The step's bar and its one-sentence summary (also the chart's accessible name).
function drawBar(ctx, b) {
  const top = [...b.segments].sort((x, y) => y.seconds - x.seconds)[0];
  const barSentence = `One step takes ${T.secs(b.step_seconds_shown)}; the largest part, ${top.share_pct_shown.toFixed(1)}%, is ${top.label.toLowerCase()}.`;
  ctx.offscreen.draw(ctx.barFigure, () => {
    ctx.bar.update(b, { secs: T.secs, summary: barSentence });
    setText(ctx.barSummary, barSentence);
  });
}

// Three steps on the timeline, its summary, key and a spoken description of the first segments.
function drawTimeline(ctx, b, tl, prefetchEffective) {
  ctx.offscreen.draw(ctx.tlFigure, () => {
    const tlSentence = T.timelineSentence(b, tl, prefetchEffective);
    const { timeline } = ctx;
    timeline.update(tl, { secs: T.secs, summary: tlSentence, key: timelineKey(tl) });
    setText(ctx.tlSummary, tlSentence);
    setAttr(timeline.svg.node(), 'aria-description', tl.lanes.flatMap((l) => l.segments.slice(0, 2).map(describeSegment)).join('; '));
  });
}

const describeSegment = (s) => `${PHASE_WORDS[s.phase]} for step ${s.step}, ${T.secs(s.start_seconds)} to ${T.secs(s.end_seconds)}`;

// The bar's and the timeline's table twins: not on screen right after a change, so the act draws
// them after the paint.
export function renderStepTables(ctx, b, tl) {
  ctx.barTable.update({ columns: ['Phase', 'On the critical path', 'Share of the step', 'Hidden behind other work'], rows: barRows(b) });
  ctx.tlTable.update({ columns: ['Resource', 'Work', 'Step', 'From', 'To'],
    rows: tl.lanes.flatMap((l) => l.segments.map((s, i) => ({ key: `${l.key}-${i}`, header: l.label,
      cells: [{ text: PHASE_WORDS[s.phase] }, { text: String(s.step), value: s.step }, { text: T.secs(s.start_seconds), value: s.start_seconds }, { text: T.secs(s.end_seconds), value: s.end_seconds }] }))) });
}

// The step table's rows: each phase, the whole step, and the brackets under the bar.
function barRows(b) {
  return [...b.segments.map((s) => ({ key: s.key, header: s.label, cells: [
    { text: T.secs(s.seconds_shown), value: s.seconds }, { text: `${s.share_pct_shown.toFixed(1)}%`, value: s.share },
    { text: s.hidden_seconds > 0.005 ? T.secs(s.hidden_seconds) : '—', value: s.hidden_seconds }] })),
  { key: 'total', header: 'Whole step', cls: 'row--total', cells: [{ text: T.secs(b.step_seconds_shown), value: b.step_seconds }, { text: '100.0%', value: 1 }, { text: '', value: b.segments.reduce((t, x) => t + x.hidden_seconds, 0) }] },
  // The brackets under the bar, with the segments they cover (the same values as the gauges).
  ...b.spans.map((sp) => {
    const inside = b.segments.filter((s) => s.start_seconds >= sp.start_seconds - 1e-12 && s.start_seconds + s.seconds <= sp.end_seconds + 1e-12);
    return { key: `span-${sp.key}`, header: `${sp.label}: ${inside.map((s) => s.label).join(' + ')}`, cls: 'row--span', cells: [
      { text: T.secs(inside.reduce((t, s) => t + s.seconds_shown, 0)), value: sp.end_seconds - sp.start_seconds },
      { text: `${sp.pct_shown.toFixed(1)}%`, value: (sp.end_seconds - sp.start_seconds) / b.step_seconds }, { text: '' }] };
  })];
}

// A device's marketing name next to its usable bytes (the V100 and A100 are named in GiB).
function capacityWords(device, usable, u) {
  const gib = usable / 2 ** 30;
  return `The ${device.name} has ${formatBytes(usable, 'gb')} = ${formatBytes(usable, 'gib')} usable${u === 'gib' ? '' : ' (GB = 10^9 bytes, GiB = 2^30 bytes)'}${Math.abs(gib - Math.round(gib)) < 0.01 ? `: its “${Math.round(gib)} GB” name counts GiB` : ''}.`;
}

// When nothing the act can set fits on this GPU: why, from the smallest step, and which GPUs fit.
function nothingFits(ctx, c, r, u, mem) {
  const { evaluate, devices } = ctx;
  const small = smallestStep(ctx.tableFor(c));
  if (small.result.memory.fits) return null;
  const others = ctx.open2.has('dev') ? devices.filter((d) => d.id !== c.device) : []; // a fixed GPU is not suggested
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
function updateGaugeList(ctx, items) {
  const keys = items.map(([key]) => key).join(' ');
  if (keys !== ctx.gaugeRows.keys) {
    const cells = items.map(([key]) => ({ dt: h('dt'), dd: h('dd', { 'data-gauge': key }) }));
    ctx.gaugeRows = { keys, cells };
    ctx.gaugeList.replaceChildren(...cells.flatMap((c) => [c.dt, c.dd]));
  }
  const { cells } = ctx.gaugeRows;
  items.forEach(([, term, value], i) => { setText(cells[i].dt, term); setText(cells[i].dd, value); });
}

// What of the engine's advice is left to try with the controls open here (act2-text.js).
function adviceHere(ctx, b, c, mem) {
  if (b.axis === 'data') return T.loaderAdvice(c, ctx.open2, WORKERS.max, b.limiter);
  if (b.limiter === 'memory_capacity') {
    return T.memoryAdvice(c, ctx.open2, { ...mem, otherGpus: mem.otherGpus.map((d) => d.name), smallestBatch: BATCH_SIZES2[0] });
  }
  return '';
}

// Section 3 for result r: the marks on the scale, the list of values and the bottleneck with advice.
function renderGauges(ctx, r, c, mem) {
  const fits = r.memory.fits;
  const { gaugeOom, bottleneck } = ctx;
  if (gaugeOom.hidden !== fits) gaugeOom.hidden = fits;
  const g = gauges(r);
  const marks = [
    { key: 'busy', label: 'GPU busy', value: g.busy, text: `GPU busy ${T.pct(g.busy)}` },
    { key: 'pe', label: 'Pipeline efficiency', value: g.pipeline_efficiency, text: `Pipeline efficiency ${T.pct(g.pipeline_efficiency)}`, short: `Pipeline eff. ${T.pct(g.pipeline_efficiency)}` },
    ...(g.hfu !== null ? [{ key: 'hfu', value: g.hfu, text: `HFU ${T.pct(g.hfu)}` }] : []),
    { key: 'mfu', label: 'MFU', value: g.mfu, text: `MFU ${T.pct(g.mfu)}` },
    { key: 'ceiling', value: g.mfu_ceiling, text: `MFU ceiling ${T.pct(g.mfu_ceiling)}`, short: `Ceiling ${T.pct(g.mfu_ceiling)}`, dashed: true },
  ];
  ctx.gauge.update(marks, { hypothetical: !fits,
    summary: `${fits ? '' : 'If it fitted: '}GPU busy ${T.pct(g.busy)} ≥ pipeline efficiency ${T.pct(g.pipeline_efficiency)}${g.hfu !== null ? ` ≥ HFU ${T.pct(g.hfu)}` : ''} ≥ MFU ${T.pct(g.mfu)}.` });
  updateGaugeList(ctx, gaugeItems(r, g, fits));
  setText(bottleneck, `Bottleneck: ${g.bottleneck.message}${adviceHere(ctx, g.bottleneck, c, mem)}`);
  setAttr(bottleneck, 'data-axis', g.bottleneck.axis);
}

// The gauge list's [key, term, value] rows: one name and one value per quantity, the same as the
// bar's brackets and the design challenge.
function gaugeItems(r, g, fits) {
  const ifFitted = fits ? '' : ', if it fitted';
  return [
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
  ];
}
