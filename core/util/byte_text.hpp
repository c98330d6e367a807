// Byte counts as words for the engine's messages ("12.46 GB", "3.1 MiB", "1,557,611,200"): integer
// arithmetic only, one place for the memory ledger, the solver and the training facade.
#pragma once
#include <cstdint>
#include <string>

namespace lab {

// value / unit rounded half away from zero to `decimals` places, then `suffix` (e.g. " GB").
std::string scaled_text(std::int64_t value, std::int64_t unit, int decimals, const char* suffix);
inline std::string gb_text(std::int64_t bytes) { return scaled_text(bytes, 1'000'000'000, 2, " GB"); }
inline std::string mib_text(std::int64_t bytes) { return scaled_text(bytes, 1LL << 20, 1, " MiB"); }
// 1557611200 -> "1,557,611,200".
std::string thousands_text(std::int64_t value);

}  // namespace lab
