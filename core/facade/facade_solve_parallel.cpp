// lab_scale's solve and its "fewest_devices": for each ZeRO stage the least data_parallel (1..1024) whose heaviest device
// fits, found by solver_parallel.cpp over the parallel hook's per-device ledger, and the step time of
// the answer from evaluate itself (so it is the number the page shows for that scenario).
#include "facade/facade_solve_parallel.hpp"
#include <algorithm>
#include "facade/facade.hpp"
#include "facade/facade_parallel.hpp"
#include "facade/scenario_json.hpp"
#include "solver/solver.hpp"
#include "solver/solver_parallel.hpp"
#include "util/errors.hpp"

namespace lab::facade {
using nlohmann::json;

namespace {

constexpr std::int64_t kMaxDevices = 1LL << 20;  // the parser's limit on N × t × p

// The request with N and the stage set (num_devices follows from them; the timeline is not needed).
json request_at(const json& request, int stage, std::int64_t n) {
  json r = request;
  r.erase("max_batch_size");
  r.erase("num_devices");
  r["parallel"]["data_parallel"] = n;
  r["parallel"]["zero_stage"] = stage;
  return r;
}

const ParallelHooks& hooks_for(const Scenario& s) {
  const ParallelHooks* hooks = parallel_hooks();
  if (!hooks || !s.parallel) throw InputError("parallel", "the fewest devices are searched for a scenario with \"parallel\"");
  return *hooks;
}

}  // namespace

DeviceLoadFn device_load_fn(const Scenario& s) {
  const ParallelHooks& hooks = hooks_for(s);
  const std::int64_t per_replica = s.parallel->tensor_parallel * s.parallel->pipeline_parallel;
  const bool trains = numerically_valid(s.precision);  // pure FP16/BF16 never reads as a fit
  return [&hooks, s, per_replica, trains](int stage, std::int64_t n) {
    Scenario t = s;
    t.parallel->data_parallel = n;
    t.parallel->zero_stage = stage;
    t.num_devices = n * per_replica;
    const MemoryLedger m = hooks.ledger(t);
    return DeviceLoad{m.peak_bytes, m.fits && trains};
  };
}

json fewest_devices_json(const json& request, const Scenario& s) {
  const ParallelHooks& hooks = hooks_for(s);
  const std::int64_t per_replica = s.parallel->tensor_parallel * s.parallel->pipeline_parallel;
  const std::int64_t max_n = std::min(kMaxDataParallel, kMaxDevices / per_replica);
  const bool trains = numerically_valid(s.precision);
  // Framework "pytorch" models PyTorch's own stages only (DDP and ZeRO stage 1): the others are not searched.
  const int max_stage = s.framework.framework == Framework::pytorch ? 1 : 3;
  const FewestDevices f = fewest_devices(device_load_fn(s), per_replica, max_n, max_stage);
  json by_stage = json::array();
  for (const auto& st : f.by_stage)
    by_stage.push_back({{"zero_stage", st.zero_stage},
                        {"devices", st.data_parallel ? json(st.devices) : json(nullptr)},
                        {"data_parallel", st.data_parallel ? json(*st.data_parallel) : json(nullptr)},
                        {"peak_bytes_per_device", st.peak_bytes_per_device}});
  json step_s = nullptr;
  if (f.found) step_s = evaluate_json(request_at(request, f.zero_stage, f.data_parallel))["parallel"]["step_s"];
  const std::int64_t capacity = hooks.ledger(s).usable_device_bytes;
  std::string text = fewest_devices_text(f, s.model.name, s.device.name, capacity);
  if (!trains)
    text = "Without an FP32 master copy (" + std::string(to_string(s.precision)) +
           ") small updates round away, so no number of devices trains it this way; choose mixed or fp32.";
  return {{"devices", f.found ? json(f.devices) : json(nullptr)},
          {"data_parallel", f.found ? json(f.data_parallel) : json(nullptr)},
          {"zero_stage", f.found ? json(f.zero_stage) : json(nullptr)},
          {"peak_bytes_per_device", f.found ? json(f.peak_bytes_per_device) : json(nullptr)},
          {"step_s", step_s},
          {"by_stage", by_stage},
          {"max_devices", f.max_devices},
          {"text", text}};
}

json solve_scale_json(const json& request) {
  json out = solve_json(request);
  if (request.is_object() && request.contains("parallel"))  // solve_json parsed it: the hook is enabled
    out["fewest_devices"] = fewest_devices_json(request, parse_scenario(request, {"max_batch_size"}));
  return out;
}

std::string solve_scale(const std::string& request_json) { return run_guarded(request_json, solve_scale_json); }

}  // namespace lab::facade
