// A training request as the facade reads it (facade_train.cpp runs it): parsing with one named
// field per error, the limits a browser tab keeps to, and the request echoed back with defaults.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include "refengine/inventory.hpp"
#include "refengine/trainer.hpp"

namespace lab::facade {

struct TrainRequest {
  ref::RefConfig cfg;
  std::int64_t steps = 20;
  std::int64_t timeline_points = 512;
  bool measure_peak = false;
};

// The request's fields and ranges (core/facade/README.md); throws InputError naming the field.
TrainRequest parse_request(const nlohmann::json& j);
// Refuses a request a browser tab should not run: more than 256 MiB of tensors, or too much work.
void check_limits(const TrainRequest& r, const ref::MemoryProfile& predicted);
// The request as run, every default filled in.
nlohmann::json request_echo(const TrainRequest& r);

}  // namespace lab::facade
