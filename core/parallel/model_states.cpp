// ZeRO's partitioning of the model states (model_states.hpp has the table and its source).
#include "parallel/model_states.hpp"
#include "util/checked.hpp"

namespace lab {

std::int64_t ModelStates::total() const { return add(weights, master_weights, gradients, optimizer_state); }

std::int64_t shard_parameters(std::int64_t parameters, std::int64_t ranks) { return ceil_div(parameters, ranks); }

ModelStates model_states(const BytesPerParam& b, std::int64_t parameters, std::int64_t ranks, int zero_stage) {
  const std::int64_t shard = shard_parameters(parameters, ranks);
  const auto held = [&](int from_stage) { return zero_stage >= from_stage ? shard : parameters; };
  ModelStates m;
  m.master_weights = mul(held(1), b.master);
  m.per_optimizer_vector = mul(held(1), b.per_optimizer_vector);
  m.optimizer_state = mul(m.per_optimizer_vector, b.optimizer_vectors);
  m.gradients = mul(held(2), b.gradients);
  m.weights = mul(held(3), b.weights);
  return m;
}

}  // namespace lab
