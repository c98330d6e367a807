// JSON writers shared by the facade functions for the timing model and the solver's configurations
// (facade_pipeline.cpp). Internal to core/facade*.cpp.
#pragma once
#include <nlohmann/json.hpp>
#include "json_writer.hpp"
#include "pipeline.hpp"
#include "solver.hpp"

namespace lab::facade {

// evaluate's "pipeline" object (README: pipeline result fields).
void write_pipeline(JsonWriter& w, const Scenario& s, const FlopsEstimate& f, const PipelineResult& p);
// {"precision", "optimizer", "checkpointing", "batch_size"}: the scenario fields of a configuration.
nlohmann::json configuration_json(const TrainingConfig& c);

}  // namespace lab::facade
