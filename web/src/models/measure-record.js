// Measure it's runs in the lab's state (no DOM): one compact record per training run that ended
// (settings, measured and predicted bytes at the peak, loss, time), kept in the store so that it
// survives a reload with the rest of the progress and reaches the design ledger (lab_state.measure_runs
// and the ledger's measured_runs). The charts of the last run are kept apart (measure-keep.js).
// Tested in tests/web/unit/measure-record.test.mjs.
import { CHOICES, LABELS } from './measure-model.js';
import { formatSmallBytes, formatCount } from '../format/format.js';

// The newest runs only: a ledger is a file a student sends, not a log.
export const MAX_RUNS = 10;

const num = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

// train: the panel's run ({ losses, total, report, end }); settings: the panel's settings for it.
// → a record, or null when there is nothing measured to record (no report, or a run that failed to start).
export function runRecord(train, settings, now = new Date()) {
  const r = train.report;
  if (!r || !train.end || !['done', 'cancelled'].includes(train.end.outcome) || !r.memory || !r.memory.measured) return null;
  const losses = train.losses.filter((x) => num(x) !== null);
  return {
    at: now.toISOString(),
    settings: Object.fromEntries(Object.keys(CHOICES).map((k) => [k, settings[k]])),
    outcome: train.end.outcome,
    steps_done: train.end.stepsDone,
    parameters: r.model.parameters,
    measured_peak_bytes: r.memory.measured.peak_bytes,
    predicted_peak_bytes: r.memory.predicted.peak_bytes,
    measured_bytes_at_peak: { ...r.memory.measured.at_peak },
    peak_phase: r.memory.measured.peak_phase,
    first_loss_nats: losses.length ? losses[0] : null,
    last_loss_nats: losses.length ? losses.at(-1) : null,
    median_seconds_per_step: num(r.time.median_seconds_per_step),
    total_seconds: num(r.time.total_seconds),
    tokens_per_s: num(r.throughput && r.throughput.tokens_per_s),
  };
}

// The state with `record` appended (the oldest dropped past MAX_RUNS); a null record changes nothing.
export function withMeasureRun(state, record) {
  if (!record) return state;
  return { ...state, measure_runs: [...(state.measure_runs || []), record].slice(-MAX_RUNS) };
}

// The design ledger's readable summary of these runs: how many, and the last one's settings,
// measured peak (against the ledger's prediction), loss and time per step, as the panel writes them
// (bytes in MB or MiB, loss in nats with two decimals, milliseconds with one). null: no run recorded.
export function measureRunsText(runs, units = 'gb') {
  if (!Array.isArray(runs) || !runs.length) return null;
  const r = runs.at(-1);
  const s = r.settings;
  const peak = formatSmallBytes(r.measured_peak_bytes, units);
  const predicted = r.predicted_peak_bytes === r.measured_peak_bytes ? 'as the ledger predicted' : `the ledger predicted ${formatSmallBytes(r.predicted_peak_bytes, units)}`;
  const loss = r.first_loss_nats === null ? '' : `, loss ${r.first_loss_nats.toFixed(2)} → ${r.last_loss_nats.toFixed(2)} nats`;
  const time = r.median_seconds_per_step === null ? '' : `, ${(r.median_seconds_per_step * 1000).toFixed(1)} ms per step (median)`;
  return `Measure it: ${formatCount(runs.length, 'run')} recorded; the last: ${LABELS.precision[s.precision]}, ${LABELS.optimizer[s.optimizer]}, `
    + `checkpointing ${LABELS.checkpointing[s.checkpointing].toLowerCase()}, batch ${s.batch_size} × ${s.seq_len} tokens, ${r.steps_done} of ${s.steps} steps `
    + `(${r.outcome}): measured peak ${peak}, ${predicted}${loss}${time}.`;
}
