// Korthikanti's Table 2 over the memory layer's per-layer terms (activations_parallel.hpp has the table).
#include "parallel/activations_parallel.hpp"
#include <algorithm>
#include "memory/activations.hpp"
#include "util/checked.hpp"

namespace lab {

std::int64_t in_flight_micro_batches(std::int64_t micro_batches, std::int64_t stages, int stage) {
  return std::min(micro_batches, stages - stage);
}

StageActivations stage_activations(const Scenario& s, const StageLayout& l) {
  const ParallelKnobs& k = *s.parallel;
  const std::int64_t t = k.tensor_parallel;
  const LayerActivationTerms terms = layer_activation_terms(s);
  StageActivations a;
  // Sequence parallelism splits the h-wide tensors along the sequence too; without it each rank holds them whole.
  const std::int64_t replicated = k.sequence_parallel ? ceil_div(terms.replicated_bytes, t) : terms.replicated_bytes;
  const std::int64_t split = ceil_div(terms.split_bytes, t), scores = ceil_div(terms.score_bytes, t);
  const std::int64_t layer_input_full = mul(activation_element_bytes(s.precision), s.seq_len, s.batch_size, s.model.hidden);
  const std::int64_t layer_input = k.sequence_parallel ? ceil_div(layer_input_full, t) : layer_input_full;
  a.per_layer_full_bytes = add(replicated, split, scores);
  const std::int64_t L = l.layers;
  const char* sp = k.sequence_parallel ? "sbh(34 + 5as/h)/t" : "sbh(10 + 24/t + 5as/(ht))";
  switch (s.checkpointing.kind) {
    case CheckpointKind::none:
      a.per_layer_saved_bytes = a.per_layer_full_bytes;
      a.layers_saving = L;
      a.formula = std::string("layers on the stage x ") + sp + " (Korthikanti 2022, Table 2) x micro-batches in flight";
      break;
    case CheckpointKind::selective:
      a.per_layer_saved_bytes = add(replicated, split);
      a.layers_saving = L;
      a.formula = k.sequence_parallel ? "layers on the stage x 34sbh/t (selective) x micro-batches in flight"
                                      : "layers on the stage x sbh(10 + 24/t) (selective) x micro-batches in flight";
      break;
    case CheckpointKind::full:
    case CheckpointKind::every_k: {
      const std::int64_t every = s.checkpointing.kind == CheckpointKind::full ? 1 : std::min(s.checkpointing.every_k_layers, L);
      a.per_layer_saved_bytes = layer_input;
      a.layers_saving = ceil_div(L, every);
      a.recompute_working_bytes = mul(every, a.per_layer_full_bytes) - layer_input;
      a.formula = k.sequence_parallel ? "stored segment inputs 2sbh/t x micro-batches in flight + one segment rebuilt"
                                      : "stored segment inputs 2sbh x micro-batches in flight + one segment rebuilt";
      break;
    }
  }
  a.in_flight = in_flight_micro_batches(k.micro_batches, k.pipeline_parallel, l.stage);
  a.saved_bytes = mul(a.in_flight, a.layers_saving, a.per_layer_saved_bytes);
  // Megatron's vocabulary-parallel cross entropy: each rank holds its V/t columns of the FP32 logits.
  if (l.holds_logits) a.logits_bytes = mul(s.batch_size, s.seq_len, ceil_div(s.model.vocab, t), 4);
  return a;
}

}  // namespace lab
