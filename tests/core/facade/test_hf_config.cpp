// Hugging Face config.json as a model: the released checkpoints' configs (tests/fixtures/hf/configs.json)
// give their published parameter counts, each family's quirks land in the spec, and what the lab does
// not model is refused with the field named.
#include <doctest/doctest.h>
#include <fstream>
#include <sstream>
#include "facade/facade.hpp"
#include "facade/hf_config.hpp"
#include "util/errors.hpp"

using namespace lab;
using nlohmann::json;

namespace {
json read_configs() {
  const std::string here = __FILE__;  // <repo>/tests/core/facade/test_hf_config.cpp
  std::ifstream f(here.substr(0, here.rfind("tests/core/")) + "tests/fixtures/hf/configs.json");
  std::stringstream ss;
  ss << f.rdbuf();
  return json::parse(ss.str(), nullptr, false);
}
json config_of(const std::string& name) {
  for (const auto& c : read_configs())
    if (c["name"] == name) return c["config"];
  return nullptr;
}
std::string error_field(const json& config) {
  try {
    parse_hf_config(config, "");
  } catch (const InputError& e) {
    return e.field;
  }
  return "<no error>";
}
json with(json config, const char* key, const json& value) {
  config[key] = value;
  return config;
}
}  // namespace

TEST_CASE("released checkpoints' configs count their published parameters") {
  const json configs = read_configs();
  REQUIRE(configs.is_array());
  REQUIRE(configs.size() >= 10);
  for (const auto& c : configs) {
    CAPTURE(c["name"].get<std::string>());
    CHECK(count_parameters(parse_hf_config(c["config"], "")).total == c["published_parameters"].get<std::int64_t>());
  }
}

TEST_CASE("each family's quirks: Gemma 2's head_dim, four norms and GeGLU; Qwen2's q/k/v biases; NeoX's parallel residual") {
  const auto gemma = parse_hf_config(config_of("gemma-2-2b"), "");
  CHECK(gemma.head_dim == 256);
  CHECK(gemma.kv_heads == 4);
  CHECK(gemma.norms_per_layer == 4);
  CHECK(gemma.mlp == MlpKind::geglu);
  CHECK(gemma.tied_head);
  CHECK(gemma.sliding_window == 4096);
  CHECK((gemma.approximations & kSoftcapping));
  const auto qwen = parse_hf_config(config_of("qwen2-7b"), "");
  CHECK((qwen.qkv_bias && !qwen.attn_out_bias && !qwen.mlp_bias));
  CHECK(qwen.sliding_window == 0);  // use_sliding_window: false
  const auto neox = parse_hf_config(config_of("pythia-160m"), "");
  CHECK((neox.parallel_residual && !neox.tied_head && neox.norm == NormKind::layernorm && neox.mlp == MlpKind::gelu));
  CHECK((neox.approximations & kPartialRotary));
  const auto gpt2 = parse_hf_config(config_of("gpt2"), "");
  CHECK((gpt2.learned_positions && gpt2.tied_head && gpt2.biases && gpt2.context == 1024));
  CHECK(std::string(gpt2.family) == "gpt2");
  const auto llama32 = parse_hf_config(config_of("llama-3.2-1b"), "");
  CHECK((llama32.tied_head && (llama32.approximations & kRopeScaling)));
  CHECK(parse_hf_config(config_of("mistral-7b-v0.1"), "").sliding_window == 4096);
  CHECK(parse_hf_config(with(config_of("mistral-7b-v0.1"), "sliding_window", nullptr), "").sliding_window == 0);
}

TEST_CASE("transformers' defaults fill what a config leaves out") {
  json c = config_of("llama-2-7b");
  c.erase("num_key_value_heads");
  c.erase("tie_word_embeddings");
  const auto m = parse_hf_config(c, "");
  CHECK(m.kv_heads == 32);
  CHECK_FALSE(m.tied_head);
  json g = config_of("gpt2");
  g["n_inner"] = nullptr;  // GPT-2: null means 4 * n_embd
  CHECK(parse_hf_config(g, "").mlp_hidden == 3072);
  json gemma = config_of("gemma-2-2b");
  gemma.erase("head_dim");
  CHECK(parse_hf_config(gemma, "").head_dim == 256);  // Gemma2Config's default, not 2304 / 8
}

TEST_CASE("what the lab cannot model is refused with the field named") {
  const json llama = config_of("llama-3-8b");
  CHECK(error_field(json::array()) == "model.hf_config");
  CHECK(error_field(with(llama, "num_local_experts", 8)) == "model.hf_config.num_local_experts");
  CHECK(error_field(with(llama, "num_experts", 64)) == "model.hf_config.num_experts");
  CHECK(error_field(with(llama, "model_type", "mixtral")) == "model.hf_config.model_type");
  CHECK(error_field(with(llama, "model_type", 7)) == "model.hf_config.model_type");
  json no_type = llama;
  no_type.erase("model_type");
  CHECK(error_field(no_type) == "model.hf_config.model_type");
  json no_hidden = llama;
  no_hidden.erase("hidden_size");
  CHECK(error_field(no_hidden) == "model.hf_config.hidden_size");
  CHECK(error_field(with(llama, "hidden_size", -4096)) == "model.hf_config.hidden_size");
  CHECK(error_field(with(llama, "hidden_size", "4096")) == "model.hf_config.hidden_size");
  CHECK(error_field(with(llama, "num_hidden_layers", 1e12)) == "model.hf_config.num_hidden_layers");
  CHECK(error_field(with(llama, "num_key_value_heads", 5)) == "model.hf_config.num_key_value_heads");
  CHECK(error_field(with(llama, "num_attention_heads", 30)) == "model.hf_config.num_attention_heads");
  CHECK(error_field(with(llama, "hidden_act", "relu")) == "model.hf_config.hidden_act");
  CHECK(error_field(with(llama, "tie_word_embeddings", "no")) == "model.hf_config.tie_word_embeddings");
  CHECK(error_field(with(llama, "rope_scaling", 2)) == "model.hf_config.rope_scaling");
  CHECK(error_field(with(llama, "padding", std::string(300'000, 'x'))) == "model.hf_config");
  json deep = 1;
  for (int i = 0; i < 40; ++i) deep = json::array({deep});
  CHECK(error_field(with(llama, "nested", deep)) == "model.hf_config");
}

TEST_CASE("evaluate takes an hf_config as the model: exact count, family, notes and a spec that parses back") {
  const json cfg = config_of("mistral-7b-v0.1");
  const json r = json::parse(facade::evaluate(json{{"model", {{"hf_config", cfg}, {"name", "My Mistral"}}}, {"framework", "pytorch"}}.dump()));
  REQUIRE_FALSE(r.contains("error"));
  const json& m = r["model"];
  CHECK(m["parameters"] == 7'241'732'096);
  CHECK(m["family"] == "mistral");
  CHECK(m["name"] == "My Mistral");
  CHECK(m["kv_heads"] == 8);
  CHECK(m["head_dim"] == 128);
  CHECK(m["notes"].size() == 1);
  const json again = json::parse(facade::evaluate(json{{"model", m["spec"]}}.dump()));
  CHECK(again["model"]["parameters"] == 7'241'732'096);
  const json bad = json::parse(facade::evaluate(json{{"model", {{"hf_config", with(cfg, "num_local_experts", 8)}}}}.dump()));
  CHECK(bad["error"]["field"] == "model.hf_config.num_local_experts");
  const json extra = json::parse(facade::evaluate(json{{"model", {{"hf_config", cfg}, {"layers", 2}}}}.dump()));
  CHECK(extra["error"]["field"] == "model.layers");
}
