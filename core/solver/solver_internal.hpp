// Internal to the solver (solver.cpp, solver_search.cpp): the precomputed memory model of one sweep.
// Peak bytes = static(precision, optimizer) + reserve + dynamic(activation element size, checkpointing,
// batch); the dynamic part is linear in batch (exactly for the Korthikanti model, to within rounding
// for the chapter's), so each configuration's fit and largest batch cost a few arithmetic operations.
// Every configuration the solver reports is re-checked with compute_ledger.
#pragma once
#include <cstdint>
#include <limits>
#include <vector>
#include "solver/solver.hpp"

namespace lab::solver_detail {

inline constexpr std::int64_t kMaxBatch = 65536;  // the scenario's batch_size limit
inline constexpr std::int64_t kTooLarge = std::numeric_limits<std::int64_t>::max();
inline constexpr Precision kValidPrecisions[] = {Precision::mixed, Precision::fp32};
inline constexpr Precision kStallingPrecisions[] = {Precision::fp16, Precision::bf16};
inline constexpr Optimizer kOptimizers[] = {Optimizer::sgd, Optimizer::momentum, Optimizer::adam};

struct Dynamic {
  std::int64_t at_batch_1 = kTooLarge;  // exact
  double intercept = 0, per_sample = 0;  // dynamic(b) ≈ intercept + per_sample·b
};

struct Sweep {
  Scenario base;                        // the scenario with the solver's convention
  std::int64_t capacity = 0;
  std::int64_t reserve = 0;
  std::vector<Checkpointing> checkpoints;
  std::vector<Dynamic> dynamic[2];      // [0]: FP32 activations, [1]: 16-bit; by checkpoint index
  std::int64_t static_bytes[4][3] = {};  // [precision][optimizer]

  explicit Sweep(const Scenario& s);
  std::int64_t static_of(Precision p, Optimizer o) const;
  const Dynamic& dynamic_of(Precision p, std::size_t checkpoint) const;
  std::int64_t peak_at_batch_1(Precision p, Optimizer o, std::size_t checkpoint) const;  // exact
  double peak_estimate(Precision p, Optimizer o, std::size_t checkpoint, std::int64_t batch) const;
  // Largest batch that fits by the linear model (0 if batch 1 does not fit).
  std::int64_t largest_batch_estimate(Precision p, Optimizer o, std::size_t checkpoint) const;
  TrainingConfig config(Precision p, Optimizer o, std::size_t checkpoint, std::int64_t batch) const;
  std::size_t index_of(const Checkpointing& c) const;  // checkpoints.size() if absent
};

// compute_ledger's peak for the configuration; kTooLarge when the counts overflow 64 bits.
std::int64_t exact_peak(const Scenario& base, const TrainingConfig& c);
// The largest batch that fits exactly, starting from an estimate (a few ledger calls).
std::int64_t largest_batch_exact(const Scenario& base, TrainingConfig c, std::int64_t estimate, std::int64_t capacity);
// Pipeline result of a configuration (memory fit assumed; schedule not built).
PipelineResult timing(const Scenario& base, const TrainingConfig& c);
// The scenario's own configuration at `largest` (0: none fits), with the peaks that prove it.
LargestBatch largest_result(const Scenario& s, std::int64_t capacity, std::int64_t largest);
bool same_checkpointing(const Checkpointing& a, const Checkpointing& b);

double seconds_per_token(const Scenario& base, const TrainingConfig& c);
// Estimated time-to-train of `c` relative to `start`: time per token × convergence steps.
double relative_time(const Scenario& base, const TrainingConfig& start, double start_seconds_per_token,
                     const TrainingConfig& c);
std::int64_t halvings_to(std::int64_t from, std::int64_t to);
// start -> target one move at a time, largest saving first, with the exact peak after each.
std::vector<PathMove> order_moves(const Scenario& base, std::int64_t capacity, const TrainingConfig& start,
                                  const TrainingConfig& target);

CheapestPath find_cheapest_path(const Sweep& sweep, const Floor& floor);
void find_best(const Sweep& sweep, std::int64_t max_batch, SolverResult& out);

}  // namespace lab::solver_detail
