// Model states per device under ZeRO (Rajbhandari et al. 2020, "ZeRO: Memory Optimizations Toward
// Training Trillion Parameter Models", §5 and Figure 1). With Ψ parameters on a device before sharding,
// N data-parallel ranks and the lab's bytes per parameter (W weights, G gradients, K = master + optimizer):
//   stage 0 (DDP)              (W + G + K)·Ψ          mixed Adam: (2 + 2 + 12)·Ψ
//   stage 1 (optimizer states) (W + G)·Ψ + K·Ψ/N      2Ψ + 2Ψ + KΨ/N
//   stage 2 (+ gradients)      W·Ψ + (G + K)·Ψ/N      2Ψ + (2 + K)Ψ/N
//   stage 3 (+ parameters)     (W + G + K)·Ψ/N        (2 + 2 + K)Ψ/N
// A shard is ceil(Ψ/N) parameters (FSDP pads its flat parameter to a multiple of N).
#pragma once
#include <cstdint>
#include "memory/memory.hpp"

namespace lab {

struct ModelStates {
  std::int64_t weights = 0, master_weights = 0, gradients = 0, optimizer_state = 0;
  std::int64_t per_optimizer_vector = 0;  // one optimizer vector's bytes (Adam has two)
  std::int64_t total() const;
};

std::int64_t shard_parameters(std::int64_t parameters, std::int64_t ranks);
ModelStates model_states(const BytesPerParam& b, std::int64_t parameters, std::int64_t ranks, int zero_stage);

}  // namespace lab
