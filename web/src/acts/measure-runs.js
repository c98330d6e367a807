// The runs of the "Measure it" panel (measure.js builds and draws it): the training run and the stall
// demo through the engine adapter's startTraining, one at a time across the panel, and what is kept of
// them for the tab (measure-keep.js) and put back. Every part takes the panel's state object p; drawing
// is p.render / p.schedule, never done here.
import { setText } from '../ui/dom.js';
import { LABELS, trainRequest, progressText } from '../models/measure-model.js';
import { stallRequests } from '../models/stall-model.js';
import { formatInt } from '../format/format.js';
import { saveKept, keptTrainStatus } from '../models/measure-keep.js';
import { runRecord, withMeasureRun } from '../models/measure-record.js';
import * as T from '../content/measure-text.js';

const statusOf = (p, kind) => (kind === 'train' ? p.trainStatus : p.stallStatus);
const otherKind = (kind) => (kind === 'train' ? 'stall' : 'train');

// A run starts: its status says so and the other run's button waits (one run at a time).
function beginRun(p, kind) {
  statusOf(p, kind).running(kind === 'train' ? 'Starting the training engine…' : 'Starting the stall demo…');
  statusOf(p, otherKind(kind)).blocked(true);
}

// A run ends (any outcome): keep it, say how it ended, free the other run, draw everything once more.
function endRun(p, kind, message, state) {
  p.active = null;
  if (p.gone) return;
  keepPanel(p);
  statusOf(p, kind).idle(message, state);
  statusOf(p, otherKind(kind)).blocked(false);
  p.render(true);
}

// Cancel asks the worker to stop after the step it is in; the run ends when the worker says so.
export function cancelRun(p, kind) {
  if (!p.active || p.active.kind !== kind) return;
  p.active.cancelled = true;
  p.active.handle.cancel();
  statusOf(p, kind).message('Cancelling after the current step…');
}

const refused = (e) => `The engine refused this run: ${e.field ? `${e.field}: ` : ''}${e.message}`;
// A sandboxed frame refuses the worker for good, and a run elsewhere on the page ('busy') would be
// stopped by a reload: those cases say only what can help.
const broken = (err, stepsDone = 0) => (err && (err.code === 'sandboxed' || err.code === 'busy')
  ? `The training engine could not start, so nothing ran: ${err.message}.`
  : `${stepsDone ? `The training engine stopped after ${formatInt(stepsDone)} steps.` : 'The training engine could not start, so nothing ran.'} `
    + `Try reloading the page (it needs WebAssembly and Web Workers). Details: ${err && err.message ? err.message : err}`);

// A new training report replaces the last one (the memory charts redraw on reportSeq) and names the model.
function setReport(p, report) {
  p.tr.report = report;
  p.tr.reportSeq += 1;
  describeModel(p, report);
}

// The model line under Run: the model's size and how each part is stored, in the engine's words.
function describeModel(p, r) {
  const m = r.model;
  const s = r.storage;
  setText(p.modelLine, `Model: ${formatInt(m.parameters)} parameters (${m.layers} layers, width ${m.d_model}, ${m.heads} heads, vocabulary ${r.request.vocab}); `
    + `${formatInt(m.tokens_per_step)} tokens per step. Stored as: weights ${s.weights}, gradients ${s.gradients}`
    + `${s.master_weights ? `, master ${s.master_weights}` : ''}${s.optimizer_state ? `, optimizer state ${s.optimizer_state}` : ''}, activations ${s.activations}.`);
}

// The training run: steps stream in (losses, seconds, reports) and are drawn at most once a frame.
export async function runTrain(p) {
  if (p.active) return;
  const { tr, settings } = p;
  const request = trainRequest(settings);
  const runSettings = { ...settings };
  Object.assign(tr, { losses: [], seconds: [], total: request.steps, report: null, end: null }); // the memory charts keep the last run until the first report
  p.trainNote.hidden = true;
  p.loss.chart.reset();
  beginRun(p, 'train');
  const handle = p.engine.startTraining(request, {
    onStarted: (status) => { tr.total = status.steps_total; p.trainStatus.progress(0, tr.total, progressText(0, tr.total)); },
    onProgress: (m) => { tr.losses.push(...m.losses); tr.seconds.push(...(m.seconds || [])); p.trainStatus.progress(m.stepsDone, m.stepsTotal, progressText(m.stepsDone, m.stepsTotal)); p.schedule(); },
    onReport: (report) => { setReport(p, report); p.schedule(); },
  });
  p.active = { kind: 'train', handle, cancelled: false };
  try {
    const out = await handle.promise;
    if (out.report) setReport(p, out.report);
    if (out.outcome === 'done' || out.outcome === 'cancelled') {
      // A run that diverged or skipped most of its updates ends as 'failed' (✕), never as 'done'.
      tr.end = { outcome: out.outcome, stepsDone: out.stepsDone || tr.losses.length };
      // The run's record goes to the lab's state: saved with the progress, and in the design ledger.
      if (!p.gone) p.store.update((state) => withMeasureRun(state, runRecord(tr, runSettings)));
      const s = keptTrainStatus(tr);
      endRun(p, 'train', s.text, s.state);
    } else {
      tr.end = { outcome: 'error' };
      endRun(p, 'train', refused(out.error), 'error');
    }
  } catch (err) {
    tr.end = { outcome: 'error' };
    endRun(p, 'train', broken(err, tr.losses.length), 'error');
  }
}

// The stall demo: two runs one after the other (pure 16-bit, then mixed precision) as one job.
export async function runStall(p) {
  if (p.active) return;
  const { st } = p;
  const requests = stallRequests(st.pure, st.steps);
  const label = { pure: LABELS.precision[st.pure], mixed: 'Mixed precision' };
  Object.assign(st, { reports: { pure: null, mixed: null }, live: { pure: [], mixed: [] }, stepsRun: st.steps, pureRun: st.pure, end: null });
  p.stallNote.hidden = true;
  p.stallLoss.chart.reset();
  p.stallUnchanged.chart.reset();
  beginRun(p, 'stall');
  p.active = { kind: 'stall', handle: null, cancelled: false };
  const job = p.active;
  const total = 2 * st.stepsRun;
  let offset = 0;
  const stop = (outcome, stepsDone, text, state) => { st.end = { outcome, stepsDone }; endRun(p, 'stall', text, state); };
  try {
    for (const k of ['pure', 'mixed']) {
      if (job.cancelled) { stop('cancelled', offset, T.stallCancelled(offset, total), 'cancelled'); return; }
      const handle = p.engine.startTraining(requests[k], {
        onProgress: (m) => {
          st.live[k].push(...m.losses);
          p.stallStatus.progress(offset + m.stepsDone, total, `${label[k]}: ${progressText(m.stepsDone, m.stepsTotal).toLowerCase()}`);
          p.schedule();
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
export function keepPanel(p) {
  if (p.gone) return;
  const { tr, st } = p;
  const trainEnd = tr.end || { outcome: 'left', stepsDone: tr.losses.length };
  const stallEnd = st.end || { outcome: 'left', stepsDone: st.live.pure.length + st.live.mixed.length };
  saveKept(p.storage, {
    settings: p.settings, stallSettings: { pure: st.pure, steps: st.steps },
    train: tr.losses.length && trainEnd.outcome !== 'error'
      ? { losses: tr.losses, seconds: tr.seconds, total: tr.total, report: tr.report, end: trainEnd } : null,
    stall: (st.reports.pure || st.live.pure.length) && stallEnd.outcome !== 'error'
      ? { pure: st.pureRun, steps: st.stepsRun, reports: st.reports, live: st.live, end: stallEnd } : null,
  });
}

// A kept training run is put back with the status line it ended with, marked as restored.
export function restoreTrain(p, k) {
  Object.assign(p.tr, { losses: k.losses, seconds: k.seconds, total: k.total, end: k.end });
  if (k.report) setReport(p, k.report);
  const s = keptTrainStatus(k); // the same judgement as when it ended: a failed run stays failed
  p.trainStatus.progress(k.end.stepsDone, k.total, '');
  p.trainStatus.idle(s.text, s.state);
  p.trainNote.hidden = false;
}

// A kept stall demo is put back with the status line it ended with, marked as restored.
export function restoreStall(p, k) {
  Object.assign(p.st, { reports: k.reports, live: k.live, stepsRun: k.steps, pureRun: k.pure, end: k.end });
  const total = 2 * k.steps;
  const n = k.end.stepsDone;
  const text = { done: T.stallDone(k.steps), cancelled: T.stallCancelled(n, total), left: T.stallLeft(n, total) }[k.end.outcome];
  p.stallStatus.progress(n, total, '');
  p.stallStatus.idle(text, k.end.outcome === 'done' ? 'done' : 'cancelled');
  p.stallNote.hidden = false;
}
