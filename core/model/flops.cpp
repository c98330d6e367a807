// FLOP accounting. Recompute: selective rebuilds the attention core forward (4·L·q·s per token, q =
// heads·head_dim, h for GPT-2); full / every-k rebuild every block's forward (2·N_blocks + 4·L·q·s). Chapter replay uses its 33%.
#include "model/flops.hpp"
#include <cmath>
#include "util/checked.hpp"

namespace lab {

double peak_flops_per_s(const DeviceSpec& d, Precision p, bool* supported) {
  double peak = d.peak_fp32_flops_per_s;
  if (p == Precision::mixed || p == Precision::fp16 || p == Precision::autocast_fp16) peak = d.peak_fp16_flops_per_s;
  if (p == Precision::bf16 || p == Precision::autocast_bf16) peak = d.peak_bf16_flops_per_s;
  const bool ok = peak > 0;
  if (supported) *supported = ok;
  return ok ? peak : d.peak_fp32_flops_per_s;
}

FlopsEstimate estimate_flops(const Scenario& s) {
  FlopsEstimate f;
  const ParameterBreakdown p = count_parameters(s.model);
  // The input token embedding is a lookup, not a matmul: with a tied head its table is the head's
  // matmul weight (counted once), untied it does no FLOPs. The textbook count keeps PaLM's 6·N with
  // N without position embeddings only (PHYSICS.md); the pytorch framework drops the untied table,
  // as the reference engine does (flops.matmul_parameters).
  f.matmul_parameters = p.total - p.position_embedding - (s.model.tied_head ? 0 : p.token_embedding);
  const std::int64_t n_no_pos = s.framework.framework == Framework::pytorch ? f.matmul_parameters
                                                                            : p.total - p.position_embedding;
  // Scores Q·Kᵀ and their product with V: 2·s·(a·d_h) FLOPs each per token forward, ×3 with backward.
  // The width is the query side, heads × head_dim (= h without GQA or a head_dim of its own): with GQA
  // each K/V head serves heads/kv_heads query heads, the matmuls stay as wide as Q.
  const std::int64_t attention = mul(12, s.model.layers, q_width(s.model), s.seq_len);
  f.model_per_token = add(mul(6, n_no_pos), attention);
  const std::int64_t attention_forward = mul(4, s.model.layers, q_width(s.model), s.seq_len);
  switch (s.checkpointing.kind) {
    case CheckpointKind::none: f.recompute_per_token = 0; break;
    case CheckpointKind::selective: f.recompute_per_token = attention_forward; break;
    case CheckpointKind::full:
    case CheckpointKind::every_k:
      f.recompute_per_token = add(mul(2, p.layers_total), attention_forward);
      break;
  }
  if (s.chapter_replay && s.checkpointing.kind != CheckpointKind::none)  // chapter: "33% more compute"
    f.recompute_per_token = static_cast<std::int64_t>(std::llround(0.33 * static_cast<double>(f.model_per_token)));
  f.hardware_per_token = add(f.model_per_token, f.recompute_per_token);
  f.tokens_per_step = mul(s.batch_size, s.seq_len);
  f.model_per_step = static_cast<double>(f.model_per_token) * static_cast<double>(f.tokens_per_step);
  f.hardware_per_step = static_cast<double>(f.hardware_per_token) * static_cast<double>(f.tokens_per_step);
  f.peak_flops_per_s = peak_flops_per_s(s.device, s.precision, &f.precision_supported);
  return f;
}

double model_flops_utilization(double model_flops_per_step, double step_seconds, double peak) {
  if (step_seconds <= 0 || peak <= 0) return 0;
  return model_flops_per_step / (step_seconds * peak);
}

double iron_law_seconds(double total_flops, std::int64_t devices, double peak, double efficiency) {
  const double rate = static_cast<double>(devices) * peak * efficiency;
  return rate > 0 ? total_flops / rate : 0;
}

}  // namespace lab
