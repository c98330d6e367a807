// Prediction == measurement: for every precision × optimizer × checkpointing kind × a few batch and
// sequence sizes, the inventory's predicted bytes per category, peak and whole live-bytes timeline
// equal what the tagged allocator measured while the engine really trained. Plus the inventory's
// agreement with the analytic ledger (memory.hpp) and the physics of checkpointing.
#include <doctest/doctest.h>
#include <stdexcept>
#include "memory/memory.hpp"
#include "model/models.hpp"
#include "refengine/trainer.hpp"
#include "refengine_test_util.hpp"

using namespace lab;
using namespace lab::ref;
using lab::ref::testing::profile_difference;
using lab::ref::testing::tiny_config;

namespace {
std::int64_t category(const CategoryBytes& b, Category c) { return b[static_cast<std::size_t>(c)]; }

std::vector<Checkpointing> checkpointing_kinds() {
  std::vector<Checkpointing> v;
  v.push_back({CheckpointKind::none, 0});
  v.push_back({CheckpointKind::selective, 0});
  v.push_back({CheckpointKind::full, 0});
  v.push_back({CheckpointKind::every_k, 2});
  v.push_back({CheckpointKind::every_k, 3});
  v.push_back({CheckpointKind::every_k, 9});  // k ≥ L: one segment
  return v;
}
}  // namespace

TEST_CASE("predicted bytes per category, peak and timeline equal the measured ones for 360 configurations") {
  int configs = 0;
  for (int pv = 0; pv < 5; ++pv)  // fp32, mixed (fp16), mixed (bf16), fp16, bf16
    for (int o = 0; o < 4; ++o)
      for (const Checkpointing& ck : checkpointing_kinds())
        for (auto bt : {std::pair<int, int>{1, 1}, {2, 5}, {3, 8}}) {
          RefConfig c = tiny_config();
          const Precision p = pv == 0 ? Precision::fp32 : (pv <= 2 ? Precision::mixed : (pv == 3 ? Precision::fp16 : Precision::bf16));
          c.precision = p;
          c.mixed_half = pv == 2 ? DType::bf16 : DType::f16;
          c.optimizer = o == 0 ? Optimizer::sgd : (o == 1 ? Optimizer::momentum : Optimizer::adam);
          c.decoupled_weight_decay = o == 3;
          c.weight_decay = o == 3 ? 0.1 : 0.0;
          c.checkpointing = ck;
          c.batch = bt.first;
          c.seq = bt.second;
          c.loss_scale = p == Precision::fp32 ? LossScaleMode::none : LossScaleMode::dynamic;
          Trainer tr(c);
          const MemoryProfile predicted = predict_memory(tr.inventory());
          CAPTURE(pv);
          CAPTURE(o);
          CAPTURE(to_string(ck.kind));
          CAPTURE(ck.every_k_layers);
          CAPTURE(bt.first);
          CAPTURE(bt.second);
          CHECK(tr.step().matmul_flops == executed_flops_per_step(c));
          CHECK(profile_difference(predicted, tr.measured()) == "");
          tr.step();  // the second step allocates exactly like the first
          CHECK(profile_difference(predicted, tr.measured()) == "");
          ++configs;
        }
  CHECK(configs == 360);
}

TEST_CASE("the inventory's static bytes equal the analytic ledger's bytes per parameter") {
  for (Precision p : {Precision::fp32, Precision::mixed, Precision::fp16, Precision::bf16})
    for (Optimizer o : {Optimizer::sgd, Optimizer::momentum, Optimizer::adam}) {
      RefConfig c = tiny_config();
      c.precision = p;
      c.optimizer = o;
      const Inventory inv = build_inventory(c);
      const MemoryProfile m = predict_memory(inv);
      const CategoryBytes& init = m.timeline.front().live_end;
      const BytesPerParam bpp = bytes_per_param(p, o, Convention::ours);
      const std::int64_t N = parameter_count(c);
      CAPTURE(to_string(p));
      CAPTURE(to_string(o));
      CHECK(category(init, Category::weights) == N * bpp.weights);
      CHECK(category(init, Category::master_weights) == N * bpp.master);
      CHECK(category(init, Category::gradients) == N * bpp.gradients);
      CHECK(category(init, Category::optimizer_momentum) + category(init, Category::optimizer_adam_m) +
                category(init, Category::optimizer_adam_v) ==
            N * bpp.per_optimizer_vector * bpp.optimizer_vectors);
    }
}

TEST_CASE("the engine's parameter count is the analytic count of the same untied GPT-2-style model") {
  RefConfig c;  // the benchmark model: V 64, ctx 64, d 128, 4 layers, MLP 512
  TransformerSpec s;
  s.layers = c.layers;
  s.hidden = c.d_model;
  s.heads = c.heads;
  s.vocab = c.vocab;
  s.context = c.context;
  s.mlp_hidden = c.mlp_hidden;
  s.tied_head = false;
  CHECK(parameter_count(c) == count_parameters(s).total);
  CHECK(model_flops_per_step(c) == 2'642'411'520);  // ≈ 2.64 GFLOP per step (issue #5)
}

TEST_CASE("checkpointing trades activations for recomputation as the physics says") {
  RefConfig c = tiny_config();
  c.layers = 4;
  c.batch = 4;
  c.seq = 8;
  auto acts = [&](Checkpointing ck) {
    c.checkpointing = ck;
    return category(predict_memory(build_inventory(c)).max_by_category, Category::activations);
  };
  const std::int64_t none = acts({CheckpointKind::none, 0}), selective = acts({CheckpointKind::selective, 0});
  const std::int64_t full = acts({CheckpointKind::full, 0}), k2 = acts({CheckpointKind::every_k, 2});
  const RefConfig& cc = c;
  // Selective drops exactly the saved softmax outputs: L·B·H·T·T floats.
  CHECK(none - selective == cc.layers * cc.batch * cc.heads * cc.seq * cc.seq * 4);
  CHECK(full < k2);
  CHECK(k2 < none);
  CHECK(selective < none);
}

TEST_CASE("no tensor is used outside its lifetime: a wrong schedule throws instead of reading freed memory") {
  RefConfig c = tiny_config();
  const Inventory inv = build_inventory(c);
  Arena arena(inv);
  CHECK_THROWS_AS(arena.get("tokens"), std::logic_error);
  arena.acquire("tokens");
  CHECK_THROWS_AS(arena.acquire("tokens"), std::logic_error);
  arena.release("tokens");
  CHECK_THROWS_AS(arena.release("tokens"), std::logic_error);
  CHECK_THROWS_AS(inv.find("no-such-tensor"), std::logic_error);
}
