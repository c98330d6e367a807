#!/usr/bin/env bash
# Benchmark command (not a test): builds what is needed, runs every scripts/bench/*.bench.mjs part
# (each prints one JSON object), and writes them together with machine facts to
# bench-results/bench.json (and a timestamped copy). Numbers vary ±10–20% on this 2-core machine:
# read the ratios measured within one run next to the absolute figures.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
scripts/setup.sh --tests >&2
[[ -f build/native/build.ninja ]] || cmake -S . -B build/native -G Ninja >/dev/null
cmake --build build/native >&2
# The best native build of the training-step driver, for the WASM/native ratio (refengine part).
[[ -f build/native-march/build.ninja ]] || cmake -S . -B build/native-march -G Ninja -DCMAKE_CXX_FLAGS="-O3 -march=native" >/dev/null
cmake --build build/native-march --target bench_refengine >&2
scripts/build.sh >&2
exec node scripts/bench/run-all.mjs "$@"
