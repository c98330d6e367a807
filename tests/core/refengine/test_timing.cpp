// Timing that a coarse clock cannot fool: the clock's measured resolution, the matmul peak under a
// clock rounded to 1 ms and 4 ms (as Firefox and Safari round performance.now()) against the fine
// clock, and step spans of at least 100 ticks. The old peak (best single 256³ matmul) could only
// read whole ticks under such a clock: 33.6 GFLOP/s at 1 ms, 8.4 at 4 ms, whatever the CPU did.
#include <doctest/doctest.h>
#include <algorithm>
#include <cmath>
#include <ctime>
#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#endif
#include "refengine/clock.hpp"
#include "refengine/gemm.hpp"
#include "refengine/step_timer.hpp"

using namespace lab::ref;

namespace {
// CPU time, which does not run while other processes hold the core, so a busy shared machine slows
// no span: this thread's natively, Node's process.cpuUsage() in WASM (Emscripten has no CPU clock).
#ifdef __EMSCRIPTEN__
EM_JS(double, node_cpu_seconds, (), { return typeof process === 'object' && process.cpuUsage ? process.cpuUsage().user / 1e6 : -1; });
Clock fine_clock() {
  if (node_cpu_seconds() < 0) return steady_clock_seconds();
  return [] { return node_cpu_seconds(); };
}
#else
Clock fine_clock() {
  timespec ts{};
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return steady_clock_seconds();
  return [] {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
  };
}
#endif
// The fine clock rounded down to whole ticks of `tick` seconds.
Clock rounded(double tick) {
  const Clock fine = fine_clock();
  return [fine, tick] { return std::floor(fine() / tick) * tick; };
}
double peak(const Clock& clock) { return measure_matmul_peak(0.05, clock, clock_resolution_seconds(clock)).flops_per_s; }
}  // namespace

TEST_CASE("the clock's resolution is measured: the steady clock's is fine, a rounded clock's is its tick") {
  CHECK(clock_resolution_seconds(steady_clock_seconds()) < 1e-4);
  CHECK(clock_resolution_seconds(rounded(1e-3)) == doctest::Approx(1e-3).epsilon(1e-6));
  CHECK(clock_resolution_seconds(rounded(4e-3)) == doctest::Approx(4e-3).epsilon(1e-6));
  CHECK(clock_resolution_seconds([] { return 42.0; }) == kUnknownResolution);  // a clock that never moves
}

TEST_CASE("the matmul peak under a clock rounded to 1 ms or 4 ms is the fine clock's within 10%") {
  // Interleaved, best of two each, so a busy moment of a shared machine hits both clocks alike.
  double fine = 0, ms1 = 0, ms4 = 0;
  for (int round = 0; round < 2; ++round) {
    fine = std::max(fine, peak(fine_clock()));
    ms1 = std::max(ms1, peak(rounded(1e-3)));
    ms4 = std::max(ms4, peak(rounded(4e-3)));
  }
  CAPTURE(fine);
  CAPTURE(ms1);
  CAPTURE(ms4);
  CHECK(ms1 == doctest::Approx(fine).epsilon(0.10));
  CHECK(ms4 == doctest::Approx(fine).epsilon(0.10));
}

TEST_CASE("each timed span of the peak covers at least 100 ticks and 0.1 s, over at least three spans") {
  const PeakMeasurement m = measure_matmul_peak(0.0, rounded(1e-3), 1e-3);
  CHECK(m.spans >= kPeakSpans);
  CHECK(m.best_span_seconds >= std::max(kSpanTicks * 1e-3, kPeakMinSpanSeconds));
  CHECK(m.repetitions_per_span >= 1);
  CHECK(m.flops_per_s == doctest::Approx(2.0 * 256 * 256 * 256 * static_cast<double>(m.repetitions_per_span) / m.best_span_seconds));
}

TEST_CASE("a clock that never moves gives no peak instead of running forever or dividing by zero") {
  CHECK(measure_matmul_peak(0.0, [] { return 1.0; }, 1e-3).flops_per_s == 0.0);
}

TEST_CASE("steps of 4.3 ms under a 1 ms clock are timed in spans of at least 100 ticks, to within 2%") {
  double now = 0.0;  // simulated seconds; the timer reads them rounded down to whole milliseconds
  StepTimer timer([&now] { return std::floor(now / 1e-3) * 1e-3; }, 1e-3);
  const int calls[] = {1, 30, 30, 30, 9};  // like the worker's chunks: one step first, the rest ~120 ms
  for (int n : calls) {
    now += 0.0123;  // time between calls (messages, drawing) is not training
    timer.begin_call();
    for (int i = 0; i < n; ++i) {
      now += 0.0043;
      timer.step_done();
    }
    timer.end_call();
  }
  const StepTimes t = timer.times();
  REQUIRE(timer.step_seconds().size() == 100);
  CHECK(t.resolution_seconds == 1e-3);
  CHECK(t.min_span_ticks >= kSpanTicks);
  CHECK(t.steps_timed == 90);  // the lone first step and the last call's 9 steps span < 100 ticks
  CHECK(t.median_seconds == doctest::Approx(0.0043).epsilon(0.02));
  CHECK(t.min_seconds == doctest::Approx(0.0043).epsilon(0.02));
  double sum = 0;
  for (double s : timer.step_seconds()) sum += s;
  CHECK(sum == doctest::Approx(t.total_seconds));
  CHECK(t.total_seconds == doctest::Approx(100 * 0.0043).epsilon(0.02));
}

TEST_CASE("a run too short for 100 ticks is timed over every step and says how short its spans were") {
  double now = 0.0;
  StepTimer timer([&now] { return std::floor(now / 1e-3) * 1e-3; }, 1e-3);
  timer.begin_call();
  for (int i = 0; i < 10; ++i) {
    now += 0.0043;
    timer.step_done();
  }
  timer.end_call();
  const StepTimes t = timer.times();
  CHECK(t.spans == 1);
  CHECK(t.steps_timed == 10);
  CHECK(t.min_span_ticks < kSpanTicks);
  CHECK(t.median_seconds == doctest::Approx(0.0043).epsilon(0.03));
}

TEST_CASE("a short remainder at the end of a call joins the call's previous span") {
  double now = 0.0;
  StepTimer timer([&now] { return now; }, 1e-3);
  timer.begin_call();
  for (int i = 0; i < 12; ++i) {
    now += i < 10 ? 0.010 : 0.001;  // ten 10 ms steps close a 100-tick span; two 1 ms steps remain
    timer.step_done();
  }
  timer.end_call();
  const StepTimes t = timer.times();
  CHECK(t.spans == 1);
  CHECK(t.min_span_ticks == doctest::Approx(102.0));
  CHECK(timer.step_seconds().back() == doctest::Approx(0.102 / 12));
}
