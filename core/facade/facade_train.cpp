// train / TrainSession: run a training request (read and limited in facade_train_request.cpp) on the
// reference engine and report prediction vs measurement. Format documented in core/facade/README.md.
#include "facade/facade_train.hpp"
#include "facade/facade_train_request.hpp"
#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <functional>
#include <new>
#include <utility>
#include <vector>
#include "util/errors.hpp"
#include "facade/facade.hpp"
#include "facade/json_parse.hpp"
#include "refengine/step_timer.hpp"
#include "refengine/task.hpp"
#include "refengine/trainer.hpp"

namespace lab::facade {
using nlohmann::json;

namespace {

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

}  // namespace

struct TrainSession::Impl {
  json error;  // non-null: the request was refused (then nothing else is set)
  TrainRequest req;
  std::unique_ptr<ref::Trainer> trainer;
  ref::MemoryProfile predicted;
  std::vector<ref::StepStats> history;
  ref::Clock clock = ref::steady_clock_seconds();
  std::unique_ptr<ref::StepTimer> timer;
  ref::PeakMeasurement peak;
  bool peak_after = false;  // measured again once the last step ran

  void init(const json& request) {
    req = parse_request(request);
    predicted = ref::predict_memory(ref::build_inventory(req.cfg));
    check_limits(req, predicted);
    trainer = std::make_unique<ref::Trainer>(req.cfg);
    const double resolution = ref::clock_resolution_seconds(clock);
    timer = std::make_unique<ref::StepTimer>(clock, resolution);
    if (req.measure_peak) peak = ref::measure_matmul_peak(0.25, clock, resolution);
  }

  json status() const {
    json out = {{"ok", true}, {"engine_version", kEngineVersion}, {"request", request_echo(req)},
                {"parameters", ref::parameter_count(req.cfg)}, {"predicted", profile_json(predicted)},
                {"steps_total", req.steps}, {"clock_resolution_seconds", timer->resolution_seconds()}};
    const json tl = timeline_json(predicted, nullptr, req.timeline_points);  // drawable before any step runs
    if (!tl.is_null()) out["timeline"] = tl;
    return out;
  }

  json step(std::int64_t n) {
    const std::int64_t left = req.steps - static_cast<std::int64_t>(history.size());
    n = std::max<std::int64_t>(0, std::min(n, left));
    json losses = json::array(), seconds = json::array();
    timer->begin_call();
    for (std::int64_t i = 0; i < n; ++i) {
      history.push_back(trainer->step());
      timer->step_done();
      losses.push_back(history.back().loss);
    }
    timer->end_call();  // each step's time is its span's mean, known once the call's spans close
    const auto& per_step = timer->step_seconds();
    for (std::size_t i = history.size() - static_cast<std::size_t>(n); i < history.size(); ++i) seconds.push_back(per_step[i]);
    const std::int64_t done = static_cast<std::int64_t>(history.size());
    // The peak again, now that the kernel has run for the whole training: a JIT may tier it up only
    // after a second or more of work (WebKit's did: 3.9 GFLOP/s before a run, 8.1 after), and an
    // MFU against a cold kernel's peak reads far too high. The better of the two is the peak.
    if (done >= req.steps && req.measure_peak && !peak_after) {
      peak_after = true;
      const ref::PeakMeasurement again = ref::measure_matmul_peak(0.25, clock, timer->resolution_seconds());
      if (again.flops_per_s > peak.flops_per_s) peak = again;
    }
    return {{"steps_done", done}, {"steps_total", req.steps}, {"done", done >= req.steps}, {"losses", losses},
            {"seconds", seconds}, {"loss_scale", trainer->loss_scale()}};
  }

  json report() const {
    const ref::RefConfig& c = req.cfg;
    const ref::StorageTypes ty = ref::storage_types(c.precision, c.mixed_half);
    json losses = json::array(), seconds = json::array(), scales = json::array(), skipped = json::array(),
         unchanged = json::array(), master_unchanged = json::array();
    for (std::size_t i = 0; i < history.size(); ++i) {
      const auto& s = history[i];
      losses.push_back(s.loss);
      seconds.push_back(timer->step_seconds()[i]);
      scales.push_back(s.loss_scale);
      if (s.skipped) skipped.push_back(i);
      unchanged.push_back(s.weights_unchanged);
      if (ty.master) master_unchanged.push_back(s.master_unchanged);
    }
    const bool ran = !history.empty();
    const ref::MemoryProfile measured = trainer->measured();
    const std::int64_t model_flops = ref::model_flops_per_step(c), exec_flops = ref::executed_flops_per_step(c);
    const ref::StepTimes times = timer->times();
    const double med = times.median_seconds;
    json memory = {{"categories", json::array()}, {"predicted", profile_json(predicted)},
                   {"tensors", trainer->inventory().tensors.size()}};
    for (std::size_t i = 0; i < ref::kCategoryCount; ++i) memory["categories"].push_back(ref::category_name(static_cast<ref::Category>(i)));
    if (ran) {
      memory["measured"] = profile_json(measured);
      memory["match"] = profiles_equal(predicted, measured);
    }
    const json tl = timeline_json(predicted, ran ? &measured : nullptr, req.timeline_points);
    if (!tl.is_null()) memory["timeline"] = tl;

    json time = {{"steps", history.size()}, {"median_seconds_per_step", med},
                 {"mean_seconds_per_step", times.mean_seconds}, {"min_seconds_per_step", times.min_seconds},
                 {"total_seconds", times.total_seconds}, {"clock_resolution_seconds", times.resolution_seconds},
                 {"timed_spans", times.spans}, {"steps_in_precise_spans", times.steps_timed},
                 {"shortest_span_ticks", times.min_span_ticks}};
    json throughput = json::object();
    if (ran && med > 0) {
      throughput = {{"model_flops_per_s", static_cast<double>(model_flops) / med},
                    {"executed_flops_per_s", static_cast<double>(exec_flops) / med},
                    {"tokens_per_s", static_cast<double>(c.batch * c.seq) / med}};
      if (peak.flops_per_s > 0) {
        throughput["mfu"] = static_cast<double>(model_flops) / med / peak.flops_per_s;
        throughput["hfu"] = static_cast<double>(exec_flops) / med / peak.flops_per_s;
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
    if (peak.flops_per_s > 0)
      out["peak"] = {{"flops_per_s", peak.flops_per_s},
                     {"method", "best rate of this engine's float32 matmul kernel on 256x256x256 on this CPU, timed over batches of "
                                "repetitions lasting at least 100 clock steps, before training and again after it (the better of the two)"},
                     {"clock_resolution_seconds", peak.resolution_seconds},
                     {"repetitions_per_span", peak.repetitions_per_span},
                     {"spans", peak.spans},
                     {"best_span_seconds", peak.best_span_seconds}};
    return out;
  }
};

namespace {
constexpr std::size_t kTrainRequestMaxBytes = 1u << 20;  // a TrainSession request is ~200 bytes

template <class F>
json guarded(F&& f) {
  try {
    return f();
  } catch (const InputError& e) {
    return error_json(e.field, e.message);
  } catch (const std::bad_alloc&) {
    return error_json("", "out of memory while running the reference engine");
  } catch (const std::exception& e) {
    return error_json("", std::string("internal error: ") + e.what());
  } catch (...) {
    return error_json("", "internal error");
  }
}
}  // namespace

TrainSession::TrainSession(const std::string& request_json) : TrainSession(request_json, ref::steady_clock_seconds()) {}

TrainSession::TrainSession(const std::string& request_json, ref::Clock clock) : impl_(std::make_unique<Impl>()) {
  impl_->clock = std::move(clock);
  impl_->error = guarded([&] {
    impl_->init(parse_json_text(request_json, kTrainRequestMaxBytes));
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
