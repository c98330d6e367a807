// The training-memory ledger: bytes per component, static/total/peak, the step timeline, and what
// binds on the chosen device. Pure arithmetic over a Scenario; next layer: facade.cpp (JSON).
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include "memory/activations.hpp"
#include "memory/pytorch_eager.hpp"
#include "model/scenario.hpp"
#include "memory/step_phases.hpp"

namespace lab {

struct BytesPerParam {
  std::int64_t weights = 0, master = 0, gradients = 0, per_optimizer_vector = 0;
  std::int64_t optimizer_vectors = 0;
  std::int64_t total() const { return weights + master + gradients + per_optimizer_vector * optimizer_vectors; }
};

// Bytes per parameter for precision × optimizer under a convention (PHYSICS.md table).
BytesPerParam bytes_per_param(Precision p, Optimizer o, Convention c);
// Names of the optimizer's state vectors: {}, {"momentum"}, {"adam_m", "adam_v"}.
std::vector<std::string> optimizer_vector_names(Optimizer o);

struct NamedBytes {
  std::string name;
  std::int64_t bytes = 0;
};

enum class Binding { none, static_memory, activations };

struct MemoryLedger {
  std::int64_t parameters = 0;
  BytesPerParam per_param;
  std::int64_t weights = 0, master_weights = 0, gradients = 0, optimizer_state = 0;
  std::vector<NamedBytes> optimizer_vectors;
  ActivationEstimate activation;
  std::int64_t activations = 0;
  std::int64_t logits = 0;           // FP32 b·s·V (0 in the chapter model: inside its 65 GB)
  std::int64_t logits_gradient = 0;  // transient, live at the start of backward
  std::int64_t reserve = 0;
  std::int64_t static_bytes = 0;     // weights + master + gradients + optimizer state
  std::int64_t total_bytes = 0;      // sum of the components
  std::int64_t peak_bytes = 0;       // maximum over the step timeline (≥ total when transients exist)
  std::vector<NamedBytes> timeline;  // live bytes at the step's landmarks
  std::int64_t usable_device_bytes = 0;
  bool fits = false;
  Binding binding = Binding::none;
  std::string binding_message;
  // Exact inventory mode only (activation_model "inventory"): the reference engine's own table.
  struct Inventory {
    bool used = false;
    std::int64_t tensors = 0;
    std::string peak_phase;
    std::vector<NamedBytes> at_peak;          // every engine category at the peak (sums to peak_bytes)
    std::vector<NamedBytes> max_by_category;  // each category's own maximum over the step
    std::int64_t transient_at_peak = 0;       // transient + input bytes live at the peak
  } inventory;
  // Eager activations (activation_model "pytorch_eager") and, with framework "pytorch", the step
  // phases: there peak_bytes is the device peak (allocator peak + reserve) and total_bytes the sum.
  bool eager_used = false;
  EagerActivations eager;
  bool phases_used = false;
  StepPhases phases;
  std::int64_t autocast_weight_cache = 0;  // pytorch framework: a component of the sum
  // More than one device (core/parallel/): the ledger is one device's. Both are components of the sum.
  bool per_device = false;
  std::int64_t gradient_buckets = 0;     // DDP's flat bucket copy of the gradients ("copy")
  std::int64_t gathered_parameters = 0;  // ZeRO-3: the full 16-bit weights of the units being gathered
  std::int64_t static_by_convention[3] = {0, 0, 0};  // per_device: this device's static bytes under ours, chapter, megatron
};

// Overrides the analytic components with the reference engine's exact inventory for this scenario
// (memory_inventory.cpp; the scenario was checked to describe a model the engine runs).
void apply_inventory(const Scenario& s, MemoryLedger& m);

MemoryLedger compute_ledger(const Scenario& s);
// Sets usable_device_bytes, fits, binding and its message from static_bytes, reserve and peak_bytes
// (compute_ledger's last step; the per-device ledger of core/parallel/ reuses it).
void judge_fit(const Scenario& s, MemoryLedger& m);
// Static bytes of the same model/precision/optimizer under another convention (for the table).
std::int64_t static_bytes_under(const Scenario& s, Convention c);
const char* to_string(Binding b);

}  // namespace lab
