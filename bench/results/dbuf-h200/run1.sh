#!/bin/sh
# Lead, 2026-12-02 (late session), call 1: the sort in CUB's double-buffer
# form (its temporary storage no longer holds another copy of the records:
# ~6 GB less at a 2^26 table MSM, which the batch-affine rounds may take),
# the split reduction's weighed sums read back from its own scratch when
# they do not fit the small buffer (no device join), a table run's groups
# from one array of bounds. Built with nvcc 13.0 here (the MSM objects
# compiled again). In order:
#   1. gpu_check --quick --only msm on BLS12-381 (stop if it fails), BN254;
#   2. gpu_bench --no-checks --ba-forms --g1 26 --g2 24: forms 77, 333, 845;
#   3. the NTT rows (implementation 15) and the sppark harness (MSM
#      2^22..2^26, NTT 2^24, 2^26): the issue's table from one call;
#   4. a random-witness 2^24 key, bench prove --stages, SP_CUDA_PROFILE=1
#      under the default; the 70% 0/1 2^24 proof and the engine
#      (bench/engine-gpu.sh build-cuda 22 20 8) under the default.
cd "$(dirname "$0")/../../.." || exit 1
# every output into one folder, packed into $OUT at the end (8 files come back)
REAL_OUT=$OUT
OUT=/tmp/run1
mkdir -p $OUT
export OUT
trap 'tar -czf "$REAL_OUT/run1.tgz" -C /tmp run1' EXIT
T0=$(date +%s)
el() { echo $(($(date +%s) - T0)); }
D=build-devrun
for b in build-cuda build-cuda-bn254; do mkdir -p $b/tests/gpu $b/bench/gpu; done
unxz_to() { xz -dc "$1" >"$2" 2>/dev/null ||
    python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' "$1" "$2"; }
unxz_to $D/snarkpipe.xz build-cuda/snarkpipe &&
    unxz_to $D/gpu_check.xz build-cuda/tests/gpu/gpu_check &&
    unxz_to $D/gpu_bench.xz build-cuda/bench/gpu/gpu_bench &&
    unxz_to $D/gpu_check_bn.xz build-cuda-bn254/tests/gpu/gpu_check &&
    unxz_to $D/sppark_harness.xz /tmp/sppark_harness &&
    chmod +x build-cuda/snarkpipe build-cuda/tests/gpu/gpu_check build-cuda/bench/gpu/gpu_bench \
        build-cuda-bn254/tests/gpu/gpu_check /tmp/sppark_harness || exit 1
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total,driver_version --format=csv,noheader
check() {
    timeout 150 $1/tests/gpu/gpu_check --quick --only msm >"$OUT/check-msm-$1.txt" 2>&1
    rc=$?
    echo "gpu_check msm $1 rc=$rc at $(el) s"
    grep -E 'FAIL|checks|failed' "$OUT/check-msm-$1.txt" | tail -n 8 | cut -c1-400
    return $rc
}
check build-cuda || exit 1
check build-cuda-bn254
timeout 150 build-cuda/bench/gpu/gpu_bench --no-checks --ba-forms --g1 26 --g2 24 >"$OUT/baforms.txt" 2>&1
echo "ba-forms rc=$? at $(el) s"
grep -E '^\| G[12] (plain|table)|FAIL|failed' "$OUT/baforms.txt" | tail -n 14
grep -E 'g1 MSM, (table|plain) .*form (333|845)' "$OUT/baforms.txt" | cut -c1-340
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
for f in 845; do
    SP_CUDA_BA_FORM=$f SP_CUDA_PROFILE=1 timeout 40 $S bench prove $W/c.zkey $W/c.wtns --backend cuda:0 \
        --skip-subgroup-check --reps 2 --stages >"$OUT/prove-$f.txt" 2>&1
    echo "form $f rc=$? at $(el) s"
    grep -E 'msm g[12]|stage msm_|^prove' "$OUT/prove-$f.txt" | tail -n 11 | cut -c1-300
done
rm -rf "$W"
if [ "$(el)" -lt 470 ]; then
    SP_BOOL="0.7" SP_REPS=2 timeout 90 bench/prove-gpu.sh build-cuda 24 >"$OUT/prove-bls-24.txt" 2>&1
    echo "prove bls 2^24 70% rc=$? at $(el) s"
    grep -E '^prove' "$OUT/prove-bls-24.txt" | tail -n 4
fi
if [ "$(el)" -lt 480 ]; then
    SP_NO_SWEEP=1 timeout 110 bench/engine-gpu.sh build-cuda 22 20 8 >"$OUT/engine.txt" 2>&1
    echo "engine rc=$? at $(el) s"
    grep -E 'isolation|load|first' "$OUT/engine.txt" | tail -n 12
fi
echo "done at $(el) s"
