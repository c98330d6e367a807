// ZeRO's model states per device (Rajbhandari et al. 2020, Figure 1) and their properties.
#include <doctest/doctest.h>
#include "memory/memory.hpp"
#include "parallel/model_states.hpp"
#include "parallel/per_device_memory.hpp"
#include "parallel_test_util.hpp"

using namespace lab;
using nlohmann::json;

TEST_CASE("ZeRO Figure 1: 7.5B parameters on 64 GPUs with K = 12 take 120, 31.4, 16.6 and 1.88 GB per device") {
  const BytesPerParam mixed_adam = bytes_per_param(Precision::mixed, Optimizer::adam, Convention::ours);
  REQUIRE(mixed_adam.master + mixed_adam.per_optimizer_vector * mixed_adam.optimizer_vectors == 12);  // K
  const std::int64_t psi = 7'500'000'000LL;
  CHECK(model_states(mixed_adam, psi, 64, 0).total() == 120'000'000'000LL);  // (2 + 2 + K)Ψ
  CHECK(model_states(mixed_adam, psi, 64, 1).total() == 31'406'250'000LL);   // 2Ψ + 2Ψ + KΨ/N
  CHECK(model_states(mixed_adam, psi, 64, 2).total() == 16'640'625'000LL);   // 2Ψ + (2 + K)Ψ/N
  CHECK(model_states(mixed_adam, psi, 64, 3).total() == 1'875'000'000LL);    // (2 + 2 + K)Ψ/N
}

TEST_CASE("a shard is ceil(parameters / ranks): FSDP pads the flat parameter") {
  CHECK(shard_parameters(10, 3) == 4);
  CHECK(shard_parameters(9, 3) == 3);
  const BytesPerParam fp32_sgd = bytes_per_param(Precision::fp32, Optimizer::sgd, Convention::ours);
  CHECK(model_states(fp32_sgd, 10, 3, 3).total() == 4 * 8);
}

TEST_CASE("per-device static memory: stage k+1 never exceeds stage k, more devices never add, DDP ignores N") {
  for (const char* precision : {"fp32", "mixed", "bf16"})
    for (const char* optimizer : {"sgd", "momentum", "adam"})
      for (std::int64_t n : {1, 2, 3, 8, 64, 1000}) {
        const json base = {{"model", "gpt2-large"}, {"precision", precision}, {"optimizer", optimizer}};
        std::int64_t previous_stage = -1;
        for (int stage = 0; stage <= 3; ++stage) {
          const auto at = [&](std::int64_t ranks) {
            return per_device_ledger(test::parallel_scenario(base, {{"data_parallel", ranks}, {"zero_stage", stage}, {"gradient_buckets", "view"}}));
          };
          const MemoryLedger m = at(n), more = at(n * 2);
          if (previous_stage >= 0) CHECK(m.static_bytes <= previous_stage);
          previous_stage = m.static_bytes;
          if (stage == 0) CHECK(more.static_bytes == m.static_bytes);
          else CHECK(more.static_bytes <= m.static_bytes);
          CHECK(more.peak_bytes <= m.peak_bytes);
        }
      }
}

TEST_CASE("one replica at any stage holds what one device holds") {
  const json base = {{"model", "gpt2-xl"}, {"precision", "mixed"}, {"batch_size", 2}};
  const MemoryLedger one = compute_ledger(parse_scenario(base));
  for (int stage = 0; stage <= 3; ++stage) {
    const MemoryLedger m = per_device_ledger(test::parallel_scenario(base, {{"zero_stage", stage}}));
    CHECK(m.static_bytes == one.static_bytes);
    CHECK(m.activations == one.activations);
    CHECK(m.peak_bytes == one.peak_bytes);
  }
}

TEST_CASE("ZeRO-3 gathers the two largest units; DDP's copy is gradient-sized") {
  const json base = {{"model", "gpt2-xl"}, {"precision", "mixed"}};
  const Scenario s = test::parallel_scenario(base, {{"data_parallel", 8}, {"zero_stage", 3}});
  const StageLayout l = stage_layout(s, 0);
  const std::int64_t root = 50257LL * 1600 + 1024 * 1600 + 2 * 1600;  // token + position embeddings, final LayerNorm
  CHECK(gathered_parameter_bytes(s, l) == 2 * (root + l.layer_parameters));
  const Scenario ddp = test::parallel_scenario(base, {{"data_parallel", 8}});
  CHECK(gradient_bucket_bytes(ddp, l) == 2 * 1'557'611'200LL);
  CHECK(gathered_parameter_bytes(test::parallel_scenario(base, {{"zero_stage", 3}}), l) == 0);  // one replica gathers nothing
}

TEST_CASE("the device memory describes peaks at least as high as every pipeline stage's") {
  for (const char* model : {"gpt2-xl", "llama-2-7b", "course-s"})
    for (int stage = 0; stage <= 3; ++stage)
      for (std::int64_t p : {2, 3, 4, 8})
        for (std::int64_t m : {1, 2, 16}) {
          const Scenario s = test::parallel_scenario({{"model", model}, {"precision", "mixed"}},
                                                     {{"data_parallel", 4}, {"zero_stage", stage}, {"pipeline_parallel", p}, {"micro_batches", m}});
          const std::int64_t device = per_device_ledger(s).peak_bytes;
          for (int i = 0; i < p; ++i) CHECK(stage_ledger(s, i).peak_bytes <= device);
        }
}
