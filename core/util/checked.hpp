// Checked 64-bit integer arithmetic for byte and FLOP counts. Overflow is reported as an
// InputError naming the scenario (the inputs were valid one by one but too large together).
#pragma once
#include <cstdint>
#include "util/errors.hpp"

namespace lab {

inline std::int64_t mul(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r))
    throw InputError("scenario", "the configuration is too large: a byte or FLOP count exceeds 2^63");
  return r;
}
template <typename... Rest>
std::int64_t mul(std::int64_t a, std::int64_t b, Rest... rest) {
  return mul(mul(a, b), rest...);
}
// add() repeats mul()'s shape on purpose: one builtin each, so each overflow check reads on its own.
inline std::int64_t add(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r))
    throw InputError("scenario", "the configuration is too large: a byte or FLOP count exceeds 2^63");
  return r;
}
template <typename... Rest>
std::int64_t add(std::int64_t a, std::int64_t b, Rest... rest) {
  return add(add(a, b), rest...);
}

// ceil(a / b) for a >= 0, b > 0 (shards, buckets, pipeline stages).
inline std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return a / b + (a % b != 0 ? 1 : 0); }

}  // namespace lab
