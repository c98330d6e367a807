// The JSON facade: the only entry points the WASM bindings and the CLI use. JSON text in, JSON
// text out; never throws. Errors come back as {"error": {"field": "...", "message": "..."}}.
#pragma once
#include <string>
#include <nlohmann/json.hpp>

namespace lab::facade {

std::string evaluate(const std::string& scenario_json);  // memory ledger + FLOPs for a scenario
std::string catalog();                                   // models, devices, enum choices, defaults
std::string version();                                   // engine version string
std::string solve(const std::string& request_json);      // the memory solver (facade_solve.cpp)
std::string train(const std::string& request_json);      // reference-engine training run (facade_train.cpp)
std::string verify_ledger(const std::string& ledger_json);  // re-computes a design ledger (facade_ledger.cpp)

// Building blocks shared by every facade function (facade.cpp).
using Handler = nlohmann::json (*)(const nlohmann::json&);
using TextHandler = std::string (*)(const nlohmann::json&);  // writes its own JSON text
std::string run_guarded(const std::string& request_text, Handler handler);
std::string run_guarded(const std::string& request_text, TextHandler handler);
nlohmann::json error_json(const std::string& field, const std::string& message);
std::string evaluate_text(const nlohmann::json& scenario);
nlohmann::json evaluate_json(const nlohmann::json& scenario);  // parsed evaluate_text, for tests
nlohmann::json solve_json(const nlohmann::json& request);     // scenario fields + max_batch_size
nlohmann::json train_json(const nlohmann::json& request);     // see facade_train.hpp, core/facade/README.md

inline constexpr const char* kEngineVersion = "0.1.1";  // 0.1.1: Chapter replay's every-k rule (activations.cpp)

}  // namespace lab::facade
