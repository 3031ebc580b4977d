#!/bin/sh
# Lead, 2026-12-02 (afternoon session), call 2: the proofs and the engine
# under the form that call 1 chose (FORM in the environment, passed as
# SP_CUDA_BA_FORM; the binaries of call 1):
#   1. bench/prove-gpu.sh: BLS12-381 2^24, random and 70% 0/1 witnesses,
#      3 proofs each, with the backend's stages;
#   2. bench/engine-gpu.sh build-cuda 22 20 8 (SP_NO_SWEEP=1).
cd "$(dirname "$0")/../../.." || exit 1
T0=$(date +%s)
el() { echo $(($(date +%s) - T0)); }
D=build-devrun
mkdir -p build-cuda
unxz_to() { xz -dc "$1" >"$2" 2>/dev/null ||
    python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' "$1" "$2"; }
unxz_to $D/snarkpipe.xz build-cuda/snarkpipe && chmod +x build-cuda/snarkpipe || exit 1
export SP_CUDA_BA_FORM="${FORM:?FORM=the form}"
echo "SP_CUDA_BA_FORM=$SP_CUDA_BA_FORM"
SP_BOOL="0 0.7" SP_REPS=3 timeout 220 bench/prove-gpu.sh build-cuda 24 >"$OUT/prove-bls-24.txt" 2>&1
echo "prove bls 2^24 rc=$? at $(el) s"
grep -E '^==|^prove|stage' "$OUT/prove-bls-24.txt" | tail -n 34
SP_NO_SWEEP=1 timeout 150 bench/engine-gpu.sh build-cuda 22 20 8 >"$OUT/engine.txt" 2>&1
echo "engine rc=$? at $(el) s"
grep -E 'isolation|load|first' "$OUT/engine.txt" | tail -n 12
echo "done at $(el) s"
