#!/bin/sh
# The NTT helper's call of 2026-12-02 (bench/NOTES.md, "Blocks of 256 and
# 128 threads"): implementations 15 (13 with blocks of at most 256
# threads, four per SM: 9-stage passes of 2 columns) and 16 (at most 128
# threads, eight per SM) against 13, the default from 2^22. Built here
# with nvcc (`make BUILD=build-cuda CUDA=1 gpu`, `make CURVE=bn254
# BUILD=build-cuda-bn254 CUDA=1 gpu`), --strip-debug, xz-compressed,
# carried with this script in build-ntt3/ (`sh build-ntt3/run.sh`):
#   1. gpu_check --only ntt on both curves (implementations 0..16; every
#      size to 2^20 for 13..16), --only hstep (every size to 2^20) with
#      SP_CUDA_NTT=15 on both curves and 16 on BLS12-381;
#   2. gpu_bench --ntt-table --ntt 26 --ntt-impl 13, 15, 16, then the
#      three again in another order (the spread);
#   3. the sppark harness (26 24 26) in the same call;
#   4. ncu on 15's three passes at 2^26 (its warm-up forward transform),
#      then 16's, as ntt2-h200/run2.sh did for 13.
D=build-ntt3
B=/tmp/ntt3-bin
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
    timeout 100 $B/$c --quick --no-bench --only ntt >$OUT/check_ntt_$c.txt 2>&1; echo "$c ntt rc=$? $(el)"
    grep -E 'differ|FAIL|error' $OUT/check_ntt_$c.txt | head -20; tail -1 $OUT/check_ntt_$c.txt
done
for ci in gpu_check:15 gpu_check_bn:15 gpu_check:16; do
    c=${ci%:*} i=${ci#*:}
    echo "== $c SP_CUDA_NTT=$i" >>$OUT/check_hstep.txt
    SP_CUDA_NTT=$i timeout 40 $B/$c --no-bench --only hstep >>$OUT/check_hstep.txt 2>&1
    echo "$c hstep (SP_CUDA_NTT=$i) rc=$? $(el)"; tail -1 $OUT/check_hstep.txt
done
for i in 13 15 16 16 15 13; do
    echo "== --ntt-impl $i" >>$OUT/bench_ntt.txt
    timeout 40 $B/gpu_bench --no-checks --ntt-table --ntt 26 --ntt-impl $i >>$OUT/bench_ntt.txt 2>&1
    echo "bench $i rc=$? $(el)"
done
timeout 50 $B/sppark_harness 26 24 26 >$OUT/sppark.txt 2>&1; echo "sppark rc=$? $(el)"
grep -E 'check|NTT' $OUT/sppark.txt
grep -E '^\| Fr NTT 1[356],' $OUT/bench_ntt.txt
NCU="ncu --clock-control none -k regex:ntts_pass --launch-skip 66 --launch-count 3 --section SpeedOfLight --section Occupancy --section LaunchStats --section SchedulerStats --section WarpStateStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis"
for i in 15 16; do
    APP="$B/gpu_bench --no-checks --ntt-table --ntt 26 --ntt-impl $i"
    timeout 60 $NCU --print-details all $APP >$OUT/ncu$i.txt 2>&1; rc=$?
    grep -q -i 'unrecognised\|unrecognized\|unknown option' $OUT/ncu$i.txt && { timeout 80 $NCU $APP >$OUT/ncu$i.txt 2>&1; rc=$?; }
    echo "ncu $i rc=$rc $(el)"
    grep -E 'ntts_pass<|Duration|Fmaheavy|Issue Slots Busy|Executed Ipc Elapsed|Warp Cycles Per Issued|Stall (Math|Not Sel|Wait|Dispatch|Barrier|Short|Long|MIO|LG)|Registers Per Thread  |Achieved Occupancy  |DRAM Throughput|L2 Hit|Mem Busy' $OUT/ncu$i.txt | cut -c1-130 | head -70
done
