// Native benchmark driver for the reference engine (not a test): the fixed tiny-GPT workload through
// the same TrainSession the WASM builds use, warm-up steps first, then per-step times as the engine
// measures them (steady clock) and as seen around each call. Prints one JSON object to stdout.
// Usage: bench_refengine [timed_steps] [warmup_steps]. Called by scripts/bench/refengine.bench.mjs.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include "facade/facade_train.hpp"

namespace {
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}
}  // namespace

int main(int argc, char** argv) {
  const int steps = argc > 1 ? std::max(1, std::atoi(argv[1])) : 15;
  const int warmup = argc > 2 ? std::max(0, std::atoi(argv[2])) : 5;
  // Issue #5's workload: vocab 64, context 64, d_model 128, 4 heads, 4 layers, MLP 512 (GELU),
  // pre-LN, learned positions, untied head, batch 8, Adam, float32.
  const std::string request =
      R"({"vocab": 64, "context": 64, "d_model": 128, "heads": 4, "layers": 4, "mlp_hidden": 512, "batch_size": 8,
          "seq_len": 64, "precision": "fp32", "optimizer": "adam", "timeline_points": 0, "steps": )" +
      std::to_string(steps + warmup) + "}";
  lab::facade::TrainSession session(request);
  const auto status = session.status_json();
  if (status.contains("error")) {
    std::printf("%s\n", status.dump().c_str());
    return 1;
  }
  session.step_json(warmup);
  std::vector<double> engine_s, call_s;
  double last_loss = 0;
  for (int i = 0; i < steps; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = session.step_json(1);
    call_s.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    engine_s.push_back(r["seconds"][0].get<double>());
    last_loss = r["losses"][0].get<double>();
  }
  const auto report = session.report_json();
  const double flops = report["flops"]["model_per_step"].get<double>();
  const double med = median(engine_s);
  std::printf(
      "{\"steps\": %d, \"warmup_steps\": %d, \"model_flops_per_step\": %.0f, \"median_step_ms\": %.3f, "
      "\"min_step_ms\": %.3f, \"median_call_ms\": %.3f, \"gflops_per_s\": %.3f, \"last_loss\": %.6f, "
      "\"memory_match\": %s}\n",
      steps, warmup, flops, med * 1e3, *std::min_element(engine_s.begin(), engine_s.end()) * 1e3,
      median(call_s) * 1e3, flops / med / 1e9, last_loss, report["memory"]["match"].get<bool>() ? "true" : "false");
  return 0;
}
