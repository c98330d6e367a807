// verify_ledger: checks a design ledger's envelope (size, depth, lab, version, fields), migrates an
// older layout, then re-runs evaluate/solve on the recorded settings and compares every recorded
// engine value (facade_ledger_checks.cpp). Answers are values, never exceptions.
#include "facade/facade_ledger.hpp"
#include "util/byte_text.hpp"
#include "util/errors.hpp"
#include "facade/facade.hpp"
#include "facade/json_fields.hpp"
#include "facade/json_parse.hpp"

namespace lab::facade {
using nlohmann::json;

json verify_checks(const json& ledger);  // facade_ledger_checks.cpp: {fields, not_recomputed, scenarios}

namespace {

const char* const kCanProve =
    "Every engine value this ledger records was re-computed from the ledger's own recorded settings. A match "
    "shows those values are what the engine gives for those settings: they were not edited by hand, and the "
    "settings, results and the summary of the choices (optimizer, precision, best MFU, laptop floor) agree "
    "with each other.";
const char* const kCannotProve =
    "It cannot prove who made the ledger or when, nor that the predictions and reflection answers are the "
    "student's own: they are choices with no engine value to re-compute, and a ledger is a plain file that "
    "anyone with the lab could produce. Whether a multiple-choice answer was scored right is recorded by the "
    "page and not re-scored here. A ledger from another engine version may differ without any editing.";

// Top-level fields of a version-2 ledger (web/src/state/schema/design-ledger.schema.json "properties").
const std::vector<std::string> kLedgerFields{
    "ledger_schema_version", "lab_id", "engine_version", "timestamp", "chapter", "optimizer_chosen",
    "precision_chosen", "gradient_checkpointing", "final_mfu_pct", "baseline_mfu_estimate_pct",
    "laptop_fit_achieved", "laptop_minimum_memory_gb", "laptop_floor_derivation", "predictions", "knob_settings",
    "binding_constraints", "decisions", "reflections", "result_snapshot", "calibration", "lab_state"};
// Optional top-level fields: the design challenge's fastest step and the peaks (issue 23), absent in
// ledgers made when its goal was the highest MFU, and until a best design is recorded.
const std::vector<std::string> kOptionalLedgerFields{"final_tokens_per_second", "final_peak_tokens_per_second",
                                                     "final_mfu_peak_flops_per_s"};
// Fields version 1 (Act 1 only, lab state version 1) did not have; migration adds them as "not reached".
const std::vector<std::string> kAddedInV2{"final_mfu_pct", "baseline_mfu_estimate_pct", "laptop_fit_achieved",
                                          "laptop_minimum_memory_gb", "laptop_floor_derivation"};

std::string size_text(std::size_t bytes) { return scaled_text(static_cast<std::int64_t>(bytes), 1'000'000, 1, " MB"); }

json invalid(const std::string& field, const std::string& message) {
  json r = error_json(field, message);
  r["status"] = "invalid";
  r["can_prove"] = kCanProve;
  r["cannot_prove"] = kCannotProve;
  r["summary"] = "invalid: " + (field.empty() ? std::string() : field + ": ") + message;
  return r;
}

// MIGRATIONS: version n → n + 1, in place. Version 1 is the Act 1-only layout (lab state version 1).
void migrate_v1(json& ledger) {
  for (const auto& k : kAddedInV2) if (!ledger.contains(k)) ledger[k] = nullptr;
  if (!ledger.contains("laptop_fit_achieved") || ledger["laptop_fit_achieved"].is_null()) ledger["laptop_fit_achieved"] = false;
  ledger["ledger_schema_version"] = 2;
}

json verify_parsed(json& ledger, int* migrated_from) {
  fields::require_object(ledger, "");
  const auto id = ledger.find("lab_id");
  const auto ver = ledger.find("ledger_schema_version");
  if (id == ledger.end() && ver == ledger.end())
    throw InputError("", "this is not a design ledger: it has neither 'lab_id' nor 'ledger_schema_version'");
  if (id == ledger.end()) throw InputError("lab_id", "missing 'lab_id'; a Lab 08 ledger says \"lab08-model-train\"");
  if (!id->is_string() || id->get<std::string>() != kLabId)
    throw InputError("lab_id", "this ledger belongs to " + (id->is_string() ? "'" + id->get<std::string>().substr(0, 60) + "'" : std::string("no lab")) +
                                   ", not to Lab 08 (\"lab08-model-train\")");
  if (ver == ledger.end()) throw InputError("ledger_schema_version", "missing 'ledger_schema_version'");
  const std::int64_t v = fields::to_int(*ver, "ledger_schema_version", 1, 1'000'000);
  if (v > kLedgerSchemaVersion)
    throw InputError("ledger_schema_version", "written by a newer version of the lab (ledger version " + std::to_string(v) +
                                                  "); this engine reads versions 1 to " + std::to_string(kLedgerSchemaVersion));
  *migrated_from = v < kLedgerSchemaVersion ? static_cast<int>(v) : 0;
  if (v == 1) migrate_v1(ledger);
  std::vector<std::string> known = kLedgerFields;
  known.insert(known.end(), kOptionalLedgerFields.begin(), kOptionalLedgerFields.end());
  fields::reject_unknown(ledger, "", known);
  for (const auto& k : kLedgerFields)
    if (!ledger.contains(k)) throw InputError(k, "missing field '" + k + "'");
  const json& state = ledger["lab_state"];
  fields::require_object(state, "lab_state");
  const std::int64_t sv = fields::to_int(state.contains("schema_version") ? state["schema_version"] : json(), "lab_state.schema_version", 1, 2);
  if (*migrated_from == 0 && sv != 2)
    throw InputError("lab_state.schema_version", "a version-2 ledger carries lab state version 2 (got " + std::to_string(sv) + ")");
  return verify_checks(ledger);
}

std::string first_fields(const json& differing, std::size_t n) {
  std::string s;
  for (std::size_t i = 0; i < differing.size() && i < n; ++i) s += (i ? ", " : "") + differing[i].get<std::string>();
  if (differing.size() > n) s += ", …";
  return s;
}

}  // namespace

int json_nesting_depth(const std::string& text, int limit) {
  int depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > deepest && (deepest = depth) > limit) return deepest;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

json verify_ledger_json(const std::string& text) {
  try {
    if (text.size() > kLedgerMaxBytes)
      return invalid("", "the file is " + size_text(text.size()) + "; a design ledger is at most 1 MiB (a finished lab's is about 20 KB)");
    if (json_nesting_depth(text, kLedgerMaxDepth) > kLedgerMaxDepth)
      return invalid("", "the file nests arrays or objects more than " + std::to_string(kLedgerMaxDepth) + " levels deep; a design ledger nests about 8");
    json ledger = parse_json_text(text, kLedgerMaxBytes, "file");
    int migrated_from = 0;
    json checks = verify_parsed(ledger, &migrated_from);
    const std::string recorded_version = ledger["engine_version"].is_string() ? ledger["engine_version"].get<std::string>() : "";
    if (recorded_version.empty()) throw InputError("engine_version", "must be the engine version string the ledger was made with");
    const bool version_differs = recorded_version != kEngineVersion;
    json differing = json::array();
    for (const auto& f : checks["fields"]) if (f["differs"].get<bool>()) differing.push_back(f["field"]);
    const std::string status = differing.empty() ? "ok" : "differs";
    std::string summary = status == "ok" ? "ok: all " + std::to_string(checks["fields"].size()) + " recorded engine values re-computed identically"
                                         : "differs: " + std::to_string(differing.size()) + " of " + std::to_string(checks["fields"].size()) +
                                               " values (" + first_fields(differing, 3) + ")";
    std::string cause;
    if (!differing.empty())
      cause = version_differs ? "recorded with engine " + recorded_version + ", re-computed with " + kEngineVersion +
                                    ": the differences may come from the engine change rather than from editing"
                              : "same engine version: the differing values were edited after export (or the file was damaged)";
    if (version_differs && differing.empty()) summary += " (recorded with engine " + recorded_version + ", this is " + kEngineVersion + ")";
    json out = {{"status", status},
                {"summary", summary},
                {"cause", cause.empty() ? json(nullptr) : json(cause)},
                {"ledger_schema_version", kLedgerSchemaVersion},
                {"migrated_from", migrated_from ? json(migrated_from) : json(nullptr)},
                {"engine_version", {{"recorded", recorded_version}, {"current", kEngineVersion}, {"differs", version_differs}}},
                {"checked", checks["fields"].size()},
                {"differing", differing.size()},
                {"differing_fields", differing},
                {"fields", checks["fields"]},
                {"not_recomputed", checks["not_recomputed"]},
                {"scenarios", checks["scenarios"]},
                {"can_prove", kCanProve},
                {"cannot_prove", kCannotProve}};
    json plan = json::object();
    for (const char* k : {"chapter", "optimizer_chosen", "precision_chosen", "gradient_checkpointing", "final_mfu_pct",
                          "baseline_mfu_estimate_pct", "laptop_fit_achieved", "laptop_minimum_memory_gb", "laptop_floor_derivation"})
      plan[k] = ledger[k];
    for (const auto& k : kOptionalLedgerFields)
      if (ledger.contains(k)) plan[k] = ledger[k];
    out["plan_fields"] = plan;
    out["timestamp"] = ledger["timestamp"];
    return out;
  } catch (const InputError& e) {
    return invalid(e.field, e.message);
  } catch (const std::exception& e) {
    return invalid("", std::string("internal error: ") + e.what());
  } catch (...) {
    return invalid("", "internal error");
  }
}

std::string verify_ledger(const std::string& ledger_json) {
  try {
    return verify_ledger_json(ledger_json).dump(-1, ' ', false, json::error_handler_t::replace);
  } catch (...) {
    return R"({"status":"invalid","error":{"field":"","message":"internal error"}})";
  }
}

}  // namespace lab::facade
