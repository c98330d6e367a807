// "Check it on your GPU" in the design ledger's readable summary, kept light (design-ledger.js is on
// the first load; the comparison and the script are not): the last comparison's verdict in one
// line, and the byte and error formats the panel uses too (pytorch-check-view.js).
import { formatBytes, formatSmallBytes, formatNumber2, formatCount } from './format.js';

// Below 1 GB in MB (or MiB), so a small model's bytes do not all read "<0.01 GB".
export const bytesText = (bytes, units = 'gb') => (Math.abs(bytes) >= (units === 'gib' ? 2 ** 30 : 1e9) ? formatBytes(bytes, units) : formatSmallBytes(bytes, units));
export const errorText = (pct) => `${pct > 0 ? '+' : ''}${formatNumber2(pct)}%`;

// checks: lab_state.gpu_checks (gpu-check-record.js). null: none recorded.
export function gpuChecksText(checks, units = 'gb') {
  if (!Array.isArray(checks) || !checks.length) return null;
  const c = checks.at(-1);
  const peak = c.predicted.phases.find((p) => p.step === 'steady' && p.phase === 'peak');
  const measured = c.measured.steady_step.peak_bytes;
  return `Checked on a GPU: ${formatCount(checks.length, 'comparison')} recorded; the last, on ${c.measured.device.name}: steady step's peak measured `
    + `${bytesText(measured, units)}, predicted ${bytesText(peak.predicted_bytes, units)} (${errorText((100 * (peak.predicted_bytes - measured)) / measured)}): ${c.predicted.status}.`;
}
