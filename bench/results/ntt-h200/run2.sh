#!/bin/sh
# Run 2 of the NTT helper (bench/NOTES.md, "the Fr NTT with column twiddles"):
# as run1.sh, plus the H-step checks with implementations 7 and 8, the
# sppark harness with its MSM inputs at 2^20 (run 1's "16" overflowed its
# 2^20-point input period), and ncu on the three passes of the fastest
# implementation at 2^26 (its warm-up forward transform).
D=build-ntt-helper
B=/tmp/ntt-bin
mkdir -p $B
for f in gpu_check gpu_bench sppark_harness; do gunzip -c $D/$f.gz > $B/$f && chmod +x $B/$f; done
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv | tee $OUT/smi.txt
t0=$(date +%s)
el() { echo "($(($(date +%s) - t0)) s)"; }
timeout 120 $B/gpu_check --quick --no-bench --only ntt > $OUT/check_ntt.txt 2>&1; echo "check ntt rc=$? $(el)"
grep -E 'differ|FAIL|error' $OUT/check_ntt.txt | head -20; tail -1 $OUT/check_ntt.txt
timeout 60 $B/gpu_check --quick --no-bench --only field > $OUT/check_field.txt 2>&1; echo "check field rc=$? $(el)"
grep -E 'NTT|differ' $OUT/check_field.txt; tail -1 $OUT/check_field.txt
for i in 7 8; do
  SP_CUDA_NTT=$i timeout 60 $B/gpu_check --quick --no-bench --only hstep > $OUT/check_hstep$i.txt 2>&1; echo "check hstep (SP_CUDA_NTT=$i) rc=$? $(el)"; tail -1 $OUT/check_hstep$i.txt
done
timeout 150 $B/gpu_bench --no-checks --ntt-table --ntt 26 > $OUT/bench_ntt.txt 2>&1; echo "bench rc=$? $(el)"
timeout 60 $B/sppark_harness 20 24 26 > $OUT/sppark.txt 2>&1; echo "sppark rc=$? $(el)"
grep -E 'check|NTT|2\^20' $OUT/sppark.txt
# the fastest 2^26 forward among implementations 3, 5..8
best=$(grep -E '^\| Fr NTT [35678],.*forward \| 2\^26' $OUT/bench_ntt.txt | sort -t'|' -k4 -g | head -1 | sed -E 's/^\| Fr NTT ([0-9]).*/\1/')
kern=ntts_pass; [ "$best" = 3 ] && kern=nttf_pass
echo "ncu on implementation $best ($kern)"
NCU="ncu --clock-control none -k regex:$kern --launch-skip 66 --launch-count 3 --section SpeedOfLight --section Occupancy --section LaunchStats --section SchedulerStats --section WarpStateStats --section ComputeWorkloadAnalysis"
APP="$B/gpu_bench --no-checks --ntt-table --ntt 26 --ntt-impl $best"
timeout 150 $NCU --print-details all $APP > $OUT/ncu.txt 2>&1; rc=$?
grep -q -i 'unrecognised\|unrecognized\|unknown option' $OUT/ncu.txt && { timeout 150 $NCU $APP > $OUT/ncu.txt 2>&1; rc=$?; }
echo "ncu rc=$rc $(el)"
grep -E 'ntt[sf]_pass|Duration|Registers Per|Achieved Occupancy|Theoretical Occupancy|Issue Slots Busy|No Eligible|Executed Ipc A|Warp Cycles Per Issued|Compute \(SM\) Throughput|DRAM Throughput|Stall|stall|Pipe|pipe' $OUT/ncu.txt | cut -c1-160 | head -70
grep '^|' $OUT/bench_ntt.txt
