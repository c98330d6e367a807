// WASM name table for verify_ledger alone (module lab_ledger): the design-ledger panel loads it when a
// ledger is imported, so the page's first load (lab_core) carries no ledger-verification code. It
// enables multi-device scenarios (`parallel`): verifying Act 3 re-computes them.
// Results cross the boundary as a byte view of one retained buffer, as in bindings.cpp.
#include <emscripten/bind.h>
#include <emscripten/val.h>
#include <string>
#include "facade/facade.hpp"
#include "facade/facade_parallel.hpp"

namespace {
std::string g_result;  // valid until the next call; the JS side copies it out immediately

emscripten::val verify_ledger(const std::string& ledger) {
  static const bool parallel = (lab::facade::enable_parallel(), true);  // first call: Act 3's record needs it
  (void)parallel;
  g_result = lab::facade::verify_ledger(ledger);
  return emscripten::val(emscripten::typed_memory_view(g_result.size(), reinterpret_cast<const unsigned char*>(g_result.data())));
}
}  // namespace

EMSCRIPTEN_BINDINGS(lab_ledger) {
  emscripten::function("verify_ledger", &verify_ledger);
  emscripten::function("version", &lab::facade::version);
}
