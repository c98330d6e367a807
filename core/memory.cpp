// Ledger arithmetic. Static = weights + FP32 master + gradients + optimizer vectors (ZeRO paper's
// 2 + 2 + 12 B/param for mixed Adam); peak adds the backward transients (logit gradient, rebuilt
// checkpoint segment) on top of the sum of components.
#include "memory.hpp"
#include <algorithm>
#include "byte_text.hpp"
#include "checked.hpp"

namespace lab {

BytesPerParam bytes_per_param(Precision p, Optimizer o, Convention c) {
  BytesPerParam b;
  b.optimizer_vectors = o == Optimizer::sgd ? 0 : (o == Optimizer::momentum ? 1 : 2);
  switch (p) {
    case Precision::fp32:
      b.weights = 4; b.gradients = 4; b.master = 0; b.per_optimizer_vector = 4;
      break;
    case Precision::mixed:
      b.weights = 2; b.gradients = 2; b.master = 4; b.per_optimizer_vector = 4;
      if (c == Convention::chapter) b.master = 0;     // chapter: 12 B/param for Adam, no master copy
      if (c == Convention::megatron) b.gradients = 4; // Megatron: FP32 gradient buffer, 18 B/param
      break;
    case Precision::fp16:
    case Precision::bf16:
      // Pure 16-bit (model.half()): everything, optimizer state included, stored in 16 bits.
      b.weights = 2; b.gradients = 2; b.master = 0; b.per_optimizer_vector = 2;
      break;
  }
  return b;
}

std::vector<std::string> optimizer_vector_names(Optimizer o) {
  switch (o) {
    case Optimizer::sgd: return {};
    case Optimizer::momentum: return {"momentum"};
    case Optimizer::adam: return {"adam_m", "adam_v"};
  }
  return {};
}

const char* to_string(Binding b) {
  switch (b) {
    case Binding::none: return "none";
    case Binding::static_memory: return "static";
    case Binding::activations: return "activations";
  }
  return "?";
}

std::int64_t static_bytes_under(const Scenario& s, Convention c) {
  return mul(memory_parameter_count(s), bytes_per_param(s.precision, s.optimizer, c).total());
}


MemoryLedger compute_ledger(const Scenario& s) {
  MemoryLedger m;
  m.parameters = memory_parameter_count(s);
  m.per_param = bytes_per_param(s.precision, s.optimizer, s.convention);
  m.weights = mul(m.parameters, m.per_param.weights);
  m.master_weights = mul(m.parameters, m.per_param.master);
  m.gradients = mul(m.parameters, m.per_param.gradients);
  for (const auto& name : optimizer_vector_names(s.optimizer)) {
    m.optimizer_vectors.push_back({name, mul(m.parameters, m.per_param.per_optimizer_vector)});
    m.optimizer_state = add(m.optimizer_state, m.optimizer_vectors.back().bytes);
  }
  m.activation = estimate_activations(s);
  m.activations = m.activation.saved_bytes;
  const bool physics_extras = s.activation_model == ActivationModel::korthikanti;
  m.logits = physics_extras ? mul(s.batch_size, s.seq_len, s.model.vocab, 4) : 0;
  m.logits_gradient = m.logits;
  m.reserve = s.chapter_replay ? 0 : s.reserve_bytes;
  m.static_bytes = add(m.weights, m.master_weights, m.gradients, m.optimizer_state);
  m.total_bytes = add(m.static_bytes, m.activations, m.logits, m.reserve);

  // Step timeline: forward ends with every saved tensor and the logits live; backward starts by
  // adding the logit gradient and (with checkpointing) rebuilding the last segment; the optimizer
  // step runs after activations are freed.
  const std::int64_t forward_end = m.total_bytes;
  const std::int64_t backward_start = add(m.total_bytes, m.logits_gradient, m.activation.recompute_working_bytes);
  const std::int64_t optimizer_step = add(m.static_bytes, m.reserve);
  m.timeline = {{"forward_end", forward_end}, {"backward_peak", backward_start}, {"optimizer_step", optimizer_step}};
  m.peak_bytes = std::max({forward_end, backward_start, optimizer_step});
  // Exact inventory mode: every component, the peak and its timeline come from the reference
  // engine's tensor table instead (memory_inventory.cpp).
  if (s.activation_model == ActivationModel::inventory) apply_inventory(s, m);

  m.usable_device_bytes = s.device.capacity_bytes;
  m.fits = m.peak_bytes <= m.usable_device_bytes;
  const std::int64_t fixed = add(m.static_bytes, m.reserve);
  if (fixed > m.usable_device_bytes) {
    m.binding = Binding::static_memory;
    m.binding_message = "Static memory alone (" + gb_text(fixed) + " incl. reserve) exceeds the device's " +
                        gb_text(m.usable_device_bytes) + " before a single activation is stored.";
  } else if (!m.fits) {
    m.binding = Binding::activations;
    m.binding_message = "Activations and transients (" + gb_text(m.peak_bytes - fixed) + ") exceed the " +
                        gb_text(m.usable_device_bytes - fixed) + " left after static memory.";
  } else {
    m.binding = Binding::none;
    m.binding_message = "Fits, with " + gb_text(m.usable_device_bytes - m.peak_bytes) + " to spare at the peak.";
  }
  return m;
}

}  // namespace lab
