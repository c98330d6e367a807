// Keeping "Measure it" (no DOM): the panel's settings, the last training run and the stall demo's
// results, so a student who looks at another act, reloads or comes back later finds them again (on the
// lab's own page switching acts loads a page; embedded, the act is mounted again). They live where the
// lab's progress lives (localStorage; the tab's sessionStorage when progress is not saved) under a
// versioned key. What is read back may be stale, from an older lab or
// edited by hand, so every part is checked and a part that is not usable is dropped, never drawn.
// Tested in tests/web/unit/measure-keep.test.mjs.
import { CHOICES, DEFAULT_SETTINGS, trainEndStatus, bytePairs, bytesSummary, timelineModel, timelineSummary,
  speedRows, speedSummary, liveSpeedReport } from './measure-model.js';
import { STALL, lossSummary, stallModel, stallLossSummary, stallUnchangedSummary } from './stall-model.js';

export const KEEP_KEY = 'lab08-model-train/measure-it/v1';
// A few runs' reports are 10–60 K characters; the tab's storage (about 5 M, shared with the rest of
// the origin's pages in the tab) must never fill up because of this panel.
export const MAX_CHARS = 256 * 1024;
const ENDS = ['done', 'cancelled', 'left']; // 'left': still running when the student left the panel

const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isNum = (v) => typeof v === 'number' && Number.isFinite(v);
const isCount = (v) => Number.isInteger(v) && v >= 0;
const isStr = (v) => typeof v === 'string';
const opt = (ok) => (v) => v === null || v === undefined || ok(v);
const arrOf = (v, ok, max = Infinity) => Array.isArray(v) && v.length <= max && v.every(ok);
const mapOf = (v, ok) => isObj(v) && Object.values(v).every(ok);
const lossOk = (v) => v === null || isNum(v); // null: a loss that stopped being a number (JSON has no NaN)
const has = (o, keys, ok) => isObj(o) && keys.every((k) => ok(o[k]));
// Did drawing it throw in a view model? Then it is not drawn (the checks above should catch it first).
const drawable = (fn) => { try { fn(); return true; } catch { return false; } };

export function validSettings(raw) {
  const out = { ...DEFAULT_SETTINGS };
  for (const key of Object.keys(CHOICES)) if (isObj(raw) && CHOICES[key].includes(raw[key])) out[key] = raw[key];
  return out;
}

export function validStallSettings(raw) {
  const ok = isObj(raw);
  return { pure: ok && STALL.pure.includes(raw.pure) ? raw.pure : STALL.default_pure,
    steps: ok && STALL.steps.includes(raw.steps) ? raw.steps : STALL.default_steps };
}

function profileOk(p) {
  return has(p, ['at_peak', 'max_by_category'], (m) => mapOf(m, isCount)) && isCount(p.peak_bytes) && isStr(p.peak_phase)
    && opt(isCount)(p.persistent_bytes);
}

function timelineOk(t) {
  if (t === null || t === undefined) return true;
  const n = isObj(t) && Array.isArray(t.phases) ? t.phases.length : 0;
  const series = (s) => arrOf(s, isCount) && s.length === n;
  return n > 0 && arrOf(t.phases, isStr) && series(t.predicted_peak_bytes) && opt(series)(t.measured_peak_bytes)
    && mapOf(t.live_end_bytes_by_category, series);
}

const stallOk = (s) => isObj(s) && isCount(s.weight_elements)
  && ['weights_unchanged_per_step', 'master_unchanged_per_step'].every((k) => opt((a) => arrOf(a, isCount))(s[k]));

// The fields of a training report that the panel reads to draw it.
export function reportOk(r) {
  return isObj(r) && arrOf(r.losses, lossOk) && arrOf(r.skipped_steps, isCount) && isCount(r.steps_done)
    && has(r.request, ['layers', 'd_model', 'heads', 'vocab', 'context', 'mlp_hidden', 'batch_size', 'seq_len'], isCount)
    && has(r.request, ['precision', 'optimizer'], isStr) && (isStr(r.request.checkpointing) || isObj(r.request.checkpointing))
    && has(r.model, ['parameters', 'layers', 'd_model', 'heads', 'tokens_per_step'], isCount)
    && has(r.storage, ['weights', 'gradients', 'activations'], isStr) && has(r.storage, ['master_weights', 'optimizer_state'], opt(isStr))
    && has(r.task, ['uniform_loss_nats', 'loss_floor_nats'], isNum)
    && isObj(r.memory) && opt((c) => arrOf(c, isStr))(r.memory.categories) && profileOk(r.memory.predicted)
    && opt(profileOk)(r.memory.measured) && timelineOk(r.memory.timeline)
    && has(r.time, ['total_seconds', 'median_seconds_per_step'], isNum) && isCount(r.time.steps)
    && has(r.flops, ['model_per_step', 'executed_per_step'], isNum) && opt(isStr)(r.flops.matmul_arithmetic)
    && mapOf(r.throughput, opt(isNum)) && opt((p) => isNum(p.flops_per_s) && isStr(p.method))(r.peak) && opt(stallOk)(r.stall);
}

// The status a training run ends with, from what was kept of it (the panel's own judgement: a run
// left mid-way keeps its first report only, so its losses then come from the steps that arrived).
export function keptTrainStatus(train) {
  const r = train.report;
  const fresh = Boolean(r) && r.losses.length >= train.losses.length;
  return trainEndStatus({ outcome: train.end.outcome, stepsDone: train.end.stepsDone, stepsTotal: train.total,
    seconds: fresh ? r.time.total_seconds : 0, report: r, losses: fresh ? r.losses : train.losses });
}

function validTrain(t) {
  if (!isObj(t) || !CHOICES.steps.includes(t.total) || !isObj(t.end) || !ENDS.includes(t.end.outcome)) return null;
  const { losses, seconds, report, end } = t;
  if (!arrOf(losses, lossOk, t.total) || !losses.length || !arrOf(seconds, (s) => isNum(s) && s >= 0, losses.length)) return null;
  if (!isCount(end.stepsDone) || end.stepsDone > t.total || (report !== null && !reportOk(report))) return null;
  if (report && report.losses.length > losses.length) return null;
  if (end.outcome === 'done' && !(report && report.steps_done === losses.length && losses.length === t.total)) return null;
  const train = { losses, seconds, total: t.total, report, end: { outcome: end.outcome, stepsDone: end.stepsDone } };
  return drawable(() => {
    keptTrainStatus(train);
    if (!report) return;
    lossSummary(losses, report.task, train.total, report);
    bytesSummary(bytePairs(report));
    const tl = timelineModel(report);
    if (tl) timelineSummary(tl);
    const shown = report.losses.length < losses.length ? liveSpeedReport(report, seconds, losses) : report;
    speedRows(shown);
    speedSummary(shown);
  }) ? train : null;
}

// The stall demo keeps only what its charts read of each report.
const trimStall = (r) => (r ? { losses: r.losses, task: r.task, stall: {
  weight_elements: r.stall.weight_elements, weights_unchanged_per_step: r.stall.weights_unchanged_per_step,
  master_unchanged_per_step: r.stall.master_unchanged_per_step,
} } : null);

function stallReportOk(r, steps, master) {
  if (r === null) return true;
  const n = isObj(r) && Array.isArray(r.losses) ? r.losses.length : -1;
  const perStep = (a) => arrOf(a, isCount) && a.length === n;
  return n > 0 && arrOf(r.losses, lossOk, steps) && has(r.task, ['uniform_loss_nats', 'loss_floor_nats'], isNum)
    && isObj(r.stall) && isCount(r.stall.weight_elements) && r.stall.weight_elements > 0
    && perStep(r.stall.weights_unchanged_per_step) && (!master || perStep(r.stall.master_unchanged_per_step));
}

function validStall(s) {
  if (!isObj(s) || !STALL.pure.includes(s.pure) || !STALL.steps.includes(s.steps) || !isObj(s.end) || !ENDS.includes(s.end.outcome)) return null;
  const { reports, live, end } = s;
  if (!isObj(reports) || !isObj(live) || !isCount(end.stepsDone) || end.stepsDone > 2 * s.steps) return null;
  const pure = reports.pure ?? null;
  const mixed = reports.mixed ?? null;
  if (!stallReportOk(pure, s.steps, false) || !stallReportOk(mixed, s.steps, true)) return null;
  if (!arrOf(live.pure, lossOk, s.steps) || !arrOf(live.mixed, lossOk, s.steps) || !(pure || live.pure.length)) return null;
  if (end.outcome === 'done' && !(pure && mixed && pure.losses.length === s.steps && mixed.losses.length === s.steps)) return null;
  const stall = { pure: s.pure, steps: s.steps, reports: { pure, mixed }, live: { pure: live.pure, mixed: live.mixed },
    end: { outcome: end.outcome, stepsDone: end.stepsDone } };
  return drawable(() => {
    const model = stallModel(stall.pure, stall.reports, stall.live);
    stallLossSummary(model);
    stallUnchangedSummary(model);
  }) ? stall : null;
}

// state: { settings, stallSettings, train, stall } as the panel holds them (train and stall may be
// null) → the text to store, or null. Over MAX_CHARS the stall demo is left out first, then the run.
export function serialize({ settings, stallSettings, train = null, stall = null }) {
  const base = { settings: validSettings(settings), stallSettings: validStallSettings(stallSettings) };
  const keptStall = stall ? { ...stall, reports: { pure: trimStall(stall.reports.pure), mixed: trimStall(stall.reports.mixed) } } : null;
  for (const parts of [{ train, stall: keptStall }, { train, stall: null }, { train: null, stall: null }]) {
    const text = JSON.stringify({ ...base, ...parts });
    if (text.length <= MAX_CHARS) return text;
  }
  return null;
}

// The stored text → { settings, stallSettings, train, stall } with every unusable part dropped
// (settings fall back to the defaults one by one), or null when nothing could be read.
export function deserialize(text) {
  if (typeof text !== 'string' || text.length > MAX_CHARS) return null;
  let raw;
  try { raw = JSON.parse(text); } catch { return null; }
  if (!isObj(raw)) return null;
  return { settings: validSettings(raw.settings), stallSettings: validStallSettings(raw.stallSettings),
    train: validTrain(raw.train), stall: validStall(raw.stall) };
}

// Where to keep: the browser's localStorage when the lab's progress is saved (persistent), so the runs
// outlive a reload and the tab as the progress does; else the tab's sessionStorage; null if neither.
export function keepStorageOf(win, persistent) {
  if (persistent) { try { if (win.localStorage) return win.localStorage; } catch { /* blocked: the tab's */ } }
  try { return win.sessionStorage || null; } catch { return null; }
}

// storage: keepStorageOf(window, …) or null. Never throws. A write that
// fails removes what was kept, so an older run is never shown as the latest.
export function saveKept(storage, state) {
  if (!storage) return false;
  const text = serialize(state);
  try {
    if (text === null) throw new Error('too large to keep');
    storage.setItem(KEEP_KEY, text);
    return true;
  } catch {
    forgetKept(storage);
    return false;
  }
}

export function loadKept(storage) {
  if (!storage) return null;
  try { return deserialize(storage.getItem(KEEP_KEY)); } catch { return null; }
}

export function forgetKept(storage) {
  try { if (storage) storage.removeItem(KEEP_KEY); } catch { /* storage blocked: nothing kept */ }
}
