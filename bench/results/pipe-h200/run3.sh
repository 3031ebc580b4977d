#!/bin/sh
# Lead, 2026-12-03, call 3: after the review's tidying (the item's point
# addresses from one helper, b2_ahead_at, in both sums loops; b2_addr over
# b2_addr_v; msm_finish's read-back on one line), both curves built again:
#   1. gpu_check --quick --only msm on BLS12-381 (stop if it fails), BN254;
#   2. gpu_bench --no-checks --ba-forms --g1 26 --g2 24, every result
#      checked: the same kernels' work, so the rows should be call 2's.
cd "$(dirname "$0")/../../.." || exit 1
DEVRUN_NAME=run3
. bench/results/devrun-lib.sh
devrun_unpack || exit 1
check build-cuda || exit 1
check build-cuda-bn254
timeout 150 build-cuda/bench/gpu/gpu_bench --no-checks --ba-forms --g1 26 --g2 24 >"$OUT/baforms.txt" 2>&1
echo "ba-forms rc=$? at $(el) s"
grep -E '^\| G[12] (plain|table)|FAIL|failed' "$OUT/baforms.txt" | tail -n 14
echo "done at $(el) s"
