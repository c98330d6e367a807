#!/usr/bin/env bash
# The native doctest suite (tests/core/) built with clang under AddressSanitizer (+ LeakSanitizer)
# and UndefinedBehaviorSanitizer in build/asan, then run; any report fails it. Installs clang and its
# sanitizer runtimes if missing. The fuzzer is scripts/fuzz.sh; the plain native build is build/native.
# Usage: scripts/sanitize.sh [doctest options, e.g. -tc="*train*"]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

arch="$(uname -m)"
have_rt() { command -v clang++ >/dev/null && [[ -f "$(clang++ -print-resource-dir)/lib/linux/libclang_rt.asan-$arch.a" ]]; }
pkgs=()
command -v clang++ >/dev/null || pkgs+=(clang)
have_rt || pkgs+=(libclang-rt-14-dev)
command -v cmake >/dev/null || pkgs+=(cmake)
command -v ninja >/dev/null || pkgs+=(ninja-build)
[[ -f /usr/include/nlohmann/json.hpp ]] || pkgs+=(nlohmann-json3-dev)
[[ -f /usr/include/doctest/doctest.h ]] || pkgs+=(doctest-dev)
if (( ${#pkgs[@]} )); then
  echo "sanitize: installing Debian packages: ${pkgs[*]}" >&2
  sudo=""
  if [[ "$(id -u)" != 0 ]]; then sudo="sudo"; fi
  $sudo apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${pkgs[@]}" >&2
fi

bdir=build/asan
if [[ ! -f $bdir/build.ninja ]]; then
  # -fno-sanitize-recover: a UBSan report stops the run (and fails it) instead of printing and going on.
  cmake -S . -B $bdir -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Sanitize \
    "-DCMAKE_CXX_FLAGS=-g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined" >/dev/null
fi
cmake --build $bdir --target core_tests -j2

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:detect_stack_use_after_return=1:strict_string_checks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
start=$(date +%s)
$bdir/core_tests "$@"
echo "sanitize: doctest suite passed under ASan + UBSan in $(( $(date +%s) - start )) s" >&2
