// "Fewest devices" (core/solver/solver_parallel.cpp): the binary search per ZeRO stage gives what a scan
// of every N gives, ties go to the lower stage, and the sentence says what was found. The engine's own
// per-device memory is checked in tests/core/facade/test_facade_solve_parallel.cpp.
#include <doctest/doctest.h>
#include "solver/solver_parallel.hpp"

using namespace lab;

namespace {

// A device of `capacity` bytes holding `replicated` bytes plus `shardable` bytes split over N by the
// stages that shard them (stage s shards the first s of three equal parts, as ZeRO's stages add
// optimizer state, gradients, weights in turn).
DeviceLoadFn toy(std::int64_t capacity, std::int64_t replicated, std::int64_t part) {
  return [=](int stage, std::int64_t n) {
    std::int64_t bytes = replicated;
    for (int k = 0; k < 3; ++k) bytes += k < stage ? (part + n - 1) / n : part;
    return DeviceLoad{bytes, bytes <= capacity};
  };
}

void check_same(const FewestDevices& a, const FewestDevices& b) {
  REQUIRE(a.by_stage.size() == 4);
  REQUIRE(b.by_stage.size() == 4);
  CHECK(a.found == b.found);
  CHECK(a.devices == b.devices);
  CHECK(a.zero_stage == b.zero_stage);
  CHECK(a.peak_bytes_per_device == b.peak_bytes_per_device);
  for (int s = 0; s < 4; ++s) {
    CHECK(a.by_stage[s].data_parallel == b.by_stage[s].data_parallel);
    CHECK(a.by_stage[s].devices == b.by_stage[s].devices);
    CHECK(a.by_stage[s].peak_bytes_per_device == b.by_stage[s].peak_bytes_per_device);
  }
}

}  // namespace

TEST_CASE("the binary search finds what a scan of every N finds, for capacities from tight to roomy") {
  for (std::int64_t capacity : {1, 100, 150, 201, 250, 301, 333, 400, 1000, 5000}) {
    CAPTURE(capacity);
    const DeviceLoadFn load = toy(capacity, 100, 1000);
    const FewestDevices fast = fewest_devices(load, 1);
    const FewestDevices scan = fewest_devices_scan(load, 1);
    check_same(fast, scan);
    CHECK(fast.evaluations <= 4 * 13);  // N = 1, the limit, and log2(1024) halvings per stage
  }
}

TEST_CASE("stage 0 never fits when the replicated state alone is too large; stage 3 fits at ceil(parts / room)") {
  // capacity 400: stage 3 needs 100 + 3 * ceil(1000 / N) <= 400, i.e. ceil(1000 / N) <= 100: N = 10.
  const FewestDevices f = fewest_devices(toy(400, 100, 1000), 1);
  CHECK_FALSE(f.by_stage[0].data_parallel.has_value());
  CHECK(f.by_stage[0].devices == 0);
  CHECK(f.by_stage[0].peak_bytes_per_device == 3100);  // at the limit: what the device would need
  CHECK_FALSE(f.by_stage[1].data_parallel.has_value());  // 100 + 2000 + ceil(1000/N) > 400 always
  CHECK_FALSE(f.by_stage[2].data_parallel.has_value());  // 100 + 1000 + ... > 400 always
  REQUIRE(f.by_stage[3].data_parallel.has_value());
  CHECK(*f.by_stage[3].data_parallel == 10);
  CHECK(f.found);
  CHECK(f.devices == 10);
  CHECK(f.zero_stage == 3);
  CHECK(f.peak_bytes_per_device == 400);
}

TEST_CASE("one device is tried on its own: it fits even where two, each with a bucket copy, would not") {
  // 300 bytes at N = 1; from N = 2 a 150-byte buffer appears and sharding never wins it back.
  const DeviceLoadFn load = [](int stage, std::int64_t n) {
    const std::int64_t bytes = n == 1 ? 300 : 450 - (stage == 3 ? 100 - 100 / n : 0);
    return DeviceLoad{bytes, bytes <= 300};
  };
  const FewestDevices fast = fewest_devices(load, 1);
  check_same(fast, fewest_devices_scan(load, 1));
  CHECK(fast.devices == 1);
  CHECK(fast.zero_stage == 0);
}

TEST_CASE("a device count is N times the devices of one replica (tensor x pipeline parallel)") {
  const FewestDevices f = fewest_devices(toy(400, 100, 1000), 8);
  CHECK(f.data_parallel == 10);
  CHECK(f.devices == 80);
  CHECK(f.by_stage[3].devices == 80);
}

TEST_CASE("ties go to the lowest stage: one device fits every stage, so the answer is stage 0") {
  const FewestDevices f = fewest_devices(toy(5000, 100, 1000), 1);
  for (const auto& s : f.by_stage) CHECK(s.data_parallel == 1);
  CHECK(f.devices == 1);
  CHECK(f.zero_stage == 0);
}

TEST_CASE("nothing fits up to the limit: not found, and the sentence says so with the fully sharded need") {
  const FewestDevices f = fewest_devices(toy(50, 100, 1000), 1);
  CHECK_FALSE(f.found);
  for (const auto& s : f.by_stage) CHECK_FALSE(s.data_parallel.has_value());
  const std::string text = fewest_devices_text(f, "Model", "Device", 50);
  CHECK(text.find("does not fit on up to 1024") != std::string::npos);
  CHECK(text.find("0.00 GB") != std::string::npos);
}

TEST_CASE("the sentence names the count, the stage and that plain data parallelism never fits") {
  const FewestDevices f = fewest_devices(toy(4'000'000'000, 1'000'000'000, 10'000'000'000), 1);
  const std::string text = fewest_devices_text(f, "GPT-2 XL", "NVIDIA GeForce RTX 4060 Laptop 8 GB", 4'000'000'000);
  CAPTURE(text);
  CHECK(f.zero_stage == 3);
  CHECK(text.find("At the fewest, GPT-2 XL trains on " + std::to_string(f.devices) + " × NVIDIA GeForce RTX 4060 Laptop 8 GB") == 0);
  CHECK(text.find("ZeRO stage 3") != std::string::npos);
  CHECK(text.find("Plain data parallelism never fits") != std::string::npos);
}
