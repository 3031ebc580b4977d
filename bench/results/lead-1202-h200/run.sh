#!/bin/sh
# The lead's last device call of 2026-12-02: main after merging the fill
# path, the CPU helper (pool, huge pages, daemon executable, key stamp),
# the NTT helper (implementation 13, default 11) and the G2 helper (Fp2 as
# sums of products, split MSM without the gather for dense witnesses, the
# bucket reduction kept on Karatsuba); built here with nvcc 13.0
# (`make BUILD=build-cuda CUDA=1 DAEMON_OK=0 all gpu`, `make CURVE=bn254
# BUILD=build-cuda-bn254 CUDA=1 DAEMON_OK=0 gpu`), --strip-debug,
# xz-compressed, carried in build-devrun/:
#   1. scripts/gpu-check.sh on both curves (--quick --no-bench,
#      SP_GPU_BIG_LOG=16; the two-curve snarkpipe as the snarkpipe of each);
#   2. bench/prove-gpu.sh: BLS12-381 2^24 (random and 70% 0/1), 3 proofs
#      each, with the backend's stages;
#   3. bench/engine-gpu.sh build-cuda 22 20 8 (SP_NO_SWEEP=1) if time is left.
cd "$(dirname "$0")/../../.." || exit 1
T0=$(date +%s)
el() { echo $(($(date +%s) - T0)); }
D=build-devrun
for b in build-cuda build-cuda-bn254; do mkdir -p $b/tests/gpu; done
unxz_to() { xz -dc "$1" >"$2" 2>/dev/null ||
    python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' "$1" "$2"; }
unxz_to $D/snarkpipe.xz build-cuda/snarkpipe &&
    cp build-cuda/snarkpipe build-cuda-bn254/snarkpipe &&
    unxz_to $D/gpu_check.xz build-cuda/tests/gpu/gpu_check &&
    unxz_to $D/gpu_check_bn.xz build-cuda-bn254/tests/gpu/gpu_check &&
    chmod +x build-cuda/snarkpipe build-cuda-bn254/snarkpipe build-cuda/tests/gpu/gpu_check \
        build-cuda-bn254/tests/gpu/gpu_check || exit 1
build-cuda/snarkpipe version
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total,driver_version --format=csv,noheader
for b in build-cuda build-cuda-bn254; do
    SP_GPU_BIG_LOG=16 timeout 170 scripts/gpu-check.sh $b --quick --no-bench >"$OUT/gpucheck-$b.txt" 2>&1
    echo "gpu-check $b rc=$? at $(el) s"
    grep -E '^curve|^gpu_check:|FAIL|^end-to-end' "$OUT/gpucheck-$b.txt" | tail -n 12
done
SP_BOOL="0 0.7" SP_REPS=3 timeout 200 bench/prove-gpu.sh build-cuda 24 >"$OUT/prove-bls-24.txt" 2>&1
echo "prove bls 2^24 rc=$? at $(el) s"
grep -E '^==|^prove|stage' "$OUT/prove-bls-24.txt" | tail -n 34
if [ "$(el)" -lt 390 ]; then
    SP_NO_SWEEP=1 timeout 100 bench/engine-gpu.sh build-cuda 22 20 8 >"$OUT/engine.txt" 2>&1
    echo "engine rc=$? at $(el) s"
    grep -E 'isolation|load|first' "$OUT/engine.txt" | tail -n 12
fi
echo "done at $(el) s"
