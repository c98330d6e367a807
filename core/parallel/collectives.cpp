// The ring cost model (collectives.hpp has the formulas and their sources).
#include "parallel/collectives.hpp"

namespace lab {

const char* to_string(CollectiveKind k) {
  switch (k) {
    case CollectiveKind::all_reduce: return "all_reduce";
    case CollectiveKind::reduce_scatter: return "reduce_scatter";
    case CollectiveKind::all_gather: return "all_gather";
    case CollectiveKind::point_to_point: return "point_to_point";
  }
  return "?";
}

double wire_bytes(CollectiveKind k, double buffer_bytes, std::int64_t ranks) {
  if (k == CollectiveKind::point_to_point) return buffer_bytes;
  const double n = static_cast<double>(ranks);
  const double share = (n - 1) / n;
  return (k == CollectiveKind::all_reduce ? 2 * share : share) * buffer_bytes;
}

std::int64_t ring_steps(CollectiveKind k, std::int64_t ranks) {
  if (k == CollectiveKind::point_to_point) return 1;
  return (k == CollectiveKind::all_reduce ? 2 : 1) * (ranks - 1);
}

double collective_seconds(CollectiveKind k, double buffer_bytes, std::int64_t ranks, const InterconnectSpec& link) {
  if (link.free || (ranks <= 1 && k != CollectiveKind::point_to_point)) return 0;
  return wire_bytes(k, buffer_bytes, ranks) / link.bytes_per_s + static_cast<double>(ring_steps(k, ranks)) * link.latency_s;
}

}  // namespace lab
