// LayerNorm over the channel dimension. Forward saves mean and 1/std per row (float32); backward
// recomputes x̂ from x, mean, rstd, so it needs no other saved tensor.
#include <cmath>
#include "refengine/ops.hpp"

namespace lab::ref {

namespace {
template <class TX, class TP, class TY>
void ln_fwd(const TX* x, const TP* gamma, const TP* beta, TY* y, float* mean_out, float* rstd_out, std::int64_t N,
            std::int64_t C) {
  for (std::int64_t i = 0; i < N; ++i) {
    const TX* xr = x + i * C;
    float sum = 0.0f;
    for (std::int64_t c = 0; c < C; ++c) sum += load(xr + c);
    const float mean = sum / static_cast<float>(C);
    float var = 0.0f;
    for (std::int64_t c = 0; c < C; ++c) {
      const float d = load(xr + c) - mean;
      var += d * d;
    }
    const float rstd = 1.0f / std::sqrt(var / static_cast<float>(C) + kLayerNormEps);
    TY* yr = y + i * C;
    for (std::int64_t c = 0; c < C; ++c) store(yr + c, (load(xr + c) - mean) * rstd * load(gamma + c) + load(beta + c));
    if (mean_out) mean_out[i] = mean;
    if (rstd_out) rstd_out[i] = rstd;
  }
}

template <class TD, class TX, class TP, class TG>
void ln_bwd(const TD* dy, const TX* x, const float* mean, const float* rstd, const TP* gamma, TX* dx, TG* dgamma,
            TG* dbeta, std::int64_t N, std::int64_t C) {
  // dgamma = Σ_i dy·x̂, dbeta = Σ_i dy, 64 channels at a time in float32.
  constexpr std::int64_t kChunk = 64;
  float ag[kChunk], ab[kChunk];
  for (std::int64_t c0 = 0; c0 < C; c0 += kChunk) {
    const std::int64_t cn = C - c0 < kChunk ? C - c0 : kChunk;
    for (std::int64_t c = 0; c < cn; ++c) ag[c] = ab[c] = 0.0f;
    for (std::int64_t i = 0; i < N; ++i) {
      const TD* dr = dy + i * C + c0;
      const TX* xr = x + i * C + c0;
      for (std::int64_t c = 0; c < cn; ++c) {
        const float d = load(dr + c);
        ag[c] += d * ((load(xr + c) - mean[i]) * rstd[i]);
        ab[c] += d;
      }
    }
    for (std::int64_t c = 0; c < cn; ++c) {
      store(dgamma + c0 + c, ag[c]);
      store(dbeta + c0 + c, ab[c]);
    }
  }
  // dx += rstd · (g − mean(g) − x̂·mean(g·x̂)), g = dy·gamma.
  for (std::int64_t i = 0; i < N; ++i) {
    const TD* dr = dy + i * C;
    const TX* xr = x + i * C;
    float sum_g = 0.0f, sum_gx = 0.0f;
    for (std::int64_t c = 0; c < C; ++c) {
      const float g = load(dr + c) * load(gamma + c);
      sum_g += g;
      sum_gx += g * ((load(xr + c) - mean[i]) * rstd[i]);
    }
    const float mg = sum_g / static_cast<float>(C), mgx = sum_gx / static_cast<float>(C);
    TX* dxr = dx + i * C;
    for (std::int64_t c = 0; c < C; ++c) {
      const float g = load(dr + c) * load(gamma + c);
      const float xh = (load(xr + c) - mean[i]) * rstd[i];
      store(dxr + c, load(dxr + c) + rstd[i] * (g - mg - xh * mgx));
    }
  }
}
}  // namespace

void layernorm_forward(const Buf& x, const Buf& gamma, const Buf& beta, const Buf& y, float* mean, float* rstd,
                       std::int64_t N, std::int64_t C) {
  // x and y are activations (one type), gamma and beta parameters (one type).
  dispatch(x.dtype, [&](auto tx) {
    using TX = decltype(tx);
    dispatch(gamma.dtype, [&](auto tp) {
      using TP = decltype(tp);
      ln_fwd(x.as<TX>(), gamma.as<TP>(), beta.as<TP>(), y.as<TX>(), mean, rstd, N, C);
    });
  });
}

void layernorm_backward(const Buf& dy, const Buf& x, const float* mean, const float* rstd, const Buf& gamma,
                        const Buf& dx, const Buf& dgamma, const Buf& dbeta, std::int64_t N, std::int64_t C) {
  // dy, x, dx are activations (one type); gamma, dgamma, dbeta parameters (one type).
  dispatch(x.dtype, [&](auto tx) {
    using TX = decltype(tx);
    dispatch(gamma.dtype, [&](auto tp) {
      using TP = decltype(tp);
      ln_bwd(dy.as<TX>(), x.as<TX>(), mean, rstd, gamma.as<TP>(), dx.as<TX>(), dgamma.as<TP>(), dbeta.as<TP>(), N, C);
    });
  });
}

}  // namespace lab::ref
