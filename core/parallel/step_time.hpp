// One training step on the heaviest device of a parallel run: compute from the lab's one-device
// timing model (core/pipeline/) split over t·p, the pipeline bubble (GPipe, Huang et al. 2019;
// 1F1B, Narayanan et al. 2021: (p - 1)/(m + p - 1)), every collective's bytes and seconds
// (communication.cpp), what overlap hides, the speedup against one device at the same global batch,
// the chapter's communication ratio r, the crossovers and a schematic timeline. README.md derives each.
#pragma once
#include <cstdint>
#include <vector>
#include "model/flops.hpp"
#include "model/scenario.hpp"
#include "parallel/collectives.hpp"
#include "parallel/layout.hpp"
#include "pipeline/pipeline.hpp"

namespace lab {

struct CollectiveCost {
  CollectiveKind kind = CollectiveKind::all_reduce;
  const char* purpose = "gradients";  // gradients | parameters | tensor_parallel | pipeline
  std::int64_t calls = 0;
  double bytes = 0;                   // sent by this device per step, all calls
  double seconds = 0;                 // all calls
  double exposed_seconds = 0;         // the part no compute hides
  bool after_optimizer = false;       // ZeRO 1-2's all-gather of the updated weights
};

struct TimelineSegment {
  const char* lane;  // compute | communication
  const char* kind;  // forward | backward | optimizer | bubble | all_reduce | reduce_scatter | all_gather | point_to_point
  double start_s = 0, end_s = 0;
  bool exposed = false;
};

// One micro-batch's compute on one device, and the optimizer's share.
struct DeviceCompute {
  double forward_s = 0, backward_s = 0;  // one micro-batch (the one-device model's host time counts as forward)
  double optimizer_s = 0;                // this device's update (its shard under ZeRO >= 1)
  double one_device_micro_batch_s = 0;   // the whole model, one micro-batch, on one device (no optimizer)
  double one_device_optimizer_s = 0;
};
DeviceCompute device_compute(const Scenario& s, const FlopsEstimate& f, const PipelineResult& one_device, const StageLayout& l);

struct ParallelStep {
  std::int64_t global_batch = 0, tokens_per_device = 0;
  DeviceCompute compute;
  std::vector<CollectiveCost> collectives;
  double compute_s = 0, communication_s = 0, exposed_communication_s = 0, hidden_communication_s = 0;
  double bubble_s = 0, bubble_fraction = 0, step_s = 0, single_device_step_s = 0;
  double speedup = 0, scaling_efficiency = 0, communication_ratio = 0;
  double crossover_data_parallel_tokens = 0, crossover_fully_sharded_tokens = 0, compute_s_per_token = 0;
  // What the crossovers divide: each communication's seconds and the compute it hides behind, per token.
  double data_parallel_sync_s = 0, fully_sharded_sync_s = 0, backward_s_per_token = 0;
  std::vector<TimelineSegment> timeline;
};

// (p - 1)/(m + p - 1): the idle share of a synchronous pipeline's step.
double bubble_fraction(std::int64_t stages, std::int64_t micro_batches);
// Collectives of one step on a device of stage l (communication.cpp).
std::vector<CollectiveCost> step_collectives(const Scenario& s, const StageLayout& l, const DeviceCompute& c);
// Data-parallel gradient all-reduce and fully sharded (3Ψ) seconds at the scenario's N and link.
double data_parallel_sync_s(const Scenario& s, const StageLayout& l);
double fully_sharded_sync_s(const Scenario& s, const StageLayout& l);
ParallelStep parallel_step(const Scenario& s, const FlopsEstimate& f, const PipelineResult& one_device, const StageLayout& l);

}  // namespace lab
