// Korthikanti et al. 2022, Table 2, on a model no other test uses, and the 1F1B in-flight micro-batches.
#include <doctest/doctest.h>
#include "memory/activations.hpp"
#include "parallel/activations_parallel.hpp"
#include "parallel_test_util.hpp"

using namespace lab;
using nlohmann::json;

namespace {
// A GPT-style custom model (dropout, GELU 4h, biases, LayerNorm): h = 3072, a = 24, L = 16, s = 2048, b = 3.
const json kModel = {{"layers", 16}, {"hidden", 3072}, {"heads", 24}, {"vocab", 64000}, {"context", 4096}};
constexpr std::int64_t s = 2048, b = 3, h = 3072, a = 24;
Scenario with(const json& parallel, const char* checkpointing = "none") {
  return test::parallel_scenario({{"model", kModel}, {"precision", "mixed"}, {"batch_size", b}, {"seq_len", s},
                                  {"checkpointing", checkpointing}}, parallel);
}
std::int64_t per_layer(const Scenario& sc) { return stage_activations(sc, stage_layout(sc, 0)).per_layer_saved_bytes; }
}  // namespace

TEST_CASE("Table 2, tensor parallel: sbh(10 + 24/t + 5as/(ht)) per layer") {
  for (std::int64_t t : {1, 2, 4, 8}) {
    const std::int64_t expected = s * b * h * 10 + s * b * h * 24 / t + 5 * a * s * s * b / t;
    CHECK(per_layer(with({{"tensor_parallel", t}})) == expected);
  }
}

TEST_CASE("Table 2, tensor + sequence parallel: sbh(34 + 5as/h)/t per layer") {
  for (std::int64_t t : {2, 4, 8})
    CHECK(per_layer(with({{"tensor_parallel", t}, {"sequence_parallel", true}})) == (34 * s * b * h + 5 * a * s * s * b) / t);
}

TEST_CASE("Table 2 with selective recompute: sbh(10 + 24/t), and 34sbh/t with sequence parallelism") {
  CHECK(per_layer(with({{"tensor_parallel", 4}}, "selective")) == s * b * h * 10 + s * b * h * 24 / 4);
  CHECK(per_layer(with({{"tensor_parallel", 4}, {"sequence_parallel", true}}, "selective")) == 34 * s * b * h / 4);
}

TEST_CASE("full recompute keeps each layer's input, 2sbh, split by sequence parallelism") {
  CHECK(per_layer(with({{"tensor_parallel", 4}}, "full")) == 2 * s * b * h);
  CHECK(per_layer(with({{"tensor_parallel", 4}, {"sequence_parallel", true}}, "full")) == 2 * s * b * h / 4);
}

TEST_CASE("1F1B: stage i holds min(m, p - i) micro-batches; stage 0 at m >= p holds a whole model's layers") {
  CHECK(in_flight_micro_batches(8, 4, 0) == 4);
  CHECK(in_flight_micro_batches(8, 4, 3) == 1);
  CHECK(in_flight_micro_batches(2, 4, 0) == 2);
  const Scenario one = with({{"tensor_parallel", 1}});
  const Scenario piped = with({{"pipeline_parallel", 4}, {"micro_batches", 8}});
  const auto first = stage_activations(piped, stage_layout(piped, 0));
  CHECK(first.in_flight == 4);
  CHECK(first.saved_bytes == stage_activations(one, stage_layout(one, 0)).saved_bytes);  // L/p layers x p micro-batches
  const auto last = stage_activations(piped, stage_layout(piped, 3));
  CHECK(last.saved_bytes == first.saved_bytes / 4);
  CHECK(last.logits_bytes == b * s * 64000 * 4);
  CHECK(first.logits_bytes == 0);
}

TEST_CASE("at t = 1 the parallel terms are the one-device Korthikanti terms") {
  const Scenario sc = with({{"data_parallel", 4}});
  CHECK(per_layer(sc) == estimate_activations(sc).per_layer_saved_bytes);
}
