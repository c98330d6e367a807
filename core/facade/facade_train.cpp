// train / TrainSession: parse and range-check a training request, refuse ones that would not be
// safe in a browser tab (predicted peak > 256 MiB, or too much work), run the reference engine and
// report prediction vs measurement. Format documented in core/facade/README.md.
#include "facade/facade_train.hpp"
#include "util/byte_text.hpp"
#include "facade/scenario_json.hpp"
#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <functional>
#include <new>
#include <numeric>
#include <vector>
#include "util/errors.hpp"
#include "facade/facade.hpp"
#include "facade/json_fields.hpp"
#include "refengine/task.hpp"
#include "refengine/trainer.hpp"

namespace lab::facade {
using nlohmann::json;
using namespace lab::fields;

namespace {

constexpr std::int64_t kMaxPeakBytes = 256LL << 20;     // one browser tab's worth of tensors
constexpr double kMaxExecutedFlops = 1e13;               // ≈ 5 minutes at 35 GFLOP/s
constexpr std::int64_t kMaxSteps = 100000;

struct TrainRequest {
  ref::RefConfig cfg;
  std::int64_t steps = 20;
  std::int64_t timeline_points = 512;
  bool measure_peak = false;
};

const std::vector<std::string> kFields = {
    "vocab", "context", "d_model", "heads", "layers", "mlp_hidden", "batch_size", "seq_len", "precision", "mixed_half",
    "optimizer", "learning_rate", "beta1", "beta2", "eps", "momentum", "weight_decay", "checkpointing",
    "loss_scale", "steps", "seed", "task", "timeline_points", "measure_peak"};


void parse_loss_scale(const json& v, ref::RefConfig& c) {
  const std::vector<std::string> modes = {"none", "static", "dynamic"};
  auto set_mode = [&](std::size_t i) {
    c.loss_scale = i == 0 ? ref::LossScaleMode::none : (i == 1 ? ref::LossScaleMode::fixed : ref::LossScaleMode::dynamic);
    c.loss_scale_value = i == 1 ? 1024.0 : 65536.0;
  };
  if (v.is_string()) {
    set_mode(to_choice(v, "loss_scale", modes));
    return;
  }
  if (!v.is_object())
    throw InputError("loss_scale", "must be \"none\", \"static\", \"dynamic\" or {\"mode\": ..., \"value\": s, \"growth_interval\": n}");
  reject_unknown(v, "loss_scale", {"mode", "value", "growth_interval"});
  if (!v.contains("mode")) throw InputError("loss_scale.mode", "is required in the object form");
  set_mode(to_choice(v["mode"], "loss_scale.mode", modes));
  if (v.contains("value")) c.loss_scale_value = to_number(v["value"], "loss_scale.value", 0.0, 1e30, false);
  if (v.contains("growth_interval"))
    c.loss_scale_growth_interval = to_int(v["growth_interval"], "loss_scale.growth_interval", 1, 1000000);
}

TrainRequest parse_request(const json& j) {
  require_object(j, "");
  reject_unknown(j, "", kFields);
  TrainRequest r;
  ref::RefConfig& c = r.cfg;
  auto opt_int = [&](const char* key, std::int64_t& out, std::int64_t lo, std::int64_t hi) {
    if (j.contains(key)) out = to_int(j[key], key, lo, hi);
  };
  auto opt_num = [&](const char* key, double& out, double lo, double hi, bool lo_incl = true) {
    if (j.contains(key)) out = to_number(j[key], key, lo, hi, lo_incl);
  };
  opt_int("vocab", c.vocab, 2, 8192);
  opt_int("context", c.context, 1, 2048);
  opt_int("d_model", c.d_model, 1, 2048);
  opt_int("heads", c.heads, 1, 64);
  if (c.d_model % c.heads != 0)
    throw InputError("heads", "d_model (" + std::to_string(c.d_model) + ") must be a multiple of heads (" +
                                  std::to_string(c.heads) + ")");
  opt_int("layers", c.layers, 1, 48);
  c.mlp_hidden = 4 * c.d_model;
  opt_int("mlp_hidden", c.mlp_hidden, 1, 8192);
  opt_int("batch_size", c.batch, 1, 256);
  c.seq = std::min<std::int64_t>(64, c.context);
  opt_int("seq_len", c.seq, 1, c.context);
  if (j.contains("precision"))
    c.precision = static_cast<Precision>(to_choice(j["precision"], "precision", {"fp32", "mixed", "fp16", "bf16"}));
  if (j.contains("mixed_half"))
    c.mixed_half = to_choice(j["mixed_half"], "mixed_half", {"fp16", "bf16"}) == 0 ? ref::DType::f16 : ref::DType::bf16;
  // FP16 needs loss scaling (its smallest normal is 6e-5); BF16 has float32's exponent range.
  const bool fp16_storage = c.precision == Precision::fp16 || (c.precision == Precision::mixed && c.mixed_half == ref::DType::f16);
  c.loss_scale = fp16_storage ? ref::LossScaleMode::dynamic : ref::LossScaleMode::none;
  if (j.contains("optimizer")) {
    const auto i = to_choice(j["optimizer"], "optimizer", {"sgd", "momentum", "adam", "adamw"});
    c.optimizer = i == 0 ? Optimizer::sgd : (i == 1 ? Optimizer::momentum : Optimizer::adam);
    c.decoupled_weight_decay = i == 3;
    if (i == 3) c.weight_decay = 0.01;  // the chapter's GPT-2 recipe (L888)
  }
  opt_num("learning_rate", c.learning_rate, 0.0, 10.0, false);
  opt_num("beta1", c.beta1, 0.0, 0.999999);
  opt_num("beta2", c.beta2, 0.0, 0.999999);
  opt_num("eps", c.eps, 0.0, 1.0, false);
  opt_num("momentum", c.momentum, 0.0, 0.999999);
  opt_num("weight_decay", c.weight_decay, 0.0, 10.0);
  if (j.contains("checkpointing")) c.checkpointing = parse_checkpointing(j["checkpointing"], c.layers);
  if (j.contains("loss_scale")) parse_loss_scale(j["loss_scale"], c);
  opt_int("steps", r.steps, 0, kMaxSteps);
  if (j.contains("seed")) c.seed = static_cast<std::uint64_t>(to_int(j["seed"], "seed", 0, 9007199254740991LL));
  if (j.contains("task")) c.task = to_choice(j["task"], "task", {"markov", "copy"}) == 0 ? ref::TaskKind::markov : ref::TaskKind::copy;
  opt_int("timeline_points", r.timeline_points, 0, 4096);
  if (j.contains("measure_peak")) r.measure_peak = to_bool(j["measure_peak"], "measure_peak");
  return r;
}

// Refuse requests a browser tab should not run: more than 256 MiB of tensors, or too much work.
void check_limits(const TrainRequest& r, const ref::MemoryProfile& predicted) {
  if (predicted.peak_bytes > kMaxPeakBytes) {
    const std::int64_t persistent = ref::total(predicted.timeline.front().live_end);
    const bool static_binds = 2 * persistent > predicted.peak_bytes;
    throw InputError(static_binds ? "d_model" : "batch_size",
                     "this configuration needs " + mib_text(predicted.peak_bytes) + " at its peak (" +
                         mib_text(persistent) + " of it parameters, gradients and optimizer state); the limit is " +
                         mib_text(kMaxPeakBytes) + ". Reduce " +
                         (static_binds ? "d_model, layers, mlp_hidden or vocab" : "batch_size or seq_len") + ".");
  }
  const double flops = static_cast<double>(ref::executed_flops_per_step(r.cfg)) * static_cast<double>(r.steps);
  if (flops > kMaxExecutedFlops)
    throw InputError("steps", "this run would execute " + std::to_string(static_cast<long long>(flops / 1e9)) +
                                  " GFLOP; the limit per request is " +
                                  std::to_string(static_cast<long long>(kMaxExecutedFlops / 1e9)) +
                                  " GFLOP. Use fewer steps or a smaller model.");
}

json category_json(const ref::CategoryBytes& b) {
  json o = json::object();
  for (std::size_t i = 0; i < ref::kCategoryCount; ++i) o[ref::category_name(static_cast<ref::Category>(i))] = b[i];
  return o;
}

json profile_json(const ref::MemoryProfile& m) {
  return {{"peak_bytes", m.peak_bytes},
          {"peak_phase", m.peak_phase},
          {"at_peak", category_json(m.at_peak)},
          {"max_by_category", category_json(m.max_by_category)},
          {"persistent", category_json(m.timeline.front().live_end)},
          {"persistent_bytes", ref::total(m.timeline.front().live_end)}};
}

bool profiles_equal(const ref::MemoryProfile& a, const ref::MemoryProfile& b) {
  if (a.peak_bytes != b.peak_bytes || a.peak_phase != b.peak_phase || a.at_peak != b.at_peak ||
      a.max_by_category != b.max_by_category || a.timeline.size() != b.timeline.size())
    return false;
  for (std::size_t i = 0; i < a.timeline.size(); ++i)
    if (a.timeline[i].phase != b.timeline[i].phase || a.timeline[i].peak_bytes != b.timeline[i].peak_bytes ||
        a.timeline[i].live_end != b.timeline[i].live_end)
      return false;
  return true;
}

// The init + one-step timeline, at most `points` entries: consecutive phases are merged into
// groups that keep the largest peak (and its phase name) and the live bytes at the group's end.
json timeline_json(const ref::MemoryProfile& predicted, const ref::MemoryProfile* measured, std::int64_t points) {
  const std::size_t n = predicted.timeline.size();
  json phases = json::array(), pred_peak = json::array(), meas_peak = json::array();
  json live = json::object();
  for (std::size_t c = 0; c < ref::kCategoryCount; ++c) live[ref::category_name(static_cast<ref::Category>(c))] = json::array();
  if (points <= 0 || n == 0) return json();
  const std::size_t groups = std::min<std::size_t>(n, static_cast<std::size_t>(points));
  for (std::size_t g = 0; g < groups; ++g) {
    const std::size_t lo = g * n / groups, hi = (g + 1) * n / groups;
    std::size_t best = lo;
    for (std::size_t i = lo; i < hi; ++i)
      if (predicted.timeline[i].peak_bytes > predicted.timeline[best].peak_bytes) best = i;
    std::int64_t mp = 0;
    if (measured)
      for (std::size_t i = lo; i < hi && i < measured->timeline.size(); ++i) mp = std::max(mp, measured->timeline[i].peak_bytes);
    phases.push_back(predicted.timeline[best].phase);
    pred_peak.push_back(predicted.timeline[best].peak_bytes);
    if (measured) meas_peak.push_back(mp);
    for (std::size_t c = 0; c < ref::kCategoryCount; ++c)
      live[ref::category_name(static_cast<ref::Category>(c))].push_back(predicted.timeline[hi - 1].live_end[c]);
  }
  json t = {{"phases_total", n}, {"phases", phases}, {"predicted_peak_bytes", pred_peak},
            {"live_end_bytes_by_category", live}};
  if (measured) t["measured_peak_bytes"] = meas_peak;
  return t;
}

json request_echo(const TrainRequest& r) {
  const ref::RefConfig& c = r.cfg;
  json ck = c.checkpointing.kind == CheckpointKind::every_k ? json{{"every_k_layers", c.checkpointing.every_k_layers}}
                                                           : json(to_string(c.checkpointing.kind));
  const char* ls = c.loss_scale == ref::LossScaleMode::none ? "none" : (c.loss_scale == ref::LossScaleMode::fixed ? "static" : "dynamic");
  return {{"vocab", c.vocab}, {"context", c.context}, {"d_model", c.d_model}, {"heads", c.heads}, {"layers", c.layers},
          {"mlp_hidden", c.mlp_hidden}, {"batch_size", c.batch}, {"seq_len", c.seq}, {"precision", to_string(c.precision)},
          {"mixed_half", ref::to_string(c.mixed_half)},
          {"optimizer", c.decoupled_weight_decay ? "adamw" : to_string(c.optimizer)}, {"learning_rate", c.learning_rate},
          {"beta1", c.beta1}, {"beta2", c.beta2}, {"eps", c.eps}, {"momentum", c.momentum}, {"weight_decay", c.weight_decay},
          {"checkpointing", ck},
          {"loss_scale", {{"mode", ls}, {"value", c.loss_scale_value}, {"growth_interval", c.loss_scale_growth_interval}}},
          {"steps", r.steps}, {"seed", c.seed}, {"task", ref::to_string(c.task)}, {"timeline_points", r.timeline_points},
          {"measure_peak", r.measure_peak}};
}

double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

}  // namespace

struct TrainSession::Impl {
  json error;  // non-null: the request was refused (then nothing else is set)
  TrainRequest req;
  std::unique_ptr<ref::Trainer> trainer;
  ref::MemoryProfile predicted;
  std::vector<ref::StepStats> history;
  double peak_flops_per_s = 0.0;

  void init(const json& request) {
    req = parse_request(request);
    predicted = ref::predict_memory(ref::build_inventory(req.cfg));
    check_limits(req, predicted);
    trainer = std::make_unique<ref::Trainer>(req.cfg);
    if (req.measure_peak) peak_flops_per_s = ref::measure_matmul_peak_flops(0.25);
  }

  json status() const {
    json out = {{"ok", true}, {"engine_version", kEngineVersion}, {"request", request_echo(req)},
                {"parameters", ref::parameter_count(req.cfg)}, {"predicted", profile_json(predicted)},
                {"steps_total", req.steps}};
    const json tl = timeline_json(predicted, nullptr, req.timeline_points);  // drawable before any step runs
    if (!tl.is_null()) out["timeline"] = tl;
    return out;
  }

  json step(std::int64_t n) {
    const std::int64_t left = req.steps - static_cast<std::int64_t>(history.size());
    n = std::max<std::int64_t>(0, std::min(n, left));
    json losses = json::array(), seconds = json::array();
    for (std::int64_t i = 0; i < n; ++i) {
      history.push_back(trainer->step());
      losses.push_back(history.back().loss);
      seconds.push_back(history.back().seconds);
    }
    const std::int64_t done = static_cast<std::int64_t>(history.size());
    return {{"steps_done", done}, {"steps_total", req.steps}, {"done", done >= req.steps}, {"losses", losses},
            {"seconds", seconds}, {"loss_scale", trainer->loss_scale()}};
  }

  json report() const {
    const ref::RefConfig& c = req.cfg;
    const ref::StorageTypes ty = ref::storage_types(c.precision, c.mixed_half);
    json losses = json::array(), seconds = json::array(), scales = json::array(), skipped = json::array(),
         unchanged = json::array(), master_unchanged = json::array();
    std::vector<double> secs;
    for (std::size_t i = 0; i < history.size(); ++i) {
      const auto& s = history[i];
      losses.push_back(s.loss);
      seconds.push_back(s.seconds);
      secs.push_back(s.seconds);
      scales.push_back(s.loss_scale);
      if (s.skipped) skipped.push_back(i);
      unchanged.push_back(s.weights_unchanged);
      if (ty.master) master_unchanged.push_back(s.master_unchanged);
    }
    const bool ran = !history.empty();
    const ref::MemoryProfile measured = trainer->measured();
    const std::int64_t model_flops = ref::model_flops_per_step(c), exec_flops = ref::executed_flops_per_step(c);
    const double med = median(secs);
    json memory = {{"categories", json::array()}, {"predicted", profile_json(predicted)},
                   {"tensors", trainer->inventory().tensors.size()}};
    for (std::size_t i = 0; i < ref::kCategoryCount; ++i) memory["categories"].push_back(ref::category_name(static_cast<ref::Category>(i)));
    if (ran) {
      memory["measured"] = profile_json(measured);
      memory["match"] = profiles_equal(predicted, measured);
    }
    const json tl = timeline_json(predicted, ran ? &measured : nullptr, req.timeline_points);
    if (!tl.is_null()) memory["timeline"] = tl;

    const double total_s = std::accumulate(secs.begin(), secs.end(), 0.0);
    json time = {{"steps", history.size()}, {"median_seconds_per_step", med},
                 {"mean_seconds_per_step", ran ? total_s / static_cast<double>(secs.size()) : 0.0},
                 {"min_seconds_per_step", ran ? *std::min_element(secs.begin(), secs.end()) : 0.0},
                 {"total_seconds", total_s}};
    json throughput = json::object();
    if (ran && med > 0) {
      throughput = {{"model_flops_per_s", static_cast<double>(model_flops) / med},
                    {"executed_flops_per_s", static_cast<double>(exec_flops) / med},
                    {"tokens_per_s", static_cast<double>(c.batch * c.seq) / med}};
      if (peak_flops_per_s > 0) {
        throughput["mfu"] = static_cast<double>(model_flops) / med / peak_flops_per_s;
        throughput["hfu"] = static_cast<double>(exec_flops) / med / peak_flops_per_s;
      }
    }
    json out = {{"engine_version", kEngineVersion},
                {"request", request_echo(req)},
                {"model", {{"parameters", ref::parameter_count(c)}, {"layers", c.layers}, {"d_model", c.d_model},
                           {"heads", c.heads}, {"tokens_per_step", c.batch * c.seq}}},
                {"task", {{"name", ref::to_string(c.task)}, {"loss_floor_nats", ref::task_loss_floor(c)},
                          {"uniform_loss_nats", std::log(static_cast<double>(c.vocab))}}},
                {"storage", {{"weights", ref::to_string(ty.weights)}, {"gradients", ref::to_string(ty.grads)},
                             {"master_weights", ty.master ? json("fp32") : json()},
                             {"optimizer_state", c.optimizer == Optimizer::sgd ? json() : json(ref::to_string(ty.optimizer_state))},
                             {"activations", ref::to_string(ty.activations)}, {"logits", "fp32"}}},
                {"steps_done", history.size()},
                {"losses", losses},
                {"seconds_per_step", seconds},
                {"loss_scales", scales},
                {"skipped_steps", skipped},
                {"memory", memory},
                {"flops", {{"model_per_step", model_flops}, {"executed_per_step", exec_flops},
                           {"measured_executed_per_step", ran ? json(history.back().matmul_flops) : json()},
                           {"executed_total", trainer->matmul_flops_total()},
                           {"matmul_arithmetic", ref::gemm_arithmetic()},
                           {"formula", "model: 6*(matmul weights)*tokens + 12*layers*d_model*seq_len*tokens (PaLM App. B); "
                                       "executed: matmul FLOPs actually run, incl. recomputation"}}},
                {"time", time},
                {"throughput", throughput},
                {"stall", {{"weight_elements", trainer->weight_elements()},
                           {"updates_applied", trainer->updates_applied()},
                           {"weights_unchanged_per_step", unchanged},
                           {"master_unchanged_per_step", ty.master ? master_unchanged : json()},
                           {"weights_unchanged_last_step", ran ? json(history.back().weights_unchanged) : json()},
                           {"fraction_unchanged_last_step",
                            ran ? json(static_cast<double>(history.back().weights_unchanged) / static_cast<double>(trainer->weight_elements()))
                                : json()}}}};
    if (peak_flops_per_s > 0)
      out["peak"] = {{"flops_per_s", peak_flops_per_s},
                     {"method", "best rate of this engine's float32 matmul kernel on 256x256x256, measured on this CPU"}};
    return out;
  }
};

namespace {
template <class F>
json guarded(F&& f) {
  try {
    return f();
  } catch (const InputError& e) {
    return error_json(e.field, e.what());
  } catch (const std::bad_alloc&) {
    return error_json("", "out of memory while running the reference engine");
  } catch (const std::exception& e) {
    return error_json("", std::string("internal error: ") + e.what());
  } catch (...) {
    return error_json("", "internal error");
  }
}
}  // namespace

TrainSession::TrainSession(const std::string& request_json) : impl_(std::make_unique<Impl>()) {
  if (request_json.size() > (1u << 20)) {
    impl_->error = error_json("", "request is larger than 1 MiB");
    return;
  }
  const json request = json::parse(request_json, nullptr, /*allow_exceptions=*/false);
  if (request.is_discarded()) {
    impl_->error = error_json("", "malformed JSON: the request is not valid JSON (NaN and Infinity are not JSON)");
    return;
  }
  impl_->error = guarded([&] {
    impl_->init(request);
    return json();
  });
  if (!impl_->error.is_null()) impl_->trainer.reset();
}

TrainSession::~TrainSession() = default;

json TrainSession::status_json() const {
  if (!impl_->error.is_null()) return impl_->error;
  return guarded([&] { return impl_->status(); });
}

json TrainSession::step_json(int steps) {
  if (!impl_->error.is_null()) return impl_->error;
  return guarded([&] { return impl_->step(steps); });
}

json TrainSession::report_json() const {
  if (!impl_->error.is_null()) return impl_->error;
  return guarded([&] { return impl_->report(); });
}

std::string TrainSession::status() const { return status_json().dump(); }
std::string TrainSession::step(int steps) { return step_json(steps).dump(); }
std::string TrainSession::report() const { return report_json().dump(); }

json train_json(const json& request) {
  TrainSession::Impl impl;
  impl.init(request);  // InputError propagates to run_guarded
  impl.step(impl.req.steps);
  return impl.report();
}

std::string train(const std::string& request_json) { return run_guarded(request_json, static_cast<Handler>(train_json)); }

}  // namespace lab::facade
