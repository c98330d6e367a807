// Framework "pytorch" on several data-parallel ranks: each rank's step phases under DDP (its flat
// gradient buckets, copied or viewed, or no DDP and an in-place all-reduce) and ZeRO stage 1 (torch's
// ZeroRedundancyOptimizer, whose greedy partition by size is followed exactly, or a hand-written flat
// 1/N shard of the optimizer state), and which rank is the heaviest. Measured by
// scripts/measure-pytorch-dist.py (tests/fixtures/pytorch/ranks). Inputs: the one-device step phases
// (memory/step_phases.hpp) of the replica's micro-batch; the knobs are the scenario's `parallel`
// (`sharded_optimizer` is read here only). Next layer: the facade (facade_parallel.cpp).
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include "memory/memory.hpp"
#include "memory/step_phases.hpp"
#include "model/scenario.hpp"

namespace lab {

struct PytorchRank {
  std::int64_t rank = 0;
  std::int64_t owned_parameters = 0;  // elements whose optimizer state this rank keeps
  std::int64_t owned_tensors = 0;     // parameter tensors (ZeroRedundancyOptimizer) or slices (flat) it updates
  std::int64_t optimizer_state_bytes = 0, optimizer_temporary_bytes = 0;
  std::int64_t peak_bytes = 0;        // its allocator peak
  std::string peak_phase;
};

struct PytorchParallel {
  StepPhases phases;                  // the heaviest rank's step (its timeline, peak and phase)
  std::int64_t heaviest_rank = 0;
  std::int64_t gradient_bucket_bytes = 0;  // DDP's buckets (all gradients, flat); 0 without DDP
  std::vector<PytorchRank> ranks;     // every rank up to kListedRanks, else the heaviest alone
};

constexpr std::int64_t kListedRanks = 64;

// One replica's scenario s (no `parallel`; its micro-batch), its eager activations, and the knobs.
PytorchParallel pytorch_parallel(const Scenario& s, const EagerActivations& e, const ParallelKnobs& k);
// The ranks of a scenario with `parallel` (framework "pytorch"); throws InputError, naming the field,
// for what is not modelled: ZeRO stages 2 and 3, tensor and pipeline parallelism, micro_batches > 1,
// forward-only modes.
PytorchParallel pytorch_parallel_ranks(const Scenario& s);
// The heaviest rank's ledger (evaluate's "memory", per_device true) for framework "pytorch".
MemoryLedger pytorch_parallel_ledger(const Scenario& s);
const char* to_string(ShardedOptimizer k);

}  // namespace lab
