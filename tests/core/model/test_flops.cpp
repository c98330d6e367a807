// FLOPs per token (PaLM App. B), recompute accounting, MFU and the Iron Law.
#include <doctest/doctest.h>
#include "model/flops.hpp"
#include "facade/scenario_json.hpp"

using namespace lab;
using nlohmann::json;

namespace {
Scenario xl() {
  Scenario s;
  s.model = *find_model("gpt2-xl");
  s.device = *find_device("v100-sxm2-32gb");
  s.precision = Precision::mixed;
  return s;
}
}  // namespace

TEST_CASE("GPT-2 XL model FLOPs per token at s=1024 is 10,279,555,200") {
  CHECK(estimate_flops(xl()).model_per_token == 10'279'555'200LL);
}

TEST_CASE("without recompute hardware FLOPs equal model FLOPs; with full recompute they add a forward") {
  Scenario s = xl();
  auto f = estimate_flops(s);
  CHECK(f.hardware_per_token == f.model_per_token);
  s.checkpointing.kind = CheckpointKind::full;
  f = estimate_flops(s);
  const std::int64_t blocks = 48LL * (12 * 1600LL * 1600 + 13 * 1600);
  CHECK(f.hardware_per_token - f.model_per_token == 2 * blocks + 4 * 48LL * 1600 * 1024);
  const double overhead = static_cast<double>(f.recompute_per_token) / static_cast<double>(f.model_per_token);
  CHECK(overhead > 0.30);
  CHECK(overhead < 0.34);
  s.checkpointing.kind = CheckpointKind::selective;
  CHECK(estimate_flops(s).recompute_per_token == 4 * 48LL * 1600 * 1024);
}

TEST_CASE("1,200 tokens/s on GPT-2 XL at a V100's 125 TFLOP/s FP16 peak is MFU of about 9.9%") {
  const auto f = estimate_flops(xl());
  CHECK(f.peak_flops_per_s == doctest::Approx(125e12));
  const double mfu = model_flops_utilization(static_cast<double>(f.model_per_token) * 1200.0, 1.0, f.peak_flops_per_s);
  CHECK(mfu == doctest::Approx(0.0987).epsilon(0.002));
}

TEST_CASE("BF16 on a V100 is reported unsupported and falls back to the FP32 peak") {
  Scenario s = xl();
  s.precision = Precision::bf16;
  const auto f = estimate_flops(s);
  CHECK_FALSE(f.precision_supported);
  CHECK(f.peak_flops_per_s == doctest::Approx(15.7e12));
}

TEST_CASE("Iron Law: T = O / (N * R * eta)") {
  CHECK(iron_law_seconds(1e21, 8, 312e12, 0.5) == doctest::Approx(1e21 / (8 * 312e12 * 0.5)));
  CHECK(iron_law_seconds(1e21, 1, 0, 0.5) == 0);
}

TEST_CASE("with an untied head, the pytorch framework leaves the input embedding out of 6N; textbook keeps PaLM's count") {
  // Llama-2 7B: N = 6,738,415,616, V*d = 32,000*4,096 = 131,072,000; 12*L*h*s = 12*32*4096*1024.
  const json llama = {{"layers", 32}, {"hidden", 4096}, {"heads", 32}, {"vocab", 32000}, {"context", 4096},
                      {"mlp_hidden", 11008}, {"mlp", "swiglu"}, {"norm", "rmsnorm"}, {"biases", false},
                      {"tied_head", false}, {"learned_positions", false}};
  const std::int64_t attention = 12LL * 32 * 4096 * 1024;
  const FlopsEstimate textbook = estimate_flops(parse_scenario(json{{"model", llama}}));
  const FlopsEstimate pytorch = estimate_flops(parse_scenario(json{{"model", llama}, {"framework", "pytorch"}}));
  CHECK(textbook.model_per_token == 6 * 6'738'415'616LL + attention);
  CHECK(pytorch.model_per_token == 6 * (6'738'415'616LL - 131'072'000) + attention);
  CHECK(pytorch.matmul_parameters == textbook.matmul_parameters);
  // A tied head is the embedding table's only matmul: both counts agree (GPT-2 XL).
  CHECK(estimate_flops(parse_scenario(json{{"framework", "pytorch"}})).model_per_token == 10'279'555'200LL);
}

TEST_CASE("GQA FLOPs: K/V projections shrink with kv_heads, the score matmuls stay heads x head_dim wide") {
  Scenario s = xl();
  s.model = TransformerSpec{};
  s.model.layers = 2; s.model.hidden = 64; s.model.heads = 8; s.model.kv_heads = 2; s.model.head_dim = 16;
  s.model.vocab = 100; s.model.context = 64; s.model.mlp_hidden = 128; s.model.mlp = MlpKind::swiglu;
  s.model.norm = NormKind::rmsnorm; s.model.learned_positions = false; s.model.tied_head = false;
  set_biases(s.model, false);
  s.seq_len = 32;
  // By hand: q = 8·16 = 128, kv = 2·16 = 32. Per layer Q 64·128 + O 128·64 = 16,384, K and V 2·64·32 =
  // 4,096, MLP 3·64·128 = 24,576, norms 128: 45,184; N = 2·45,184 + 2·100·64 + 64 = 103,232.
  // Scores and their product with V: 12·L·q·s = 12·2·128·32 = 98,304 (with h = 64 it would be 49,152).
  CHECK(count_parameters(s.model).total == 103'232);
  CHECK(estimate_flops(s).model_per_token == 6 * 103'232 + 98'304);
  // The pytorch count leaves out the untied input table (a lookup): 6·(103,232 − 6,400) + 98,304.
  s.framework.framework = Framework::pytorch;
  CHECK(estimate_flops(s).model_per_token == 6 * 96'832 + 98'304);
  // Selective recompute rebuilds the attention core forward: 4·L·q·s = 4·2·128·32 = 32,768.
  s.checkpointing.kind = CheckpointKind::selective;
  CHECK(estimate_flops(s).recompute_per_token == 32'768);
}
