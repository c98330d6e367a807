// Session construction (persistent tensors, seeded initialisation) and the training step with the
// loss scaler: static scaling multiplies the loss gradient by a constant; dynamic scaling halves the
// scale and skips the update on overflow, doubles it after `growth_interval` clean steps (GradScaler).
#include "refengine/trainer.hpp"
#include <cstring>
#include "refengine/task.hpp"

namespace lab::ref {

Trainer::Trainer(const RefConfig& cfg)
    : inv_(build_inventory(cfg)), arena_(inv_), model_(inv_, arena_, kctx_), hyper_(optimizer_hyper(cfg)) {
  for (std::size_t id = 0; id < inv_.tensors.size(); ++id)
    if (inv_.tensors[id].born == 0) {
      const Buf b = arena_.acquire(static_cast<int>(id));
      std::memset(b.data, 0, static_cast<std::size_t>(inv_.tensors[id].bytes));  // all-zero bits = 0.0 in every type
    }
  const Buf ws = arena_.get("gemm.workspace");
  kctx_.workspace = ws.as<float>();
  kctx_.workspace_floats = ws.numel;
  for (std::size_t i = 0; i < inv_.params.size(); ++i) {
    const ParamSpec& p = inv_.params[i];
    const ParamRows& r = inv_.param_rows[i];
    ParamInitializer init(cfg, i, p);
    const Buf w = arena_.get(r.weights);
    const Buf m = r.master >= 0 ? arena_.get(r.master) : Buf{};
    dispatch(w.dtype, [&](auto tag) {
      auto* wp = w.as<decltype(tag)>();
      for (std::int64_t e = 0; e < p.numel; ++e) {
        const float v = init.next();
        if (m.data) m.as<float>()[e] = v;
        store(wp + e, v);
      }
    });
    weight_elements_ += p.numel;
  }
  scale_ = cfg.loss_scale == LossScaleMode::none ? 1.0 : cfg.loss_scale_value;
}

double Trainer::run_forward_backward(std::int64_t batch_step, float scale) {
  arena_.begin_step();
  arena_.begin_phase("data");
  const Buf tokens = arena_.acquire("tokens"), targets = arena_.acquire("targets");
  generate_batch(inv_.cfg, batch_step, tokens.as<std::int32_t>(), targets.as<std::int32_t>());
  return model_.forward_backward(scale);
}

double Trainer::compute_gradients(std::int64_t batch_step) {
  const double loss = run_forward_backward(batch_step, 1.0f);
  arena_.begin_phase("opt");
  return loss;
}

StepStats Trainer::step() {
  const std::int64_t flops0 = kctx_.matmul_flops;
  StepStats s;
  s.loss_scale = scale_;
  s.loss = run_forward_backward(steps_, static_cast<float>(scale_));
  arena_.begin_phase("opt");
  bool finite = true;
  for (const auto& r : inv_.param_rows) finite = finite && all_finite(arena_.get(r.grad));
  const RefConfig& c = inv_.cfg;
  if (!finite) {
    s.skipped = true;
    if (c.loss_scale == LossScaleMode::dynamic) scale_ *= 0.5;
    good_steps_ = 0;
  } else {
    ++updates_;
    const float inv_scale = static_cast<float>(1.0 / scale_);
    for (std::size_t i = 0; i < inv_.params.size(); ++i) {
      const ParamRows& r = inv_.param_rows[i];
      auto opt = [&](int id) { return id >= 0 ? arena_.get(id) : Buf{}; };
      const UpdateCounts u = optimizer_update(hyper_, updates_, inv_scale, inv_.params[i].decay, arena_.get(r.weights),
                                              opt(r.master), arena_.get(r.grad), opt(r.state1), opt(r.state2));
      s.weights_unchanged += u.weights_unchanged;
      s.master_unchanged += u.master_unchanged;
    }
    if (c.loss_scale == LossScaleMode::dynamic && ++good_steps_ >= c.loss_scale_growth_interval) {
      scale_ *= 2.0;
      good_steps_ = 0;
    }
  }
  ++steps_;
  s.matmul_flops = kctx_.matmul_flops - flops0;
  return s;
}

}  // namespace lab::ref
