#!/bin/sh
# The NTT helper's second call of 2026-12-02 (bench/NOTES.md, "Two barriers
# per pass"): after call 1 (run.sh: implementation 10 slower than 8, with
# ~16% more instructions), implementations 12 (8 with three blocks per SM,
# 40 registers), 13 (10 with the positions derived, 32-bit shared
# addresses) and 14 (13 with three blocks per SM) against 3, 8 and 10 in
# one call. Carried as run.sh was (build-ntt2/, `sh build-ntt2/run2.sh`):
#   1. gpu_check --only ntt on both curves (implementations 0..14), --only
#      hstep with SP_CUDA_NTT=11, 12, 13, 14;
#   2. gpu_bench --ntt-table --ntt 26, then 8, 10, 12, 13, 14 again;
#   3. the sppark harness (26 24 26);
#   4. the opcode counts of the ntts_pass kernels (even/odd product) from
#      cuobjdump, where the image has it;
#   5. ncu on the fastest new implementation's three passes at 2^26.
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
    timeout 100 $B/$c --quick --no-bench --only ntt >$OUT/check_ntt_$c.txt 2>&1; echo "$c ntt rc=$? $(el)"
    grep -E 'differ|FAIL|error' $OUT/check_ntt_$c.txt | head -20; tail -1 $OUT/check_ntt_$c.txt
done
for i in 11 12 13 14; do
    echo "== SP_CUDA_NTT=$i" >>$OUT/check_hstep.txt
    SP_CUDA_NTT=$i timeout 30 $B/gpu_check --quick --no-bench --only hstep >>$OUT/check_hstep.txt 2>&1
    echo "check hstep (SP_CUDA_NTT=$i) rc=$? $(el)"; tail -1 $OUT/check_hstep.txt
done
timeout 120 $B/gpu_bench --no-checks --ntt-table --ntt 26 >$OUT/bench_ntt.txt 2>&1; echo "bench rc=$? $(el)"
for i in 14 13 12 10 8; do
    timeout 30 $B/gpu_bench --no-checks --ntt-table --ntt 26 --ntt-impl $i >>$OUT/bench_ntt.txt 2>&1
    echo "bench again ($i) rc=$? $(el)"
done
timeout 50 $B/sppark_harness 26 24 26 >$OUT/sppark.txt 2>&1; echo "sppark rc=$? $(el)"
grep -E 'check|NTT' $OUT/sppark.txt
if command -v cuobjdump >/dev/null; then
    for v in 2ELi1 2ELi2 2ELi3 3ELi1 3ELi3; do
        fn="_Z9ntts_passI5fr_tmILi2EELi0ELi512ELi${v}EEvPT_PKS2_S5_S5_jjjjj"
        echo "== $fn" >>$OUT/sass.txt
        timeout 30 cuobjdump -sass -fun "$fn" $B/gpu_bench 2>&1 |
            awk '/\/\*[0-9a-f]+\*\// { for (i = 1; i <= NF; i++) if ($i !~ /^\/\*/ && $i !~ /^@/) { split($i, a, "."); n[a[1]]++; full[$i]++; tot++; break } }
                 END { printf "total %d\n", tot; for (o in n) printf "%s %d\n", o, n[o]; for (o in full) if (o ~ /^IMAD/) printf "  %s %d\n", o, full[o] }' |
            sort -k2 -n -r >>$OUT/sass.txt
    done
    echo "sass $(el)"; grep -E '^==|^total|^IMAD |^STL|^LDL|^BAR|^BRA|^LDS|^STS|^IADD3|^LOP3' $OUT/sass.txt | cut -c1-100
else
    echo "no cuobjdump"
fi
best=$(grep -E '^\| Fr NTT 1[0-4],.*forward \| 2\^26' $OUT/bench_ntt.txt | sort -t'|' -k4 -g | head -1 | sed -E 's/^\| Fr NTT ([0-9]+).*/\1/')
echo "ncu on implementation $best"
NCU="ncu --clock-control none -k regex:ntts_pass --launch-skip 66 --launch-count 3 --section SpeedOfLight --section Occupancy --section LaunchStats --section SchedulerStats --section WarpStateStats --section ComputeWorkloadAnalysis"
APP="$B/gpu_bench --no-checks --ntt-table --ntt 26 --ntt-impl $best"
timeout 100 $NCU --print-details all $APP >$OUT/ncu.txt 2>&1; rc=$?
grep -q -i 'unrecognised\|unrecognized\|unknown option' $OUT/ncu.txt && { timeout 100 $NCU $APP >$OUT/ncu.txt 2>&1; rc=$?; }
echo "ncu rc=$rc $(el)"
grep -E 'ntts_pass<|Duration|Fmaheavy|Issue Slots Busy|Warp Cycles Per Issued|Stall (Math|Not Sel|Wait|Dispatch|Barrier|Short|Long|MIO|LG)|Registers Per Thread  |Achieved Occupancy  ' $OUT/ncu.txt | cut -c1-130 | head -60
grep -E '^\| Fr NTT (3|8|1[0-4]),' $OUT/bench_ntt.txt
