// The multi-step timeline: K steps of timed segments per resource, so that the front end can draw a
// Gantt chart in which prefetch overlap is visible. Steady-state durations come from compute_pipeline;
// this file only places them in time (including the warm-up: the first batch cannot be prefetched).
// schedule_steps = 0 skips it (evaluate is cheaper while a slider is dragged).
#include <algorithm>
#include "pipeline/pipeline.hpp"

namespace lab {

std::vector<ScheduleSegment> build_schedule(const Scenario& s, const PipelineResult& r) {
  const std::int64_t steps = s.pipeline.schedule_steps;  // 0: no timeline
  const double loading = phase(r, PhaseId::data_loading).work_seconds;
  const double memory = phase(r, PhaseId::memory_bound).work_seconds;
  const double compute = phase(r, PhaseId::compute_bound).work_seconds;
  const double optimizer = phase(r, PhaseId::optimizer).work_seconds;
  const bool prefetch = r.prefetch_effective;
  const double beta = prefetch ? r.constants.main_process_fraction : 0.0;
  const double background = (1 - beta) * loading, handoff = beta * loading;
  // Loaders may run ahead by at most workers × prefetch_depth batches (PyTorch's prefetch_factor).
  const std::int64_t buffer = std::max<std::int64_t>(1, s.pipeline.workers * s.pipeline.prefetch_depth);

  std::vector<ScheduleSegment> out;
  out.reserve(static_cast<std::size_t>(steps) * 7);
  std::vector<double> produced(static_cast<std::size_t>(steps), 0.0), taken(static_cast<std::size_t>(steps), 0.0);
  double step_end = 0;
  for (std::int64_t j = 0; j < steps; ++j) {
    const auto J = static_cast<std::size_t>(j);
    const std::int64_t step = j + 1;
    double t = step_end;
    if (prefetch) {
      double start = j > 0 ? produced[J - 1] : 0.0;
      if (j >= buffer) start = std::max(start, taken[static_cast<std::size_t>(j - buffer)]);
      produced[J] = start + background;
      out.push_back({"cpu_data", "data_loading", step, start, produced[J]});
      t = std::max(step_end, produced[J]);
      taken[J] = t;
      out.push_back({"cpu_main", "data_handoff", step, t, t + handoff});
      t += handoff;
    } else {
      out.push_back({s.pipeline.workers >= 1 ? "cpu_data" : "cpu_main", "data_loading", step, t, t + loading});
      t += loading;
    }
    out.push_back({"pcie", "transfer_host", step, t, t + r.transfer_host_seconds});
    t += r.transfer_host_seconds;
    out.push_back({"pcie", "transfer_dma", step, t, t + r.transfer_dma_seconds});
    t += r.transfer_dma_seconds;
    out.push_back({"gpu_memory", "memory_bound", step, t, t + memory});
    t += memory;
    out.push_back({"gpu_compute", "compute_bound", step, t, t + compute});
    t += compute;
    out.push_back({"gpu_optimizer", "optimizer", step, t, t + optimizer});
    step_end = t + optimizer;
  }
  return out;
}

}  // namespace lab
