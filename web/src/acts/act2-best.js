// The best Act 2 settings a student can actually set (no DOM): every precision × checkpointing scheme
// the act offers, each at the largest batch of the act's slider that fits, timed with the student's
// loader settings; plus the smallest step the act can set (to say why nothing fits). The engine's
// `solve` searches any batch and optimizer, which this act's controls cannot reach. Tested in
// tests/web/unit/act2-best.test.mjs.
import { PRECISIONS2, BATCH_SIZES2, EVERY_K, toScenario2 } from '../scenario.js';

// The act's checkpointing choices: none, selective, full, and every k layers for each k it accepts.
export const SCHEMES2 = [
  { checkpointing: 'none' }, { checkpointing: 'selective' }, { checkpointing: 'full' },
  ...Array.from({ length: EVERY_K.max - EVERY_K.min + 1 }, (_, i) => ({ checkpointing: 'every_k', every_k: EVERY_K.min + i })),
];

const run = (evaluate, config, patch) => {
  const r = evaluate(toScenario2(config, { ...patch, schedule_steps: 0 }));
  if (!r || r.error) throw new Error(`the engine could not compute ${JSON.stringify(patch)}: ${r && r.error ? r.error.message : 'no result'}`);
  return r;
};

// For the device and calibration of `config`: per precision × scheme, the largest batch of the act's
// slider that fits (0: none) and the peak at the smallest batch. Memory grows with the batch, so a
// binary search over the slider's batches is exact. Depends on neither the loader knobs nor the
// batch on screen: cache it per (device, calibration).
export function fitTable(evaluate, config) {
  return [...fitRows(evaluate, config)];
}

// The same rows one at a time (~1 ms each), so a page can build the table in idle time.
export function* fitRows(evaluate, config) {
  for (const precision of PRECISIONS2) {
    for (const scheme of SCHEMES2) {
      const patch = { precision, ...scheme };
      const smallest = run(evaluate, config, { ...patch, batch_size: BATCH_SIZES2[0] });
      let lo = 0; // BATCH_SIZES2[0..lo) fit
      let hi = BATCH_SIZES2.length;
      if (smallest.memory.fits) {
        lo = 1;
        while (lo < hi) {
          const mid = Math.floor((lo + hi) / 2);
          if (run(evaluate, config, { ...patch, batch_size: BATCH_SIZES2[mid] }).memory.fits) lo = mid + 1; else hi = mid;
        }
      }
      yield { patch, largest_batch: lo > 0 ? BATCH_SIZES2[lo - 1] : 0, smallest_peak_bytes: smallest.memory.peak_bytes, smallest };
    }
  }
}

// The smallest step the act can set on this device (least peak at the smallest batch), with its result.
export function smallestStep(table) {
  const row = table.reduce((a, b) => (b.smallest_peak_bytes < a.smallest_peak_bytes ? b : a));
  return { config: { ...row.patch, batch_size: BATCH_SIZES2[0] }, result: row.smallest };
}

// The highest MFU and the most tokens/s among settings the act can set, with the loader knobs of
// `config`. MFU and throughput never fall as the batch grows, so each scheme is timed at its largest
// fitting batch. Ties keep the first (less recompute, FP32 before mixed). null when nothing fits.
export function bestSettable(evaluate, config, table) {
  let best = null;
  let fastest = null;
  let tried = 0;
  for (const row of table) {
    if (!row.largest_batch) continue;
    const patch = { ...row.patch, batch_size: row.largest_batch };
    const r = run(evaluate, config, patch);
    tried += 1;
    const entry = { config: { ...config, ...patch }, mfu: r.pipeline.mfu, tokens_per_second: r.pipeline.tokens_per_second, peak_bytes: r.memory.peak_bytes };
    if (!best || entry.mfu > best.mfu) best = entry;
    if (!fastest || entry.tokens_per_second > fastest.tokens_per_second) fastest = entry;
  }
  return best ? { best_mfu: best, fastest, tried } : null;
}
