// LayerNorm over the channel dimension. Forward saves mean and 1/std per row (float32); backward
// recomputes x̂ from x, mean, rstd, so it needs no other saved tensor.
#include <cmath>
#include <type_traits>
#include "refengine/ops.hpp"
#include "refengine/simd.hpp"

namespace lab::ref {

namespace {
// float32 activations and parameters: the same algorithm with 4-lane partial sums.
__attribute__((noinline)) void ln_fwd_f32(const float* x, const float* gamma, const float* beta, float* y,
                                          float* mean_out, float* rstd_out, std::int64_t N, std::int64_t C) {
  const std::int64_t C4 = C / 4 * 4;
  for (std::int64_t i = 0; i < N; ++i) {
    const float* xr = x + i * C;
    v4f vs = splat(0.0f);
    for (std::int64_t c = 0; c < C4; c += 4) vs += loadu(xr + c);
    float sum = hsum(vs);
    for (std::int64_t c = C4; c < C; ++c) sum += xr[c];
    const float mean = sum / static_cast<float>(C);
    v4f vv = splat(0.0f);
    for (std::int64_t c = 0; c < C4; c += 4) {
      const v4f d = loadu(xr + c) - mean;
      vv += d * d;
    }
    float var = hsum(vv);
    for (std::int64_t c = C4; c < C; ++c) var += (xr[c] - mean) * (xr[c] - mean);
    const float rstd = 1.0f / std::sqrt(var / static_cast<float>(C) + kLayerNormEps);
    float* yr = y + i * C;
    for (std::int64_t c = 0; c < C4; c += 4)
      storeu(yr + c, (loadu(xr + c) - mean) * rstd * loadu(gamma + c) + loadu(beta + c));
    for (std::int64_t c = C4; c < C; ++c) yr[c] = (xr[c] - mean) * rstd * gamma[c] + beta[c];
    if (mean_out) mean_out[i] = mean;
    if (rstd_out) rstd_out[i] = rstd;
  }
}

__attribute__((noinline)) void ln_bwd_f32(const float* dy, const float* x, const float* mean, const float* rstd,
                                          const float* gamma, float* dx, float* dgamma, float* dbeta, std::int64_t N,
                                          std::int64_t C) {
  const std::int64_t C4 = C / 4 * 4;
  // dgamma, dbeta: four channels at a time, rows in order (the scalar path's order per channel).
  for (std::int64_t c = 0; c < C4; c += 4) {
    v4f ag = splat(0.0f), ab = splat(0.0f);
    for (std::int64_t i = 0; i < N; ++i) {
      const v4f d = loadu(dy + i * C + c);
      ag += d * ((loadu(x + i * C + c) - mean[i]) * rstd[i]);
      ab += d;
    }
    storeu(dgamma + c, ag);
    storeu(dbeta + c, ab);
  }
  for (std::int64_t c = C4; c < C; ++c) {
    float ag = 0.0f, ab = 0.0f;
    for (std::int64_t i = 0; i < N; ++i) {
      ag += dy[i * C + c] * ((x[i * C + c] - mean[i]) * rstd[i]);
      ab += dy[i * C + c];
    }
    dgamma[c] = ag;
    dbeta[c] = ab;
  }
  for (std::int64_t i = 0; i < N; ++i) {
    const float* dr = dy + i * C;
    const float* xr = x + i * C;
    const float m = mean[i], r = rstd[i];
    v4f vg = splat(0.0f), vgx = splat(0.0f);
    for (std::int64_t c = 0; c < C4; c += 4) {
      const v4f g = loadu(dr + c) * loadu(gamma + c);
      vg += g;
      vgx += g * ((loadu(xr + c) - m) * r);
    }
    float sum_g = hsum(vg), sum_gx = hsum(vgx);
    for (std::int64_t c = C4; c < C; ++c) {
      const float g = dr[c] * gamma[c];
      sum_g += g;
      sum_gx += g * ((xr[c] - m) * r);
    }
    const float mg = sum_g / static_cast<float>(C), mgx = sum_gx / static_cast<float>(C);
    float* dxr = dx + i * C;
    for (std::int64_t c = 0; c < C4; c += 4) {
      const v4f g = loadu(dr + c) * loadu(gamma + c);
      const v4f xh = (loadu(xr + c) - m) * r;
      storeu(dxr + c, loadu(dxr + c) + r * (g - mg - xh * mgx));
    }
    for (std::int64_t c = C4; c < C; ++c) {
      const float g = dr[c] * gamma[c];
      const float xh = (xr[c] - m) * r;
      dxr[c] = dxr[c] + r * (g - mg - xh * mgx);
    }
  }
}

template <class TX, class TP, class TY>
void ln_fwd(const TX* x, const TP* gamma, const TP* beta, TY* y, float* mean_out, float* rstd_out, std::int64_t N,
            std::int64_t C) {
  if constexpr (std::is_same_v<TX, float> && std::is_same_v<TP, float> && std::is_same_v<TY, float>) {
    ln_fwd_f32(x, gamma, beta, y, mean_out, rstd_out, N, C);
    return;
  }
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
  if constexpr (std::is_same_v<TX, float> && std::is_same_v<TP, float> && std::is_same_v<TG, float>) {
    ln_bwd_f32(dy, x, mean, rstd, gamma, dx, dgamma, dbeta, N, C);
    return;
  }
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
