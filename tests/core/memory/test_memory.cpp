// Static ledger golden values (PHYSICS.md) and properties of the step timeline.
#include <doctest/doctest.h>
#include "memory/memory.hpp"

using namespace lab;

namespace {
Scenario xl(Precision p, Optimizer o) {
  Scenario s;
  s.model = *find_model("gpt2-xl");
  s.device = *find_device("h100-sxm-80gb");
  s.precision = p;
  s.optimizer = o;
  return s;
}
}  // namespace

TEST_CASE("GPT-2 XL FP32 static memory by optimizer matches the reference bytes") {
  CHECK(compute_ledger(xl(Precision::fp32, Optimizer::sgd)).static_bytes == 12'460'889'600);
  CHECK(compute_ledger(xl(Precision::fp32, Optimizer::momentum)).static_bytes == 18'691'334'400);
  CHECK(compute_ledger(xl(Precision::fp32, Optimizer::adam)).static_bytes == 24'921'779'200);
  CHECK(compute_ledger(xl(Precision::fp32, Optimizer::adam)).static_bytes -
            compute_ledger(xl(Precision::fp32, Optimizer::sgd)).static_bytes == 12'460'889'600);
}

TEST_CASE("mixed-precision Adam static memory equals FP32 Adam static memory (16 B/param)") {
  const auto mixed = compute_ledger(xl(Precision::mixed, Optimizer::adam));
  CHECK(mixed.static_bytes == 24'921'779'200);
  CHECK(mixed.weights == 3'115'222'400);
  CHECK(mixed.master_weights == 6'230'444'800);
  for (auto o : {Optimizer::sgd, Optimizer::momentum, Optimizer::adam})
    CHECK(compute_ledger(xl(Precision::mixed, o)).static_bytes == compute_ledger(xl(Precision::fp32, o)).static_bytes);
}

TEST_CASE("bytes per parameter follow the three labelled conventions") {
  CHECK(bytes_per_param(Precision::mixed, Optimizer::adam, Convention::ours).total() == 16);
  CHECK(bytes_per_param(Precision::mixed, Optimizer::adam, Convention::chapter).total() == 12);
  CHECK(bytes_per_param(Precision::mixed, Optimizer::adam, Convention::megatron).total() == 18);
  CHECK(bytes_per_param(Precision::fp16, Optimizer::sgd, Convention::ours).total() == 4);
  CHECK(bytes_per_param(Precision::bf16, Optimizer::adam, Convention::ours).total() == 8);
  CHECK(bytes_per_param(Precision::fp32, Optimizer::momentum, Convention::chapter).total() == 12);
}

TEST_CASE("Adam's two optimizer vectors are listed separately and each is one FP32 copy") {
  const auto m = compute_ledger(xl(Precision::fp32, Optimizer::adam));
  REQUIRE(m.optimizer_vectors.size() == 2);
  CHECK(m.optimizer_vectors[0].name == "adam_m");
  CHECK(m.optimizer_vectors[1].bytes == 6'230'444'800);
}

TEST_CASE("Chapter replay reproduces 89.0 -> 56.5 -> 32.125 GB and fits a 32 GiB V100 only at the end") {
  Scenario s = xl(Precision::fp32, Optimizer::adam);
  s.chapter_replay = true;
  s.activation_model = ActivationModel::chapter;
  s.device = *find_device("v100-sxm2-32gb");
  s.batch_size = 32;
  s.reserve_bytes = 0;
  auto a = compute_ledger(s);
  CHECK(a.total_bytes == 89'000'000'000);
  CHECK(a.peak_bytes == a.total_bytes);
  CHECK_FALSE(a.fits);
  s.precision = Precision::mixed;
  auto b = compute_ledger(s);
  CHECK(b.total_bytes == 56'500'000'000);
  CHECK(b.static_bytes == 24'000'000'000);
  CHECK_FALSE(b.fits);
  s.checkpointing = {CheckpointKind::every_k, 4};
  auto c = compute_ledger(s);
  CHECK(c.total_bytes == 32'125'000'000);
  CHECK(c.activations == 8'125'000'000);
  CHECK(c.fits);
}

TEST_CASE("static memory does not depend on batch size; activations are linear in it") {
  for (auto p : {Precision::fp32, Precision::mixed, Precision::bf16})
    for (auto ck : {CheckpointKind::none, CheckpointKind::selective, CheckpointKind::full}) {
      Scenario s = xl(p, Optimizer::adam);
      s.checkpointing.kind = ck;
      s.batch_size = 1;
      const auto one = compute_ledger(s);
      for (std::int64_t b : {2, 7, 32, 64}) {
        s.batch_size = b;
        const auto many = compute_ledger(s);
        CHECK(many.static_bytes == one.static_bytes);
        CHECK(many.activations == b * one.activations);
        CHECK(many.logits == b * one.logits);
      }
    }
}

TEST_CASE("checkpointing never increases activations or the peak") {
  for (std::int64_t b : {1, 8, 32})
    for (auto p : {Precision::fp32, Precision::mixed}) {
      Scenario s = xl(p, Optimizer::adam);
      s.batch_size = b;
      const auto none = compute_ledger(s);
      s.checkpointing = {CheckpointKind::selective, 0};
      const auto sel = compute_ledger(s);
      s.checkpointing = {CheckpointKind::full, 0};
      const auto full = compute_ledger(s);
      CHECK(sel.activations <= none.activations);
      CHECK(full.activations <= sel.activations);
      CHECK(sel.peak_bytes <= none.peak_bytes);
      CHECK(full.peak_bytes <= none.peak_bytes);
      for (std::int64_t k = 1; k <= 48; ++k) {
        s.checkpointing = {CheckpointKind::every_k, k};
        const auto ek = compute_ledger(s);
        CHECK(ek.activations <= none.activations);
        CHECK(ek.peak_bytes <= none.peak_bytes);
      }
    }
}

TEST_CASE("the peak is at least the sum of components and at least static memory") {
  Scenario s = xl(Precision::mixed, Optimizer::adam);
  s.checkpointing = {CheckpointKind::every_k, 4};
  const auto m = compute_ledger(s);
  CHECK(m.peak_bytes == m.total_bytes + m.logits_gradient + m.activation.recompute_working_bytes);
  CHECK(m.peak_bytes > m.total_bytes);
  CHECK(m.total_bytes == m.static_bytes + m.activations + m.logits + m.reserve);
}

TEST_CASE("the binding constraint is named: static on the 8 GB laptop, activations when only they overflow") {
  Scenario s = xl(Precision::fp32, Optimizer::adam);
  s.device = *find_device("rtx4060-laptop-8gb");
  CHECK(compute_ledger(s).binding == Binding::static_memory);
  s.device = *find_device("a100-sxm4-40gb");
  s.precision = Precision::mixed;
  s.batch_size = 8;
  const auto m = compute_ledger(s);
  CHECK(m.static_bytes + m.reserve < m.usable_device_bytes);
  CHECK(m.binding == Binding::activations);
  CHECK_FALSE(m.fits);
  s.batch_size = 1;
  s.checkpointing = {CheckpointKind::full, 0};
  CHECK(compute_ledger(s).binding == Binding::none);
  CHECK(compute_ledger(s).fits);
}
