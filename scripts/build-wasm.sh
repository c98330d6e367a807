#!/usr/bin/env bash
# Builds WASM targets in build/wasm: the ones named (scripts/build.sh names the five browser modules
# lab_core, lab_ledger, lab_scale, lab_train, lab_train_fma, each .mjs + .wasm), or with no argument every
# target, the doctest suite in WASM included (twice: plain and fused-multiply-add kernel; test.sh).
# Flags work around Emscripten 3.1.6 on Debian (TOOLCHAIN.md): Node 20 rejects emcmake's default
# emulator flag, and em++ needs NODE_PATH (set in CMakeLists.txt) to find acorn.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
if [[ ! -f "$root/build/wasm/build.ninja" ]]; then
  emcmake cmake -S "$root" -B "$root/build/wasm" -G Ninja \
    "-DCMAKE_CROSSCOMPILING_EMULATOR=/usr/bin/node;--no-experimental-fetch" >/dev/null
fi
if (( $# )); then cmake --build "$root/build/wasm" --target "$@"; else cmake --build "$root/build/wasm"; fi
