// The step on the heaviest device: bubble, consistency with one device, speedup bounds, the chapter's r,
// the crossovers and the timeline.
#include <doctest/doctest.h>
#include <cmath>
#include "model/flops.hpp"
#include "memory/memory.hpp"
#include "parallel/per_device_memory.hpp"
#include "parallel/step_time.hpp"
#include "parallel_test_util.hpp"

using namespace lab;
using nlohmann::json;

namespace {
ParallelStep step_of(const Scenario& s) {
  const FlopsEstimate f = estimate_flops(s);
  const PipelineResult one = compute_pipeline(s, f, {true, false});
  return parallel_step(s, f, one, stage_layout(s, heaviest_device(s).stage));
}
const json kXl = {{"model", "gpt2-xl"}, {"precision", "mixed"}, {"batch_size", 4}};
}  // namespace

TEST_CASE("the bubble is (p - 1)/(m + p - 1)") {
  CHECK(bubble_fraction(1, 8) == 0);
  CHECK(bubble_fraction(4, 1) == doctest::Approx(3.0 / 4.0));
  CHECK(bubble_fraction(4, 8) == doctest::Approx(3.0 / 11.0));
  CHECK(bubble_fraction(8, 64) == doctest::Approx(7.0 / 71.0));
  const ParallelStep r = step_of(test::parallel_scenario(kXl, {{"pipeline_parallel", 4}, {"micro_batches", 8}}));
  CHECK(r.bubble_fraction == doctest::Approx(3.0 / 11.0));
  CHECK(r.bubble_s / (r.bubble_s + r.compute_s - r.compute.optimizer_s) == doctest::Approx(3.0 / 11.0));
}

TEST_CASE("one device in a parallel block steps as the one-device timing model does") {
  const Scenario s = test::parallel_scenario(kXl, {{"data_parallel", 1}});
  const FlopsEstimate f = estimate_flops(s);
  const PipelineResult one = compute_pipeline(s, f, {true, false});
  const ParallelStep r = step_of(s);
  CHECK(r.step_s == doctest::Approx(one.step_seconds));
  CHECK(r.single_device_step_s == doctest::Approx(one.step_seconds));
  CHECK(r.speedup == doctest::Approx(1.0));
  CHECK(r.communication_s == 0);
}

TEST_CASE("speedup never exceeds the device count for plain data parallelism, and r reproduces it") {
  for (const char* link : {"nvlink4", "pcie4", "ethernet-10g", "ideal"})
    for (std::int64_t n : {2, 8, 64, 1024})
      for (bool overlap : {true, false}) {
        const ParallelStep r = step_of(test::parallel_scenario(kXl, {{"data_parallel", n}, {"interconnect", link}, {"overlap", overlap}}));
        CHECK(r.speedup <= static_cast<double>(n) * (1 + 1e-12));
        const double nn = static_cast<double>(n);
        CHECK(nn / (1 + (nn - 1) * r.communication_ratio) == doctest::Approx(r.speedup));
        CHECK(r.exposed_communication_s <= r.communication_s);
        CHECK(r.hidden_communication_s >= 0);
      }
}

TEST_CASE("a free interconnect hides nothing because there is nothing to hide") {
  const ParallelStep r = step_of(test::parallel_scenario(kXl, {{"data_parallel", 64}, {"zero_stage", 3}, {"interconnect", "ideal"}}));
  CHECK(r.communication_s == 0);
  CHECK(r.crossover_data_parallel_tokens == 0);
  CHECK(r.crossover_fully_sharded_tokens == 0);
}

TEST_CASE("gradient all-reduce hides behind backward except the last bucket; without overlap all is exposed") {
  const ParallelStep on = step_of(test::parallel_scenario(kXl, {{"data_parallel", 8}}));
  const ParallelStep off = step_of(test::parallel_scenario(kXl, {{"data_parallel", 8}, {"overlap", false}}));
  REQUIRE(on.collectives.size() == 1);
  const CollectiveCost& c = on.collectives[0];
  CHECK(c.calls == (1'557'611'200LL * 2 + 26'214'399) / 26'214'400);  // ceil(G·Ψ / 25 MiB) buckets
  CHECK(c.exposed_seconds == doctest::Approx(c.seconds / static_cast<double>(c.calls)));  // NVLink: only the last bucket
  CHECK(off.exposed_communication_s == doctest::Approx(off.communication_s));
  CHECK(off.step_s > on.step_s);
}

TEST_CASE("ZeRO's volumes: stages 0-2 send 2 psi elements' worth per step, stage 3 sends 3 psi") {
  const json base = {{"model", "gpt2-xl"}, {"precision", "mixed"}};
  const double psi = 1'557'611'200.0, n = 16;
  const double ring = (n - 1) / n;
  for (int stage = 0; stage <= 3; ++stage) {
    const ParallelStep r = step_of(test::parallel_scenario(base, {{"data_parallel", 16}, {"zero_stage", stage}}));
    double bytes = 0;
    for (const auto& c : r.collectives) bytes += c.bytes;
    CHECK(bytes == doctest::Approx((stage == 3 ? 3 : 2) * ring * psi * 2));  // 16-bit elements
  }
}

TEST_CASE("Megatron's tensor-parallel traffic: 4 all-reduces of b·s·h per layer per micro-batch; sequence parallel the same volume") {
  const json llama = {{"model", "llama-2-7b"}, {"precision", "mixed"}, {"batch_size", 2}, {"seq_len", 2048}};
  const ParallelStep tp = step_of(test::parallel_scenario(llama, {{"tensor_parallel", 4}, {"micro_batches", 3}}));
  const ParallelStep sp = step_of(test::parallel_scenario(llama, {{"tensor_parallel", 4}, {"micro_batches", 3}, {"sequence_parallel", true}}));
  const double element_bytes = 2, bsh = 2.0 * 2048 * 4096;
  REQUIRE(tp.collectives.size() == 1);
  CHECK(tp.collectives[0].calls == 4 * 32 * 3);
  CHECK(tp.collectives[0].bytes == doctest::Approx(4 * 32 * 3 * 2 * 0.75 * bsh * element_bytes));
  double sp_bytes = 0;
  for (const auto& c : sp.collectives) sp_bytes += c.bytes;
  CHECK(sp_bytes == doctest::Approx(tp.collectives[0].bytes));
}

TEST_CASE("the crossover grows with the device's FLOP/s and shrinks with the link's bandwidth") {
  const json base = {{"model", "gpt2-xl"}, {"precision", "mixed"}, {"batch_size", 8}};
  const auto crossover = [&](const char* device, const char* link) {
    json request = base;
    request["device"] = device;
    return step_of(test::parallel_scenario(request, {{"data_parallel", 8}, {"interconnect", link}}));
  };
  const ParallelStep h100_nvlink = crossover("h100-sxm-80gb", "nvlink4"), h100_pcie = crossover("h100-sxm-80gb", "pcie4");
  const ParallelStep v100_pcie = crossover("v100-sxm2-32gb", "pcie4");
  CHECK(h100_pcie.crossover_data_parallel_tokens > h100_nvlink.crossover_data_parallel_tokens);
  CHECK(h100_pcie.crossover_data_parallel_tokens > v100_pcie.crossover_data_parallel_tokens);
  CHECK(h100_pcie.crossover_fully_sharded_tokens > h100_nvlink.crossover_fully_sharded_tokens);
  // At the crossover, backward compute equals the all-reduce's time.
  const double backward_per_token = h100_pcie.compute.backward_s / (8.0 * 1024);
  CHECK(backward_per_token * h100_pcie.crossover_data_parallel_tokens == doctest::Approx(h100_pcie.collectives[0].seconds));
}

TEST_CASE("the timeline ends at step_s and its compute lane is forward, backward, bubble, optimizer") {
  for (int stage = 0; stage <= 3; ++stage) {
    const ParallelStep r = step_of(test::parallel_scenario(kXl, {{"data_parallel", 32}, {"zero_stage", stage}, {"pipeline_parallel", 2},
                                                                 {"micro_batches", 4}, {"interconnect", "infiniband-hdr"}}));
    double end = 0;
    for (const auto& t : r.timeline) {
      CHECK(t.end_s >= t.start_s);
      end = std::max(end, t.end_s);
    }
    CHECK(end == doctest::Approx(r.step_s));
  }
}

TEST_CASE("ZeRO-3's gathers hide behind one unit's compute, except the first of each pass") {
  const json base = {{"model", "gpt2-xl"}, {"precision", "mixed"}, {"batch_size", 1}};
  for (const char* link : {"nvlink4", "ethernet-10g"}) {
    const ParallelStep r = step_of(test::parallel_scenario(base, {{"data_parallel", 8}, {"zero_stage", 3}, {"interconnect", link}}));
    const CollectiveCost& gathers = r.collectives[0];
    REQUIRE(std::string(gathers.purpose) == "parameters");
    const double units = 48 + 1;  // blocks, and the root unit (embeddings, final norm; the head is tied)
    CHECK(gathers.calls == 2 * 49);
    const double one = gathers.seconds / 98;
    const double expected = 2 * one + (units - 1) * (std::max(0.0, one - r.compute.forward_s / units) +
                                                     std::max(0.0, one - r.compute.backward_s / units));
    CHECK(gathers.exposed_seconds == doctest::Approx(expected));
  }
}
