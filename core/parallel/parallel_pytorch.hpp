// Extension point for framework "pytorch" with `parallel` (engineer P's file: DDP's buckets, ZeRO stage
// 1 as ZeroRedundancyOptimizer or a flat sharded optimizer, phase by phase through the step). Until
// that model lands, parallel_pytorch.cpp answers with an error value naming the framework.
#pragma once
#include "memory/memory.hpp"
#include "model/scenario.hpp"

namespace lab {

// The heaviest rank's ledger (per_device true) for framework "pytorch"; throws InputError when the
// combination is not modelled.
MemoryLedger pytorch_parallel_ledger(const Scenario& s);

}  // namespace lab
