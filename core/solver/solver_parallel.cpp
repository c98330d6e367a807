// "Fewest devices" (solver_parallel.hpp): a binary search per ZeRO stage for the least data-parallel
// degree whose heaviest device fits, the fewest over the stages, and the answer in words. The memory
// itself is the callback's (the parallel layer's); nothing here computes bytes.
#include "solver/solver_parallel.hpp"
#include "util/byte_text.hpp"

namespace lab {
namespace {

const char* stage_words(int stage) {
  switch (stage) {
    case 0: return "plain data parallelism (every device keeps all the weights, gradients and optimizer state)";
    case 1: return "ZeRO stage 1 (optimizer state sharded)";
    case 2: return "ZeRO stage 2 (optimizer state and gradients sharded)";
    default: return "ZeRO stage 3 (fully sharded: weights too)";
  }
}

StageDevices answer_at(int stage, std::int64_t n, const DeviceLoad& load, std::int64_t per_replica, bool fits) {
  StageDevices a;
  a.zero_stage = stage;
  a.peak_bytes_per_device = load.peak_bytes;
  if (fits) {
    a.data_parallel = n;
    a.devices = n * per_replica;
  }
  return a;
}

// Over the stages: the fewest devices, ties to the lowest stage (the loop meets it first).
void pick(FewestDevices& f) {
  for (const auto& s : f.by_stage) {
    if (!s.data_parallel || (f.found && s.devices >= f.devices)) continue;
    f.found = true;
    f.devices = s.devices;
    f.data_parallel = *s.data_parallel;
    f.zero_stage = s.zero_stage;
    f.peak_bytes_per_device = s.peak_bytes_per_device;
  }
}

}  // namespace

FewestDevices fewest_devices(const DeviceLoadFn& load, std::int64_t per_replica, std::int64_t max_n, int max_stage) {
  FewestDevices f;
  f.max_devices = max_n;
  auto at = [&](int stage, std::int64_t n) { ++f.evaluations; return load(stage, n); };
  for (int stage = 0; stage <= max_stage; ++stage) {
    const DeviceLoad one = at(stage, 1);
    if (one.fits || max_n == 1) {  // one device has no buckets or communication buffers: tried on its own
      f.by_stage.push_back(answer_at(stage, 1, one, per_replica, one.fits));
      continue;
    }
    const DeviceLoad top = at(stage, max_n);
    if (!top.fits) {  // not even at the limit: from N = 2 on memory never grows with N, so no N fits
      f.by_stage.push_back(answer_at(stage, max_n, top, per_replica, false));
      continue;
    }
    std::int64_t lo = 2, hi = max_n;  // invariant: hi fits; every N < lo does not
    DeviceLoad best = top;
    while (lo < hi) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      const DeviceLoad m = at(stage, mid);
      if (m.fits) { hi = mid; best = m; } else { lo = mid + 1; }
    }
    f.by_stage.push_back(answer_at(stage, hi, best, per_replica, true));
  }
  pick(f);
  return f;
}

FewestDevices fewest_devices_scan(const DeviceLoadFn& load, std::int64_t per_replica, std::int64_t max_n, int max_stage) {
  FewestDevices f;
  f.max_devices = max_n;
  for (int stage = 0; stage <= max_stage; ++stage) {
    DeviceLoad last;
    bool found = false;
    for (std::int64_t n = 1; n <= max_n && !found; ++n) {
      ++f.evaluations;
      last = load(stage, n);
      if (last.fits) {
        f.by_stage.push_back(answer_at(stage, n, last, per_replica, true));
        found = true;
      }
    }
    if (!found) f.by_stage.push_back(answer_at(stage, max_n, last, per_replica, false));
  }
  pick(f);
  return f;
}

std::string fewest_devices_text(const FewestDevices& f, const std::string& model, const std::string& device,
                                std::int64_t capacity) {
  const std::string of = " of its " + gb_text(capacity);
  if (!f.found) {
    const StageDevices& last = f.by_stage.back();
    return model + " does not fit on up to " + std::to_string(f.max_devices) + " data-parallel copies of " + device +
           " with any ZeRO stage searched: even with " + stage_words(last.zero_stage) + ", each device still needs " +
           gb_text(last.peak_bytes_per_device) + of + ".";
  }
  std::string text = "At the fewest, " + model + " trains on " + std::to_string(f.devices) + " × " + device + ", with " +
                     stage_words(f.zero_stage) + ": each holds " + gb_text(f.peak_bytes_per_device) + of + ".";
  if (f.zero_stage > 0 && !f.by_stage.front().data_parallel)
    text += " Plain data parallelism never fits: every device keeps a full copy of the model's state, so more devices do not shrink it.";
  return text;
}

}  // namespace lab
