// Blocked matrix multiply for the reference engine: C = alpha * A·B (+ bias), any storage types,
// float32 accumulation over the whole K (one rounding per output element, like a tensor core).
// A and B are strided views, so transposes cost nothing but a different packing loop. The
// register tile is 5x8 (gemm.cpp says why; larger tiles spill in WASM SIMD). No threads, no I/O.
#pragma once
#include <cstdint>
#include "refengine/clock.hpp"
#include "refengine/dtype.hpp"

namespace lab::ref {

// Element (i, j) of a view lives at data[i*rs + j*cs] (in elements of `dtype`).
struct MatView {
  const void* data = nullptr;
  DType dtype = DType::f32;
  std::int64_t rows = 0, cols = 0, rs = 0, cs = 1;
  MatView transposed() const { return {data, dtype, cols, rows, cs, rs}; }
};
// Output rows are `rs` apart; columns are contiguous.
struct OutView {
  void* data = nullptr;
  DType dtype = DType::f32;
  std::int64_t rows = 0, cols = 0, rs = 0;
};

// Row-major contiguous helpers.
inline MatView mat(const Buf& b, std::int64_t rows, std::int64_t cols) { return {b.data, b.dtype, rows, cols, cols, 1}; }
inline OutView out(const Buf& b, std::int64_t rows, std::int64_t cols) { return {b.data, b.dtype, rows, cols, cols}; }

// Blocking constants (float32 elements). MC x KC block of A, KC x NR panel of B, MC x N accumulator.
// MC is a multiple of MR (MC = 260, packing each B panel half as often, measured no faster).
inline constexpr std::int64_t kGemmMR = 5, kGemmNR = 8, kGemmMC = 130, kGemmKC = 256;
static_assert(kGemmMC % kGemmMR == 0, "a packed A block holds whole slivers");
static_assert(kGemmMR >= 4, "pack_a moves the first four rows of a sliver as vectors");

// Floats of workspace a gemm with at most `max_n` output columns needs (the inventory sizes it).
std::int64_t gemm_workspace_floats(std::int64_t max_n);

// The executor's context for kernels that need scratch and count work: the packing/accumulator
// workspace (a tagged tensor of the inventory) and the matmul FLOPs executed so far.
struct KernelCtx {
  float* workspace = nullptr;
  std::int64_t workspace_floats = 0;
  std::int64_t matmul_flops = 0;
};

// C = alpha * A·B + bias (bias: length N in `bias.dtype`, or bias.data == nullptr).
// Throws std::logic_error on a shape mismatch or a too-small workspace. Adds 2·M·N·K to ctx.
void gemm(KernelCtx& ctx, const MatView& a, const MatView& b, const OutView& c, float alpha = 1.0f,
          const Buf& bias = Buf{});

// "fma" where this build's kernel fuses each multiply-add (one rounding; the "fma" WASM builds),
// else "mul+add" (two roundings; native and the other WASM modules).
const char* gemm_arithmetic();

// The "measured peak" that MFU is reported against (peak.cpp): the best rate (FLOP/s) of this gemm
// on a 256x256x256 float32 product, over batches of repetitions each timed across at least
// kSpanTicks ticks of `clock` (whose tick is `resolution_seconds`) and kPeakMinSpanSeconds, for
// about `seconds` and at least kPeakSpans batches. Uses its own buffers, outside any training inventory.
struct PeakMeasurement {
  double flops_per_s = 0.0;
  double resolution_seconds = 0.0;    // the clock's tick the spans were sized by
  std::int64_t repetitions_per_span = 0;
  std::int64_t spans = 0;             // timed batches of that many repetitions
  double best_span_seconds = 0.0;     // the span the best rate came from
};
constexpr std::int64_t kPeakSpans = 3;
constexpr double kPeakMinSpanSeconds = 0.1;
PeakMeasurement measure_matmul_peak(double seconds, const Clock& clock, double resolution_seconds);

}  // namespace lab::ref
