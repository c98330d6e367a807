// WASM name table over the JSON facade (core/facade.hpp). Nothing else belongs here.
#include <emscripten/bind.h>
#include "facade.hpp"
#include "facade_train.hpp"

EMSCRIPTEN_BINDINGS(lab_core) {
  emscripten::function("evaluate", &lab::facade::evaluate);
  emscripten::function("catalog", &lab::facade::catalog);
  emscripten::function("version", &lab::facade::version);
  emscripten::function("solve", &lab::facade::solve);
  emscripten::function("train", &lab::facade::train);
  emscripten::class_<lab::facade::TrainSession>("TrainSession")
      .constructor<std::string>()
      .function("status", &lab::facade::TrainSession::status)
      .function("step", &lab::facade::TrainSession::step)
      .function("report", &lab::facade::TrainSession::report);
}
