// Device catalog: capacities as driver-reported bytes and dense (not sparse) peaks.
#include <doctest/doctest.h>
#include "model/devices.hpp"

using namespace lab;

TEST_CASE("capacities are the bytes the driver reports") {
  CHECK(find_device("h100-sxm-80gb")->capacity_bytes == 81'559LL * 1024 * 1024);
  CHECK(find_device("v100-sxm2-32gb")->capacity_bytes == 32LL * 1024 * 1024 * 1024);
  CHECK(find_device("rtx4060-laptop-8gb")->capacity_bytes < 8'600'000'000LL);
}

TEST_CASE("every catalog device has positive dense peaks, bandwidths and a provenance note") {
  for (const auto& d : device_catalog()) {
    CHECK(d.peak_fp32_flops_per_s > 0);
    CHECK(d.peak_fp16_flops_per_s >= d.peak_fp32_flops_per_s);
    CHECK(d.hbm_bytes_per_s > 0);
    CHECK(d.host_link_bytes_per_s > 0);
    CHECK(std::string(d.provenance).size() > 40);
  }
  CHECK(find_device("h100-sxm-80gb")->peak_fp16_flops_per_s < 1.0e15);  // 989.5 dense, not 1,979 sparse
}

TEST_CASE("the T4 (free notebook services) has its datasheet figures and no BF16") {
  const DeviceSpec* t4 = find_device("t4-16gb");
  REQUIRE(t4 != nullptr);
  CHECK(t4->capacity_bytes == 15'360LL * 1024 * 1024);  // nvidia-smi's 15,360 MiB
  CHECK(t4->peak_fp32_flops_per_s == 8.1e12);
  CHECK(t4->peak_fp16_flops_per_s == 65e12);
  CHECK(t4->peak_bf16_flops_per_s == 0);
  CHECK(t4->hbm_bytes_per_s == 320e9);
}
