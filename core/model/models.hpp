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

enum class MlpKind { gelu, swiglu, geglu };  // geglu: gated GELU (Gemma)
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
  bool biases = true;         // JSON shorthand: the default of the four per-projection flags below
  MlpKind mlp = MlpKind::gelu;
  NormKind norm = NormKind::layernorm;
  // Grouped-query attention and a head width of its own (Gemma 2: 8 x 256 != 2304). The parsers and
  // the catalogue fill both in; 0 (a hand-built spec) means heads and hidden/heads (see below).
  std::int64_t kv_heads = 0;
  std::int64_t head_dim = 0;
  bool qkv_bias = true;        // Q, K, V projections (Qwen2: only these)
  bool attn_out_bias = true;   // attention output projection
  bool mlp_bias = true;        // MLP projections
  bool norm_bias = true;       // LayerNorm shift (RMSNorm has none)
  int norms_per_layer = 2;     // 4: Gemma 2's extra norms after each sublayer
  bool parallel_residual = false;  // GPT-NeoX: attention and MLP read the same input
  std::int64_t sliding_window = 0;  // 0: none; noted, the same matmuls and scores in eager PyTorch
  const char* family = "custom";  // static text: gpt2, llama, ... (a Hugging Face model_type)
  std::uint8_t approximations = 0;  // Approximation bits: what the counts leave out (result notes)
  const char* provenance = "";  // static text: copying specs must stay cheap (evaluate hot path)
};

// What a model has that the lab accepts but does not model exactly (each becomes a result note).
enum Approximation : std::uint8_t { kSoftcapping = 1, kPartialRotary = 2, kRopeScaling = 4 };

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

// The attention widths, safe on hand-built specs that leave kv_heads / head_dim at 0.
inline std::int64_t head_dim_of(const TransformerSpec& s) {
  return s.head_dim > 0 ? s.head_dim : (s.heads > 0 ? s.hidden / s.heads : 0);
}
inline std::int64_t kv_heads_of(const TransformerSpec& s) { return s.kv_heads > 0 ? s.kv_heads : s.heads; }
inline std::int64_t q_width(const TransformerSpec& s) { return s.heads * head_dim_of(s); }     // a·d_h
inline std::int64_t kv_width(const TransformerSpec& s) { return kv_heads_of(s) * head_dim_of(s); }  // k·d_h
// Sets `biases` and the four per-projection flags together (the JSON shorthand).
void set_biases(TransformerSpec& s, bool on);
// Fills kv_heads and head_dim where 0, so that nothing downstream sees 0.
void complete_attention(TransformerSpec& s);

// Catalogue: GPT-2 small..XL, Llama-2/3, Mistral, Qwen2, TinyLlama, the Measure-it model and the
// course family; lookup by id.
const std::vector<TransformerSpec>& model_catalog();
const TransformerSpec* find_model(const std::string& id);  // nullptr when unknown

}  // namespace lab
