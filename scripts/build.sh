#!/usr/bin/env bash
# Builds everything the lab ships: the WASM engine, the static site in dist/ (with the iframe page
# embed.html and the custom element lab-model-train.js), and the single-file page in dist-single/.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/build-wasm.sh"
(cd "$root" && ./node_modules/.bin/vite build --logLevel warn && node scripts/build-single.mjs dist)
