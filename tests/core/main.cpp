// doctest entry point for the core suite (native and WASM builds share it).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
