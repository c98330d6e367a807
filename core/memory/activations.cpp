// Korthikanti per-layer inventory (16-bit: s·b·h·(34 + 5·a·s/h)), itemised so that precision,
// MLP width and FlashAttention change the right terms; dropout masks stay 1 byte per element.
#include "memory/activations.hpp"
#include <algorithm>
#include <cmath>
#include "util/checked.hpp"

namespace lab {

std::int64_t activation_element_bytes(Precision p) { return p == Precision::fp32 ? 4 : 2; }  // autocast: 16-bit

namespace {

// One layer, nothing recomputed. e = element bytes, masks are 1 byte (dropout, GPT-2 p = 0.1).
//   attention: QKV input e·sbh, Q and the projection input e·sb·q each, K and V e·sb·kv each
//              (q = heads·head_dim, kv = kv_heads·head_dim; both h for GPT-2: 5·e·sbh); output dropout mask sbh
//   scores:    softmax output + dropout output (2·e) + mask (1), per a·s²·b  [FlashAttention: 0]
//   MLP:       input e·sbh, GELU in/out 2·e·sbf (SwiGLU/GeGLU: gate, up, product 3·e·sbf), mask sbh
//   norms:     each norm's input e·sbh: two (pre-norm), four with Gemma 2's post-norms; a parallel
//              residual (GPT-NeoX) feeds both pre-norms the same tensor, saved once
struct LayerTerms {
  std::int64_t linear_bytes;  // everything except the attention score matrices
  std::int64_t score_bytes;   // the materialized a·s²·b tensors
};

LayerTerms layer_terms(const Scenario& s) {
  const LayerActivationTerms t = layer_activation_terms(s);
  return {add(t.replicated_bytes, t.split_bytes), t.score_bytes};
}

}  // namespace

LayerActivationTerms layer_activation_terms(const Scenario& s) {
  const std::int64_t e = activation_element_bytes(s.precision);
  const std::int64_t b = s.batch_size, n = s.seq_len, h = s.model.hidden, a = s.model.heads;
  const std::int64_t f = s.model.mlp_hidden;
  const std::int64_t sbh = mul(n, b, h), sbf = mul(n, b, f);
  const std::int64_t mlp_inner = s.model.mlp == MlpKind::gelu ? mul(2, e, sbf) : mul(3, e, sbf);
  // Without dropout (dropout: false) the two 1-byte masks and the scores' dropout output and mask go.
  const std::int64_t mask = s.dropout ? sbh : 0;
  const std::int64_t sbq = mul(n, b, q_width(s.model)), sbkv = mul(n, b, kv_width(s.model));
  const std::int64_t norm_inputs = s.model.norms_per_layer - (s.model.parallel_residual ? 1 : 0);
  // h-wide: the QKV input, the MLP input, the norm inputs and both dropout masks.
  const std::int64_t replicated = add(mul(e, sbh), mask, mul(e, sbh), mask, mul(norm_inputs, e, sbh));
  // q/kv- and f-wide: Q and the projection input, K and V, the MLP's inner tensors.
  const std::int64_t split = add(mul(e, add(mul(2, sbq), mul(2, sbkv))), mlp_inner);
  const std::int64_t per_score = s.dropout ? add(mul(2, e), 1) : e;
  const std::int64_t scores = s.flash_attention ? 0 : mul(per_score, a, n, n, b);
  return {replicated, split, scores};
}

namespace {

ActivationEstimate korthikanti(const Scenario& s) {
  ActivationEstimate est;
  const LayerTerms t = layer_terms(s);
  const std::int64_t L = s.model.layers;
  const std::int64_t layer_input = mul(activation_element_bytes(s.precision), s.seq_len,
                                       s.batch_size, s.model.hidden);
  est.per_layer_full_bytes = add(t.linear_bytes, t.score_bytes);
  switch (s.checkpointing.kind) {
    case CheckpointKind::none:
      est.per_layer_saved_bytes = est.per_layer_full_bytes;
      est.layers_saving = L;
      est.formula = "L x s*b*h*(34 + 5*a*s/h) bytes at 16-bit (Korthikanti 2022), all layers stored";
      break;
    case CheckpointKind::selective:
      // Recompute the attention core: the a·s²·b tensors are not stored.
      est.per_layer_saved_bytes = t.linear_bytes;
      est.layers_saving = L;
      est.formula = "L x 34*s*b*h bytes at 16-bit: attention scores recomputed (selective)";
      break;
    case CheckpointKind::full:
    case CheckpointKind::every_k: {
      const std::int64_t k =
          s.checkpointing.kind == CheckpointKind::full ? 1 : std::min(s.checkpointing.every_k_layers, L);
      // Store each segment's input; during backward one segment of k layers is rebuilt in full.
      est.per_layer_saved_bytes = layer_input;
      est.layers_saving = (L + k - 1) / k;
      // The segment's stored input is already counted in saved_bytes and is part of what is rebuilt.
      est.recompute_working_bytes = mul(k, est.per_layer_full_bytes) - layer_input;
      est.formula = k == 1 ? "L x 2*s*b*h bytes at 16-bit (layer inputs only) + one layer rebuilt in backward"
                           : "ceil(L/k) stored segment inputs + k layers rebuilt in backward "
                             "(chapter: k*A + (L/k)*A)";
      break;
    }
  }
  est.saved_bytes = mul(est.layers_saving, est.per_layer_saved_bytes);
  return est;
}

// The chapter's walkthrough: 65 GB of FP32 activations at B = 32, S = 1024 for GPT-2 XL, linear in
// batch and sequence, x1/2 for 16-bit, /4 for "checkpoint every 4 layers" (a flat 4x, as the chapter
// does). Other k follow the chapter's own k*A + (L/k)*A, its saving scaled so that k = 4 saves the
// chapter's 75% (the formula alone saves 67% there): a flat /k would read k = 48 as 48x less when
// that schedule saves nothing (the formula is smallest near k = sqrt(L)). Selective/full are not in
// the chapter: they scale by Korthikanti's ratio to "none" (labelled).
ActivationEstimate chapter_model(const Scenario& s) {
  ActivationEstimate est;
  const double base_bytes = 65e9 * (static_cast<double>(s.batch_size) / 32.0) *
                            (static_cast<double>(s.seq_len) / 1024.0) *
                            (static_cast<double>(activation_element_bytes(s.precision)) / 4.0);
  double factor = 1.0;
  est.formula = "65 GB (chapter, FP32, B=32, S=1024) x B/32 x S/1024 x bytes/4";
  if (s.checkpointing.kind == CheckpointKind::every_k) {
    factor = chapter_every_k_factor(s.checkpointing.every_k_layers, s.model.layers);
    est.formula += " x (1 - s*(1 - (k + L/k)/L)) (chapter's k*A + (L/k)*A, its saving scaled by s so k = 4 saves 75%)";
  } else if (s.checkpointing.kind != CheckpointKind::none) {
    Scenario plain = s;
    plain.checkpointing = {};
    const auto with = korthikanti(s), without = korthikanti(plain);
    factor = static_cast<double>(with.saved_bytes) / static_cast<double>(without.saved_bytes);
    est.formula += " x Korthikanti ratio for this scheme (not from the chapter)";
  }
  est.chapter_kept_share = factor;
  const double bytes = std::round(base_bytes * factor);
  if (!(bytes < 9.2e18)) throw InputError("scenario", "the configuration is too large: activation bytes exceed 2^63");
  est.saved_bytes = static_cast<std::int64_t>(bytes);
  est.per_layer_saved_bytes = est.saved_bytes / std::max<std::int64_t>(1, s.model.layers);
  est.per_layer_full_bytes = est.per_layer_saved_bytes;
  est.layers_saving = s.model.layers;
  return est;
}

}  // namespace

double chapter_every_k_saving_scale(std::int64_t layers) {
  const double L = static_cast<double>(std::max<std::int64_t>(1, layers));
  const double formula_saving_at_4 = 1.0 - (4.0 + L / 4.0) / L;
  return formula_saving_at_4 > 0.0 ? 0.75 / formula_saving_at_4 : 0.0;
}

double chapter_every_k_factor(std::int64_t k, std::int64_t layers) {
  const double L = static_cast<double>(std::max<std::int64_t>(1, layers));
  const double kk = static_cast<double>(std::max<std::int64_t>(1, k));  // the scenario keeps k <= L
  const double scale = chapter_every_k_saving_scale(layers);
  if (scale == 0.0) return std::max(0.25, 1.0 / L);  // the formula saves nothing at k = 4: the flat 4x
  // At least one layer's activations stay live in backward: 1/L bounds shallow models, where the
  // scale is large (L = 48 never reaches it: the least kept is 0.20 at k = 7).
  return std::clamp(1.0 - scale * (1.0 - (kk + L / kk) / L), 1.0 / L, 1.0);
}

ActivationEstimate estimate_activations(const Scenario& s) {
  // pytorch_eager replaces this estimate in the ledger (memory.cpp, apply_pytorch).
  return s.activation_model == ActivationModel::chapter ? chapter_model(s) : korthikanti(s);
}

}  // namespace lab
