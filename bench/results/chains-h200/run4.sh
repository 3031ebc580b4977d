#!/bin/sh
# Lead, 2026-12-02 night, call 4: the issue's table from one call on call
# 2's build (its gpu_check passed there; snarkpipe linked from the same
# objects): gpu_bench --ba-forms (G1 to 2^26, G2 to 2^24), the NTT rows
# (implementation 15), the sppark harness beside them (MSM 2^22..2^26,
# NTT 2^24, 2^26), a random-witness 2^24 proof (bench prove --stages,
# profiled), the 70% 0/1 2^24 proof and the engine (22 20 8).
cd "$(dirname "$0")/../../.." || exit 1
DEVRUN_NAME=run4
. bench/results/devrun-lib.sh
devrun_unpack || exit 1
timeout 150 build-cuda/bench/gpu/gpu_bench --no-checks --ba-forms --g1 26 --g2 24 >"$OUT/baforms.txt" 2>&1
echo "ba-forms rc=$? at $(el) s"
grep -E '^\| G[12] (plain|table)|FAIL|failed' "$OUT/baforms.txt" | tail -n 14
timeout 60 build-cuda/bench/gpu/gpu_bench --no-checks --ntt-table --ntt 26 --ntt-impl 15 >"$OUT/ntt.txt" 2>&1
echo "ntt rc=$? at $(el) s"
grep -E '^\| .*NTT' "$OUT/ntt.txt" | tail -n 6
timeout 100 /tmp/sppark_harness 26 >"$OUT/sppark.txt" 2>&1
echo "sppark rc=$? at $(el) s"
grep -v '^#' "$OUT/sppark.txt" | tail -n 16
W=$(mktemp -d /tmp/b2p.XXXXXX)
S=build-cuda/snarkpipe
$S --quiet gen-circuit --constraints $(((1 << 24) - 2)) --bool-fraction 0 $W/c.r1cs $W/c.wtns &&
    $S --json setup --backend cuda:0 $W/c.r1cs $W/c.zkey >"$OUT/setup.txt" 2>&1
echo "setup rc=$? at $(el) s"
SP_CUDA_PROFILE=1 timeout 40 $S bench prove $W/c.zkey $W/c.wtns --backend cuda:0 \
    --skip-subgroup-check --reps 2 --stages >"$OUT/prove-845.txt" 2>&1
echo "prove rc=$? at $(el) s"
grep -E 'msm g[12]|stage msm_|^prove' "$OUT/prove-845.txt" | tail -n 11 | cut -c1-300
rm -rf "$W"
SP_BOOL="0.7" SP_REPS=2 timeout 90 bench/prove-gpu.sh build-cuda 24 >"$OUT/prove-bls-24.txt" 2>&1
echo "prove bls 2^24 70% rc=$? at $(el) s"
grep -E '^prove' "$OUT/prove-bls-24.txt" | tail -n 4
SP_NO_SWEEP=1 timeout 110 bench/engine-gpu.sh build-cuda 22 20 8 >"$OUT/engine.txt" 2>&1
echo "engine rc=$? at $(el) s"
grep -E 'isolation|load|first' "$OUT/engine.txt" | tail -n 12
echo "done at $(el) s"
