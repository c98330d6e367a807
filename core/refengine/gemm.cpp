// Goto-style blocking: for each MC-row block of A and each KC slice of K, pack A (MR-row slivers,
// k-major) and, panel by panel, B (KC x 8); an MR x 8 micro-kernel multiplies. With one K slice each
// tile goes straight to C (alpha, bias, rounding); with several, float32 sums collect in an MC x N
// block stored once after the last slice.
// The micro-kernel uses GCC/Clang vector types: SSE2 natively, wasm simd128 under -msimd128.
#include "refengine/gemm.hpp"
#include "refengine/gemm_kernel.hpp"
#include <stdexcept>
#include <type_traits>
#include <string>
#include "refengine/simd.hpp"

namespace lab::ref {

namespace {

inline std::int64_t round_up(std::int64_t x, std::int64_t m) { return (x + m - 1) / m * m; }

using detail::kernel_tile;
using detail::kAdd;
using detail::kFinal;
using detail::kStore;

// The 4x4 transpose both packers use: row q of the block (x_q) becomes column q, i.e. element k of
// every x_q lands in d + k*stride, lanes 0..3.
inline void store_transposed_4x4(v4f x0, v4f x1, v4f x2, v4f x3, float* d, std::int64_t stride) {
  const v4f t0 = __builtin_shufflevector(x0, x1, 0, 4, 1, 5), t1 = __builtin_shufflevector(x0, x1, 2, 6, 3, 7);
  const v4f t2 = __builtin_shufflevector(x2, x3, 0, 4, 1, 5), t3 = __builtin_shufflevector(x2, x3, 2, 6, 3, 7);
  storeu(d, __builtin_shufflevector(t0, t2, 0, 1, 4, 5));
  storeu(d + stride, __builtin_shufflevector(t0, t2, 2, 3, 6, 7));
  storeu(d + 2 * stride, __builtin_shufflevector(t1, t3, 0, 1, 4, 5));
  storeu(d + 3 * stride, __builtin_shufflevector(t1, t3, 2, 3, 6, 7));
}

// Pack rows [i0, i0+mc) x k-slice [p0, p0+kc) of A into MR-row slivers: dst[s][k][r]. Rows past
// the end of A are zeros (the kernel multiplies them; gemm_impl never stores them). Each full
// sliver takes a fast path for its layout; only a ragged last sliver goes element by element.
// Hot loops step pointers rather than index them: Emscripten turns off LLVM's loop strength
// reduction, so `base + k * stride` would cost a multiply per access in WASM.
template <class T>
__attribute__((noinline)) void pack_a(const MatView& a, std::int64_t i0, std::int64_t mc, std::int64_t p0,
                                      std::int64_t kc, float* __restrict dst) {
  const T* src = static_cast<const T*>(a.data);
  std::int64_t s0 = 0;  // first sliver the per-sliver loop below packs
  if constexpr (std::is_same_v<T, float>) {
    if (a.rs == 1) {  // A is a transposed row-major matrix: a sliver's MR rows are adjacent in memory
      // Full slivers with k outermost: each k reads one contiguous stretch of a stored row and
      // appends MR floats to every sliver (2x faster than sliver by sliver, whose column walk
      // through rows a power-of-two stride apart keeps missing L1).
      const std::int64_t rows_here = a.rows - i0 < mc ? a.rows - i0 : mc;
      const std::int64_t full = rows_here / kGemmMR;
      const float* row = src + i0 + p0 * a.cs;
      for (std::int64_t k = 0; k < kc; ++k, row += a.cs) {
        const float* col = row;
        float* d = dst + k * kGemmMR;
        for (std::int64_t q = 0; q < full; ++q, col += kGemmMR, d += kGemmMR * kc) {
          storeu(d, loadu(col));  // rows 0..3
          for (std::int64_t r = 4; r < kGemmMR; ++r) d[r] = col[r];
        }
      }
      s0 = full * kGemmMR;
    }
  }
  for (std::int64_t s = s0; s < mc; s += kGemmMR) {
    float* d = dst + s * kc;
    const bool full = i0 + s + kGemmMR <= a.rows;
    if constexpr (!std::is_same_v<T, float>) {
      if (full && a.rs == 1) {  // transposed 16-bit A: the sliver's MR rows are adjacent
        const T* col = src + (i0 + s) + p0 * a.cs;
        for (std::int64_t k = 0; k < kc; ++k)
          for (std::int64_t r = 0; r < kGemmMR; ++r) d[k * kGemmMR + r] = load(col + k * a.cs + r);
        continue;
      }
    }
    if constexpr (std::is_same_v<T, float>) {
      if (full && a.cs == 1) {  // row-major: 4x4 vector transposes for rows 0..3, row 4 by lanes
        const float* r0 = src + (i0 + s) * a.rs + p0;
        const float* r1 = r0 + a.rs;
        const float* r2 = r0 + 2 * a.rs;
        const float* r3 = r0 + 3 * a.rs;
        const float* r4 = r0 + 4 * a.rs;
        static_assert(kGemmMR == 5, "this path moves row 4 with rows 0..3");
        float* dd = d;
        std::int64_t k = 0;
        for (; k + 4 <= kc; k += 4, r0 += 4, r1 += 4, r2 += 4, r3 += 4, r4 += 4, dd += 4 * kGemmMR) {
          const v4f x4 = loadu(r4);
          store_transposed_4x4(loadu(r0), loadu(r1), loadu(r2), loadu(r3), dd, kGemmMR);
          // Row 4 goes into the slots the 4-wide stores above leave alone.
          dd[4] = x4[0];
          dd[kGemmMR + 4] = x4[1];
          dd[2 * kGemmMR + 4] = x4[2];
          dd[3 * kGemmMR + 4] = x4[3];
        }
        for (; k < kc; ++k, ++r0, ++r1, ++r2, ++r3, ++r4, dd += kGemmMR) {
          dd[0] = *r0;
          dd[1] = *r1;
          dd[2] = *r2;
          dd[3] = *r3;
          dd[4] = *r4;
        }
        continue;
      }
    }
    for (std::int64_t r = 0; r < kGemmMR; ++r) {
      const std::int64_t i = i0 + s + r;
      float* dr = d + r;
      if (i >= a.rows) {
        for (std::int64_t k = 0; k < kc; ++k) dr[k * kGemmMR] = 0.0f;
        continue;
      }
      const T* row = src + i * a.rs + p0 * a.cs;
      for (std::int64_t k = 0; k < kc; ++k) dr[k * kGemmMR] = load(row + k * a.cs);
    }
  }
}

// Pack k-slice [p0, p0+kc) x columns [j0, j0+8) of B: dst[k][c], zero beyond N.
template <class T>
__attribute__((noinline)) void pack_b(const MatView& b, std::int64_t p0, std::int64_t kc, std::int64_t j0,
                                      float* __restrict dst) {
  const T* src = static_cast<const T*>(b.data);
  const std::int64_t nc = b.cols - j0 < kGemmNR ? b.cols - j0 : kGemmNR;
  if constexpr (std::is_same_v<T, float>) {
    if (b.rs == 1 && nc == kGemmNR) {  // B is a transposed row-major matrix: 4x4 vector transposes
      const std::int64_t k4 = kc / 4 * 4;
      for (std::int64_t c0 = 0; c0 < kGemmNR; c0 += 4) {
        const float* q0 = src + p0 + (j0 + c0) * b.cs;
        const float* q1 = q0 + b.cs;
        const float* q2 = q0 + 2 * b.cs;
        const float* q3 = q0 + 3 * b.cs;
        float* d = dst + c0;
        for (std::int64_t k = 0; k < k4; k += 4, q0 += 4, q1 += 4, q2 += 4, q3 += 4, d += 4 * kGemmNR) {
          store_transposed_4x4(loadu(q0), loadu(q1), loadu(q2), loadu(q3), d, kGemmNR);
        }
        for (std::int64_t k = k4; k < kc; ++k, ++q0, ++q1, ++q2, ++q3, d += kGemmNR) {
          d[0] = *q0;
          d[1] = *q1;
          d[2] = *q2;
          d[3] = *q3;
        }
      }
      return;
    }
    if (b.cs == 1 && nc == kGemmNR) {  // two vector copies per k (a plain loop becomes a memcpy call)
      const float* row = src + p0 * b.rs + j0;
      float* d = dst;
      for (std::int64_t k = 0; k < kc; ++k, row += b.rs, d += kGemmNR) {
        storeu(d, loadu(row));
        storeu(d + 4, loadu(row + 4));
      }
      return;
    }
  }
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

// Rows [0, mr) x columns [0, nc) of an accumulator block (row stride ldacc) → C at (i0, j0):
// alpha · acc + bias, rounded to C's type.
template <class TC, class TB>
inline void store_rows(const float* __restrict acc, std::int64_t ldacc, std::int64_t mr, std::int64_t nc,
                       const OutView& c, std::int64_t i0, std::int64_t j0, float alpha, const TB* bias) {
  TC* dst = static_cast<TC*>(c.data);
  for (std::int64_t r = 0; r < mr; ++r) {
    const float* arow = acc + r * ldacc;
    TC* crow = dst + (i0 + r) * c.rs + j0;
    std::int64_t j = 0;
    if constexpr (std::is_same_v<TC, float>) {
      if (bias) {
        if constexpr (std::is_same_v<TB, float>)
          for (; j + 4 <= nc; j += 4) storeu(crow + j, alpha * loadu(arow + j) + loadu(bias + j0 + j));
      } else {
        for (; j + 4 <= nc; j += 4) storeu(crow + j, alpha * loadu(arow + j));
      }
    }
    for (; j < nc; ++j) store(crow + j, alpha * arow[j] + (bias ? load(bias + j0 + j) : 0.0f));
  }
}

void pack_a_any(const MatView& a, std::int64_t i0, std::int64_t mc, std::int64_t p0, std::int64_t kc, float* dst) {
  dispatch(a.dtype, [&](auto tag) { pack_a<decltype(tag)>(a, i0, mc, p0, kc, dst); });
}
void pack_b_any(const MatView& b, std::int64_t p0, std::int64_t kc, std::int64_t j0, float* dst) {
  dispatch(b.dtype, [&](auto tag) { pack_b<decltype(tag)>(b, p0, kc, j0, dst); });
}

template <class TC, class TB>
void gemm_impl(float* ws, const MatView& a, const MatView& b, const OutView& c, float alpha, const TB* bias) {
  const std::int64_t m = a.rows, k = a.cols, n = b.cols;
  const std::int64_t ldacc = round_up(n, kGemmNR);
  float* pa = ws;                        // kGemmMC x kGemmKC: packed A block
  float* pb = pa + kGemmMC * kGemmKC;    // kGemmKC x kGemmNR: packed B panel
  float* acc = pb + kGemmKC * kGemmNR;   // kGemmMC x ldacc: float32 sums across K slices
  alignas(16) float tile[kGemmMR * kGemmNR];
  const bool single = k <= kGemmKC;      // one K slice: tiles go straight to C
  // float32 C and bias: full tiles are finished inside the kernel.
  constexpr bool direct_c = std::is_same_v<TC, float> && std::is_same_v<TB, float>;
  if (k == 0) {
    for (std::int64_t i = 0; i < m; ++i) {
      for (std::int64_t x = 0; x < ldacc; ++x) acc[x] = 0.0f;
      store_rows<TC, TB>(acc, ldacc, 1, n, c, i, 0, alpha, bias);
    }
    return;
  }
  // K <= MC (one K slice, the accumulator block then unused and at least K x ldacc floats) and
  // several MC blocks of A: pack every B panel once, up front, into the accumulator block, rather
  // than once per block (a 512-token batch is four blocks).
  const bool b_once = k <= kGemmMC && m > kGemmMC;
  static_assert(kGemmMC <= kGemmKC, "K <= MC means a single K slice");
  if (b_once)
    for (std::int64_t j0 = 0; j0 < n; j0 += kGemmNR) pack_b_any(b, 0, k, j0, acc + j0 * k);
  for (std::int64_t i0 = 0; i0 < m; i0 += kGemmMC) {
    const std::int64_t mc = m - i0 < kGemmMC ? m - i0 : kGemmMC;
    const std::int64_t mc_pad = round_up(mc, kGemmMR);
    for (std::int64_t p0 = 0; p0 < k; p0 += kGemmKC) {
      const std::int64_t kc = k - p0 < kGemmKC ? k - p0 : kGemmKC;
      pack_a_any(a, i0, mc_pad, p0, kc, pa);
      for (std::int64_t j0 = 0; j0 < n; j0 += kGemmNR) {
        const std::int64_t nc = n - j0 < kGemmNR ? n - j0 : kGemmNR;
        const float* panel = b_once ? acc + j0 * k : pb;
        if (!b_once) pack_b_any(b, p0, kc, j0, pb);
        for (std::int64_t s = 0; s < mc_pad; s += kGemmMR) {
          const float* as = pa + s * kc;
          const std::int64_t mr = mc - s < kGemmMR ? mc - s : kGemmMR;
          if constexpr (direct_c) {
            if (single && mr == kGemmMR && nc == kGemmNR) {
              kernel_tile(kc, as, panel, kGemmNR, static_cast<float*>(c.data) + (i0 + s) * c.rs + j0, c.rs, kFinal,
                          alpha, bias ? bias + j0 : nullptr);
              continue;
            }
          }
          if (single) {
            kernel_tile(kc, as, panel, kGemmNR, tile, kGemmNR, kStore, 1.0f, nullptr);
            store_rows<TC, TB>(tile, kGemmNR, mr, nc, c, i0 + s, j0, alpha, bias);
          } else {
            kernel_tile(kc, as, panel, kGemmNR, acc + s * ldacc + j0, ldacc, p0 > 0 ? kAdd : kStore, 1.0f, nullptr);
          }
        }
      }
    }
    if (!single) store_rows<TC, TB>(acc, ldacc, mc, n, c, i0, 0, alpha, bias);
  }
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
  if (ctx.workspace_floats < gemm_workspace_floats(n) || !ctx.workspace)
    throw std::logic_error("gemm: workspace too small for N = " + std::to_string(n));
  if (m == 0 || n == 0) return;
  dispatch(c.dtype, [&](auto ctag) {
    using TC = decltype(ctag);
    if (!bias.data) {
      gemm_impl<TC, float>(ctx.workspace, a, b, c, alpha, nullptr);
      return;
    }
    dispatch(bias.dtype, [&](auto btag) {
      using TB = decltype(btag);
      gemm_impl<TC, TB>(ctx.workspace, a, b, c, alpha, static_cast<const TB*>(bias.data));
    });
  });
  ctx.matmul_flops += 2 * m * n * k;
}

}  // namespace lab::ref
