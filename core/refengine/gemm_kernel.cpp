// The MR x 8 matmul micro-kernel (gemm_kernel.hpp).
// Why 5x8: V8 keeps the 10 accumulators, 2 B vectors, the broadcast and one product in its 15 free
// XMM registers (6x8 spills), and per k its dispatch of ~34 instructions carries 80 FLOPs instead of
// 4x8's 29 for 64, measured +7% in Chromium. Unrolling k spills (V8 hoists every load of the unrolled
// body to its top), and reading A in place from MR rows instead of packing measured 30% slower natively.
//
// LAB_WASM_RELAXED_MADD (only the lab_train_fma WASM module): each step is one f32x4.relaxed_madd,
// which V8 lowers to a hardware FMA where the CPU has one. That removes the kernel's bottleneck here
// (instruction dispatch: a mul and an add per product) and rounds once per step instead of twice,
// so results differ from the mul+add build in the last bits. Clang 14 (Debian's Emscripten 3.1.6)
// has only the pre-standard builtin, whose opcode (0xfd 0xaf 0x01) browsers no longer accept; it
// takes its operands in the same stack order, so scripts/wasm-relaxed-madd.mjs renames each one to
// the standard f32x4.relaxed_madd (0xfd 0x85 0x02: x·y + z) after linking. Unrenamed, that module
// would compute the wrong thing, so the build fails if the rename does not account for every one.
#include "refengine/gemm_kernel.hpp"
#include "refengine/simd.hpp"

namespace lab::ref::detail {

namespace {
// acc + x·y
inline v4f madd(v4f x, v4f y, v4f acc) {
#if defined(LAB_WASM_RELAXED_MADD)
  return __builtin_wasm_fma_f32x4(x, y, acc);  // becomes f32x4.relaxed_madd(x, y, acc) = x·y + acc
#else
  return acc + x * y;
#endif
}
}  // namespace

constexpr int kMR = static_cast<int>(kGemmMR);

__attribute__((noinline)) void kernel_tile(std::int64_t kc, const float* __restrict a, const float* __restrict b,
                                           std::int64_t ldb, float* __restrict c, std::int64_t ldc, int mode,
                                           float alpha, const float* __restrict bias) {
  v4f lo[kMR], hi[kMR];  // columns 0..3 and 4..7 of each row
#pragma GCC unroll 8
  for (int r = 0; r < kMR; ++r) lo[r] = hi[r] = v4f{0, 0, 0, 0};
  for (std::int64_t k = 0; k < kc; ++k) {
    const v4f b0 = *reinterpret_cast<const v4f*>(b);
    const v4f b1 = *reinterpret_cast<const v4f*>(b + 4);
#pragma GCC unroll 8
    for (int r = 0; r < kMR; ++r) {
      const v4f ar = splat(a[r]);
      lo[r] = madd(b0, ar, lo[r]);
      hi[r] = madd(b1, ar, hi[r]);
    }
    a += kMR;
    b += ldb;
  }
  if (mode == kFinal) {
    const v4f z = {0, 0, 0, 0};
    const v4f bias0 = bias ? loadu(bias) : z, bias1 = bias ? loadu(bias + 4) : z;
#pragma GCC unroll 8
    for (int r = 0; r < kMR; ++r) {
      storeu(c + r * ldc, alpha * lo[r] + bias0);
      storeu(c + r * ldc + 4, alpha * hi[r] + bias1);
    }
    return;
  }
#pragma GCC unroll 8
  for (int r = 0; r < kMR; ++r) {
    v4f* row = reinterpret_cast<v4f*>(c + r * ldc);
    if (mode == kAdd) {
      row[0] += lo[r];
      row[1] += hi[r];
    } else {
      row[0] = lo[r];
      row[1] = hi[r];
    }
  }
}

}  // namespace lab::ref::detail

namespace lab::ref {
const char* gemm_arithmetic() {
#if defined(LAB_WASM_RELAXED_MADD)
  return "fma";
#else
  return "mul+add";
#endif
}
}  // namespace lab::ref
