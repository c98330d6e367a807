#!/usr/bin/env bash
# Coverage-guided fuzzing of the JSON facade (evaluate, solve, train/TrainSession with small limits,
# verify_ledger) with libFuzzer + ASan + UBSan: installs clang and its runtimes if missing, builds
# build/fuzz/fuzz_facade (tests/fuzz/), seeds it from the fixtures, runs it and writes the record
# (inputs run, cov/ft coverage, crashes with reproducer paths) to fuzz-results/fuzz.json.
#   scripts/fuzz.sh            at least 1,000,000 inputs over 2 workers (FUZZ_RUNS, FUZZ_WORKERS override)
#   scripts/fuzz.sh --quick    the test suite's bounded run: fixed seeds, fresh corpus, <= ~30 s
#   scripts/fuzz.sh --build    build only
# Reproduce a crash: build/fuzz/fuzz_facade fuzz-results/crashes/crash-<sha1>
# Exit status: 0 no finding, 1 a crash/timeout/leak/sanitizer report (see the record), 2 usage.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
mode=full
case "${1:-}" in
  "") ;;
  --quick) mode=quick ;;
  --build) mode=build ;;
  *) echo "usage: scripts/fuzz.sh [--quick|--build]" >&2; exit 2 ;;
esac

# --- install what is missing (Debian bookworm: clang 14; libclang-rt-14-dev has libFuzzer/ASan/UBSan) ---
arch="$(uname -m)"
have_rt() { command -v clang++ >/dev/null && [[ -f "$(clang++ -print-resource-dir)/lib/linux/libclang_rt.fuzzer-$arch.a" ]]; }
pkgs=()
command -v clang++ >/dev/null || pkgs+=(clang)
have_rt || pkgs+=(libclang-rt-14-dev)
command -v cmake >/dev/null || pkgs+=(cmake)
command -v ninja >/dev/null || pkgs+=(ninja-build)
command -v node >/dev/null || pkgs+=(nodejs)
[[ -f /usr/include/nlohmann/json.hpp ]] || pkgs+=(nlohmann-json3-dev)
[[ -f /usr/include/doctest/doctest.h ]] || pkgs+=(doctest-dev)  # find_package(doctest) in CMakeLists.txt
if (( ${#pkgs[@]} )); then
  echo "fuzz: installing Debian packages: ${pkgs[*]}" >&2
  sudo=""
  if [[ "$(id -u)" != 0 ]]; then sudo="sudo"; fi
  $sudo apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${pkgs[@]}" >&2
fi
have_rt || { echo "fuzz: libFuzzer runtime not found under $(clang++ -print-resource-dir)" >&2; exit 2; }

# --- build (incremental; its own build dir, clang, sanitizer flags for every object) ---
bdir=build/fuzz
if [[ ! -f $bdir/build.ninja ]]; then
  cmake -S . -B $bdir -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Fuzz -DLAB_FUZZ=ON \
    "-DCMAKE_CXX_FLAGS=-g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined" >/dev/null
fi
cmake --build $bdir --target fuzz_facade -j2
[[ $mode == build ]] && exit 0

# --- seeds and dictionary (regenerated each run: they follow the fixtures and core/) ---
rm -rf $bdir/seeds
node tests/fuzz/make-corpus.mjs $bdir/seeds $bdir/facade.dict

out=fuzz-results
mkdir -p $out/crashes
if [[ $mode == quick ]]; then
  # Bounded: two workers, fixed seeds, a fresh corpus each time, each stopping at a run count or
  # a time limit, whichever comes first (the count is reached on an idle machine).
  workers=2 runs_each="${FUZZ_RUNS_EACH:-40000}" seconds_each="${FUZZ_SECONDS:-20}" record=$out/fuzz-quick.json
  corpus=$bdir/corpus-quick seed0=1
  rm -rf "$corpus"
else
  workers="${FUZZ_WORKERS:-2}"
  total="${FUZZ_RUNS:-1000000}"
  runs_each=$(( (total + workers - 1) / workers )) seconds_each=0 record=$out/fuzz.json
  corpus=$bdir/corpus  # kept between full runs: each one starts where the last stopped
  seed0="${FUZZ_SEED:-$(date +%s)}"  # a new random seed each full run unless given
fi
mkdir -p "$corpus"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

start=$(date +%s)
logs=() pids=()
for (( w = 0; w < workers; w++ )); do
  log=$bdir/fuzz-$mode-$w.log
  logs+=("$log")
  # -timeout: one input over 10 s is a finding (train is capped to milliseconds by the harness).
  $bdir/fuzz_facade "$corpus" $bdir/seeds -dict=$bdir/facade.dict -seed=$(( seed0 + w )) -runs="$runs_each" \
    -max_total_time="$seconds_each" -max_len=16384 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$root/$out/crashes/" >"$log" 2>&1 &
  pids+=($!)
done
status=0
for p in "${pids[@]}"; do wait "$p" || status=1; done
wall=$(( $(date +%s) - start ))

cat >$bdir/meta.json <<EOF
{"mode": "$mode", "date": "$(date -u +%Y-%m-%dT%H:%M:%SZ)", "commit": "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)",
 "compiler": "$(clang++ --version | head -1)", "sanitizers": "fuzzer,address,undefined",
 "worker_count": $workers, "runs_requested_per_worker": $runs_each, "seconds_limit_per_worker": $seconds_each,
 "wall_seconds": $wall, "cores": $(nproc), "load_average_at_end": "$(cut -d' ' -f1-3 /proc/loadavg)",
 "corpus_dir": "$corpus", "seed_first_worker": $seed0, "seed_count": $(ls $bdir/seeds | wc -l)}
EOF
node tests/fuzz/summarize.mjs $record $bdir/meta.json "${logs[@]}"
node -e 'process.exit(JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")).ok ? 0 : 1)' $record || status=1
if (( status )); then
  echo "fuzz: FAILED: a finding (see $record and ${logs[*]})" >&2
  for log in "${logs[@]}"; do grep -m3 -E 'ERROR|SUMMARY|runtime error' "$log" >&2 || true; done
fi
exit $status
