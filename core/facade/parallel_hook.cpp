// The slot for the multi-device hooks (facade_parallel.hpp). Kept apart from facade_parallel.cpp so that
// a module that never calls enable_parallel() links none of core/parallel/.
#include "facade/facade_parallel.hpp"

namespace lab::facade {
namespace {
const ParallelHooks*& slot() {
  static const ParallelHooks* hooks = nullptr;
  return hooks;
}
}  // namespace

const ParallelHooks* parallel_hooks() { return slot(); }
void set_parallel_hooks(const ParallelHooks* hooks) { slot() = hooks; }

}  // namespace lab::facade
