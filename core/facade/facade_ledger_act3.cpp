// verify_ledger's Act 3 record (result_snapshot.act3, written by web/src/models/act3-model.js act3Record):
// re-computes the fewest GPUs for the prediction's scenario, the explore scenario's step time on each
// recorded interconnect, and whether each reflection answer is right, from the engine (needs the
// parallel hook: lab_ledger and the native tests enable it). The answer keys mirror act3-model.js.
#include <string>
#include "facade/facade.hpp"
#include "facade/facade_ledger.hpp"
#include "facade/facade_solve_parallel.hpp"
#include "facade/json_fields.hpp"

namespace lab::facade {
using nlohmann::json;

namespace {

constexpr const char* kSnapshot = "result_snapshot.act3";
// act3-model.js reflectNumbers: the ceiling question is scored at 1,024 GPUs over PCIe 4.
constexpr std::int64_t kFarGpus = 1024;
constexpr const char* kFarInterconnect = "pcie4";
constexpr std::size_t kMaxInterconnects = 16;  // the catalogue has 10

// evaluate/solve on a recorded scenario; an engine error names the recorded field it came from.
json run(json (*fn)(const json&), const json& scenario, const std::string& path) {
  fields::require_object(scenario, path);
  try {
    return fn(scenario);
  } catch (const InputError& e) {
    throw InputError(path, std::string("the recorded scenario is not valid (") + e.field + ": " + e.message + ")");
  }
}

const json& need(const json& obj, const char* key, const std::string& path) {
  fields::require_object(obj, path);
  const auto it = obj.find(key);
  if (it == obj.end()) throw InputError(fields::join_path(path, key), std::string("missing field '") + key + "'");
  return *it;
}

// The scenario with some of its "parallel" knobs replaced.
json with_parallel(json scenario, const json& patch, const std::string& path) {
  fields::require_object(need(scenario, "parallel", path), path + ".parallel");
  scenario["parallel"].merge_patch(patch);
  return scenario;
}

std::int64_t stage0_static_bytes(const json& evaluated) {
  for (const auto& s : evaluated["parallel"]["memory_by_stage"])
    if (s["zero_stage"] == 0) return s["static_bytes"].get<std::int64_t>();
  throw InputError(kSnapshot, "the engine's result has no stage-0 memory");
}

// act3-model.js reflectKeys. Data parallelism: "copies" when plain data parallelism's per-GPU model
// states do not shrink from 1 GPU to the answer's count. The ceiling: "ratio" when communication costs
// time at 1,024 GPUs over PCIe (r > 0 and the speedup below the GPU count), else "count".
std::string dp_key(const json& predict, std::int64_t devices, const std::string& path) {
  const auto at = [&](std::int64_t n) { return run(evaluate_json, with_parallel(predict, {{"data_parallel", n}, {"zero_stage", 0}}, path), path); };
  return static_cast<double>(stage0_static_bytes(at(devices))) >= static_cast<double>(stage0_static_bytes(at(1))) * 0.999 ? "copies" : "split";
}

std::string ceiling_key(const json& predict, const std::string& path) {
  const json far = run(evaluate_json, with_parallel(predict, {{"data_parallel", kFarGpus}, {"interconnect", kFarInterconnect}}, path), path);
  const json& p = far["parallel"];
  return p["communication_ratio"].get<double>() > 0 && p["speedup"].get<double>() < p["devices"].get<double>() ? "ratio" : "count";
}

}  // namespace

Act3Recomputed act3_recompute(const json& ledger) {
  Act3Recomputed out;
  const json* snap = ledger.contains("result_snapshot") && ledger["result_snapshot"].is_object() && ledger["result_snapshot"].contains("act3")
                         ? &ledger["result_snapshot"]["act3"] : nullptr;
  if (!snap || snap->is_null()) {
    out.skipped.push_back({kSnapshot, "no Act 3 record (Act 3 not reached, or a ledger made before it)"});
    return out;
  }
  const std::string p = kSnapshot;
  fields::require_object(*snap, p);
  if (need(*snap, "act", p) != 3) throw InputError(p + ".act", "must be 3");

  // The fewest GPUs for the prediction's scenario, fully sharded (solve's fewest_devices, stage 3).
  const json& predict = need(*snap, "prediction_scenario", p);
  const json solved = run(solve_scale_json, predict, p + ".prediction_scenario");
  const json& stage3 = solved["fewest_devices"]["by_stage"][3];
  out.values.push_back({p + ".devices_needed", stage3["devices"], "Act 3: the fewest GPUs that train the prediction's scenario, fully sharded"});
  // The lab state's copy of the answer the prediction was scored against, where the page keeps one.
  const json pred = ledger.value(json::json_pointer("/lab_state/acts/act3/prediction"), json());
  if (pred.is_object() && pred.contains("truth_devices")) out.values.push_back({"lab_state.acts.act3.prediction.truth_devices", stage3["devices"], "Act 3 prediction: the engine's answer it was scored against"});

  // The explore scenario's step time on each interconnect the record names.
  const json& settings = need(*snap, "settings", p);
  const json evaluated = run(evaluate_json, settings, p + ".settings");
  out.scenario = evaluated["scenario"];
  const json& steps = need(*snap, "step_s_by_interconnect", p);
  fields::require_object(steps, p + ".step_s_by_interconnect");
  if (steps.size() > kMaxInterconnects)
    throw InputError(p + ".step_s_by_interconnect", "names " + std::to_string(steps.size()) + " interconnects; the catalogue has fewer than " + std::to_string(kMaxInterconnects));
  for (const auto& [id, recorded] : steps.items()) {
    json r;
    try {
      r = evaluate_json(with_parallel(settings, {{"interconnect", id}}, p + ".settings"));
    } catch (const InputError& e) {
      throw InputError(p + ".step_s_by_interconnect." + id, "is not an interconnect the engine knows (" + e.message + ")");
    }
    out.values.push_back({p + ".step_s_by_interconnect." + id, r["parallel"]["step_s"], "Act 3 reveal: seconds per step of the explored setting on this interconnect"});
  }

  // Each reflection answer: right or not, against the key the engine's numbers give.
  const json& reflect = need(*snap, "reflect", p);
  if (!reflect.is_array() || reflect.size() > 2) throw InputError(p + ".reflect", "must be an array of at most two answers");
  for (std::size_t i = 0; i < reflect.size(); ++i) {
    const std::string q = p + ".reflect[" + std::to_string(i) + "]";
    const std::string id = fields::to_string_value(need(reflect[i], "id", q), q + ".id");
    const std::string choice = fields::to_string_value(need(reflect[i], "choice", q), q + ".choice");
    std::string key;
    if (id == "act3_dp") {
      if (!stage3["devices"].is_number_integer()) {
        out.skipped.push_back({q + ".correct", "no GPU count up to 1,024 trains the prediction's scenario, so the question has no engine answer"});
        continue;
      }
      key = dp_key(predict, stage3["devices"].get<std::int64_t>(), p + ".prediction_scenario");
    } else if (id == "act3_ceiling") {
      key = ceiling_key(predict, p + ".prediction_scenario");
    } else {
      throw InputError(q + ".id", "Act 3 asks two questions, act3_dp and act3_ceiling (got '" + id.substr(0, 40) + "')");
    }
    out.values.push_back({q + ".correct", choice == key, id == "act3_dp" ? "Act 3 reflection: why data parallelism alone does not help, scored by the engine"
                                                                         : "Act 3 reflection: what sets the scaling ceiling, scored by the engine"});
  }
  return out;
}

}  // namespace lab::facade
