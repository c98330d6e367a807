// Shared helpers for the reference-engine tests: tiny configurations and profile comparison.
#pragma once
#include <string>
#include "refengine/config.hpp"
#include "refengine/inventory.hpp"

namespace lab::ref::testing {

inline RefConfig tiny_config() {
  RefConfig c;
  c.vocab = 11;
  c.context = 8;
  c.d_model = 8;
  c.heads = 2;
  c.layers = 3;
  c.mlp_hidden = 12;
  c.batch = 2;
  c.seq = 5;
  c.seed = 7;
  return c;
}

// "" when equal, else a description of the first difference.
inline std::string profile_difference(const MemoryProfile& want, const MemoryProfile& got) {
  auto bytes = [](const CategoryBytes& b) {
    std::string s;
    for (std::size_t i = 0; i < kCategoryCount; ++i) s += std::string(i ? "," : "") + std::to_string(b[i]);
    return s;
  };
  if (want.timeline.size() != got.timeline.size())
    return "timeline length " + std::to_string(want.timeline.size()) + " vs " + std::to_string(got.timeline.size());
  for (std::size_t i = 0; i < want.timeline.size(); ++i) {
    const auto &a = want.timeline[i], &b = got.timeline[i];
    if (a.phase != b.phase) return "phase #" + std::to_string(i) + ": " + a.phase + " vs " + b.phase;
    if (a.peak_bytes != b.peak_bytes)
      return "peak in " + a.phase + ": " + std::to_string(a.peak_bytes) + " vs " + std::to_string(b.peak_bytes);
    if (a.live_end != b.live_end) return "live after " + a.phase + ": " + bytes(a.live_end) + " vs " + bytes(b.live_end);
  }
  if (want.peak_bytes != got.peak_bytes) return "peak " + std::to_string(want.peak_bytes) + " vs " + std::to_string(got.peak_bytes);
  if (want.peak_phase != got.peak_phase) return "peak phase " + want.peak_phase + " vs " + got.peak_phase;
  if (want.at_peak != got.at_peak) return "at peak " + bytes(want.at_peak) + " vs " + bytes(got.at_peak);
  if (want.max_by_category != got.max_by_category)
    return "max by category " + bytes(want.max_by_category) + " vs " + bytes(got.max_by_category);
  return "";
}

}  // namespace lab::ref::testing
