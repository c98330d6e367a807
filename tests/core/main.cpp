// doctest entry point for the core suite (native and WASM builds share it). Multi-device scenarios
// are an opt-in hook of the facade (core/facade/facade_parallel.hpp): the suite enables it first.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
#include "facade/facade_parallel.hpp"

int main(int argc, char** argv) {
  lab::facade::enable_parallel();
  doctest::Context context(argc, argv);
  return context.run();
}
