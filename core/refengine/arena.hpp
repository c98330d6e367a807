// The tagged allocator: the only way the reference engine gets memory. Each buffer is a row of the
// inventory (so its size, type and category come from the table); the arena counts live bytes per
// category as buffers are acquired and released, and samples them phase by phase: the *measured*
// side of "prediction == measurement". Accessing a buffer that is not live throws.
#pragma once
#include <string>
#include <vector>
#include "refengine/inventory.hpp"

namespace lab::ref {

class Arena {
 public:
  explicit Arena(const Inventory& inv);
  ~Arena();
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;

  // Phase markers. "init" is open from construction; begin_step() starts a fresh step profile
  // (the init sample, then the step's phases as they are entered).
  void begin_step();
  void begin_phase(const std::string& name);

  Buf acquire(int id);
  Buf acquire(const std::string& name) { return acquire(inv_.find(name)); }
  void release(int id);
  void release(const std::string& name) { release(inv_.find(name)); }
  Buf get(int id) const;
  Buf get(const std::string& name) const { return get(inv_.find(name)); }
  bool live(int id) const { return ptr_[static_cast<std::size_t>(id)] != nullptr; }

  // Measured profile of init + the current (or last) step, in the same shape as predict_memory().
  MemoryProfile profile() const;
  const CategoryBytes& live_bytes() const { return live_; }
  std::int64_t acquisitions() const { return acquisitions_; }

 private:
  void close_phase();
  const Inventory& inv_;
  std::vector<void*> ptr_;
  CategoryBytes live_{};
  MemoryProfile current_;         // being filled
  PhaseMemory open_;              // the phase in progress
  bool phase_open_ = false;
  PhaseMemory init_sample_;       // kept for every later step profile
  CategoryBytes init_max_{};
  std::int64_t acquisitions_ = 0;
};

}  // namespace lab::ref
