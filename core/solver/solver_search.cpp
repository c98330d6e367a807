// Solver, part 2. Cheapest path: a move changes one thing (precision, optimizer, checkpointing) or
// halves the batch, so the fewest moves to reach a configuration is the number of things that differ
// plus the halvings; every valid configuration reachable that way is scored by (moves, estimated
// time-to-train relative to the start, peak bytes) and the best that fits is taken. Its moves are then
// ordered greedily, largest saving first, with the exact peak after each. When nothing fits, the path
// leads to the floor configuration and the floor is the proof. Best MFU: the pipeline model at each
// fitting configuration's largest batch (capped), since MFU does not fall as batch grows.
#include <algorithm>
#include <cmath>
#include "solver/solver_internal.hpp"

namespace lab::solver_detail {

double seconds_per_token(const Scenario& base, const TrainingConfig& c) {
  const PipelineResult p = timing(base, c);
  return p.step_seconds / static_cast<double>(p.tokens_per_step);
}

// Estimated time-to-train of `c` relative to `start`: time per token × convergence steps.
double relative_time(const Scenario& base, const TrainingConfig& start, double start_seconds_per_token,
                     const TrainingConfig& c) {
  return seconds_per_token(base, c) / start_seconds_per_token * convergence_factor(c.optimizer) /
         convergence_factor(start.optimizer);
}

std::int64_t halvings_to(std::int64_t from, std::int64_t to) {
  std::int64_t h = 0;
  while (from > to) { from = (from + 1) / 2; ++h; }
  return h;
}

std::vector<PathMove> order_moves(const Scenario& base, std::int64_t capacity, const TrainingConfig& start,
                                  const TrainingConfig& target) {
  std::vector<PathMove> moves;
  TrainingConfig cur = start;
  std::int64_t halvings = halvings_to(start.batch_size, target.batch_size);
  for (;;) {
    struct Option { const char* kind; TrainingConfig next; std::string text; };
    std::vector<Option> options;
    if (cur.precision != target.precision) {
      TrainingConfig n = cur; n.precision = target.precision;
      options.push_back({"precision", n, std::string("precision ") + to_string(cur.precision) + " -> " + to_string(n.precision)});
    }
    if (cur.optimizer != target.optimizer) {
      TrainingConfig n = cur; n.optimizer = target.optimizer;
      options.push_back({"optimizer", n, std::string("optimizer ") + to_string(cur.optimizer) + " -> " + to_string(n.optimizer)});
    }
    if (!same_checkpointing(cur.checkpointing, target.checkpointing)) {
      TrainingConfig n = cur; n.checkpointing = target.checkpointing;
      options.push_back({"checkpointing", n, "checkpointing " + describe(cur.checkpointing) + " -> " + describe(n.checkpointing)});
    }
    if (halvings > 0) {
      TrainingConfig n = cur; n.batch_size = (cur.batch_size + 1) / 2;
      options.push_back({"batch", n, "batch " + std::to_string(cur.batch_size) + " -> " + std::to_string(n.batch_size)});
    }
    if (options.empty()) break;
    std::size_t best = 0;
    std::int64_t best_peak = kTooLarge;
    for (std::size_t i = 0; i < options.size(); ++i) {
      const std::int64_t peak = exact_peak(base, options[i].next);
      if (i == 0 || peak < best_peak) { best = i; best_peak = peak; }
    }
    cur = options[best].next;
    if (std::string(options[best].kind) == "batch") --halvings;
    const bool fits = best_peak <= capacity && numerically_valid(cur.precision);
    moves.push_back({options[best].kind, options[best].text, cur, best_peak, fits});
  }
  return moves;
}

namespace {

struct Candidate {
  TrainingConfig config;
  std::int64_t moves;
  double cost;
  double peak;
};

}  // namespace

CheapestPath find_cheapest_path(const Sweep& sw, const Floor& floor) {
  CheapestPath path;
  const TrainingConfig start = config_of(sw.base);
  path.start = start;
  path.start_peak_bytes = exact_peak(sw.base, start);
  path.start_fits = path.start_peak_bytes <= sw.capacity && numerically_valid(start.precision);
  if (path.start_fits) {
    path.reaches_fit = true;
    path.reason = "The scenario's configuration already fits (peak " + std::to_string(path.start_peak_bytes) +
                  " B of " + std::to_string(sw.capacity) + " B); no move is needed.";
    return path;
  }
  const std::int64_t max_halvings = halvings_to(start.batch_size, 1);
  std::vector<Candidate> fitting;
  std::int64_t fewest = kTooLarge;
  for (Precision p : kValidPrecisions)
    for (Optimizer o : kOptimizers)
      for (std::size_t i = 0; i < sw.checkpoints.size(); ++i) {
        const std::int64_t changed = (p != start.precision) + (o != start.optimizer) +
                                     !same_checkpointing(sw.checkpoints[i], start.checkpointing);
        std::int64_t b = start.batch_size;
        for (std::int64_t h = 0; h <= max_halvings; ++h, b = (b + 1) / 2) {
          const double peak = sw.peak_estimate(p, o, i, b);
          if (peak > static_cast<double>(sw.capacity)) continue;
          const std::int64_t moves = changed + h;
          if (moves <= fewest) {  // the first fitting batch is the one with the fewest halvings
            fewest = moves;
            fitting.push_back({sw.config(p, o, i, b), moves, 0, peak});
          }
          break;
        }
      }
  std::vector<Candidate> best;
  for (const Candidate& c : fitting)
    if (c.moves == fewest) best.push_back(c);
  const double start_spt = seconds_per_token(sw.base, start);
  for (Candidate& c : best) c.cost = relative_time(sw.base, start, start_spt, c.config);
  std::sort(best.begin(), best.end(), [](const Candidate& a, const Candidate& b) {
    if (std::fabs(a.cost - b.cost) > 1e-9 * std::max(a.cost, b.cost)) return a.cost < b.cost;
    return a.peak < b.peak;
  });
  for (const Candidate& c : best) {
    if (exact_peak(sw.base, c.config) > sw.capacity) continue;  // the linear model's rounding (chapter model)
    path.moves = order_moves(sw.base, sw.capacity, start, c.config);
    path.reaches_fit = true;
    path.relative_training_time = c.cost;
    path.reason = "Fewest moves that fit: " + std::to_string(c.moves) + "; among those, the lowest estimated " +
                  "time-to-train (pipeline time per token x convergence steps relative to Adam).";
    return path;
  }
  // Nothing fits: lead to the floor configuration and give the floor as the proof.
  TrainingConfig target = floor.config;
  target.batch_size = 1;
  if (floor.peak_bytes != kTooLarge) {
    path.moves = order_moves(sw.base, sw.capacity, start, target);
    path.relative_training_time = relative_time(sw.base, start, start_spt, target);
  }
  path.reaches_fit = false;
  path.reason = "No numerically valid configuration fits: the floor, the least peak over all " +
                std::to_string(2 * 3 * sw.checkpoints.size()) + " valid precision x optimizer x checkpointing " +
                "combinations at batch 1, is " + std::to_string(floor.peak_bytes) + " B > " +
                std::to_string(sw.capacity) + " B. The moves lead to that floor.";
  return path;
}

void find_best(const Sweep& sw, std::int64_t max_batch, SolverResult& out) {
  struct Scored { TrainingConfig config; std::int64_t largest; double mfu, tps; };
  std::optional<Scored> by_mfu, by_mfu_same, by_tps;
  const Optimizer own = sw.base.optimizer;
  for (Precision p : kValidPrecisions)
    for (Optimizer o : kOptimizers)
      for (std::size_t i = 0; i < sw.checkpoints.size(); ++i) {
        const std::int64_t largest = sw.largest_batch_estimate(p, o, i);
        if (largest == 0) continue;
        const TrainingConfig c = sw.config(p, o, i, std::min(largest, max_batch));
        const PipelineResult t = timing(sw.base, c);
        const Scored here{c, largest, t.mfu, t.tokens_per_second};
        auto better_mfu = [&](const std::optional<Scored>& cur) {
          return !cur || here.mfu > cur->mfu * (1 + 1e-12) ||
                 (here.mfu >= cur->mfu * (1 - 1e-12) && here.tps > cur->tps);
        };
        if (better_mfu(by_mfu)) by_mfu = here;
        if (o == own && better_mfu(by_mfu_same)) by_mfu_same = here;
        if (!by_tps || here.tps > by_tps->tps) by_tps = here;
      }
  auto finish = [&](const Scored& s) -> std::optional<ConfigPerformance> {
    TrainingConfig c = s.config;
    const std::int64_t exact = largest_batch_exact(sw.base, c, s.largest, sw.capacity);
    if (exact == 0) return std::nullopt;
    c.batch_size = std::min(exact, max_batch);
    const PipelineResult t = timing(sw.base, c);
    return ConfigPerformance{c, exact_peak(sw.base, c), t.mfu, t.hfu, t.tokens_per_second, t.step_seconds};
  };
  if (by_mfu) out.best_mfu = finish(*by_mfu);
  if (by_tps) out.best_throughput = finish(*by_tps);
  if (by_mfu_same) out.best_mfu_same_optimizer = finish(*by_mfu_same);
}

}  // namespace lab::solver_detail
