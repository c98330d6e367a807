// The clock every duration the engine reports is read from, and its resolution measured at run time.
// In a browser std::chrono::steady_clock reads performance.now(), which Firefox and Safari round to
// 1 ms or more; so durations are timed over spans of at least kSpanTicks ticks (peak.cpp, the
// session's step spans in facade_train.cpp). Tests inject a coarse clock; nothing here does I/O.
#pragma once
#include <functional>

namespace lab::ref {

using Clock = std::function<double()>;  // seconds since an arbitrary origin, never decreasing

Clock steady_clock_seconds();

// A timed span covers at least this many ticks of its clock: a reading is off by up to one tick at
// each end, so a span of 100 ticks is within 2%.
constexpr double kSpanTicks = 100.0;

// The smallest nonzero step between successive reads, over a few steps. A clock that does not move
// within a bounded number of reads is given kUnknownResolution, a coarse value that keeps spans long.
constexpr double kUnknownResolution = 0.016;
double clock_resolution_seconds(const Clock& clock);

}  // namespace lab::ref
