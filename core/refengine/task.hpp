// The generated training task (no downloaded data): deterministic batches from the seed and the step
// index, and the loss floor the task allows, so the lab can show how close training gets.
//  markov: a sparse random Markov chain — each token has up to 4 successors with probabilities
//          0.5/0.25/0.15/0.10 — learnable as bigrams within a few dozen steps.
//  copy:   the second half of each sequence repeats the first half (needs attention).
// Also the seeded weight initialisation (GPT-2: N(0, 0.02), residual projections 0.02/√(2L)).
#pragma once
#include <cstdint>
#include <string>
#include "refengine/config.hpp"
#include "refengine/inventory.hpp"

namespace lab::ref {

const char* to_string(TaskKind t);

// tokens[b*T + t] and targets (= the next token) for batch `step` (any step index, any order).
void generate_batch(const RefConfig& cfg, std::int64_t step, std::int32_t* tokens, std::int32_t* targets);

// Expected cross-entropy of a perfect model of the task, in nats (uniform guessing: ln V).
double task_loss_floor(const RefConfig& cfg);

// Initial value of element i of parameter `p` (index `param_index` in parameter_specs order).
class ParamInitializer {
 public:
  ParamInitializer(const RefConfig& cfg, std::size_t param_index, const ParamSpec& p);
  float next();

 private:
  std::uint64_t state_;
  ParamInit init_;
  float std_;
  bool have_spare_ = false;
  float spare_ = 0.0f;
};

}  // namespace lab::ref
