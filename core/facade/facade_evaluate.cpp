// evaluate: scenario -> memory ledger, FLOPs and Iron Law, in the fixed result format (core/facade/README.md).
// Written with JsonWriter (not nlohmann trees) because evaluate runs on every slider change.
#include "facade/facade.hpp"
#include "facade/facade_parallel.hpp"
#include "facade/facade_pipeline.hpp"
#include "model/flops.hpp"
#include "facade/json_writer.hpp"
#include "memory/memory.hpp"
#include "facade/scenario_json.hpp"

namespace lab::facade {
using nlohmann::json;

namespace {

void write_items(JsonWriter& w, const std::vector<EagerItem>& items) {
  w.begin_array();
  for (const auto& i : items) w.begin_object().field("op", i.op).field("bytes", i.bytes).field("source", i.source).end_object();
  w.end_array();
}

// activation_model "pytorch_eager": the saved tensors op by op (core/memory/pytorch_eager.cpp).
void write_eager(JsonWriter& w, const Scenario& s, const EagerActivations& e) {
  w.key("activations_items").begin_object();
  w.key("per_layer");
  write_items(w, e.per_layer);
  w.key("model");
  write_items(w, e.model);
  w.field("layers", s.model.layers).field("per_layer_bytes", e.per_layer_bytes).field("model_bytes", e.model_bytes)
      .field("saved_bytes", e.saved_bytes).field("autocast_weight_cache_bytes", e.weight_cache_bytes)
      .field("autocast_bias_cache_bytes", e.bias_cache_bytes).field("dropout", s.dropout)
      .end_object();
}

// framework "pytorch": live bytes through one step (core/memory/step_phases.cpp).
void write_step_phases(JsonWriter& w, const Scenario& s, const MemoryLedger& m) {
  const auto& p = m.phases;
  const auto& k = s.framework;
  w.field("framework", to_string(k.framework));
  w.key("step_phases").begin_object()
      .field("pytorch_build", to_string(k.build)).field("step", to_string(k.step)).field("mode", to_string(k.mode))
      .field("zero_grad", to_string(k.zero_grad)).field("optimizer_impl", to_string(k.optimizer_impl))
      .field("pytorch_implementation", to_string(k.implementation)).field("autocast_scope", to_string(k.autocast_scope))
      .field("autocast_cache_at_peak", p.cache_at_peak)
      .field("allocator_peak_bytes", p.allocator_peak_bytes).field("reserve_bytes", m.reserve)
      .field("device_peak_bytes", m.peak_bytes).field("peak_phase", p.peak_phase)
      .field("sum_bytes", m.total_bytes).field("sum_minus_peak_bytes", m.total_bytes - m.peak_bytes)
      .field("optimizer_temporary_bytes", p.optimizer_temporary_bytes);
  w.key("timeline").begin_array();
  for (const auto& t : p.timeline) {
    w.begin_object().field("phase", t.phase).field("bytes", t.total())
        .field("parameters", t.parameters).field("gradients", t.gradients).field("optimizer_state", t.optimizer_state)
        .field("activations", t.activations).field("autocast_cache", t.autocast_cache).field("logits", t.logits)
        .field("inputs", t.inputs).field("transient", t.transient).field("buffers", t.buffers)
        .field("cuda_workspace", t.cuda_workspace);
    if (t.gradient_buckets) w.field("gradient_buckets", t.gradient_buckets);  // DDP's copy (parallel_pytorch.cpp)
    w.end_object();
  }
  w.end_array().end_object();
}

void write_memory(JsonWriter& w, const Scenario& s, const MemoryLedger& m) {
  w.key("memory").begin_object();
  w.key("components").begin_object()
      .field("weights", m.weights).field("master_weights", m.master_weights).field("gradients", m.gradients)
      .field("optimizer_state", m.optimizer_state).field("activations", m.activations)
      .field("logits", m.logits).field("reserve", m.reserve);
  if (m.phases_used) w.field("autocast_weight_cache", m.autocast_weight_cache);
  if (m.gradient_buckets) w.field("gradient_buckets", m.gradient_buckets);
  if (m.gathered_parameters) w.field("gathered_parameters", m.gathered_parameters);
  w.end_object();
  if (m.per_device) w.field("per_device", true);
  w.key("optimizer_vectors").begin_array();
  for (const auto& v : m.optimizer_vectors) w.begin_object().field("name", v.name).field("bytes", v.bytes).end_object();
  w.end_array();
  w.key("bytes_per_parameter").begin_object()
      .field("weights", m.per_param.weights).field("master_weights", m.per_param.master)
      .field("gradients", m.per_param.gradients)
      .field("optimizer_state", m.per_param.per_optimizer_vector * m.per_param.optimizer_vectors)
      .field("static", m.per_param.total())
      .end_object();
  w.field("parameters_counted", m.parameters).field("static_bytes", m.static_bytes)
      .field("total_bytes", m.total_bytes).field("peak_bytes", m.peak_bytes);
  w.key("transients").begin_object()
      .field("logits_gradient", m.logits_gradient)
      .field("recompute_working_set", m.activation.recompute_working_bytes)
      .field("engine_transient", m.inventory.transient_at_peak)
      .end_object();
  w.key("timeline").begin_array();
  for (const auto& t : m.timeline) w.begin_object().field("phase", t.name).field("bytes", t.bytes).end_object();
  w.end_array();
  w.field("usable_device_bytes", m.usable_device_bytes).field("fits", m.fits);
  w.key("binding").begin_object()
      .field("kind", to_string(m.binding)).field("message", m.binding_message)
      .field("headroom_bytes", m.usable_device_bytes - m.peak_bytes)
      .end_object();
  w.key("activations_detail").begin_object()
      .field("per_layer_full_bytes", m.activation.per_layer_full_bytes)
      .field("per_layer_saved_bytes", m.activation.per_layer_saved_bytes)
      .field("layers_saving", m.activation.layers_saving)
      .field("element_bytes", activation_element_bytes(s.precision))
      .field("formula", m.activation.formula);
  if (s.activation_model == ActivationModel::chapter) {
    w.field("chapter_kept_share", m.activation.chapter_kept_share);
    if (s.checkpointing.kind == CheckpointKind::every_k)
      w.field("chapter_saving_scale", chapter_every_k_saving_scale(s.model.layers));
  }
  w.end_object();
  const auto under = [&](Convention c) { return m.per_device ? m.static_by_convention[static_cast<int>(c)] : static_bytes_under(s, c); };
  w.key("static_by_convention").begin_object()
      .field("ours", under(Convention::ours))
      .field("chapter", under(Convention::chapter))
      .field("megatron", under(Convention::megatron))
      .end_object();
  w.field("numerically_valid", !(s.precision == Precision::fp16 || s.precision == Precision::bf16));  // autocast: valid
  if (m.inventory.used) {
    w.key("inventory").begin_object()
        .field("tensors", m.inventory.tensors).field("peak_phase", m.inventory.peak_phase);
    w.key("at_peak").begin_object();
    for (const auto& c : m.inventory.at_peak) w.field_dynamic(c.name.c_str(), c.bytes);
    w.end_object();
    w.key("max_by_category").begin_object();
    for (const auto& c : m.inventory.max_by_category) w.field_dynamic(c.name.c_str(), c.bytes);
    w.end_object().end_object();
  }
  if (m.eager_used) write_eager(w, s, m.eager);
  if (m.phases_used) write_step_phases(w, s, m);
  w.end_object();
}

void write_flops(JsonWriter& w, const Scenario& s, const FlopsEstimate& f) {
  const double total = static_cast<double>(f.model_per_token) * s.train_tokens;
  w.key("flops").begin_object()
      .field("model_per_token", f.model_per_token).field("hardware_per_token", f.hardware_per_token)
      .field("recompute_per_token", f.recompute_per_token).field("matmul_parameters", f.matmul_parameters)
      .field("tokens_per_step", f.tokens_per_step)
      .field("model_per_step", f.model_per_step).field("hardware_per_step", f.hardware_per_step)
      .field("peak_flops_per_s", f.peak_flops_per_s).field("precision_supported", f.precision_supported);
  w.key("iron_law").begin_object()
      .field("train_tokens", s.train_tokens).field("total_model_flops", total)
      .field("num_devices", s.num_devices).field("efficiency", s.efficiency)
      .field("time_to_train_seconds", iron_law_seconds(total, s.num_devices, f.peak_flops_per_s, s.efficiency))
      .end_object();
  w.end_object();
}

}  // namespace

std::string evaluate_text(const json& request) {
  const Scenario s = parse_scenario(request);
  const ParameterBreakdown p = count_parameters(s.model);
  // With "parallel" (parsed only when the hooks are enabled): the heaviest device's ledger.
  const ParallelHooks* parallel = s.parallel ? parallel_hooks() : nullptr;
  const MemoryLedger m = parallel ? parallel->ledger(s) : compute_ledger(s);
  const FlopsEstimate f = estimate_flops(s);
  const PipelineResult pipe = compute_pipeline(s, f, {m.fits, /*with_schedule=*/true});
  JsonWriter w;
  w.begin_object();
  w.field("engine_version", kEngineVersion);
  w.key("scenario");
  write_scenario(w, s);
  w.key("model").begin_object()
      .field("id", s.model.id).field("name", s.model.name).field("parameters", p.total);
  w.key("parameters_detail").begin_object()
      .field("token_embedding", p.token_embedding).field("position_embedding", p.position_embedding)
      .field("per_layer", p.per_layer).field("layers_total", p.layers_total)
      .field("final_norm", p.final_norm).field("head", p.head)
      .end_object();
  w.field("layers", s.model.layers).field("hidden", s.model.hidden).field("heads", s.model.heads)
      .field("kv_heads", kv_heads_of(s.model)).field("head_dim", head_dim_of(s.model))
      .field("vocab", s.model.vocab).field("mlp_hidden", s.model.mlp_hidden).field("family", s.model.family)
      .field("provenance", s.model.provenance);
  w.key("notes");
  write_model_notes(w, s.model);
  w.key("spec");
  write_model(w, s.model);
  w.end_object();
  w.key("device").begin_object()
      .field("id", s.device.id).field("name", s.device.name).field("capacity_bytes", s.device.capacity_bytes)
      .field("provenance", s.device.provenance).end_object();
  write_memory(w, s, m);
  write_flops(w, s, f);
  write_pipeline(w, s, f, pipe);
  if (parallel) parallel->write_block(w, s, m, f, pipe);
  w.key("warnings").begin_array();
  if (!f.precision_supported)
    w.begin_object().field("field", "precision")
        .field("message", s.device.name + " has no " + to_string(s.precision) + " tensor cores; its FP32 peak is used")
        .end_object();
  if (s.pipeline.prefetch && !pipe.prefetch_effective)
    w.begin_object().field("field", "prefetch")
        .field("message", "prefetching needs at least one data-loader worker (as in PyTorch); with data_workers 0 it has no effect")
        .end_object();
  w.end_array();
  w.end_object();
  return w.take();
}

json evaluate_json(const json& request) { return json::parse(evaluate_text(request)); }

}  // namespace lab::facade
