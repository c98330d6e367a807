// The best Act 2 settings a student can actually set (no DOM): every precision × checkpointing scheme
// the act offers, each at the largest batch of the act's slider that fits, timed with the student's
// loader settings; plus the smallest step the act can set (to say why nothing fits). The engine's
// `solve` searches any batch and optimizer, which this act's controls cannot reach. Tested in
// tests/web/unit/act2-best.test.mjs.
import { PRECISIONS2, BATCH_SIZES2, DEVICES2, EVERY_K, WORKERS, toScenario2 } from '../state/scenario.js';
import { regimeReached } from './act2-model.js';

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

// Whether the chapter's tuned regime (regimeReached, in a step that fits, with the chapter calibration
// on) can be reached with the controls `open` (a Set of control keys) left open by an instructor, the
// others at their values in `config`. Exhaustive over the open step settings (GPU × precision ×
// checkpointing × slider batch). The loader needs fewer tries, by the engine's model (pipeline.cpp):
// more workers and prefetching only shorten the exposed loading, which lowers the loading share and
// raises the compute share, and prefetch depth does not change the steady state; so the most workers
// with prefetch on stand for every loader setting. Pinned memory shortens the copies, which raises
// the loading share, so both are tried. Yields after each setting tried (for idle-time slicing);
// returns { reachable, calibration_off, example, lowest_data_share, highest_compute_share } over the
// settings that fit (the shares null when none fits).
export function* regimeSearch(evaluate, config, open) {
  const out = { reachable: false, calibration_off: false, example: null, lowest_data_share: null, highest_compute_share: null };
  if (!open.has('replay') && !config.replay) return { ...out, calibration_off: true };
  const loader = {
    data_workers: open.has('workers') ? WORKERS.max : config.data_workers,
    prefetch: open.has('prefetch') ? true : config.prefetch,
    replay: true,
  };
  const pins = open.has('pin') ? [true, false] : [config.pinned_memory];
  const devices = open.has('dev') ? DEVICES2 : [config.device];
  const precisions = open.has('prec') ? PRECISIONS2 : [config.precision];
  const schemes = open.has('ckpt') ? SCHEMES2 : [{ checkpointing: config.checkpointing, every_k: config.every_k }];
  // Largest batch first: it fits least often but gives the GPU the most work per loaded token.
  const batches = open.has('batch') ? [...BATCH_SIZES2].reverse() : [config.batch_size];
  for (const device of devices) {
    for (const precision of precisions) {
      for (const scheme of schemes) {
        for (const batch_size of batches) {
          for (const pinned_memory of pins) {
            const patch = { ...loader, device, precision, ...scheme, batch_size, pinned_memory };
            const r = run(evaluate, config, patch);
            if (r.memory.fits) {
              const sh = r.pipeline.chapter_shares;
              out.lowest_data_share = Math.min(out.lowest_data_share ?? Infinity, sh.data_loading);
              out.highest_compute_share = Math.max(out.highest_compute_share ?? -Infinity, sh.compute);
              if (regimeReached(r.pipeline)) return { ...out, reachable: true, example: { ...config, ...patch } };
            }
            yield;
          }
        }
      }
    }
  }
  return out;
}

// The same, run to the end at once.
export function regimeReachable(evaluate, config, open) {
  const it = regimeSearch(evaluate, config, open);
  for (;;) { const step = it.next(); if (step.done) return step.value; }
}

// The step settings of the fit table `table` (this GPU and calibration) that the controls left open
// allow: every row when precision and checkpointing are open, else the rows with the locked value; a
// row counts when it fits at a slider batch the student can set (the locked batch, or any).
const schemeOf = (c) => (c.checkpointing === 'every_k' ? `every_k:${c.every_k}` : c.checkpointing);
function allowedRows(table, config, open) {
  return table.filter((row) => (open.has('prec') || row.patch.precision === config.precision)
    && (open.has('ckpt') || schemeOf(row.patch) === schemeOf(config)));
}
const fitsAllowed = (rows, config, open) => rows.some((row) => (open.has('batch') ? row.largest_batch > 0 : row.largest_batch >= config.batch_size));

// What can still make a step fit when the one on screen does not (for the out-of-memory advice),
// with the controls `open`: fitsHere, some allowed setting fits on this GPU; otherGpus, the GPUs of
// `devices` with more memory than this one (an open GPU control) on which the step on screen fits as
// it is (issue 23: a GPU was suggested where only a smaller step would fit); tickFits, ticking the
// chapter calibration (open, and off) makes an allowed step fit here. tableOf(config) → fit table.
// Within one precision a scheme's order by memory does not change with the batch (activations and
// logits grow in step with it), so each precision's least-memory scheme stands for it on other GPUs.
export function memoryOptions(evaluate, config, open, tableOf, devices) {
  const rows = allowedRows(tableOf(config), config, open);
  const fitsHere = fitsAllowed(rows, config, open);
  // Only a GPU with more memory is a remedy (walk 11: smaller ones were listed, fitting a smaller batch).
  const here = devices.find((d) => d.id === config.device);
  const otherGpus = !open.has('dev') ? [] : devices.filter((d) => d.id !== config.device && (!here || d.capacity_bytes > here.capacity_bytes)
    && run(evaluate, config, { device: d.id }).memory.fits);
  const tickFits = open.has('replay') && !config.replay && fitsAllowed(allowedRows(tableOf({ ...config, replay: true }), config, open), config, open);
  return { fitsHere, otherGpus, tickFits };
}
