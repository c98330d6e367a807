// Placeholder for the PyTorch step-phase model of DDP and ZeRO-1 (parallel_pytorch.hpp): P replaces
// this body with the measured model.
#include "parallel/parallel_pytorch.hpp"
#include "util/errors.hpp"

namespace lab {

MemoryLedger pytorch_parallel_ledger(const Scenario&) {
  throw InputError("framework", "framework \"pytorch\" with \"parallel\" is not modelled yet; use framework \"textbook\"");
}

}  // namespace lab
