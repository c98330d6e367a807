// evaluate: scenario -> memory ledger, FLOPs and Iron Law, in the README's fixed result format.
#include "facade.hpp"
#include "flops.hpp"
#include "memory.hpp"
#include "scenario_json.hpp"

namespace lab::facade {
using nlohmann::json;

namespace {

json memory_json(const Scenario& s, const MemoryLedger& m) {
  json vectors = json::array();
  for (const auto& v : m.optimizer_vectors) vectors.push_back({{"name", v.name}, {"bytes", v.bytes}});
  json timeline = json::array();
  for (const auto& t : m.timeline) timeline.push_back({{"phase", t.name}, {"bytes", t.bytes}});
  return {
      {"components", {{"weights", m.weights}, {"master_weights", m.master_weights}, {"gradients", m.gradients},
                      {"optimizer_state", m.optimizer_state}, {"activations", m.activations},
                      {"logits", m.logits}, {"reserve", m.reserve}}},
      {"optimizer_vectors", vectors},
      {"bytes_per_parameter", {{"weights", m.per_param.weights}, {"master_weights", m.per_param.master},
                               {"gradients", m.per_param.gradients},
                               {"optimizer_state", m.per_param.per_optimizer_vector * m.per_param.optimizer_vectors},
                               {"static", m.per_param.total()}}},
      {"parameters_counted", m.parameters},
      {"static_bytes", m.static_bytes},
      {"total_bytes", m.total_bytes},
      {"peak_bytes", m.peak_bytes},
      {"transients", {{"logits_gradient", m.logits_gradient}, {"recompute_working_set", m.activation.recompute_working_bytes}}},
      {"timeline", timeline},
      {"usable_device_bytes", m.usable_device_bytes},
      {"fits", m.fits},
      {"binding", {{"kind", to_string(m.binding)}, {"message", m.binding_message},
                   {"headroom_bytes", m.usable_device_bytes - m.peak_bytes}}},
      {"activations_detail", {{"per_layer_full_bytes", m.activation.per_layer_full_bytes},
                              {"per_layer_saved_bytes", m.activation.per_layer_saved_bytes},
                              {"layers_saving", m.activation.layers_saving},
                              {"element_bytes", activation_element_bytes(s.precision)},
                              {"formula", m.activation.formula}}},
      {"static_by_convention", {{"ours", static_bytes_under(s, Convention::ours)},
                                {"chapter", static_bytes_under(s, Convention::chapter)},
                                {"megatron", static_bytes_under(s, Convention::megatron)}}},
      {"numerically_valid", !(s.precision == Precision::fp16 || s.precision == Precision::bf16)},
  };
}

json flops_json(const Scenario& s, const FlopsEstimate& f) {
  const double total = static_cast<double>(f.model_per_token) * s.train_tokens;
  return {{"model_per_token", f.model_per_token},
          {"hardware_per_token", f.hardware_per_token},
          {"recompute_per_token", f.recompute_per_token},
          {"tokens_per_step", f.tokens_per_step},
          {"model_per_step", f.model_per_step},
          {"hardware_per_step", f.hardware_per_step},
          {"peak_flops_per_s", f.peak_flops_per_s},
          {"precision_supported", f.precision_supported},
          {"iron_law", {{"train_tokens", s.train_tokens}, {"total_model_flops", total},
                        {"num_devices", s.num_devices}, {"efficiency", s.efficiency},
                        {"time_to_train_seconds", iron_law_seconds(total, s.num_devices, f.peak_flops_per_s, s.efficiency)}}}};
}

}  // namespace

json evaluate_json(const json& request) {
  const Scenario s = parse_scenario(request);
  const ParameterBreakdown p = count_parameters(s.model);
  const MemoryLedger m = compute_ledger(s);
  const FlopsEstimate f = estimate_flops(s);
  json warnings = json::array();
  if (!f.precision_supported)
    warnings.push_back({{"field", "precision"}, {"message", s.device.name + " has no " + to_string(s.precision) + " tensor cores; its FP32 peak is used"}});
  return {{"engine_version", kEngineVersion},
          {"scenario", scenario_to_json(s)},
          {"model", {{"id", s.model.id}, {"name", s.model.name}, {"parameters", p.total},
                     {"parameters_detail", {{"token_embedding", p.token_embedding}, {"position_embedding", p.position_embedding},
                                            {"per_layer", p.per_layer}, {"layers_total", p.layers_total},
                                            {"final_norm", p.final_norm}, {"head", p.head}}},
                     {"layers", s.model.layers}, {"hidden", s.model.hidden}, {"heads", s.model.heads},
                     {"provenance", s.model.provenance}}},
          {"device", {{"id", s.device.id}, {"name", s.device.name}, {"capacity_bytes", s.device.capacity_bytes},
                      {"provenance", s.device.provenance}}},
          {"memory", memory_json(s, m)},
          {"flops", flops_json(s, f)},
          {"warnings", warnings}};
}

}  // namespace lab::facade
