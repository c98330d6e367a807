// The steady clock as seconds, and its resolution: the smallest nonzero step seen between
// successive reads (a clock with jitter, like Firefox's, moves by uneven steps; the smallest is its tick).
#include "refengine/clock.hpp"
#include <algorithm>
#include <chrono>

namespace lab::ref {

Clock steady_clock_seconds() {
  return [] { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); };
}

double clock_resolution_seconds(const Clock& clock) {
  constexpr int kSteps = 5;
  constexpr long kMaxReads = 20'000'000;  // a stuck clock gives up after about a second of reads
  double best = 0.0;
  long reads = 0;
  double last = clock();
  for (int seen = 0; seen < kSteps && reads < kMaxReads;) {
    const double now = clock();
    ++reads;
    if (now > last) {
      best = best > 0.0 ? std::min(best, now - last) : now - last;
      ++seen;
    }
    last = now;
  }
  return best > 0.0 ? best : kUnknownResolution;
}

}  // namespace lab::ref
