// The eager activation model (core/pytorch_eager.cpp): exact against every PyTorch measurement in
// tests/fixtures/pytorch (scripts/measure-pytorch.py), and the PyTorch behaviours it names.
#include <doctest/doctest.h>
#include <fstream>
#include <map>
#include <sstream>
#include "pytorch_eager.hpp"
#include "pytorch_fixtures.hpp"
#include "scenario_json.hpp"

using namespace lab;
using nlohmann::json;

namespace {
std::map<std::string, std::int64_t> predicted_by_op(const Scenario& s) {
  const EagerActivations e = eager_activations(s);
  std::map<std::string, std::int64_t> m;
  for (const auto& i : e.per_layer) m[i.op] += i.bytes * s.model.layers;
  for (const auto& i : e.model) m[i.op] += i.bytes;
  if (e.weight_cache_bytes) m["autocast_weight_cache"] = e.weight_cache_bytes;
  return m;
}
std::int64_t item(const std::vector<EagerItem>& items, const std::string& op) {
  for (const auto& i : items)
    if (i.op == op) return i.bytes;
  return 0;
}
Scenario pytorch(json j) {
  j["framework"] = "pytorch";
  return parse_scenario(j);
}
}  // namespace

TEST_CASE("the eager model predicts every measured fixture's saved-tensor bytes exactly, op by op") {
  const auto fixtures = test_fixtures::pytorch_fixtures();
  REQUIRE(fixtures.size() >= 10);
  for (const auto& [name, fx] : fixtures) {
    CAPTURE(name);
    const Scenario s = parse_scenario(fx["scenario"]);
    const auto predicted = predicted_by_op(s);
    std::map<std::string, std::int64_t> measured;
    for (const auto& [op, bytes] : fx["saved_bytes_by_op"].items()) measured[op] = bytes.get<std::int64_t>();
    CHECK(predicted == measured);
    for (const auto& [op, bytes] : measured) {
      CAPTURE(op);
      CHECK(predicted.count(op) == 1);
      if (predicted.count(op)) CHECK(predicted.at(op) == bytes);
    }
    for (const auto& [op, bytes] : predicted) {
      CAPTURE(op);
      CHECK(measured.count(op) == 1);
    }
    const EagerActivations e = eager_activations(s);
    CHECK(e.saved_bytes + e.weight_cache_bytes == fx["saved_bytes_total"].get<std::int64_t>());
  }
}
