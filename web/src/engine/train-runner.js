// Drives one reference-engine TrainSession a few steps at a time (DOM-free, no generated imports):
// the Web Worker (engine-worker.js) hands it the module's TrainSession class and a `post` function,
// and it reports progress after every chunk, stops between chunks when asked, and always deletes
// the embind object. Chunks are sized so one lasts about `chunkMs`, which bounds how long a cancel
// waits. Tested in Node against the real lab_train module (tests/web/unit/train-runner.test.mjs).

export const DEFAULT_CHUNK_MS = 120;
export const MAX_CHUNK_STEPS = 64;

// Steps for the next chunk from the last one's wall time (at least 1, at most MAX_CHUNK_STEPS).
export function nextChunkSteps(lastSteps, lastMs, chunkMs = DEFAULT_CHUNK_MS) {
  if (!(lastSteps > 0) || !(lastMs > 0)) return 1;
  const perStep = lastMs / lastSteps;
  return Math.max(1, Math.min(MAX_CHUNK_STEPS, Math.floor(chunkMs / perStep)));
}

const parse = (text) => JSON.parse(text);

// Messages posted (all plain data): {type:'started', status} once the session exists;
// {type:'progress', stepsDone, stepsTotal, losses, seconds} after each chunk (losses = the new ones);
// {type:'report', report} after the first chunk (memory is fully measured after one step);
// then exactly one of {type:'done', report}, {type:'cancelled', stepsDone, report|null},
// {type:'error', error:{field, message}}. Resolves when the last message has been posted.
export async function runTraining(TrainSession, request, {
  post, shouldStop = () => false, yieldNow = () => new Promise((r) => setTimeout(r, 0)),
  now = () => performance.now(), chunkMs = DEFAULT_CHUNK_MS,
}) {
  let session;
  try {
    session = new TrainSession(JSON.stringify(request));
  } catch (err) {
    post({ type: 'error', error: { field: '', message: `the training engine failed: ${err && err.message ? err.message : String(err)}` } });
    return;
  }
  try {
    const status = parse(session.status());
    if (status.error) { post({ type: 'error', error: status.error }); return; }
    post({ type: 'started', status });
    const total = status.steps_total;
    // A chunk lasts long enough for the engine to time its steps over 100 ticks of its clock (1 ms in
    // Firefox and Safari): spans never cross chunks, since the time between two is not training.
    const chunkFor = Math.max(chunkMs, 120 * 1000 * (status.clock_resolution_seconds || 0));
    let done = 0;
    let steps = 1;
    let reported = false;
    while (done < total) {
      if (shouldStop()) {
        post({ type: 'cancelled', stepsDone: done, report: done > 0 ? parse(session.report()) : null });
        return;
      }
      const t0 = now();
      const out = parse(session.step(steps));
      const ms = now() - t0;
      if (out.error) { post({ type: 'error', error: out.error }); return; }
      const ran = out.steps_done - done;
      done = out.steps_done;
      post({ type: 'progress', stepsDone: done, stepsTotal: total, losses: out.losses, seconds: out.seconds });
      if (!reported && done < total) { post({ type: 'report', report: parse(session.report()) }); reported = true; }
      steps = nextChunkSteps(ran, ms, chunkFor);
      if (ran <= 0) break;
      await yieldNow(); // lets a 'cancel' message in
    }
    post({ type: 'done', report: parse(session.report()) });
  } finally {
    session.delete();
  }
}
