// Activations on one device of a parallel run: Korthikanti et al. 2022 ("Reducing Activation
// Recomputation in Large Transformer Models"), Table 2, per layer at 16 bits:
//   tensor parallel t:            s·b·h·(10 + 24/t + 5·a·s/(h·t))
//   t + sequence parallelism:     s·b·h·(34 + 5·a·s/h)/t
//   + selective recompute:        the 5·a·s/h term goes;  full recompute: each layer's input 2·s·b·h
//                                 (/t with sequence parallelism) + one layer rebuilt in backward
// and the pipeline's in-flight micro-batches: under 1F1B (PipeDream-Flush, Narayanan et al. 2021) stage
// i holds min(m, p - i) micro-batches, so stage 0 holds L/p layers × min(m, p) micro-batches (the
// paper's Eq. for the first stage: at m >= p, a whole model's worth, L·s·b·h·(...)).
// The lab's general terms (any MLP, GQA, dropout, FlashAttention) come from memory/activations.hpp.
#pragma once
#include <cstdint>
#include <string>
#include "model/scenario.hpp"
#include "parallel/layout.hpp"

namespace lab {

struct StageActivations {
  std::int64_t per_layer_full_bytes = 0;   // one layer, one micro-batch, nothing recomputed, one rank
  std::int64_t per_layer_saved_bytes = 0;  // what each saving layer keeps for backward
  std::int64_t layers_saving = 0;          // per micro-batch on this stage
  std::int64_t in_flight = 1;              // micro-batches whose activations are live at once (1F1B)
  std::int64_t saved_bytes = 0;            // in_flight × layers_saving × per_layer_saved_bytes
  std::int64_t recompute_working_bytes = 0;  // extra live while a checkpointed segment is rebuilt
  std::int64_t logits_bytes = 0;           // last stage: FP32 b·s·V/t (vocabulary-parallel), else 0
  std::string formula;
};

std::int64_t in_flight_micro_batches(std::int64_t micro_batches, std::int64_t stages, int stage);
StageActivations stage_activations(const Scenario& s, const StageLayout& l);

}  // namespace lab
