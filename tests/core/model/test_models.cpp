// Parameter counts: exact GPT-2 values (PHYSICS.md) and the general formula on custom shapes.
#include <doctest/doctest.h>
#include "model/models.hpp"
#include "refengine/inventory.hpp"

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

// Published counts of the released checkpoints; each re-derived from its config.json:
// Llama-2 7B: L 32, d 4096, f 11008, V 32000, untied: 32·(4·4096² + 3·4096·11008 + 2·4096) + 2·32000·4096
//   + 4096 = 6,476,267,520 + 262,144,000 + 4,096 = 6,738,415,616.
// Llama-2 13B: 40·(4·5120² + 3·5120·13824 + 2·5120) + 2·32000·5120 + 5120 = 12,688,179,200 + 327,680,000
//   + 5,120 = 13,015,864,320.
// Llama-3 8B (8 KV heads of 128): 32·218,112,000 + 2·128256·4096 + 4096 = 6,979,584,000 + 1,050,673,152
//   + 4,096 = 8,030,261,248.
// Mistral 7B v0.1: the same blocks, V 32000: 6,979,584,000 + 262,144,000 + 4,096 = 7,241,732,096.
// Qwen2 7B: d 3584, 28 heads, 4 KV heads (width 512), f 18944, q/k/v biases (4,608), V 152064:
//   28·233,057,792 + 2·152064·3584 + 3584 = 6,525,618,176 + 1,089,994,752 + 3,584 = 7,615,616,512.
// TinyLlama 1.1B: L 22, d 2048, 4 KV heads of 64, f 5632: 22·44,044,288 + 2·32000·2048 + 2048
//   = 968,974,336 + 131,072,000 + 2,048 = 1,100,048,384.
TEST_CASE("catalogue presets count the published parameters of their checkpoints") {
  const std::pair<const char*, std::int64_t> published[] = {
      {"gpt2-small", 124'439'808},      {"gpt2-medium", 354'823'168},   {"gpt2-large", 774'030'080},
      {"gpt2-xl", 1'557'611'200},       {"llama-2-7b", 6'738'415'616},  {"llama-2-13b", 13'015'864'320},
      {"llama-3-8b", 8'030'261'248},    {"mistral-7b", 7'241'732'096},  {"qwen2-7b", 7'615'616'512},
      {"tinyllama-1.1b", 1'100'048'384},
  };
  for (const auto& entry : published) {  // not a structured binding: clang's C++17 cannot capture one
    const char* id = entry.first;
    const std::int64_t count = entry.second;
    CAPTURE(id);
    REQUIRE(find_model(id) != nullptr);
    CHECK(count_parameters(*find_model(id)).total == count);
  }
}

TEST_CASE("the Measure-it preset is the reference engine's model, parameter for parameter") {
  CHECK(count_parameters(*find_model("measure-tiny")).total == ref::parameter_count(ref::RefConfig{}));
}

TEST_CASE("the course family is Llama-style at about 11M, 58M and 134M parameters") {
  // S: 8·(4·256² + 3·256·688 + 512) + 2·10000·256 + 256 = 6,328,320 + 5,120,000 + 256 = 11,448,576.
  CHECK(count_parameters(*find_model("course-s")).total == 11'448'576);
  // M: 8·(4·512² + 3·512·1376 + 1024) + 2·32000·512 + 512 = 25,305,088 + 32,768,000 + 512 = 58,073,600.
  CHECK(count_parameters(*find_model("course-m")).total == 58'073'600);
  // L: 12·(4·768² + 3·768·2048 + 1536) + 2·32000·768 + 768 = 84,953,088 + 49,152,000 + 768 = 134,105,856.
  CHECK(count_parameters(*find_model("course-l")).total == 134'105'856);
  for (const char* id : {"course-s", "course-m", "course-l"}) {
    const auto& m = *find_model(id);
    CHECK((m.mlp == MlpKind::swiglu && m.norm == NormKind::rmsnorm && !m.tied_head && !m.learned_positions && !m.biases));
  }
}

TEST_CASE("every catalogue model has its attention widths filled in and a family") {
  for (const auto& m : model_catalog()) {
    CAPTURE(m.id);
    CHECK(m.kv_heads > 0);
    CHECK(m.head_dim > 0);
    CHECK(m.heads % m.kv_heads == 0);
    CHECK(std::string(m.family) != "custom");
  }
}
