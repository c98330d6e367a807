// Native benchmark driver: median latency of facade calls. Prints one JSON object to stdout.
// Usage: bench_core [iterations]. Called by scripts/bench.sh, never by tests.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include "facade/facade.hpp"
#include "facade/facade_parallel.hpp"

namespace {
double median_us(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
template <typename F>
double time_median_us(int iterations, F&& call) {
  for (int i = 0; i < 50; ++i) call();  // warm caches
  std::vector<double> samples;
  samples.reserve(iterations);
  for (int i = 0; i < iterations; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    call();
    samples.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
  }
  return median_us(samples);
}
}  // namespace

int main(int argc, char** argv) {
  const int iterations = argc > 1 ? std::max(10, std::atoi(argv[1])) : 2000;
  const std::string scenario =
      R"({"model":"gpt2-xl","device":"a100-sxm4-80gb","precision":"mixed","optimizer":"adam","batch_size":16,"checkpointing":"selective"})";
  // Multi-device (issue 28): the same model on 8 H100s, fully sharded over NVLink 4, as lab_scale runs it.
  const std::string parallel =
      R"({"model":"gpt2-xl","device":"h100-sxm-80gb","precision":"mixed","optimizer":"adam","batch_size":16,"checkpointing":"selective","parallel":{"data_parallel":8,"zero_stage":3,"interconnect":"nvlink4"}})";
  lab::facade::enable_parallel();
  std::size_t sink = 0;
  const double evaluate_us = time_median_us(iterations, [&] { sink += lab::facade::evaluate(scenario).size(); });
  const double parallel_us = time_median_us(iterations, [&] { sink += lab::facade::evaluate(parallel).size(); });
  std::printf("{\"iterations\": %d, \"evaluate_median_us\": %.3f, \"evaluate_parallel_median_us\": %.3f, \"sink\": %zu}\n",
              iterations, evaluate_us, parallel_us, sink);
  return 0;
}
