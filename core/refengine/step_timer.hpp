// Times training steps in spans of at least kSpanTicks ticks (clock.hpp): under a clock that moves
// in 1 ms steps a 4 ms step reads 4 or 5 ms, so steps are timed in batches and each gets its span's
// mean. Spans never cross calls (the time between two calls is not training). Used by the facade's
// TrainSession; nothing here knows JSON.
#pragma once
#include <cstdint>
#include <vector>
#include "refengine/clock.hpp"

namespace lab::ref {

struct StepTimes {
  double median_seconds = 0.0, mean_seconds = 0.0, min_seconds = 0.0, total_seconds = 0.0;
  double resolution_seconds = 0.0;
  std::int64_t spans = 0;          // every timed span
  std::int64_t steps_timed = 0;    // steps in the spans the median and minimum come from
  double min_span_ticks = 0.0;     // the shortest of those spans, in clock ticks
};

class StepTimer {
 public:
  StepTimer(Clock clock, double resolution_seconds);
  void begin_call();  // back-to-back steps follow
  void step_done();   // after each of them
  void end_call();    // closes the open span; a short one joins the span before it in the same call

  const std::vector<double>& step_seconds() const { return seconds_; }  // per step, its span's mean
  double resolution_seconds() const { return resolution_; }
  // Median and minimum over the steps in spans of at least kSpanTicks ticks when there are any, else
  // over every step (a run too short to time precisely; min_span_ticks says how short).
  StepTimes times() const;

 private:
  struct Span { std::size_t first = 0, steps = 0; double seconds = 0.0; };
  void close(double now);
  Clock clock_;
  double resolution_ = 0.0;
  std::vector<double> seconds_;
  std::vector<Span> spans_;
  std::size_t call_first_span_ = 0, open_first_ = 0;
  double open_t0_ = 0.0, last_ = 0.0;
};

}  // namespace lab::ref
