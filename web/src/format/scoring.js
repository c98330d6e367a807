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

// Index of the option nearest to target on a ratio scale (being 2× off counts the same either way).
export function nearestByRatio(values, target) {
  let best = -1;
  let bestDist = Infinity;
  values.forEach((v, i) => {
    const d = Math.abs(Math.log(v / target));
    if (d < bestDist) { best = i; bestDist = d; }
  });
  return best;
}

// ---- The answering rule, one for every reflection and fill-in of both acts: a student may answer
// again as often as they like; the FIRST answer is the one scored; every try is kept, in order.
// A record is the first try's fields (what the act and the ledger score) plus `tries`, every try's
// choices and correctness with its time. MAX_TRIES bounds a saved state (a try past it is counted in
// `attempts` but not kept).
export const MAX_TRIES = 100;

// The record after one more try. attempt: { ...choices, ...correct flags, answered_at, ...engine
// values }; record: the stored one or null. A record made before tries were kept counts as one try.
export function withTry(record, attempt) {
  if (!record) return { ...attempt, attempts: 1, tries: [tryOf(attempt)] };
  const earlier = record.tries || [tryOf(record)];
  const attempts = Math.max(record.attempts || 0, earlier.length) + 1;
  return { ...record, attempts, tries: earlier.length < MAX_TRIES ? [...earlier, tryOf(attempt)] : earlier };
}

// A try keeps what was chosen, whether it was right, and when (engine values stay on the record).
const TRY_KEYS = /(_choice|^choice|_correct|^correct|^answered_at)$/;
export function tryOf(attempt) {
  return Object.fromEntries(Object.entries(attempt).filter(([k]) => TRY_KEYS.test(k)));
}

// The latest try of a record (the answer on screen), or the record itself before tries were kept.
export const lastTry = (record) => (record && record.tries && record.tries.length ? record.tries[record.tries.length - 1] : record);

// The few words the rule adds to the feedback: said once the first answer was wrong.
export function firstAnswerNote(firstRight, attempts) {
  if (firstRight) return null;
  // One wording everywhere (fill-in.js says it before the first answer); after more tries it says
  // plainly that the scored answer was not right, even when the latest one is (student walk).
  return attempts > 1 ? 'Your first answer, the one scored, was not right.' : 'Your first answer is the one scored; you may answer again.';
}
