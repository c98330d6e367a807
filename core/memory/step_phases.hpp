// The step-phase memory model (framework "pytorch"): live bytes by category at each phase of one
// PyTorch training step — start, forward end, loss backward, backward layer by layer, optimizer step —
// for a first or a steady step; the peak is the timeline's maximum, with its phase named.
// Inputs: the eager activation inventory (pytorch_eager.hpp). Next layer: memory.cpp, facade_evaluate.cpp.
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include "memory/pytorch_eager.hpp"
#include "model/scenario.hpp"

namespace lab {

struct PhaseBytes {
  std::string phase;  // "start", "forward_end", "loss_backward", "backward.layer.3", "optimizer_step", ...
  std::int64_t parameters = 0, gradients = 0, optimizer_state = 0, activations = 0, autocast_cache = 0;
  std::int64_t gradient_buckets = 0;  // DDP's flat bucket copy of the gradients (core/parallel/parallel_pytorch.cpp)
  std::int64_t logits = 0, inputs = 0, transient = 0;
  // pytorch_build "cuda" only (0 on CPU): the model's registered buffers (masks, RoPE tables) and the
  // cuBLAS/cuBLASLt workspaces the caching allocator holds for the whole run (cuda_workspace_bytes).
  std::int64_t buffers = 0, cuda_workspace = 0;
  std::int64_t total() const;
};

struct StepPhases {
  std::vector<PhaseBytes> timeline;
  std::int64_t allocator_peak_bytes = 0;  // what torch.cuda.max_memory_allocated reports
  std::string peak_phase;
  // Which autocast cache is live at the peak: "none" (no autocast, or no copy left), "cache" (the
  // region is open: every 16-bit weight copy made so far) or "saved_copies" (the region has closed;
  // autograd still holds the copies that the blocks not yet backpropagated saved).
  std::string cache_at_peak = "none";
  std::int64_t parameter_tensors = 0;     // tensors the optimizer updates (1.13 keeps a step scalar each)
  std::int64_t largest_tensor_bytes = 0;  // per-parameter optimizer temporaries are sized by it
  std::int64_t optimizer_temporary_bytes = 0;
};

StepPhases step_phases(const Scenario& s, const EagerActivations& e);
// The timeline's maximum: sets allocator_peak_bytes, peak_phase and cache_at_peak (after an edit).
void select_peak(const Scenario& s, StepPhases& r);
// Elements of each parameter tensor in model.parameters() order, for at most max_blocks blocks.
std::vector<std::int64_t> parameter_order(const Scenario& s, std::int64_t max_blocks);
// Adam's per-parameter temporaries (elements) over tensors updated in this order: 2 * this + previous.
std::int64_t per_parameter_adam_elements(const std::vector<std::int64_t>& order);

// cuBLAS workspaces PyTorch 2.x takes from its caching allocator (so torch.cuda.memory_allocated counts
// them): one per (handle, stream), and a handle per thread: the forward's thread, and in training
// autograd's device thread, each getChosenWorkspaceSize() (32 MiB on compute capability 9.x, 10.x and
// 12.x, else 8 MiB + 128 KiB); plus cuBLASLt's own 1 MiB workspace. Measured on an H100: 65 MiB.
std::int64_t cuda_workspace_bytes(const Scenario& s);
// The buffers the reference models register (scripts/measure-pytorch.py), per block: a causal mask
// (FP32 ctx x ctx; from scratch a bool one) and, with rotary positions, cos and sin tables.
std::int64_t model_buffer_bytes(const Scenario& s);

}  // namespace lab
