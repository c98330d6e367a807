// The memory solver: over every numerically valid configuration (optimizer × precision ×
// checkpointing × batch) of one model on one device — the floor (least memory that can train the model
// at all) and its derivation, the largest batch that fits, the cheapest path of single moves from the
// scenario's configuration to one that fits, and the best-MFU configuration that fits. Pure FP16/BF16
// (no FP32 master) is reported apart: it fits earlier but its updates stall. Memory comes from
// compute_ledger (exactly for every configuration reported), timing from compute_pipeline.
// Next layer: facade_solve.cpp (JSON).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>
#include "pipeline/pipeline.hpp"
#include "model/scenario.hpp"

namespace lab {

struct TrainingConfig {
  Precision precision = Precision::mixed;
  Optimizer optimizer = Optimizer::adam;
  Checkpointing checkpointing;
  std::int64_t batch_size = 1;
};

// false for pure FP16/BF16: without an FP32 master copy, small updates round away ("updates stall").
bool numerically_valid(Precision p);
TrainingConfig config_of(const Scenario& s);
Scenario with_config(const Scenario& base, const TrainingConfig& c);
std::string describe(const Checkpointing& c);  // "none", "selective", "full", "every 4 layers"
std::string describe(const TrainingConfig& c);  // "mixed + sgd + full checkpointing, batch 1"

struct FloorComponent {
  const char* component;          // weights, gradients, master_weights, adam_m, ..., activations, reserve
  std::int64_t bytes_per_param;   // -1 when the component is not per parameter
  std::int64_t bytes;
  std::string words;              // the component and its arithmetic in words
};

struct Floor {
  TrainingConfig config;                // the argmin (batch 1)
  std::int64_t peak_bytes = 0;          // its peak, activations, logits and reserve included
  std::int64_t static_bytes = 0;        // its static bytes (weights + gradients + master + optimizer)
  std::int64_t static_floor_bytes = 0;  // least static bytes over valid configurations
  std::vector<TrainingConfig> static_ties;  // valid precision × optimizer pairs with that static floor
  std::vector<FloorComponent> derivation;   // the floor's peak, component by component (sums to peak)
  std::string text;
};

struct LargestBatch {
  TrainingConfig config;               // the scenario's configuration, batch = the largest that fits
  std::int64_t largest_batch = 0;      // 0: not even batch 1 fits
  std::int64_t peak_bytes = 0;         // at largest_batch (at batch 1 when none fits)
  std::int64_t next_peak_bytes = -1;   // at largest_batch + 1 (the proof it is the largest); -1 at the limit
  bool scenario_batch_fits = false;
  std::int64_t scenario_peak_bytes = 0;
  bool numerically_valid = true;
};

struct PathMove {
  const char* kind;         // precision, optimizer, checkpointing, batch
  std::string description;  // "precision fp32 -> mixed"
  TrainingConfig config;    // after the move
  std::int64_t peak_bytes = 0;
  bool fits = false;
};

struct CheapestPath {
  TrainingConfig start;
  std::int64_t start_peak_bytes = 0;
  bool start_fits = false;        // fits and numerically valid
  std::vector<PathMove> moves;    // ordered by largest saving first
  bool reaches_fit = false;
  double relative_training_time = 1;  // estimated time-to-train of the end vs the start configuration
  std::string reason;
};

struct ConfigPerformance {
  TrainingConfig config;
  std::int64_t peak_bytes = 0;
  double mfu = 0, hfu = 0, tokens_per_second = 0, step_seconds = 0;
};

struct StallingFit {
  TrainingConfig config;  // least recompute that fits at batch 1, batch = its largest fitting batch
  std::int64_t peak_bytes_at_batch_1 = 0;
  std::int64_t largest_batch = 0;
};

struct SolverOptions {
  std::int64_t max_batch_size = 256;  // cap for the best-MFU search (MFU does not fall with batch)
};

struct SolverResult {
  Convention convention = Convention::ours;  // the scenario's, except "chapter" → "ours" (no master copy)
  std::int64_t capacity_bytes = 0;
  Floor floor;
  bool device_fits_floor = false;
  LargestBatch largest;
  CheapestPath path;
  // Highest MFU (each precision against its own peak), the same keeping the scenario's optimizer
  // (MFU ignores convergence: SGD's faster step does not make training faster), and highest tokens/s.
  std::optional<ConfigPerformance> best_mfu, best_mfu_same_optimizer, best_throughput;
  std::vector<StallingFit> stalls_but_fits;
  std::int64_t configurations_evaluated = 0;  // precision × optimizer × checkpointing combinations
  std::int64_t checkpointing_options = 0;
};

// Convergence steps relative to Adam (chapter L900: GPT-2 ~50K steps with Adam vs ~150K+ with
// SGD+Momentum). Plain SGD is not in the chapter; it is taken as SGD+Momentum's (a lower bound).
double convergence_factor(Optimizer o);

// Framework "pytorch": largest and path are found on the step-phase peak (solver_pytorch.cpp); the floor,
// best configurations and stalls are those of the textbook view of the same run (autocast -> mixed).
SolverResult solve(const Scenario& s, const SolverOptions& o = {});
Scenario textbook_view(const Scenario& s);
LargestBatch pytorch_largest(const Scenario& s);
CheapestPath pytorch_cheapest_path(const Scenario& s);

}  // namespace lab
