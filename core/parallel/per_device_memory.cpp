// The per-device ledger (per_device_memory.hpp): the one-device ledger's structure, filled per stage.
#include "parallel/per_device_memory.hpp"
#include <algorithm>
#include "parallel/activations_parallel.hpp"
#include "parallel/model_states.hpp"
#include "parallel/parallel_pytorch.hpp"
#include "util/checked.hpp"

namespace lab {

std::int64_t gradient_bucket_bytes(const Scenario& s, const StageLayout& l) {
  const ParallelKnobs& k = *s.parallel;
  if (k.gradient_buckets != GradientBuckets::copy || k.zero_stage > 1 || k.data_parallel == 1) return 0;
  return mul(l.parameters, bytes_per_param(s.precision, s.optimizer, s.convention).gradients);
}

std::int64_t gathered_parameter_bytes(const Scenario& s, const StageLayout& l) {
  const ParallelKnobs& k = *s.parallel;
  if (k.zero_stage < 3 || k.data_parallel == 1) return 0;
  // The two largest units of the stage: its blocks (all the same size) and the root unit.
  const std::int64_t block = l.layer_parameters, root = l.embedding_parameters + l.head_parameters;
  const std::int64_t two = root >= block ? add(root, l.layers >= 1 ? block : 0) : add(block, l.layers >= 2 ? block : root);
  return mul(two, bytes_per_param(s.precision, s.optimizer, s.convention).weights);
}

MemoryLedger stage_ledger(const Scenario& s, int stage) {
  const ParallelKnobs& k = *s.parallel;
  const StageLayout l = stage_layout(s, stage);
  const StageActivations a = stage_activations(s, l);
  MemoryLedger m;
  m.per_device = true;
  m.parameters = l.parameters;
  m.per_param = bytes_per_param(s.precision, s.optimizer, s.convention);
  const ModelStates st = model_states(m.per_param, l.parameters, k.data_parallel, k.zero_stage);
  m.weights = st.weights;
  m.master_weights = st.master_weights;
  m.gradients = st.gradients;
  m.optimizer_state = st.optimizer_state;
  for (const auto& name : optimizer_vector_names(s.optimizer)) m.optimizer_vectors.push_back({name, st.per_optimizer_vector});
  for (Convention c : {Convention::ours, Convention::chapter, Convention::megatron})
    m.static_by_convention[static_cast<int>(c)] =
        model_states(bytes_per_param(s.precision, s.optimizer, c), l.parameters, k.data_parallel, k.zero_stage).total();
  m.activation.per_layer_full_bytes = a.per_layer_full_bytes;
  m.activation.per_layer_saved_bytes = a.per_layer_saved_bytes;
  m.activation.layers_saving = mul(a.layers_saving, a.in_flight);
  m.activation.saved_bytes = a.saved_bytes;
  m.activation.recompute_working_bytes = a.recompute_working_bytes;
  m.activation.formula = a.formula;
  m.activations = a.saved_bytes;
  m.logits = m.logits_gradient = a.logits_bytes;
  m.reserve = s.reserve_bytes;
  m.gradient_buckets = gradient_bucket_bytes(s, l);
  m.gathered_parameters = gathered_parameter_bytes(s, l);
  m.static_bytes = st.total();
  m.total_bytes = add(m.static_bytes, m.activations, m.logits, m.gradient_buckets, m.gathered_parameters, m.reserve);
  // As on one device: forward ends with everything saved; backward adds the logit gradient and a
  // rebuilt segment; the optimizer step runs with the activations freed (the buckets stay allocated).
  const std::int64_t forward_end = m.total_bytes;
  const std::int64_t backward_peak = add(m.total_bytes, m.logits_gradient, m.activation.recompute_working_bytes);
  const std::int64_t optimizer_step = add(m.static_bytes, m.gradient_buckets, m.reserve);
  m.timeline = {{"forward_end", forward_end}, {"backward_peak", backward_peak}, {"optimizer_step", optimizer_step}};
  m.peak_bytes = std::max({forward_end, backward_peak, optimizer_step});
  judge_fit(s, m);
  return m;
}

HeaviestDevice heaviest_device(const Scenario& s) {
  const int last = static_cast<int>(s.parallel->pipeline_parallel - 1);
  HeaviestDevice first{0, stage_ledger(s, 0)};
  if (last == 0) return first;
  HeaviestDevice end{last, stage_ledger(s, last)};
  return end.ledger.peak_bytes > first.ledger.peak_bytes ? end : first;
}

MemoryLedger per_device_ledger(const Scenario& s) {
  if (s.framework.framework == Framework::pytorch) return pytorch_parallel_ledger(s);
  return heaviest_device(s).ledger;
}

}  // namespace lab
