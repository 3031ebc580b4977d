#!/bin/sh
# Lead, 2026-12-02 (afternoon session), call 2: the pipelined denominators fixed (call 1: the loop's last pair of
# steps could pass the thread's items and write a slot beyond them:
# wrong sums and an illegal address from 2^22, where a thread has more than
# one item; gpu_check's sizes give one). Same list as run1.sh, then the
# fastest form of the four 2^24 proofs (median proof time) runs
# bench/prove-gpu.sh (70% 0/1, 2 proofs; the random witness is the loop's) and
# bench/engine-gpu.sh build-cuda 22 20 8 through SP_CUDA_BA_FORM.
cd "$(dirname "$0")/../../.." || exit 1
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
    chmod +x build-cuda/snarkpipe build-cuda/tests/gpu/gpu_check build-cuda/bench/gpu/gpu_bench \
        build-cuda-bn254/tests/gpu/gpu_check || exit 1
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total,driver_version --format=csv,noheader
for b in build-cuda build-cuda-bn254; do
    timeout 120 $b/tests/gpu/gpu_check --quick --only msm >"$OUT/check-msm-$b.txt" 2>&1
    echo "gpu_check msm $b rc=$? at $(el) s"
    grep -E 'FAIL|checks|failed' "$OUT/check-msm-$b.txt" | tail -n 6
done
timeout 170 build-cuda/bench/gpu/gpu_bench --no-checks --ba-forms --g1 26 --g2 24 >"$OUT/baforms.txt" 2>&1
echo "ba-forms rc=$? at $(el) s"
grep -E '^\| G[12] (plain|table)|FAIL|failed' "$OUT/baforms.txt" | tail -n 14
W=$(mktemp -d /tmp/b2p.XXXXXX)
S=build-cuda/snarkpipe
$S --quiet gen-circuit --constraints $(((1 << 24) - 2)) --bool-fraction 0 $W/c.r1cs $W/c.wtns &&
    $S --json setup --backend cuda:0 $W/c.r1cs $W/c.zkey >"$OUT/setup.txt" 2>&1
echo "setup rc=$? at $(el) s"
best=13 bt=999
for f in 13 77 137 201; do
    echo "== SP_CUDA_BA_FORM=$f" >>"$OUT/prove.txt"
    SP_CUDA_BA_FORM=$f SP_CUDA_PROFILE=1 timeout 40 $S bench prove $W/c.zkey $W/c.wtns --backend cuda:0 \
        --skip-subgroup-check --reps 2 --stages >"$OUT/prove-$f.txt" 2>&1
    rc=$?
    cat "$OUT/prove-$f.txt" >>"$OUT/prove.txt"
    echo "form $f rc=$rc at $(el) s"
    grep -E 'msm g[12]|stage msm_|^prove' "$OUT/prove-$f.txt" | tail -n 11 | cut -c1-300
    t=$(awk '/^prove/ {print $(NF-1)}' "$OUT/prove-$f.txt" | tail -n 1)
    if [ "$rc" = 0 ] && [ -n "$t" ] && awk -v a="$t" -v b="$bt" 'BEGIN { exit !(a < b) }'; then
        best=$f bt=$t
    fi
done
rm -rf "$W"
echo "fastest form $best ($bt s) at $(el) s"
export SP_CUDA_BA_FORM=$best
SP_BOOL="0.7" SP_REPS=2 timeout 120 bench/prove-gpu.sh build-cuda 24 >"$OUT/prove-bls-24.txt" 2>&1
echo "prove bls 2^24 rc=$? at $(el) s"
grep -E '^==|^prove|stage' "$OUT/prove-bls-24.txt" | tail -n 34
if [ "$(el)" -lt 420 ]; then
    SP_NO_SWEEP=1 timeout 130 bench/engine-gpu.sh build-cuda 22 20 8 >"$OUT/engine.txt" 2>&1
    echo "engine rc=$? at $(el) s"
    grep -E 'isolation|load|first' "$OUT/engine.txt" | tail -n 12
fi
echo "done at $(el) s"
