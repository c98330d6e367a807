// Recorded knob settings → engine scenario, exactly as the page maps them (web/src/state/scenario.js:
// toScenario, toScenario2, and the laptop challenge's moves). tests/wasm/ledger.test.mjs checks that
// the two mappings resolve to the same scenarios on every fixture. Validation here covers only what
// the mapping reads; the engine (parse_scenario) checks the resulting scenario once more.
#include <cmath>
#include "facade/facade_ledger.hpp"
#include "facade/json_fields.hpp"

namespace lab::facade {
using nlohmann::json;

namespace {

const std::vector<std::string> kOptimizers{"sgd", "momentum", "adam"};
const std::vector<std::string> kPrecisions{"fp32", "mixed", "fp16", "bf16"};
const std::vector<std::string> kCheckpointing{"none", "selective", "full", "every_k"};
const std::vector<std::string> kComponents{"weights",   "autocast_cache", "master_weights", "gradients",
                                           "momentum",  "adam_m",         "adam_v",         "activations",
                                           "logits",    "reserve",        "transient"};
constexpr const char* kModel = "gpt2-xl";               // scenario.js MODEL_ID
constexpr const char* kReplayDevice = "v100-sxm2-32gb";  // scenario.js REPLAY_DEVICE
constexpr const char* kCustomBaseDevice = "h100-sxm-80gb";
constexpr int kScheduleSteps = 3;  // scenario.js SCHEDULE_STEPS (toScenario2)

const json& need(const json& obj, const char* key, const std::string& path) {
  const auto it = obj.find(key);
  if (it == obj.end()) throw InputError(fields::join_path(path, key), std::string("missing setting '") + key + "'");
  return *it;
}

std::string choice(const json& obj, const char* key, const std::string& path, const std::vector<std::string>& set) {
  return set[fields::to_choice(need(obj, key, path), fields::join_path(path, key), set)];
}

// An integer the lab offers for this knob (the schema's enum), e.g. the batch sizes.
std::int64_t one_of(const json& obj, const char* key, const std::string& path, std::initializer_list<std::int64_t> set) {
  const std::string p = fields::join_path(path, key);
  const json& v = need(obj, key, path);
  std::string list;
  for (auto x : set) {
    if (v.is_number() && v.get<double>() == static_cast<double>(x)) return x;
    list += (list.empty() ? "" : ", ") + std::to_string(x);
  }
  throw InputError(p, "must be one of " + list + " (got " + v.dump().substr(0, 40) + ")");
}

// "every_k" → {"every_k_layers": k}; the others are the engine's own names.
json checkpointing(const json& obj, const std::string& path) {
  const std::string kind = choice(obj, "checkpointing", path, kCheckpointing);
  if (kind != "every_k") return kind;
  return {{"every_k_layers", fields::to_int(need(obj, "every_k", path), fields::join_path(path, "every_k"), 1, 48)}};
}

std::string device_id(const json& obj, const std::string& path) {
  const std::string id = fields::to_string_value(need(obj, "device", path), fields::join_path(path, "device"));
  if (id.empty() || id.size() > 40 || id.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") != std::string::npos)
    throw InputError(fields::join_path(path, "device"), "must be a device id of lowercase letters, digits and '-' (got '" +
                                                           id.substr(0, 40) + "')");
  return id;
}

}  // namespace

json act1_scenario(const json& config, const std::string& path) {
  fields::require_object(config, path);
  fields::reject_unknown(config, path, {"optimizer", "precision", "batch_size", "checkpointing", "every_k", "device",
                                        "custom_capacity_gb", "units", "replay", "hidden_components", "framework"});
  // Optional; absent = "textbook" (scenario.js frameworkOf).
  const bool pytorch = config.contains("framework") &&
                       choice(config, "framework", path, {"textbook", "pytorch"}) == "pytorch";
  const bool replay = fields::to_bool(need(config, "replay", path), fields::join_path(path, "replay")) && !pytorch;
  fields::to_choice(need(config, "units", path), fields::join_path(path, "units"), {"gb", "gib"});
  const json& hidden = need(config, "hidden_components", path);
  if (!hidden.is_array()) throw InputError(fields::join_path(path, "hidden_components"), "must be an array of component names");
  for (std::size_t i = 0; i < hidden.size(); ++i)
    fields::to_choice(hidden[i], fields::join_path(path, "hidden_components") + "[" + std::to_string(i) + "]", kComponents);
  const std::string device = device_id(config, path);
  json dev = device;
  if (replay) {
    dev = kReplayDevice;
  } else if (device == "custom") {
    const double gb = fields::to_number(need(config, "custom_capacity_gb", path), fields::join_path(path, "custom_capacity_gb"), 1, 1000);
    dev = {{"base", kCustomBaseDevice}, {"capacity_bytes", static_cast<std::int64_t>(std::llround(gb * 1e9))}};
  } else {
    fields::to_number(need(config, "custom_capacity_gb", path), fields::join_path(path, "custom_capacity_gb"), 1, 1000);
  }
  if (pytorch) {
    // scenario.js PYTORCH_DEFAULTS and PYTORCH_PRECISION: mixed = torch.autocast's default FP16; no
    // checkpointing, no replay (the configuration's own values are read for validation only).
    const std::string precision = choice(config, "precision", path, kPrecisions);
    checkpointing(config, path);
    return {{"model", kModel},
            {"optimizer", choice(config, "optimizer", path, kOptimizers)},
            {"precision", precision == "mixed" ? "autocast_fp16" : precision},
            {"batch_size", one_of(config, "batch_size", path, {1, 2, 4, 8, 16, 32, 64, 128})},
            {"checkpointing", "none"},
            {"device", dev},
            {"chapter_replay", false},
            {"framework", "pytorch"},
            {"activation_model", "pytorch_eager"},
            {"step", "steady"},
            {"zero_grad", "set_to_none"},
            {"optimizer_impl", "foreach"}};
  }
  return {{"model", kModel},
          {"optimizer", choice(config, "optimizer", path, kOptimizers)},
          {"precision", choice(config, "precision", path, kPrecisions)},
          {"batch_size", one_of(config, "batch_size", path, {1, 2, 4, 8, 16, 32, 64, 128})},
          {"checkpointing", checkpointing(config, path)},
          {"device", dev},
          {"chapter_replay", replay}};
}

json act2_scenario(const json& config2, const std::string& path) {
  fields::require_object(config2, path);
  fields::reject_unknown(config2, path, {"precision", "checkpointing", "every_k", "batch_size", "device", "data_workers",
                                         "prefetch", "prefetch_depth", "pinned_memory", "replay"});
  return {{"model", kModel},
          {"optimizer", "adam"},  // scenario.js ACT2_OPTIMIZER
          {"precision", choice(config2, "precision", path, {"fp32", "mixed"})},
          {"batch_size", one_of(config2, "batch_size", path, {16, 32, 64, 128, 256})},
          {"checkpointing", checkpointing(config2, path)},
          {"device", choice(config2, "device", path, {"v100-sxm2-32gb", "a100-sxm4-40gb", "a100-sxm4-80gb", "h100-sxm-80gb"})},
          {"chapter_replay", fields::to_bool(need(config2, "replay", path), fields::join_path(path, "replay"))},
          {"data_workers", fields::to_int(need(config2, "data_workers", path), fields::join_path(path, "data_workers"), 0, 16)},
          {"prefetch", fields::to_bool(need(config2, "prefetch", path), fields::join_path(path, "prefetch"))},
          {"prefetch_depth", fields::to_int(need(config2, "prefetch_depth", path), fields::join_path(path, "prefetch_depth"), 1, 8)},
          {"pinned_memory", fields::to_bool(need(config2, "pinned_memory", path), fields::join_path(path, "pinned_memory"))},
          {"schedule_steps", kScheduleSteps}};
}

json laptop_scenario(const json& move_config, const std::string& path) {
  fields::require_object(move_config, path);
  fields::reject_unknown(move_config, path, {"optimizer", "precision", "checkpointing", "every_k", "batch_size"});
  return {{"model", kModel},
          {"device", kLaptopDevice},
          {"optimizer", choice(move_config, "optimizer", path, kOptimizers)},
          {"precision", choice(move_config, "precision", path, kPrecisions)},
          {"batch_size", one_of(move_config, "batch_size", path, {1, 2, 4, 8, 16, 32})},
          {"checkpointing", checkpointing(move_config, path)},
          {"schedule_steps", 0}};
}

json workbench_textbook_twin(const json& scenario) {
  if (!scenario.is_object()) return scenario;  // evaluate names what is wrong with it
  json s = scenario;
  for (const char* k : {"pytorch_build", "step", "mode", "zero_grad", "optimizer_impl", "pytorch_implementation",
                        "autocast_scope", "activation_model"})
    s.erase(k);
  s["framework"] = "textbook";
  const auto p = s.find("precision");
  if (p != s.end() && p->is_string() && (*p == "autocast_bf16" || *p == "autocast_fp16")) *p = "mixed";
  return s;
}

}  // namespace lab::facade
