#!/bin/sh
# The lead's first device call of 2026-12-02: a lone proof's synthesis as
# the backend call's fill (the witness and its MSMs first, synthesis on a
# host thread beside them; a and b through the staging ring), built here
# with nvcc 13.0 (`make BUILD=build-cuda CUDA=1 DAEMON_OK=0 all gpu`),
# --strip-debug, xz-compressed, carried in build-devrun/:
#   1. scripts/gpu-check.sh build-cuda --quick --no-bench (BLS12-381;
#      SP_GPU_BIG_LOG=16): the backend checks now include fills;
#   2. bench/prove-gpu.sh: BLS12-381 2^24 (random and 70% 0/1), 3 proofs
#      each, with the backend's stages;
#   3. BN254 2^22 (70% 0/1), as issue 12's 0.3 s row.
cd "$(dirname "$0")/../../.." || exit 1
T0=$(date +%s)
el() { echo $(($(date +%s) - T0)); }
D=build-devrun
mkdir -p build-cuda/tests/gpu build-cuda/bench/gpu
unxz_to() { xz -dc "$1" >"$2" 2>/dev/null ||
    python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' "$1" "$2"; }
unxz_to $D/snarkpipe.xz build-cuda/snarkpipe &&
    unxz_to $D/gpu_check.xz build-cuda/tests/gpu/gpu_check &&
    chmod +x build-cuda/snarkpipe build-cuda/tests/gpu/gpu_check || exit 1
build-cuda/snarkpipe version
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total,driver_version --format=csv,noheader
SP_GPU_BIG_LOG=16 timeout 170 scripts/gpu-check.sh build-cuda --quick --no-bench >"$OUT/gpucheck.txt" 2>&1
echo "gpu-check rc=$? at $(el) s"
grep -E '^curve|^gpu_check:|FAIL|^end-to-end' "$OUT/gpucheck.txt" | tail -n 20
SP_BOOL="0 0.7" SP_REPS=3 timeout 240 bench/prove-gpu.sh build-cuda 24 >"$OUT/prove-bls-24.txt" 2>&1
echo "prove bls 2^24 rc=$? at $(el) s"
grep -E '^==|^prove|stage' "$OUT/prove-bls-24.txt" | tail -n 34
if [ "$(el)" -lt 420 ]; then
    SP_CURVE=bn254 SP_BOOL=0.7 SP_REPS=7 timeout 100 bench/prove-gpu.sh build-cuda 22 >"$OUT/prove-bn254-22.txt" 2>&1
    echo "prove bn254 2^22 rc=$? at $(el) s"
    grep -E '^==|^prove|stage' "$OUT/prove-bn254-22.txt" | tail -n 16
fi
echo "done at $(el) s"
