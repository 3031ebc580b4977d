#!/bin/sh
# Lead, 2026-12-02 night, call 2: call 1's build with each chain's
# single-block inversion on a stream of its own at the device's highest
# priority, the lists' stream at the default one (msm_ba2.cu and ctx.cu
# compiled again). In order:
#   1. gpu_check --quick --only msm on BLS12-381 (stop if it fails), BN254
#      (20 configurations: the default with 2048 flipped among them);
#   2. gpu_bench --no-checks --ba-forms --g1 26 --g2 24: forms 77, 333,
#      845, 1869 and 2893 (845 + 2048), every result checked.
cd "$(dirname "$0")/../../.." || exit 1
DEVRUN_NAME=run2
. bench/results/devrun-lib.sh
devrun_unpack || exit 1
check build-cuda || exit 1
check build-cuda-bn254
timeout 260 build-cuda/bench/gpu/gpu_bench --no-checks --ba-forms --g1 26 --g2 24 >"$OUT/baforms.txt" 2>&1
echo "ba-forms rc=$? at $(el) s"
grep -E '^\| G[12] (plain|table)|FAIL|failed' "$OUT/baforms.txt" | tail -n 14
grep -E 'g1 MSM, (table|plain) .*form (845|2893)' "$OUT/baforms.txt" | cut -c1-330
echo "done at $(el) s"
