#!/usr/bin/env bash
# The README's second command: installs what is missing, then runs every test:
# native doctest, the same doctest suite in WASM under Node, Node tests of the built WASM module and
# of the front end's pure logic, and headless-Chromium end-to-end tests of the built site.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
# Each step prints how long the previous one took (the whole suite should stay well under 30 minutes).
last=$SECONDS
step() { printf '\n(%d s)\n=== %s ===\n' "$((SECONDS - last))" "$*"; last=$SECONDS; }

step "setup (apt/npm, only what is missing)"
scripts/setup.sh --tests

step "native core + doctest"
[[ -f build/native/build.ninja ]] || cmake -S . -B build/native -G Ninja >/dev/null
cmake --build build/native
ctest --test-dir build/native --output-on-failure

step "native doctest under ASan + UBSan (scripts/sanitize.sh, build/asan)"
scripts/sanitize.sh

step "bounded coverage-guided fuzz of the facade (scripts/fuzz.sh --quick, build/fuzz)"
scripts/fuzz.sh --quick

step "WASM module + doctest under Node"
scripts/build-wasm.sh
ctest --test-dir build/wasm --output-on-failure

step "Node tests: WASM facade and front-end logic"
node --test tests/wasm/ tests/web/unit/

step "web bundle + headless Chromium end-to-end"
./node_modules/.bin/vite build --logLevel warn && node scripts/build-single.mjs dist
node --test --test-concurrency=1 tests/e2e/

printf '\n(%d s)\nAll tests passed in %d s.\n' "$((SECONDS - last))" "$SECONDS"
