#!/usr/bin/env bash
# Installs what the build needs and is missing: Debian packages via apt-get, npm packages via
# `npm install --no-audit --no-fund` (not `npm ci`: see scripts/README.md). Idempotent and
# quick when everything is present. The default is what building and serving the lab needs;
# `--tests` (scripts/test.sh) adds what only the tests need: doctest, clang with its libFuzzer/ASan/
# UBSan runtimes (scripts/fuzz.sh, scripts/sanitize.sh), Debian's Chromium (the e2e tests),
# Firefox ESR, WebKitGTK's WebDriver and Xvfb (tests/e2e/cross-browser.test.mjs), and python3-torch
# (tests/wasm/pytorch-check.test.mjs runs the generated script on CPU).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
want_tests=0
case "${1:-}" in
  "") ;;
  --tests) want_tests=1 ;;
  *) echo "setup.sh: unknown option '$1' (the only option is --tests)" >&2; exit 2 ;;
esac

pkgs=()
command -v cmake >/dev/null || pkgs+=(cmake)
command -v ninja >/dev/null || pkgs+=(ninja-build)
command -v g++ >/dev/null || pkgs+=(g++)
command -v node >/dev/null || pkgs+=(nodejs)
command -v npm >/dev/null || pkgs+=(npm)
command -v em++ >/dev/null || pkgs+=(emscripten)
[[ -f /usr/include/nlohmann/json.hpp ]] || pkgs+=(nlohmann-json3-dev)
if (( want_tests )); then
  [[ -f /usr/include/doctest/doctest.h ]] || pkgs+=(doctest-dev)
  command -v clang++ >/dev/null || pkgs+=(clang)
  compgen -G '/usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a' >/dev/null || pkgs+=(libclang-rt-14-dev)
  [[ -x /usr/bin/chromium ]] || pkgs+=(chromium)
  # The cross-browser e2e file: Firefox ESR, and WebKitGTK's MiniBrowser + WebKitWebDriver under Xvfb.
  [[ -x /usr/bin/firefox-esr ]] || pkgs+=(firefox-esr)
  [[ -x /usr/bin/WebKitWebDriver ]] || pkgs+=(webkit2gtk-driver)
  [[ -x /usr/bin/Xvfb ]] || pkgs+=(xvfb)
  # "Check it on your GPU" run end to end on CPU (tests/wasm/pytorch-check.test.mjs): Debian's PyTorch.
  /usr/bin/python3 -c 'import torch' 2>/dev/null || pkgs+=(python3-torch)
fi

if (( ${#pkgs[@]} )); then
  echo "setup: installing Debian packages: ${pkgs[*]}" >&2
  sudo=""
  if [[ "$(id -u)" != 0 ]]; then sudo="sudo"; fi
  $sudo apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${pkgs[@]}" >&2
fi

# npm: reinstall only when package.json or the lockfile changed since the last install.
stamp="$root/node_modules/.package-lock.json"
if [[ ! -f "$stamp" || "$root/package.json" -nt "$stamp" || ( -f "$root/package-lock.json" && "$root/package-lock.json" -nt "$stamp" ) ]]; then
  echo "setup: npm install --no-audit --no-fund" >&2
  (cd "$root" && npm install --no-audit --no-fund >&2)
fi
