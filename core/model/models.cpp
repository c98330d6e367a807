// Parameter counting: N = V·d + ctx·d + L·(12d² + 13d) + 2d for GPT-2, generalised.
#include "model/models.hpp"
#include "util/checked.hpp"

namespace lab {

ParameterBreakdown count_parameters(const TransformerSpec& s) {
  ParameterBreakdown p;
  const std::int64_t d = s.hidden, f = s.mlp_hidden;
  const std::int64_t bias = s.biases ? 1 : 0;
  const std::int64_t norm_params = s.norm == NormKind::layernorm ? (1 + bias) * d : d;
  p.token_embedding = mul(s.vocab, d);
  p.position_embedding = s.learned_positions ? mul(s.context, d) : 0;
  // Attention: fused QKV (3d² + 3d) and output projection (d² + d).
  const std::int64_t attention = add(mul(4, d, d), mul(4, d, bias));
  // MLP: GELU has up (d·f + f) and down (f·d + d); SwiGLU has gate, up, down without hidden bias.
  const std::int64_t mlp = s.mlp == MlpKind::gelu
                               ? add(mul(2, d, f), mul(add(f, d), bias))
                               : add(mul(3, d, f), mul(add(f, f, d), bias));
  p.per_layer = add(attention, mlp, mul(2, norm_params));
  p.layers_total = mul(s.layers, p.per_layer);
  p.final_norm = norm_params;
  p.head = s.tied_head ? 0 : mul(s.vocab, d);
  p.total = add(p.token_embedding, p.position_embedding, p.layers_total, p.final_norm, p.head);
  return p;
}

namespace {
TransformerSpec gpt2(const char* id, const char* name, std::int64_t layers, std::int64_t d,
                     std::int64_t heads) {
  TransformerSpec s;
  s.id = id;
  s.name = name;
  s.layers = layers;
  s.hidden = d;
  s.heads = heads;
  s.vocab = 50257;
  s.context = 1024;
  s.mlp_hidden = 4 * d;
  s.provenance =
      "Radford et al. 2019 (GPT-2) / HuggingFace config: vocab 50,257, n_ctx 1,024, tied head, "
      "biases, pre-LayerNorm, MLP 4d";
  return s;
}
}  // namespace

const std::vector<TransformerSpec>& model_catalog() {
  static const std::vector<TransformerSpec> catalog = {
      gpt2("gpt2-small", "GPT-2 small (124M)", 12, 768, 12),
      gpt2("gpt2-medium", "GPT-2 medium (355M)", 24, 1024, 16),
      gpt2("gpt2-large", "GPT-2 large (774M)", 36, 1280, 20),
      gpt2("gpt2-xl", "GPT-2 XL (1.5B)", 48, 1600, 25),
  };
  return catalog;
}

const TransformerSpec* find_model(const std::string& id) {
  for (const auto& m : model_catalog())
    if (m.id == id) return &m;
  return nullptr;
}

}  // namespace lab
