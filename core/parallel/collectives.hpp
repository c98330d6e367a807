// Ring collectives over an interconnect (Patarasuk & Yuan 2009; NCCL's performance notes, "algbw vs
// busbw"). For a buffer of S bytes over n ranks, each rank sends (and receives):
//   all-reduce                  2(n-1)/n · S bytes in 2(n-1) ring steps
//   reduce-scatter, all-gather   (n-1)/n · S bytes in  (n-1) ring steps
//   point-to-point               S bytes in one step (a pipeline stage boundary)
// time = bytes sent / B + steps · α, with B the link's per-direction bandwidth per GPU and α its
// per-step latency. NCCL reports algbw = S / time and busbw = algbw · 2(n-1)/n (all-reduce) or
// algbw · (n-1)/n (reduce-scatter, all-gather): busbw is what compares with B.
#pragma once
#include <cstdint>
#include "model/interconnects.hpp"

namespace lab {

enum class CollectiveKind { all_reduce, reduce_scatter, all_gather, point_to_point };
const char* to_string(CollectiveKind k);

double wire_bytes(CollectiveKind k, double buffer_bytes, std::int64_t ranks);
std::int64_t ring_steps(CollectiveKind k, std::int64_t ranks);
// One call's seconds: 0 over a free link or with one rank (a point-to-point always moves its bytes).
double collective_seconds(CollectiveKind k, double buffer_bytes, std::int64_t ranks, const InterconnectSpec& link);

}  // namespace lab
