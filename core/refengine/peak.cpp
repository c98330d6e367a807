// The measured matmul peak: this engine's own kernel on a cache-friendly square product. Each
// repetition is a separate call (so a JIT tiers the kernel up), and repetitions are timed in batches
// whose span covers at least kSpanTicks ticks of the clock: a best single repetition under a clock
// that moves in 1 ms steps (Firefox, Safari) can only read 1 ms or 2 ms, never the kernel's speed.
// Spans also last at least kPeakMinSpanSeconds on every clock, so every browser times the same kind
// of span: a best single repetition under a fine clock catches a moment no coarse clock can see.
#include <algorithm>
#include <vector>
#include "refengine/gemm.hpp"

namespace lab::ref {

PeakMeasurement measure_matmul_peak(double seconds, const Clock& clock, double resolution_seconds) {
  constexpr std::int64_t n = 256;
  constexpr double flops_per_rep = 2.0 * n * n * n;
  std::vector<float> a(n * n), b(n * n), c(n * n), ws(static_cast<std::size_t>(gemm_workspace_floats(n)));
  for (std::int64_t i = 0; i < n * n; ++i) {
    a[static_cast<std::size_t>(i)] = static_cast<float>(i % 7) * 0.25f;
    b[static_cast<std::size_t>(i)] = static_cast<float>(i % 5) * 0.5f;
  }
  KernelCtx k;
  k.workspace = ws.data();
  k.workspace_floats = static_cast<std::int64_t>(ws.size());
  const MatView av{a.data(), DType::f32, n, n, n, 1}, bv{b.data(), DType::f32, n, n, n, 1};
  const OutView cv{c.data(), DType::f32, n, n, n};
  for (int rep = 0; rep < 3; ++rep) gemm(k, av, bv, cv);  // warm-up, untimed

  PeakMeasurement m;
  m.resolution_seconds = resolution_seconds;
  const double min_span = std::max(kSpanTicks * resolution_seconds, kPeakMinSpanSeconds);
  const double start = clock();
  // Double the batch until one spans kSpanTicks ticks (the doubling also warms the kernel up), then
  // time batches of that size until `seconds` have passed and at least kPeakSpans were timed. A batch
  // that falls short again (the machine sped up) doubles too. A clock that never moves ends the
  // doubling at kMaxReps with no peak (flops_per_s 0: the facade then reports none).
  constexpr std::int64_t kMaxReps = 8192;
  std::int64_t reps = 1;
  while (reps <= kMaxReps) {
    const double t0 = clock();
    for (std::int64_t r = 0; r < reps; ++r) gemm(k, av, bv, cv);
    const double span = clock() - t0;
    if (span < min_span) {
      reps *= 2;
      continue;
    }
    ++m.spans;
    const double rate = flops_per_rep * static_cast<double>(reps) / span;
    if (rate > m.flops_per_s) {
      m.flops_per_s = rate;
      m.best_span_seconds = span;
      m.repetitions_per_span = reps;
    }
    if (m.spans >= kPeakSpans && clock() - start > seconds) break;
  }
  return m;
}

}  // namespace lab::ref
