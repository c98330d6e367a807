// FLOPs per token (PaLM, Chowdhery et al. 2022, App. B: 6·N + 12·L·h·s, N without position
// embeddings), hardware FLOPs with recompute, peak FLOP/s at the active precision, MFU, Iron Law.
#pragma once
#include <cstdint>
#include "model/scenario.hpp"

namespace lab {

struct FlopsEstimate {
  std::int64_t model_per_token = 0;     // what the model needs (MFU numerator)
  std::int64_t hardware_per_token = 0;  // plus recomputation (HFU numerator)
  std::int64_t recompute_per_token = 0;
  std::int64_t matmul_parameters = 0;   // N without position embeddings and an untied input embedding
  std::int64_t tokens_per_step = 0;
  double model_per_step = 0;
  double hardware_per_step = 0;
  double peak_flops_per_s = 0;          // dense peak at the active precision
  bool precision_supported = true;      // false: e.g. BF16 on a V100 (FP32 peak used instead)
};

FlopsEstimate estimate_flops(const Scenario& s);
double peak_flops_per_s(const DeviceSpec& d, Precision p, bool* supported = nullptr);

// MFU = model FLOPs per step / (step seconds × peak FLOP/s).
double model_flops_utilization(double model_flops_per_step, double step_seconds, double peak_flops_per_s);

// Iron Law of training (chapter L384–414): T = O_total / (N_devices · R_peak · η).
double iron_law_seconds(double total_flops, std::int64_t devices, double peak_flops_per_s, double efficiency);

}  // namespace lab
