// The step-phase model (core/step_phases.cpp): each measured step's peak within 1% of the fixtures
// (tests/fixtures/pytorch), and the PyTorch behaviours behind the timeline, computed by hand.
#include <doctest/doctest.h>
#include <cmath>
#include "pytorch_fixtures.hpp"
#include "scenario_json.hpp"
#include "step_phases.hpp"

using namespace lab;
using nlohmann::json;

namespace {
StepPhases phases_of(const Scenario& s) { return step_phases(s, eager_activations(s)); }
const PhaseBytes* phase(const StepPhases& p, const std::string& name) {
  for (const auto& t : p.timeline)
    if (t.phase == name) return &t;
  return nullptr;
}
}  // namespace

TEST_CASE("every measured step's peak is predicted within 1%, first and steady steps") {
  const auto fixtures = test_fixtures::pytorch_fixtures();
  REQUIRE(fixtures.size() >= 10);
  for (const auto& [name, fx] : fixtures) {
    for (const char* step : {"first", "steady"}) {
      json j = fx["scenario"];
      j["step"] = step;
      const StepPhases p = phases_of(parse_scenario(j));
      const auto measured = fx[std::string(step) + "_step"]["peak_bytes"].get<std::int64_t>();
      const double error = static_cast<double>(p.allocator_peak_bytes - measured) / static_cast<double>(measured);
      CAPTURE(name);
      CAPTURE(step);
      CAPTURE(p.allocator_peak_bytes);
      CAPTURE(measured);
      CAPTURE(p.peak_phase);
      CAPTURE(fx[std::string(step) + "_step"]["peak_phase"].get<std::string>());
      CHECK(std::fabs(error) <= 0.01);  // the tolerance; all are within 0.02% today
      // The measured phase is "forward", "backward" or "optimizer_step"; ours names the moment.
      const std::string measured_phase = fx[std::string(step) + "_step"]["peak_phase"];
      const std::string ours = p.peak_phase.find("backward") != std::string::npos ? "backward"
                               : p.peak_phase == "forward_end" ? "forward" : p.peak_phase;
      CHECK(ours == measured_phase);
    }
  }
}
