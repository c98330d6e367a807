// libFuzzer harness for every facade entry point (scripts/fuzz.sh builds and runs it). The first
// input byte picks the entry point (byte & 3: 0 evaluate, 1 solve, 2 train, 3 verify_ledger; for
// train, byte & 4 drives a TrainSession instead, for solve lab_scale's solve_scale); the rest is the request text. It checks the
// facade's contract: never throws, never crashes, always answers one JSON document. Multi-device
// scenarios ("parallel") are on, as in lab_scale and lab_ledger.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <string>
#include <nlohmann/json.hpp>
#include "facade/facade.hpp"
#include "facade/facade_ledger.hpp"
#include "facade/facade_parallel.hpp"
#include "facade/facade_solve_parallel.hpp"
#include "facade/facade_train.hpp"

namespace {
using nlohmann::json;

// Caps that keep one train input to milliseconds under ASan: a 2-layer, 32-wide model, two steps of
// a 2 × 16 batch. Defaults are filled in too (the engine's own defaults, 4 × 128 × 20 steps, take
// seconds). Values of the wrong type or out of the facade's range are passed unchanged, so the
// request checks still see them; measure_peak (a 0.25 s benchmark) is always off.
struct Cap {
  const char* key;
  std::int64_t max;
};
constexpr Cap kTrainCaps[] = {{"vocab", 64},      {"context", 32},    {"d_model", 32}, {"layers", 2},
                              {"mlp_hidden", 64}, {"batch_size", 2}, {"seq_len", 16}, {"steps", 2}};

// Returns the request to send to train: the text itself when it is not a JSON object (the parse
// and type errors are what is being fuzzed then), else the object with every size capped.
std::string bounded_train_request(const std::string& text) {
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return text;
  for (const Cap& c : kTrainCaps) {
    if (!j.contains(c.key)) {
      j[c.key] = c.max;
      continue;
    }
    json& v = j[c.key];
    if (v.is_number() && v.get<double>() > static_cast<double>(c.max)) v = c.max;
  }
  if (j.contains("measure_peak") && j["measure_peak"].is_boolean()) j["measure_peak"] = false;
  return j.dump();
}

// The facade's contract: every answer is one JSON document (a result or {"error": {...}}).
void expect_json(const std::string& answer, const char* entry) {
  if (!json::accept(answer)) {
    std::fprintf(stderr, "%s answered text that is not JSON: %.200s\n", entry, answer.c_str());
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  lab::facade::enable_parallel();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const unsigned selector = data[0];
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  namespace f = lab::facade;
  switch (selector & 3u) {
    case 0: expect_json(f::evaluate(text), "evaluate"); break;
    case 1:  // byte & 4: lab_scale's solve (with "parallel": the fewest-devices search too)
      expect_json(selector & 4u ? f::solve_scale(text) : f::solve(text), selector & 4u ? "solve_scale" : "solve");
      break;
    case 2: {
      const std::string request = bounded_train_request(text);
      if (!(selector & 4u)) {
        expect_json(f::train(request), "train");
        break;
      }
      // The Web Worker's path: construct, status, a few steps (the step count from the next byte,
      // negative included), report.
      f::TrainSession s(request);
      expect_json(s.status(), "TrainSession::status");
      const int n = size > 1 ? static_cast<int>(static_cast<std::int8_t>(data[1])) % 4 : 1;
      expect_json(s.step(n), "TrainSession::step");
      expect_json(s.step(1), "TrainSession::step");
      expect_json(s.report(), "TrainSession::report");
      break;
    }
    default: expect_json(f::verify_ledger(text), "verify_ledger"); break;
  }
  return 0;
}
