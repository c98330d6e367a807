// Optimizers — SGD, Momentum, Adam / AdamW — as one per-tensor update kernel, with the loss-scale
// unscaling fused in and the FP32 master copy optional. Counts elements whose stored value did not
// change (the FP16/BF16 "stalled update" demonstration). No allocation: state lives in the arena.
#pragma once
#include <cstdint>
#include "refengine/config.hpp"

namespace lab::ref {

struct OptimizerHyper {
  Optimizer kind = Optimizer::adam;
  bool decoupled = false;  // AdamW
  float lr = 1e-3f, beta1 = 0.9f, beta2 = 0.999f, eps = 1e-8f, momentum = 0.9f, weight_decay = 0.0f;
};
OptimizerHyper optimizer_hyper(const RefConfig& c);

struct UpdateCounts {
  std::int64_t weights_unchanged = 0;  // compute copy bit-identical after the update
  std::int64_t master_unchanged = 0;   // FP32 master bit-identical (only with a master copy)
};

// Update one parameter tensor at optimizer step t (1-based). g = grad · inv_scale (float32).
//  weight decay (if `decay`): AdamW multiplies the weight by (1 − lr·wd); otherwise g += wd·w (L2).
//  SGD:      w ← w − lr·g
//  Momentum: b ← μ·b + g;  w ← w − lr·b                              (PyTorch convention)
//  Adam:     m ← β1·m + (1−β1)·g;  v ← β2·v + (1−β2)·g²;  w ← w − lr·m̂/(√v̂ + ε), m̂ = m/(1−β1^t), v̂ = v/(1−β2^t)
// With `master` (float32) the update runs on the master and the compute copy `w` is re-rounded from it.
// s1 / s2: momentum buffer or Adam m / v (their own storage type); empty when unused.
UpdateCounts optimizer_update(const OptimizerHyper& h, std::int64_t t, float inv_scale, bool decay, const Buf& w,
                              const Buf& master, const Buf& grad, const Buf& s1, const Buf& s2);

// True when every element is finite (the loss-scaler's overflow check).
bool all_finite(const Buf& b);

}  // namespace lab::ref
