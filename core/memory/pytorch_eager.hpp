// The "pytorch_eager" activation model: the tensors autograd saves for backward in a straightforward
// eager PyTorch model (nanoGPT's GPT-2 block; Hugging Face's Llama block), op by op, with the PyTorch
// behaviour behind each term. Matches scripts/measure-pytorch.py byte for byte on its fixtures.
// Next layers: step_phases.cpp (live bytes through a step), memory.cpp (the ledger's components).
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include "model/scenario.hpp"

namespace lab {

struct EagerItem {
  std::string op;        // the measurement script's label: "layer.attn.softmax", "head", "loss", ...
  std::int64_t bytes = 0;  // per layer for "layer.*" items, else for the whole model
  const char* source = "";  // which PyTorch behaviour saves these bytes
};

struct EagerActivations {
  std::vector<EagerItem> per_layer;  // one transformer block ("layer.*"); every block saves the same
  std::vector<EagerItem> model;      // embedding, final norm, head, loss
  std::int64_t per_layer_bytes = 0;
  std::int64_t model_bytes = 0;      // sum of `model`
  std::int64_t saved_bytes = 0;      // L * per_layer_bytes + model_bytes (activations saved by autograd)
  // autocast only: 16-bit copies of every matmul weight, saved by the linears that use them.
  std::int64_t weight_cache_per_layer_bytes = 0;
  std::int64_t weight_cache_model_bytes = 0;  // the head's copy
  std::int64_t weight_cache_attention_in_bytes = 0;  // one block's q/k/v weight copies
  std::int64_t weight_cache_down_bytes = 0;          // one block's MLP down-projection copy
  std::int64_t weight_cache_bytes = 0;
  std::int64_t bias_cache_bytes = 0;     // autocast's copies of biases: cached, never saved
  std::int64_t input_bytes = 0;          // token ids and targets (int64), saved by embedding and loss
  std::int64_t logits_bytes = 0;         // the head's output, which the training loop keeps
  // From-scratch loss: logsumexp and gather save the logits themselves, so the "loss" item holds
  // the kept logits' bytes (the step timeline counts them once, as logits).
  std::int64_t loss_saves_logits_bytes = 0;
  std::int64_t loss_element_bytes = 4;   // cross_entropy runs in FP32 under autocast
  std::int64_t score_element_bytes = 4;  // softmax output element (its gradient has the same type)
  std::int64_t residual_element_bytes = 4;
  std::int64_t linear_element_bytes = 4;  // matmul outputs
};

// The implementation style a scenario names by default: nanoGPT's GPT-2 block (fused q/k/v) for a
// model with learned positions, else Hugging Face's Llama block (separate q/k/v, RoPE).
PytorchImplementation default_implementation(const TransformerSpec& m);
// Why a style cannot describe this model or scenario (nullptr when it can), for the parser's error.
const char* implementation_mismatch(const Scenario& s);
bool nanogpt_style(const Scenario& s);
bool from_scratch_style(const Scenario& s);
// Dropout's default in the pytorch framework: the architecture's own (GPT-2 p = 0.1; Llama none).
bool architecture_dropout(const TransformerSpec& m);

EagerActivations eager_activations(const Scenario& s);

}  // namespace lab
