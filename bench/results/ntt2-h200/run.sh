#!/bin/sh
# The NTT helper's call of 2026-12-02 (bench/NOTES.md, "Two barriers per
# pass"): implementation 10 (gpu/ntt_fs.cu) against 3 and 8 in one call.
# Built here with nvcc (`make BUILD=build-cuda CUDA=1 gpu`, `make
# CURVE=bn254 BUILD=build-cuda-bn254 CUDA=1 gpu`), --strip-debug,
# xz-compressed, carried with this script in build-ntt2/ (the call sends
# the main checkout: `sh build-ntt2/run.sh`):
#   1. gpu_check --only ntt on both curves (implementations 0..11), --only
#      hstep with SP_CUDA_NTT=10 and 11;
#   2. gpu_bench --ntt-table --ntt 26 (every implementation, 2^22..2^26,
#      forward and inverse apart), then 8 and 10 again (the spread);
#   3. the sppark harness (26 24 26) in the same call;
#   4. ncu on implementation 10's three passes at 2^26 (its warm-up
#      forward transform), as ntt-h200/run2.sh did for 8.
D=build-ntt2
B=/tmp/ntt2-bin
mkdir -p $B
unxz_to() { xz -dc "$1" >"$2" 2>/dev/null ||
    python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' "$1" "$2"; }
for f in gpu_check gpu_bench gpu_check_bn; do unxz_to $D/$f.xz $B/$f || exit 1; done
gzip -dc $D/sppark_harness.gz >$B/sppark_harness || exit 1
chmod +x $B/* || exit 1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv | tee $OUT/smi.txt
t0=$(date +%s)
el() { echo "($(($(date +%s) - t0)) s)"; }
for c in gpu_check gpu_check_bn; do
    timeout 120 $B/$c --quick --no-bench --only ntt >$OUT/check_ntt_$c.txt 2>&1; echo "$c ntt rc=$? $(el)"
    grep -E 'differ|FAIL|error' $OUT/check_ntt_$c.txt | head -20; tail -1 $OUT/check_ntt_$c.txt
done
for i in 10 11; do
    SP_CUDA_NTT=$i timeout 60 $B/gpu_check --quick --no-bench --only hstep >$OUT/check_hstep$i.txt 2>&1
    echo "check hstep (SP_CUDA_NTT=$i) rc=$? $(el)"; tail -1 $OUT/check_hstep$i.txt
done
timeout 150 $B/gpu_bench --no-checks --ntt-table --ntt 26 >$OUT/bench_ntt.txt 2>&1; echo "bench rc=$? $(el)"
for i in 10 8; do
    timeout 60 $B/gpu_bench --no-checks --ntt-table --ntt 26 --ntt-impl $i >>$OUT/bench_again.txt 2>&1
    echo "bench again ($i) rc=$? $(el)"
done
timeout 60 $B/sppark_harness 26 24 26 >$OUT/sppark.txt 2>&1; echo "sppark rc=$? $(el)"
grep -E 'check|NTT' $OUT/sppark.txt
NCU="ncu --clock-control none -k regex:ntts_pass --launch-skip 66 --launch-count 3 --section SpeedOfLight --section Occupancy --section LaunchStats --section SchedulerStats --section WarpStateStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis"
APP="$B/gpu_bench --no-checks --ntt-table --ntt 26 --ntt-impl 10"
timeout 150 $NCU --print-details all $APP >$OUT/ncu.txt 2>&1; rc=$?
grep -q -i 'unrecognised\|unrecognized\|unknown option' $OUT/ncu.txt && { timeout 150 $NCU $APP >$OUT/ncu.txt 2>&1; rc=$?; }
echo "ncu rc=$rc $(el)"
grep -E 'ntts_pass|Duration|Registers Per|Achieved Occupancy|Issue Slots Busy|Warp Cycles Per Issued|DRAM Throughput|Bank Conflicts|Stall|stall|Pipe|pipe' $OUT/ncu.txt | cut -c1-160 | head -60
grep '^|' $OUT/bench_ntt.txt
grep '^|' $OUT/bench_again.txt
