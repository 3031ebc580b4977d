#!/bin/sh
# Lead, 2026-12-02 morning, call 5: why the 2^24 proof's B2 (G2 MSM of
# 2^24 + 2 points) took 411 ms in call 4 against 318 last session while
# the bench's G2 2^24 got faster: one random-witness 2^24 key, then
# `bench prove --stages` with SP_CUDA_PROFILE=1 (each proof MSM's phases)
# under SP_CUDA_BA_FORM=47 (the default), 15 (one lane), 13, 5 and 0.
cd "$(dirname "$0")/../../.." || exit 1
T0=$(date +%s)
el() { echo $(($(date +%s) - T0)); }
D=build-devrun
unxz_to() { xz -dc "$1" >"$2" 2>/dev/null ||
    python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' "$1" "$2"; }
mkdir -p build-cuda && unxz_to $D/snarkpipe.xz build-cuda/snarkpipe && chmod +x build-cuda/snarkpipe || exit 1
W=$(mktemp -d /tmp/b2p.XXXXXX)
S=build-cuda/snarkpipe
$S --quiet gen-circuit --constraints $(((1 << 24) - 2)) --bool-fraction 0 $W/c.r1cs $W/c.wtns &&
    $S --json setup --backend cuda:0 $W/c.r1cs $W/c.zkey >"$OUT/setup.txt" 2>&1
echo "setup rc=$? at $(el) s"
for f in 47 15 13 5 0; do
    echo "== SP_CUDA_BA_FORM=$f" >>"$OUT/prove.txt"
    SP_CUDA_BA_FORM=$f SP_CUDA_PROFILE=1 timeout 40 $S bench prove $W/c.zkey $W/c.wtns --backend cuda:0 \
        --skip-subgroup-check --reps 2 --stages >>"$OUT/prove.txt" 2>&1
    echo "form $f rc=$? at $(el) s"
    grep -E 'msm g2|stage msm_b2|^prove' "$OUT/prove.txt" | tail -n 4 | cut -c1-260
done
echo "done at $(el) s"
