// verify_ledger: re-computes every engine value a design ledger records (web/src/schema/
// design-ledger.schema.json) and reports recorded vs recomputed per field. Reads only; it cannot
// authenticate the student's own answers. The settings → scenario mapping mirrors web/src/state/scenario.js.
#pragma once
#include <cstddef>
#include <string>
#include <utility>
#include <vector>
#include <nlohmann/json.hpp>

namespace lab::facade {

inline constexpr int kLedgerSchemaVersion = 2;            // web/src/state/schema/design-ledger.schema.json
inline constexpr std::size_t kLedgerMaxBytes = 1u << 20;  // 1 MiB: a finished lab's ledger is ~20 KB
inline constexpr int kLedgerMaxDepth = 32;                // a ledger nests 8 levels; deeper is hostile
inline constexpr std::size_t kLedgerMaxMoves = 200;       // laptop-challenge moves re-computed at most
inline constexpr const char* kLabId = "lab08-model-train";
inline constexpr const char* kLaptopDevice = "rtx4060-laptop-8gb";

// Recorded knob settings → the engine scenario the page evaluated (throw InputError naming the
// field under `path`). Act 1: scenario.js toScenario; Act 2: toScenario2; laptop moves: the laptop
// challenge's scenario (GPT-2 XL on the 8 GB laptop GPU, no replay).
nlohmann::json act1_scenario(const nlohmann::json& config, const std::string& path);
nlohmann::json act2_scenario(const nlohmann::json& config2, const std::string& path);
nlohmann::json laptop_scenario(const nlohmann::json& move_config, const std::string& path);

// The workbench scenario counted the textbook way (web/src/models/workbench-view.js textbookTwin): framework
// "textbook", no PyTorch-only knobs, torch.autocast as "mixed". The solver's input until it takes "pytorch".
nlohmann::json workbench_textbook_twin(const nlohmann::json& scenario);

// The laptop floor's text in the solver's first wording (facade_ledger_earlier.cpp), from a solve
// result for model `model_id`: verify_ledger accepts it beside today's words (the numbers are the same).
std::string floor_text_first_wording(const nlohmann::json& solved, const std::string& model_id);

// Act 3's record (result_snapshot.act3, facade_ledger_act3.cpp): each value re-computed from the engine
// with its path and label, the parts not re-computed with why, and the explore scenario resolved.
// Throws InputError naming the field for a record that cannot be read. Needs enable_parallel().
struct LedgerValue {
  std::string path;
  nlohmann::json recomputed;
  std::string label;
};
struct Act3Recomputed {
  std::vector<LedgerValue> values;
  std::vector<std::pair<std::string, std::string>> skipped;  // {path, reason}
  nlohmann::json scenario;                                   // the explore scenario, resolved (null without a record)
};
Act3Recomputed act3_recompute(const nlohmann::json& ledger);

// Ledger text → the verification report (core/facade/README.md, "verify_ledger"). Never throws.
nlohmann::json verify_ledger_json(const std::string& ledger_text);
// Largest nesting depth of arrays/objects in JSON text (strings skipped); stops counting past `limit`.
int json_nesting_depth(const std::string& text, int limit);

}  // namespace lab::facade
