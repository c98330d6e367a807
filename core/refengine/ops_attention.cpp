// Causal self-attention with materialised scores, and the softmax it uses. Per (batch, head):
// S = Q·Kᵀ/√hd, P = causal softmax(S), y = P·V — three strided gemms and a row softmax. Backward:
// dP = dy·Vᵀ, dV = Pᵀ·dy, dS = P ⊙ (dP − rowsum(dP ⊙ P)), dQ = dS·K/√hd, dK = dSᵀ·Q/√hd.
#include <cmath>
#include <stdexcept>
#include <type_traits>
#include "refengine/fastmath.hpp"
#include "refengine/ops.hpp"
#include "refengine/simd.hpp"

namespace lab::ref {

namespace {
// float32 rows: exp computed once (stored, then scaled), four lanes at a time and the exps in
// blocks of four vectors (simd.hpp says why). The max is order-free; sums run in the scalar order.
__attribute__((noinline)) void softmax_rows_f32(const float* x, float* y, std::int64_t rows, std::int64_t cols,
                                                bool causal) {
  constexpr int kBlock = 4;
  for (std::int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * cols;
    float* yr = y + r * cols;
    const std::int64_t valid = causal ? (r + 1 < cols ? r + 1 : cols) : cols;
    float mx = xr[0];
    std::int64_t j = 1;
    if (valid >= 8) {  // lanes keep the same "x > m ? x : m" rule; a NaN anywhere ends as all-NaN either way
      v4f m4 = loadu(xr);
      for (j = 4; j + 4 <= valid; j += 4) m4 = clamp_below(loadu(xr + j), m4);
      for (int q = 0; q < 4; ++q) mx = m4[q] > mx ? m4[q] : mx;
    }
    for (; j < valid; ++j) mx = xr[j] > mx ? xr[j] : mx;
    v4f vsum = splat(0.0f);
    j = 0;
    for (; j + 4 * kBlock <= valid; j += 4 * kBlock) {
      v4f e[kBlock];
#pragma GCC unroll 16
      for (int q = 0; q < kBlock; ++q) e[q] = loadu(xr + j + 4 * q) - mx;
      exp_approx_block<kBlock>(e);
#pragma GCC unroll 16
      for (int q = 0; q < kBlock; ++q) {
        storeu(yr + j + 4 * q, e[q]);
        vsum += e[q];
      }
    }
    for (; j + 4 <= valid; j += 4) {
      const v4f e = exp_approx_v4(loadu(xr + j) - mx);
      storeu(yr + j, e);
      vsum += e;
    }
    float sum = (vsum[0] + vsum[1]) + (vsum[2] + vsum[3]);
    for (; j < valid; ++j) {
      yr[j] = exp_approx(xr[j] - mx);
      sum += yr[j];
    }
    const float inv = 1.0f / sum;
    for (j = 0; j + 4 <= valid; j += 4) storeu(yr + j, loadu(yr + j) * inv);
    for (; j < valid; ++j) yr[j] *= inv;
    for (; j < cols; ++j) yr[j] = 0.0f;
  }
}

template <class T>
__attribute__((noinline)) void softmax_rows(const T* x, T* y, std::int64_t rows, std::int64_t cols, bool causal) {
  if constexpr (std::is_same_v<T, float>) {
    softmax_rows_f32(x, y, rows, cols, causal);
    return;
  }
  for (std::int64_t r = 0; r < rows; ++r) {
    const T* xr = x + r * cols;
    T* yr = y + r * cols;
    const std::int64_t valid = causal ? (r + 1 < cols ? r + 1 : cols) : cols;
    float mx = load(xr);
    for (std::int64_t j = 1; j < valid; ++j) mx = load(xr + j) > mx ? load(xr + j) : mx;
    float sum = 0.0f;
    for (std::int64_t j = 0; j < valid; ++j) sum += exp_approx(load(xr + j) - mx);
    const float inv = 1.0f / sum;
    for (std::int64_t j = 0; j < valid; ++j) store(yr + j, exp_approx(load(xr + j) - mx) * inv);
    for (std::int64_t j = valid; j < cols; ++j) store(yr + j, 0.0f);
  }
}

__attribute__((noinline)) void softmax_rows_bwd_f32(const float* dy, const float* y, float* dx, std::int64_t rows,
                                                    std::int64_t cols, bool causal) {
  for (std::int64_t r = 0; r < rows; ++r) {
    const float* dyr = dy + r * cols;
    const float* yr = y + r * cols;
    float* dxr = dx + r * cols;
    const std::int64_t valid = causal ? (r + 1 < cols ? r + 1 : cols) : cols;
    const std::int64_t v4n = valid / 4 * 4;
    v4f vd = splat(0.0f);
    for (std::int64_t j = 0; j < v4n; j += 4) vd += loadu(dyr + j) * loadu(yr + j);
    float dot = hsum(vd);
    for (std::int64_t j = v4n; j < valid; ++j) dot += dyr[j] * yr[j];
    for (std::int64_t j = 0; j < v4n; j += 4) storeu(dxr + j, loadu(yr + j) * (loadu(dyr + j) - dot));
    for (std::int64_t j = v4n; j < valid; ++j) dxr[j] = yr[j] * (dyr[j] - dot);
    for (std::int64_t j = valid; j < cols; ++j) dxr[j] = 0.0f;
  }
}

template <class T>
__attribute__((noinline)) void softmax_rows_bwd(const T* dy, const T* y, T* dx, std::int64_t rows, std::int64_t cols,
                                                bool causal) {
  if constexpr (std::is_same_v<T, float>) {
    softmax_rows_bwd_f32(dy, y, dx, rows, cols, causal);
    return;
  }
  for (std::int64_t r = 0; r < rows; ++r) {
    const T* dyr = dy + r * cols;
    const T* yr = y + r * cols;
    T* dxr = dx + r * cols;
    const std::int64_t valid = causal ? (r + 1 < cols ? r + 1 : cols) : cols;
    float dot = 0.0f;
    for (std::int64_t j = 0; j < valid; ++j) dot += load(dyr + j) * load(yr + j);
    for (std::int64_t j = 0; j < valid; ++j) store(dxr + j, load(yr + j) * (load(dyr + j) - dot));
    for (std::int64_t j = valid; j < cols; ++j) store(dxr + j, 0.0f);
  }
}

// Views of one head's q, k, v inside qkv (B, T, 3C), of y / dy (B, T, C), and of a T x T block.
struct HeadViews {
  MatView q, k, v, yv;
  OutView q_out, k_out, v_out, y_out;
};
HeadViews head_views(const AttnShape& s, const Buf& qkv, const Buf& y, std::int64_t b, std::int64_t h) {
  const std::int64_t hd = s.C / s.H;
  const Buf base = slice(qkv, b * s.T * 3 * s.C + h * hd, 0);
  const Buf kb = slice(base, s.C, 0), vb = slice(base, 2 * s.C, 0);
  const Buf yb = slice(y, b * s.T * s.C + h * hd, 0);
  HeadViews v;
  v.q = {base.data, qkv.dtype, s.T, hd, 3 * s.C, 1};
  v.k = {kb.data, qkv.dtype, s.T, hd, 3 * s.C, 1};
  v.v = {vb.data, qkv.dtype, s.T, hd, 3 * s.C, 1};
  v.yv = {yb.data, y.dtype, s.T, hd, s.C, 1};
  v.q_out = {base.data, qkv.dtype, s.T, hd, 3 * s.C};
  v.k_out = {kb.data, qkv.dtype, s.T, hd, 3 * s.C};
  v.v_out = {vb.data, qkv.dtype, s.T, hd, 3 * s.C};
  v.y_out = {yb.data, y.dtype, s.T, hd, s.C};
  return v;
}

void check_shape(const AttnShape& s) {
  if (s.H < 1 || s.C % s.H != 0) throw std::logic_error("attention: C must be a multiple of H");
}

// P (T x T) = causal softmax(Q·Kᵀ / √hd) for one head.
void head_probs(KernelCtx& ctx, const AttnShape& s, const HeadViews& hv, const Buf& p) {
  const float scale = 1.0f / std::sqrt(static_cast<float>(s.C / s.H));
  gemm(ctx, hv.q, hv.k.transposed(), out(p, s.T, s.T), scale);
  softmax_forward(p, p, s.T, s.T, true);
}
}  // namespace

void softmax_forward(const Buf& x, const Buf& y, std::int64_t rows, std::int64_t cols, bool causal) {
  dispatch(x.dtype, [&](auto t) {
    using T = decltype(t);
    softmax_rows(x.as<T>(), y.as<T>(), rows, cols, causal);
  });
}

void softmax_backward(const Buf& dy, const Buf& y, const Buf& dx, std::int64_t rows, std::int64_t cols, bool causal) {
  dispatch(dy.dtype, [&](auto t) {
    using T = decltype(t);
    softmax_rows_bwd(dy.as<T>(), y.as<T>(), dx.as<T>(), rows, cols, causal);
  });
}

void attention_forward(KernelCtx& ctx, const AttnShape& s, const Buf& qkv, const Buf& y, const Buf& probs,
                       const Buf& head_scratch) {
  check_shape(s);
  const std::int64_t TT = s.T * s.T;
  for (std::int64_t b = 0; b < s.B; ++b)
    for (std::int64_t h = 0; h < s.H; ++h) {
      const HeadViews hv = head_views(s, qkv, y, b, h);
      const Buf p = probs.data ? slice(probs, (b * s.H + h) * TT, TT) : slice(head_scratch, 0, TT);
      head_probs(ctx, s, hv, p);
      gemm(ctx, mat(p, s.T, s.T), hv.v, hv.y_out);
    }
}

void attention_backward(KernelCtx& ctx, const AttnShape& s, const Buf& dy, const Buf& qkv, const Buf& probs,
                        const Buf& probs_scratch, const Buf& dprobs_scratch, const Buf& dqkv) {
  check_shape(s);
  const std::int64_t TT = s.T * s.T;
  const float scale = 1.0f / std::sqrt(static_cast<float>(s.C / s.H));
  for (std::int64_t b = 0; b < s.B; ++b)
    for (std::int64_t h = 0; h < s.H; ++h) {
      const HeadViews hv = head_views(s, qkv, dy, b, h);   // hv.yv is this head's slice of dy
      const HeadViews dv = head_views(s, dqkv, dy, b, h);  // output slots in dqkv
      Buf p;
      if (probs.data) {
        p = slice(probs, (b * s.H + h) * TT, TT);
      } else {
        p = slice(probs_scratch, 0, TT);
        head_probs(ctx, s, hv, p);
      }
      const Buf dp = slice(dprobs_scratch, 0, TT);
      gemm(ctx, hv.yv, hv.v.transposed(), out(dp, s.T, s.T));      // dP = dy·Vᵀ
      gemm(ctx, mat(p, s.T, s.T).transposed(), hv.yv, dv.v_out);    // dV = Pᵀ·dy
      softmax_backward(dp, p, dp, s.T, s.T, true);                   // dS, in place
      gemm(ctx, mat(dp, s.T, s.T), hv.k, dv.q_out, scale);          // dQ = dS·K/√hd
      gemm(ctx, mat(dp, s.T, s.T).transposed(), hv.q, dv.k_out, scale);  // dK = dSᵀ·Q/√hd
    }
}

}  // namespace lab::ref
