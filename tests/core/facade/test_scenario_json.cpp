// Scenario parsing: defaults, round trip of the resolved scenario, and one named error per bad field.
#include <doctest/doctest.h>
#include "util/errors.hpp"
#include "facade/scenario_json.hpp"

using namespace lab;
using nlohmann::json;

namespace {
std::string error_field(const json& j) {
  try {
    parse_scenario(j);
  } catch (const InputError& e) {
    return e.field;
  }
  return "<no error>";
}
}  // namespace

TEST_CASE("an empty scenario takes the documented defaults") {
  const Scenario s = parse_scenario(json::object());
  CHECK(s.model.id == "gpt2-xl");
  CHECK(s.device.id == "h100-sxm-80gb");
  CHECK(s.precision == Precision::fp32);
  CHECK(s.optimizer == Optimizer::adam);
  CHECK(s.batch_size == 1);
  CHECK(s.seq_len == 1024);
  CHECK(s.checkpointing.kind == CheckpointKind::none);
  CHECK(s.activation_model == ActivationModel::korthikanti);
  CHECK(s.reserve_bytes == 512LL * 1024 * 1024);
  CHECK_FALSE(s.chapter_replay);
}

TEST_CASE("chapter_replay defaults to the V100, the chapter's activation model and no reserve") {
  const Scenario s = parse_scenario(json{{"chapter_replay", true}});
  CHECK(s.device.id == "v100-sxm2-32gb");
  CHECK(s.activation_model == ActivationModel::chapter);
  CHECK(s.reserve_bytes == 0);
  CHECK(memory_parameter_count(s) == 1'500'000'000);
  CHECK(error_field(json{{"chapter_replay", true}, {"model", "gpt2-small"}}) == "model");
}

TEST_CASE("the resolved scenario parses back to itself (round trip), custom model and device included") {
  const json inputs[] = {
      json::object(),
      json{{"model", "gpt2-medium"}, {"precision", "mixed"}, {"optimizer", "momentum"}, {"batch_size", 16},
           {"checkpointing", {{"every_k_layers", 6}}}, {"flash_attention", true}, {"convention", "megatron"}},
      json{{"model", {{"layers", 4}, {"hidden", 256}, {"heads", 8}, {"vocab", 1000}, {"context", 512},
                      {"mlp", "swiglu"}, {"norm", "rmsnorm"}, {"biases", false}, {"learned_positions", false}}},
           {"device", {{"base", "a100-sxm4-40gb"}, {"capacity_bytes", 1000000000}}}, {"seq_len", 2048}},
      json{{"chapter_replay", true}, {"precision", "mixed"}, {"batch_size", 32}, {"prefetch", true}, {"data_workers", 8}},
      json{{"framework", "pytorch"}, {"step", "first"}, {"mode", "forward_with_grad"}, {"zero_grad", "zero"},
           {"optimizer_impl", "fused"}, {"pytorch_build", "cpu-1.13"}, {"dropout", false}, {"precision", "autocast_fp16"}},
      json{{"dropout", false}},
      json{{"model", {{"layers", 2}, {"hidden", 2304}, {"heads", 8}, {"kv_heads", 4}, {"head_dim", 256}, {"vocab", 1000},
                      {"context", 512}, {"mlp", "geglu"}, {"norm", "rmsnorm"}, {"biases", false}, {"qkv_bias", true},
                      {"norms_per_layer", 4}, {"parallel_residual", true}, {"sliding_window", 256},
                      {"learned_positions", false}}}},
  };
  for (const auto& in : inputs) {
    const json once = scenario_to_json(parse_scenario(in));
    const json twice = scenario_to_json(parse_scenario(once));
    CHECK(once == twice);
  }
}

TEST_CASE("custom models accept a base id plus overrides and derive the MLP width from mlp_ratio") {
  const Scenario s = parse_scenario(json{{"model", {{"base", "gpt2-small"}, {"layers", 6}, {"mlp_ratio", 2.5}}}});
  CHECK(s.model.layers == 6);
  CHECK(s.model.hidden == 768);
  CHECK(s.model.mlp_hidden == 1920);
  CHECK(s.model.id == "custom");
}

TEST_CASE("every bad field is reported by name") {
  CHECK(error_field(json::array()) == "");
  CHECK(error_field(json{{"bogus", 1}}) == "bogus");
  CHECK(error_field(json{{"model", 7}}) == "model");
  CHECK(error_field(json{{"model", "gpt-9"}}) == "model");
  CHECK(error_field(json{{"model", {{"base", "gpt2-xl"}, {"hidden", 1601}}}}) == "model.heads");
  CHECK(error_field(json{{"model", {{"base", "gpt2-xl"}, {"colour", "red"}}}}) == "model.colour");
  CHECK(error_field(json{{"model", {{"base", "gpt2-xl"}, {"mlp_ratio", 4}, {"mlp_hidden", 10}}}}) == "model.mlp_ratio");
  CHECK(error_field(json{{"device", {{"capacity_bytes", 10}}}}) == "device.peak_fp32_flops_per_s");
  CHECK(error_field(json{{"device", {{"base", "h100-sxm-80gb"}, {"hbm_bytes_per_s", 0}}}}) == "device.hbm_bytes_per_s");
  CHECK(error_field(json{{"precision", "int8"}}) == "precision");
  CHECK(error_field(json{{"optimizer", nullptr}}) == "optimizer");
  CHECK(error_field(json{{"batch_size", 0}}) == "batch_size");
  CHECK(error_field(json{{"batch_size", 65537}}) == "batch_size");
  CHECK(error_field(json{{"batch_size", 1.5}}) == "batch_size");
  CHECK(error_field(json{{"batch_size", true}}) == "batch_size");
  CHECK(error_field(json{{"seq_len", 1025}}) == "seq_len");  // GPT-2's learned positions stop at 1,024
  CHECK(error_field(json{{"checkpointing", "sometimes"}}) == "checkpointing");
  CHECK(error_field(json{{"checkpointing", {{"every_k_layers", 49}}}}) == "checkpointing.every_k_layers");
  CHECK(error_field(json{{"checkpointing", {{"k", 4}}}}) == "checkpointing.k");
  CHECK(error_field(json{{"activation_model", "empirical"}}) == "activation_model");
  CHECK(error_field(json{{"flash_attention", "yes"}}) == "flash_attention");
  CHECK(error_field(json{{"reserve_bytes", -1}}) == "reserve_bytes");
  CHECK(error_field(json{{"efficiency", 0}}) == "efficiency");
  CHECK(error_field(json{{"train_tokens", -5}}) == "train_tokens");
  CHECK(error_field(json{{"num_devices", 0}}) == "num_devices");
  CHECK(error_field(json{{"data_workers", 1000}}) == "data_workers");
  CHECK(error_field(json{{"prefetch_depth", 0}}) == "prefetch_depth");
}

TEST_CASE("integers written as 32.0 are accepted; unsigned values above the range are rejected") {
  CHECK(parse_scenario(json::parse(R"({"batch_size": 32.0})")).batch_size == 32);
  CHECK(error_field(json::parse(R"({"batch_size": 18446744073709551615})")) == "batch_size");
}

TEST_CASE("the framework fields default to the textbook layout, and the resolved scenario omits them there") {
  const Scenario s = parse_scenario(json::object());
  CHECK(s.framework.framework == Framework::textbook);
  CHECK(s.dropout);
  const json out = scenario_to_json(s);
  for (const char* k : {"framework", "pytorch_build", "step", "mode", "zero_grad", "optimizer_impl", "dropout"})
    CHECK_FALSE(out.contains(k));
}

TEST_CASE("framework pytorch defaults to PyTorch 2.x on CUDA: steady step, set_to_none, foreach, eager activations") {
  const Scenario s = parse_scenario(json{{"framework", "pytorch"}});
  CHECK(s.framework.build == PytorchBuild::cuda);
  CHECK(s.framework.step == StepKind::steady);
  CHECK(s.framework.mode == StepMode::train);
  CHECK(s.framework.zero_grad == ZeroGrad::set_to_none);
  CHECK(s.framework.optimizer_impl == OptimizerImpl::foreach);
  CHECK(s.activation_model == ActivationModel::pytorch_eager);
  // An autocast precision implies the pytorch framework.
  CHECK(parse_scenario(json{{"precision", "autocast_bf16"}}).framework.framework == Framework::pytorch);
}

TEST_CASE("framework fields name themselves when bad or used without framework pytorch") {
  CHECK(error_field(json{{"framework", "tensorflow"}}) == "framework");
  CHECK(error_field(json{{"step", "first"}}) == "step");
  CHECK(error_field(json{{"mode", "inference"}}) == "mode");
  CHECK(error_field(json{{"zero_grad", "zero"}}) == "zero_grad");
  CHECK(error_field(json{{"optimizer_impl", "fused"}}) == "optimizer_impl");
  CHECK(error_field(json{{"pytorch_build", "cuda"}}) == "pytorch_build");
  CHECK(error_field(json{{"framework", "pytorch"}, {"step", "last"}}) == "step");
  CHECK(error_field(json{{"framework", "pytorch"}, {"optimizer_impl", 3}}) == "optimizer_impl");
  CHECK(error_field(json{{"dropout", "yes"}}) == "dropout");
  CHECK(error_field(json{{"framework", "textbook"}, {"precision", "autocast_bf16"}}) == "precision");
  CHECK(error_field(json{{"framework", "pytorch"}, {"precision", "mixed"}}) == "precision");
  CHECK(error_field(json{{"framework", "pytorch"}, {"checkpointing", "full"}}) == "checkpointing");
  CHECK(error_field(json{{"framework", "pytorch"}, {"activation_model", "korthikanti"}}) == "activation_model");
  CHECK(error_field(json{{"framework", "pytorch"}, {"convention", "megatron"}}) == "convention");
  CHECK(error_field(json{{"framework", "pytorch"}, {"chapter_replay", true}}) == "framework");
  CHECK(error_field(json{{"framework", "pytorch"}, {"pytorch_build", "cpu-1.13"}, {"flash_attention", true}}) == "flash_attention");
  CHECK(error_field(json{{"activation_model", "pytorch_eager"}, {"checkpointing", "selective"}}) == "checkpointing");
  CHECK(error_field(json{{"activation_model", "pytorch_eager"}, {"chapter_replay", true}}) == "chapter_replay");
}

TEST_CASE("the model spec's attention and bias fields parse, default from heads and biases, and name errors") {
  const auto m = parse_scenario(json{{"model", {{"base", "gpt2-small"}, {"biases", false}, {"qkv_bias", true}}}}).model;
  CHECK(m.kv_heads == 12);
  CHECK(m.head_dim == 64);
  CHECK(m.qkv_bias);
  CHECK_FALSE((m.attn_out_bias || m.mlp_bias || m.norm_bias));
  // A base's derived widths follow new heads.
  const auto m2 = parse_scenario(json{{"model", {{"base", "gpt2-small"}, {"heads", 6}}}}).model;
  CHECK(m2.head_dim == 128);
  CHECK(m2.kv_heads == 6);
  // head_dim given: hidden need not split into heads.
  const auto m3 = parse_scenario(json{{"model", {{"base", "gpt2-small"}, {"heads", 5}, {"head_dim", 100}}}}).model;
  CHECK(m3.head_dim == 100);
  CHECK(error_field(json{{"model", {{"base", "gpt2-small"}, {"heads", 5}}}}) == "model.heads");
  CHECK(error_field(json{{"model", {{"base", "gpt2-small"}, {"kv_heads", 5}}}}) == "model.kv_heads");
  CHECK(error_field(json{{"model", {{"base", "gpt2-small"}, {"kv_heads", 0}}}}) == "model.kv_heads");
  CHECK(error_field(json{{"model", {{"base", "gpt2-small"}, {"head_dim", -1}}}}) == "model.head_dim");
  CHECK(error_field(json{{"model", {{"base", "gpt2-small"}, {"norms_per_layer", 3}}}}) == "model.norms_per_layer");
  CHECK(error_field(json{{"model", {{"base", "gpt2-small"}, {"mlp", "relu"}}}}) == "model.mlp");
  CHECK(error_field(json{{"model", {{"base", "gpt2-small"}, {"qkv_bias", 1}}}}) == "model.qkv_bias");
  CHECK(error_field(json{{"model", {{"base", "gpt2-small"}, {"sliding_window", 1.5}}}}) == "model.sliding_window");
}
