// The "Measure it" panel: real training steps of the reference engine in a Web Worker (through the
// engine adapter's startTraining), drawn as they arrive: the loss curve, measured vs predicted bytes
// per category, the memory timeline of one step, this CPU's FLOP/s and MFU, and the pure-16-bit stall
// demo. Words live in measure-text.js, arithmetic on reports in measure-model.js / stall-model.js /
// measure-tables.js. Panel settings stay local (not in the store or the URL); the store is only read
// for the units. The settings and the last runs are kept for the tab (measure-keep.js) and drawn again,
// marked as restored, when the student comes back to the panel.
// The named parts below share one state object, p (settings, runs' data, elements, p.render); the runs
// and what is kept of them are in measure-runs.js.
import { h, uid, setText, replaceChildren } from '../ui/dom.js';
import { panel } from '../ui/act-parts.js';
import { createRunStatus } from '../ui/run-status.js';
import { createMeasureControls, radioControl, selectControl } from '../ui/measure-controls.js';
import { LossChart } from '../charts/loss-chart.js';
import { MeasuredBytesChart } from '../charts/measured-bytes-chart.js';
import { MemoryTimelineChart } from '../charts/memory-timeline-chart.js';
import { DataTable } from '../charts/data-table.js';
import {
  DEFAULT_SETTINGS, LABELS, bytePairs, ledgerScenario, bytesSummary, timelineModel, timelineSummary,
  speedRows, speedSummary, arithmeticSentence, liveSpeedReport,
} from '../models/measure-model.js';
import {
  lossRefs, lossSummary, STALL, stallModel, stallLossSummary, stallUnchangedSummary,
} from '../models/stall-model.js';
import { bytesTable, timelineTable, seriesTable, fractionText } from '../models/measure-tables.js';
import { clockSentence } from '../models/measure-clock.js';
import { formatInt } from '../format/format.js';
import { loadKept, forgetKept, keepStorageOf } from '../models/measure-keep.js';
import * as T from '../content/measure-text.js';
import { whyDetails } from '../ui/why-details.js';
import { runTrain, runStall, cancelRun, keepPanel, restoreTrain, restoreStall } from './measure-runs.js';
import './measure.css';

export const id = 'measure';
export const title = T.TITLE;
export const shortTitle = T.SHORT_TITLE;


// A chart with its one-sentence summary and its table twin, hidden until there is data.
function chartBlock(make, { label, caption, twinLabel }) {
  // The chart is drawn at this box's width (it never scrolls sideways), so the box is no tab stop.
  const box = h('div', { class: 'chart-box', role: 'group', 'aria-label': label });
  const summary = h('p', { class: 'chart-summary' });
  const twin = h('details', { class: 'twin' }, h('summary', { text: twinLabel || 'The chart’s numbers as a table' }));
  const el = h('div', { class: 'chart-block', hidden: true }, h('figure', { class: 'chart-figure' }, box, h('figcaption', {}, summary)), twin);
  return { el, summary, chart: make(box, { label }), table: new DataTable(twin, { caption }) };
}

export function mount(ctx) {
  const storage = keepStorageOf(window, ctx.store.status().persistent);
  const kept = loadKept(storage);
  try {
    return mountPanel(ctx, storage, kept);
  } catch (err) {
    if (!kept) throw err;
    // What was kept passed the checks but could not be drawn: forget it rather than break the panel.
    forgetKept(storage);
    ctx.root.replaceChildren();
    return mountPanel(ctx, storage, null);
  }
}

// The panel from its named parts: state, the six panels, what was kept, then the ties to the page.
function mountPanel({ root, engine, store }, storage, kept) {
  const stallSettings = kept ? kept.stallSettings : { pure: STALL.default_pure, steps: STALL.default_steps };
  const p = {
    root, engine, store, storage,
    units: store.getState().config.units,
    settings: { ...DEFAULT_SETTINGS, ...(kept ? kept.settings : {}) },
    active: null, // { kind, handle, cancelled }
    gone: false, // destroyed: a run still finishing must not draw or keep anything
    // end: how the run ended ({ outcome, stepsDone }), null while it runs.
    tr: { losses: [], seconds: [], total: 0, report: null, reportSeq: 0, end: null },
    st: { ...stallSettings, reports: { pure: null, mixed: null }, live: { pure: [], mixed: [] }, end: null },
    // Rendering: at most once per frame; table twins at most once a second while running.
    frame: 0, lastTwins: 0, drawnMemKey: '', drawnSpeedKey: '',
  };
  p.render = (force = false) => renderPanel(p, force);
  p.schedule = () => { if (!p.frame && !p.gone) p.frame = requestAnimationFrame(() => { p.frame = 0; p.render(); }); };
  Object.assign(p, buildSettingsPanel(p));
  Object.assign(p, buildResultPanels(p));
  Object.assign(p, buildStallPanel(p));

  const titleEl = h('h2', { id: 'act-title', tabindex: '-1', text: T.TITLE });
  // What was kept is put back before the panel is in the page, so its status lines are neither
  // announced nor given focus (run-status.js focuses Run when nothing else has focus).
  if (kept && kept.train) restoreTrain(p, kept.train);
  if (kept && kept.stall) restoreStall(p, kept.stall);
  root.append(h('section', { class: 'act act--measure', 'aria-labelledby': 'act-title', 'data-act': 'measure' },
    titleEl, h('p', { class: 'act-intro', text: T.INTRO }), whyDetails('Why? How long a run takes', h('p', { text: T.INTRO_MORE })),
    p.settingsPanel.el, p.lossPanel.el, p.bytesPanel.el, p.timelinePanel.el, p.speedPanel.el, p.stallPanel.el));
  // Start the worker and its module now, so the first Run does not wait for the download.
  engine.prepareTraining().catch(() => {});
  if (kept && (kept.train || kept.stall)) p.render(true);
  return wireToPage(p, titleEl);
}

// Panel 1: the training settings and Run, the notes around them and the model line.
function buildSettingsPanel(p) {
  const modelLine = h('p', { class: 'panel__note model-line', text: 'The engine reports the model’s size when a run starts.' });
  const trainStatus = createRunStatus({ startLabel: 'Run', progressLabel: 'Training progress', onStart: () => runTrain(p), onCancel: () => cancelRun(p, 'train') });
  const sandboxNote = p.engine.trainingMayBeRefused && p.engine.trainingMayBeRefused()
    ? h('p', { class: 'notice notice--warn', 'data-notice': 'sandboxed-worker', text: T.SANDBOXED_WORKER }) : null;
  const trainNote = restoredNote(T.RESTORED_TRAIN);
  const settingsPanel = panel('1. Configure and run', h('p', { class: 'panel__lead', text: T.SETTINGS_LEAD }),
    h('p', { class: 'panel__note settings-scope', 'data-note': 'settings-scope', text: T.SETTINGS_SCOPE }), sandboxNote,
    createMeasureControls({ settings: p.settings, onChange: (patch) => { Object.assign(p.settings, patch); keepPanel(p); } }), trainStatus.el, trainNote, modelLine);
  return { modelLine, trainStatus, trainNote, settingsPanel };
}

// The note that marks a run's results as restored from an earlier visit (shown only then).
const restoredNote = (text) => h('p', { class: 'notice restored-note', 'data-note': 'restored', hidden: true, text });
const emptyNote = () => h('p', { class: 'empty-note', text: T.NOT_RUN });

// Panels 2–5: the training run's results (loss, bytes, timeline with its zoom, speed), empty until a run.
function buildResultPanels(p) {
  const loss = chartBlock((box, o) => new LossChart(box, o), { label: 'Loss per training step', caption: 'Loss (nats) per training step' });
  const lossEmpty = emptyNote();
  const lossPanel = panel('2. Loss curve', h('p', { class: 'panel__lead', text: T.LOSS_LEAD }), whyDetails('Why? The dashed lines', h('p', { text: T.LOSS_MORE })), lossEmpty, loss.el);
  const bytes = chartBlock((box, o) => new MeasuredBytesChart(box, o), { label: 'Measured vs predicted bytes per category at the peak', caption: 'Bytes per category: the inventory’s prediction and the allocator’s measurement' });
  const bytesEmpty = emptyNote();
  const bytesPanel = panel('3. Memory: measured vs predicted', h('p', { class: 'panel__lead', text: T.BYTES_LEAD }), whyDetails('How is it predicted?', h('p', { text: T.BYTES_MORE })), bytesEmpty, bytes.el);
  const timeline = chartBlock((box, o) => new MemoryTimelineChart(box, o), { label: 'Memory timeline of one training step', caption: 'Live memory phase by phase through one training step' });
  const timelineEmpty = emptyNote();
  const zoomId = uid('tl-zoom');
  const zoomBox = h('input', { type: 'checkbox', id: zoomId, onchange: () => p.render(true) });
  const zoomToggle = h('div', { class: 'toggle timeline-zoom' }, zoomBox, h('label', { for: zoomId, text: T.ZOOM_LABEL }));
  timeline.el.prepend(zoomToggle);
  const timelinePanel = panel('4. Memory timeline: where the peak happens', h('p', { class: 'panel__lead', text: T.TIMELINE_LEAD }),
    whyDetails('Why? Layers and line', h('p', { text: T.TIMELINE_MORE })),
    timelineEmpty, timeline.el, whyDetails(T.PEAK_WHY_SUMMARY, h('p', { text: T.PEAK_WHY })));
  const speedList = h('dl', { class: 'speed', hidden: true });
  const speedSentence = h('p', { class: 'chart-summary speed-summary' });
  const peakMethod = h('p', { class: 'panel__note peak-method' });
  const arithmeticNote = h('p', { class: 'panel__note arithmetic-note' });
  const speedEmpty = emptyNote();
  const speedPanel = panel('5. Speed: your CPU’s FLOP/s and MFU', h('p', { class: 'panel__lead', text: T.SPEED_LEAD }),
    speedEmpty, speedList, speedSentence, peakMethod, arithmeticNote, whyDetails(T.MFU_WHY_SUMMARY, h('p', { text: T.MFU_WHY })));
  return {
    loss, lossEmpty, lossPanel, bytes, bytesEmpty, bytesPanel, timeline, timelineEmpty, zoomBox, timelinePanel,
    speedList, speedSentence, peakMethod, arithmeticNote, speedEmpty, speedPanel,
  };
}

// Panel 6: the stall demo's settings, its Run and its two charts (loss, unchanged weights).
function buildStallPanel(p) {
  const { st } = p;
  const stallStatus = createRunStatus({ startLabel: 'Run the stall demo', progressLabel: 'Stall demo progress', onStart: () => runStall(p), onCancel: () => cancelRun(p, 'stall'), className: 'run-status--stall' });
  const stallControls = h('div', { class: 'controls controls--stall' },
    radioControl('stall_pure', 'Pure 16-bit format', STALL.pure, LABELS.precision, st.pure, (v) => { st.pure = v; keepPanel(p); }),
    selectControl('stall_steps', 'Steps per run', STALL.steps, String, st.steps, (v) => { st.steps = v; keepPanel(p); }));
  const stallLoss = chartBlock((box, o) => new LossChart(box, o), { label: 'Stall demo: loss per step, pure 16-bit vs mixed precision', caption: 'Loss (nats) per step in both runs' });
  const stallUnchanged = chartBlock((box, o) => new LossChart(box, { ...o, yLabel: 'Weights unchanged by the update', yFormat: (v) => `${Math.round(v * 100)}%`, className: 'unchanged-chart' }),
    { label: 'Stall demo: share of weights unchanged by each update', caption: 'Share of weights bit-for-bit unchanged after each update' });
  const stallEmpty = h('p', { class: 'empty-note', text: T.STALL_NOT_RUN });
  const stallNote = restoredNote(T.RESTORED_STALL);
  const stallPanel = panel('6. Stall demo: pure 16-bit vs mixed precision',
    h('p', { class: 'panel__lead', text: T.STALL_LEAD }),
    whyDetails('Why would it not learn?', h('p', { text: T.stallMore({ learningRate: STALL.learning_rate, batch: STALL.batch_size, seq: STALL.seq_len }) })),
    stallControls, stallStatus.el, stallNote, stallEmpty, stallLoss.el,
    whyDetails('Why? Unchanged weights', h('p', { text: T.STALL_UNCHANGED_LEAD })), stallUnchanged.el);
  stallPanel.el.dataset.panel = 'stall';
  return { stallStatus, stallLoss, stallUnchanged, stallEmpty, stallNote, stallPanel };
}

// ---- rendering (at most once per frame; table twins at most once a second while running)
function renderPanel(p, force) {
  const twins = force || !p.active || performance.now() - p.lastTwins > 1000;
  if (twins) p.lastTwins = performance.now();
  renderTrain(p, twins);
  renderSpeed(p);
  renderStall(p, twins);
}

// The training run's loss curve follows every chunk; the memory charts only a new report (renderMemory).
function renderTrain(p, twins) {
  const { tr, loss } = p;
  const r = tr.report;
  if (tr.losses.length || r) {
    p.lossEmpty.hidden = true;
    loss.el.hidden = false;
    const task = r ? r.task : null;
    const latest = tr.losses.at(-1);
    const sentence = task ? lossSummary(tr.losses, task, tr.total, r)
      : `Step ${formatInt(tr.losses.length)} of ${formatInt(tr.total)}: loss ${Number.isFinite(latest) ? latest.toFixed(2) : '—'} nats.`;
    const series = [{ key: 'loss', label: 'loss', values: tr.losses }];
    loss.chart.update({ series, refs: task ? lossRefs(task) : [], steps: tr.total, summary: sentence });
    setText(loss.summary, sentence);
    if (twins) loss.table.update(seriesTable(series));
  }
  // The memory charts and the speed figures change only with a new report, the units or the zoom.
  const memKey = `${tr.reportSeq}|${p.units}|${p.zoomBox.checked}`;
  if (!r || memKey === p.drawnMemKey) return;
  p.drawnMemKey = memKey;
  renderMemory(p, r);
}

// Measured vs predicted bytes, the memory timeline and the notes on how they were measured.
function renderMemory(p, r) {
  const { units, bytes, timeline } = p;
  // The prediction is the page's own ledger (lab_core, exact inventory mode), not the report's.
  const pairs = bytePairs(r, p.engine.evaluate(ledgerScenario(r)));
  const bSentence = bytesSummary(pairs, units);
  p.bytesEmpty.hidden = true;
  bytes.el.hidden = false;
  bytes.chart.update(pairs, { units, summary: bSentence });
  setText(bytes.summary, bSentence);
  const tl = timelineModel(r);
  if (tl) {
    const tSentence = timelineSummary(tl, units);
    p.timelineEmpty.hidden = true;
    timeline.el.hidden = false;
    timeline.chart.update(tl, { units, summary: tSentence, zoom: p.zoomBox.checked });
    setText(timeline.summary, tSentence);
    timeline.table.update(timelineTable(tl, units));
  }
  bytes.table.update(bytesTable(pairs));
  setText(p.peakMethod, r.peak ? `How the peak was measured (the engine’s words): ${r.peak.method}.` : '');
  setText(p.arithmeticNote, [arithmeticSentence(r), clockSentence(r)].filter(Boolean).join(' '));
}

// The speed cards follow every chunk while a run goes (the median of the steps so far), and the
// engine's final report when it ends.
function renderSpeed(p) {
  const { tr, speedList } = p;
  const r = tr.report;
  if (!r) return;
  const running = Boolean(p.active && p.active.kind === 'train');
  // A run left mid-way kept only its first report: its speed is that of the steps that arrived.
  const partial = running || r.losses.length < tr.losses.length;
  const key = `${tr.reportSeq}|${partial ? tr.seconds.length : 'final'}`;
  if (key === p.drawnSpeedKey) return;
  p.drawnSpeedKey = key;
  const shown = partial ? liveSpeedReport(r, tr.seconds, tr.losses) : r;
  p.speedEmpty.hidden = true;
  speedList.hidden = false;
  speedList.dataset.live = String(running);
  replaceChildren(speedList, speedRows(shown).map((row) => h('div', { class: 'speed__row', 'data-key': row.key },
    h('dt', { text: row.label }), h('dd', { 'data-value': String(row.value), text: row.text }))));
  setText(p.speedSentence, running ? `So far: ${speedSummary(shown)}` : speedSummary(shown));
}

// The stall demo's two charts, from both runs' reports and the losses that have arrived so far.
function renderStall(p, twins) {
  const { st, stallLoss, stallUnchanged } = p;
  const any = st.reports.pure || st.reports.mixed || st.live.pure.length;
  if (!any) return;
  const model = stallModel(st.pureRun, st.reports, st.live);
  p.stallEmpty.hidden = true;
  stallLoss.el.hidden = false;
  const lossText = stallLossSummary(model);
  // Only the uniform-guess line here: the floor would squeeze the two curves into a sliver.
  stallLoss.chart.update({ series: model.loss, refs: model.task ? lossRefs(model.task).filter((r) => r.key === 'uniform') : [], steps: st.stepsRun, summary: lossText });
  setText(stallLoss.summary, lossText);
  if (twins) stallLoss.table.update(seriesTable(model.loss));
  if (model.unchanged.length) {
    const uText = stallUnchangedSummary(model);
    stallUnchanged.el.hidden = false;
    stallUnchanged.chart.update({ series: model.unchanged, steps: st.stepsRun, yDomain: [0, 1], summary: uText });
    setText(stallUnchanged.summary, uText);
    if (twins) stallUnchanged.table.update(seriesTable(model.unchanged, fractionText));
  }
}

// The ties to the page: redraw on a change of units, keep on leaving, and the act's focus / destroy.
function wireToPage(p, titleEl) {
  const unsubscribe = p.store.subscribe((state) => {
    if (state.config.units !== p.units) { p.units = state.config.units; p.render(true); }
  });
  // Switching acts on the lab's own page loads a page: keep what is on screen as the page goes.
  const onPageHide = () => keepPanel(p);
  window.addEventListener('pagehide', onPageHide);
  return {
    focus: () => titleEl.focus(),
    destroy: () => {
      keepPanel(p);
      p.gone = true;
      unsubscribe();
      window.removeEventListener('pagehide', onPageHide);
      cancelAnimationFrame(p.frame);
      if (p.active) { p.active.cancelled = true; if (p.active.handle) p.active.handle.cancel(); }
      p.root.replaceChildren();
    },
  };
}
