// The whole engine: a central-difference gradient check of a tiny model, bit-identical gradients
// under every checkpointing kind, loss falling on the generated task, loss scaling, and the
// pure-FP16 stall against mixed precision with an FP32 master copy.
#include <doctest/doctest.h>
#include <cmath>
#include <vector>
#include "refengine/task.hpp"
#include "refengine/trainer.hpp"
#include "refengine_test_util.hpp"

using namespace lab;
using namespace lab::ref;
using lab::ref::testing::tiny_config;

namespace {
std::vector<float> copy_f32(const Buf& b) {
  const float* p = b.as<float>();
  return {p, p + b.numel};
}
}  // namespace

TEST_CASE("gradcheck: the whole tiny GPT, every parameter tensor") {
  RefConfig c = tiny_config();
  c.layers = 2;
  Trainer tr(c);
  tr.compute_gradients(0);
  std::vector<std::vector<float>> grads;  // copied before any perturbation overwrites them
  for (const ParamSpec& p : tr.inventory().params) grads.push_back(copy_f32(tr.tensor(p.name + ".grad")));
  int checked = 0, bad = 0;
  std::size_t index = 0;
  for (const ParamSpec& p : tr.inventory().params) {
    const std::vector<float>& analytic = grads[index++];
    float* w = tr.tensor(p.name).as<float>();
    for (std::int64_t i = 0; i < p.numel; i += 2) {  // every other element keeps the test fast
      const float keep = w[i];
      const float h = 1e-3f;  // LayerNorm of ~0.02-scale embeddings is strongly curved: keep h small
      w[i] = keep + h;
      const double lp = tr.compute_gradients(0);
      w[i] = keep - h;
      const double lm = tr.compute_gradients(0);
      w[i] = keep;
      const double numeric = (lp - lm) / (2.0 * h);
      const double a = analytic[static_cast<std::size_t>(i)];
      if (std::fabs(numeric - a) > 2e-4 + 1e-2 * std::max(std::fabs(numeric), std::fabs(a))) {
        ++bad;
        MESSAGE(p.name << "[" << i << "]: analytic " << a << " numeric " << numeric);
      }
      ++checked;
    }
  }
  CHECK(checked > 500);
  CHECK(bad == 0);
}

TEST_CASE("every checkpointing kind gives bit-identical losses and gradients") {
  RefConfig c = tiny_config();
  c.layers = 4;
  std::vector<std::vector<float>> reference;
  double ref_loss = 0;
  for (auto ck : {Checkpointing{CheckpointKind::none, 0}, Checkpointing{CheckpointKind::selective, 0},
                  Checkpointing{CheckpointKind::full, 0}, Checkpointing{CheckpointKind::every_k, 3}}) {
    c.checkpointing = ck;
    Trainer tr(c);
    tr.step();  // one update, so the second step's gradients depend on the first's
    const double loss = tr.compute_gradients(1);
    std::vector<std::vector<float>> grads;
    for (const ParamSpec& p : tr.inventory().params) grads.push_back(copy_f32(tr.tensor(p.name + ".grad")));
    CAPTURE(to_string(ck.kind));
    if (reference.empty()) {
      reference = grads;
      ref_loss = loss;
    } else {
      CHECK(loss == ref_loss);
      CHECK(grads == reference);
    }
  }
}

TEST_CASE("recomputation shows up in the executed FLOPs, not in the model FLOPs") {
  RefConfig c = tiny_config();
  Trainer none(c);
  const std::int64_t model = model_flops_per_step(c);
  CHECK(none.step().matmul_flops == model);  // no recompute: executed matmul FLOPs = the formula exactly
  c.checkpointing = {CheckpointKind::full, 0};
  Trainer full(c);
  CHECK(full.step().matmul_flops > model);
  c.checkpointing = {CheckpointKind::selective, 0};
  Trainer sel(c);
  // Selective recomputes only Q·Kᵀ: 2·B·T·T·C per layer.
  CHECK(sel.step().matmul_flops == model + c.layers * 2 * c.batch * c.seq * c.seq * c.d_model);
}

TEST_CASE("the loss falls on the generated Markov task toward its floor") {
  RefConfig c;  // the lab's default model, smaller batch for speed
  c.d_model = 64;
  c.heads = 2;
  c.layers = 2;
  c.mlp_hidden = 256;
  c.batch = 4;
  c.seq = 32;
  c.learning_rate = 3e-3;
  Trainer tr(c);
  std::vector<double> losses;
  for (int i = 0; i < 60; ++i) losses.push_back(tr.step().loss);
  const double floor = task_loss_floor(c);
  MESSAGE("loss " << losses.front() << " -> " << losses.back() << ", floor " << floor);
  CHECK(losses.front() == doctest::Approx(std::log(64.0)).epsilon(0.05));
  double last = 0;
  for (int i = 55; i < 60; ++i) last += losses[static_cast<std::size_t>(i)] / 5;
  CHECK(last < losses.front() - 1.5);
  CHECK(last > floor - 0.3);
  CHECK(floor > 0.5);
  CHECK(floor < 1.4);
}

TEST_CASE("batches are deterministic and differ between steps") {
  RefConfig c = tiny_config();
  std::vector<std::int32_t> a(10), b(10), t1(10), t2(10), t3(10);
  generate_batch(c, 3, a.data(), t1.data());
  generate_batch(c, 3, b.data(), t2.data());
  CHECK(a == b);
  CHECK(t1 == t2);
  generate_batch(c, 4, b.data(), t3.data());
  CHECK(a != b);
  for (int i = 0; i + 1 < 5; ++i) CHECK(t1[static_cast<std::size_t>(i)] == a[static_cast<std::size_t>(i + 1)]);  // next-token targets
  c.task = TaskKind::copy;
  c.seq = 9;
  std::vector<std::int32_t> tok(18), tgt(18);
  generate_batch(c, 0, tok.data(), tgt.data());
  for (int t = 5; t < 9; ++t) CHECK(tok[static_cast<std::size_t>(t)] == tok[static_cast<std::size_t>(t - 5)]);
  CHECK(task_loss_floor(c) == doctest::Approx(4.0 * std::log(11.0) / 9.0));
}

TEST_CASE("static loss scaling by a power of two leaves FP32 training bit-identical") {
  RefConfig c = tiny_config();
  Trainer plain(c);
  c.loss_scale = LossScaleMode::fixed;
  c.loss_scale_value = 1024;
  Trainer scaled(c);
  for (int i = 0; i < 3; ++i) {
    const StepStats a = plain.step(), b = scaled.step();
    CHECK(a.loss == b.loss);
    CHECK(b.loss_scale == 1024);
  }
}

TEST_CASE("dynamic loss scaling backs off on overflow and skips those updates") {
  RefConfig c = tiny_config();
  c.precision = Precision::mixed;
  c.loss_scale = LossScaleMode::dynamic;
  c.loss_scale_value = std::ldexp(1.0, 40);  // far beyond fp16's 65504: gradients overflow
  c.loss_scale_growth_interval = 3;
  Trainer tr(c);
  int skipped = 0;
  StepStats s;
  for (int i = 0; i < 40; ++i) {
    s = tr.step();
    skipped += s.skipped;
  }
  CHECK(skipped >= 10);
  CHECK(tr.updates_applied() == 40 - skipped);
  CHECK(tr.loss_scale() < std::ldexp(1.0, 30));
  CHECK(std::isfinite(s.loss));
}

TEST_CASE("pure FP16 updates stall while mixed precision with an FP32 master keeps learning") {
  RefConfig c = tiny_config();
  c.optimizer = Optimizer::sgd;
  c.learning_rate = 1e-4;  // updates lr·g far below half an fp16 ulp of most weights
  c.loss_scale = LossScaleMode::fixed;
  c.loss_scale_value = 1024;
  c.precision = Precision::fp16;
  Trainer pure(c);
  c.precision = Precision::mixed;
  Trainer mixed(c);
  StepStats p, m;
  for (int i = 0; i < 5; ++i) {
    p = pure.step();
    m = mixed.step();
  }
  const double n = static_cast<double>(pure.weight_elements());
  MESSAGE("unchanged after the 5th update: fp16 " << p.weights_unchanged / n << ", mixed master "
                                                  << m.master_unchanged / n);
  CHECK(p.weights_unchanged / n > 0.7);
  CHECK(m.master_unchanged / n < 0.3);
  CHECK(2 * m.master_unchanged < p.weights_unchanged);
}

TEST_CASE("pure BF16 stalls far more than mixed precision with BF16 compute copies and an FP32 master") {
  RefConfig c = tiny_config();
  c.optimizer = Optimizer::sgd;
  c.learning_rate = 1e-3;  // lr·g well below half a bf16 ulp (2^-9 relative) for most weights
  c.precision = Precision::bf16;
  Trainer pure(c);
  c.precision = Precision::mixed;
  c.mixed_half = DType::bf16;
  Trainer mixed(c);
  CHECK(mixed.inventory().types.weights == DType::bf16);
  CHECK(mixed.inventory().types.master);
  StepStats p, m;
  for (int i = 0; i < 5; ++i) {
    p = pure.step();
    m = mixed.step();
  }
  const double n = static_cast<double>(pure.weight_elements());
  CHECK(p.weights_unchanged / n > 0.7);
  CHECK(m.master_unchanged / n < 0.3);
}
