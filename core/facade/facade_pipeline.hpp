// JSON writers shared by the facade functions for the timing model and the solver's configurations
// (facade_pipeline.cpp). Internal to core/facade*.cpp.
#pragma once
#include <nlohmann/json.hpp>
#include "facade/json_writer.hpp"
#include "pipeline/pipeline.hpp"
#include "solver/solver.hpp"

namespace lab::facade {

// evaluate's "pipeline" object (core/facade/README.md: the pipeline result fields).
void write_pipeline(JsonWriter& w, const Scenario& s, const FlopsEstimate& f, const PipelineResult& p);
// {"precision", "optimizer", "checkpointing", "batch_size"}: the scenario fields of a configuration.
nlohmann::json configuration_json(const TrainingConfig& c);
// [{"name", "value", "unit", "source"}] for the timing model's constants.
nlohmann::json constants_json(const PipelineConstants& c);
// Writes x as a JSON number with at most 15 significant digits (null if not finite) into out (≥ 32
// chars); returns the length. Cheaper in WASM than the shortest round-trip formatting.
using lab::format_number;  // core/facade/json_number.cpp

}  // namespace lab::facade
