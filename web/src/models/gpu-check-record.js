// "Check it on your GPU" in the lab's state and the design ledger (DOM-free): one record per
// comparison the student made (lab_state.gpu_checks, newest last): what the script printed, kept as
// the evidence, and the prediction side beside it. The ledger check (ledger-rescore.js) re-computes
// the prediction side from the measured scenario with the engine, as the page did, so an edited
// prediction is flagged and `labctl verify` says so; the measurement itself is the user's machine's
// and cannot be re-computed. The summary's line is gpu-check-text.js (kept off this module's imports).
import { compareMeasured, refusalText } from './pytorch-compare.js';

export const MAX_CHECKS = 5; // a ledger is a file a student sends: the newest comparisons only

// The prediction side of a comparison: the numbers the engine gave for the measured scenario.
export function predictionSide(cmp) {
  return {
    phases: cmp.phases.map((r) => ({ step: r.step, phase: r.phase, predicted_bytes: r.predicted_bytes })),
    saved_bytes: cmp.saved.predicted_bytes,
    autocast_weight_cache_bytes: cmp.saved.weight_cache_predicted_bytes,
    parameters: cmp.parameters.predicted,
    estimated_step_seconds: cmp.timing.estimated_step_seconds,
    status: cmp.status,
  };
}

// cmp: compareMeasured's answer; measuredText: what was pasted (the measured object is kept parsed).
export function checkRecord(cmp, measuredText, now = new Date()) {
  const { value } = parsed(measuredText);
  if (!value || cmp.error) return null;
  return { at: now.toISOString(), measured: value, predicted: predictionSide(cmp) };
}

function parsed(text) {
  try { return { value: JSON.parse(text) }; } catch {
    const line = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l.startsWith('{')).pop();
    try { return { value: line ? JSON.parse(line) : null }; } catch { return { value: null }; }
  }
}

export function withGpuCheck(state, record) {
  if (!record) return state;
  return { ...state, gpu_checks: [...(state.gpu_checks || []), record].slice(-MAX_CHECKS) };
}

// Rows for the ledger check: each recorded prediction against the engine's, re-computed from the
// measured result's own scenario. `evaluate` answers objects.
export function gpuCheckRows(state, evaluate, row, skip) {
  (state.gpu_checks || []).forEach((c, i) => {
    const at = `lab_state.gpu_checks[${i}]`;
    const cmp = compareMeasured(evaluate, c.measured && c.measured.scenario, JSON.stringify(c.measured));
    if (cmp.error) { skip(`${at}.predicted`, `the recorded result cannot be compared. ${refusalText(cmp.error)}`); return; }
    const again = predictionSide(cmp);
    for (const k of ['saved_bytes', 'autocast_weight_cache_bytes', 'parameters', 'estimated_step_seconds', 'status'])
      row(`${at}.predicted.${k}`, c.predicted[k], again[k]);
    again.phases.forEach((p, j) => row(`${at}.predicted.phases[${j}].predicted_bytes`, c.predicted.phases[j] ? c.predicted.phases[j].predicted_bytes : null, p.predicted_bytes));
  });
}
