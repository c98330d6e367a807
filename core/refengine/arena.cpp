// Tagged allocator: 64-byte aligned heap blocks of exactly the inventory's byte count, live-byte
// counters per category, and the per-phase samples (peak after the phase's allocations, live at its end).
#include "refengine/arena.hpp"
#include <new>
#include <stdexcept>

namespace lab::ref {

namespace {
constexpr std::align_val_t kAlign{64};
}

Arena::Arena(const Inventory& inv) : inv_(inv), ptr_(inv.tensors.size(), nullptr) {
  open_ = {"init", 0, {}};
  phase_open_ = true;
}

Arena::~Arena() {
  for (void* p : ptr_)
    if (p) ::operator delete(p, kAlign);
}

void Arena::close_phase() {
  if (!phase_open_) return;
  open_.live_end = live_;
  current_.timeline.push_back(open_);
  if (open_.phase == "init") {
    init_sample_ = open_;
    init_max_ = current_.max_by_category;
  }
  phase_open_ = false;
}

void Arena::begin_step() {
  close_phase();
  current_ = MemoryProfile{};
  current_.timeline.push_back(init_sample_);
  current_.max_by_category = init_max_;
  current_.peak_bytes = init_sample_.peak_bytes;
  current_.peak_phase = "init";
  current_.at_peak = init_sample_.live_end;  // nothing is freed in init: its peak is its end
}

void Arena::begin_phase(const std::string& name) {
  close_phase();
  const std::int64_t now = total(live_);
  open_ = {name, now, live_};
  phase_open_ = true;
}

Buf Arena::acquire(int id) {
  const TensorSpec& t = inv_.tensors.at(static_cast<std::size_t>(id));
  void*& p = ptr_[static_cast<std::size_t>(id)];
  if (p) throw std::logic_error("arena: '" + t.name + "' acquired while live");
  p = ::operator new(static_cast<std::size_t>(t.bytes), kAlign);
  ++acquisitions_;
  const auto c = static_cast<std::size_t>(t.category);
  live_[c] += t.bytes;
  if (live_[c] > current_.max_by_category[c]) current_.max_by_category[c] = live_[c];
  const std::int64_t now = total(live_);
  if (now > open_.peak_bytes) open_.peak_bytes = now;
  if (now > current_.peak_bytes) {
    current_.peak_bytes = now;
    current_.peak_phase = open_.phase;
    current_.at_peak = live_;
  }
  return {p, t.dtype, t.numel};
}

void Arena::release(int id) {
  const TensorSpec& t = inv_.tensors.at(static_cast<std::size_t>(id));
  void*& p = ptr_[static_cast<std::size_t>(id)];
  if (!p) throw std::logic_error("arena: '" + t.name + "' released while not live");
  ::operator delete(p, kAlign);
  p = nullptr;
  live_[static_cast<std::size_t>(t.category)] -= t.bytes;
}

Buf Arena::get(int id) const {
  const TensorSpec& t = inv_.tensors.at(static_cast<std::size_t>(id));
  void* p = ptr_[static_cast<std::size_t>(id)];
  if (!p) throw std::logic_error("arena: '" + t.name + "' used while not live");
  return {p, t.dtype, t.numel};
}

MemoryProfile Arena::profile() const {
  MemoryProfile m = current_;
  if (phase_open_) {
    PhaseMemory open = open_;
    open.live_end = live_;
    m.timeline.push_back(open);
  }
  return m;
}

}  // namespace lab::ref
