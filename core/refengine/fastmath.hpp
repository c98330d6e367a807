// Portable float32 exp and the GELU pieces built on it. Same code natively and in WASM (no libm
// call in hot loops, branch-free so loops vectorize). exp: Cody-Waite reduction + Cephes
// polynomial, about 1-2 ulp over [-87.3, 88.0]; inputs are clamped to that range.
#pragma once
#include <cstdint>
#include <cstring>

namespace lab::ref {

inline float exp_approx(float x) {
  x = x > 88.0f ? 88.0f : x;  // keeps 2^n finite (n <= 127)
  x = x < -87.3f ? -87.3f : x;
  const float magic = 12582912.0f;  // 1.5 * 2^23: adding and subtracting rounds to an integer
  const float t = x * 1.44269504088896341f + magic;  // magic + n, exactly: |n| <= 127
  float n = t - magic;
  float r = x - n * 0.693359375f;
  r = r - n * -2.12194440e-4f;
  const float z = r * r;
  // The Cephes polynomial by Estrin's scheme: three independent pairs, then powers of z. Half as
  // many dependent steps as Horner's rule, which matters because GELU loops are latency-bound.
  const float p01 = 1.6666665459e-1f * r + 5.0000001201e-1f;
  const float p23 = 8.3334519073e-3f * r + 4.1665795894e-2f;
  const float p45 = 1.9875691500e-4f * r + 1.3981999507e-3f;
  float p = (p01 + z * p23) + (z * z) * p45;
  p = p * z + r + 1.0f;
  // n as an integer from the bits of t, as the vector twin (simd.hpp) does: defined for every x.
  // static_cast<int32_t>(n) is undefined for NaN (UBSan saw it when an fp16 run diverged).
  std::uint32_t t_bits, magic_bits;
  std::memcpy(&t_bits, &t, 4);
  std::memcpy(&magic_bits, &magic, 4);
  const std::uint32_t e = (t_bits - magic_bits + 127u) << 23;
  float scale;
  std::memcpy(&scale, &e, 4);
  return p * scale;
}

// GELU, tanh approximation (GPT-2): 0.5·x·(1 + tanh(u)) = x·sigmoid(2u), u = √(2/π)(x + 0.044715x³).
// Written with the sigmoid so there is no cancellation near 0, and -2u as x·(c1 + c3·x²) so the
// chain of dependent operations is short (the vector twins in ops_gelu.cpp do the same operations).
inline constexpr float kGeluK = 0.7978845608028654f;  // sqrt(2/pi)
inline constexpr float kGeluA = 0.044715f;
inline constexpr float kGeluU1 = 2.0f * kGeluK;               // 2u = x·(U1 + U3·x²)
inline constexpr float kGeluU3 = 2.0f * kGeluK * kGeluA;
inline constexpr float kGeluD2 = 3.0f * kGeluU3;              // d(2u)/dx = U1 + D2·x²

inline float gelu_value(float x) {
  const float x2 = x * x;
  const float minus_u2 = x * (x2 * -kGeluU3 - kGeluU1);
  return x / (1.0f + exp_approx(minus_u2));
}
// d/dx [x·s(2u)] = s + x·s·(1-s)·2u'(x).
inline float gelu_grad(float x) {
  const float x2 = x * x;
  const float minus_u2 = x * (x2 * -kGeluU3 - kGeluU1);
  const float s = 1.0f / (1.0f + exp_approx(minus_u2));
  const float du2 = x2 * kGeluD2 + kGeluU1;
  return s + x * s * (1.0f - s) * du2;
}

}  // namespace lab::ref
