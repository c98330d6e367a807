// Ring collectives against their bandwidth-latency formulas (collectives.hpp; NCCL's busbw definitions).
#include <doctest/doctest.h>
#include "parallel/collectives.hpp"

using namespace lab;

namespace {
InterconnectSpec link(double bytes_per_s, double latency_s) { return {"test", "a test link", bytes_per_s, latency_s, false, ""}; }
}  // namespace

TEST_CASE("a ring all-reduce takes 2(N-1)/N * S/B + 2(N-1) * alpha") {
  const InterconnectSpec l = link(100e9, 5e-6);
  for (std::int64_t n : {2, 3, 8, 64, 1024})
    for (double bytes : {1e3, 25.0 * 1024 * 1024, 3.1e9}) {
      const double nn = static_cast<double>(n);
      CHECK(collective_seconds(CollectiveKind::all_reduce, bytes, n, l) == doctest::Approx(2 * (nn - 1) / nn * bytes / 100e9 + 2 * (nn - 1) * 5e-6));
      CHECK(collective_seconds(CollectiveKind::reduce_scatter, bytes, n, l) == doctest::Approx((nn - 1) / nn * bytes / 100e9 + (nn - 1) * 5e-6));
      CHECK(collective_seconds(CollectiveKind::all_gather, bytes, n, l) == doctest::Approx((nn - 1) / nn * bytes / 100e9 + (nn - 1) * 5e-6));
    }
}

TEST_CASE("an all-reduce is a reduce-scatter then an all-gather: the same bytes and steps") {
  for (std::int64_t n : {2, 5, 16}) {
    CHECK(wire_bytes(CollectiveKind::all_reduce, 1e9, n) ==
          doctest::Approx(wire_bytes(CollectiveKind::reduce_scatter, 1e9, n) + wire_bytes(CollectiveKind::all_gather, 1e9, n)));
    CHECK(ring_steps(CollectiveKind::all_reduce, n) == 2 * ring_steps(CollectiveKind::all_gather, n));
  }
}

TEST_CASE("NCCL's bus bandwidth of a bandwidth-bound all-reduce equals the link's B") {
  const InterconnectSpec l = link(450e9, 0);
  const double bytes = 1e9;
  const std::int64_t n = 8;
  const double algbw = bytes / collective_seconds(CollectiveKind::all_reduce, bytes, n, l);
  CHECK(algbw * 2 * 7 / 8 == doctest::Approx(450e9));
}

TEST_CASE("one rank or a free link costs nothing; a point-to-point moves its bytes once") {
  CHECK(collective_seconds(CollectiveKind::all_reduce, 1e9, 1, link(1e9, 1e-5)) == 0);
  InterconnectSpec free = link(0, 0);
  free.free = true;
  CHECK(collective_seconds(CollectiveKind::all_reduce, 1e9, 64, free) == 0);
  CHECK(collective_seconds(CollectiveKind::point_to_point, 1e9, 2, link(1e9, 1e-5)) == doctest::Approx(1.0 + 1e-5));
}
