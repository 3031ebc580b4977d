#!/bin/sh
# Lead, 2026-12-03, call 2: the final tree (default form 4941; the split
# reduction's join in one struct, msm_kern.cuh) and the issue's table from
# one call:
#   1. gpu_check --quick --only msm on BLS12-381 (stop if it fails), BN254;
#   2. gpu_bench --ba-forms (G1 to 2^26, G2 to 2^24), every result checked;
#      the NTT rows (implementation 15, the default from 2^22);
#   3. the sppark harness beside them (built by hand in /tmp, not
#      committed; host buffers pinned): MSM 2^22..2^26, NTT 2^24, 2^26;
#   4. a random-witness 2^24 proof (bench prove --stages, profiled), the
#      70% 0/1 2^24 proof and the engine (22 20 8).
cd "$(dirname "$0")/../../.." || exit 1
DEVRUN_NAME=run2
. bench/results/devrun-lib.sh
devrun_unpack || exit 1
check build-cuda || exit 1
check build-cuda-bn254
timeout 150 build-cuda/bench/gpu/gpu_bench --no-checks --ba-forms --g1 26 --g2 24 >"$OUT/baforms.txt" 2>&1
echo "ba-forms rc=$? at $(el) s"
grep -E '^\| G[12] (plain|table)|FAIL|failed' "$OUT/baforms.txt" | tail -n 14
timeout 60 build-cuda/bench/gpu/gpu_bench --no-checks --ntt-table --ntt 26 --ntt-impl 15 >"$OUT/ntt.txt" 2>&1
echo "ntt rc=$? at $(el) s"
grep -E '^\| .*NTT' "$OUT/ntt.txt" | tail -n 6
sppark_rows SPPARK_HARNESS_PINNED=1
proof_rows default
echo "done at $(el) s"
