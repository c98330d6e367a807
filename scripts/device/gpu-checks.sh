#!/usr/bin/env bash
# The GPU checks of issues 28, 26 and 27 in one command, for a machine with CUDA, PyTorch 2.x and one
# GPU (no Node, no build, no network). Results: JSON under $OUT, six files at most:
#   env.json       the machine: torch, CUDA, the GPU, nvidia-smi; and each part's exit status and seconds
#   dist.json      (a) two ranks on the one GPU (gloo on CUDA tensors; NCCL refuses two ranks on one
#                  device), each rank's torch.cuda.max_memory_allocated phase by phase: DDP copy, DDP
#                  view, ZeroRedundancyOptimizer, the flat sharded optimizer; FP32 and autocast BF16; Adam
#   one-device.json (b) issue 26's one-device fixtures measured on CUDA (only ever measured on CPU)
#   check.json     (c) issue 27's standalone check script (scripts/device/lab08_check.py) on one scenario
#   log.txt        every part's output (the tail of each)
# Each part has its own timeout, so one failure loses only that part. Usage:
#   OUT=/some/dir scripts/device/gpu-checks.sh            # on the GPU machine (about 2-3 minutes)
#   OUT=/tmp/x scripts/device/gpu-checks.sh --dry-run     # here, on CPU: the same parts, tiny and quick
# PYTHON picks the interpreter (default python3; the dry run defaults to /usr/bin/python3, Debian's torch).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
dry=0
[ "${1:-}" = "--dry-run" ] && dry=1
: "${OUT:?set OUT to the folder for the results}"
mkdir -p "$OUT"
if [ $dry = 1 ]; then PY=${PYTHON:-/usr/bin/python3}; else PY=${PYTHON:-python3}; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
log=$OUT/log.txt
: > "$log"
status=()

# part NAME SECONDS COMMAND...: runs one part under its own timeout, its output to the log.
# A part that crashes (an exit other than a timeout's 124/137) runs once more: Debian's PyTorch 1.13
# CPU profiler sometimes aborts a rank of the two-rank script as it stops (measure-pytorch-dist.py
# already measures such a run again, up to 4 times); the status keeps the first exit as first_exit,
# so a retry is never hidden.
part() {
  local name=$1 limit=$2; shift 2
  local t0=$SECONDS rc first=""
  for try in 1 2; do
    echo "=== $name (limit ${limit}s, try $try): $*" >> "$log"
    timeout --kill-after=10 "$limit" "$@" > "$work/$name.out" 2>&1
    rc=$?
    tail -c 20000 "$work/$name.out" >> "$log"
    echo "=== $name: exit $rc after $((SECONDS - t0)) s" >> "$log"
    if [ $rc = 0 ] || [ $rc = 124 ] || [ $rc = 137 ] || [ $try = 2 ]; then break; fi
    first=$rc
  done
  local retried=""
  [ -n "$first" ] && retried=", \"first_exit\": $first"
  status+=("\"$name\": {\"exit\": $rc, \"seconds\": $((SECONDS - t0)), \"limit_s\": $limit$retried}")
}

if [ $dry = 1 ]; then
  export MEASURE_DEVICE=cpu
  dist_only=0,3 one_only=0 check=scripts/device/lab08_check_dryrun.py
else
  export MEASURE_DEVICE=cuda
  # 0-15: the CPU fixtures' runs, 16-23: GPU-sized ones (scripts/measure-pytorch-dist.py)
  dist_only=0-23
  # plain 0 3 5 7 13 19 22 33 38, and with scaled_dot_product_attention 47 50 54 60 (= 47 + 0, 3, 7, 13)
  one_only=0,3,5,7,13,19,22,33,38,47,50,54,60
  check=scripts/device/lab08_check.py
fi

part dist 120 env MEASURE_ONLY=$dist_only "$PY" scripts/measure-pytorch-dist.py "$work/dist"
part one-device 100 env MEASURE_ONLY=$one_only "$PY" scripts/measure-pytorch.py "$work/one"
part check 70 sh -c '"$1" "$2" > "$3"' sh "$PY" "$check" "$work/check.json"

# Gather each part's JSON files into one file per part (the folder's fixtures by name).
"$PY" - "$work" "$OUT" "$dry" "${status[@]}" <<'EOF'
import glob, json, os, subprocess, sys
work, out, dry, status = sys.argv[1], sys.argv[2], sys.argv[3] == "1", json.loads("{" + ",".join(sys.argv[4:]) + "}")
def folder(path):
    files = sorted(glob.glob(os.path.join(path, "**", "*.json"), recursive=True))
    return {os.path.basename(f): json.load(open(f)) for f in files if not f.endswith("manifest.json")}
for name, found in (("dist.json", folder(os.path.join(work, "dist"))), ("one-device.json", folder(os.path.join(work, "one")))):
    with open(os.path.join(out, name), "w") as fh: json.dump(found, fh, indent=1)
try:
    check = json.load(open(os.path.join(work, "check.json")))
except Exception as e:
    check = {"error": f"no JSON from the check script: {e}"}
with open(os.path.join(out, "check.json"), "w") as fh: json.dump(check, fh, indent=1)
env = {"dry_run": dry, "parts": status}
try:
    import torch
    env.update(torch=torch.__version__, cuda=torch.version.cuda, cuda_available=torch.cuda.is_available())
    if torch.cuda.is_available():
        p = torch.cuda.get_device_properties(0)
        env.update(gpu=p.name, gpu_total_bytes=p.total_memory)
except Exception as e:
    env["torch_error"] = str(e)
try:
    env["nvidia_smi"] = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,memory.total,memory.used",
                                        "--format=csv,noheader"], capture_output=True, text=True, timeout=20).stdout.strip()
except Exception as e:
    env["nvidia_smi"] = f"not run: {e}"
with open(os.path.join(out, "env.json"), "w") as fh: json.dump(env, fh, indent=1)
print(json.dumps(env["parts"]))
EOF
