#!/bin/sh
# Lead, 2026-12-03, call 1: the sums' loads pipelined (SP_BA_APPLY_PIPE,
# 4096) and the rounds' thread knob (sp_cuda_set_ba_threads), both curves
# built here from the session's tree. In order:
#   1. gpu_check --quick --only msm on BLS12-381 (stop if it fails), BN254
#      (23 configurations: the default with 4096 flipped, rounds of 256
#      threads with and without it; the table forms with 4096 and the
#      tables under rounds of 256 threads);
#   2. gpu_bench --no-checks --ba-forms --g1 26 --g2 24: forms 77, 333,
#      845, 1869, 2893 and 4941 (845 + 4096), every result checked;
#   3. the sppark harness (MSM 2^22..2^26, NTT 2^24, 2^26).
cd "$(dirname "$0")/../../.." || exit 1
DEVRUN_NAME=run1
. bench/results/devrun-lib.sh
devrun_unpack || exit 1
check build-cuda || exit 1
check build-cuda-bn254
timeout 330 build-cuda/bench/gpu/gpu_bench --no-checks --ba-forms --g1 26 --g2 24 >"$OUT/baforms.txt" 2>&1
echo "ba-forms rc=$? at $(el) s"
grep -E '^\| G[12] (plain|table)|FAIL|failed' "$OUT/baforms.txt" | tail -n 14
grep -E 'g1 MSM, (table|plain) .*form (845|4941)' "$OUT/baforms.txt" | cut -c1-330
grep -E 'g2 MSM, table .*form (845|4941)' "$OUT/baforms.txt" | cut -c1-330

# the sppark harness (rebuilt by hand in /tmp this session, not committed):
# its first run, its MSM and NTT checks, its timings beside ours
timeout 120 /tmp/sppark_harness 26 >"$OUT/sppark.txt" 2>&1
echo "sppark rc=$? at $(el) s"
grep -v '^#' "$OUT/sppark.txt" | tail -n 16
echo "done at $(el) s"
