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
  float n = (x * 1.44269504088896341f + magic) - magic;
  float r = x - n * 0.693359375f;
  r = r - n * -2.12194440e-4f;
  const float z = r * r;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * z + r + 1.0f;
  const std::int32_t e = (static_cast<std::int32_t>(n) + 127) << 23;
  float scale;
  std::memcpy(&scale, &e, 4);
  return p * scale;
}

// GELU, tanh approximation (GPT-2): 0.5·x·(1 + tanh(u)) = x·sigmoid(2u), u = √(2/π)(x + 0.044715x³).
// Written with the sigmoid so there is no cancellation near 0.
inline constexpr float kGeluK = 0.7978845608028654f;  // sqrt(2/pi)
inline constexpr float kGeluA = 0.044715f;

inline float gelu_value(float x) {
  const float u2 = 2.0f * kGeluK * (x + kGeluA * x * x * x);
  const float s = 1.0f / (1.0f + exp_approx(-u2));
  return x * s;
}
// d/dx [x·s(2u)] = s + x·s·(1-s)·2u'(x), u' = √(2/π)(1 + 3·0.044715·x²).
inline float gelu_grad(float x) {
  const float u2 = 2.0f * kGeluK * (x + kGeluA * x * x * x);
  const float s = 1.0f / (1.0f + exp_approx(-u2));
  const float du2 = 2.0f * kGeluK * (1.0f + 3.0f * kGeluA * x * x);
  return s + x * s * (1.0f - s) * du2;
}

}  // namespace lab::ref
