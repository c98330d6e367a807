// The byte and error formats of "Check it on your GPU" (pytorch-check-view.js and the e2e test).
// The design ledger's readable summary does not list the comparisons: design-ledger.js is on the
// first load, at its byte budget; the record itself is in lab_state.gpu_checks.
import { formatBytes, formatSmallBytes, formatNumber2 } from '../format/format.js';

// Below 1 GB in MB (or MiB), so a small model's bytes do not all read "<0.01 GB".
export const bytesText = (bytes, units = 'gb') => (Math.abs(bytes) >= (units === 'gib' ? 2 ** 30 : 1e9) ? formatBytes(bytes, units) : formatSmallBytes(bytes, units));
// Signed, two decimals; under 0.005% it reads 0.00% (not "−0.00%").
export const errorText = (pct) => (Math.abs(pct) < 0.005 ? '0.00%' : `${pct > 0 ? '+' : ''}${formatNumber2(pct)}%`);
