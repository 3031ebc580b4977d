#!/bin/sh
# Run 1 of the NTT helper (bench/NOTES.md, "the Fr NTT with column twiddles"):
# binaries built here at the commit named in NOTES, --strip-debug, gzipped,
# carried in build-ntt-helper/ (ignored) with the sppark harness (built by
# hand, not in the repo). Outputs under $OUT, printed tables last.
D=build-ntt-helper
B=/tmp/ntt-bin
mkdir -p $B
for f in gpu_check gpu_bench sppark_harness; do gunzip -c $D/$f.gz > $B/$f && chmod +x $B/$f; done
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv | tee $OUT/smi.txt
t0=$(date +%s)
timeout 150 $B/gpu_check --quick --no-bench --only ntt > $OUT/check_ntt.txt 2>&1; echo "check ntt rc=$? ($(($(date +%s) - t0)) s)"
grep -E 'differ|FAIL|error' $OUT/check_ntt.txt | head -20; tail -2 $OUT/check_ntt.txt
timeout 60 $B/gpu_check --quick --no-bench --only field > $OUT/check_field.txt 2>&1; echo "check field rc=$? ($(($(date +%s) - t0)) s)"
grep -E 'Fr|differ|FAIL' $OUT/check_field.txt | head -12; tail -1 $OUT/check_field.txt
timeout 150 $B/gpu_bench --no-checks --ntt-table --ntt 26 > $OUT/bench_ntt.txt 2>&1; echo "bench rc=$? ($(($(date +%s) - t0)) s)"
timeout 60 $B/sppark_harness 16 24 26 > $OUT/sppark.txt 2>&1; echo "sppark rc=$? ($(($(date +%s) - t0)) s)"
grep -E 'check|NTT' $OUT/sppark.txt
grep '^|' $OUT/bench_ntt.txt
