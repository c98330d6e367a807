// Storage-precision emulation, bit-exactly: FP16 and BF16 round to nearest even on store, overflow
// to infinity, underflow through subnormals to signed zero, keep NaN; widening is exact.
#include <doctest/doctest.h>
#include <cmath>
#include <cstdint>
#include <limits>
#include "refengine/dtype.hpp"

using namespace lab::ref;

namespace {
// Reference rounding by exhaustive comparison: the nearest half (ties to even mantissa).
std::uint16_t slow_f16(float f) {
  if (std::isnan(f)) return 0x7e00;
  const std::uint16_t sign = std::signbit(f) ? 0x8000 : 0;
  const double a = std::fabs(static_cast<double>(f));
  if (a >= 65520.0) return sign | 0x7c00;
  std::uint16_t best = 0;
  double best_err = a;
  for (std::uint32_t h = 1; h < 0x7c00; ++h) {
    const double v = static_cast<double>(f16_bits_to_f32(static_cast<std::uint16_t>(h)));
    const double err = std::fabs(v - a);
    if (err < best_err || (err == best_err && (h & 1u) == 0 && (best & 1u) == 1)) {
      best = static_cast<std::uint16_t>(h);
      best_err = err;
    }
  }
  return sign | best;
}
std::uint64_t lcg(std::uint64_t& s) { return s = s * 6364136223846793005ULL + 1442695040888963407ULL; }
}  // namespace

TEST_CASE("fp16 encodes the landmark values bit-exactly") {
  CHECK(f32_to_f16_bits(1.0f) == 0x3c00);
  CHECK(f32_to_f16_bits(-2.0f) == 0xc000);
  CHECK(f32_to_f16_bits(65504.0f) == 0x7bff);               // largest finite half
  CHECK(f32_to_f16_bits(65519.99f) == 0x7bff);              // still rounds down
  CHECK(f32_to_f16_bits(65520.0f) == 0x7c00);               // the tie rounds to even = Inf (overflow)
  CHECK(f32_to_f16_bits(1e6f) == 0x7c00);
  CHECK(f32_to_f16_bits(-1e6f) == 0xfc00);
  CHECK(f32_to_f16_bits(std::ldexp(1.0f, -14)) == 0x0400);  // smallest normal
  CHECK(f32_to_f16_bits(std::ldexp(1.0f, -24)) == 0x0001);  // smallest subnormal
  CHECK(f32_to_f16_bits(std::ldexp(1.0f, -25)) == 0x0000);  // tie between 0 and 2^-24: even = 0 (underflow)
  CHECK(f32_to_f16_bits(std::ldexp(1.5f, -25)) == 0x0001);  // above the tie: rounds up
  CHECK(f32_to_f16_bits(std::ldexp(3.0f, -25)) == 0x0002);  // tie 1.5·2^-24: even = 2
  CHECK(f32_to_f16_bits(1e-8f) == 0x0000);
  CHECK(f32_to_f16_bits(-1e-8f) == 0x8000);                 // signed zero
  CHECK(f32_to_f16_bits(1.0f + std::ldexp(1.0f, -11)) == 0x3c00);      // tie: even mantissa (down)
  CHECK(f32_to_f16_bits(1.0f + 3 * std::ldexp(1.0f, -11)) == 0x3c02);  // tie: even mantissa (up)
  CHECK(f32_to_f16_bits(std::numeric_limits<float>::infinity()) == 0x7c00);
  CHECK(f32_to_f16_bits(std::nanf("")) == 0x7e00);
  CHECK(f16_bits_to_f32(0x0001) == std::ldexp(1.0f, -24));
  CHECK(f16_bits_to_f32(0x7bff) == 65504.0f);
  CHECK(std::isinf(f16_bits_to_f32(0x7c00)));
  CHECK(std::isnan(f16_bits_to_f32(0x7e00)));
  CHECK(std::signbit(f16_bits_to_f32(0x8000)));
}

TEST_CASE("every fp16 value widens exactly and rounds back to itself") {
  int mismatches = 0;
  for (std::uint32_t h = 0; h < 0x10000; ++h) {
    const float f = f16_bits_to_f32(static_cast<std::uint16_t>(h));
    if (std::isnan(f)) continue;
    mismatches += f32_to_f16_bits(f) != h;
  }
  CHECK(mismatches == 0);
}

TEST_CASE("fp16 rounding agrees with an exhaustive nearest-even search on random floats") {
  std::uint64_t s = 42;
  int mismatches = 0;
  for (int i = 0; i < 300; ++i) {
    // Random sign/exponent in the half range (2^-27 .. 2^17) and random mantissa bits.
    const std::uint32_t exp = 100 + static_cast<std::uint32_t>(lcg(s) >> 59);  // 100..131
    const std::uint32_t bits = (static_cast<std::uint32_t>(lcg(s) >> 63) << 31) | (exp << 23) |
                               static_cast<std::uint32_t>(lcg(s) >> 41);
    const float f = bits_float(bits);
    mismatches += f32_to_f16_bits(f) != slow_f16(f);
  }
  CHECK(mismatches == 0);
}

TEST_CASE("bf16 rounds to nearest even, overflows to infinity, keeps NaN quiet") {
  CHECK(f32_to_bf16_bits(1.0f) == 0x3f80);
  CHECK(f32_to_bf16_bits(bits_float(0x3f808000u)) == 0x3f80);  // tie, even stays
  CHECK(f32_to_bf16_bits(bits_float(0x3f818000u)) == 0x3f82);  // tie, odd rounds up
  CHECK(f32_to_bf16_bits(bits_float(0x3f808001u)) == 0x3f81);  // above the tie
  CHECK(f32_to_bf16_bits(bits_float(0x7f7fffffu)) == 0x7f80);  // FLT_MAX rounds to Inf
  CHECK(f32_to_bf16_bits(bits_float(0x7f7f7fffu)) == 0x7f7f);  // largest finite bf16 stays
  CHECK(f32_to_bf16_bits(bits_float(0x00008000u)) == 0x0000);  // subnormal tie to even zero
  CHECK(f32_to_bf16_bits(bits_float(0x00018000u)) == 0x0002);
  CHECK(f32_to_bf16_bits(-0.0f) == 0x8000);
  CHECK(f32_to_bf16_bits(bits_float(0x7f800001u)) == 0x7fc0);  // signalling NaN becomes quiet
  CHECK(f32_to_bf16_bits(bits_float(0xffc00000u)) == 0xffc0);
  int mismatches = 0;
  for (std::uint32_t h = 0; h < 0x10000; ++h) {
    const float f = bf16_bits_to_f32(static_cast<std::uint16_t>(h));
    if (!std::isnan(f)) mismatches += f32_to_bf16_bits(f) != h;
  }
  CHECK(mismatches == 0);
}

TEST_CASE("a tiny update below half an ulp is lost in fp16 and bf16 but kept in fp32") {
  const float w = 1.0f, update = 1e-4f;  // fp16 ulp(1) = 2^-10 ≈ 9.8e-4, bf16 ulp(1) = 2^-7
  CHECK(round_to(DType::f16, w - update) == 1.0f);
  CHECK(round_to(DType::bf16, w - update) == 1.0f);
  CHECK(round_to(DType::f32, w - update) != 1.0f);
  f16_t h{};
  store(&h, 3.14159f);
  CHECK(h.bits == 0x4248);
  CHECK(load(&h) == 3.140625f);
}
