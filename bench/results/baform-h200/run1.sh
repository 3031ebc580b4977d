#!/bin/sh
# Lead, 2026-12-02 morning, call 1: the batch-affine kernel forms
# (sp_cuda_set_ba_form: binary inversion, paired denominators, lean sums,
# lean sums at one block more). BLS12-381 binaries built here with nvcc
# 13.0 (`make BUILD=build-cuda CUDA=1 DAEMON_OK=0 gpu`), --strip-debug,
# xz, carried in build-devrun/:
#   1. gpu_check --quick --no-bench --only field, then --only msm (every
#      form against the CPU and the oracle);
#   2. gpu_bench --no-checks --ba-forms --g1 26 --g2 24: forms 0, 1, 5, 7,
#      15 side by side, plain and over the model's table, with phases.
cd "$(dirname "$0")/../../.." || exit 1
T0=$(date +%s)
el() { echo $(($(date +%s) - T0)); }
D=build-devrun
mkdir -p build-cuda/tests/gpu build-cuda/bench/gpu
unxz_to() { xz -dc "$1" >"$2" 2>/dev/null ||
    python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' "$1" "$2"; }
unxz_to $D/gpu_check.xz build-cuda/tests/gpu/gpu_check &&
    unxz_to $D/gpu_bench.xz build-cuda/bench/gpu/gpu_bench &&
    chmod +x build-cuda/tests/gpu/gpu_check build-cuda/bench/gpu/gpu_bench || exit 1
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total,driver_version --format=csv,noheader
for g in field msm; do
    timeout 150 build-cuda/tests/gpu/gpu_check --quick --no-bench --only $g >"$OUT/check-$g.txt" 2>&1
    echo "check $g rc=$? at $(el) s"
    grep -E 'FAIL|checks done|^gpu_check:' "$OUT/check-$g.txt" | tail -n 8
done
timeout 240 build-cuda/bench/gpu/gpu_bench --no-checks --ba-forms --g1 26 --g2 24 >"$OUT/baforms.txt" 2>&1
echo "ba-forms rc=$? at $(el) s"
grep -E '^\| G|form|FAIL' "$OUT/baforms.txt" | grep -E '^\| G[12] (plain|table)|FAIL' | tail -n 20
echo "done at $(el) s"
