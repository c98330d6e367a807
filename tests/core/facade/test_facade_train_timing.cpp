// The train session's timing under a clock rounded to 1 ms (Firefox and Safari without cross-origin
// isolation): its resolution is reported, the steps are timed in spans of at least 100 ticks, and the
// utilisation stays where physics puts it: a step runs the peak's own kernel plus other work, so its
// executed FLOP/s (HFU) cannot exceed the measured peak.
#include <doctest/doctest.h>
#include <cmath>
#include <string>
#include "facade/facade_train.hpp"

using nlohmann::json;
using namespace lab::facade;

namespace {
lab::ref::Clock rounded_to_1ms() {
  const lab::ref::Clock fine = lab::ref::steady_clock_seconds();
  return [fine] { return std::floor(fine() / 1e-3) * 1e-3; };
}
// Chunks of steps like the worker's, each long enough for a span of 100 ticks at 1 ms.
json run_in_chunks(TrainSession& s, int chunk) {
  for (bool done = false; !done;) done = s.step_json(chunk)["done"].get<bool>();
  return s.report_json();
}
// Steps big enough that each chunk of 20 lasts well over 100 ms of the 1 ms clock on any CPU this
// runs on (at batch 2 × 16 tokens the fma build took 5 ms a step, and one chunk fell under 100 ticks).
const char* kRequest = R"({"batch_size": 4, "seq_len": 32, "steps": 40, "measure_peak": true})";
}  // namespace

TEST_CASE("under a 1 ms clock the session reports the resolution, spans of 100 ticks and an HFU within physics") {
  TrainSession s(kRequest, rounded_to_1ms());
  const json status = s.status_json();
  REQUIRE_FALSE(status.contains("error"));
  CHECK(status["clock_resolution_seconds"].get<double>() == doctest::Approx(1e-3));
  const json r = run_in_chunks(s, 20);
  REQUIRE_FALSE(r.contains("error"));
  const json& t = r["time"];
  CAPTURE(t.dump());
  CAPTURE(r["peak"].dump());
  CAPTURE(r["throughput"].dump());
  CHECK(t["clock_resolution_seconds"].get<double>() == doctest::Approx(1e-3));
  CHECK(r["peak"]["clock_resolution_seconds"].get<double>() == doctest::Approx(1e-3));
  CHECK(r["peak"]["best_span_seconds"].get<double>() >= 0.1);
  CHECK(t["shortest_span_ticks"].get<double>() >= 100.0);  // 20 steps of ~16 ms (WASM, fma) or more in each call
  CHECK(t["steps_in_precise_spans"] == 40);
  CHECK(r["throughput"]["hfu"].get<double>() <= 1.0);
  CHECK(r["throughput"]["mfu"].get<double>() <= r["throughput"]["hfu"].get<double>());
  double sum = 0;
  for (const auto& x : r["seconds_per_step"]) sum += x.get<double>();
  CHECK(sum == doctest::Approx(t["total_seconds"].get<double>()));
}

TEST_CASE("the steady clock's session reports a fine resolution and times each step on its own") {
  TrainSession s(R"({"batch_size": 2, "seq_len": 16, "steps": 4})");
  const json r = run_in_chunks(s, 2);
  CHECK(r["time"]["clock_resolution_seconds"].get<double>() < 1e-4);
  CHECK(r["time"]["timed_spans"] == 4);
  CHECK(r["time"]["steps_in_precise_spans"] == 4);
  CHECK_FALSE(r.contains("peak"));
}
