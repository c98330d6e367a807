// The measured matmul peak: this engine's own kernel on a cache-friendly square product, best of
// many repetitions (each a separate call, so a JIT tiers the kernel up before the best is taken).
#include <algorithm>
#include <chrono>
#include <vector>
#include "refengine/gemm.hpp"

namespace lab::ref {

double measure_matmul_peak_flops(double seconds) {
  constexpr std::int64_t n = 256;
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
  const auto start = std::chrono::steady_clock::now();
  double best = 0.0;
  for (int rep = 0; rep < 100000; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    gemm(k, av, bv, cv);
    const auto t1 = std::chrono::steady_clock::now();
    const double s = std::chrono::duration<double>(t1 - t0).count();
    if (s > 0) best = std::max(best, 2.0 * n * n * n / s);
    if (rep >= 3 && std::chrono::duration<double>(t1 - start).count() > seconds) break;
  }
  return best;
}

}  // namespace lab::ref
