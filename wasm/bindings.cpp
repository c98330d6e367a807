// WASM name table over the JSON facade (core/facade.hpp). Nothing else belongs here.
#include <emscripten/bind.h>
#include "facade.hpp"

EMSCRIPTEN_BINDINGS(lab_core) {
  emscripten::function("evaluate", &lab::facade::evaluate);
  emscripten::function("catalog", &lab::facade::catalog);
  emscripten::function("version", &lab::facade::version);
  emscripten::function("solve", &lab::facade::solve);
}
