// Native benchmark driver for the memory solver: median latency of lab_scale's `solve` (the full sweep
// of precision × optimizer × checkpointing × batch) for a few scenarios, and one with "parallel" (the
// same sweep plus the fewest-devices search). Prints one JSON object.
// Usage: bench_solver [iterations]. Called by scripts/bench/solver.bench.mjs, never by tests.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include "facade/facade.hpp"
#include "facade/facade_parallel.hpp"
#include "facade/facade_solve_parallel.hpp"

namespace {
double time_median_us(int iterations, const std::string& request, std::size_t& sink) {
  for (int i = 0; i < 5; ++i) sink += lab::facade::solve_scale(request).size();  // warm caches
  std::vector<double> samples;
  samples.reserve(static_cast<std::size_t>(iterations));
  for (int i = 0; i < iterations; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    sink += lab::facade::solve_scale(request).size();
    samples.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 2];
}
}  // namespace

int main(int argc, char** argv) {
  const int iterations = argc > 1 ? std::max(5, std::atoi(argv[1])) : 200;
  const std::pair<const char*, const char*> scenarios[] = {
      {"gpt2_xl_laptop", R"({"model":"gpt2-xl","device":"rtx4060-laptop-8gb","precision":"fp32","optimizer":"adam","batch_size":8})"},
      {"gpt2_xl_h100", R"({"model":"gpt2-xl","device":"h100-sxm-80gb","precision":"mixed","optimizer":"adam","batch_size":64})"},
      {"chapter_replay", R"({"chapter_replay":true,"precision":"fp32","optimizer":"adam","batch_size":32})"},
      // Issue 28's fewest devices (Act 3's question: 8 GB laptop GPUs, mixed Adam, ZeRO-3, a free interconnect).
      {"fewest_devices_laptop", R"({"model":"gpt2-xl","device":"rtx4060-laptop-8gb","precision":"mixed","optimizer":"adam","batch_size":1,"checkpointing":"full","parallel":{"data_parallel":1,"zero_stage":3,"interconnect":"ideal"}})"},
  };
  lab::facade::enable_parallel();
  std::size_t sink = 0;
  std::printf("{\"iterations\": %d", iterations);
  for (const auto& [name, request] : scenarios)
    std::printf(", \"solve_%s_median_us\": %.3f", name, time_median_us(iterations, request, sink));
  std::printf(", \"sink\": %zu}\n", sink);
  return 0;
}
