// WASM name table for the reference training engine module (lab_train), used by the "Measure it"
// Web Worker. The facade lives in core/facade/facade_train.hpp; nothing else belongs here.
#include <emscripten/bind.h>
#include "facade/facade.hpp"
#include "facade/facade_train.hpp"

EMSCRIPTEN_BINDINGS(lab_train) {
  emscripten::function("train", &lab::facade::train);
  emscripten::function("version", &lab::facade::version);
  emscripten::class_<lab::facade::TrainSession>("TrainSession")
      .constructor<std::string>()
      .function("status", &lab::facade::TrainSession::status)
      .function("step", &lab::facade::TrainSession::step)
      .function("report", &lab::facade::TrainSession::report);
}
