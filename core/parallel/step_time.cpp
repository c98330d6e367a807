// The step of the heaviest device (step_time.hpp; README.md derives each quantity).
#include "parallel/step_time.hpp"
#include <algorithm>
#include "model/scenario.hpp"

namespace lab {

double bubble_fraction(std::int64_t stages, std::int64_t micro_batches) {
  return static_cast<double>(stages - 1) / static_cast<double>(micro_batches + stages - 1);
}

// The one-device model's step at the scenario's micro-batch is host time (data loading and transfer)
// + GPU kernels + the optimizer. Kernels split over the t·p devices that hold the model (the same
// FLOPs, 1/(t·p) each; smaller matmuls' lower efficiency is not modelled); the forward is its share of
// the hardware FLOPs (a third of the model FLOPs); the update scales with the parameters a device updates.
DeviceCompute device_compute(const Scenario& s, const FlopsEstimate& f, const PipelineResult& one, const StageLayout& l) {
  const ParallelKnobs& k = *s.parallel;
  const double kernels = phase(one, PhaseId::memory_bound).work_seconds + phase(one, PhaseId::compute_bound).work_seconds;
  const double optimizer = phase(one, PhaseId::optimizer).work_seconds;
  const double host = std::max(0.0, one.step_seconds - kernels - optimizer);
  const double forward_share = f.hardware_per_token > 0
      ? static_cast<double>(f.model_per_token) / 3.0 / static_cast<double>(f.hardware_per_token) : 1.0 / 3.0;
  const double per_device = kernels / static_cast<double>(k.tensor_parallel * k.pipeline_parallel);
  DeviceCompute c;
  c.forward_s = host + forward_share * per_device;
  c.backward_s = (1 - forward_share) * per_device;
  const double updated = static_cast<double>(l.parameters) / static_cast<double>(k.zero_stage >= 1 ? k.data_parallel : 1);
  c.optimizer_s = optimizer * updated / static_cast<double>(memory_parameter_count(s));
  c.one_device_micro_batch_s = host + kernels;
  c.one_device_optimizer_s = optimizer;
  return c;
}

namespace {

// Compute lane: forward, backward, bubble; then the exposed communication in turn (the lane idles),
// the optimizer, and the stage 1-2 parameter all-gather that follows it. Hidden communication is drawn
// on its lane ending with the backward. Schematic: the real exposures interleave with the compute.
std::vector<TimelineSegment> schematic(const ParallelStep& r, std::int64_t m) {
  std::vector<TimelineSegment> out;
  const double forward_end = static_cast<double>(m) * r.compute.forward_s;
  const double backward_end = forward_end + static_cast<double>(m) * r.compute.backward_s;
  out.push_back({"compute", "forward", 0, forward_end, true});
  out.push_back({"compute", "backward", forward_end, backward_end, true});
  double cursor = backward_end;
  if (r.bubble_s > 0) { out.push_back({"compute", "bubble", cursor, cursor + r.bubble_s, true}); cursor += r.bubble_s; }
  double hidden_at = std::max(0.0, backward_end - r.hidden_communication_s);
  for (const auto& c : r.collectives) {
    const double hidden = c.seconds - c.exposed_seconds;
    if (hidden > 0) { out.push_back({"communication", to_string(c.kind), hidden_at, hidden_at + hidden, false}); hidden_at += hidden; }
  }
  for (const auto& c : r.collectives)
    if (c.exposed_seconds > 0 && !c.after_optimizer) {
      out.push_back({"communication", to_string(c.kind), cursor, cursor + c.exposed_seconds, true});
      cursor += c.exposed_seconds;
    }
  out.push_back({"compute", "optimizer", cursor, cursor + r.compute.optimizer_s, true});
  cursor += r.compute.optimizer_s;
  for (const auto& c : r.collectives)
    if (c.exposed_seconds > 0 && c.after_optimizer) {
      out.push_back({"communication", to_string(c.kind), cursor, cursor + c.exposed_seconds, true});
      cursor += c.exposed_seconds;
    }
  return out;
}

}  // namespace

ParallelStep parallel_step(const Scenario& s, const FlopsEstimate& f, const PipelineResult& one, const StageLayout& l) {
  const ParallelKnobs& k = *s.parallel;
  const std::int64_t m = k.micro_batches, N = k.data_parallel, p = k.pipeline_parallel;
  ParallelStep r;
  r.global_batch = s.batch_size * m * N;
  r.tokens_per_device = s.batch_size * s.seq_len * m;
  r.compute = device_compute(s, f, one, l);
  const double micro_batch_s = r.compute.forward_s + r.compute.backward_s;
  r.collectives = step_collectives(s, l, r.compute);
  for (const auto& c : r.collectives) {
    r.communication_s += c.seconds;
    r.exposed_communication_s += c.exposed_seconds;
  }
  r.hidden_communication_s = r.communication_s - r.exposed_communication_s;
  r.compute_s = static_cast<double>(m) * micro_batch_s + r.compute.optimizer_s;
  r.bubble_fraction = bubble_fraction(p, m);
  r.bubble_s = static_cast<double>(p - 1) * micro_batch_s;  // = fraction × (m + p - 1) micro-batch slots
  r.step_s = r.compute_s + r.bubble_s + r.exposed_communication_s;
  // One device, the same global batch by gradient accumulation (memory ignored): m·N micro-batches, one update.
  r.single_device_step_s = static_cast<double>(m * N) * r.compute.one_device_micro_batch_s + r.compute.one_device_optimizer_s;
  r.speedup = r.single_device_step_s / r.step_s;
  const double devices = static_cast<double>(k.devices());
  r.scaling_efficiency = r.speedup / devices;
  // The chapter's speedup = n / (1 + (n - 1)·r), solved for r at the scenario's n devices.
  r.communication_ratio = devices > 1 ? (devices / r.speedup - 1) / (devices - 1) : 0;
  const double tokens_per_micro_batch = static_cast<double>(s.batch_size * s.seq_len);
  r.compute_s_per_token = micro_batch_s / tokens_per_micro_batch;
  // Communication hides when the compute it overlaps takes longer: backward for the gradient all-reduce,
  // forward + backward for full sharding's 3Ψ. Both compute times grow with tokens per device; the
  // communication does not.
  r.backward_s_per_token = r.compute.backward_s / tokens_per_micro_batch;
  r.data_parallel_sync_s = data_parallel_sync_s(s, l);
  r.fully_sharded_sync_s = fully_sharded_sync_s(s, l);
  r.crossover_data_parallel_tokens = r.backward_s_per_token > 0 ? r.data_parallel_sync_s / r.backward_s_per_token : 0;
  r.crossover_fully_sharded_tokens = r.compute_s_per_token > 0 ? r.fully_sharded_sync_s / r.compute_s_per_token : 0;
  r.timeline = schematic(r, m);
  return r;
}

}  // namespace lab
