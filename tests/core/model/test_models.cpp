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
      s.layers = L; s.hidden = d; s.mlp_hidden = 4 * d; s.heads = 4;
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
  s.tied_head = false; s.learned_positions = false; s.biases = false;
  s.mlp = MlpKind::swiglu; s.norm = NormKind::rmsnorm;
  const auto p = count_parameters(s);
  CHECK(p.per_layer == 4 * 4096LL * 4096 + 3 * 4096LL * 11008 + 2 * 4096);
  // Llama-2 7B as published: 6,738,415,616 parameters.
  CHECK(p.total == 6'738'415'616LL);
}

TEST_CASE("unknown model ids are not found") { CHECK(find_model("gpt5") == nullptr); }
