// Transformer descriptions and their exact parameter counts (pure arithmetic, no I/O).
// GPT-2 family: learned positions, tied head, biases, pre-LayerNorm, MLP 4d (Radford et al. 2019,
// HF config). Custom models may use SwiGLU, RMSNorm, no biases and rotary positions (Llama-style).
// Next layer: memory.hpp (bytes from these counts), flops.hpp (FLOPs per token).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lab {

enum class MlpKind { gelu, swiglu };
enum class NormKind { layernorm, rmsnorm };

struct TransformerSpec {
  std::string id;             // catalog id, or "custom"
  std::string name;           // human-readable
  std::int64_t layers = 0;    // L
  std::int64_t hidden = 0;    // d (h in Korthikanti)
  std::int64_t heads = 0;     // a
  std::int64_t vocab = 0;     // V
  std::int64_t context = 0;   // maximum sequence length (learned position table rows)
  std::int64_t mlp_hidden = 0;  // f: inner MLP width (4d for GPT-2)
  bool tied_head = true;      // output head shares the token embedding
  bool learned_positions = true;  // false: rotary/none, no position parameters
  bool biases = true;         // linear layers and norms carry biases
  MlpKind mlp = MlpKind::gelu;
  NormKind norm = NormKind::layernorm;
  const char* provenance = "";  // static text: copying specs must stay cheap (evaluate hot path)
};

struct ParameterBreakdown {
  std::int64_t token_embedding = 0;
  std::int64_t position_embedding = 0;
  std::int64_t per_layer = 0;        // one transformer block
  std::int64_t layers_total = 0;     // L * per_layer
  std::int64_t final_norm = 0;
  std::int64_t head = 0;             // 0 when tied
  std::int64_t total = 0;
};

ParameterBreakdown count_parameters(const TransformerSpec& spec);

// Catalog of exact GPT-2 sizes; lookup by id ("gpt2-small" ... "gpt2-xl").
const std::vector<TransformerSpec>& model_catalog();
const TransformerSpec* find_model(const std::string& id);  // nullptr when unknown

}  // namespace lab
