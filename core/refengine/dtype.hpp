// Storage-precision emulation: every tensor is computed in float32 and *stored* as float32, IEEE
// binary16 (FP16) or bfloat16 (BF16), rounding to nearest even on every store. 16-bit tensors
// really occupy 2 bytes per element (uint16 bit patterns), so the allocator's byte counts are real.
// Deliberately no arithmetic in 16 bits: loads widen exactly, stores round once. Ops: ops.hpp.
#pragma once
#include <cstdint>
#include <cstring>

namespace lab::ref {

enum class DType : std::uint8_t { f32, f16, bf16, i32 };

inline constexpr std::int64_t dtype_bytes(DType t) { return t == DType::f16 || t == DType::bf16 ? 2 : 4; }
const char* to_string(DType t);

inline std::uint32_t float_bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float bits_float(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// float32 -> binary16, round to nearest even. Overflow (|x| >= 65520) gives +-Inf, values below the
// smallest subnormal (2^-24) round to a subnormal or to signed zero, NaN stays a quiet NaN.
// (Branch structure after F. Giesen's float_to_half_fast3_rtne; relies on IEEE float addition.)
inline std::uint16_t f32_to_f16_bits(float value) {
  std::uint32_t u = float_bits(value);
  const std::uint32_t sign = u & 0x80000000u;
  u ^= sign;
  std::uint32_t out;
  if (u >= 0x47800000u) {                     // |x| >= 2^16: Inf, or NaN (exponent all ones)
    out = u > 0x7f800000u ? 0x7e00u : 0x7c00u;
  } else if (u < 0x38800000u) {               // |x| < 2^-14: the result is subnormal or zero
    const float denorm_magic = bits_float(((127 - 15) + (23 - 10) + 1) << 23);  // 0.5
    const float shifted = bits_float(u) + denorm_magic;  // the FPU rounds to nearest even here
    out = float_bits(shifted) - float_bits(denorm_magic);
  } else {                                    // normal: rebias the exponent and round the mantissa
    const std::uint32_t mant_odd = (u >> 13) & 1u;
    u += (static_cast<std::uint32_t>(15 - 127) << 23) + 0xfffu + mant_odd;
    out = u >> 13;                            // a carry into exponent 31 correctly gives Inf
  }
  return static_cast<std::uint16_t>(out | (sign >> 16));
}

// binary16 -> float32, exact (every half is a float).
inline float f16_bits_to_f32(std::uint16_t h) {
  std::uint32_t o = static_cast<std::uint32_t>(h & 0x7fffu) << 13;
  const std::uint32_t exp = o & (0x7c00u << 13);
  o += static_cast<std::uint32_t>(127 - 15) << 23;
  float f;
  if (exp == (0x7c00u << 13)) {               // Inf / NaN
    o += static_cast<std::uint32_t>(128 - 16) << 23;
    f = bits_float(o);
  } else if (exp == 0) {                      // zero / subnormal: renormalise with one subtraction
    o += 1u << 23;
    f = bits_float(o) - bits_float(113u << 23);
  } else {
    f = bits_float(o);
  }
  return bits_float(float_bits(f) | (static_cast<std::uint32_t>(h & 0x8000u) << 16));
}

// float32 -> bfloat16 (the top 16 bits), round to nearest even; NaN stays a quiet NaN; values that
// round past the largest finite bf16 become +-Inf; there is no underflow beyond float32's own.
inline std::uint16_t f32_to_bf16_bits(float value) {
  std::uint32_t u = float_bits(value);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((u >> 16) | 0x0040u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return static_cast<std::uint16_t>(u >> 16);
}
inline float bf16_bits_to_f32(std::uint16_t h) { return bits_float(static_cast<std::uint32_t>(h) << 16); }

// Storage element types. Ops are templates over these; compute is always float32.
struct f16_t { std::uint16_t bits; };
struct bf16_t { std::uint16_t bits; };

inline float load(const float* p) { return *p; }
inline float load(const f16_t* p) { return f16_bits_to_f32(p->bits); }
inline float load(const bf16_t* p) { return bf16_bits_to_f32(p->bits); }
inline void store(float* p, float v) { *p = v; }
inline void store(f16_t* p, float v) { p->bits = f32_to_f16_bits(v); }
inline void store(bf16_t* p, float v) { p->bits = f32_to_bf16_bits(v); }

// Round a float32 value to what a store in `t` would keep (identity for f32).
inline float round_to(DType t, float v) {
  if (t == DType::f16) return f16_bits_to_f32(f32_to_f16_bits(v));
  if (t == DType::bf16) return bf16_bits_to_f32(f32_to_bf16_bits(v));
  return v;
}

// Calls f(T{}) with T the storage type of `t` (float, f16_t or bf16_t).
template <class F>
decltype(auto) dispatch(DType t, F&& f) {
  switch (t) {
    case DType::f16: return f(f16_t{});
    case DType::bf16: return f(bf16_t{});
    default: return f(float{});
  }
}

// A typed view of a buffer: pointer, element type and element count. Never owns.
struct Buf {
  void* data = nullptr;
  DType dtype = DType::f32;
  std::int64_t numel = 0;
  template <class T>
  T* as() const { return static_cast<T*>(data); }
};

}  // namespace lab::ref
