// 4-wide float vectors through GCC/Clang vector extensions: SSE2 natively, wasm simd128 under
// -msimd128, plain scalar code elsewhere. Only what the hot loops need; every function computes
// exactly the same IEEE operations as its scalar twin in fastmath.hpp, so results are bit-identical.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace lab::ref {

typedef float v4f __attribute__((vector_size(16)));
typedef std::int32_t v4i __attribute__((vector_size(16)));

inline v4f splat(float x) { return v4f{x, x, x, x}; }
inline v4f loadu(const float* p) {
  v4f v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void storeu(float* p, v4f v) { std::memcpy(p, &v, sizeof v); }

// Correctly rounded square root of each lane (IEEE, so the same bits as std::sqrt).
inline v4f sqrt_v4(v4f x) {
#if defined(__wasm_simd128__)
  return (v4f)wasm_f32x4_sqrt((v128_t)x);
#elif defined(__SSE2__)
  return (v4f)_mm_sqrt_ps((__m128)x);
#else
  return v4f{std::sqrt(x[0]), std::sqrt(x[1]), std::sqrt(x[2]), std::sqrt(x[3])};
#endif
}

// Sum of the four lanes, in a fixed order.
inline float hsum(v4f v) { return (v[0] + v[1]) + (v[2] + v[3]); }

// x > hi ? hi : x and x < lo ? lo : x, lane by lane (a NaN stays NaN, as in the scalar twin).
// wasm's pmin/pmax are exactly these selects and one instruction each in V8; the generic select
// becomes f32x4.min/max, whose NaN rules cost V8 about seven instructions.
inline v4f clamp_above(v4f x, v4f hi) {
#if defined(__wasm_simd128__)
  return (v4f)wasm_f32x4_pmin((v128_t)x, (v128_t)hi);
#else
  return x > hi ? hi : x;
#endif
}
inline v4f clamp_below(v4f x, v4f lo) {
#if defined(__wasm_simd128__)
  return (v4f)wasm_f32x4_pmax((v128_t)x, (v128_t)lo);
#else
  return x < lo ? lo : x;
#endif
}

// Vector twin of exp_approx (fastmath.hpp) on N vectors in place, each step on all N before the
// next. One vector's exp is a chain of ~15 dependent operations that the CPU's scheduler cannot
// overlap much with the next vector's (V8 emits WASM in order); steps over 16 independent vectors
// make the loop throughput-bound (measured 1.5x faster GELU in Chromium than 3 interleaved calls).
template <int N>
inline void exp_approx_block(v4f* xs) {
  const v4f magic = splat(12582912.0f);
  v4f t[N], r[N];
#pragma GCC unroll 16
  for (int j = 0; j < N; ++j) {
    v4f x = clamp_above(xs[j], splat(88.0f));
    xs[j] = clamp_below(x, splat(-87.3f));
  }
#pragma GCC unroll 16
  for (int j = 0; j < N; ++j) t[j] = xs[j] * 1.44269504088896341f + magic;  // magic + n, exactly: |n| <= 127
#pragma GCC unroll 16
  for (int j = 0; j < N; ++j) {
    const v4f n = t[j] - magic;
    r[j] = xs[j] - n * 0.693359375f;
    r[j] = r[j] - n * -2.12194440e-4f;
  }
#pragma GCC unroll 16
  for (int j = 0; j < N; ++j) {
    const v4f z = r[j] * r[j];
    const v4f p01 = 1.6666665459e-1f * r[j] + 5.0000001201e-1f;  // Estrin's scheme, as in exp_approx
    const v4f p23 = 8.3334519073e-3f * r[j] + 4.1665795894e-2f;
    const v4f p45 = 1.9875691500e-4f * r[j] + 1.3981999507e-3f;
    v4f p = (p01 + z * p23) + (z * z) * p45;
    p = p * z + r[j] + 1.0f;
    // n as an integer without a float->int conversion (V8 spends ~6 instructions on one): t and
    // magic share an exponent, so their bit patterns differ by exactly n.
    const v4i e = (((v4i)t[j] - (v4i)magic) + 127) << 23;
    xs[j] = p * (v4f)e;  // a vector cast between same-size types reinterprets the bits
  }
}
inline v4f exp_approx_v4(v4f x) {
  exp_approx_block<1>(&x);
  return x;
}

}  // namespace lab::ref
