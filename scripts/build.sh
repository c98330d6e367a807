#!/usr/bin/env bash
# Builds everything the lab ships: the WASM engine, then the static site in dist/.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/build-wasm.sh"
(cd "$root" && ./node_modules/.bin/vite build --logLevel warn)
