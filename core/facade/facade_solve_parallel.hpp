// lab_scale's solve: lab_core's solve plus, for a scenario with "parallel", "fewest_devices" (the
// search: core/solver/solver_parallel.hpp; per-device memory: the parallel hook, so enable_parallel()
// first). An entry point of its own, not part of facade::solve: linked into lab_core, it added 5.3 KB
// gzipped to the first load (wasm/README.md). JSON keys: core/facade/README.md, "solve with parallel".
#pragma once
#include <string>
#include <nlohmann/json.hpp>
#include "model/scenario.hpp"
#include "solver/solver_parallel.hpp"

namespace lab::facade {

// One device's load at (stage, N) for the scenario's other knobs: the parallel hook's heaviest-device
// ledger; "fits" also needs a precision that can train (an FP32 master copy or FP32).
DeviceLoadFn device_load_fn(const Scenario& s);

// `request` is solve's request (a scenario with "parallel"), `s` its parsed scenario.
nlohmann::json fewest_devices_json(const nlohmann::json& request, const Scenario& s);

// solve_json, with "fewest_devices" when the request has "parallel"; solve_scale is its guarded text form.
nlohmann::json solve_scale_json(const nlohmann::json& request);
std::string solve_scale(const std::string& request_json);

}  // namespace lab::facade
