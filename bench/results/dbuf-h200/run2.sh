#!/bin/sh
# Lead, 2026-12-02 (late session), call 3: the split reduction's parts
# kernel in 3 blocks per SM for G1 (SP_BA_PARTS_3, 1024: up to 168
# registers, no spills) against 4 (128 registers, spills); msm_ba2.cu
# and ctx.cu compiled again, the rest of call 2's objects kept. In order:
#   1. gpu_check --quick --only msm on BLS12-381 (stop if it fails), BN254
#      (19 configurations: the default with 1024 flipped among them);
#   2. gpu_bench --no-checks --ba-forms --g1 26 --g2 24: forms 77, 333,
#      845 and 1869 (845 + 1024), every result checked.
cd "$(dirname "$0")/../../.." || exit 1
REAL_OUT=$OUT
OUT=/tmp/run2
mkdir -p $OUT
export OUT
trap 'tar -czf "$REAL_OUT/run2.tgz" -C /tmp run2' EXIT
T0=$(date +%s)
el() { echo $(($(date +%s) - T0)); }
D=build-devrun
for b in build-cuda build-cuda-bn254; do mkdir -p $b/tests/gpu $b/bench/gpu; done
unxz_to() { xz -dc "$1" >"$2" 2>/dev/null ||
    python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' "$1" "$2"; }
unxz_to $D/gpu_check.xz build-cuda/tests/gpu/gpu_check &&
    unxz_to $D/gpu_bench.xz build-cuda/bench/gpu/gpu_bench &&
    unxz_to $D/gpu_check_bn.xz build-cuda-bn254/tests/gpu/gpu_check &&
    chmod +x build-cuda/tests/gpu/gpu_check build-cuda/bench/gpu/gpu_bench \
        build-cuda-bn254/tests/gpu/gpu_check || exit 1
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
timeout 200 build-cuda/bench/gpu/gpu_bench --no-checks --ba-forms --g1 26 --g2 24 >"$OUT/baforms.txt" 2>&1
echo "ba-forms rc=$? at $(el) s"
grep -E '^\| G[12] (plain|table)|FAIL|failed' "$OUT/baforms.txt" | tail -n 14
grep -E 'g1 MSM, (table|plain) .*form (845|1869)' "$OUT/baforms.txt" | cut -c1-300
grep -E 'g2 MSM, (table|plain) .*form (845|1869)' "$OUT/baforms.txt" | cut -c1-300
echo "done at $(el) s"
