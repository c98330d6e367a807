// Scenario <-> JSON. The field names are fixed (instructors' files depend on them); every field has
// a default (core/facade/README.md, "Scenario format"); unknown fields are an error, not ignored.
#pragma once
#include <nlohmann/json.hpp>
#include "facade/json_writer.hpp"
#include "model/scenario.hpp"

namespace lab {

// Throws InputError naming the bad field. `extra_known` lets a facade function accept its own
// additional top-level keys (e.g. solve's "start") while keeping unknown-field checks strict.
Scenario parse_scenario(const nlohmann::json& j, const std::vector<std::string>& extra_known = {});
// The fully-resolved scenario (defaults filled in), parseable back to the same Scenario.
// write_scenario streams it (evaluate's hot path); scenario_to_json parses that text.
void write_scenario(JsonWriter& w, const Scenario& s);
nlohmann::json scenario_to_json(const Scenario& s);
// "none" | "selective" | "full" | {"every_k_layers": k} with 1 <= k <= layers (field "checkpointing").
Checkpointing parse_checkpointing(const nlohmann::json& v, std::int64_t layers);
// kv_heads divides heads; hidden splits into heads unless head_dim is given. Fills both in; the
// fields name the error paths (a custom model's or a Hugging Face config's).
void check_attention(TransformerSpec& m, const std::string& heads_field, const std::string& kv_field);
// The full custom-model object (parses back to the same model) and the notes on what it approximates.
void write_model(JsonWriter& w, const TransformerSpec& m);
void write_model_notes(JsonWriter& w, const TransformerSpec& m);
nlohmann::json model_to_json(const TransformerSpec& m);
nlohmann::json device_to_json(const DeviceSpec& d);

}  // namespace lab
