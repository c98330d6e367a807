// The update kernel, instantiated per storage type of (weights, state). float32 arithmetic; the
// stored results are rounded once (dtype.hpp), which is exactly what makes pure-16-bit updates stall.
#include "refengine/optim.hpp"
#include <cmath>
#include "refengine/simd.hpp"

namespace lab::ref {

OptimizerHyper optimizer_hyper(const RefConfig& c) {
  OptimizerHyper h;
  h.kind = c.optimizer;
  h.decoupled = c.decoupled_weight_decay;
  h.lr = static_cast<float>(c.learning_rate);
  h.beta1 = static_cast<float>(c.beta1);
  h.beta2 = static_cast<float>(c.beta2);
  h.eps = static_cast<float>(c.eps);
  h.momentum = static_cast<float>(c.momentum);
  h.weight_decay = static_cast<float>(c.weight_decay);
  return h;
}

namespace {

// float32 weights, float32 state, no master: the benchmark path, one loop per optimizer kind.
__attribute__((noinline)) UpdateCounts update_f32(const OptimizerHyper& h, float bc1, float bc2, float inv_scale,
                                                  float wd, float* __restrict w, const float* __restrict grad,
                                                  float* __restrict s1, float* __restrict s2, std::int64_t n) {
  const float decay_factor = h.decoupled ? 1.0f - h.lr * wd : 1.0f;
  const float l2 = h.decoupled ? 0.0f : wd;
  std::int64_t same = 0;
  if (h.kind == Optimizer::sgd) {
    for (std::int64_t i = 0; i < n; ++i) {
      const float p = w[i];
      const float next = p - h.lr * (grad[i] * inv_scale + l2 * p);
      same += float_bits(next) == float_bits(p);
      w[i] = next;
    }
  } else if (h.kind == Optimizer::momentum) {
    for (std::int64_t i = 0; i < n; ++i) {
      const float p = w[i];
      s1[i] = h.momentum * s1[i] + (grad[i] * inv_scale + l2 * p);
      const float next = p - h.lr * s1[i];
      same += float_bits(next) == float_bits(p);
      w[i] = next;
    }
  } else {
    const float b1 = h.beta1, b2 = h.beta2, c1 = 1.0f - h.beta1, c2 = 1.0f - h.beta2;
    std::int64_t i = 0;
    v4i vsame = {0, 0, 0, 0};
    for (; i + 4 <= n; i += 4) {  // the same operations as the scalar loop below, four at a time
      const v4f p = loadu(w + i);
      const v4f g = loadu(grad + i) * inv_scale + l2 * p;
      const v4f m = b1 * loadu(s1 + i) + c1 * g;
      const v4f v = b2 * loadu(s2 + i) + c2 * g * g;
      storeu(s1 + i, m);
      storeu(s2 + i, v);
      const v4f next = p * decay_factor - h.lr * ((m / bc1) / (sqrt_v4(v / bc2) + h.eps));
      vsame -= (v4i)next == (v4i)p;  // comparing the bits: -1 where equal
      storeu(w + i, next);
    }
    same += static_cast<std::int64_t>(vsame[0]) + vsame[1] + vsame[2] + vsame[3];
    for (; i < n; ++i) {
      const float p = w[i];
      const float g = grad[i] * inv_scale + l2 * p;
      s1[i] = b1 * s1[i] + c1 * g;
      s2[i] = b2 * s2[i] + c2 * g * g;
      const float next = p * decay_factor - h.lr * ((s1[i] / bc1) / (std::sqrt(s2[i] / bc2) + h.eps));
      same += float_bits(next) == float_bits(p);
      w[i] = next;
    }
  }
  UpdateCounts counts;
  counts.weights_unchanged = same;
  return counts;
}

template <class TW, class TS>
__attribute__((noinline)) UpdateCounts update(const OptimizerHyper& h, float bc1, float bc2, float inv_scale,
                                              float wd, TW* __restrict w, float* __restrict master,
                                              const TW* __restrict grad, TS* __restrict s1, TS* __restrict s2,
                                              std::int64_t n) {
  UpdateCounts counts;
  const float decay_factor = h.decoupled ? 1.0f - h.lr * wd : 1.0f;
  const float l2 = h.decoupled ? 0.0f : wd;
  for (std::int64_t i = 0; i < n; ++i) {
    const float p = master ? master[i] : load(w + i);
    const float g = load(grad + i) * inv_scale + l2 * p;
    float next;
    if (h.kind == Optimizer::sgd) {
      next = p - h.lr * g;
    } else if (h.kind == Optimizer::momentum) {
      const float b = h.momentum * load(s1 + i) + g;
      store(s1 + i, b);
      next = p - h.lr * load(s1 + i);
    } else {
      store(s1 + i, h.beta1 * load(s1 + i) + (1.0f - h.beta1) * g);
      store(s2 + i, h.beta2 * load(s2 + i) + (1.0f - h.beta2) * g * g);
      const float mhat = load(s1 + i) / bc1, vhat = load(s2 + i) / bc2;
      next = p * decay_factor - h.lr * (mhat / (std::sqrt(vhat) + h.eps));
    }
    const TW before = w[i];
    if (master) {
      counts.master_unchanged += float_bits(master[i]) == float_bits(next);
      master[i] = next;
    }
    store(w + i, next);
    std::uint32_t a = 0, b = 0;
    std::memcpy(&a, &before, sizeof(TW));
    std::memcpy(&b, w + i, sizeof(TW));
    counts.weights_unchanged += a == b;
  }
  return counts;
}

}  // namespace

UpdateCounts optimizer_update(const OptimizerHyper& h, std::int64_t t, float inv_scale, bool decay, const Buf& w,
                              const Buf& master, const Buf& grad, const Buf& s1, const Buf& s2) {
  const float bc1 = static_cast<float>(1.0 - std::pow(static_cast<double>(h.beta1), static_cast<double>(t)));
  const float bc2 = static_cast<float>(1.0 - std::pow(static_cast<double>(h.beta2), static_cast<double>(t)));
  const float wd = decay ? h.weight_decay : 0.0f;
  if (w.dtype == DType::f32 && !master.data && (!s1.data || s1.dtype == DType::f32))
    return update_f32(h, bc1, bc2, inv_scale, wd, w.as<float>(), grad.as<const float>(), s1.as<float>(), s2.as<float>(),
                      w.numel);
  return dispatch(w.dtype, [&](auto tw) {
    using TW = decltype(tw);
    const DType st = s1.data ? s1.dtype : w.dtype;
    return dispatch(st, [&](auto ts) {
      using TS = decltype(ts);
      return update<TW, TS>(h, bc1, bc2, inv_scale, wd, w.as<TW>(), master.as<float>(), grad.as<const TW>(),
                            s1.as<TS>(), s2.as<TS>(), w.numel);
    });
  });
}

bool all_finite(const Buf& b) {
  if (b.dtype == DType::f32) {  // x·0 is 0 for every finite x and NaN for ±inf and NaN: one vector sum
    const float* p = b.as<const float>();
    v4f acc = splat(0.0f);
    std::int64_t i = 0;
    for (; i + 4 <= b.numel; i += 4) acc += loadu(p + i) * 0.0f;
    float tail = 0.0f;
    for (; i < b.numel; ++i) tail += p[i] * 0.0f;
    return hsum(acc) + tail == 0.0f;
  }
  return dispatch(b.dtype, [&](auto tag) {
    const auto* p = b.as<const decltype(tag)>();
    bool ok = true;
    for (std::int64_t i = 0; i < b.numel; ++i) ok = ok && std::isfinite(load(p + i));
    return ok;
  });
}

}  // namespace lab::ref
