#!/usr/bin/env bash
# Builds everything the lab ships: the WASM engine, the static site in dist/ (with the iframe page
# embed.html and the custom element lab-model-train.js), and the single-file page in dist-single/.
# Only what the site serves: the WASM doctest suites are built by scripts/test.sh.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/build-wasm.sh" lab_core lab_ledger lab_scale lab_train lab_train_fma
(cd "$root" && ./node_modules/.bin/vite build --logLevel warn && node scripts/build-single.mjs dist)
