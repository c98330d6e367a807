// evaluate's "pipeline" object, streamed with JsonWriter (evaluate runs on every slider change).
#include "facade_pipeline.hpp"

namespace lab::facade {
using nlohmann::json;

namespace {

// Chapter L3295: 1,200 tokens/s and 8.3 h per epoch after optimization, and its two profiles.
constexpr double kChapterTokensPerSecond = 1200;
constexpr double kChapterEpochHours = 8.3;

void write_profile(JsonWriter& w, const char* key, double data, double transfers, double compute, double busy) {
  w.key(key).begin_object().field("data_loading", data).field("transfers", transfers)
      .field("compute", compute).field("busy_fraction", busy).end_object();
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
  w.field("step_seconds", p.step_seconds);
  w.key("phases").begin_array();
  for (int i = 0; i < kPhaseCount; ++i)
    w.begin_object().field("phase", to_string(static_cast<PhaseId>(i)))
        .field("seconds", p.phases[i].work_seconds).field("exposed_seconds", p.phases[i].exposed_seconds)
        .field("share", p.phases[i].share).end_object();
  w.end_array();
  w.field("busy_fraction", p.busy_fraction).field("gpu_busy_seconds", p.gpu_busy_seconds)
      .field("pipeline_efficiency", p.pipeline_efficiency).field("mfu", p.mfu).field("hfu", p.hfu)
      .field("mfu_ceiling", p.mfu_ceiling).field("tokens_per_step", p.tokens_per_step)
      .field("tokens_per_second", p.tokens_per_second).field("epoch_tokens", s.pipeline.epoch_tokens)
      .field("time_per_epoch_seconds", p.epoch_seconds).field("prefetch_effective", p.prefetch_effective);
  w.key("chapter_shares").begin_object()
      .field("data_loading", p.chapter_data_share).field("transfers", p.chapter_transfer_share)
      .field("compute", p.chapter_compute_share).end_object();
  w.key("transfer").begin_object()
      .field("bytes", p.transfer_bytes).field("bytes_per_token", kTransferBytesPerToken)
      .field("host_seconds", p.transfer_host_seconds).field("dma_seconds", p.transfer_dma_seconds)
      .field("pinned_memory", s.pipeline.pinned_memory).end_object();
  w.key("gpu").begin_object()
      .field("memory_bound_bytes", p.memory_bound_bytes).field("optimizer_bytes", p.optimizer_bytes)
      .field("optimizer_bytes_per_parameter", optimizer_update_bytes_per_param(s))
      .field("recompute_seconds", p.recompute_seconds).field("kernel_efficiency", p.kernel_efficiency)
      .field("kernel_efficiency_source",
             "interpolated from the chapter (L759: batch 16-32 -> 60-70%, >= 256 -> over 90%), piecewise "
             "linear in log2(batch) through (16, 0.60), (32, 0.70), (256, 0.90)")
      .field("peak_flops_per_s", f.peak_flops_per_s).end_object();
  w.key("bottleneck").begin_object()
      .field("axis", to_string(p.bottleneck.axis)).field("limiter", p.bottleneck.limiter)
      .field("share", p.bottleneck.share).field("message", bottleneck_sentence(p)).end_object();
  w.field("calibrated", p.constants.calibrated);
  w.key("constants").begin_array();
  for (const auto& c : describe(p.constants))
    w.begin_object().field("name", c.name).field("value", c.value).field("unit", c.unit)
        .field("source", c.source).end_object();
  w.end_array();
  if (s.chapter_replay) {
    w.key("chapter_reference").begin_object()
        .field("tokens_per_second", kChapterTokensPerSecond)
        .field("mfu_at_chapter_throughput",
               static_cast<double>(f.model_per_token) * kChapterTokensPerSecond / f.peak_flops_per_s)
        .field("time_per_epoch_hours", kChapterEpochHours);
    write_profile(w, "profile_before", 0.40, 0.25, 0.35, 0.45);
    write_profile(w, "profile_after", 0.05, 0.20, 0.75, 0.85);
    w.end_object();
  }
  w.key("schedule").begin_object().field("steps", s.pipeline.schedule_steps);
  w.key("segments").begin_array();
  for (const auto& g : p.schedule)
    w.begin_object().field("resource", g.resource).field("phase", g.phase).field("step", g.step)
        .field("start_seconds", g.start_seconds).field("end_seconds", g.end_seconds).end_object();
  w.end_array().end_object();
  w.end_object();
}

}  // namespace lab::facade
