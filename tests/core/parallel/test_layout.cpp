// Megatron's layout: parameters per device with tensor and pipeline parallelism.
#include <doctest/doctest.h>
#include "parallel/layout.hpp"
#include "parallel_test_util.hpp"

using namespace lab;
using nlohmann::json;

TEST_CASE("one device, one stage: the layout holds every parameter") {
  for (const char* id : {"gpt2-xl", "llama-2-7b", "qwen2-7b", "tinyllama-1.1b"}) {
    const Scenario s = test::parallel_scenario({{"model", id}}, {{"data_parallel", 2}});
    CHECK(stage_layout(s, 0).parameters == count_parameters(s.model).total);
  }
}

TEST_CASE("stages split the blocks, the extra ones first, and sum to L") {
  for (std::int64_t layers : {1, 7, 48})
    for (std::int64_t p = 1; p <= layers && p <= 12; ++p) {
      std::int64_t sum = 0;
      for (int i = 0; i < p; ++i) {
        sum += stage_layers(layers, p, i);
        CHECK(stage_layers(layers, p, i) <= stage_layers(layers, p, 0));
      }
      CHECK(sum == layers);
    }
}

TEST_CASE("tensor parallel splits matmuls and column biases, replicates norms and row-parallel biases") {
  const Scenario s = test::parallel_scenario({{"model", "gpt2-xl"}}, {{"tensor_parallel", 5}});  // 25 heads
  const std::int64_t d = 1600, f = 6400;
  const std::int64_t split = 4 * d * d + 3 * d + 2 * d * f + f;  // QKV + out weights, QKV bias; MLP weights, up bias
  const std::int64_t replicated = 2 * 2 * d + d + d;             // two LayerNorms (weight, bias); out and down biases
  CHECK(layer_parameters_per_rank(s.model, 5) == split / 5 + replicated);
  const StageLayout l = stage_layout(s, 0);
  CHECK(l.embedding_parameters == (50257 + 4) / 5 * d + 1024 * d);  // vocabulary-parallel rows (padded), positions whole
}

TEST_CASE("with p > 1 the last stage holds the head, or a tied embedding's copy") {
  const Scenario tied = test::parallel_scenario({{"model", "gpt2-small"}}, {{"pipeline_parallel", 4}});
  const StageLayout last = stage_layout(tied, 3), first = stage_layout(tied, 0);
  CHECK(first.head_parameters == 0);
  CHECK(last.embedding_parameters == 0);
  CHECK(last.head_parameters == 50257 * 768 + 2 * 768);  // the copy + the final LayerNorm
  CHECK(last.holds_logits);
  CHECK_FALSE(first.holds_logits);
}
