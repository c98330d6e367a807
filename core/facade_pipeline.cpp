// evaluate's "pipeline" object, streamed with JsonWriter (evaluate runs on every slider change).
// Its ~90 timings are written with 15 significant digits by a small integer formatter: the shortest
// round-trip formatter costs ~0.3 µs per number in WASM, which doubled evaluate's latency.
#include "facade_pipeline.hpp"
#include <cmath>
#include <cstdint>
#include <cstring>

namespace lab::facade {
using nlohmann::json;

// x in JSON number syntax with at most 15 significant digits ("0.4", "0.000035", "3.5e-7", "1.25e+20");
// null for non-finite values. The 15th digit can differ by one from exact decimal rounding.
std::size_t format_number(char* out, double x) {
  if (!std::isfinite(x)) { std::memcpy(out, "null", 4); return 4; }
  if (x == 0) { out[0] = '0'; return 1; }
  char* p = out;
  if (x < 0) { *p++ = '-'; x = -x; }
  static constexpr double kPow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  constexpr double kLow = 1e14, kHigh = 1e15;
  auto scaled = [&](int e) {  // x · 10^(14 − e), rounded to an integer; one rounding when |14 − e| ≤ 22
    const int k = 14 - e;
    double v;
    if (k >= 0 && k <= 22) v = x * kPow10[k];
    else if (k < 0 && k >= -22) v = x / kPow10[-k];
    else v = k > 0 ? x * std::pow(10.0, k > 300 ? 300 : k) * (k > 300 ? std::pow(10.0, k - 300) : 1.0)
                   : x / std::pow(10.0, -k);
    return std::floor(v + 0.5);
  };
  int e2 = 0;
  std::frexp(x, &e2);  // x in [2^(e2−1), 2^e2): the decimal exponent is this estimate or one more
  int e10 = static_cast<int>(std::floor((e2 - 1) * 0.30102999566398120));
  double m = scaled(e10);
  if (m >= kHigh) m = scaled(++e10);
  if (m >= kHigh) m = scaled(++e10);
  if (m < kLow) m = scaled(--e10);
  if (m >= kHigh) { m = kLow; ++e10; }  // rounded up to 10^15
  std::uint64_t digits = static_cast<std::uint64_t>(m);
  char d[15];
  for (int i = 14; i >= 0; --i) { d[i] = static_cast<char>('0' + digits % 10); digits /= 10; }
  int n = 15;
  while (n > 1 && d[n - 1] == '0') --n;
  if (e10 >= 0 && e10 < 15) {  // 123.45
    for (int i = 0; i <= e10; ++i) *p++ = i < n ? d[i] : '0';
    if (n > e10 + 1) { *p++ = '.'; for (int i = e10 + 1; i < n; ++i) *p++ = d[i]; }
  } else if (e10 < 0 && e10 >= -5) {  // 0.00012345
    *p++ = '0'; *p++ = '.';
    for (int i = 0; i < -e10 - 1; ++i) *p++ = '0';
    for (int i = 0; i < n; ++i) *p++ = d[i];
  } else {  // 1.2345e-07
    *p++ = d[0];
    if (n > 1) { *p++ = '.'; for (int i = 1; i < n; ++i) *p++ = d[i]; }
    *p++ = 'e';
    if (e10 < 0) { *p++ = '-'; e10 = -e10; } else { *p++ = '+'; }
    char e[4]; int ne = 0;
    do { e[ne++] = static_cast<char>('0' + e10 % 10); e10 /= 10; } while (e10 > 0);
    while (ne > 0) *p++ = e[--ne];
  }
  return static_cast<std::size_t>(p - out);
}

namespace {

// key: x, through the fast formatter.
void num(JsonWriter& w, const char* key, double x) {
  char buf[32];
  w.raw_field(key, std::string(buf, format_number(buf, x)));
}

// Chapter L3295: 1,200 tokens/s and 8.3 h per epoch after optimization, and its two profiles.
constexpr double kChapterTokensPerSecond = 1200;
constexpr double kChapterEpochHours = 8.3;

void write_profile(JsonWriter& w, const char* key, double data, double transfers, double compute, double busy) {
  w.key(key).begin_object();
  num(w, "data_loading", data);
  num(w, "transfers", transfers);
  num(w, "compute", compute);
  num(w, "busy_fraction", busy);
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
  // Values only; units and sources: solve's "pipeline_constants" and the README.
  w.key("constants").begin_object();
  for (const auto& c : describe(p.constants)) num(w, c.name, c.value);
  w.end_object();
  if (s.chapter_replay) {
    w.key("chapter_reference").begin_object();
    num(w, "tokens_per_second", kChapterTokensPerSecond);
    num(w, "mfu_at_chapter_throughput",
        static_cast<double>(f.model_per_token) * kChapterTokensPerSecond / f.peak_flops_per_s);
    num(w, "time_per_epoch_hours", kChapterEpochHours);
    write_profile(w, "profile_before", 0.40, 0.25, 0.35, 0.45);
    write_profile(w, "profile_after", 0.05, 0.20, 0.75, 0.85);
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
