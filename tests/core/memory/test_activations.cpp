// Activation bytes: Korthikanti golden values for GPT-2 XL and the itemised generalisation.
#include <doctest/doctest.h>
#include "memory/activations.hpp"
#include "facade/scenario_json.hpp"

using namespace lab;
using nlohmann::json;

namespace {
Scenario xl16(CheckpointKind k) {
  Scenario s;
  s.model = *find_model("gpt2-xl");
  s.precision = Precision::mixed;
  s.batch_size = 1;
  s.seq_len = 1024;
  s.checkpointing.kind = k;
  return s;
}
}  // namespace

TEST_CASE("GPT-2 XL, b=1, s=1024, 16-bit: Korthikanti none / selective / full") {
  CHECK(estimate_activations(xl16(CheckpointKind::none)).saved_bytes == 8'965'324'800);
  CHECK(estimate_activations(xl16(CheckpointKind::selective)).saved_bytes == 2'673'868'800);
  CHECK(estimate_activations(xl16(CheckpointKind::full)).saved_bytes == 157'286'400);
}

TEST_CASE("per-layer bytes equal s*b*h*(34 + 5*a*s/h) for GPT-2 shapes at 16-bit") {
  for (const char* id : {"gpt2-small", "gpt2-medium", "gpt2-large", "gpt2-xl"})
    for (std::int64_t sl : {128, 512, 1024})
      for (std::int64_t b : {1, 3}) {
        Scenario s = xl16(CheckpointKind::none);
        s.model = *find_model(id);
        s.seq_len = sl;
        s.batch_size = b;
        const std::int64_t h = s.model.hidden, a = s.model.heads;
        const std::int64_t expected = 34 * sl * b * h + 5 * a * sl * sl * b;
        CHECK(estimate_activations(s).per_layer_full_bytes == expected);
      }
}

TEST_CASE("FlashAttention removes exactly the 5*a*s^2*b term") {
  Scenario s = xl16(CheckpointKind::none);
  const auto plain = estimate_activations(s);
  s.flash_attention = true;
  const auto flash = estimate_activations(s);
  CHECK(plain.saved_bytes - flash.saved_bytes == 48LL * 5 * 25 * 1024 * 1024);
}

TEST_CASE("FP32 activations double the 16-bit tensors but not the 1-byte dropout masks") {
  Scenario s = xl16(CheckpointKind::none);
  s.precision = Precision::fp32;
  const std::int64_t sbh = 1024LL * 1600, as2b = 25LL * 1024 * 1024;
  CHECK(estimate_activations(s).per_layer_full_bytes == 66 * sbh + 9 * as2b);
}

TEST_CASE("every-k checkpointing stores ceil(L/k) segment inputs and rebuilds k layers in backward") {
  Scenario s = xl16(CheckpointKind::every_k);
  s.checkpointing.every_k_layers = 5;
  const auto e = estimate_activations(s);
  CHECK(e.layers_saving == 10);
  CHECK(e.saved_bytes == 10 * 2 * 1024LL * 1600);
  CHECK(e.recompute_working_bytes == 5 * e.per_layer_full_bytes - 2 * 1024LL * 1600);
}

TEST_CASE("the chapter's activation model: 65 GB FP32 at B=32, halved in 16-bit, /4 every 4 layers") {
  Scenario s = xl16(CheckpointKind::none);
  s.activation_model = ActivationModel::chapter;
  s.precision = Precision::fp32;
  s.batch_size = 32;
  CHECK(estimate_activations(s).saved_bytes == 65'000'000'000);
  s.precision = Precision::mixed;
  CHECK(estimate_activations(s).saved_bytes == 32'500'000'000);
  s.checkpointing = {CheckpointKind::every_k, 4};
  CHECK(estimate_activations(s).saved_bytes == 8'125'000'000);
}

TEST_CASE("chapter replay, every k layers: the chapter's k*A + (L/k)*A, its saving scaled to 75% at k = 4") {
  Scenario s = xl16(CheckpointKind::none);
  s.activation_model = ActivationModel::chapter;
  s.precision = Precision::mixed;
  s.batch_size = 32;
  const auto at = [&](std::int64_t k) {
    s.checkpointing = {CheckpointKind::every_k, k};
    return estimate_activations(s).saved_bytes;
  };
  // L = 48: the formula keeps (k + 48/k)/48; its saving is scaled by 0.75 / (2/3) = 1.125.
  CHECK(chapter_every_k_saving_scale(48) == doctest::Approx(1.125));
  CHECK(at(4) == 8'125'000'000);
  CHECK(at(12) == 8'125'000'000);  // 12 + 48/12 = 4 + 48/4
  CHECK(at(8) == std::llround(32.5e9 * (1.0 - 1.125 * (1.0 - 14.0 / 48.0))));
  // k = 1 and k = 48 keep everything: one checkpoint per layer, or one segment, saves nothing.
  CHECK(at(1) == 32'500'000'000);
  CHECK(at(48) == 32'500'000'000);
  // Never more than without checkpointing; the least near sqrt(48) = 6.9, not at the largest k.
  std::int64_t best_k = 1;
  for (std::int64_t k = 1; k <= 48; ++k) {
    CHECK(at(k) <= 32'500'000'000);
    if (at(k) < at(best_k)) best_k = k;
  }
  CHECK(best_k == 7);
  CHECK(at(7) < at(4));
}

TEST_CASE("property: chapter_every_k_factor is 1/4 at k = 4 for any depth, symmetric in k <-> L/k, in [1/L, 1]") {
  for (std::int64_t L : {1, 2, 5, 6, 12, 24, 36, 48, 96}) {
    if (L >= 4) CHECK(chapter_every_k_factor(4, L) == doctest::Approx(0.25));  // scenarios keep k <= L
    for (std::int64_t k = 1; k <= L; ++k) {
      CHECK(chapter_every_k_factor(k, L) <= 1.0);
      CHECK(chapter_every_k_factor(k, L) >= 1.0 / static_cast<double>(L));
      if (L % k == 0) CHECK(chapter_every_k_factor(k, L) == doctest::Approx(chapter_every_k_factor(L / k, L)));
    }
  }
  CHECK(chapter_every_k_saving_scale(5) == 0.0);  // (4 + 5/4)/5 > 1: the formula saves nothing at k = 4
  CHECK(chapter_every_k_factor(1, 5) == 0.25);
}

TEST_CASE("dropout false drops Korthikanti's masks and the scores' dropout output: 32*sbh + 2*a*s^2*b at 16-bit") {
  // The linear terms lose the two 1-byte masks (34 -> 32 bytes per sbh); the score terms keep only
  // the softmax output (5 -> 2 bytes per element). GPT-2 XL, b = 1, s = 1024: sbh = 1,638,400,
  // a*s^2*b = 26,214,400.
  const Scenario s = parse_scenario(json{{"precision", "mixed"}, {"dropout", false}});
  CHECK(estimate_activations(s).per_layer_full_bytes == 32LL * 1'638'400 + 2LL * 26'214'400);
}

TEST_CASE("GQA and a head_dim of its own: Q and the projection input are heads x head_dim wide, K and V kv_heads x head_dim") {
  Scenario s = xl16(CheckpointKind::none);
  s.model = TransformerSpec{};
  s.model.layers = 2; s.model.hidden = 64; s.model.heads = 8; s.model.kv_heads = 2; s.model.head_dim = 16;
  s.model.vocab = 100; s.model.context = 64; s.model.mlp_hidden = 128; s.model.mlp = MlpKind::swiglu;
  s.model.norm = NormKind::rmsnorm; s.model.learned_positions = false; set_biases(s.model, false);
  s.seq_len = 32;
  // By hand, e = 2 (mixed), s·b = 32: sbh = 2,048, sb·q = 32·128 = 4,096, sb·kv = 32·32 = 1,024, sbf = 4,096.
  //   attention  2·(2,048 + 2·4,096 + 2·1,024) = 24,576   two dropout masks 2·2,048 = 4,096
  //   MLP input  2·2,048 = 4,096; SwiGLU gate, up, product 3·2·4,096 = 24,576; two norm inputs 2·2·2,048 = 8,192
  //   linear = 24,576 + 4,096 + 4,096 + 24,576 + 8,192 = 65,536
  //   scores (2·2 + 1)·a·s²·b = 5·8·32·32 = 40,960 (a = 8 query heads: GQA shares K/V, not scores)
  CHECK(estimate_activations(s).per_layer_full_bytes == 65'536 + 40'960);
  s.checkpointing.kind = CheckpointKind::selective;
  CHECK(estimate_activations(s).per_layer_saved_bytes == 65'536);
  // Gemma 2's post-norms save two more inputs (2·2·2,048); a parallel residual shares one.
  s.model.norms_per_layer = 4;
  CHECK(estimate_activations(s).per_layer_saved_bytes == 65'536 + 8'192);
  s.model.norms_per_layer = 2;
  s.model.parallel_residual = true;
  CHECK(estimate_activations(s).per_layer_saved_bytes == 65'536 - 4'096);
}
