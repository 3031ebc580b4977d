#!/bin/sh
# Lead, 2026-12-02 morning, call 6: the final default (SP_CUDA_BA_FORM 13,
# set by call 5's proofs): bench/prove-gpu.sh, BLS12-381 2^24, random and
# 70% 0/1 witnesses, 3 proofs each, with the backend's stages.
cd "$(dirname "$0")/../../.." || exit 1
T0=$(date +%s)
D=build-devrun
unxz_to() { xz -dc "$1" >"$2" 2>/dev/null ||
    python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' "$1" "$2"; }
mkdir -p build-cuda && unxz_to $D/snarkpipe.xz build-cuda/snarkpipe && chmod +x build-cuda/snarkpipe || exit 1
SP_BOOL="0 0.7" SP_REPS=3 timeout 135 bench/prove-gpu.sh build-cuda 24 >"$OUT/prove-bls-24.txt" 2>&1
echo "prove bls 2^24 rc=$? at $(($(date +%s) - T0)) s"
grep -E '^==|^prove|stage' "$OUT/prove-bls-24.txt" | tail -n 34
