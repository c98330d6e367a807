// The ledger's exact inventory mode: the same table that sizes the reference engine's buffers
// (core/refengine/inventory.cpp) gives every component, the peak and where it happens, so the
// ledger's prediction equals what the engine measures, byte for byte (tests/core/memory/test_memory_inventory.cpp).
#include "memory/memory.hpp"
#include "util/checked.hpp"
#include "refengine/inventory.hpp"

namespace lab {

namespace {
ref::RefConfig reference_config(const Scenario& s) {
  ref::RefConfig c;
  c.vocab = s.model.vocab;
  c.context = s.model.context;
  c.d_model = s.model.hidden;
  c.heads = s.model.heads;
  c.layers = s.model.layers;
  c.mlp_hidden = s.model.mlp_hidden;
  c.batch = s.batch_size;
  c.seq = s.seq_len;
  c.precision = s.precision;
  c.optimizer = s.optimizer;
  c.checkpointing = s.checkpointing;
  return c;
}
}  // namespace

void apply_inventory(const Scenario& s, MemoryLedger& m) {
  const ref::Inventory inv = ref::build_inventory(reference_config(s));
  const ref::MemoryProfile p = ref::predict_memory(inv);
  const auto at = [&](ref::Category c) { return p.at_peak[static_cast<std::size_t>(c)]; };
  m.weights = at(ref::Category::weights);
  m.master_weights = at(ref::Category::master_weights);
  m.gradients = at(ref::Category::gradients);
  m.optimizer_vectors.clear();
  m.optimizer_state = 0;
  const std::pair<ref::Category, const char*> vectors[] = {{ref::Category::optimizer_momentum, "momentum"},
                                                          {ref::Category::optimizer_adam_m, "adam_m"},
                                                          {ref::Category::optimizer_adam_v, "adam_v"}};
  for (const auto& [cat, name] : vectors)
    if (inv.tensors.size() && p.max_by_category[static_cast<std::size_t>(cat)] > 0) {
      m.optimizer_vectors.push_back({name, at(cat)});
      m.optimizer_state = add(m.optimizer_state, at(cat));
    }
  m.activations = at(ref::Category::activations);
  m.logits = at(ref::Category::logits);  // the engine's logits category holds logits and their gradient
  m.logits_gradient = 0;
  m.activation.recompute_working_bytes = 0;
  m.reserve = 0;  // the engine measures its own heap: no framework context
  m.static_bytes = add(m.weights, m.master_weights, m.gradients, m.optimizer_state);
  m.total_bytes = add(m.static_bytes, m.activations, m.logits);
  m.peak_bytes = p.peak_bytes;
  m.inventory.used = true;
  m.inventory.tensors = static_cast<std::int64_t>(inv.tensors.size());
  m.inventory.peak_phase = p.peak_phase;
  m.inventory.transient_at_peak = add(at(ref::Category::transient), at(ref::Category::inputs));
  for (std::size_t i = 0; i < ref::kCategoryCount; ++i) {
    const char* name = ref::category_name(static_cast<ref::Category>(i));
    m.inventory.at_peak.push_back({name, p.at_peak[i]});
    m.inventory.max_by_category.push_back({name, p.max_by_category[i]});
  }
  std::int64_t persistent = 0;
  if (!p.timeline.empty()) persistent = ref::total(p.timeline.front().live_end);
  m.timeline = {{"init", persistent}, {"peak:" + p.peak_phase, p.peak_bytes}};
}

}  // namespace lab
