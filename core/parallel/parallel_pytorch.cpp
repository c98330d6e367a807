// Each data-parallel rank's PyTorch step, from the one-device step of its micro-batch. What changes
// on a rank (measured with two gloo ranks, scripts/measure-pytorch-dist.py):
//  - DDP "copy": the Reducer allocates flat buckets holding every gradient at construction; they stay
//    beside .grad for good (+ one gradient-sized block in every phase, start included).
//  - DDP "view" (gradient_as_bucket_view): .grad are views of those buckets, so the gradients are
//    live from the start, even after zero_grad(set_to_none); a gradient backward computes is copied
//    in and freed, so it is a transient as on one device, and the embedding's gradient, which one
//    device's count had already stored in place of nothing, now sits beside its bucket (+ V*d).
//  - "none": each .grad all-reduced in place after backward (gloo's buffers are its own): one
//    device's step, with a grad_sync phase.
//  - ZeRO stage 1: the optimizer state (and Adam's temporaries) of the parameters the rank owns.
#include "parallel/parallel_pytorch.hpp"
#include <algorithm>
#include <functional>
#include <queue>
#include <utility>
#include "util/checked.hpp"
#include "util/errors.hpp"

namespace lab {

namespace {

struct RankShare {
  std::int64_t owned = 0, tensors = 0;  // elements and tensors (or slices) it updates
  std::int64_t last = 0, adam_elements = 0;  // the previous update's size; 2 * this + previous, at most
  void take(std::int64_t n) {
    owned = add(owned, n);
    tensors = add(tensors, 1);
    adam_elements = std::max(adam_elements, add(mul(2, n), last));
    last = n;
  }
};

// ZeroRedundancyOptimizer._partition_parameters: the parameters sorted by size, largest first (a
// stable sort), each given to the rank with the fewest elements so far (the lowest such rank); the
// rank's local optimizer then updates them in that order.
std::vector<RankShare> zero_redundancy_shares(const std::vector<std::int64_t>& order, std::int64_t ranks) {
  std::vector<std::int64_t> sorted = order;
  std::stable_sort(sorted.begin(), sorted.end(), std::greater<std::int64_t>());
  std::vector<RankShare> share(static_cast<std::size_t>(ranks));
  using Load = std::pair<std::int64_t, std::int64_t>;  // (elements so far, rank)
  std::priority_queue<Load, std::vector<Load>, std::greater<Load>> least;
  for (std::int64_t r = 0; r < ranks; ++r) least.push({0, r});
  for (const std::int64_t n : sorted) {
    const Load l = least.top();
    least.pop();
    share[static_cast<std::size_t>(l.second)].take(n);
    least.push({add(l.first, n), l.second});
  }
  return share;
}

// The flat sharded optimizer (FlatShardedOptimizer in the script): the parameters read as one vector
// in model.parameters() order; rank r owns elements [r*S, min((r+1)*S, total)), S = ceil(total / N),
// and updates the slice of each parameter its range overlaps, in that order.
std::vector<RankShare> flat_shares(const std::vector<std::int64_t>& order, std::int64_t ranks) {
  std::int64_t total = 0;
  for (const std::int64_t n : order) total = add(total, n);
  const std::int64_t S = std::max<std::int64_t>(1, (total + ranks - 1) / ranks);
  std::vector<RankShare> share(static_cast<std::size_t>(ranks));
  std::int64_t start = 0;
  for (const std::int64_t n : order) {
    for (std::int64_t r = start / S; r < ranks && r * S < start + n; ++r)
      share[static_cast<std::size_t>(r)].take(std::min(start + n, (r + 1) * S) - std::max(start, r * S));
    start += n;
  }
  return share;
}

std::int64_t state_vectors(Optimizer o) { return o == Optimizer::adam ? 2 : (o == Optimizer::momentum ? 1 : 0); }

struct RankCost {
  std::int64_t state = 0, temporary = 0;
};

RankCost cost_of(const Scenario& s, const RankShare& r, const ParallelKnobs& k, std::int64_t pe) {
  RankCost c;
  const bool flat = k.sharded_optimizer == ShardedOptimizer::flat;
  c.state = mul(state_vectors(s.optimizer), r.owned, pe);
  // 1.13's Adam keeps a 4-byte FP32 'step' tensor per parameter it updates (the flat optimizer: a
  // Python counter).
  if (!flat && s.optimizer == Optimizer::adam && s.framework.build == PytorchBuild::cpu_1_13) c.state = add(c.state, mul(4, r.tensors));
  if (s.optimizer != Optimizer::adam) return c;
  if (flat || s.framework.optimizer_impl == OptimizerImpl::per_parameter) c.temporary = mul(r.adam_elements, pe);
  else if (s.framework.optimizer_impl == OptimizerImpl::foreach)
    c.temporary = mul(s.framework.build == PytorchBuild::cpu_1_13 ? 2 : 1, r.owned, pe);
  return c;
}

// One phase on a rank: the buckets, the view, and (ZeRO-1) the rank's optimizer state and temporaries.
PhaseBytes on_rank(PhaseBytes t, const ParallelKnobs& k, std::int64_t G, const RankCost* c) {
  if (k.gradient_buckets == GradientBuckets::copy && k.data_parallel > 1) t.gradient_buckets = G;
  if (k.gradient_buckets == GradientBuckets::view && k.data_parallel > 1) t.gradients = G;
  if (c && t.optimizer_state > 0) t.optimizer_state = c->state;
  if (c && t.phase == "optimizer_step") t.transient = c->temporary;
  return t;
}

StepPhases rank_step(const Scenario& s, const StepPhases& one, const ParallelKnobs& k, std::int64_t G,
                     const RankCost* c) {
  StepPhases p = one;
  p.timeline.clear();
  const std::int64_t pe = s.precision == Precision::fp16 || s.precision == Precision::bf16 ? 2 : 4;
  for (const auto& t : one.timeline) {
    p.timeline.push_back(on_rank(t, k, G, c));
    if (t.phase != "backward_end" || k.data_parallel == 1) continue;  // one replica: no DDP, no all-reduce
    if (k.gradient_buckets == GradientBuckets::view && s.framework.zero_grad == ZeroGrad::set_to_none)
      p.timeline.back().transient = add(p.timeline.back().transient, mul(s.model.vocab, s.model.hidden, pe));
    if (k.gradient_buckets == GradientBuckets::none) {  // the all-reduce of each .grad, in place
      PhaseBytes sync = p.timeline.back();
      sync.phase = "grad_sync";
      sync.transient = 0;
      p.timeline.push_back(sync);
    }
  }
  if (c) p.optimizer_temporary_bytes = c->temporary;
  select_peak(s, p);
  return p;
}

}  // namespace

PytorchParallel pytorch_parallel(const Scenario& s, const EagerActivations& e, const ParallelKnobs& k) {
  PytorchParallel out;
  const StepPhases one = step_phases(s, e);
  const std::int64_t pe = s.precision == Precision::fp16 || s.precision == Precision::bf16 ? 2 : 4;
  const std::int64_t G = mul(count_parameters(s.model).total, pe);
  // One replica is not wrapped in DDP (as the textbook ledger counts it: no buckets, nothing to reduce).
  out.gradient_bucket_bytes = k.gradient_buckets == GradientBuckets::none || k.data_parallel == 1 ? 0 : G;
  const std::int64_t N = k.data_parallel;
  if (k.zero_stage == 0) {  // every rank the same
    out.phases = rank_step(s, one, k, G, nullptr);
    const std::int64_t listed = std::min(N, kListedRanks);
    for (std::int64_t r = 0; r < listed; ++r)
      out.ranks.push_back({r, count_parameters(s.model).total, one.parameter_tensors, one.timeline.back().optimizer_state,
                           one.optimizer_temporary_bytes, out.phases.allocator_peak_bytes, out.phases.peak_phase});
    return out;
  }
  const std::vector<std::int64_t> order = parameter_order(s, s.model.layers);
  const std::vector<RankShare> shares =
      k.sharded_optimizer == ShardedOptimizer::flat ? flat_shares(order, N) : zero_redundancy_shares(order, N);
  // A rank's peak rises with its state (every phase of a steady step) and its state plus temporaries
  // (the optimizer step), so the heaviest is the rank with the most state or the most of both.
  std::vector<RankCost> costs;
  std::size_t most_state = 0, most_both = 0;
  for (const auto& r : shares) {
    costs.push_back(cost_of(s, r, k, pe));
    const RankCost& c = costs.back();
    if (c.state > costs[most_state].state) most_state = costs.size() - 1;
    if (add(c.state, c.temporary) > add(costs[most_both].state, costs[most_both].temporary)) most_both = costs.size() - 1;
  }
  auto listing = [&](std::size_t r, const StepPhases& p) {
    return PytorchRank{static_cast<std::int64_t>(r), shares[r].owned, shares[r].tensors, costs[r].state, costs[r].temporary,
                       p.allocator_peak_bytes, p.peak_phase};
  };
  StepPhases a = rank_step(s, one, k, G, &costs[most_state]), b = rank_step(s, one, k, G, &costs[most_both]);
  const bool first = a.allocator_peak_bytes >= b.allocator_peak_bytes;
  out.heaviest_rank = static_cast<std::int64_t>(first ? most_state : most_both);
  out.phases = first ? std::move(a) : std::move(b);
  if (N > kListedRanks) {
    out.ranks.push_back(listing(static_cast<std::size_t>(out.heaviest_rank), out.phases));
    return out;
  }
  for (std::size_t r = 0; r < shares.size(); ++r) out.ranks.push_back(listing(r, rank_step(s, one, k, G, &costs[r])));
  return out;
}

PytorchParallel pytorch_parallel_ranks(const Scenario& s) {
  const ParallelKnobs& k = *s.parallel;
  const char* words = nullptr;
  const char* field = nullptr;
  if (k.zero_stage > 1) field = "parallel.zero_stage", words = "ZeRO stages 2 and 3 (FSDP) are not";
  else if (k.tensor_parallel > 1) field = "parallel.tensor_parallel", words = "tensor parallelism is not";
  else if (k.pipeline_parallel > 1) field = "parallel.pipeline_parallel", words = "pipeline parallelism is not";
  else if (k.micro_batches > 1) field = "parallel.micro_batches", words = "gradient accumulation (micro_batches > 1) is not";
  else if (s.framework.mode != StepMode::train) field = "mode", words = "a forward-only mode is not";
  if (field)
    throw InputError(field, std::string("framework \"pytorch\" with \"parallel\" models data parallelism: DDP (gradient_buckets "
                                        "copy, view or none) with zero_stage 0 or 1; ") + words +
                                " modelled: use framework \"textbook\" for it");
  Scenario one = s;
  one.parallel.reset();
  one.num_devices = 1;
  return pytorch_parallel(one, eager_activations(one), k);
}

MemoryLedger pytorch_parallel_ledger(const Scenario& s) {
  const PytorchParallel p = pytorch_parallel_ranks(s);
  Scenario one = s;
  one.parallel.reset();
  one.num_devices = 1;
  MemoryLedger m = compute_ledger(one);  // the replica's one-device ledger, then the heaviest rank's step
  const PytorchRank& r = p.ranks.size() == 1 ? p.ranks.front() : p.ranks[static_cast<std::size_t>(p.heaviest_rank)];
  m.per_device = true;
  m.phases = p.phases;
  if (s.parallel->zero_stage == 1) {  // each state vector of the parameters the rank owns (the timeline
    m.optimizer_state = 0;            // also counts 1.13's step tensors, as on one device)
    for (auto& v : m.optimizer_vectors) {
      v.bytes = mul(r.owned_parameters, m.per_param.per_optimizer_vector);
      m.optimizer_state = add(m.optimizer_state, v.bytes);
    }
  }
  m.gradient_buckets = p.gradient_bucket_bytes;
  if (s.parallel->gradient_buckets == GradientBuckets::view) m.gradient_buckets = 0;  // the gradients themselves
  m.static_bytes = add(m.weights, m.master_weights, m.gradients, m.optimizer_state);
  m.total_bytes = add(m.static_bytes, m.activations, m.logits, m.autocast_weight_cache, m.gradient_buckets, m.reserve);
  m.timeline.clear();
  for (const auto& t : m.phases.timeline) m.timeline.push_back({t.phase, add(t.total(), m.reserve)});
  m.peak_bytes = add(m.phases.allocator_peak_bytes, m.reserve);
  judge_fit(s, m);
  return m;
}

const char* to_string(ShardedOptimizer k) { return k == ShardedOptimizer::flat ? "flat" : "zero_redundancy"; }

}  // namespace lab
