#!/usr/bin/env bash
# The README's first command: install what is missing, build the lab, serve dist/ on 127.0.0.1 (the
# iframe page is /embed.html, the custom element /lab-model-train.js; the single file is in dist-single/).
# PORT=8080 by default (the next free port is used if it is taken); the URL is printed.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/build.sh"
echo "The single-file lab (open it from disk, no server): $root/dist-single/lab08-model-training.html"
exec node "$root/scripts/serve-static.mjs" "$root/dist" "${PORT:-8080}"
