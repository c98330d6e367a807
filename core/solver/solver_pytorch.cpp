// Solver, PyTorch counting (framework "pytorch"; the workbench, issue 25): the largest micro-batch and
// the cheapest path on the step-phase peak. That peak is not the sweep's linear model (its phase can
// change with batch), so every candidate is an exact compute_ledger call: the batch by doubling then
// bisection (the peak grows with batch), the path over precision {fp32, autocast_bf16, autocast_fp16}
// × optimizer × batch halvings. No checkpointing: the step-phase model covers eager runs without it.
#include <algorithm>
#include <cmath>
#include "solver/solver_internal.hpp"

namespace lab {
using namespace solver_detail;

namespace {

bool fits(const Scenario& base, TrainingConfig c, std::int64_t batch) {
  c.batch_size = batch;
  return exact_peak(base, c) <= base.device.capacity_bytes;
}

// The largest batch in [0, kMaxBatch] that fits: 0 when batch 1 does not.
std::int64_t largest_fitting(const Scenario& base, const TrainingConfig& c) {
  if (!fits(base, c, 1)) return 0;
  std::int64_t lo = 1, hi = 2;  // fits(lo); hi is the first candidate above it
  while (hi <= kMaxBatch && fits(base, c, hi)) { lo = hi; hi *= 2; }
  hi = std::min(hi, kMaxBatch + 1);
  while (hi - lo > 1) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    (fits(base, c, mid) ? lo : hi) = mid;
  }
  return lo;
}

}  // namespace

LargestBatch pytorch_largest(const Scenario& s) {
  return largest_result(s, s.device.capacity_bytes, largest_fitting(s, config_of(s)));
}

CheapestPath pytorch_cheapest_path(const Scenario& s) {
  const std::int64_t capacity = s.device.capacity_bytes;
  CheapestPath path;
  const TrainingConfig start = config_of(s);
  path.start = start;
  path.start_peak_bytes = exact_peak(s, start);
  path.start_fits = path.start_peak_bytes <= capacity && numerically_valid(start.precision);
  if (path.start_fits) {
    path.reaches_fit = true;
    path.reason = "The scenario's configuration already fits (peak " + std::to_string(path.start_peak_bytes) +
                  " B of " + std::to_string(capacity) + " B); no move is needed.";
    return path;
  }
  const Precision precisions[] = {Precision::fp32, Precision::autocast_bf16, Precision::autocast_fp16};
  const std::int64_t max_halvings = halvings_to(start.batch_size, 1);
  const double start_spt = seconds_per_token(s, start);
  std::int64_t fewest = kTooLarge;
  double best_cost = 0;
  std::int64_t best_peak = kTooLarge, least_peak = kTooLarge;
  TrainingConfig best = start, least = start;
  for (Precision p : precisions)
    for (Optimizer o : kOptimizers) {
      TrainingConfig c = start;
      c.precision = p;
      c.optimizer = o;
      c.batch_size = 1;
      const std::int64_t floor = exact_peak(s, c);
      if (floor < least_peak) { least_peak = floor; least = c; }
      if (floor > capacity) continue;
      const std::int64_t changed = (p != start.precision) + (o != start.optimizer);
      std::int64_t b = start.batch_size;
      for (std::int64_t h = 0; h <= max_halvings; ++h, b = (b + 1) / 2) {
        c.batch_size = b;
        const std::int64_t peak = exact_peak(s, c);
        if (peak > capacity) continue;
        const std::int64_t moves = changed + h;
        const double cost = moves <= fewest ? relative_time(s, start, start_spt, c) : 0;
        if (moves < fewest || (moves == fewest && (cost < best_cost || (cost == best_cost && peak < best_peak)))) {
          fewest = moves; best_cost = cost; best_peak = peak; best = c;
        }
        break;
      }
    }
  if (fewest != kTooLarge) {
    path.moves = order_moves(s, capacity, start, best);
    path.reaches_fit = true;
    path.relative_training_time = best_cost;
    path.reason = "Fewest moves that fit: " + std::to_string(fewest) + "; among those, the lowest estimated " +
                  "time-to-train (time per token x convergence steps relative to Adam), on PyTorch's step peak.";
    return path;
  }
  if (least_peak != kTooLarge) {
    path.moves = order_moves(s, capacity, start, least);
    path.relative_training_time = relative_time(s, start, start_spt, least);
  }
  path.reason = "Nothing fits at batch 1 under PyTorch's step peak: the least, " + describe(least) + ", peaks at " +
                std::to_string(least_peak) + " B > " + std::to_string(capacity) +
                " B. Activation checkpointing is outside the PyTorch model; the textbook layout covers it.";
  return path;
}

}  // namespace lab
