// Where the parameters go with tensor parallelism t and pipeline parallelism p, before any ZeRO
// sharding (Megatron-LM, Shoeybi et al. 2019; Narayanan et al. 2021). Pure arithmetic over a Scenario
// with `parallel` set; next: model_states.hpp shards these counts over the data-parallel ranks.
#pragma once
#include <cstdint>
#include "model/scenario.hpp"

namespace lab {

// One pipeline stage's share of the model on one tensor-parallel rank.
struct StageLayout {
  int stage = 0;                       // 0 = first; p - 1 = last
  std::int64_t layers = 0;             // transformer blocks on this stage
  std::int64_t layer_parameters = 0;   // one block on one tensor-parallel rank
  std::int64_t embedding_parameters = 0;  // token (vocabulary-parallel) + position embeddings held here
  std::int64_t head_parameters = 0;    // final norm + head, or a tied embedding's copy (last stage)
  std::int64_t parameters = 0;         // everything this device holds: layers × layer + embeddings + head
  bool holds_logits = false;           // the last stage computes the (vocabulary-parallel) logits
};

// Blocks per stage: the first L mod p stages take ceil(L/p), the rest floor(L/p) (Megatron needs p | L;
// the lab allows any p <= L and puts the extra blocks first, so stage 0 is never lighter).
std::int64_t stage_layers(std::int64_t layers, std::int64_t stages, int stage);
// One block on one tensor-parallel rank: matmul weights and column-parallel biases split over t; norms
// and the biases of row-parallel layers (attention output, MLP down) replicated (Megatron's layout).
std::int64_t layer_parameters_per_rank(const TransformerSpec& m, std::int64_t t);
StageLayout stage_layout(const Scenario& s, int stage);

}  // namespace lab
