// Unit tests for web/src/scoring.js: "off by N×" in both directions, the zero prediction, nearest option.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorRatio, describeError, nearestOption } from '../../../web/src/scoring.js';
import { plainText } from '../../../web/src/format.js';

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
