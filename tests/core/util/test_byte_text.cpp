// Byte counts in words: rounding, carries, negatives and thousands separators.
#include <doctest/doctest.h>
#include "util/byte_text.hpp"

using namespace lab;

TEST_CASE("gb_text rounds to two decimals, half away from zero, carrying into the whole part") {
  CHECK(gb_text(12'460'889'600) == "12.46 GB");
  CHECK(gb_text(89'000'000'000) == "89.00 GB");
  CHECK(gb_text(32'125'000'000) == "32.13 GB");
  CHECK(gb_text(999'999'999) == "1.00 GB");
  CHECK(gb_text(4'999'999) == "0.00 GB");
  CHECK(gb_text(0) == "0.00 GB");
  CHECK(gb_text(-1'500'000'000) == "-1.50 GB");
  CHECK(gb_text(INT64_MAX) == "9223372036.85 GB");
}

TEST_CASE("mib_text uses 2^20 bytes and one decimal") {
  CHECK(mib_text(256LL << 20) == "256.0 MiB");
  CHECK(mib_text(3 * (1LL << 20) / 2) == "1.5 MiB");
}

TEST_CASE("thousands_text groups digits by three") {
  CHECK(thousands_text(1'557'611'200) == "1,557,611,200");
  CHECK(thousands_text(999) == "999");
  CHECK(thousands_text(-1000) == "-1,000");
  CHECK(thousands_text(0) == "0");
}
