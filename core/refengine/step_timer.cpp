// Step spans: close a span once it covers kSpanTicks ticks; at the end of a call, a shorter remainder
// is folded into the call's previous span (the two are back to back, so their times add).
#include "refengine/step_timer.hpp"
#include <algorithm>
#include <utility>

namespace lab::ref {

StepTimer::StepTimer(Clock clock, double resolution_seconds) : clock_(std::move(clock)), resolution_(resolution_seconds) {}

void StepTimer::begin_call() {
  call_first_span_ = spans_.size();
  open_first_ = seconds_.size();
  open_t0_ = last_ = clock_();
}

void StepTimer::step_done() {
  seconds_.push_back(0.0);
  last_ = clock_();
  if (last_ - open_t0_ >= kSpanTicks * resolution_) close(last_);
}

void StepTimer::close(double now) {
  Span s{open_first_, seconds_.size() - open_first_, now - open_t0_};
  if (s.steps == 0) return;
  if (s.seconds < kSpanTicks * resolution_ && spans_.size() > call_first_span_) {
    const Span prev = spans_.back();
    spans_.pop_back();
    s = {prev.first, prev.steps + s.steps, prev.seconds + s.seconds};
  }
  for (std::size_t i = s.first; i < s.first + s.steps; ++i) seconds_[i] = s.seconds / static_cast<double>(s.steps);
  spans_.push_back(s);
  open_first_ = seconds_.size();
  open_t0_ = now;
}

void StepTimer::end_call() { close(last_); }

StepTimes StepTimer::times() const {
  StepTimes t;
  t.resolution_seconds = resolution_;
  t.spans = static_cast<std::int64_t>(spans_.size());
  if (seconds_.empty()) return t;
  for (const Span& s : spans_) t.total_seconds += s.seconds;
  t.mean_seconds = t.total_seconds / static_cast<double>(seconds_.size());
  const bool any_long = std::any_of(spans_.begin(), spans_.end(), [&](const Span& s) { return s.seconds >= kSpanTicks * resolution_; });
  std::vector<double> used;
  t.min_span_ticks = -1.0;
  for (const Span& s : spans_) {
    if (any_long && s.seconds < kSpanTicks * resolution_) continue;
    used.insert(used.end(), s.steps, s.seconds / static_cast<double>(s.steps));
    const double ticks = resolution_ > 0 ? s.seconds / resolution_ : 0.0;
    t.min_span_ticks = t.min_span_ticks < 0 ? ticks : std::min(t.min_span_ticks, ticks);
  }
  if (used.empty()) return t;
  std::sort(used.begin(), used.end());
  const std::size_t n = used.size();
  t.steps_timed = static_cast<std::int64_t>(n);
  t.median_seconds = n % 2 ? used[n / 2] : 0.5 * (used[n / 2 - 1] + used[n / 2]);
  t.min_seconds = used.front();
  return t;
}

}  // namespace lab::ref
