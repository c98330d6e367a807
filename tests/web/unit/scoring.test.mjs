// Unit tests for web/src/format/scoring.js: "off by N×" in both directions, the zero prediction, nearest option.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorRatio, describeError, nearestOption, withTry, lastTry, firstAnswerNote, MAX_TRIES } from '../../../web/src/format/scoring.js';
import { plainText } from '../../../web/src/format/format.js';

const truth = 12460889600;

test('a prediction of half the truth is off by 2× too low', () => {
  const r = errorRatio(truth / 2, truth);
  assert.equal(r.direction, 'under');
  assert.equal(r.ratio, 2);
  assert.equal(describeError(truth / 2, truth), 'You were off by 2.0× (too low).');
});

test('a prediction of twice the truth is off by 2× too high', () => {
  const r = errorRatio(truth * 2, truth);
  assert.equal(r.direction, 'over');
  assert.equal(describeError(truth * 2, truth), 'You were off by 2.0× (too high).');
});

test('the exact value (or within 5%) counts as spot on', () => {
  assert.equal(errorRatio(truth, truth).direction, 'exact');
  assert.equal(errorRatio(12e9, truth).direction, 'exact');
  assert.match(describeError(truth, truth), /spot on/);
});

test('a zero prediction underestimates by the full amount instead of dividing by zero', () => {
  const r = errorRatio(0, truth);
  assert.equal(r.direction, 'zero');
  assert.equal(r.ratio, Infinity);
  assert.equal(plainText(describeError(0, truth)), 'You underestimated by the full 12.46 GB.');
  assert.equal(plainText(describeError(0, truth, 'gib')), 'You underestimated by the full 11.61 GiB.');
});

test('a non-positive truth is a programming error', () => {
  assert.throws(() => errorRatio(1, 0), RangeError);
});

test('nearestOption picks the option closest to the computed value', () => {
  assert.equal(nearestOption([1.3, 1.6, 2, 4], 89 / 56.5), 1);
  assert.equal(nearestOption([1.3, 1.6, 2, 4], 1.22), 0);
  assert.equal(nearestOption([1.3, 1.6, 2, 4], 1.95), 2);
  assert.equal(nearestOption([], 1), -1);
});

// Issue 23, the answering rule for every reflection: answer as often as you like, the first answer
// is scored, every try is kept in order (choices, right or not, when).
test('the first answer is the one scored and every try is kept in order', () => {
  const first = withTry(null, { choice: 'a', correct: false, answered_at: 't1', engine_ratio: 4 });
  assert.deepEqual(first, { choice: 'a', correct: false, answered_at: 't1', engine_ratio: 4, attempts: 1, tries: [{ choice: 'a', correct: false, answered_at: 't1' }] });
  const second = withTry(first, { choice: 'c', correct: true, answered_at: 't2', engine_ratio: 4 });
  assert.equal(second.choice, 'a');
  assert.equal(second.correct, false, 'the first answer stays the scored one');
  assert.equal(second.attempts, 2);
  assert.deepEqual(second.tries.map((t) => [t.choice, t.correct, t.answered_at]), [['a', false, 't1'], ['c', true, 't2']]);
  assert.deepEqual(lastTry(second), { choice: 'c', correct: true, answered_at: 't2' });
  assert.equal(firstAnswerNote(second.correct, second.attempts), 'Your first answer, the one scored, was not right.');
  assert.equal(firstAnswerNote(true, 3), null, 'nothing to say after a right first answer');
});

test('a record made before tries were kept counts as its first try, and a saved state stays bounded', () => {
  const old = { ratio_choice: 'b', reason_choice: 'c', ratio_correct: true, reason_correct: true, engine_ratio: 1.6, attempts: 2, answered_at: 't0' };
  const next = withTry(old, { ratio_choice: 'a', reason_choice: 'c', ratio_correct: false, reason_correct: true, engine_ratio: 1.6, answered_at: 't3' });
  assert.equal(next.attempts, 3);
  assert.equal(next.ratio_choice, 'b');
  assert.deepEqual(next.tries.map((t) => t.ratio_choice), ['b', 'a']);
  assert.equal(lastTry(old), old);
  let r = null;
  for (let i = 0; i < MAX_TRIES + 5; i += 1) r = withTry(r, { choice: 'a', correct: false, answered_at: String(i) });
  assert.equal(r.tries.length, MAX_TRIES);
  assert.equal(r.attempts, MAX_TRIES + 5);
});
