// Act 2's search scheduling (web/src/models/act2-search.js) with the real engine under Node: answers
// needed at once match the plain searches of act2-best.js, and the best-setting search runs once the
// settings have rested, for the latest settings only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from '../../../scripts/engine-node.mjs';
import { createAct2Search } from '../../../web/src/models/act2-search.js';
import { fitTable, bestSettable } from '../../../web/src/models/act2-best.js';
import { DEFAULT_CONFIG2 } from '../../../web/src/state/scenario.js';

const m = await loadEngine();
const evaluate = (s) => JSON.parse(m.evaluate(JSON.stringify(s)));
const C = { ...DEFAULT_CONFIG2, data_workers: 4, prefetch: true, pinned_memory: true };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

test('answers needed at once are computed at once, cached, and match the plain searches', () => {
  let solves = 0;
  const s = createAct2Search({ evaluate, solveBest: () => { solves += 1; return 'solver'; } });
  assert.deepEqual(s.tableFor(C), fitTable(evaluate, C));
  assert.equal(s.known(C), false);
  const best = s.bestFor(C);
  assert.deepEqual(best, { act: bestSettable(evaluate, C, fitTable(evaluate, C)), solver: 'solver' });
  assert.equal(s.known(C), true);
  assert.equal(s.bestFor(C), best);
  assert.equal(solves, 1, 'cached per loader setting');
  assert.equal(s.known({ ...C, data_workers: 6 }), false);
});

test('the search runs once the settings have rested, for the latest settings only', async () => {
  const s = createAct2Search({ evaluate, solveBest: () => 'solver' });
  const calls = [];
  const other = { ...C, data_workers: 6 };
  s.whenRested(C, () => calls.push('first'));
  await sleep(100);
  s.whenRested(other, () => calls.push('second')); // a slider step before the rest: the wait starts over
  await sleep(150);
  assert.deepEqual(calls, [], 'not before 250 ms of rest');
  await sleep(200);
  assert.deepEqual(calls, ['second']);
  assert.equal(s.known(other), true);
  assert.equal(s.known(C), false);
  s.whenRested(C, () => calls.push('third'));
  s.stop();
  await sleep(300);
  assert.deepEqual(calls, ['second'], 'stop() cancels the wait');
});
