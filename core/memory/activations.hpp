// Activation memory: Korthikanti et al. 2022 (arXiv 2205.05198) per-layer inventory, generalised to
// any MLP width, FP32 activations and FlashAttention; and the chapter's empirical "65 GB" model.
// Next layer: memory.cpp adds these bytes to the static ledger.
#pragma once
#include <cstdint>
#include <string>
#include "model/scenario.hpp"

namespace lab {

struct ActivationEstimate {
  std::int64_t per_layer_full_bytes = 0;   // one layer's activations with nothing recomputed (A)
  std::int64_t per_layer_saved_bytes = 0;  // what each layer keeps from forward to backward
  std::int64_t layers_saving = 0;          // how many layers keep per_layer_saved_bytes
  std::int64_t saved_bytes = 0;            // held from the end of forward into backward
  std::int64_t recompute_working_bytes = 0;  // extra live during backward (recomputed segment)
  std::string formula;                     // the formula in words, bound to this scenario
  double chapter_kept_share = 1.0;         // chapter replay: share of its no-checkpointing figure kept
};

// Bytes per activation element: 2 for 16-bit compute (mixed, fp16, bf16), 4 for FP32.
std::int64_t activation_element_bytes(Precision p);

ActivationEstimate estimate_activations(const Scenario& s);

// One layer's Korthikanti terms, nothing recomputed, split the way tensor parallelism splits them
// (Korthikanti et al. 2022, Table 2): `replicated` are the h-wide tensors every tensor-parallel rank
// holds whole (norm inputs, the QKV and MLP inputs, dropout masks: 10·sbh for GPT-2 at 16 bits);
// `split` are the q/k/v-wide and MLP-wide ones (24·sbh); `scores` the a·s²·b tensors (5·as²b).
struct LayerActivationTerms {
  std::int64_t replicated_bytes = 0, split_bytes = 0, score_bytes = 0;
};
LayerActivationTerms layer_activation_terms(const Scenario& s);

// Chapter replay's share of the activations kept when checkpointing every k of L layers: the
// chapter's formula k*A + (L/k)*A keeps (k + L/k)/L of L*A; its saving is scaled by s so that k = 4
// saves the chapter's flat 75% (4x): kept = 1 - s*(1 - (k + L/k)/L), clamped to [1/L, 1]. Smallest near
// k = sqrt(L); k = 1 and k = L save nothing, as in the formula. s = 0.75 / (1 - (4 + L/4)/L) (1.125
// for L = 48); 0 when the formula saves nothing at k = 4 (L < 6), and then every k keeps the flat 1/4.
double chapter_every_k_saving_scale(std::int64_t layers);
double chapter_every_k_factor(std::int64_t k, std::int64_t layers);

}  // namespace lab
