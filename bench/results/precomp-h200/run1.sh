#!/bin/sh
# Device call 1 of helper precomp (issue 15 item 2, precomputed window
# tables): the branch wip-precomp at its first commit, built here with nvcc
# 13.0 (`make BUILD=build-cuda CUDA=1 DAEMON_OK=0 gpu`), --strip-debug,
# gzipped, carried in build-precomp/ with this script:
#   1. gpu_check --quick --no-bench --only msm (every table window 8..24,
#      the special cases, plain/split/streamed calls over tables, groups
#      of records) and --only backend (a key attached with MSM tables,
#      the proof's MSMs against the CPU backend's);
#   2. gpu_bench --precomp --g1 26 --g2 22: plain vs table G1 2^22/2^24/2^26
#      (windows around the model's), G2 2^22, phases printed.
# (run as build-precomp/run1.sh from the repository root, the folder carried)
cd "$(dirname "$0")/.." || exit 1
T0=$(date +%s)
el() { echo $(($(date +%s) - T0)); }
D=build-precomp
gzip -dc $D/gpu_check.gz >/tmp/gpu_check && gzip -dc $D/gpu_bench.gz >/tmp/gpu_bench &&
    chmod +x /tmp/gpu_check /tmp/gpu_bench || exit 1
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total,driver_version --format=csv,noheader
timeout 100 /tmp/gpu_check --quick --no-bench --only msm >"$OUT/check-msm.txt" 2>&1
echo "check msm rc=$? at $(el) s"
grep -E '^curve|^gpu_check|FAIL|precomputed|checks done' "$OUT/check-msm.txt" | head -n 30
timeout 40 /tmp/gpu_check --quick --no-bench --only backend >"$OUT/check-backend.txt" 2>&1
echo "check backend rc=$? at $(el) s"
grep -E '^gpu_check|FAIL|checks done|MSM tables' "$OUT/check-backend.txt" | head -n 20
timeout 150 /tmp/gpu_bench --no-checks --precomp --g1 26 --g2 22 >"$OUT/bench.txt" 2>&1
echo "bench rc=$? at $(el) s"
grep -vE '^\|' "$OUT/bench.txt" | tail -n 40
grep -E '^\|' "$OUT/bench.txt"
