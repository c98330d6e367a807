// The re-computations behind verify_ledger: each recorded engine value is compared with evaluate/solve
// run on the settings the ledger records (the same mapping as the page: facade_ledger_scenarios.cpp).
// A record the student has not reached (null) is listed as not re-computed, never guessed.
#include <cmath>
#include "facade/facade.hpp"
#include "facade/facade_ledger.hpp"
#include "facade/json_fields.hpp"

namespace lab::facade {
using nlohmann::json;

namespace {

constexpr double kRelativeTolerance = 1e-9;  // the page writes engine doubles with >= 15 digits

// "a.b[2].c" → the value there, or nullptr.
const json* find_path(const json& root, const std::string& path) {
  const json* cur = &root;
  std::size_t i = 0;
  while (i < path.size() && cur) {
    if (path[i] == '.') { ++i; continue; }
    if (path[i] == '[') {
      const std::size_t close = path.find(']', i);
      const std::size_t index = std::stoul(path.substr(i + 1, close - i - 1));
      cur = cur->is_array() && index < cur->size() ? &(*cur)[index] : nullptr;
      i = close + 1;
      continue;
    }
    const std::size_t end = path.find_first_of(".[", i);
    const std::string key = path.substr(i, end == std::string::npos ? std::string::npos : end - i);
    const auto it = cur->is_object() ? cur->find(key) : json::const_iterator();
    cur = cur->is_object() && it != cur->end() ? &*it : nullptr;
    i = end == std::string::npos ? path.size() : end;
  }
  return cur;
}

std::string kind_of(const json& v) {
  return v.is_boolean() ? "true or false" : v.is_number() ? "a number" : v.is_string() ? "a string" : "an object or array";
}

// Equal as a verifier reads it: integers (bytes) exactly, other numbers within a relative 1e-9, the rest exactly.
bool same(const json& recorded, const json& recomputed, const std::string& path) {
  if (recomputed.is_null() || recorded.is_null()) return recorded.is_null() && recomputed.is_null();
  const bool type_ok = recomputed.is_number() ? recorded.is_number()
                       : recomputed.is_boolean() ? recorded.is_boolean()
                       : recomputed.is_string() ? recorded.is_string()
                                                : recorded.type() == recomputed.type();
  if (!type_ok) throw InputError(path, "must be " + kind_of(recomputed) + ", not " + kind_of(recorded));
  if (!recomputed.is_number()) return recorded == recomputed;
  if (recomputed.is_number_integer()) return recorded.get<double>() == recomputed.get<double>();  // bytes: exact
  const double a = recorded.get<double>(), b = recomputed.get<double>();
  return a == b || std::fabs(a - b) <= kRelativeTolerance * std::fmax(std::fabs(a), std::fabs(b));
}

class Checks {
 public:
  explicit Checks(const json& ledger) : ledger_(ledger) {}
  void value(const std::string& path, const json& recomputed, const char* label) {
    const json* recorded = find_path(ledger_, path);
    if (!recorded) throw InputError(path, "missing: the ledger has no '" + path + "' although the record it belongs to is present");
    fields.push_back({{"field", path}, {"label", label}, {"recorded", *recorded}, {"recomputed", recomputed},
                      {"differs", !same(*recorded, recomputed, path)}});
  }
  void skip(const std::string& path, const char* reason) { not_recomputed.push_back({{"field", path}, {"reason", reason}}); }
  // Index of the array entry whose "id" is `id` in ledger[array], or -1.
  int entry(const char* array, const char* id) const {
    const json& a = ledger_[array];
    if (!a.is_array()) throw InputError(array, std::string("'") + array + "' must be an array");
    for (std::size_t i = 0; i < a.size(); ++i)
      if (a[i].is_object() && a[i].contains("id") && a[i]["id"] == id) return static_cast<int>(i);
    return -1;
  }
  const json& ledger() const { return ledger_; }
  const json& at(const char* array, int i) const { return ledger_[array][static_cast<std::size_t>(i)]; }
  json fields = json::array(), not_recomputed = json::array();

 private:
  const json& ledger_;
};

const json& need(const json& obj, const char* key, const std::string& path) {
  fields::require_object(obj, path);
  const auto it = obj.find(key);
  if (it == obj.end()) throw InputError(fields::join_path(path, key), std::string("missing field '") + key + "'");
  return *it;
}

// evaluate/solve on a mapped scenario; an engine error names the recorded settings it came from.
json run(json (*fn)(const json&), const json& scenario, const std::string& settings_path) {
  try {
    return fn(scenario);
  } catch (const InputError& e) {
    throw InputError(settings_path, std::string("the recorded settings give no valid scenario (") + e.field + ": " + e.message + ")");
  }
}

// A binding_constraints entry: what binds, its headroom and the engine's sentence, all re-computed.
void binding_values(Checks& c, int b, const json& binding, const char* act) {
  const std::string p = "binding_constraints[" + std::to_string(b) + "]";
  const std::string at = std::string(" at ") + act + "'s settings";
  c.value(p + ".kind", binding["kind"], ("what binds" + at).c_str());
  c.value(p + ".headroom_bytes", binding["headroom_bytes"], ("headroom" + at).c_str());
  c.value(p + ".message", binding["message"], ("the engine's sentence on what binds" + at).c_str());
}

// scoring.js errorRatio: null ratio and "zero" for a prediction of nothing; "exact" within 5%.
json error_ratio(double predicted, double truth) {
  if (!(predicted > 0)) return {{"ratio", nullptr}, {"direction", "zero"}};
  const double r = std::fmax(predicted, truth) / std::fmin(predicted, truth);
  return {{"ratio", r}, {"direction", r < 1.05 ? "exact" : predicted < truth ? "under" : "over"}};
}

// act2-model.js rangeError: inside [lo, hi] is exact; outside, how many times beyond the nearer edge.
json range_error(double lo, double hi, double truth, const std::string& path) {
  if (!(lo > 0) || !(hi >= lo) || hi > 1) throw InputError(path, "must be [low, high] with 0 < low <= high <= 1");
  if (truth < lo) return {{"ratio", lo / truth}, {"direction", "over"}};
  if (truth > hi) return {{"ratio", truth / hi}, {"direction", "under"}};
  return {{"ratio", 1}, {"direction", "exact"}};
}

// {field, result pointer, label}: each recorded value gets a label of its own, so a verification table
// row says which number differs (not just "memory").
const char* const kMemoryKeys[][3] = {
    {"peak_bytes", "/memory/peak_bytes", "Act 1 settings: peak memory"},
    {"total_bytes", "/memory/total_bytes", "Act 1 settings: total of the memory components"},
    {"static_bytes", "/memory/static_bytes", "Act 1 settings: static memory (weights, gradients, optimizer state)"},
    {"usable_device_bytes", "/memory/usable_device_bytes", "Act 1 settings: the device's usable memory"},
    {"fits", "/memory/fits", "Act 1 settings: fits the device"},
    {"binding_kind", "/memory/binding/kind", "Act 1 settings: what binds"}};
// A table like kMemoryKeys: data, a row per recorded value, not repeated logic.
const char* const kPipelineKeys[][3] = {
    {"step_seconds", "/pipeline/step_seconds", "Act 2 settings: seconds per step"},
    {"busy_fraction", "/pipeline/busy_fraction", "Act 2 settings: GPU busy"},
    {"pipeline_efficiency", "/pipeline/pipeline_efficiency", "Act 2 settings: pipeline efficiency"},
    {"mfu", "/pipeline/mfu", "Act 2 settings: MFU"},
    {"hfu", "/pipeline/hfu", "Act 2 settings: HFU"},
    {"tokens_per_second", "/pipeline/tokens_per_second", "Act 2 settings: tokens per second"},
    {"bottleneck_axis", "/pipeline/bottleneck/axis", "Act 2 settings: the bottleneck"}};

// A plan field for a part the student has not started is null (issue 24): no choice was made. Ledgers
// written before that rule record the starting setting there; they are read as before, and said so.
void plan_choice(Checks& c, const char* field, bool started, const json& choice, const char* label) {
  const json* recorded = find_path(c.ledger(), field);
  if (!started && recorded && recorded->is_null()) {
    c.value(field, nullptr, label);
    return;
  }
  if (!started) c.skip(field, "the part was not started: the value is its starting setting, not a choice (a ledger from before such fields were left blank)");
  c.value(field, choice, label);
}

void act1_checks(Checks& c, const json& state, json& scenarios) {
  const json r = run(evaluate_json, act1_scenario(need(state, "config", "lab_state"), "lab_state.config"), "lab_state.config");
  scenarios["act1"] = r["scenario"];
  for (const auto& k : kMemoryKeys) c.value(std::string("result_snapshot.act1.") + k[0], r.at(json::json_pointer(k[1])), k[2]);
  c.value("knob_settings.act1", state["config"], "Act 1 settings, as recorded in the lab state");
  if (const int b = c.entry("binding_constraints", "act1"); b >= 0) binding_values(c, b, r["memory"]["binding"], "Act 1");

  // Act 1's fixed numbers (act1-numbers.js): GPT-2 XL at batch 1; the chapter replay at batch 32.
  auto fixed = [](json s) { s.merge_patch({{"model", "gpt2-xl"}, {"batch_size", 1}, {"checkpointing", "none"}}); return evaluate_json(s)["memory"]; };
  auto replay = [](const char* p) {
    return evaluate_json({{"model", "gpt2-xl"}, {"chapter_replay", true}, {"device", "v100-sxm2-32gb"}, {"optimizer", "adam"},
                          {"batch_size", 32}, {"checkpointing", "none"}, {"precision", p}})["memory"];
  };
  const json& act1 = need(need(state, "acts", "lab_state"), "act1", "lab_state.acts");
  const json& pred = need(act1, "prediction", "lab_state.acts.act1");
  plan_choice(c, "optimizer_chosen", !pred.is_null(), state["config"]["optimizer"], "optimizer chosen: Act 1's optimizer");
  if (pred.is_null()) {
    c.skip("lab_state.acts.act1.prediction", "no Act 1 prediction recorded yet");
  } else {
    const std::int64_t truth = fixed({{"precision", "fp32"}, {"optimizer", "adam"}})["static_bytes"].get<std::int64_t>() -
                               fixed({{"precision", "fp32"}, {"optimizer", "sgd"}})["static_bytes"].get<std::int64_t>();
    const std::string p = "lab_state.acts.act1.prediction";
    const double predicted = fields::to_number(need(pred, "predicted_bytes", p), p + ".predicted_bytes", 0, 1e18);
    const json e = error_ratio(predicted, static_cast<double>(truth));
    c.value(p + ".truth_bytes", truth, "Act 1 prediction: the engine's SGD → Adam extra bytes (FP32)");
    c.value(p + ".error_ratio", e["ratio"], "Act 1 prediction: error ratio from the recorded answer and the truth");
    c.value(p + ".direction", e["direction"], "Act 1 prediction: direction of the error");
    if (const int i = c.entry("predictions", "act1"); i >= 0) {
      const std::string q = "predictions[" + std::to_string(i) + "]";
      c.value(q + ".predicted", pred["predicted_bytes"], "Act 1 prediction: the answer (predictions list)");
      c.value(q + ".truth", truth, "Act 1 prediction: the engine's answer (predictions list)");
      c.value(q + ".error_ratio", e["ratio"], "Act 1 prediction: error ratio (predictions list)");
      c.value(q + ".direction", e["direction"], "Act 1 prediction: direction (predictions list)");
    }
  }
  const json& refl = need(act1, "reflection", "lab_state.acts.act1");
  if (refl.is_null()) {
    c.skip("lab_state.acts.act1.reflection", "no Act 1 reflection recorded yet");
  } else {
    const double ratio = replay("fp32")["total_bytes"].get<double>() / replay("mixed")["total_bytes"].get<double>();
    c.value("lab_state.acts.act1.reflection.engine_ratio", ratio, "Act 1 reflection: FP32 / mixed total in the chapter replay");
    if (const int i = c.entry("reflections", "act1"); i >= 0)
      c.value("reflections[" + std::to_string(i) + "].engine_values.ratio", ratio, "Act 1 reflection: the engine's ratio (reflections list)");
  }
}

// "lab_state.acts.act2.<key>", or nullptr when the record is null (not reached).
const json* record(const json& act2, const char* key) {
  const json& r = need(act2, key, "lab_state.acts.act2");
  if (r.is_null()) return nullptr;
  fields::require_object(r, std::string("lab_state.acts.act2.") + key);
  return &r;
}

void act2_prediction(Checks& c, const json& act2) {
  const json* pred = record(act2, "prediction");
  if (!pred) {
    c.skip("lab_state.acts.act2.prediction", "no Act 2 prediction recorded yet");
    c.value("baseline_mfu_estimate_pct", nullptr, "MFU estimate (%): blank until the Act 2 prediction");
    return;
  }
  const std::string p = "lab_state.acts.act2.prediction";
  const json r = run(evaluate_json, act2_scenario(need(*pred, "scenario", p), p + ".scenario"), p + ".scenario");
  const double truth = r["pipeline"]["mfu"].get<double>();
  const double predicted = fields::to_number(need(*pred, "predicted_mfu", p), p + ".predicted_mfu", 0, 1);
  c.value(p + ".truth_mfu", truth, "Act 2 prediction: the engine's MFU for the scenario on screen");
  c.value("baseline_mfu_estimate_pct", predicted * 100, "MFU estimate (%): the Act 2 prediction × 100");
  // The page scores the chosen option's range (act2-model.js rangeError); the lab state keeps only its
  // middle, the ledger's predictions entry the range itself. Without it, only the copies are compared.
  const int i = c.entry("predictions", "act2");
  const std::string q = "predictions[" + std::to_string(i) + "]";
  const json* range = i >= 0 ? &need(c.at("predictions", i), "predicted_range", q) : nullptr;
  json e = {{"ratio", need(*pred, "error_ratio", p)}, {"direction", need(*pred, "direction", p)}};
  if (range && range->is_array() && range->size() == 2 && (*range)[0].is_number() && (*range)[1].is_number()) {
    e = range_error((*range)[0].get<double>(), (*range)[1].get<double>(), truth, q + ".predicted_range");
    c.value(p + ".error_ratio", e["ratio"], "Act 2 prediction: error from the chosen range's nearer edge to the truth");
    c.value(p + ".direction", e["direction"], "Act 2 prediction: direction of the error");
  } else {
    if (range && !range->is_null()) throw InputError(q + ".predicted_range", "must be null or [low, high], two fractions");
    c.skip(p + ".error_ratio", "scored against the chosen option's range, which this ledger does not record");
  }
  if (i >= 0) {
    c.value(q + ".predicted", need(*pred, "predicted_mfu", p), "Act 2 prediction: the answer (predictions list)");
    c.value(q + ".truth", truth, "Act 2 prediction: the engine's MFU (predictions list)");
    c.value(q + ".error_ratio", e["ratio"], "Act 2 prediction: error ratio (predictions list)");
    c.value(q + ".direction", e["direction"], "Act 2 prediction: direction (predictions list)");
  }
}

void act2_design(Checks& c, const json& act2) {
  const json* design = record(act2, "design");
  const json* best = design ? &need(*design, "best", "lab_state.acts.act2.design") : nullptr;
  if (!best || best->is_null()) {
    c.skip("lab_state.acts.act2.design.best", "no design-challenge result recorded yet");
    c.value("final_mfu_pct", nullptr, "best design's MFU (%): blank until the design challenge has a best configuration");
    return;
  }
  const std::string p = "lab_state.acts.act2.design.best";
  const json r = run(evaluate_json, act2_scenario(need(*best, "config", p), p + ".config"), p + ".config");
  const json& pipe = r["pipeline"];
  c.value(p + ".mfu", pipe["mfu"], "design challenge: MFU of the best configuration");
  c.value(p + ".busy_fraction", pipe["busy_fraction"], "design challenge: GPU busy fraction");
  c.value(p + ".pipeline_efficiency", pipe["pipeline_efficiency"], "design challenge: pipeline efficiency");
  for (const char* k : {"data_loading", "transfers", "compute"})
    c.value(p + ".shares." + k, pipe["chapter_shares"][k], "design challenge: share of the step");
  c.value("final_mfu_pct", pipe["mfu"].get<double>() * 100, "best design's MFU (%): its MFU × 100");
  // The goal since issue 23, the fastest step, with the peaks: only in records made under it.
  const double peak_flops = r["flops"]["peak_flops_per_s"].get<double>();
  const double peak_tokens = peak_flops / r["flops"]["model_per_token"].get<double>();
  if (best->contains("tokens_per_second")) {
    c.value(p + ".tokens_per_second", pipe["tokens_per_second"], "design challenge: throughput of the fastest configuration");
    c.value(p + ".peak_tokens_per_second", peak_tokens, "design challenge: tokens/s at the GPU's peak FLOP/s");
    c.value(p + ".peak_flops_per_s", peak_flops, "design challenge: the peak its MFU is measured against");
  }
  const json& l = c.ledger();
  if (l.contains("final_tokens_per_second"))
    c.value("final_tokens_per_second", pipe["tokens_per_second"], "fastest step (tokens/s): the best design's throughput");
  if (l.contains("final_peak_tokens_per_second"))
    c.value("final_peak_tokens_per_second", peak_tokens, "fastest step: tokens/s at the GPU's peak FLOP/s");
  if (l.contains("final_mfu_peak_flops_per_s"))
    c.value("final_mfu_peak_flops_per_s", peak_flops, "best design's MFU: the peak FLOP/s it is measured against");
}

void act2_laptop(Checks& c, const json& act2, json& scenarios) {
  const json* laptop = record(act2, "laptop");
  const std::string p = "lab_state.acts.act2.laptop";
  const json& moves = laptop ? need(*laptop, "moves", p) : json();
  if (laptop && !moves.is_array()) throw InputError(p + ".moves", "must be an array of moves");
  if (!laptop || (moves.empty() && need(*laptop, "floor_bytes", p).is_null())) {
    c.skip(p, "the laptop challenge has not started");
    for (const char* k : {"laptop_minimum_memory_gb", "laptop_floor_derivation"}) c.value(k, nullptr, "laptop summary: blank until the laptop challenge");
    c.value("laptop_fit_achieved", false, "laptop summary: fit achieved");
    return;
  }
  if (moves.size() > kLedgerMaxMoves)
    throw InputError(p + ".moves", "has " + std::to_string(moves.size()) + " moves; verify re-computes at most " + std::to_string(kLedgerMaxMoves));
  bool fit = false;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const std::string m = p + ".moves[" + std::to_string(i) + "]";
    const json r = run(evaluate_json, laptop_scenario(need(moves[i], "config", m), m + ".config"), m + ".config");
    const bool trainable = r["memory"]["numerically_valid"].get<bool>();
    fit = fit || (r["memory"]["fits"].get<bool>() && trainable);
    c.value(m + ".peak_bytes", r["memory"]["peak_bytes"], "laptop move: peak memory after it");
    c.value(m + ".fits", r["memory"]["fits"], "laptop move: fits in 8 GB");
    c.value(m + ".trainable", trainable, "laptop move: numerically valid (an FP32 master copy or FP32)");
  }
  const json s = run(solve_json, {{"model", "gpt2-xl"}, {"device", kLaptopDevice}}, p);
  scenarios["laptop"] = s["scenario"];
  const json& floor = s["floor"];
  c.value(p + ".fit_achieved", fit, "laptop challenge: some move fits and trains");
  c.value("laptop_fit_achieved", fit, "laptop summary: fit achieved");
  if (need(*laptop, "floor_bytes", p).is_null())
    c.skip(p + ".floor_bytes", "the student has not reached the laptop floor yet");
  else
    c.value(p + ".floor_bytes", floor["peak_bytes"], "laptop challenge: the solver's least peak over every valid configuration");
  c.value("result_snapshot.laptop.floor_peak_bytes", floor["peak_bytes"], "laptop floor: least peak that trains");
  c.value("result_snapshot.laptop.static_floor_bytes", floor["static_floor_bytes"], "laptop floor: static part");
  // A ledger exported before the floor's text was reworded records the first wording: same numbers.
  const std::string earlier = floor_text_first_wording(s, "gpt2-xl");
  const auto text_for = [&](const char* path) {
    const json* recorded = find_path(c.ledger(), path);
    return recorded && recorded->is_string() && *recorded == earlier ? json(earlier) : floor["text"];
  };
  c.value("result_snapshot.laptop.floor_text", text_for("result_snapshot.laptop.floor_text"), "laptop floor: the solver's derivation");
  c.value("laptop_minimum_memory_gb", floor["peak_bytes"].get<double>() / 1e9, "laptop summary: the floor in GB (10^9 B)");
  c.value("laptop_floor_derivation", text_for("laptop_floor_derivation"), "laptop summary: the solver's derivation of the floor");
}

// The checkpointing reflection's engine values (act2-numbers.js ckptNumbers): the recorded Act 2
// settings with checkpointing every k layers (k = 4 unless every-k was selected) against none;
// ratio = activations without / (activations with + the segment rebuilt in backward), overhead =
// recomputed / model FLOPs. Records made before the settings were kept cannot be recomputed.
void act2_reflection_ckpt(Checks& c, const json& act2) {
  const std::string p = "lab_state.acts.act2.reflection_ckpt";
  const json* r = record(act2, "reflection_ckpt");
  if (!r || r->is_null() || !r->contains("scenario")) {
    c.skip(p, r && !r->is_null() ? "its engine values were computed for Act 2 settings this record does not keep (made before they were recorded)"
                                 : "no checkpointing reflection recorded yet");
    return;
  }
  const json& cfg = (*r)["scenario"];
  json with = act2_scenario(cfg, p + ".scenario");
  const bool every = need(cfg, "checkpointing", p + ".scenario") == "every_k";
  with["checkpointing"] = {{"every_k_layers", every ? need(cfg, "every_k", p + ".scenario") : json(4)}};
  with["schedule_steps"] = 0;
  json without = with;
  without["checkpointing"] = "none";
  const json rw = run(evaluate_json, with, p + ".scenario");
  const json rn = run(evaluate_json, without, p + ".scenario");
  const double saved = rw["memory"]["components"]["activations"].get<double>() +
                       rw["memory"]["transients"].value("recompute_working_set", 0.0);
  c.value(p + ".engine_ratio", rn["memory"]["components"]["activations"].get<double>() / saved,
          "checkpointing reflection: activation memory without / with checkpointing");
  c.value(p + ".engine_overhead", rw["flops"]["recompute_per_token"].get<double>() / rw["flops"]["model_per_token"].get<double>(),
          "checkpointing reflection: recomputed FLOPs / model FLOPs");
}

void act2_checks(Checks& c, const json& state, json& scenarios) {
  const json& acts = state["acts"];
  const bool has_act2 = state.contains("config2") && acts.is_object() && acts.contains("act2");
  const json* best = nullptr;
  if (has_act2 && acts["act2"].is_object() && acts["act2"].contains("design") && acts["act2"]["design"].is_object()) {
    const json* b = find_path(acts["act2"]["design"], "best");
    if (b && b->is_object() && b->contains("config")) best = &(*b)["config"];
  }
  const json& chosen = best ? *best : has_act2 ? state["config2"] : state["config"];
  const std::string cp = best ? "lab_state.acts.act2.design.best.config" : has_act2 ? "lab_state.config2" : "lab_state.config";
  // Act 2 is started once its prediction is locked in (a best design needs one); a version-1 ledger
  // records Act 1's settings here, as it always did.
  const json* pred2 = has_act2 && acts["act2"].is_object() ? find_path(acts["act2"], "prediction") : nullptr;
  const bool started = !has_act2 || best || (pred2 && !pred2->is_null());
  plan_choice(c, "precision_chosen", started, need(chosen, "precision", cp), "precision chosen: the best design's (else the current) precision");
  plan_choice(c, "gradient_checkpointing", started, need(chosen, "checkpointing", cp) != "none", "gradient checkpointing chosen: the best design's (else the current)");
  if (!has_act2) {
    c.skip("lab_state.acts.act2", "this ledger has no Act 2 record (ledger version 1 was made before Act 2)");
    return;
  }
  const json r = run(evaluate_json, act2_scenario(state["config2"], "lab_state.config2"), "lab_state.config2");
  scenarios["act2"] = r["scenario"];
  c.value("knob_settings.act2", state["config2"], "Act 2 settings, as recorded in the lab state");
  const json* snapshot = find_path(c.ledger(), "result_snapshot.act2");
  if (!snapshot || snapshot->is_null()) {
    c.skip("result_snapshot.act2", "no Act 2 results recorded (a ledger migrated from version 1)");
  } else {
    for (const auto& k : kPipelineKeys) c.value(std::string("result_snapshot.act2.") + k[0], r.at(json::json_pointer(k[1])), k[2]);
    c.value("result_snapshot.act2.peak_bytes", r["memory"]["peak_bytes"], "Act 2 settings: peak memory");
    c.value("result_snapshot.act2.fits", r["memory"]["fits"], "Act 2 settings: fits the device");
  }
  if (const int b = c.entry("binding_constraints", "act2"); b >= 0) binding_values(c, b, r["memory"]["binding"], "Act 2");
  const json& act2 = acts["act2"];
  fields::require_object(act2, "lab_state.acts.act2");
  act2_prediction(c, act2);
  act2_design(c, act2);
  act2_laptop(c, act2, scenarios);
  const json* fix = act2.contains("reflection_fix") ? &act2["reflection_fix"] : nullptr;
  c.skip("lab_state.acts.act2.reflection_fix", fix && !fix->is_null()
      ? "a multiple-choice answer: its scoring is recorded by the page, not re-computed"
      : "no answer to the fix question recorded yet");
  act2_reflection_ckpt(c, act2);
}

// The workbench (issue 25): the results the ledger records for lab_state.workbench.scenario, re-computed
// as workbench-view.js workbenchRecord makes them: evaluate, then solve on the scenario, or on its textbook
// twin (workbench_textbook_twin) where the solver does not take framework "pytorch". An evaluate error
// records null, as the page does.
json workbench_record(const json& scenario, json& scenarios) {
  json r;
  try {
    r = evaluate_json(scenario);
  } catch (const InputError&) {
    return nullptr;
  }
  scenarios["workbench"] = r["scenario"];
  const bool pytorch = r["scenario"].value("framework", "") == "pytorch";
  std::string layout = pytorch ? "pytorch" : "textbook";
  json solved;
  try {
    solved = solve_json(scenario);
  } catch (const InputError& e) {
    if (pytorch && (e.field == "framework" || e.field == "precision" || e.field == "activation_model")) {
      layout = "textbook";
      try { solved = solve_json(workbench_textbook_twin(scenario)); } catch (const InputError&) { solved = nullptr; }
    }
  }
  const json& m = r["memory"];
  const json& p = r["pipeline"];
  return {{"model_name", r["model"].contains("name") ? r["model"]["name"] : json(nullptr)},
          {"peak_bytes", m["peak_bytes"]},
          {"peak_phase", m.contains("step_phases") ? m["step_phases"]["peak_phase"] : json(nullptr)},
          {"fits", m["fits"]}, {"numerically_valid", m["numerically_valid"]}, {"usable_device_bytes", m["usable_device_bytes"]},
          {"largest_batch_size", solved.is_object() ? solved["largest_batch"]["largest_batch"] : json(nullptr)},
          {"largest_batch_layout", layout},
          {"step_seconds", p["step_seconds"]}, {"tokens_per_second", p["tokens_per_second"]}, {"mfu", p["mfu"]}};
}

const char* const kWorkbenchLabels[][2] = {
    {"model_name", "workbench: the model's name"},
    {"peak_bytes", "workbench: peak memory"},
    {"peak_phase", "workbench: the phase of the peak"},
    {"fits", "workbench: fits the device"},
    {"numerically_valid", "workbench: can train (an FP32 master copy or FP32)"},
    {"usable_device_bytes", "workbench: the device's usable memory"},
    {"largest_batch_size", "workbench: the largest micro-batch that fits (the solver)"},
    {"largest_batch_layout", "workbench: how the solver counted memory"},
    {"step_seconds", "workbench: seconds per step (estimate)"},
    {"tokens_per_second", "workbench: tokens per second (estimate)"},
    {"mfu", "workbench: MFU (estimate)"}};

void workbench_checks(Checks& c, const json& state, json& scenarios) {
  const json* snap = find_path(c.ledger(), "result_snapshot.workbench");
  const json* scenario = find_path(state, "workbench.scenario");
  if (!snap) {
    c.skip("result_snapshot.workbench", "this ledger records no workbench results (made before the workbench, or without it)");
    return;
  }
  if (!scenario || scenario->is_null()) {
    c.skip("lab_state.workbench.scenario", "no workbench scenario recorded");
    c.value("result_snapshot.workbench", nullptr, "workbench: no results without a scenario");
    return;
  }
  const json rec = workbench_record(*scenario, scenarios);
  if (rec.is_null() || snap->is_null()) {
    c.value("result_snapshot.workbench", rec, "workbench: results for the recorded scenario");
    return;
  }
  for (const auto& k : kWorkbenchLabels) c.value(std::string("result_snapshot.workbench.") + k[0], rec[k[0]], k[1]);
}

}  // namespace

json verify_checks(const json& ledger) {
  Checks c(ledger);
  json scenarios = json::object();
  const json& state = ledger["lab_state"];
  act1_checks(c, state, scenarios);
  act2_checks(c, state, scenarios);
  workbench_checks(c, state, scenarios);
  const Act3Recomputed act3 = act3_recompute(ledger);  // facade_ledger_act3.cpp
  for (const auto& v : act3.values) c.value(v.path, v.recomputed, v.label.c_str());
  for (const auto& [path, reason] : act3.skipped) c.skip(path, reason.c_str());
  if (!act3.scenario.is_null()) scenarios["act3"] = act3.scenario;
  return {{"fields", c.fields}, {"not_recomputed", c.not_recomputed}, {"scenarios", scenarios}};
}

}  // namespace lab::facade
