// Device datasheet values. Never sparse peaks: "dense" means the datasheet's sparse figure ÷ 2.
#include "model/devices.hpp"

namespace lab {
namespace {
constexpr std::int64_t MiB = 1024LL * 1024LL;
}  // namespace

const std::vector<DeviceSpec>& device_catalog() {
  static const std::vector<DeviceSpec> catalog = {
      {"v100-sxm2-32gb", "NVIDIA V100 SXM2 32 GB", 32768 * MiB, 15.7e12, 125e12, 0, 900e9,
       15.75e9, 300,
       "NVIDIA V100 datasheet (SXM2): 15.7 TFLOP/s FP32, 125 TFLOP/s tensor FP16, 900 GB/s HBM2, "
       "32 GiB (the chapter's '32 GB' is 32 GiB), no BF16; PCIe Gen3 x16 15.75 GB/s; 300 W"},
      {"a100-sxm4-40gb", "NVIDIA A100 SXM4 40 GB", 40960 * MiB, 19.5e12, 312e12, 312e12,
       1555e9, 31.5e9, 400,
       "NVIDIA A100 datasheet: 19.5 TFLOP/s FP32, 312 dense FP16/BF16 tensor, 1,555 GB/s HBM2; "
       "nvidia-smi reports 40,960 MiB; PCIe Gen4 x16 31.5 GB/s; 400 W"},
      {"a100-sxm4-80gb", "NVIDIA A100 SXM4 80 GB", 81920 * MiB, 19.5e12, 312e12, 312e12,
       2039e9, 31.5e9, 400,
       "NVIDIA A100 80GB datasheet: 19.5 TFLOP/s FP32, 312 dense FP16/BF16 tensor, 2,039 GB/s "
       "HBM2e; nvidia-smi reports 81,920 MiB; PCIe Gen4 x16 31.5 GB/s; 400 W"},
      {"h100-sxm-80gb", "NVIDIA H100 SXM 80 GB", 81559 * MiB, 66.9e12, 989.5e12, 989.5e12,
       3350e9, 63e9, 700,
       "NVIDIA H100 datasheet (SXM5): 67 TFLOP/s FP32, 1,979 TFLOP/s FP16/BF16 with sparsity = "
       "989.5 dense, 3.35 TB/s HBM3; nvidia-smi reports 81,559 MiB; PCIe Gen5 x16 63 GB/s; 700 W"},
      {"rtx4090-24gb", "NVIDIA GeForce RTX 4090 24 GB", 24564 * MiB, 82.6e12, 165.2e12,
       165.2e12, 1008e9, 31.5e9, 450,
       "NVIDIA Ada Lovelace whitepaper (RTX 4090): 82.6 TFLOP/s FP32, 165.2 dense FP16/BF16 "
       "tensor with FP32 accumulate, 1,008 GB/s GDDR6X; nvidia-smi reports 24,564 MiB; PCIe Gen4 "
       "x16; 450 W"},
      {"rtx4060-laptop-8gb", "NVIDIA GeForce RTX 4060 Laptop 8 GB", 8188 * MiB, 14.6e12,
       29.1e12, 29.1e12, 256e9, 15.75e9, 115,
       "NVIDIA RTX 4060 Laptop spec: 3,072 CUDA cores at up to 2.37 GHz = 14.6 TFLOP/s FP32; "
       "tensor FP16/BF16 with FP32 accumulate 2x FP32 as on other Ada GeForce parts = 29.1 "
       "(derived, not a datasheet line); 256 GB/s (128-bit GDDR6); nvidia-smi reports 8,188 MiB; "
       "PCIe Gen4 x8 15.75 GB/s; up to 115 W"},
      {"t4-16gb", "NVIDIA T4 16 GB", 15360 * MiB, 8.1e12, 65e12, 0, 320e9, 15.75e9, 70,
       "NVIDIA T4 datasheet: 8.1 TFLOP/s FP32, 65 TFLOP/s FP16 tensor (Turing: no sparsity, no BF16), "
       "320 GB/s GDDR6; nvidia-smi reports 15,360 MiB; PCIe Gen3 x16 15.75 GB/s; 70 W"},
  };
  return catalog;
}

// As find_model: a linear search of a catalogue of a few entries (a shared template would save
// three lines).
const DeviceSpec* find_device(const std::string& id) {
  for (const auto& d : device_catalog())
    if (d.id == id) return &d;
  return nullptr;
}

}  // namespace lab
