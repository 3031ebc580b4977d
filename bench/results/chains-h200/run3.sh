#!/bin/sh
# Lead, 2026-12-02 night, call 3: the rounds as they were (3a136f2's
# msm_ba2.cu and ctx.cu linked into an otherwise identical gpu_bench,
# build-devrun/gpu_bench_old.xz) against call 2's build, in one run on one
# machine: gpu_bench --no-checks --ba-forms --g1 26 --g2 0 (G1 only),
# old, new, old, new; every result checked. The old binary takes no form
# past 2047, so its "2893" rows are 845 again.
cd "$(dirname "$0")/../../.." || exit 1
DEVRUN_NAME=run3
. bench/results/devrun-lib.sh
devrun_unpack || exit 1
unxz_to build-devrun/gpu_bench_old.xz /tmp/gpu_bench_old && chmod +x /tmp/gpu_bench_old || exit 1
for k in 1 2; do
    for v in old new; do
        b=build-cuda/bench/gpu/gpu_bench
        [ $v = old ] && b=/tmp/gpu_bench_old
        timeout 120 $b --no-checks --ba-forms --g1 26 --g2 0 >"$OUT/baforms-$v-$k.txt" 2>&1
        echo "$v $k rc=$? at $(el) s"
        grep -E '^\| G1 (plain|table)|FAIL|failed' "$OUT/baforms-$v-$k.txt" | tail -n 7
    done
done
echo "done at $(el) s"
