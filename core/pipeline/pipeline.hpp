// The training-step timing model: absolute seconds for each phase of one step (data loading,
// host→device transfer, memory-bound kernels, compute-bound kernels, optimizer update), how prefetching
// overlaps them, and the gauges built on them (GPU busy, pipeline efficiency, MFU, HFU, tokens/s).
// Constants and the Chapter replay calibration: pipeline_constants.cpp; the multi-step timeline:
// pipeline_schedule.cpp. Next layer: facade_pipeline.cpp (JSON). Pure arithmetic, no I/O.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>
#include "model/flops.hpp"
#include "model/scenario.hpp"

namespace lab {

// Every efficiency constant of the timing model, by name. physics_constants() gives the sourced
// defaults; Chapter replay uses chapter_replay_constants(), a closed-form calibration to the chapter's
// profile (pipeline_constants.cpp explains each). Kernel efficiency is a function of batch size
// (kernel_efficiency below), the same in both modes.
struct PipelineConstants {
  double hbm_efficiency = 0;            // achieved / datasheet HBM bandwidth for streaming kernels
  double backward_traffic_factor = 0;   // bytes moved by non-matmul kernels in backward / in forward
  double link_efficiency = 0;           // pinned host→device DMA rate / datasheet link rate
  double pageable_dma_efficiency = 0;   // DMA rate from pageable memory / from pinned memory
  double staging_bytes_per_s = 0;       // pageable only: host copy into the driver's pinned staging buffer
  double transfer_latency_seconds = 0;  // per batch, host side: issuing the copy and synchronizing
  double main_process_fraction = 0;     // with workers + prefetch: share of a batch's loading left on the
                                        // training process (dequeue, unpickle, collate hand-off)
  double worker_tokens_per_s = 0;       // one loader's throughput (a worker, or the main process)
  bool calibrated = false;              // true: Chapter replay's calibrated values
};

struct ConstantDescription {
  const char* name;
  double value;
  const char* unit;
  const char* source;  // provenance: the source, or how the value was calibrated
};
// The constants with units and provenance, in a fixed order (for the facade and core/pipeline/README.md).
std::array<ConstantDescription, 8> describe(const PipelineConstants& c);

PipelineConstants physics_constants(const Scenario& s);
// Closed-form calibration on the chapter's configuration (GPT-2 XL, V100, mixed, Adam, every 4
// layers, B = 32): the before/after profiles then come out as 40/25/35 (busy 45%) and 5/20/75 (busy 85%).
const PipelineConstants& chapter_replay_constants();
// physics_constants, or chapter_replay_constants when s.chapter_replay.
PipelineConstants constants_for(const Scenario& s);

// Matmul efficiency as a function of batch size (sequences), interpolated from the chapter (L759:
// batch 16–32 → 60–70% utilization, ≥ 256 → over 90%): piecewise linear in log2(batch) through
// (16, 0.60), (32, 0.70), (256, 0.90); below 16 the 32→256 slope continues down to 1/3 at batch 1;
// above 256 it stays at 0.90. Non-decreasing in batch. Labelled "interpolated" wherever shown.
double kernel_efficiency(std::int64_t batch_size);

// Bytes the host sends per token: int64 input ids + int64 targets (the chapter counts the 8-byte
// inputs only, L1513; nanoGPT and HF training loops move both).
inline constexpr double kTransferBytesPerToken = 16;

enum class PhaseId { data_loading = 0, transfer, memory_bound, compute_bound, optimizer };
inline constexpr int kPhaseCount = 5;
const char* to_string(PhaseId p);

struct PhaseTime {
  double work_seconds = 0;     // time the phase's resource works on it, per step
  double exposed_seconds = 0;  // the part on the step's critical path (not hidden by overlap)
  double share = 0;            // exposed_seconds / step_seconds (the shares sum to 1)
};

enum class DamAxis { data, algorithm, machine };
const char* to_string(DamAxis a);

struct Bottleneck {
  DamAxis axis = DamAxis::algorithm;
  const char* limiter = "compute_bound";  // a phase name, or "memory_capacity" when it does not fit
  double share = 0;                        // share of the step taken by the limiter's side
};

struct ScheduleSegment {
  const char* resource;  // cpu_data, cpu_main, pcie, gpu_memory, gpu_compute, gpu_optimizer
  const char* phase;     // data_loading, data_handoff, transfer_host, transfer_dma, memory_bound, ...
  std::int64_t step;     // 1-based step the work belongs to
  double start_seconds;
  double end_seconds;
};

struct PipelineResult {
  PipelineConstants constants;
  double kernel_efficiency = 0;
  std::int64_t tokens_per_step = 0;
  double transfer_bytes = 0;          // per step
  double memory_bound_bytes = 0;      // HBM bytes moved by non-matmul kernels per step (incl. recompute)
  double optimizer_bytes = 0;         // HBM bytes read + written by the optimizer update per step
  double transfer_host_seconds = 0;   // staging copy (pageable) + per-batch latency
  double transfer_dma_seconds = 0;    // the DMA itself (device busy)
  double recompute_seconds = 0;       // part of compute_bound spent on recomputed FLOPs
  std::array<PhaseTime, kPhaseCount> phases{};
  bool prefetch_effective = false;    // prefetch needs at least one worker (as in PyTorch)
  bool pinned_memory = false;         // batches are page-locked: the copy has no staging part
  double step_seconds = 0;
  double gpu_busy_seconds = 0;        // kernels + input DMA
  double busy_fraction = 0;           // gpu_busy_seconds / step_seconds
  double pipeline_efficiency = 0;     // compute-bound seconds / step_seconds
  double mfu = 0, hfu = 0;
  double mfu_ceiling = 0;             // MFU if everything but compute-bound work took no time
  double tokens_per_second = 0;
  double epoch_seconds = 0;           // epoch_tokens / tokens_per_second
  // The chapter's three profile categories (shares of the step): data loading; memory transfers
  // (host→device); compute (all GPU kernels: memory-bound, compute-bound, optimizer).
  double chapter_data_share = 0, chapter_transfer_share = 0, chapter_compute_share = 0;
  Bottleneck bottleneck;
  std::vector<ScheduleSegment> schedule;  // empty unless requested
};

const PhaseTime& phase(const PipelineResult& r, PhaseId p);

struct PipelineOptions {
  bool memory_fits = true;      // from the ledger: a step that does not fit is Machine-bound first
  bool with_schedule = false;   // build the multi-step timeline (scenario's schedule_steps)
};

// `f` must be estimate_flops(s). Never throws for a parsed scenario (all divisors are positive).
PipelineResult compute_pipeline(const Scenario& s, const FlopsEstimate& f, const PipelineOptions& o = {});

// A one-sentence reading of the bottleneck in D·A·M terms (chapter §Identifying Bottlenecks).
std::string bottleneck_sentence(const PipelineResult& r);

// The multi-step timeline for K = s.pipeline.schedule_steps steps (pipeline_schedule.cpp).
std::vector<ScheduleSegment> build_schedule(const Scenario& s, const PipelineResult& r);

// HBM bytes moved by non-matmul kernels (elementwise, norms, softmax, dropout, residual adds,
// cross-entropy) in one step, including recomputed forwards.
double memory_bound_bytes_per_step(const Scenario& s, const PipelineConstants& c);
// HBM bytes per parameter read + written by one optimizer update (e.g. FP32 Adam: reads W, G, m, v,
// writes W, m, v = 28 B).
std::int64_t optimizer_update_bytes_per_param(const Scenario& s);

// The chapter's walkthrough as the reference panel sets it beside the engine (pipeline_constants.cpp):
// its optimized run's 1,200 tokens/s and 8.3 h per epoch, the MFU that throughput implies, and its
// two profiles (shares of the step and GPU busy, before and after tuning the data pipeline).
struct ChapterProfile { double data_loading, transfers, compute, busy_fraction; };
struct ChapterReference {
  double tokens_per_second = 0;
  double time_per_epoch_hours = 0;
  Precision precision = Precision::mixed;  // of the optimized run, whatever the student selected
  double peak_flops_per_s = 0;             // the device's peak at that precision
  double mfu_at_chapter_throughput = 0;    // model FLOPs per token × tokens/s ÷ that peak
  ChapterProfile before{}, after{};
};
ChapterReference chapter_reference(const Scenario& s, const FlopsEstimate& f);

}  // namespace lab
