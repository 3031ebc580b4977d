#!/bin/sh
# Lead, 2026-12-03 (second session), call 2, after the review: the field
# bench's rows (modmul rates, inversion latencies) time their kernels
# through one helper now (bench_median_ms); the same rows as call 1 on
# BLS12-381, and the BN254 build's rows (its gpu_bench unpacked here).
cd "$(dirname "$0")/../../.." || exit 1
DEVRUN_NAME=run2
. bench/results/devrun-lib.sh
devrun_unpack || exit 1
unxz_to build-devrun/gpu_bench_bn.xz /tmp/gpu_bench_bn && chmod +x /tmp/gpu_bench_bn || exit 1
for b in "bls build-cuda/bench/gpu/gpu_bench" "bn /tmp/gpu_bench_bn"; do
    set -- $b
    timeout 60 $2 --no-checks --ntt-table --ntt 16 >"$OUT/field-$1.txt" 2>&1
    echo "bench $1 rc=$? at $(el) s"
    grep -E 'modmul|inversion|FAIL|failed' "$OUT/field-$1.txt" | tail -n 15
done
echo "done at $(el) s"
