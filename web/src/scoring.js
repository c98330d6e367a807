// Pure scoring (no DOM): how far a prediction is from the engine's value ("off by N×"), and which
// of a set of numeric options is nearest to a computed value. Tested in tests/web/unit/scoring.test.mjs.
import { formatBytes, formatRatio } from './format.js';

// direction: 'exact' (within 5%), 'under', 'over', or 'zero' (predicted nothing: no finite ratio).
export function errorRatio(predictedBytes, actualBytes) {
  if (!(actualBytes > 0)) throw new RangeError('actualBytes must be positive');
  if (!(predictedBytes > 0)) return { ratio: Infinity, direction: 'zero' };
  const ratio = Math.max(predictedBytes, actualBytes) / Math.min(predictedBytes, actualBytes);
  if (ratio < 1.05) return { ratio, direction: 'exact' };
  return { ratio, direction: predictedBytes < actualBytes ? 'under' : 'over' };
}

export function describeError(predictedBytes, actualBytes, units = 'gb') {
  const { ratio, direction } = errorRatio(predictedBytes, actualBytes);
  switch (direction) {
    case 'zero': return `You underestimated by the full ${formatBytes(actualBytes, units)}.`;
    case 'exact': return 'That is spot on: within 5% of the engine’s value.';
    case 'under': return `You were off by ${formatRatio(ratio)} (too low).`;
    default: return `You were off by ${formatRatio(ratio)} (too high).`;
  }
}

// Index of the option whose value is nearest to target (first one wins a tie).
export function nearestOption(values, target) {
  let best = -1;
  let bestDist = Infinity;
  values.forEach((v, i) => {
    const d = Math.abs(v - target);
    if (d < bestDist) { best = i; bestDist = d; }
  });
  return best;
}
