// Shared by the benchmark parts: median wall time of a synchronous call, in microseconds, after a
// warm-up so V8 tiers the WASM code up first.
import { performance } from 'node:perf_hooks';

export function medianUs(fn, iterations, warmup = 200) {
  for (let i = 0; i < warmup; i++) fn();
  const samples = new Float64Array(iterations);
  for (let i = 0; i < iterations; i++) {
    const t0 = performance.now();
    fn();
    samples[i] = (performance.now() - t0) * 1000;
  }
  samples.sort();
  return samples[iterations >> 1];
}
