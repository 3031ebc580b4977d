#!/bin/sh
# Lead, 2026-12-02 night, call 5: where the rounds' time goes, round by
# round, for the next session (call 2's build): Nsight Compute (clocks
# left alone) on gpu_bench --precomp --g1 24 --g2 0 (G1 plain and table
# MSMs at 2^22 and 2^24, each run 5 times), every round kernel's duration,
# grid, DRAM throughput and multiply-pipe activity, as CSV. ncu runs one
# kernel at a time, so the lists' overlap is not in these figures.
cd "$(dirname "$0")/../../.." || exit 1
DEVRUN_NAME=run5
. bench/results/devrun-lib.sh
devrun_unpack || exit 1
timeout 400 ncu --clock-control none -k 'regex:b2_dens|b2_apply|ba_top|b2_fill|ba_halve|b2_init' \
    --metrics gpu__time_duration.sum,launch__grid_size,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__pipe_fmaheavy_cycles_active.avg.pct_of_peak_sustained_active,lts__t_sector_hit_rate.pct \
    --csv build-cuda/bench/gpu/gpu_bench --no-checks --precomp --g1 24 --g2 0 >"$OUT/ncu.csv" 2>"$OUT/ncu.err"
echo "ncu rc=$? at $(el) s; $(wc -l <"$OUT/ncu.csv") lines"
tail -n 3 "$OUT/ncu.err"
grep -c b2_apply "$OUT/ncu.csv"
echo "done at $(el) s"
