// Ledger arithmetic. Static = weights + FP32 master + gradients + optimizer vectors (ZeRO paper's
// 2 + 2 + 12 B/param for mixed Adam); peak adds the backward transients (logit gradient, rebuilt
// checkpoint segment) on top of the sum of components.
#include "memory/memory.hpp"
#include <algorithm>
#include "util/byte_text.hpp"
#include "util/checked.hpp"

namespace lab {

BytesPerParam bytes_per_param(Precision p, Optimizer o, Convention c) {
  BytesPerParam b;
  b.optimizer_vectors = o == Optimizer::sgd ? 0 : (o == Optimizer::momentum ? 1 : 2);
  switch (p) {
    case Precision::fp32:
    case Precision::autocast_bf16:  // torch.autocast: parameters, gradients and state stay FP32
    case Precision::autocast_fp16:
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

// One switch per enum, as in model/scenario.cpp: -Wswitch flags a value added without its name.
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


// The eager activation model, and with framework "pytorch" the step phases (step_phases.cpp).
void apply_pytorch(const Scenario& s, MemoryLedger& m) {
  m.eager_used = true;
  m.eager = eager_activations(s);
  const auto& e = m.eager;
  m.activations = e.saved_bytes;
  m.activation = {};
  m.activation.per_layer_full_bytes = m.activation.per_layer_saved_bytes = e.per_layer_bytes;
  m.activation.layers_saving = s.model.layers;
  m.activation.saved_bytes = e.saved_bytes;
  m.activation.formula = "eager PyTorch: L x (tensors autograd saves per block) + embedding, final norm, head, loss "
                         "(memory.activations_items)";
  m.logits = e.logits_bytes;
  m.logits_gradient = mul(2, e.loss_element_bytes, s.batch_size, s.seq_len, s.model.vocab);
  if (s.framework.framework != Framework::pytorch) {
    m.total_bytes = add(m.static_bytes, m.activations, m.logits, m.reserve);
    m.timeline = {{"forward_end", m.total_bytes}, {"backward_peak", add(m.total_bytes, m.logits_gradient)},
                  {"optimizer_step", add(m.static_bytes, m.reserve)}};
    m.peak_bytes = std::max({m.timeline[0].bytes, m.timeline[1].bytes, m.timeline[2].bytes});
    return;
  }
  m.phases_used = true;
  m.phases = step_phases(s, e);
  m.autocast_weight_cache = add(e.weight_cache_bytes, e.bias_cache_bytes);
  m.total_bytes = add(m.static_bytes, m.activations, m.logits, m.autocast_weight_cache, m.reserve);
  m.timeline.clear();
  for (const auto& p : m.phases.timeline) m.timeline.push_back({p.phase, add(p.total(), m.reserve)});
  m.peak_bytes = add(m.phases.allocator_peak_bytes, m.reserve);
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
  if (s.activation_model == ActivationModel::pytorch_eager) apply_pytorch(s, m);
  judge_fit(s, m);
  return m;
}

void judge_fit(const Scenario& s, MemoryLedger& m) {
  m.usable_device_bytes = s.device.capacity_bytes;
  m.fits = m.peak_bytes <= m.usable_device_bytes;
  const std::int64_t fixed = add(m.static_bytes, m.reserve);
  if (fixed > m.usable_device_bytes) {
    m.binding = Binding::static_memory;
    m.binding_message = "Static memory alone (" + gb_text(fixed) + " incl. reserve) exceeds the device's " +
                        gb_text(m.usable_device_bytes) + " before a single activation is stored.";
  } else if (!m.fits && s.framework.framework == Framework::pytorch) {
    // A PyTorch step never holds every component at once (gradients may be gone at the peak), so
    // "static memory + the rest" would count bytes that are not live: name the peak itself.
    m.binding = Binding::activations;
    m.binding_message = "The peak during a step (" + gb_text(m.peak_bytes) + " incl. reserve) exceeds the device's " +
                        gb_text(m.usable_device_bytes) + "; what is live then is listed in step_phases.";
  } else if (!m.fits) {
    m.binding = Binding::activations;
    m.binding_message = "Activations and transients (" + gb_text(m.peak_bytes - fixed) + ") exceed the " +
                        gb_text(m.usable_device_bytes - fixed) + " left after static memory.";
  } else {
    m.binding = Binding::none;
    m.binding_message = "Fits, with " + gb_text(m.usable_device_bytes - m.peak_bytes) + " to spare at the peak.";
  }
}

}  // namespace lab
