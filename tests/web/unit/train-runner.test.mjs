// Unit tests for web/src/engine/train-runner.js, the loop the "Measure it" Web Worker runs, driven here in
// Node with the real lab_train module: message order, losses identical to a one-shot train() of the
// same request, cancelling between chunks, refused requests, chunk sizing, and the embind session
// always deleted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTrainEngine } from '../../../scripts/engine-node.mjs';
import { runTraining, nextChunkSteps, MAX_CHUNK_STEPS } from '../../../web/src/engine/train-runner.js';

const engine = await loadTrainEngine();
const request = { batch_size: 2, seq_len: 8, steps: 7, seed: 3, timeline_points: 0 };

// TrainSession with a spy on delete().
function spySession() {
  const spy = { deleted: 0 };
  function Spy(json) {
    const session = new engine.TrainSession(json);
    const del = session.delete.bind(session);
    session.delete = () => { spy.deleted += 1; del(); };
    return session;
  }
  return { Spy, spy };
}

async function collect(req, opts = {}) {
  const { Spy, spy } = spySession();
  const messages = [];
  await runTraining(Spy, req, { post: (m) => messages.push(m), yieldNow: async () => {}, ...opts(messages) });
  return { messages, spy };
}

test('a run posts started, progress after every chunk, one early report and done, with the losses train() gives', async () => {
  let t = 0;
  const { messages, spy } = await collect(request, () => ({ now: () => (t += 50), chunkMs: 120 }));
  const types = messages.map((m) => m.type);
  assert.equal(types[0], 'started');
  assert.equal(types.at(-1), 'done');
  assert.equal(types.filter((x) => x === 'report').length, 1);
  const progress = messages.filter((m) => m.type === 'progress');
  assert.ok(progress.length >= 2, 'several chunks');
  assert.deepEqual(progress.map((m) => m.stepsDone), [...progress.map((m) => m.stepsDone)].sort((a, b) => a - b));
  assert.equal(progress.at(-1).stepsDone, 7);
  const losses = progress.flatMap((m) => m.losses);
  const oneShot = JSON.parse(engine.train(JSON.stringify(request)));
  assert.deepEqual(losses, oneShot.losses);
  assert.deepEqual(messages.at(-1).report.losses, oneShot.losses);
  assert.equal(messages.at(-1).report.memory.match, true);
  assert.equal(spy.deleted, 1);
});

test('asking it to stop ends the run between chunks with the steps done so far and a partial report', async () => {
  const { messages, spy } = await collect(request, (msgs) => ({ shouldStop: () => msgs.some((m) => m.type === 'progress') }));
  const last = messages.at(-1);
  assert.equal(last.type, 'cancelled');
  assert.equal(last.stepsDone, 1);
  assert.equal(last.report.steps_done, 1);
  assert.equal(messages.filter((m) => m.type === 'progress').length, 1);
  assert.equal(spy.deleted, 1);
});

test('a refused request comes back as an error naming the field, and the session is still deleted', async () => {
  const { messages, spy } = await collect({ ...request, batch_size: 100000 }, () => ({}));
  assert.deepEqual(messages.map((m) => m.type), ['error']);
  assert.equal(messages[0].error.field, 'batch_size');
  assert.equal(spy.deleted, 1);
});

test('chunks are sized from the last chunk’s time per step, between 1 and the cap', () => {
  assert.equal(nextChunkSteps(1, 30, 120), 4);
  assert.equal(nextChunkSteps(4, 400, 120), 1);
  assert.equal(nextChunkSteps(2, 0.001, 120), MAX_CHUNK_STEPS);
  assert.equal(nextChunkSteps(0, 0, 120), 1);
});

test('under a coarse clock chunks last at least 120 of its ticks, so the engine can time spans of 100', async () => {
  const coarse = (tick) => function Coarse(json) {
    const session = new engine.TrainSession(json);
    const status = session.status.bind(session);
    session.status = () => JSON.stringify({ ...JSON.parse(status()), clock_resolution_seconds: tick });
    return session;
  };
  const chunks = async (tick) => {
    let t = 0;
    const messages = [];
    await runTraining(coarse(tick), { ...request, steps: 20 }, { post: (m) => messages.push(m), yieldNow: async () => {}, now: () => (t += 10), chunkMs: 120 });
    return messages.filter((m) => m.type === 'progress').map((m) => m.stepsDone);
  };
  // Each chunk reads 10 ms per call pair here: one step first, then 120 ms (12 steps) or 240 ms (24, capped by the run).
  assert.deepEqual(await chunks(1e-4), [1, 13, 20]);
  assert.deepEqual(await chunks(2e-3), [1, 20]);
});
