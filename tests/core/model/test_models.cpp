// Parameter counts: exact GPT-2 values (PHYSICS.md) and the general formula on custom shapes.
#include <doctest/doctest.h>
#include "model/models.hpp"

using namespace lab;

TEST_CASE("GPT-2 catalog parameter counts are exact") {
  CHECK(count_parameters(*find_model("gpt2-small")).total == 124'439'808);
  CHECK(count_parameters(*find_model("gpt2-medium")).total == 354'823'168);
  CHECK(count_parameters(*find_model("gpt2-large")).total == 774'030'080);
  CHECK(count_parameters(*find_model("gpt2-xl")).total == 1'557'611'200);
}

TEST_CASE("GPT-2 parameter count matches V*d + ctx*d + L*(12d^2 + 13d) + 2d for any shape") {
  for (std::int64_t L : {1, 3, 7})
    for (std::int64_t d : {8, 64, 96}) {
      TransformerSpec s = *find_model("gpt2-small");
      s.layers = L; s.hidden = d; s.mlp_hidden = 4 * d; s.heads = 4; s.head_dim = d / 4; s.kv_heads = 4;
      const std::int64_t expected = s.vocab * d + s.context * d + L * (12 * d * d + 13 * d) + 2 * d;
      CHECK(count_parameters(s).total == expected);
    }
}

TEST_CASE("an untied head adds V*d parameters") {
  TransformerSpec s = *find_model("gpt2-xl");
  const auto tied = count_parameters(s).total;
  s.tied_head = false;
  CHECK(count_parameters(s).total - tied == 50'257LL * 1600);
}

TEST_CASE("a Llama-style block (SwiGLU, RMSNorm, no biases, rotary) counts 4d^2 + 3df + 2d per layer") {
  TransformerSpec s;
  s.layers = 32; s.hidden = 4096; s.heads = 32; s.vocab = 32000; s.context = 4096; s.mlp_hidden = 11008;
  s.tied_head = false; s.learned_positions = false; set_biases(s, false);
  s.mlp = MlpKind::swiglu; s.norm = NormKind::rmsnorm;
  const auto p = count_parameters(s);
  CHECK(p.per_layer == 4 * 4096LL * 4096 + 3 * 4096LL * 11008 + 2 * 4096);
  // Llama-2 7B as published: 6,738,415,616 parameters.
  CHECK(p.total == 6'738'415'616LL);
}

TEST_CASE("unknown model ids are not found") { CHECK(find_model("gpt5") == nullptr); }

TEST_CASE("grouped-query attention: K and V are kv_heads x head_dim wide") {
  TransformerSpec s;  // Llama-3 8B's shape: d 4096, 32 heads of 128, 8 KV heads, f 14336
  s.layers = 1; s.hidden = 4096; s.heads = 32; s.kv_heads = 8; s.vocab = 1; s.context = 1;
  s.mlp_hidden = 14336; s.learned_positions = false; set_biases(s, false);
  s.mlp = MlpKind::swiglu; s.norm = NormKind::rmsnorm;
  // Q and O: 2 * 4096 * 4096 = 33,554,432; K and V: 2 * 4096 * 1024 = 8,388,608;
  // MLP 3 * 4096 * 14336 = 176,160,768; two RMSNorms 8,192: 218,111,998 + 2 = 218,112,000.
  CHECK(count_parameters(s).per_layer == 218'112'000);
}

TEST_CASE("a head_dim of its own sets the attention width (Gemma 2: 8 heads of 256 on d = 2304)") {
  TransformerSpec s;
  s.layers = 1; s.hidden = 2304; s.heads = 8; s.kv_heads = 4; s.head_dim = 256; s.vocab = 1; s.context = 1;
  s.mlp_hidden = 9216; s.learned_positions = false; set_biases(s, false);
  s.mlp = MlpKind::geglu; s.norm = NormKind::rmsnorm; s.norms_per_layer = 4;
  // Q 2304*2048 + K, V 2*2304*1024 + O 2048*2304 = 14,155,776; MLP 3*2304*9216 = 63,700,992;
  // four norms 9,216: 77,865,984.
  CHECK(count_parameters(s).per_layer == 77'865'984);
}

TEST_CASE("per-projection biases: q/k/v only (Qwen2) adds q + 2·kv per layer") {
  TransformerSpec s;
  s.layers = 1; s.hidden = 3584; s.heads = 28; s.kv_heads = 4; s.vocab = 1; s.context = 1;
  s.mlp_hidden = 18944; s.learned_positions = false; s.mlp = MlpKind::swiglu; s.norm = NormKind::rmsnorm;
  set_biases(s, false);
  const auto without = count_parameters(s).per_layer;
  s.qkv_bias = true;
  CHECK(count_parameters(s).per_layer - without == 3584 + 2 * 512);  // head_dim 128, kv width 512
  s.norm = NormKind::layernorm;  // a LayerNorm without bias still has its scale only
  CHECK(count_parameters(s).per_layer - without == 3584 + 2 * 512);
}

TEST_CASE("set_biases and complete_attention keep the shorthand and the widths consistent") {
  TransformerSpec s;
  s.hidden = 768; s.heads = 12;
  complete_attention(s);
  CHECK(s.head_dim == 64);
  CHECK(s.kv_heads == 12);
  set_biases(s, false);
  CHECK_FALSE((s.biases || s.qkv_bias || s.attn_out_bias || s.mlp_bias || s.norm_bias));
}
