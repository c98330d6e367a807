// solve: scenario (+ max_batch_size) -> the memory solver's answer as JSON (core/facade/README.md, core/solver/README.md). Errors
// are those of evaluate (one named field each), through the same guarded boundary.
#include "facade/facade.hpp"
#include "facade/facade_pipeline.hpp"
#include "facade/json_fields.hpp"
#include "facade/scenario_json.hpp"
#include "solver/solver.hpp"

namespace lab::facade {
using nlohmann::json;

namespace {

json performance_json(const std::optional<ConfigPerformance>& p) {
  if (!p) return nullptr;
  return {{"configuration", configuration_json(p->config)}, {"peak_bytes", p->peak_bytes}, {"mfu", p->mfu},
          {"hfu", p->hfu}, {"tokens_per_second", p->tokens_per_second}, {"step_seconds", p->step_seconds}};
}

json floor_json(const Floor& f) {
  json derivation = json::array();
  for (const auto& c : f.derivation)
    derivation.push_back({{"component", c.component},
                          {"bytes_per_param", c.bytes_per_param >= 0 ? json(c.bytes_per_param) : json(nullptr)},
                          {"bytes", c.bytes}, {"words", c.words}});
  json ties = json::array();
  for (const auto& t : f.static_ties) ties.push_back({{"precision", to_string(t.precision)}, {"optimizer", to_string(t.optimizer)}});
  return {{"peak_bytes", f.peak_bytes}, {"static_bytes", f.static_bytes}, {"static_floor_bytes", f.static_floor_bytes},
          {"static_floor_ties", ties}, {"configuration", configuration_json(f.config)},
          {"derivation", derivation}, {"text", f.text}};
}

json path_json(const CheapestPath& p) {
  json moves = json::array();
  for (const auto& m : p.moves)
    moves.push_back({{"kind", m.kind}, {"move", m.description}, {"configuration", configuration_json(m.config)},
                     {"peak_bytes", m.peak_bytes}, {"fits", m.fits}});
  return {{"start", {{"configuration", configuration_json(p.start)}, {"peak_bytes", p.start_peak_bytes},
                     {"fits", p.start_fits}}},
          {"moves", moves}, {"reaches_fit", p.reaches_fit},
          {"relative_training_time", p.relative_training_time}, {"reason", p.reason}};
}

}  // namespace

json solve_json(const json& request) {
  const Scenario s = parse_scenario(request, {"max_batch_size"});
  const bool pytorch = s.framework.framework == Framework::pytorch;
  if (s.activation_model == ActivationModel::pytorch_eager && !pytorch)
    throw InputError("activation_model", "the solver counts 'pytorch_eager' with framework \"pytorch\"");
  if (s.activation_model == ActivationModel::inventory)
    throw InputError("activation_model", "the solver searches with the analytic models; 'inventory' (the reference engine's exact table) is for evaluate");
  SolverOptions o;
  if (request.contains("max_batch_size"))
    o.max_batch_size = fields::to_int(request["max_batch_size"], "max_batch_size", 1, 65536);
  const SolverResult r = solve(s, o);
  const LargestBatch& lb = r.largest;
  json stalls = json::array();
  for (const auto& st : r.stalls_but_fits)
    stalls.push_back({{"configuration", configuration_json(st.config)}, {"peak_bytes_at_batch_1", st.peak_bytes_at_batch_1},
                      {"largest_batch", st.largest_batch},
                      {"note", "fits, but without an FP32 master copy small updates round away (updates stall)"}});
  return {
      {"engine_version", kEngineVersion},
      {"scenario", scenario_to_json(s)},
      {"device", {{"id", s.device.id}, {"name", s.device.name}, {"capacity_bytes", r.capacity_bytes}}},
      {"convention", to_string(r.convention)},
      {"floor", floor_json(r.floor)},
      {"device_fits_floor", r.device_fits_floor},
      {"largest_batch", {{"configuration", configuration_json(lb.config)}, {"largest_batch", lb.largest_batch},
                         {"peak_bytes", lb.peak_bytes},
                         {"next_peak_bytes", lb.next_peak_bytes >= 0 ? json(lb.next_peak_bytes) : json(nullptr)},
                         {"scenario_batch_fits", lb.scenario_batch_fits}, {"scenario_peak_bytes", lb.scenario_peak_bytes},
                         {"numerically_valid", lb.numerically_valid}}},
      {"cheapest_path", path_json(r.path)},
      {"best_mfu", performance_json(r.best_mfu)},
      {"best_mfu_same_optimizer", performance_json(r.best_mfu_same_optimizer)},
      {"best_throughput", performance_json(r.best_throughput)},
      {"max_batch_size", o.max_batch_size},
      {"stalls_but_fits", stalls},
      {"pipeline_constants", constants_json(constants_for(s))},
      {"configurations_evaluated", r.configurations_evaluated},
      {"checkpointing_options", r.checkpointing_options},
      {"framework", pytorch ? "pytorch" : "textbook"},
      {"counting", pytorch ? "largest_batch and cheapest_path: PyTorch's step peak; the rest: the textbook layout (autocast as mixed)"
                           : "the textbook layout"},
  };
}

std::string solve(const std::string& request_json) { return run_guarded(request_json, solve_json); }

}  // namespace lab::facade
