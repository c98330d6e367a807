// WASM name table for lab_scale: lab_core's evaluate, solve and catalog with multi-device scenarios
// (`parallel`) switched on. Act 3 loads it on demand, so the parallel physics stays out of the page's
// first load (lab_core). Results cross the boundary as a byte view of one retained buffer, as in bindings.cpp.
#include <emscripten/bind.h>
#include <emscripten/val.h>
#include <string>
#include "facade/facade.hpp"
#include "facade/facade_parallel.hpp"
#include "facade/facade_solve_parallel.hpp"

namespace {
std::string g_result;  // valid until the next call; the JS side copies it out immediately

emscripten::val as_view(std::string text) {
  g_result = std::move(text);
  return emscripten::val(emscripten::typed_memory_view(g_result.size(), reinterpret_cast<const unsigned char*>(g_result.data())));
}
// On the first call, not in a static initializer: the hook's own statics may not be set up yet then.
void enable() { static const bool done = (lab::facade::enable_parallel(), true); (void)done; }
emscripten::val evaluate(const std::string& request) { enable(); return as_view(lab::facade::evaluate(request)); }
emscripten::val solve(const std::string& request) { enable(); return as_view(lab::facade::solve_scale(request)); }  // + fewest_devices
emscripten::val catalog() { enable(); return as_view(lab::facade::catalog()); }
}  // namespace

EMSCRIPTEN_BINDINGS(lab_scale) {
  emscripten::function("evaluate", &evaluate);
  emscripten::function("solve", &solve);
  emscripten::function("catalog", &catalog);
  emscripten::function("version", &lab::facade::version);
}
