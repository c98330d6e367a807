// Reading a training request: every field range-checked with one named field per error, and the
// limits that keep a request safe to run in a browser tab.
#include "facade/facade_train_request.hpp"
#include <algorithm>
#include <string>
#include <vector>
#include "facade/json_fields.hpp"
#include "facade/scenario_json.hpp"
#include "refengine/task.hpp"
#include "util/byte_text.hpp"
#include "util/errors.hpp"

namespace lab::facade {
using nlohmann::json;
using namespace lab::fields;

namespace {

constexpr std::int64_t kMaxPeakBytes = 256LL << 20;     // one browser tab's worth of tensors
constexpr double kMaxExecutedFlops = 1e13;               // ≈ 5 minutes at 35 GFLOP/s
constexpr std::int64_t kMaxSteps = 100000;

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

}  // namespace

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

}  // namespace lab::facade
