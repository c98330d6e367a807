// WASM name table over the JSON facade (core/facade/facade.hpp); verify_ledger has its own module
// (bindings_ledger.cpp), loaded only when a ledger is verified. Results cross the boundary as a byte view
// of one retained buffer, decoded by the JS side at once (web/src/engine/engine.js, scripts/engine-node.mjs):
// embind's std::string return scans every byte in JS twice, which cost more than evaluate itself.
#include <emscripten/bind.h>
#include <emscripten/val.h>
#include <string>
#include "facade/facade.hpp"

namespace {
std::string g_result;  // valid until the next call; the JS side copies it out immediately

emscripten::val as_view(std::string text) {
  g_result = std::move(text);
  return emscripten::val(emscripten::typed_memory_view(g_result.size(), reinterpret_cast<const unsigned char*>(g_result.data())));
}
emscripten::val evaluate(const std::string& request) { return as_view(lab::facade::evaluate(request)); }
emscripten::val solve(const std::string& request) { return as_view(lab::facade::solve(request)); }
emscripten::val catalog() { return as_view(lab::facade::catalog()); }
}  // namespace

EMSCRIPTEN_BINDINGS(lab_core) {
  emscripten::function("evaluate", &evaluate);
  emscripten::function("solve", &solve);
  emscripten::function("catalog", &catalog);
  emscripten::function("version", &lab::facade::version);
}
