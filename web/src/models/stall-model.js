// Pure view models (no DOM) for the loss curve and the stall demo of the "Measure it" panel: the
// series the line charts draw, the reference lines and the sentences that summarise them. Losses,
// the task's floor, the uniform-guess loss and the unchanged-weight counts all come from the engine's
// training reports. Tested in tests/web/unit/measure-model.test.mjs.
import { LABELS, trainOutcome, skippedWords } from './measure-model.js';
import { formatPercent, formatInt } from '../format/format.js';

const capitalise = (t) => t.charAt(0).toUpperCase() + t.slice(1);
const nats = (x) => (Number.isFinite(x) ? x.toFixed(2) : '—');
const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
// The loss at the end of a run: mean of the last (up to) 10 steps, since a step's loss is noisy.
export const TAIL = 10;
const tailMean = (losses) => mean(losses.slice(-TAIL));

export function lossRefs(task) {
  return [
    { key: 'uniform', label: `uniform guess ${nats(task.uniform_loss_nats)}`, value: task.uniform_loss_nats },
    { key: 'floor', label: `task floor ${nats(task.loss_floor_nats)}`, value: task.loss_floor_nats },
  ];
}

// report (optional) adds the loss scaler's skipped updates.
export function lossSummary(losses, task, stepsTotal, report = null) {
  if (!losses.length) return 'No step has run yet.';
  const bad = losses.findIndex((x) => !Number.isFinite(x));
  const o = report && report.skipped_steps.length ? trainOutcome(report) : null;
  const skipped = o ? ` ${capitalise(skippedWords(o))}.` : '';
  if (bad >= 0) {
    return `The run diverged: from step ${formatInt(bad + 1)} of ${formatInt(losses.length)} the loss is no longer a finite number `
      + `(it started at ${Number.isFinite(losses[0]) ? nats(losses[0]) : '—'} nats).${skipped}`;
  }
  const last = losses.length > 1 ? `${nats(tailMean(losses))} nats (mean of the last ${Math.min(TAIL, losses.length)} steps)` : 'no later step yet';
  return `After ${formatInt(losses.length)} of ${formatInt(stepsTotal)} steps the loss went from ${nats(losses[0])} to ${last}; `
    + `guessing uniformly scores ${nats(task.uniform_loss_nats)} and the best possible on this task is ${nats(task.loss_floor_nats)}.${skipped}`;
}

// ---- the stall demo: the same model, data and seed, plain SGD at a small learning rate, twice.
export const STALL = {
  optimizer: 'sgd', learning_rate: 0.001, batch_size: 4, seq_len: 32, seed: 1,
  pure: ['bf16', 'fp16'], default_pure: 'bf16', steps: [30, 100, 200], default_steps: 100,
};

export function stallRequests(pure, steps) {
  const base = {
    optimizer: STALL.optimizer, learning_rate: STALL.learning_rate, batch_size: STALL.batch_size, seq_len: STALL.seq_len,
    seed: STALL.seed, steps, timeline_points: 0,
  };
  // Mixed precision in the same 16-bit format, so the FP32 master copy is the only difference.
  return { pure: { ...base, precision: pure }, mixed: { ...base, precision: 'mixed', mixed_half: pure } };
}

const fractions = (counts, total) => (counts || []).map((n) => n / total);

// reports: { pure, mixed } (either may be null: not run yet, or cancelled before it started);
// live: { pure: [losses], mixed: [losses] } for runs in progress (the reports win when present).
export function stallModel(pureFormat, reports, live = {}) {
  const pureLabel = LABELS.precision[pureFormat];
  const half = pureFormat.toUpperCase();
  const mixedLabel = `Mixed ${half}`; // mixed precision: 16-bit compute with an FP32 master copy
  const lossOf = (k) => (reports[k] ? reports[k].losses : live[k] || []);
  const loss = [
    { key: 'pure', label: pureLabel, values: lossOf('pure') },
    { key: 'mixed', label: mixedLabel, values: lossOf('mixed') },
  ];
  const unchanged = [];
  const p = reports.pure;
  const m = reports.mixed;
  if (p) unchanged.push({ key: 'pure', label: `${pureLabel} weights`, values: fractions(p.stall.weights_unchanged_per_step, p.stall.weight_elements) });
  if (m) {
    unchanged.push({ key: 'mixed', label: 'FP32 master (mixed)', values: fractions(m.stall.master_unchanged_per_step, m.stall.weight_elements) });
    unchanged.push({ key: 'mixed16', label: `${half} copy (mixed)`, values: fractions(m.stall.weights_unchanged_per_step, m.stall.weight_elements) });
  }
  const task = (p || m || {}).task || null;
  return { pureFormat, pureLabel, mixedLabel, half, loss, unchanged, task, reports };
}

function runStats(losses, unchangedFractions) {
  return {
    first: losses[0], last: tailMean(losses), drop: losses[0] - tailMean(losses),
    unchanged: mean(unchangedFractions), steps: losses.length,
  };
}

export function stallStats(model) {
  const byKey = Object.fromEntries(model.unchanged.map((s) => [s.key, s.values]));
  const out = {};
  if (model.reports.pure) out.pure = runStats(model.reports.pure.losses, byKey.pure);
  if (model.reports.mixed) {
    out.mixed = runStats(model.reports.mixed.losses, byKey.mixed);
    out.mixed.unchanged16 = mean(byKey.mixed16);
  }
  return out;
}

export function stallLossSummary(model) {
  const s = stallStats(model);
  const one = (label, r) => `${label} went from ${nats(r.first)} to ${nats(r.last)} nats (−${nats(r.drop)})`;
  const live = model.loss.find((x) => x.key === 'pure').values;
  if (!s.pure && live.length) return `${model.pureLabel}, running: ${formatInt(live.length)} steps so far, loss ${nats(live[0])} → ${nats(live.at(-1))} nats.`;
  if (!s.pure) return 'The demo has not run yet.';
  if (!s.mixed) return `${one(model.pureLabel, s.pure)}; the mixed-precision run has not finished.`;
  return `Over ${formatInt(s.pure.steps)} steps, ${one(`pure ${model.half}`, s.pure)}, while ${one('mixed precision', s.mixed)}: `
    + `${s.mixed.drop > s.pure.drop ? `${(s.mixed.drop / s.pure.drop).toFixed(1)}× the progress` : 'no more progress'} from the same updates.`;
}

export function stallUnchangedSummary(model) {
  const s = stallStats(model);
  if (!s.pure) return 'The demo has not run yet.';
  const pure = `${model.pureLabel} left ${formatPercent(s.pure.unchanged)} of its weights bit-for-bit unchanged per step on average`;
  if (!s.mixed) return `${pure}.`;
  return `${pure}; mixed precision left only ${formatPercent(s.mixed.unchanged)} of its FP32 master weights unchanged `
    + `(and ${formatPercent(s.mixed.unchanged16)} of its ${model.half} copy: small updates pile up in the master until they move the 16-bit value).`;
}
