#!/bin/sh
# Lead, 2026-12-03 (second session), call 1: the latency of one Fp
# inversion in one thread (gpu_bench's new rows: binary Euclid, ba_top's,
# and Fermat), beside the modmul rates: what share of ba_top's 0.17 ms a
# round (G1 table 2^24) the inversion is. gpu_bench --ntt-table --ntt 22
# prints the rates, the inversions and the NTT rows at 2^22 only.
cd "$(dirname "$0")/../../.." || exit 1
DEVRUN_NAME=run1
. bench/results/devrun-lib.sh
devrun_unpack || exit 1
timeout 120 build-cuda/bench/gpu/gpu_bench --no-checks --ntt-table --ntt 22 >"$OUT/field.txt" 2>&1
echo "bench rc=$? at $(el) s"
grep -E 'modmul|inversion|FAIL|failed' "$OUT/field.txt" | tail -n 20
echo "done at $(el) s"
