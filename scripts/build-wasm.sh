#!/usr/bin/env bash
# Builds the WASM modules (build/wasm/lab_core, lab_train and lab_train_fma, each .mjs + .wasm) and
# the WASM doctest suite (twice: plain kernel and fused-multiply-add kernel).
# Flags work around Emscripten 3.1.6 on Debian (TOOLCHAIN.md): Node 20 rejects emcmake's default
# emulator flag, and em++ needs NODE_PATH (set in CMakeLists.txt) to find acorn.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
if [[ ! -f "$root/build/wasm/build.ninja" ]]; then
  emcmake cmake -S "$root" -B "$root/build/wasm" -G Ninja \
    "-DCMAKE_CROSSCOMPILING_EMULATOR=/usr/bin/node;--no-experimental-fetch" >/dev/null
fi
cmake --build "$root/build/wasm"
