// The "Measure it" panel: real training steps of the reference engine in a Web Worker (through the
// engine adapter's startTraining), drawn as they arrive: the loss curve, measured vs predicted bytes
// per category, the memory timeline of one step, this CPU's FLOP/s and MFU, and the pure-16-bit stall
// demo. Words live in measure-text.js, arithmetic on reports in measure-model.js / stall-model.js /
// measure-tables.js. Panel settings stay local (not in the store or the URL); the store is only read
// for the units. The settings and the last runs are kept for the tab (measure-keep.js) and drawn again,
// marked as restored, when the student comes back to the panel.
import { h, uid, setText, replaceChildren } from '../ui/dom.js';
import { panel } from '../ui/act-parts.js';
import { createRunStatus } from '../ui/run-status.js';
import { createMeasureControls, radioControl, selectControl } from '../ui/measure-controls.js';
import { LossChart } from '../charts/loss-chart.js';
import { MeasuredBytesChart } from '../charts/measured-bytes-chart.js';
import { MemoryTimelineChart } from '../charts/memory-timeline-chart.js';
import { DataTable } from '../charts/data-table.js';
import {
  DEFAULT_SETTINGS, LABELS, trainRequest, bytePairs, ledgerScenario, bytesSummary, timelineModel, timelineSummary,
  speedRows, speedSummary, arithmeticSentence, progressText, liveSpeedReport,
} from '../models/measure-model.js';
import {
  lossRefs, lossSummary, STALL, stallRequests, stallModel, stallLossSummary, stallUnchangedSummary,
} from '../models/stall-model.js';
import { bytesTable, timelineTable, seriesTable, fractionText } from '../models/measure-tables.js';
import { clockSentence } from '../models/measure-clock.js';
import { formatInt } from '../format/format.js';
import { loadKept, saveKept, forgetKept, keptTrainStatus, keepStorageOf } from '../models/measure-keep.js';
import { runRecord, withMeasureRun } from '../models/measure-record.js';
import * as T from '../content/measure-text.js';
import { whyDetails } from '../ui/why-details.js';
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

function mountPanel({ root, engine, store }, storage, kept) {
  let units = store.getState().config.units;
  const settings = { ...DEFAULT_SETTINGS, ...(kept ? kept.settings : {}) };
  let active = null; // { kind, handle, cancelled }
  let gone = false; // destroyed: a run still finishing must not draw or keep anything
  // end: how the run ended ({ outcome, stepsDone }), null while it runs.
  const tr = { losses: [], seconds: [], total: 0, report: null, reportSeq: 0, end: null };
  const setReport = (report) => { tr.report = report; tr.reportSeq += 1; describeModel(report); };
  const stallSettings = kept ? kept.stallSettings : { pure: STALL.default_pure, steps: STALL.default_steps };
  const st = { ...stallSettings, reports: { pure: null, mixed: null }, live: { pure: [], mixed: [] }, end: null };

  // ---- 1. settings and run
  const modelLine = h('p', { class: 'panel__note model-line', text: 'The engine reports the model’s size when a run starts.' });
  const trainStatus = createRunStatus({ startLabel: 'Run', progressLabel: 'Training progress', onStart: () => runTrain(), onCancel: () => cancel('train') });
  const sandboxNote = engine.trainingMayBeRefused && engine.trainingMayBeRefused()
    ? h('p', { class: 'notice notice--warn', 'data-notice': 'sandboxed-worker', text: T.SANDBOXED_WORKER }) : null;
  const restoredNote = (text) => h('p', { class: 'notice restored-note', 'data-note': 'restored', hidden: true, text });
  const trainNote = restoredNote(T.RESTORED_TRAIN);
  const settingsPanel = panel('1. Configure and run', h('p', { class: 'panel__lead', text: T.SETTINGS_LEAD }),
    h('p', { class: 'panel__note settings-scope', 'data-note': 'settings-scope', text: T.SETTINGS_SCOPE }), sandboxNote,
    createMeasureControls({ settings, onChange: (patch) => { Object.assign(settings, patch); keep(); } }), trainStatus.el, trainNote, modelLine);

  // ---- 2–5. results
  const empty = () => h('p', { class: 'empty-note', text: T.NOT_RUN });
  const loss = chartBlock((box, o) => new LossChart(box, o), { label: 'Loss per training step', caption: 'Loss (nats) per training step' });
  const lossEmpty = empty();
  const lossPanel = panel('2. Loss curve', h('p', { class: 'panel__lead', text: T.LOSS_LEAD }), whyDetails('Why? The dashed lines', h('p', { text: T.LOSS_MORE })), lossEmpty, loss.el);
  const bytes = chartBlock((box, o) => new MeasuredBytesChart(box, o), { label: 'Measured vs predicted bytes per category at the peak', caption: 'Bytes per category: the inventory’s prediction and the allocator’s measurement' });
  const bytesEmpty = empty();
  const bytesPanel = panel('3. Memory: measured vs predicted', h('p', { class: 'panel__lead', text: T.BYTES_LEAD }), whyDetails('How is it predicted?', h('p', { text: T.BYTES_MORE })), bytesEmpty, bytes.el);
  const timeline = chartBlock((box, o) => new MemoryTimelineChart(box, o), { label: 'Memory timeline of one training step', caption: 'Live memory phase by phase through one training step' });
  const timelineEmpty = empty();
  const zoomId = uid('tl-zoom');
  const zoomBox = h('input', { type: 'checkbox', id: zoomId, onchange: () => render(true) });
  const zoomToggle = h('div', { class: 'toggle timeline-zoom' }, zoomBox, h('label', { for: zoomId, text: T.ZOOM_LABEL }));
  timeline.el.prepend(zoomToggle);
  const timelinePanel = panel('4. Memory timeline: where the peak happens', h('p', { class: 'panel__lead', text: T.TIMELINE_LEAD }),
    whyDetails('Why? Layers and line', h('p', { text: T.TIMELINE_MORE })),
    timelineEmpty, timeline.el, whyDetails(T.PEAK_WHY_SUMMARY, h('p', { text: T.PEAK_WHY })));
  const speedList = h('dl', { class: 'speed', hidden: true });
  const speedSentence = h('p', { class: 'chart-summary speed-summary' });
  const peakMethod = h('p', { class: 'panel__note peak-method' });
  const arithmeticNote = h('p', { class: 'panel__note arithmetic-note' });
  const speedEmpty = empty();
  const speedPanel = panel('5. Speed: your CPU’s FLOP/s and MFU', h('p', { class: 'panel__lead', text: T.SPEED_LEAD }),
    speedEmpty, speedList, speedSentence, peakMethod, arithmeticNote, whyDetails(T.MFU_WHY_SUMMARY, h('p', { text: T.MFU_WHY })));

  // ---- 6. stall demo
  const stallStatus = createRunStatus({ startLabel: 'Run the stall demo', progressLabel: 'Stall demo progress', onStart: () => runStall(), onCancel: () => cancel('stall'), className: 'run-status--stall' });
  const stallControls = h('div', { class: 'controls controls--stall' },
    radioControl('stall_pure', 'Pure 16-bit format', STALL.pure, LABELS.precision, st.pure, (v) => { st.pure = v; keep(); }),
    selectControl('stall_steps', 'Steps per run', STALL.steps, String, st.steps, (v) => { st.steps = v; keep(); }));
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

  const titleEl = h('h2', { id: 'act-title', tabindex: '-1', text: T.TITLE });
  // What was kept is put back before the panel is in the page, so its status lines are neither
  // announced nor given focus (run-status.js focuses Run when nothing else has focus).
  if (kept && kept.train) restoreTrain(kept.train);
  if (kept && kept.stall) restoreStall(kept.stall);
  root.append(h('section', { class: 'act act--measure', 'aria-labelledby': 'act-title', 'data-act': 'measure' },
    titleEl, h('p', { class: 'act-intro', text: T.INTRO }), whyDetails('Why? How long a run takes', h('p', { text: T.INTRO_MORE })),
    settingsPanel.el, lossPanel.el, bytesPanel.el, timelinePanel.el, speedPanel.el, stallPanel.el));
  // Start the worker and its module now, so the first Run does not wait for the download.
  engine.prepareTraining().catch(() => {});

  // ---- rendering (at most once per frame; table twins at most once a second while running)
  let frame = 0;
  let lastTwins = 0;
  let drawnMemKey = '';
  const schedule = () => { if (!frame && !gone) frame = requestAnimationFrame(() => { frame = 0; render(); }); };
  function render(force = false) {
    const twins = force || !active || performance.now() - lastTwins > 1000;
    if (twins) lastTwins = performance.now();
    renderTrain(twins);
    renderSpeed();
    renderStall(twins);
  }

  function renderTrain(twins) {
    const r = tr.report;
    if (tr.losses.length || r) {
      lossEmpty.hidden = true;
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
    const memKey = `${tr.reportSeq}|${units}|${zoomBox.checked}`;
    if (!r || memKey === drawnMemKey) return;
    drawnMemKey = memKey;
    // The prediction is the page's own ledger (lab_core, exact inventory mode), not the report's.
    const pairs = bytePairs(r, engine.evaluate(ledgerScenario(r)));
    const bSentence = bytesSummary(pairs, units);
    bytesEmpty.hidden = true;
    bytes.el.hidden = false;
    bytes.chart.update(pairs, { units, summary: bSentence });
    setText(bytes.summary, bSentence);
    const tl = timelineModel(r);
    if (tl) {
      const tSentence = timelineSummary(tl, units);
      timelineEmpty.hidden = true;
      timeline.el.hidden = false;
      timeline.chart.update(tl, { units, summary: tSentence, zoom: zoomBox.checked });
      setText(timeline.summary, tSentence);
      timeline.table.update(timelineTable(tl, units));
    }
    bytes.table.update(bytesTable(pairs));
    setText(peakMethod, r.peak ? `How the peak was measured (the engine’s words): ${r.peak.method}.` : '');
    setText(arithmeticNote, [arithmeticSentence(r), clockSentence(r)].filter(Boolean).join(' '));
  }

  // The speed cards follow every chunk while a run goes (the median of the steps so far), and the
  // engine's final report when it ends.
  let drawnSpeedKey = '';
  function renderSpeed() {
    const r = tr.report;
    if (!r) return;
    const running = Boolean(active && active.kind === 'train');
    // A run left mid-way kept only its first report: its speed is that of the steps that arrived.
    const partial = running || r.losses.length < tr.losses.length;
    const key = `${tr.reportSeq}|${partial ? tr.seconds.length : 'final'}`;
    if (key === drawnSpeedKey) return;
    drawnSpeedKey = key;
    const shown = partial ? liveSpeedReport(r, tr.seconds, tr.losses) : r;
    speedEmpty.hidden = true;
    speedList.hidden = false;
    speedList.dataset.live = String(running);
    replaceChildren(speedList, speedRows(shown).map((row) => h('div', { class: 'speed__row', 'data-key': row.key },
      h('dt', { text: row.label }), h('dd', { 'data-value': String(row.value), text: row.text }))));
    setText(speedSentence, running ? `So far: ${speedSummary(shown)}` : speedSummary(shown));
  }

  function renderStall(twins) {
    const any = st.reports.pure || st.reports.mixed || st.live.pure.length;
    if (!any) return;
    const model = stallModel(st.pureRun, st.reports, st.live);
    stallEmpty.hidden = true;
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

  // ---- runs (one at a time across the panel)
  const statusOf = { train: trainStatus, stall: stallStatus };
  function begin(kind) {
    statusOf[kind].running(kind === 'train' ? 'Starting the training engine…' : 'Starting the stall demo…');
    statusOf[kind === 'train' ? 'stall' : 'train'].blocked(true);
  }
  function end(kind, message, state) {
    active = null;
    if (gone) return;
    keep();
    statusOf[kind].idle(message, state);
    statusOf[kind === 'train' ? 'stall' : 'train'].blocked(false);
    render(true);
  }
  function cancel(kind) {
    if (!active || active.kind !== kind) return;
    active.cancelled = true;
    active.handle.cancel();
    statusOf[kind].message('Cancelling after the current step…');
  }
  const refused = (e) => `The engine refused this run: ${e.field ? `${e.field}: ` : ''}${e.message}`;
  // A sandboxed frame refuses the worker for good, and a run elsewhere on the page ('busy') would be
  // stopped by a reload: those cases say only what can help.
  const broken = (err, stepsDone = 0) => (err && (err.code === 'sandboxed' || err.code === 'busy')
    ? `The training engine could not start, so nothing ran: ${err.message}.`
    : `${stepsDone ? `The training engine stopped after ${formatInt(stepsDone)} steps.` : 'The training engine could not start, so nothing ran.'} `
      + `Try reloading the page (it needs WebAssembly and Web Workers). Details: ${err && err.message ? err.message : err}`);

  async function runTrain() {
    if (active) return;
    const request = trainRequest(settings);
    const runSettings = { ...settings };
    Object.assign(tr, { losses: [], seconds: [], total: request.steps, report: null, end: null }); // the memory charts keep the last run until the first report
    trainNote.hidden = true;
    loss.chart.reset();
    begin('train');
    const handle = engine.startTraining(request, {
      onStarted: (status) => { tr.total = status.steps_total; trainStatus.progress(0, tr.total, progressText(0, tr.total)); },
      onProgress: (m) => { tr.losses.push(...m.losses); tr.seconds.push(...(m.seconds || [])); trainStatus.progress(m.stepsDone, m.stepsTotal, progressText(m.stepsDone, m.stepsTotal)); schedule(); },
      onReport: (report) => { setReport(report); schedule(); },
    });
    active = { kind: 'train', handle, cancelled: false };
    try {
      const out = await handle.promise;
      if (out.report) setReport(out.report);
      if (out.outcome === 'done' || out.outcome === 'cancelled') {
        // A run that diverged or skipped most of its updates ends as 'failed' (✕), never as 'done'.
        tr.end = { outcome: out.outcome, stepsDone: out.stepsDone || tr.losses.length };
        // The run's record goes to the lab's state: saved with the progress, and in the design ledger.
        if (!gone) store.update((state) => withMeasureRun(state, runRecord(tr, runSettings)));
        const s = keptTrainStatus(tr);
        end('train', s.text, s.state);
      } else {
        tr.end = { outcome: 'error' };
        end('train', refused(out.error), 'error');
      }
    } catch (err) {
      tr.end = { outcome: 'error' };
      end('train', broken(err, tr.losses.length), 'error');
    }
  }

  function describeModel(r) {
    const m = r.model;
    const s = r.storage;
    setText(modelLine, `Model: ${formatInt(m.parameters)} parameters (${m.layers} layers, width ${m.d_model}, ${m.heads} heads, vocabulary ${r.request.vocab}); `
      + `${formatInt(m.tokens_per_step)} tokens per step. Stored as: weights ${s.weights}, gradients ${s.gradients}`
      + `${s.master_weights ? `, master ${s.master_weights}` : ''}${s.optimizer_state ? `, optimizer state ${s.optimizer_state}` : ''}, activations ${s.activations}.`);
  }

  async function runStall() {
    if (active) return;
    const requests = stallRequests(st.pure, st.steps);
    const label = { pure: LABELS.precision[st.pure], mixed: 'Mixed precision' };
    Object.assign(st, { reports: { pure: null, mixed: null }, live: { pure: [], mixed: [] }, stepsRun: st.steps, pureRun: st.pure, end: null });
    stallNote.hidden = true;
    stallLoss.chart.reset();
    stallUnchanged.chart.reset();
    begin('stall');
    active = { kind: 'stall', handle: null, cancelled: false };
    const job = active;
    const total = 2 * st.stepsRun;
    let offset = 0;
    const stop = (outcome, stepsDone, text, state) => { st.end = { outcome, stepsDone }; end('stall', text, state); };
    try {
      for (const k of ['pure', 'mixed']) {
        if (job.cancelled) { stop('cancelled', offset, T.stallCancelled(offset, total), 'cancelled'); return; }
        const handle = engine.startTraining(requests[k], {
          onProgress: (m) => {
            st.live[k].push(...m.losses);
            stallStatus.progress(offset + m.stepsDone, total, `${label[k]}: ${progressText(m.stepsDone, m.stepsTotal).toLowerCase()}`);
            schedule();
          },
        });
        job.handle = handle;
        const out = await handle.promise;
        if (out.report) st.reports[k] = out.report;
        if (out.outcome === 'error') { stop('error', 0, refused(out.error), 'error'); return; }
        if (out.outcome === 'cancelled' || job.cancelled) {
          const n = offset + (out.stepsDone || 0);
          stop('cancelled', n, T.stallCancelled(n, total), 'cancelled');
          return;
        }
        offset += out.stepsDone;
      }
      stop('done', total, T.stallDone(st.stepsRun), 'done');
    } catch (err) {
      stop('error', 0, broken(err, st.live.pure.length + st.live.mixed.length), 'error');
    }
  }

  // ---- kept for this tab (measure-keep.js). A run still going is kept as it stands, ended 'left':
  // the student who comes back finds the steps that had arrived (the run itself ends with the page).
  function keep() {
    if (gone) return;
    const trainEnd = tr.end || { outcome: 'left', stepsDone: tr.losses.length };
    const stallEnd = st.end || { outcome: 'left', stepsDone: st.live.pure.length + st.live.mixed.length };
    saveKept(storage, {
      settings, stallSettings: { pure: st.pure, steps: st.steps },
      train: tr.losses.length && trainEnd.outcome !== 'error'
        ? { losses: tr.losses, seconds: tr.seconds, total: tr.total, report: tr.report, end: trainEnd } : null,
      stall: (st.reports.pure || st.live.pure.length) && stallEnd.outcome !== 'error'
        ? { pure: st.pureRun, steps: st.stepsRun, reports: st.reports, live: st.live, end: stallEnd } : null,
    });
  }

  function restoreTrain(k) {
    Object.assign(tr, { losses: k.losses, seconds: k.seconds, total: k.total, end: k.end });
    if (k.report) setReport(k.report);
    const s = keptTrainStatus(k); // the same judgement as when it ended: a failed run stays failed
    trainStatus.progress(k.end.stepsDone, k.total, '');
    trainStatus.idle(s.text, s.state);
    trainNote.hidden = false;
  }

  function restoreStall(k) {
    Object.assign(st, { reports: k.reports, live: k.live, stepsRun: k.steps, pureRun: k.pure, end: k.end });
    const total = 2 * k.steps;
    const n = k.end.stepsDone;
    const text = { done: T.stallDone(k.steps), cancelled: T.stallCancelled(n, total), left: T.stallLeft(n, total) }[k.end.outcome];
    stallStatus.progress(n, total, '');
    stallStatus.idle(text, k.end.outcome === 'done' ? 'done' : 'cancelled');
    stallNote.hidden = false;
  }

  if (kept && (kept.train || kept.stall)) render(true);
  const unsubscribe = store.subscribe((state) => {
    if (state.config.units !== units) { units = state.config.units; render(true); }
  });
  // Switching acts on the lab's own page loads a page: keep what is on screen as the page goes.
  const onPageHide = () => keep();
  window.addEventListener('pagehide', onPageHide);
  return {
    focus: () => titleEl.focus(),
    destroy: () => {
      keep();
      gone = true;
      unsubscribe();
      window.removeEventListener('pagehide', onPageHide);
      cancelAnimationFrame(frame);
      if (active) { active.cancelled = true; if (active.handle) active.handle.cancel(); }
      root.replaceChildren();
    },
  };
}
