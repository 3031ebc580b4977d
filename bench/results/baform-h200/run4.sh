#!/bin/sh
# Lead, 2026-12-02 morning, call 4: the same binaries as call 3:
#   1. the Fr NTT table at 2^26 (implementations 15, the default from
#      2^22, and 13) and the sppark harness (26 24 26) in the same call;
#   2. bench/prove-gpu.sh: BLS12-381 2^24 (random and 70% 0/1), 3 proofs
#      each, with the backend's stages;
#   3. bench/engine-gpu.sh build-cuda 22 20 8 (SP_NO_SWEEP=1).
cd "$(dirname "$0")/../../.." || exit 1
T0=$(date +%s)
el() { echo $(($(date +%s) - T0)); }
D=build-devrun
mkdir -p build-cuda/tests/gpu build-cuda/bench/gpu
unxz_to() { xz -dc "$1" >"$2" 2>/dev/null ||
    python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' "$1" "$2"; }
unxz_to $D/snarkpipe.xz build-cuda/snarkpipe &&
    unxz_to $D/gpu_bench.xz build-cuda/bench/gpu/gpu_bench &&
    gzip -dc $D/sppark_harness.gz >/tmp/sppark_harness &&
    chmod +x build-cuda/snarkpipe build-cuda/bench/gpu/gpu_bench /tmp/sppark_harness || exit 1
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total,driver_version --format=csv,noheader
for i in 15 13 15; do
    echo "== --ntt-impl $i" >>"$OUT/bench_ntt.txt"
    timeout 40 build-cuda/bench/gpu/gpu_bench --no-checks --ntt-table --ntt 26 --ntt-impl $i >>"$OUT/bench_ntt.txt" 2>&1
    echo "ntt $i rc=$? at $(el) s"
done
grep -E '^\| Fr NTT 1[35],' "$OUT/bench_ntt.txt"
timeout 50 /tmp/sppark_harness 26 24 26 >"$OUT/sppark.txt" 2>&1
echo "sppark rc=$? at $(el) s"
grep -E 'check|NTT|MSM' "$OUT/sppark.txt"
SP_BOOL="0 0.7" SP_REPS=3 timeout 200 bench/prove-gpu.sh build-cuda 24 >"$OUT/prove-bls-24.txt" 2>&1
echo "prove bls 2^24 rc=$? at $(el) s"
grep -E '^==|^prove|stage' "$OUT/prove-bls-24.txt" | tail -n 34
if [ "$(el)" -lt 420 ]; then
    SP_NO_SWEEP=1 timeout 120 bench/engine-gpu.sh build-cuda 22 20 8 >"$OUT/engine.txt" 2>&1
    echo "engine rc=$? at $(el) s"
    grep -E 'isolation|load|first' "$OUT/engine.txt" | tail -n 12
fi
echo "done at $(el) s"
