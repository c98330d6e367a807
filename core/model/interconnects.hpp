// The interconnect catalogue: per-direction bandwidth per GPU and a per-hop latency for the links a
// collective runs over (NVLink generations, PCIe, InfiniBand, Ethernet) and "ideal" (free). Pure data;
// the collectives that use them are in core/parallel/collectives.hpp.
#pragma once
#include <string>
#include <vector>

namespace lab {

// Trivially copyable (no std::string): every Scenario carries one inside its optional ParallelKnobs, and
// string members would add copy and destructor code wherever a Scenario is copied, in every module.
struct InterconnectSpec {
  const char* id = "custom";  // catalogue id, or "custom"
  char name[64] = {};         // a custom interconnect's name is at most 63 bytes
  double bytes_per_s = 0;    // per direction, per GPU (NCCL's "bus bandwidth" ceiling); 0 only when free
  double latency_s = 0;      // one hop of a ring step (α)
  bool free = false;         // "ideal": communication takes no time
  const char* provenance = "";
};

const std::vector<InterconnectSpec>& interconnect_catalog();
const InterconnectSpec* find_interconnect(const std::string& id);  // nullptr when unknown

}  // namespace lab
