// The words and numbers of "Check it on your GPU" on screen (DOM-free): a comparison from
// pytorch-compare.js as a verdict, a table of predicted against measured per phase with the error in
// %, and the measured step time beside the timing model's estimate. Every number is the engine's or
// the script's; this module only decides how it reads. The panel is acts/workbench-check.js.
import { formatNumber2, formatInt, formatRatio, UNIT_SPACE } from '../format/format.js';
import { bytesText, errorText } from '../content/gpu-check-text.js';
import { STYLE_NAMES } from './pytorch-script.js';

// Short, so that four columns fit a phone: "First: backward", "Steady: peak".
const PHASE_WORDS = { forward: 'forward', backward: 'backward', optimizer_step: 'optimizer', peak: 'peak' };
const STEP_WORDS = { first: 'First', steady: 'Steady' };

export { bytesText, errorText };

export function secondsText(s) {
  if (!Number.isFinite(s)) return '—';
  return s >= 1 ? `${formatNumber2(s)}${UNIT_SPACE}s` : `${formatNumber2(s * 1000)}${UNIT_SPACE}ms`;
}

// The rows of the table: one per step and phase, the step's peak last, the error as measured against
// predicted ("+2.00%": the prediction is 2% above what PyTorch held).
export function checkRows(cmp, units = 'gb') {
  return cmp.phases.map((r) => ({
    step: STEP_WORDS[r.step], phase: PHASE_WORDS[r.phase], isPeak: r.phase === 'peak',
    predicted: bytesText(r.predicted_bytes, units), measured: bytesText(r.measured_bytes, units),
    error: r.error_pct === null ? '—' : errorText(r.error_pct),
    within: r.error_pct !== null && Math.abs(r.error_pct) <= cmp.tolerance_pct,
  }));
}

// The verdict in one sentence: agrees only when every step's peak is within the tolerance and the
// saved bytes are exact; otherwise it names the largest miss.
export function verdict(cmp) {
  const peaks = cmp.phases.filter((r) => r.phase === 'peak');
  const worst = peaks.reduce((a, b) => (Math.abs(b.error_pct) > Math.abs(a.error_pct) ? b : a));
  // The table's other rows (each phase's own maximum) are named too, so "the largest miss" never reads
  // as covering rows it does not (a walk: "0.00%" above a -5.30% forward row).
  const worstAny = cmp.phases.filter((r) => r.error_pct !== null).reduce((a, b) => (Math.abs(b.error_pct) > Math.abs(a.error_pct) ? b : a), worst);
  if (cmp.status === 'agrees')
    return { ok: true, text: `Agrees: each step's peak is within ${formatInt(cmp.tolerance_pct)}% of the prediction (the largest miss ${errorText(worst.error_pct)}; of any phase in the table ${errorText(worstAny.error_pct)}), and the saved activations match to the byte.` };
  if (Math.abs(worst.error_pct) > cmp.tolerance_pct) {
    const side = worst.error_pct < 0 ? 'below' : 'above';
    return { ok: false, text: `Differs: the prediction of the ${worst.step} step's peak is ${formatNumber2(Math.abs(worst.error_pct))}% ${side} what PyTorch held.` };
  }
  if (cmp.parameters.predicted !== cmp.parameters.measured)
    return { ok: false, text: `Differs: the script built ${formatInt(cmp.parameters.measured)} parameters; the lab counts ${formatInt(cmp.parameters.predicted)}.` };
  return { ok: false, text: `Differs: autograd saved ${formatInt(cmp.saved.measured_bytes + cmp.saved.weight_cache_measured_bytes)} bytes; the lab predicts ${formatInt(cmp.saved.predicted_bytes + cmp.saved.weight_cache_predicted_bytes)}.` };
}

// The speed line: measured against the timing model, said as not comparable when the run was not on
// the scenario's GPU.
export function timingText(cmp) {
  const t = cmp.timing;
  const measured = `Measured ${secondsText(t.measured_step_seconds)} per step on ${cmp.measured_on.name}`;
  const estimate = `the timing model estimates ${secondsText(t.estimated_step_seconds)} on the ${t.device}`;
  if (!t.same_device) return `${measured}; ${estimate}. Not the same device, so the two times do not compare.`;
  return `${measured}; ${estimate}: the step took ${formatRatio(t.ratio)} the estimate.`;
}

// Who measured what, in one line: the device, PyTorch, the code style.
export function measuredOnText(cmp, style) {
  return `Measured on ${cmp.measured_on.name} with PyTorch ${cmp.measured_on.torch_version}, ${STYLE_NAMES[style] || style} code.`;
}
