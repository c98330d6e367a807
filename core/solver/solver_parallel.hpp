// "Fewest devices": for ZeRO stages 0-3, the least data-parallel degree N in 1..max_devices whose
// heaviest device fits, and over the stages the fewest devices (ties to the lower stage: it
// communicates less). The per-device peak comes from a callback (the parallel layer's memory, reached
// through the facade's hook), so this file holds only the search. Next layer: facade_solve_parallel.cpp.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace lab {

// One device's peak at data_parallel = n under ZeRO stage `zero_stage`, with everything else fixed.
struct DeviceLoad {
  std::int64_t peak_bytes = 0;
  bool fits = false;  // the device's capacity holds the peak (and the configuration can train)
};
using DeviceLoadFn = std::function<DeviceLoad(int zero_stage, std::int64_t data_parallel)>;

struct StageDevices {
  int zero_stage = 0;
  std::optional<std::int64_t> data_parallel;  // the least N that fits; none up to the limit
  std::int64_t devices = 0;                   // N × devices per replica (0 when none)
  std::int64_t peak_bytes_per_device = 0;     // at that N, or at the limit when none fits
};

struct FewestDevices {
  bool found = false;
  std::int64_t devices = 0, data_parallel = 0;
  int zero_stage = 0;
  std::int64_t peak_bytes_per_device = 0;
  std::vector<StageDevices> by_stage;  // stages 0, 1, 2, 3
  std::int64_t max_devices = 1024;     // the largest data-parallel degree searched
  std::int64_t evaluations = 0;        // calls of the load function
};

inline constexpr std::int64_t kMaxDataParallel = 1024;

// N = 1 first (one device: no gradient buckets, no communication), then a binary search over 2..max:
// from two devices on, a device's memory never grows with N (stages 1-3 shard model states over N;
// stage 0 replicates them, so it is constant), so "fits" is false up to some N and true after.
// tests/core/facade/test_facade_solve_parallel.cpp checks that on the engine against a scan of every N.
// devices_per_replica = tensor_parallel × pipeline_parallel.
// max_stage: the highest ZeRO stage searched (framework "pytorch" models stages 0 and 1 only).
FewestDevices fewest_devices(const DeviceLoadFn& load, std::int64_t devices_per_replica,
                             std::int64_t max_data_parallel = kMaxDataParallel, int max_stage = 3);
// The same answer by trying every N (for tests: the proof that the search above misses nothing).
FewestDevices fewest_devices_scan(const DeviceLoadFn& load, std::int64_t devices_per_replica,
                                  std::int64_t max_data_parallel = kMaxDataParallel, int max_stage = 3);

// The answer in a student's words ("At the fewest, GPT-2 XL trains on 4 × NVIDIA GeForce RTX 4060 Laptop 8 GB, ...").
std::string fewest_devices_text(const FewestDevices& f, const std::string& model_name, const std::string& device_name,
                                std::int64_t device_capacity_bytes);

}  // namespace lab
