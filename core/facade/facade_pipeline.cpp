// evaluate's "pipeline" object, streamed with JsonWriter (evaluate runs on every slider change).
// Its ~90 timings are written by JsonWriter with 15 significant digits (core/facade/json_number.cpp).
#include "facade/facade_pipeline.hpp"
#include <cmath>
#include <cstdint>
#include <cstring>

namespace lab::facade {
using nlohmann::json;

namespace {

// key: x (JsonWriter formats doubles with format_number: 15 significant digits).
template <std::size_t N>
void num(JsonWriter& w, const char (&key)[N], double x) { w.field(key, x); }

void write_profile(JsonWriter& w, const char* key, const ChapterProfile& p) {
  w.key_dynamic(key).begin_object();
  num(w, "data_loading", p.data_loading);
  num(w, "transfers", p.transfers);
  num(w, "compute", p.compute);
  num(w, "busy_fraction", p.busy_fraction);
  w.end_object();
}

}  // namespace

json configuration_json(const TrainingConfig& c) {
  json ck = c.checkpointing.kind == CheckpointKind::every_k ? json{{"every_k_layers", c.checkpointing.every_k_layers}}
                                                             : json(to_string(c.checkpointing.kind));
  return {{"precision", to_string(c.precision)}, {"optimizer", to_string(c.optimizer)},
          {"checkpointing", ck}, {"batch_size", c.batch_size}};
}

void write_pipeline(JsonWriter& w, const Scenario& s, const FlopsEstimate& f, const PipelineResult& p) {
  w.key("pipeline").begin_object();
  num(w, "step_seconds", p.step_seconds);
  w.key("phases").begin_array();
  for (int i = 0; i < kPhaseCount; ++i) {
    w.begin_object().field("phase", to_string(static_cast<PhaseId>(i)));
    num(w, "seconds", p.phases[i].work_seconds);
    num(w, "exposed_seconds", p.phases[i].exposed_seconds);
    num(w, "share", p.phases[i].share);
    w.end_object();
  }
  w.end_array();
  num(w, "busy_fraction", p.busy_fraction);
  num(w, "gpu_busy_seconds", p.gpu_busy_seconds);
  num(w, "pipeline_efficiency", p.pipeline_efficiency);
  num(w, "mfu", p.mfu);
  num(w, "hfu", p.hfu);
  num(w, "mfu_ceiling", p.mfu_ceiling);
  w.field("tokens_per_step", p.tokens_per_step);
  num(w, "tokens_per_second", p.tokens_per_second);
  num(w, "epoch_tokens", s.pipeline.epoch_tokens);
  num(w, "time_per_epoch_seconds", p.epoch_seconds);
  w.field("prefetch_effective", p.prefetch_effective);
  w.key("chapter_shares").begin_object();
  num(w, "data_loading", p.chapter_data_share);
  num(w, "transfers", p.chapter_transfer_share);
  num(w, "compute", p.chapter_compute_share);
  w.end_object();
  w.key("transfer").begin_object();
  num(w, "bytes", p.transfer_bytes);
  num(w, "bytes_per_token", kTransferBytesPerToken);
  num(w, "host_seconds", p.transfer_host_seconds);
  num(w, "dma_seconds", p.transfer_dma_seconds);
  w.field("pinned_memory", s.pipeline.pinned_memory).end_object();
  w.key("gpu").begin_object();
  num(w, "memory_bound_bytes", p.memory_bound_bytes);
  num(w, "optimizer_bytes", p.optimizer_bytes);
  w.field("optimizer_bytes_per_parameter", optimizer_update_bytes_per_param(s));
  num(w, "recompute_seconds", p.recompute_seconds);
  num(w, "kernel_efficiency", p.kernel_efficiency);
  w.field("kernel_efficiency_source", "interpolated");
  num(w, "peak_flops_per_s", f.peak_flops_per_s);
  w.end_object();
  w.key("bottleneck").begin_object()
      .field("axis", to_string(p.bottleneck.axis)).field("limiter", p.bottleneck.limiter);
  num(w, "share", p.bottleneck.share);
  w.field("message", bottleneck_sentence(p)).end_object();
  w.field("calibrated", p.constants.calibrated);
  // Values only; units and sources: solve's "pipeline_constants" and core/pipeline/README.md.
  w.key("constants").begin_object();
  for (const auto& c : describe(p.constants)) w.field_dynamic(c.name, c.value);
  w.end_object();
  if (s.chapter_replay) {
    const ChapterReference c = chapter_reference(s, f);
    w.key("chapter_reference").begin_object();
    num(w, "tokens_per_second", c.tokens_per_second);
    num(w, "mfu_at_chapter_throughput", c.mfu_at_chapter_throughput);
    w.field("chapter_precision", to_string(c.precision));
    num(w, "chapter_peak_flops_per_s", c.peak_flops_per_s);
    num(w, "time_per_epoch_hours", c.time_per_epoch_hours);
    write_profile(w, "profile_before", c.before);
    write_profile(w, "profile_after", c.after);
    w.end_object();
  }
  w.key("schedule").begin_object().field("steps", s.pipeline.schedule_steps);
  w.key("segments").begin_array();
  for (const auto& g : p.schedule) {
    w.begin_object().field("resource", g.resource).field("phase", g.phase).field("step", g.step);
    num(w, "start_seconds", g.start_seconds);
    num(w, "end_seconds", g.end_seconds);
    w.end_object();
  }
  w.end_array().end_object();
  w.end_object();
}

json constants_json(const PipelineConstants& c) {
  json out = json::array();
  for (const auto& d : describe(c))
    out.push_back({{"name", d.name}, {"value", d.value}, {"unit", d.unit}, {"source", d.source}});
  return out;
}

}  // namespace lab::facade
