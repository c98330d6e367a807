// The eager activation model (core/memory/pytorch_eager.cpp): exact against every PyTorch measurement in
// tests/fixtures/pytorch (scripts/measure-pytorch.py), and the PyTorch behaviours it names.
#include <doctest/doctest.h>
#include <fstream>
#include <map>
#include <sstream>
#include "memory/pytorch_eager.hpp"
#include "pytorch_fixtures.hpp"
#include "facade/scenario_json.hpp"

using namespace lab;
using nlohmann::json;

namespace {
std::map<std::string, std::int64_t> predicted_by_op(const Scenario& s) {
  const EagerActivations e = eager_activations(s);
  std::map<std::string, std::int64_t> m;
  for (const auto& i : e.per_layer) m[i.op] += i.bytes * s.model.layers;
  for (const auto& i : e.model) m[i.op] += i.bytes;
  if (e.weight_cache_bytes) m["autocast_weight_cache"] = e.weight_cache_bytes;
  return m;
}
std::int64_t item(const std::vector<EagerItem>& items, const std::string& op) {
  for (const auto& i : items)
    if (i.op == op) return i.bytes;
  return 0;
}
Scenario pytorch(json j) {
  j["framework"] = "pytorch";
  return parse_scenario(j);
}
}  // namespace

TEST_CASE("the eager model predicts every measured fixture's saved-tensor bytes exactly, op by op") {
  const auto fixtures = test_fixtures::pytorch_fixtures();
  REQUIRE(fixtures.size() >= 10);
  for (const auto& fixture : fixtures) {
    const std::string& name = fixture.first;  // (clang 14 cannot capture structured bindings)
    const json& fx = fixture.second;
    CAPTURE(name);
    const Scenario s = parse_scenario(fx["scenario"]);
    const auto predicted = predicted_by_op(s);
    std::map<std::string, std::int64_t> measured;
    for (const auto& [op, bytes] : fx["saved_bytes_by_op"].items()) measured[op] = bytes.get<std::int64_t>();
    CHECK(predicted == measured);
    for (const auto& entry : measured) {
      const std::string& op = entry.first;
      CAPTURE(op);
      CHECK(predicted.count(op) == 1);
      if (predicted.count(op)) CHECK(predicted.at(op) == entry.second);
    }
    for (const auto& entry : predicted) {
      const std::string& op = entry.first;
      CAPTURE(op);
      CHECK(measured.count(op) == 1);
    }
    const EagerActivations e = eager_activations(s);
    CHECK(e.saved_bytes + e.weight_cache_bytes == fx["saved_bytes_total"].get<std::int64_t>());
  }
}

TEST_CASE("a GPT-2 small block on CUDA in FP32 saves 166,215,680 bytes at b = 1, s = 1,024, itemised by op") {
  // h = 768, a = 12, f = 3072: sbh = 786,432, sb = 1,024, sbf = 3,145,728, a*s^2*b = 12,582,912.
  // ln_1 4*sbh + 8*sb = 3,153,920; qkv input 4*sbh = 3,145,728; q, k: views of the whole qkv output
  // at b = 1, 12*sbh = 9,437,184; mask s^2 = 1,048,576; softmax 4*12,582,912 = 50,331,648; dropout
  // mask (bool) 12,582,912; att @ v saves the dropout output 50,331,648 (v is in qkv); proj input
  // 3,145,728; its dropout mask 786,432; ln_2 3,153,920; fc input 3,145,728; GELU input 4*sbf =
  // 12,582,912; down-projection input 12,582,912; MLP dropout mask 786,432. Sum 166,215,680.
  const Scenario s = pytorch({{"model", "gpt2-small"}, {"batch_size", 1}, {"seq_len", 1024}});
  const EagerActivations e = eager_activations(s);
  CHECK(s.dropout);
  CHECK(item(e.per_layer, "layer.attn.scores") == 9'437'184);
  CHECK(item(e.per_layer, "layer.attn.dropout") == 12'582'912);
  CHECK(item(e.per_layer, "layer.attn.av") == 50'331'648);
  CHECK(item(e.per_layer, "layer.mlp.gelu") == 12'582'912);
  CHECK(e.per_layer_bytes == 166'215'680);
  CHECK(e.saved_bytes == 12 * 166'215'680LL + e.model_bytes);
  for (const auto& i : e.per_layer) CHECK(std::string(i.source).size() > 10);  // every term names its behaviour
}

TEST_CASE("with b > 1 bmm saves copies of q, k and v instead of views of the fused qkv output") {
  const Scenario one = pytorch({{"model", "gpt2-small"}, {"batch_size", 1}, {"seq_len", 256}});
  const Scenario two = pytorch({{"model", "gpt2-small"}, {"batch_size", 2}, {"seq_len", 256}});
  const std::int64_t sbh1 = 256 * 768;
  CHECK(item(eager_activations(one).per_layer, "layer.attn.scores") == 3 * 4 * sbh1);
  CHECK(item(eager_activations(two).per_layer, "layer.attn.scores") == 2 * 4 * 2 * sbh1);
  CHECK(item(eager_activations(two).per_layer, "layer.attn.av") == 4 * 12 * 256 * 256 * 2 + 4 * 2 * sbh1);
}

TEST_CASE("dropout masks are 1-byte bools on CUDA and the input's own type on CPU") {
  const json model = {{"base", "gpt2-small"}, {"layers", 2}};
  const Scenario cuda = pytorch({{"model", model}, {"batch_size", 2}, {"seq_len", 128}});
  json j = {{"model", model}, {"batch_size", 2}, {"seq_len", 128}, {"pytorch_build", "cpu-1.13"}};
  const Scenario cpu = pytorch(j);
  const std::int64_t scores = 12 * 128 * 128 * 2;
  CHECK(item(eager_activations(cuda).per_layer, "layer.attn.dropout") == scores);
  CHECK(item(eager_activations(cpu).per_layer, "layer.attn.dropout") == 4 * scores);
  CHECK(item(eager_activations(cuda).model, "embedding.dropout") == 128 * 2 * 768);
}

TEST_CASE("dropout defaults to the architecture: GPT-2 has it, a Llama-style model has none, textbook keeps it") {
  const json llama = {{"layers", 2}, {"hidden", 256}, {"heads", 4}, {"vocab", 1000}, {"context", 512}, {"mlp", "swiglu"},
                      {"norm", "rmsnorm"}, {"biases", false}, {"tied_head", false}, {"learned_positions", false}};
  CHECK_FALSE(pytorch({{"model", llama}}).dropout);
  CHECK(pytorch({{"model", "gpt2-xl"}}).dropout);
  CHECK(parse_scenario(json{{"model", llama}}).dropout);  // Korthikanti's formula counts the masks
  const EagerActivations e = eager_activations(pytorch({{"model", llama}}));
  for (const auto& i : e.per_layer) CHECK(i.op.find("dropout") == std::string::npos);
  CHECK(eager_activations(pytorch({{"model", "gpt2-small"}, {"dropout", false}})).per_layer_bytes <
        eager_activations(pytorch({{"model", "gpt2-small"}})).per_layer_bytes);
}

TEST_CASE("scaled_dot_product_attention saves q, k, v, its output and the log-sum-exp instead of s^2 tensors") {
  const Scenario s = pytorch({{"model", "gpt2-small"}, {"batch_size", 2}, {"seq_len", 1024}, {"flash_attention", true}});
  const EagerActivations e = eager_activations(s);
  const std::int64_t sbh = 1024 * 2 * 768;
  CHECK(item(e.per_layer, "layer.attn.sdpa") == 3 * 4 * sbh + 4 * sbh + 4 * 12 * 1024 * 2);
  CHECK(item(e.per_layer, "layer.attn.softmax") == 0);
  CHECK(item(e.per_layer, "layer.attn.mask") == 0);
  // Without the s^2 terms what is left grows linearly with the sequence.
  const Scenario half = pytorch({{"model", "gpt2-small"}, {"batch_size", 2}, {"seq_len", 512}, {"flash_attention", true}});
  CHECK(eager_activations(half).per_layer_bytes * 2 == e.per_layer_bytes);
}

TEST_CASE("on CUDA autocast the softmax runs in FP32 and att @ v saves a 16-bit cast of it; CPU 1.13 stays 16-bit") {
  const json base = {{"model", "gpt2-small"}, {"batch_size", 2}, {"seq_len", 256}, {"precision", "autocast_bf16"}, {"dropout", false}};
  json cpu = base;
  cpu["pytorch_build"] = "cpu-1.13";
  const std::int64_t scores = 12 * 256 * 256 * 2, sbh = 256 * 2 * 768;
  const EagerActivations c = eager_activations(parse_scenario(base)), p = eager_activations(parse_scenario(cpu));
  CHECK(item(c.per_layer, "layer.attn.softmax") == 4 * scores);
  CHECK(item(c.per_layer, "layer.attn.av") == 2 * scores + 2 * sbh);
  CHECK(item(p.per_layer, "layer.attn.softmax") == 2 * scores);
  CHECK(item(p.per_layer, "layer.attn.av") == 2 * sbh);
  // The residual stream stays FP32 (FP32 + 16-bit promotes), so the norms save FP32 inputs.
  CHECK(item(c.per_layer, "layer.ln_1") == 4 * sbh + 8 * 256 * 2);
}

TEST_CASE("autocast keeps a 16-bit copy of every matmul weight: 247,064,064 bytes for GPT-2 small") {
  // 2 * (12 * (4*768^2 + 2*768*3072) + 50,257*768) = 2 * 123,532,032 = 247,064,064 (biases aside).
  const EagerActivations e = eager_activations(pytorch({{"model", "gpt2-small"}, {"precision", "autocast_fp16"}}));
  CHECK(e.weight_cache_bytes == 247'064'064);
  CHECK(e.bias_cache_bytes == 2 * 12 * (4 * 768 + 3072 + 768));
  CHECK(eager_activations(pytorch({{"model", "gpt2-small"}})).weight_cache_bytes == 0);
}

TEST_CASE("on an H100 (PyTorch 2.11) the saved bytes are predicted exactly, op by op") {
  // tests/fixtures/pytorch/cuda: SDPA's output is the projection's input; the loss saves the 16-bit logits.
  const auto fixtures = test_fixtures::pytorch_fixtures("cuda/");
  REQUIRE(fixtures.size() == 13);
  for (const auto& fixture : fixtures) {
    const std::string& name = fixture.first;
    CAPTURE(name);
    const Scenario s = parse_scenario(fixture.second["scenario"]);
    std::map<std::string, std::int64_t> measured;
    for (const auto& [op, bytes] : fixture.second["saved_bytes_by_op"].items()) measured[op] = bytes.get<std::int64_t>();
    CHECK(predicted_by_op(s) == measured);
    const EagerActivations e = eager_activations(s);
    CHECK(e.saved_bytes + e.weight_cache_bytes == fixture.second["saved_bytes_total"].get<std::int64_t>());
  }
}
