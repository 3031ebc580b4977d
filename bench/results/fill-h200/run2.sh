#!/bin/sh
# The lead's second device call of 2026-12-02: the fill starts after the
# witness's upload, sends a and b from its thread (ab_up) beside the
# witness MSMs; no host domain for the device H step. Same build recipe
# as run.sh. 1. gpu_check --quick --only backend and --stream (the fill
# paths against the CPU); 2. bench/prove-gpu.sh BLS12-381 2^24, random
# and 70% 0/1, 3 proofs each, with stages.
cd "$(dirname "$0")/../../.." || exit 1
T0=$(date +%s)
el() { echo $(($(date +%s) - T0)); }
D=build-devrun
mkdir -p build-cuda/tests/gpu
unxz_to() { xz -dc "$1" >"$2" 2>/dev/null ||
    python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' "$1" "$2"; }
unxz_to $D/snarkpipe.xz build-cuda/snarkpipe &&
    unxz_to $D/gpu_check.xz build-cuda/tests/gpu/gpu_check &&
    chmod +x build-cuda/snarkpipe build-cuda/tests/gpu/gpu_check || exit 1
cat /sys/kernel/mm/transparent_hugepage/enabled
timeout 60 build-cuda/tests/gpu/gpu_check --quick --only backend >"$OUT/check-backend.txt" 2>&1
echo "gpu_check backend rc=$? at $(el) s"; tail -n 3 "$OUT/check-backend.txt"
timeout 90 build-cuda/tests/gpu/gpu_check --quick --stream >"$OUT/check-stream.txt" 2>&1
echo "gpu_check stream rc=$? at $(el) s"; tail -n 3 "$OUT/check-stream.txt"
SP_BOOL="0 0.7" SP_REPS=3 timeout 200 bench/prove-gpu.sh build-cuda 24 >"$OUT/prove-bls-24.txt" 2>&1
echo "prove bls 2^24 rc=$? at $(el) s"
grep -E '^==|^prove|stage' "$OUT/prove-bls-24.txt" | tail -n 34
echo "done at $(el) s"
