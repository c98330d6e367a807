// Accelerator catalog: capacity as the bytes the driver reports, dense peak FLOP/s per precision,
// HBM and host-link bandwidth, each with a datasheet provenance. Pure data; no I/O.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lab {

struct DeviceSpec {
  std::string id;
  std::string name;
  std::int64_t capacity_bytes = 0;        // as reported by the driver (nvidia-smi total)
  double peak_fp32_flops_per_s = 0;       // plain FP32 (PyTorch's default matmul, TF32 off)
  double peak_fp16_flops_per_s = 0;       // dense 16-bit tensor core, FP32 accumulate
  double peak_bf16_flops_per_s = 0;       // 0 = not supported by the hardware
  double hbm_bytes_per_s = 0;             // device memory bandwidth
  double host_link_bytes_per_s = 0;       // host→device link (PCIe generation × lanes)
  double tdp_watts = 0;
  const char* provenance = "";  // static text: copying specs must stay cheap (evaluate hot path)
};

const std::vector<DeviceSpec>& device_catalog();
const DeviceSpec* find_device(const std::string& id);  // nullptr when unknown

}  // namespace lab
