// The matmul micro-kernel, in a translation unit of its own so that the build can compile it a
// second time for WASM with relaxed-SIMD fused multiply-add (lab_train_fma; see gemm_kernel.cpp).
// Internal to gemm.cpp; not part of the engine's interface.
#pragma once
#include <cstdint>
#include "refengine/gemm.hpp"

namespace lab::ref::detail {

enum KernelMode { kStore = 0, kAdd = 1, kFinal = 2 };

// The MR x 8 register tile (MR = kGemmMR): Σ_k a[k][0..MR] (outer) b[k][0..8] over one K slice, then
// written out by `mode`: kStore (c = tile), kAdd (c += tile) into a 16-byte aligned accumulator
// block, or kFinal (c = alpha·tile + bias[0..8], bias may be null) straight into a float32 C
// row-major with stride ldc. a is a packed MR-row sliver, b a KC x 8 panel with rows ldb apart.
void kernel_tile(std::int64_t kc, const float* __restrict a, const float* __restrict b, std::int64_t ldb,
                 float* __restrict c, std::int64_t ldc, int mode, float alpha, const float* __restrict bias);

}  // namespace lab::ref::detail
