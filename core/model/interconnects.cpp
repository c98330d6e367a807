// Interconnect datasheet values, per direction and per GPU (a datasheet's "both directions" figure ÷ 2).
// Latencies are order-of-magnitude per-hop figures (NCCL's tuner models microseconds per ring step), not
// measurements: the bandwidth term dominates every collective the lab shows except the smallest buckets.
// Provenance strings are short: catalog() ships them in lab_core, the first load (core/parallel/README.md).
#include "model/interconnects.hpp"

namespace lab {

const std::vector<InterconnectSpec>& interconnect_catalog() {
  static const std::vector<InterconnectSpec> catalog = {
      {"nvlink3", "NVLink 3 (A100)", 300e9, 3e-6, false, "A100 datasheet: 600 GB/s NVLink both ways; ~3 us/hop"},
      {"nvlink4", "NVLink 4 (H100)", 450e9, 3e-6, false, "H100 SXM datasheet: 900 GB/s NVLink both ways; ~3 us/hop"},
      {"nvlink5", "NVLink 5 (B200)", 900e9, 3e-6, false, "Blackwell datasheet: 1.8 TB/s NVLink both ways; ~3 us/hop"},
      {"pcie4", "PCIe 4.0 x16", 31.5e9, 5e-6, false, "PCIe 4.0: 16 GT/s x 16 lanes x 128/130; ~5 us/hop"},
      {"pcie5", "PCIe 5.0 x16", 63e9, 5e-6, false, "PCIe 5.0: 32 GT/s x 16 lanes x 128/130; ~5 us/hop"},
      {"infiniband-hdr", "InfiniBand HDR", 25e9, 5e-6, false, "HDR: 200 Gb/s per GPU's adapter; ~5 us/hop"},
      {"infiniband-ndr", "InfiniBand NDR", 50e9, 5e-6, false, "NDR: 400 Gb/s per GPU's adapter; ~5 us/hop"},
      {"ethernet-100g", "Ethernet 100 Gb/s", 12.5e9, 10e-6, false, "100 Gb/s; ~10 us/hop (RoCE)"},
      {"ethernet-10g", "Ethernet 10 Gb/s", 1.25e9, 30e-6, false, "10 Gb/s; ~30 us/hop (TCP)"},
      {"ideal", "Free (ideal)", 0, 0, true, "a thought experiment: communication takes no time"},
  };
  return catalog;
}

const InterconnectSpec* find_interconnect(const std::string& id) {
  for (const auto& c : interconnect_catalog())
    if (id == c.id) return &c;
  return nullptr;
}

}  // namespace lab
