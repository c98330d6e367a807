// format_number: doubles in JSON syntax with at most 15 significant digits, by scaling to a 15-digit
// integer. The shortest round-trip formatter (grisu) costs ~100 ns per number in WASM and evaluate
// writes ~80 of them; this one ~65 ns. No facade value needs more than 15 digits.
#include <cmath>
#include <cstdint>
#include <cstring>
#include "facade/json_writer.hpp"

namespace lab {

// x in JSON number syntax with at most 15 significant digits ("0.4", "0.000035", "3.5e-7", "1.25e+20");
// null for non-finite values. The 15th digit can differ by one from exact decimal rounding.
std::size_t format_number(char* out, double x) {
  if (!std::isfinite(x)) { std::memcpy(out, "null", 4); return 4; }
  if (x == 0) { out[0] = '0'; return 1; }
  char* p = out;
  if (x < 0) { *p++ = '-'; x = -x; }
  // Integral values below 10^15 (token counts, FLOPs per step, peaks in FLOP/s) are exact integers.
  if (x < 1e15 && std::floor(x) == x) {
    std::uint64_t v = static_cast<std::uint64_t>(x);
    char digits[16];
    int n = 0;
    do { digits[n++] = static_cast<char>('0' + v % 10); v /= 10; } while (v > 0);
    while (n > 0) *p++ = digits[--n];
    return static_cast<std::size_t>(p - out);
  }
  static constexpr double kPow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  constexpr double kLow = 1e14, kHigh = 1e15;
  auto scaled = [&](int e) {  // x · 10^(14 − e), rounded to an integer; one rounding when |14 − e| ≤ 22
    const int k = 14 - e;
    double v;
    if (k >= 0 && k <= 22) v = x * kPow10[k];
    else if (k < 0 && k >= -22) v = x / kPow10[-k];
    else v = k > 0 ? x * std::pow(10.0, k > 300 ? 300 : k) * (k > 300 ? std::pow(10.0, k - 300) : 1.0)
                   : x / std::pow(10.0, -k);
    return std::floor(v + 0.5);
  };
  int e2 = 0;
  std::frexp(x, &e2);  // x in [2^(e2−1), 2^e2): the decimal exponent is this estimate or one more
  int e10 = static_cast<int>(std::floor((e2 - 1) * 0.30102999566398120));
  double m = scaled(e10);
  if (m >= kHigh) m = scaled(++e10);
  if (m >= kHigh) m = scaled(++e10);
  if (m < kLow) m = scaled(--e10);
  if (m >= kHigh) { m = kLow; ++e10; }  // rounded up to 10^15
  std::uint64_t digits = static_cast<std::uint64_t>(m);
  char d[15];
  for (int i = 14; i >= 0; --i) { d[i] = static_cast<char>('0' + digits % 10); digits /= 10; }
  int n = 15;
  while (n > 1 && d[n - 1] == '0') --n;
  if (e10 >= 0 && e10 < 15) {  // 123.45
    for (int i = 0; i <= e10; ++i) *p++ = i < n ? d[i] : '0';
    if (n > e10 + 1) { *p++ = '.'; for (int i = e10 + 1; i < n; ++i) *p++ = d[i]; }
  } else if (e10 < 0 && e10 >= -5) {  // 0.00012345
    *p++ = '0'; *p++ = '.';
    for (int i = 0; i < -e10 - 1; ++i) *p++ = '0';
    for (int i = 0; i < n; ++i) *p++ = d[i];
  } else {  // 1.2345e-07
    *p++ = d[0];
    if (n > 1) { *p++ = '.'; for (int i = 1; i < n; ++i) *p++ = d[i]; }
    *p++ = 'e';
    if (e10 < 0) { *p++ = '-'; e10 = -e10; } else { *p++ = '+'; }
    char e[4]; int ne = 0;
    do { e[ne++] = static_cast<char>('0' + e10 % 10); e10 /= 10; } while (e10 > 0);
    while (ne > 0) *p++ = e[--ne];
  }
  return static_cast<std::size_t>(p - out);
}

}  // namespace lab
