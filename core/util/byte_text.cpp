// Integer formatting of byte counts (see byte_text.hpp).
#include "util/byte_text.hpp"

namespace lab {

std::string scaled_text(std::int64_t value, std::int64_t unit, int decimals, const char* suffix) {
  const bool negative = value < 0;
  const std::uint64_t v = negative ? 0 - static_cast<std::uint64_t>(value) : static_cast<std::uint64_t>(value);
  const auto u = static_cast<std::uint64_t>(unit);
  std::uint64_t scale = 1;
  for (int i = 0; i < decimals; ++i) scale *= 10;
  std::uint64_t whole = v / u;
  // rem < unit <= 2^40 and scale <= 10^6 here, so rem * scale * 2 cannot overflow.
  std::uint64_t frac = (v % u * scale * 2 + u) / (2 * u);
  if (frac == scale) { ++whole; frac = 0; }
  std::string out = negative && (whole > 0 || frac > 0) ? "-" : "";
  out += std::to_string(whole);
  if (decimals > 0) {
    std::string f = std::to_string(frac);
    out += '.';
    out.append(static_cast<std::size_t>(decimals) - f.size(), '0');
    out += f;
  }
  return out + suffix;
}

std::string thousands_text(std::int64_t value) {
  const std::uint64_t v = value < 0 ? 0 - static_cast<std::uint64_t>(value) : static_cast<std::uint64_t>(value);
  const std::string digits = std::to_string(v);
  std::string out = value < 0 ? "-" : "";
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

}  // namespace lab
