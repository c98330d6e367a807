// Goto-style blocking: for each MC-row block of A and each KC slice of K, pack A (4-row slivers,
// k-major) and, panel by panel, B (KC x 8); a 4x8 micro-kernel accumulates float32 into an MC x N
// block; after the last K slice the block is stored once (alpha, bias, rounding to C's type).
// The micro-kernel uses GCC/Clang vector types: SSE2 natively, wasm simd128 under -msimd128.
#include "refengine/gemm.hpp"
#include <stdexcept>
#include <string>

namespace lab::ref {

namespace {

typedef float v4f __attribute__((vector_size(16)));

inline std::int64_t round_up(std::int64_t x, std::int64_t m) { return (x + m - 1) / m * m; }

// c[4][8] (+)= sum_k a[k][0..4] (outer) b[k][0..8]; a and b packed and 16-byte aligned.
__attribute__((noinline)) void kernel_4x8(std::int64_t kc, const float* __restrict a, const float* __restrict b,
                                          float* __restrict c, std::int64_t ldc, bool accumulate) {
  v4f c00 = {0, 0, 0, 0}, c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00, c30 = c00, c31 = c00;
  for (std::int64_t k = 0; k < kc; ++k) {
    const v4f b0 = *reinterpret_cast<const v4f*>(b);
    const v4f b1 = *reinterpret_cast<const v4f*>(b + 4);
    const float a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
    c00 += b0 * a0;
    c01 += b1 * a0;
    c10 += b0 * a1;
    c11 += b1 * a1;
    c20 += b0 * a2;
    c21 += b1 * a2;
    c30 += b0 * a3;
    c31 += b1 * a3;
    a += 4;
    b += 8;
  }
  v4f* r0 = reinterpret_cast<v4f*>(c);
  v4f* r1 = reinterpret_cast<v4f*>(c + ldc);
  v4f* r2 = reinterpret_cast<v4f*>(c + 2 * ldc);
  v4f* r3 = reinterpret_cast<v4f*>(c + 3 * ldc);
  if (accumulate) {
    r0[0] += c00; r0[1] += c01; r1[0] += c10; r1[1] += c11;
    r2[0] += c20; r2[1] += c21; r3[0] += c30; r3[1] += c31;
  } else {
    r0[0] = c00; r0[1] = c01; r1[0] = c10; r1[1] = c11;
    r2[0] = c20; r2[1] = c21; r3[0] = c30; r3[1] = c31;
  }
}

// Pack rows [i0, i0+mc) x k-slice [p0, p0+kc) of A into 4-row slivers: dst[s][k][r].
template <class T>
__attribute__((noinline)) void pack_a(const MatView& a, std::int64_t i0, std::int64_t mc, std::int64_t p0,
                                      std::int64_t kc, float* __restrict dst) {
  const T* src = static_cast<const T*>(a.data);
  if (a.rs == 1 && i0 + mc <= a.rows) {  // A is a transposed row-major matrix: 4 rows are adjacent
    for (std::int64_t s = 0; s < mc; s += kGemmMR) {
      float* d = dst + s * kc;
      const T* col = src + (i0 + s) + p0 * a.cs;
      for (std::int64_t k = 0; k < kc; ++k)
        for (std::int64_t r = 0; r < kGemmMR; ++r) d[k * kGemmMR + r] = load(col + k * a.cs + r);
    }
    return;
  }
  for (std::int64_t s = 0; s < mc; s += kGemmMR) {
    for (std::int64_t r = 0; r < kGemmMR; ++r) {
      const std::int64_t i = i0 + s + r;
      float* d = dst + s * kc + r;
      if (i >= a.rows) {
        for (std::int64_t k = 0; k < kc; ++k) d[k * kGemmMR] = 0.0f;
        continue;
      }
      const T* row = src + i * a.rs + p0 * a.cs;
      if (a.cs == 1) {
        for (std::int64_t k = 0; k < kc; ++k) d[k * kGemmMR] = load(row + k);
      } else {
        for (std::int64_t k = 0; k < kc; ++k) d[k * kGemmMR] = load(row + k * a.cs);
      }
    }
  }
}

// Pack k-slice [p0, p0+kc) x columns [j0, j0+8) of B: dst[k][c], zero beyond N.
template <class T>
__attribute__((noinline)) void pack_b(const MatView& b, std::int64_t p0, std::int64_t kc, std::int64_t j0,
                                      float* __restrict dst) {
  const T* src = static_cast<const T*>(b.data);
  const std::int64_t nc = b.cols - j0 < kGemmNR ? b.cols - j0 : kGemmNR;
  if (b.cs == 1 && nc == kGemmNR) {
    for (std::int64_t k = 0; k < kc; ++k) {
      const T* row = src + (p0 + k) * b.rs + j0;
      for (std::int64_t c = 0; c < kGemmNR; ++c) dst[k * kGemmNR + c] = load(row + c);
    }
    return;
  }
  for (std::int64_t c = 0; c < kGemmNR; ++c) {
    if (c >= nc) {
      for (std::int64_t k = 0; k < kc; ++k) dst[k * kGemmNR + c] = 0.0f;
      continue;
    }
    const T* col = src + p0 * b.rs + (j0 + c) * b.cs;
    for (std::int64_t k = 0; k < kc; ++k) dst[k * kGemmNR + c] = load(col + k * b.rs);
  }
}

// C rows [i0, i0+mc) = alpha * acc + bias, rounded to C's storage type.
template <class TC, class TBias>
__attribute__((noinline)) void store_block(const float* __restrict acc, std::int64_t ldacc, std::int64_t i0,
                                           std::int64_t mc, const OutView& c, float alpha, const TBias* bias) {
  TC* dst = static_cast<TC*>(c.data);
  for (std::int64_t r = 0; r < mc; ++r) {
    const float* arow = acc + r * ldacc;
    TC* crow = dst + (i0 + r) * c.rs;
    if (bias) {
      for (std::int64_t j = 0; j < c.cols; ++j) store(crow + j, alpha * arow[j] + load(bias + j));
    } else {
      for (std::int64_t j = 0; j < c.cols; ++j) store(crow + j, alpha * arow[j]);
    }
  }
}

void pack_a_any(const MatView& a, std::int64_t i0, std::int64_t mc, std::int64_t p0, std::int64_t kc, float* dst) {
  dispatch(a.dtype, [&](auto tag) { pack_a<decltype(tag)>(a, i0, mc, p0, kc, dst); });
}
void pack_b_any(const MatView& b, std::int64_t p0, std::int64_t kc, std::int64_t j0, float* dst) {
  dispatch(b.dtype, [&](auto tag) { pack_b<decltype(tag)>(b, p0, kc, j0, dst); });
}
void store_any(const float* acc, std::int64_t ldacc, std::int64_t i0, std::int64_t mc, const OutView& c,
               float alpha, const Buf& bias) {
  dispatch(c.dtype, [&](auto ctag) {
    using TC = decltype(ctag);
    if (!bias.data) {
      store_block<TC, float>(acc, ldacc, i0, mc, c, alpha, nullptr);
      return;
    }
    dispatch(bias.dtype, [&](auto btag) {
      using TB = decltype(btag);
      store_block<TC, TB>(acc, ldacc, i0, mc, c, alpha, static_cast<const TB*>(bias.data));
    });
  });
}

}  // namespace

std::int64_t gemm_workspace_floats(std::int64_t max_n) {
  return kGemmMC * kGemmKC + kGemmKC * kGemmNR + kGemmMC * round_up(max_n < 1 ? 1 : max_n, kGemmNR);
}

void gemm(KernelCtx& ctx, const MatView& a, const MatView& b, const OutView& c, float alpha, const Buf& bias) {
  const std::int64_t m = a.rows, k = a.cols, n = b.cols;
  if (b.rows != k || c.rows != m || c.cols != n || (bias.data && bias.numel != n))
    throw std::logic_error("gemm: shape mismatch (" + std::to_string(m) + "x" + std::to_string(k) + " by " +
                           std::to_string(b.rows) + "x" + std::to_string(n) + " into " + std::to_string(c.rows) +
                           "x" + std::to_string(c.cols) + ")");
  const std::int64_t ldacc = round_up(n < 1 ? 1 : n, kGemmNR);
  if (ctx.workspace_floats < gemm_workspace_floats(n) || !ctx.workspace)
    throw std::logic_error("gemm: workspace too small for N = " + std::to_string(n));
  if (m == 0 || n == 0) return;
  float* pa = ctx.workspace;                       // kGemmMC x kGemmKC
  float* pb = pa + kGemmMC * kGemmKC;              // kGemmKC x kGemmNR
  float* acc = pb + kGemmKC * kGemmNR;             // kGemmMC x ldacc
  for (std::int64_t i0 = 0; i0 < m; i0 += kGemmMC) {
    const std::int64_t mc = m - i0 < kGemmMC ? m - i0 : kGemmMC;
    const std::int64_t mc_pad = round_up(mc, kGemmMR);
    if (k == 0)
      for (std::int64_t x = 0; x < mc_pad * ldacc; ++x) acc[x] = 0.0f;
    for (std::int64_t p0 = 0; p0 < k; p0 += kGemmKC) {
      const std::int64_t kc = k - p0 < kGemmKC ? k - p0 : kGemmKC;
      pack_a_any(a, i0, mc_pad, p0, kc, pa);
      for (std::int64_t j0 = 0; j0 < n; j0 += kGemmNR) {
        pack_b_any(b, p0, kc, j0, pb);
        for (std::int64_t s = 0; s < mc_pad; s += kGemmMR)
          kernel_4x8(kc, pa + s * kc, pb, acc + s * ldacc + j0, ldacc, p0 > 0);
      }
    }
    store_any(acc, ldacc, i0, mc, c, alpha, bias);
  }
  ctx.matmul_flops += 2 * m * n * k;
}

}  // namespace lab::ref
