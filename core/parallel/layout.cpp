// Megatron's parameter layout. The token embedding is vocabulary-parallel (rows split over t, the
// vocabulary padded up to a multiple of t); position embeddings are replicated. With p > 1 the last
// stage holds the final norm and the head, or, for a tied head, its own copy of the token embedding
// whose gradient is all-reduced with stage 0's (Megatron's "shared embedding" group).
#include "parallel/layout.hpp"
#include <algorithm>
#include "util/checked.hpp"

namespace lab {

std::int64_t stage_layers(std::int64_t layers, std::int64_t stages, int stage) {
  return layers / stages + (stage < layers % stages ? 1 : 0);
}

std::int64_t layer_parameters_per_rank(const TransformerSpec& m, std::int64_t t) {
  const std::int64_t d = m.hidden;
  const std::int64_t norm_params = m.norm == NormKind::layernorm ? (m.norm_bias ? 2 : 1) * d : d;
  const std::int64_t replicated = add(mul(m.norms_per_layer, norm_params), m.attn_out_bias ? d : 0, m.mlp_bias ? d : 0);
  const std::int64_t split = count_parameters(m).per_layer - replicated;
  return add(ceil_div(split, t), replicated);
}

StageLayout stage_layout(const Scenario& s, int stage) {
  const ParallelKnobs& k = *s.parallel;
  const ParameterBreakdown full = count_parameters(s.model);
  const std::int64_t t = k.tensor_parallel, p = k.pipeline_parallel;
  const std::int64_t vocab_rows = ceil_div(s.model.vocab, t);  // Megatron pads V to a multiple of t
  const std::int64_t token_embedding = mul(vocab_rows, s.model.hidden);
  StageLayout l;
  l.stage = stage;
  l.layers = stage_layers(s.model.layers, p, stage);
  l.layer_parameters = layer_parameters_per_rank(s.model, t);
  const bool first = stage == 0, last = stage == p - 1;
  if (first) l.embedding_parameters = add(token_embedding, full.position_embedding);
  if (last) {
    const bool tied_copy = s.model.tied_head && !first;  // p = 1: the head reuses stage 0's embedding
    l.head_parameters = add(full.final_norm, s.model.tied_head ? (tied_copy ? token_embedding : 0) : token_embedding);
    l.holds_logits = true;
  }
  l.parameters = add(mul(l.layers, l.layer_parameters), l.embedding_parameters, l.head_parameters);
  // Chapter replay's rounded 1.5e9 is a one-device walkthrough; the parser keeps it out of parallel.
  return l;
}

}  // namespace lab
