// The reference engine's configuration: a tiny GPT-2-style decoder (pre-LayerNorm, learned
// positions, biases, untied head without bias, GELU MLP) plus the training knobs. Plain data; the
// facade (facade_train.cpp) parses and range-checks it, inventory.cpp turns it into tensors.
#pragma once
#include <cstdint>
#include "refengine/dtype.hpp"
#include "model/scenario.hpp"

namespace lab::ref {

enum class LossScaleMode { none, fixed, dynamic };  // fixed = "static" in the request
enum class TaskKind { markov, copy };

struct RefConfig {
  // Architecture.
  std::int64_t vocab = 64, context = 64, d_model = 128, heads = 4, layers = 4, mlp_hidden = 512;
  // Work per step.
  std::int64_t batch = 8, seq = 64;
  // Training.
  Precision precision = Precision::fp32;
  DType mixed_half = DType::f16;  // the 16-bit type of "mixed" (fp16, as Micikevicius et al. 2017, or bf16)
  Optimizer optimizer = Optimizer::adam;
  bool decoupled_weight_decay = false;  // true: AdamW (decay applied to the weight, not the gradient)
  Checkpointing checkpointing;
  double learning_rate = 1e-3;
  double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;  // chapter's Adam listing: lr 1e-3, betas (0.9, 0.999), eps 1e-8
  double momentum = 0.9;
  double weight_decay = 0.0;                      // applied to matrices and embeddings only (nanoGPT)
  LossScaleMode loss_scale = LossScaleMode::none;
  double loss_scale_value = 65536.0;              // static value, or the dynamic initial value (PyTorch GradScaler: 2^16)
  std::int64_t loss_scale_growth_interval = 2000; // dynamic: clean steps before doubling (GradScaler default)
  TaskKind task = TaskKind::markov;
  std::uint64_t seed = 1;
};

// Which storage type each kind of tensor has under a precision (PHYSICS.md static-memory table):
// fp32: everything float32. mixed: 16-bit (FP16, or BF16 if asked) weights, gradients and
// activations + FP32 master and FP32 optimizer state. fp16 / bf16 ("pure"): everything 16-bit, no
// master copy.
struct StorageTypes {
  DType weights, grads, optimizer_state, activations;
  bool master;
};
inline StorageTypes storage_types(Precision p, DType mixed_half = DType::f16) {
  switch (p) {
    case Precision::mixed: return {mixed_half, mixed_half, DType::f32, mixed_half, true};
    case Precision::fp16: return {DType::f16, DType::f16, DType::f16, DType::f16, false};
    case Precision::bf16: return {DType::bf16, DType::bf16, DType::bf16, DType::bf16, false};
    default: return {DType::f32, DType::f32, DType::f32, DType::f32, false};
  }
}

// Checkpoint segment length: 0 = layers keep their activations (none / selective), k = the
// every-k-layers scheme (full recomputation is k = 1).
inline std::int64_t segment_length(const RefConfig& c) {
  if (c.checkpointing.kind == CheckpointKind::full) return 1;
  if (c.checkpointing.kind == CheckpointKind::every_k)
    return c.checkpointing.every_k_layers < 1 ? 1 : (c.checkpointing.every_k_layers < c.layers ? c.checkpointing.every_k_layers : c.layers);
  return 0;
}

}  // namespace lab::ref
