// Per-step phase times and their overlap. No prefetch: the phases run one after another. With
// prefetch (and ≥ 1 worker) loaders build the next batches while the training process runs the step;
// only the main-process share of loading stays exposed, unless the loaders are slower than the step.
// The host→device copy stays on the critical path, as with PyTorch's DataLoader: it is issued by the
// training loop on the compute stream after the batch arrives.
#include "pipeline/pipeline.hpp"
#include <algorithm>
#include <cmath>
#include "memory/activations.hpp"
#include "memory/memory.hpp"

namespace lab {

// One switch per enum, as in model/scenario.cpp: -Wswitch flags a value added without its name.
const char* to_string(PhaseId p) {
  switch (p) {
    case PhaseId::data_loading: return "data_loading";
    case PhaseId::transfer: return "transfer";
    case PhaseId::memory_bound: return "memory_bound";
    case PhaseId::compute_bound: return "compute_bound";
    case PhaseId::optimizer: return "optimizer";
  }
  return "?";
}

const char* to_string(DamAxis a) {
  switch (a) {
    case DamAxis::data: return "data";
    case DamAxis::algorithm: return "algorithm";
    case DamAxis::machine: return "machine";
  }
  return "?";
}

const PhaseTime& phase(const PipelineResult& r, PhaseId p) { return r.phases[static_cast<int>(p)]; }

// Forward bytes per token per layer moved by non-matmul kernels (e = activation element bytes, h
// hidden, f MLP width, a heads, s sequence; masks are 1 byte, as in the Korthikanti inventory):
//   two norms (read h, write h)            4·h·e   (Gemma 2's four: 8·h·e)
//   two residual adds (read 2h, write h)   6·h·e
//   two output dropouts (read, write, mask) 4·h·e + 2·h
//   MLP activation: GELU read f write f    2·f·e   (SwiGLU: read gate and up, write f: 3·f·e)
//   attention scores: fused scale-mask-softmax (read, write a·s) and dropout (read, write, mask):
//                                          (4·e + 1)·a·s   (0 with FlashAttention: inside the fused kernel)
// Whole model per token: final norm 2·h·e; cross-entropy over FP32 logits, read and written once in
// forward (log-softmax) and once in backward: 4 passes × 4 B × V.
double memory_bound_bytes_per_step(const Scenario& s, const PipelineConstants& c) {
  const double e = static_cast<double>(activation_element_bytes(s.precision));
  const double h = static_cast<double>(s.model.hidden), f = static_cast<double>(s.model.mlp_hidden);
  const double a = static_cast<double>(s.model.heads), sl = static_cast<double>(s.seq_len);
  const double L = static_cast<double>(s.model.layers), V = static_cast<double>(s.model.vocab);
  const double norms = 2.0 * s.model.norms_per_layer;  // each norm reads and writes h (Gemma 2: four)
  const double linear = (norms * e + 10 * e + 2) * h + (s.model.mlp == MlpKind::gelu ? 2 : 3) * e * f;
  const double scores = s.flash_attention ? 0.0 : (4 * e + 1) * a * sl;
  const double forward = L * (linear + scores) + 2 * h * e;
  double recompute = 0;  // forward traffic of recomputed ops
  switch (s.checkpointing.kind) {
    case CheckpointKind::none: break;
    case CheckpointKind::selective: recompute = L * scores; break;
    case CheckpointKind::full:
    case CheckpointKind::every_k: recompute = L * (linear + scores); break;
  }
  const double logits = 4.0 * 4.0 * V;
  const double per_token = (1 + c.backward_traffic_factor) * forward + recompute + logits;
  return per_token * static_cast<double>(s.batch_size) * sl;
}

// Reads: the copy the update works on (FP32 master if any, else the weights), the gradients and
// every optimizer vector; writes: that copy, the optimizer vectors and (with a master) the 16-bit
// weights. FP32 Adam: 4+4+8 read, 4+8 written = 28 B; mixed Adam: 4+2+8 read, 4+8+2 written = 28 B.
std::int64_t optimizer_update_bytes_per_param(const Scenario& s) {
  const BytesPerParam b = bytes_per_param(s.precision, s.optimizer, s.convention);
  const std::int64_t state = b.per_optimizer_vector * b.optimizer_vectors;
  const std::int64_t reads = (b.master > 0 ? b.master : b.weights) + b.gradients + state;
  const std::int64_t writes = (b.master > 0 ? b.master + b.weights : b.weights) + state;
  return reads + writes;
}

PipelineResult compute_pipeline(const Scenario& s, const FlopsEstimate& f, const PipelineOptions& o) {
  PipelineResult r;
  r.constants = constants_for(s);
  const PipelineConstants& c = r.constants;
  const PipelineKnobs& k = s.pipeline;
  r.tokens_per_step = f.tokens_per_step;
  const double tokens = static_cast<double>(f.tokens_per_step);

  // Data loading: one loader builds a batch at worker_tokens_per_s; w workers share the work.
  const double loaders = static_cast<double>(std::max<std::int64_t>(1, k.workers));
  const double loading = tokens / (c.worker_tokens_per_s * loaders);

  // Host→device: per-batch latency, the staging copy when memory is pageable, then the DMA.
  r.transfer_bytes = kTransferBytesPerToken * tokens;
  const double link = k.host_link_bytes_per_s > 0 ? k.host_link_bytes_per_s : s.device.host_link_bytes_per_s;
  const double dma_rate = link * c.link_efficiency * (k.pinned_memory ? 1.0 : c.pageable_dma_efficiency);
  r.transfer_dma_seconds = r.transfer_bytes / dma_rate;
  r.pinned_memory = k.pinned_memory;
  r.transfer_host_seconds = c.transfer_latency_seconds + (k.pinned_memory ? 0.0 : r.transfer_bytes / c.staging_bytes_per_s);
  const double transfer = r.transfer_host_seconds + r.transfer_dma_seconds;

  // GPU: bandwidth-bound kernels and the optimizer update from bytes over HBM bandwidth; matmuls
  // (recompute included) at the active precision's dense peak times the batch's kernel efficiency.
  const double hbm = s.device.hbm_bytes_per_s * c.hbm_efficiency;
  r.memory_bound_bytes = memory_bound_bytes_per_step(s, c);
  r.optimizer_bytes = static_cast<double>(optimizer_update_bytes_per_param(s)) *
                      static_cast<double>(memory_parameter_count(s));
  r.kernel_efficiency = kernel_efficiency(s.batch_size);
  const double matmul_rate = f.peak_flops_per_s * r.kernel_efficiency;
  const double memory = r.memory_bound_bytes / hbm;
  const double compute = f.hardware_per_step / matmul_rate;
  r.recompute_seconds = static_cast<double>(f.recompute_per_token) * tokens / matmul_rate;
  const double optimizer = r.optimizer_bytes / hbm;
  const double gpu = memory + compute + optimizer;

  // Overlap. Without prefetch everything is serial. With prefetch the loaders work on later batches
  // while the step runs: a step lasts max(loaders' hidden part, exposed hand-off + transfer + GPU);
  // more prefetch depth does not change this steady state (it absorbs jitter, not modelled).
  r.prefetch_effective = k.prefetch && k.workers >= 1;
  double exposed_data = loading;
  if (r.prefetch_effective) {
    const double beta = c.main_process_fraction;
    r.step_seconds = std::max((1 - beta) * loading, beta * loading + transfer + gpu);
    exposed_data = r.step_seconds - transfer - gpu;
  } else {
    r.step_seconds = loading + transfer + gpu;
  }
  const double wall = r.step_seconds;
  const double work[kPhaseCount] = {loading, transfer, memory, compute, optimizer};
  const double exposed[kPhaseCount] = {exposed_data, transfer, memory, compute, optimizer};
  for (int i = 0; i < kPhaseCount; ++i) r.phases[i] = {work[i], exposed[i], exposed[i] / wall};

  r.gpu_busy_seconds = gpu + r.transfer_dma_seconds;
  r.busy_fraction = r.gpu_busy_seconds / wall;
  r.pipeline_efficiency = compute / wall;
  r.mfu = model_flops_utilization(f.model_per_step, wall, f.peak_flops_per_s);
  r.hfu = model_flops_utilization(f.hardware_per_step, wall, f.peak_flops_per_s);
  r.mfu_ceiling = f.model_per_step / f.hardware_per_step * r.kernel_efficiency;
  r.tokens_per_second = tokens / wall;
  r.epoch_seconds = k.epoch_tokens / r.tokens_per_second;
  r.chapter_data_share = exposed_data / wall;
  r.chapter_transfer_share = transfer / wall;
  r.chapter_compute_share = gpu / wall;

  // D·A·M: what limits the step. Not fitting is Machine (capacity) first; otherwise the largest of
  // the data side (exposed loading + transfer), memory-bound work (+ optimizer), compute-bound work.
  const double data_side = exposed_data + transfer, machine_side = memory + optimizer;
  if (!o.memory_fits) {
    r.bottleneck = {DamAxis::machine, "memory_capacity", 0.0};
  } else if (compute >= data_side && compute >= machine_side) {
    r.bottleneck = {DamAxis::algorithm, "compute_bound", compute / wall};
  } else if (data_side >= machine_side) {
    r.bottleneck = {DamAxis::data, exposed_data >= transfer ? "data_loading" : "transfer", data_side / wall};
  } else {
    r.bottleneck = {DamAxis::machine, "memory_bound", machine_side / wall};
  }
  if (o.with_schedule && s.pipeline.schedule_steps > 0) r.schedule = build_schedule(s, r);
  return r;
}

namespace {
// One decimal, as every percentage the lab shows (45.0%, 25.7%).
std::string pct(double x) {
  const long long tenths = std::llround(x * 1000);
  return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + "%";
}
}  // namespace

std::string bottleneck_sentence(const PipelineResult& r) {
  const Bottleneck& b = r.bottleneck;
  if (b.axis == DamAxis::machine && std::string(b.limiter) == "memory_capacity")
    return "Machine-bound (memory capacity): the step does not fit on the device, so it cannot run at any "
           "speed; reduce memory first (precision, optimizer, checkpointing, batch).";
  // More workers and prefetching shorten the loading, not the copies: the advice follows the limiter.
  // Pinned memory already skips the staging copy: what is left is the per-batch cost and the link.
  if (b.axis == DamAxis::data)
    return "Data-bound: loading and copying input take " + pct(b.share) + " of each step (" +
           (std::string(b.limiter) == "data_loading" ? "data loading dominates); add loader workers, prefetching and pinned memory."
            : r.pinned_memory ? "host-to-device copies dominate); host memory is already pinned, so what is left of each copy "
                                "is its fixed cost per batch and the link\u2019s bandwidth."
                              : "host-to-device copies dominate); pin host memory, so each copy skips the staging copy.");
  if (b.axis == DamAxis::machine)
    return "Machine-bound (memory bandwidth): bandwidth-bound kernels and the optimizer update take " +
           pct(b.share) + " of each step; fuse operators or use FlashAttention.";
  return "Algorithm-bound (compute, the desired state): matrix multiplications take " + pct(b.share) +
         " of each step and run at " + pct(r.kernel_efficiency) +
         " of peak at this batch size (read off the chapter\u2019s batch-size figures); MFU is " + pct(r.mfu) + ".";
}

}  // namespace lab
