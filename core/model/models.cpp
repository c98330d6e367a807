// Parameter counting: N = V·d + ctx·d + L·(12d² + 13d) + 2d for GPT-2, generalised.
#include "model/models.hpp"
#include "util/checked.hpp"

namespace lab {

ParameterBreakdown count_parameters(const TransformerSpec& s) {
  ParameterBreakdown p;
  const std::int64_t d = s.hidden, f = s.mlp_hidden, q = q_width(s), kv = kv_width(s);
  const std::int64_t norm_params = s.norm == NormKind::layernorm ? (s.norm_bias ? 2 : 1) * d : d;
  p.token_embedding = mul(s.vocab, d);
  p.position_embedding = s.learned_positions ? mul(s.context, d) : 0;
  // Attention: Q (d·q), K and V (d·kv each), output (q·d), each with its bias where the model has one.
  // GPT-2 (q = kv = d, biases): 4d² + 4d.
  const std::int64_t attention = add(mul(2, d, q), mul(2, d, kv), s.qkv_bias ? add(q, mul(2, kv)) : 0,
                                     s.attn_out_bias ? d : 0);
  // MLP: GELU has up (d·f + f) and down (f·d + d); gated (SwiGLU, GeGLU) adds a gate (d·f + f).
  const bool gated = s.mlp != MlpKind::gelu;
  const std::int64_t mlp = add(mul(gated ? 3 : 2, d, f), s.mlp_bias ? add(mul(gated ? 2 : 1, f), d) : 0);
  p.per_layer = add(attention, mlp, mul(s.norms_per_layer, norm_params));
  p.layers_total = mul(s.layers, p.per_layer);
  p.final_norm = norm_params;
  p.head = s.tied_head ? 0 : mul(s.vocab, d);
  p.total = add(p.token_embedding, p.position_embedding, p.layers_total, p.final_norm, p.head);
  return p;
}

void set_biases(TransformerSpec& s, bool on) {
  s.biases = s.qkv_bias = s.attn_out_bias = s.mlp_bias = s.norm_bias = on;
}

void complete_attention(TransformerSpec& s) {
  s.head_dim = head_dim_of(s);
  s.kv_heads = kv_heads_of(s);
}

}  // namespace lab
