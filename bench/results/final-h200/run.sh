#!/bin/sh
# The lead's last device call of 2026-12-01 (evening): main after merging the
# kernels (gpu-kern), the per-proof device call (gpu-call), the farm's
# several devices (farm) and BN254 (bn-arith, bn-stack, gpu-bn), on the H200.
#   1. scripts/gpu-check.sh: gpu_check's GPU-against-CPU checks, then the
#      end-to-end proofs and engine runs (BLS12-381 build; BN254's GPU half
#      was checked by gpu-bn's calls, bench/results/gpubn-h200/);
#   2. two CUDA contexts on one GPU in one engine (issue 13: routing, not
#      speed): backends=cuda:0,cuda:0, every proof verified, TIMELINE per device;
# (The seed's workload at 32GiB did not fit in what was left of the
# session's device time: a first attempt of this call lost 210 s to
# gpu-check.sh rebuilding, because the carried snarkpipe was stripped and
# its test for the CUDA backend looks for a symbol name.)
cd "$(dirname "$0")/../../.." || exit 1
T0=$(date +%s)
el() { echo $(($(date +%s) - T0)); }
B=build-cuda
mkdir -p $B/gpu
gzip -dc build-dev/gpu_check.gz >$B/gpu/gpu_check && gzip -dc build-dev/snarkpipe.gz >$B/snarkpipe &&
    chmod +x $B/gpu/gpu_check $B/snarkpipe || exit 1
$B/snarkpipe version
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total,driver_version --format=csv,noheader
W=/tmp/two && mkdir -p $W
S=$B/snarkpipe
(set -e
 $S --quiet gen-circuit --constraints 65536 --bool-fraction 0.7 $W/c.r1cs $W/c.wtns
 $S --quiet setup --backend cuda:0 $W/c.r1cs $W/c.zkey
 timeout 60 $S bench pipeline --zkey $W/c.zkey --wtns $W/c.wtns --skip-subgroup-check \
     --set backends=cuda:0,cuda:0 -p 2 -c 16 -j 8 --timeline "$OUT/two-contexts-timeline.txt"
) >"$OUT/two-contexts.txt" 2>&1
echo "two contexts rc=$? at $(el) s"
tail -n 8 "$OUT/two-contexts.txt"
grep -o 'dev=[^ ,]*' "$OUT/two-contexts-timeline.txt" | sort | uniq -c
SP_GPU_BIG_LOG=16 timeout 170 scripts/gpu-check.sh $B --quick --no-bench >"$OUT/gpu-check.txt" 2>&1
echo "gpu-check rc=$? at $(el) s"
grep -E '^gpu_check:|end-to-end|FAIL|failed' "$OUT/gpu-check.txt" | tail -n 12
