// Scenarios shared by the parallel layer's tests: a parsed scenario with "parallel" (the facade's
// parser, enabled by the doctest main), so each test states only what it varies.
#pragma once
#include <string>
#include <nlohmann/json.hpp>
#include "facade/scenario_json.hpp"

namespace lab::test {

inline Scenario parallel_scenario(nlohmann::json request, const nlohmann::json& parallel) {
  request["parallel"] = parallel;
  return parse_scenario(request);
}

}  // namespace lab::test
