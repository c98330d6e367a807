// Every collective of one step on one device, its bytes, seconds and the part overlap cannot hide.
//   gradients  stage 0: ring all-reduce of the gradients in DDP buckets (ceil(bytes / bucket_bytes) calls);
//              stages 1-2: reduce-scatter in buckets (ZeRO: 2Ψ with the parameter all-gather below);
//              stage 3: reduce-scatter per unit per micro-batch (FSDP without no_sync)
//   parameters stages 1-2: all-gather of the updated 16-bit weights after the optimizer (exposed);
//              stage 3: all-gather per unit in forward and again in backward (ZeRO: 3Ψ with the above)
//   tensor_parallel  Megatron: 2 all-reduces in forward + 2 in backward per layer per micro-batch of
//              b·s·h elements; with sequence parallelism each becomes an all-gather + reduce-scatter
//   pipeline   point-to-point of b·s·h/t elements per micro-batch, forward and backward (Megatron's
//              scatter/gather split across the t ranks)
// Overlap (when `overlap`): gradient buckets hide behind the last micro-batch's backward except the last
// bucket; ZeRO-3's all-gathers hide behind one unit's compute (FSDP's prefetch) except the first of each pass;
// tensor-parallel, pipeline and stage 1-2 parameter traffic is exposed.
#include <algorithm>
#include <cmath>
#include "memory/activations.hpp"
#include "memory/memory.hpp"
#include "parallel/step_time.hpp"
#include "util/checked.hpp"

namespace lab {

namespace {

struct Calls {
  std::int64_t calls;
  double buffer_bytes;  // one call's buffer
};

// `groups` equal rounds of `per_group` calls; within a round the calls hide behind `window_s` of compute
// except the last one (gradients) or the first one (prefetched gathers): the same count either way.
CollectiveCost cost(CollectiveKind kind, const char* purpose, std::int64_t groups, Calls per_group, std::int64_t ranks,
                    const InterconnectSpec& link, bool hideable, double window_s) {
  CollectiveCost c;
  c.kind = kind;
  c.purpose = purpose;
  c.calls = groups * per_group.calls;
  const double one_call = collective_seconds(kind, per_group.buffer_bytes, ranks, link);
  c.bytes = static_cast<double>(c.calls) * wire_bytes(kind, per_group.buffer_bytes, ranks);
  c.seconds = static_cast<double>(c.calls) * one_call;
  const double per_group_s = static_cast<double>(per_group.calls) * one_call;
  const double exposed_per_group = hideable ? one_call + std::max(0.0, per_group_s - one_call - window_s) : per_group_s;
  c.exposed_seconds = static_cast<double>(groups) * exposed_per_group;
  return c;
}

// ceil(bytes / bucket_bytes) calls, in doubles: a 2^60-byte gradient must not overflow a cast (capped at 2^53).
Calls buckets(double bytes, std::int64_t bucket_bytes) {
  const double n = std::min(std::max(1.0, std::ceil(bytes / static_cast<double>(bucket_bytes))), 9007199254740992.0);
  return {static_cast<std::int64_t>(n), bytes / n};
}

// FSDP units: one per block, and a root unit for what else the stage holds (embeddings, final norm, head).
std::int64_t units(const StageLayout& l) {
  return l.layers + (l.embedding_parameters + l.head_parameters > 0 ? 1 : 0);
}

}  // namespace

std::vector<CollectiveCost> step_collectives(const Scenario& s, const StageLayout& l, const DeviceCompute& c) {
  const ParallelKnobs& k = *s.parallel;
  const BytesPerParam b = bytes_per_param(s.precision, s.optimizer, s.convention);
  const auto& link = k.interconnect;
  const std::int64_t N = k.data_parallel, m = k.micro_batches;
  const double psi = static_cast<double>(l.parameters);
  const double gradient_bytes = psi * static_cast<double>(b.gradients), weight_bytes = psi * static_cast<double>(b.weights);
  std::vector<CollectiveCost> out;
  if (N > 1) {
    if (k.zero_stage <= 2) {
      const auto kind = k.zero_stage == 0 ? CollectiveKind::all_reduce : CollectiveKind::reduce_scatter;
      out.push_back(cost(kind, "gradients", 1, buckets(gradient_bytes, k.bucket_bytes), N, link, k.overlap, c.backward_s));
      if (k.zero_stage > 0) {
        out.push_back(cost(CollectiveKind::all_gather, "parameters", 1, buckets(weight_bytes, k.bucket_bytes), N, link, false, 0));
        out.back().after_optimizer = true;
      }
    } else {
      const std::int64_t u = units(l);
      const double unit_weights = weight_bytes / static_cast<double>(u);
      const CollectiveCost forward = cost(CollectiveKind::all_gather, "parameters", m, {u, unit_weights}, N, link, false, 0);
      CollectiveCost gathers = cost(CollectiveKind::all_gather, "parameters", 2 * m, {u, unit_weights}, N, link, false, 0);
      if (k.overlap) {
        // FSDP prefetches one unit ahead: each gather but the first of a pass hides behind one unit's compute.
        const double one = forward.seconds / static_cast<double>(forward.calls), rest = static_cast<double>(u - 1);
        const double per_unit_forward = c.forward_s / static_cast<double>(u), per_unit_backward = c.backward_s / static_cast<double>(u);
        gathers.exposed_seconds = static_cast<double>(m) * (2 * one + rest * (std::max(0.0, one - per_unit_forward) +
                                                                             std::max(0.0, one - per_unit_backward)));
      }
      out.push_back(gathers);
      out.push_back(cost(CollectiveKind::reduce_scatter, "gradients", m, {u, gradient_bytes / static_cast<double>(u)}, N, link,
                         k.overlap, c.backward_s));
    }
  }
  const double activation_bytes = static_cast<double>(mul(activation_element_bytes(s.precision), s.batch_size, s.seq_len, s.model.hidden));
  const std::int64_t t = k.tensor_parallel;
  if (t > 1) {
    const std::int64_t per_micro_batch = 4 * l.layers;
    if (k.sequence_parallel) {
      out.push_back(cost(CollectiveKind::all_gather, "tensor_parallel", m, {per_micro_batch, activation_bytes}, t, link, false, 0));
      out.push_back(cost(CollectiveKind::reduce_scatter, "tensor_parallel", m, {per_micro_batch, activation_bytes}, t, link, false, 0));
    } else {
      out.push_back(cost(CollectiveKind::all_reduce, "tensor_parallel", m, {per_micro_batch, activation_bytes}, t, link, false, 0));
    }
  }
  if (k.pipeline_parallel > 1)
    out.push_back(cost(CollectiveKind::point_to_point, "pipeline", m, {2, activation_bytes / static_cast<double>(t)}, 2, link, false, 0));
  return out;
}

double data_parallel_sync_s(const Scenario& s, const StageLayout& l) {
  const ParallelKnobs& k = *s.parallel;
  const double bytes = static_cast<double>(l.parameters) * static_cast<double>(bytes_per_param(s.precision, s.optimizer, s.convention).gradients);
  const Calls c = buckets(bytes, k.bucket_bytes);
  return static_cast<double>(c.calls) * collective_seconds(CollectiveKind::all_reduce, c.buffer_bytes, k.data_parallel, k.interconnect);
}

double fully_sharded_sync_s(const Scenario& s, const StageLayout& l) {
  const ParallelKnobs& k = *s.parallel;
  const BytesPerParam b = bytes_per_param(s.precision, s.optimizer, s.convention);
  const std::int64_t u = units(l);
  const double psi_unit = static_cast<double>(l.parameters) / static_cast<double>(u);
  const double gather = collective_seconds(CollectiveKind::all_gather, psi_unit * static_cast<double>(b.weights), k.data_parallel, k.interconnect);
  const double scatter = collective_seconds(CollectiveKind::reduce_scatter, psi_unit * static_cast<double>(b.gradients), k.data_parallel, k.interconnect);
  return static_cast<double>(u) * (2 * gather + scatter);
}

}  // namespace lab
