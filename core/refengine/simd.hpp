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

// Vector twin of exp_approx (fastmath.hpp).
inline v4f exp_approx_v4(v4f x) {
  const v4f hi = splat(88.0f), lo = splat(-87.3f);
  x = x > hi ? hi : x;
  x = x < lo ? lo : x;
  const v4f magic = splat(12582912.0f);
  const v4f n = (x * 1.44269504088896341f + magic) - magic;
  v4f r = x - n * 0.693359375f;
  r = r - n * -2.12194440e-4f;
  const v4f z = r * r;
  v4f p = splat(1.9875691500e-4f);
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * z + r + 1.0f;
  const v4i e = (__builtin_convertvector(n, v4i) + 127) << 23;
  return p * (v4f)e;  // a vector cast between same-size types reinterprets the bits
}

}  // namespace lab::ref
