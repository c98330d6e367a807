// One device's memory ledger in a parallel run: ZeRO's model states (model_states.hpp) of the stage's
// parameters (layout.hpp), Korthikanti's activations with the 1F1B in-flight micro-batches
// (activations_parallel.hpp), DDP's bucket copy and ZeRO-3's gathered working set. The facade writes it
// as evaluate's "memory" with per_device true. Framework "pytorch" goes to parallel_pytorch.hpp instead.
#pragma once
#include "memory/memory.hpp"
#include "model/scenario.hpp"
#include "parallel/layout.hpp"

namespace lab {

// DDP's flat copy ("copy", stages 0 and 1 with more than one replica): one gradient-sized buffer.
std::int64_t gradient_bucket_bytes(const Scenario& s, const StageLayout& l);
// ZeRO-3 with more than one replica: the full 16-bit weights of two units (the one computing and the
// one prefetched, FSDP's default backward/forward prefetch), the two largest of the stage: its blocks
// and its root unit (the embeddings, final norm and head together).
std::int64_t gathered_parameter_bytes(const Scenario& s, const StageLayout& l);

// The textbook ledger of one pipeline stage's device.
MemoryLedger stage_ledger(const Scenario& s, int stage);
// The stage whose device peaks highest (0 or p - 1; ties to 0), and its textbook ledger.
struct HeaviestDevice {
  int stage = 0;
  MemoryLedger ledger;
};
HeaviestDevice heaviest_device(const Scenario& s);
// evaluate's "memory": the heaviest device's ledger; framework "pytorch" asks parallel_pytorch.hpp.
MemoryLedger per_device_ledger(const Scenario& s);

}  // namespace lab
