#!/bin/sh
# The lead's first device call of 2026-12-01 (night): main at 04ef8a5 + the
# curve option of bench/prove-gpu.sh, built here with nvcc 13.0
# (`make BUILD=build-cuda CUDA=1 all gpu`, and `make CURVE=bn254
# BUILD=build-cuda-bn254 CUDA=1 gpu`), --strip-debug, gzipped, carried in
# build-devrun/:
#   1. scripts/gpu-check.sh on both curves (--quick --no-bench,
#      SP_GPU_BIG_LOG=16), the two-curve snarkpipe (both CUDA halves) as
#      the snarkpipe of each: the restructured GPU code (tests/gpu,
#      bench/gpu, field_inv.cuh, msm_kern.cuh, msm_ba.cuh) against the CPU;
#   2. bench/prove-gpu.sh: BN254 2^22 (70% 0/1, 7 proofs) and BLS12-381
#      2^24 (random and 70% 0/1 witnesses, 5 proofs each);
#   3. gpu_bench --msm-table --g1 24 --ntt 26 (BLS12-381) beside the sppark
#      harness (built by hand in /tmp, carried, not committed);
#   4. bench/engine-gpu.sh 22 20 8 (SP_NO_SWEEP=1) if time is left.
cd "$(dirname "$0")/../../.." || exit 1
T0=$(date +%s)
el() { echo $(($(date +%s) - T0)); }
D=build-devrun
for b in build-cuda build-cuda-bn254; do mkdir -p $b/tests/gpu $b/bench/gpu; done
gzip -dc $D/snarkpipe.gz >build-cuda/snarkpipe &&
    cp build-cuda/snarkpipe build-cuda-bn254/snarkpipe &&
    gzip -dc $D/gpu_check.gz >build-cuda/tests/gpu/gpu_check &&
    gzip -dc $D/gpu_bench.gz >build-cuda/bench/gpu/gpu_bench &&
    gzip -dc $D/gpu_check_bn.gz >build-cuda-bn254/tests/gpu/gpu_check &&
    gzip -dc $D/sppark_harness.gz >/tmp/sppark_harness &&
    chmod +x build-cuda/snarkpipe build-cuda-bn254/snarkpipe build-cuda/tests/gpu/gpu_check \
        build-cuda/bench/gpu/gpu_bench build-cuda-bn254/tests/gpu/gpu_check /tmp/sppark_harness || exit 1
build-cuda/snarkpipe version
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total,driver_version --format=csv,noheader
for b in build-cuda build-cuda-bn254; do
    SP_GPU_BIG_LOG=16 timeout 170 scripts/gpu-check.sh $b --quick --no-bench >"$OUT/gpucheck-$b.txt" 2>&1
    echo "gpu-check $b rc=$? at $(el) s"
    grep -E '^curve|^gpu_check:|^FAIL|^end-to-end' "$OUT/gpucheck-$b.txt" | tail -n 12
done
SP_CURVE=bn254 SP_BOOL=0.7 SP_REPS=7 timeout 150 bench/prove-gpu.sh build-cuda 22 >"$OUT/prove-bn254-22.txt" 2>&1
echo "prove bn254 2^22 rc=$? at $(el) s"
grep -E '^==|median|proof|verif' "$OUT/prove-bn254-22.txt" | tail -n 12
SP_BOOL="0 0.7" SP_REPS=5 timeout 280 bench/prove-gpu.sh build-cuda 24 >"$OUT/prove-bls-24.txt" 2>&1
echo "prove bls 2^24 rc=$? at $(el) s"
grep -E '^==|median|proof|verif' "$OUT/prove-bls-24.txt" | tail -n 20
if [ "$(el)" -lt 420 ]; then
    timeout 100 build-cuda/bench/gpu/gpu_bench --msm-table --g1 24 --ntt 26 >"$OUT/table.txt" 2>&1
    echo "table rc=$? at $(el) s"
    grep -E '^\|' "$OUT/table.txt" | head -n 40
    timeout 60 /tmp/sppark_harness 24 24 26 >"$OUT/sppark.txt" 2>&1
    echo "sppark rc=$? at $(el) s"
    cat "$OUT/sppark.txt"
fi
if [ "$(el)" -lt 470 ]; then
    OUT=$OUT/engine SP_NO_SWEEP=1 timeout 110 bench/engine-gpu.sh build-cuda 22 20 8 >"$OUT/engine.txt" 2>&1
    echo "engine rc=$? at $(el) s"
    grep -E 'isolation|load|first' "$OUT/engine.txt" | tail -n 12
fi
echo "done at $(el) s"
