#!/bin/sh
# gpu-bn device run 2: gpu_check's checks again after the harness fix
# (gpu/check/msm.c made its "mixed" scalars from BLS12-381's r), then the
# 2^22-constraint BN254 proof through bench prove and through the engine
# (20 jobs, 8 in flight, G2 MSM on the device, every proof verified).
cd "$(dirname "$0")/../../.."
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
B=build-dev-bn254
mkdir -p $B/gpu
gzip -dc build-dev/gpu_check.gz >$B/gpu/gpu_check && gzip -dc build-dev/snarkpipe.gz >$B/snarkpipe &&
    chmod +x $B/gpu/gpu_check $B/snarkpipe || exit 1
$B/snarkpipe version
timeout 80 $B/gpu/gpu_check --quick --no-bench >"$OUT/gpucheck2.txt" 2>&1
echo "gpu_check rc=$? at $(el) s"
grep -E '^curve|^gpu_check:|check failed|: NO$|checks done' "$OUT/gpucheck2.txt" | head -30
W=/tmp/bnproof && mkdir -p $W
S="$B/snarkpipe --curve bn254"
(set -e
 $S --quiet gen-circuit --constraints 4194304 --bool-fraction 0.7 $W/c.r1cs $W/c.wtns
 $S --json setup --backend cuda:0 $W/c.r1cs $W/c.zkey
 echo "setup done at $(el) s"
 timeout 40 $S bench prove $W/c.zkey $W/c.wtns --backend cuda:0 --skip-subgroup-check --reps 5
 echo "bench prove done at $(el) s"
 timeout 60 $S bench pipeline --zkey $W/c.zkey --wtns $W/c.wtns --skip-subgroup-check --set backends=cuda:0 \
     -p 1 -c 20 -j 8 --set g2_on_device=1
) >"$OUT/prove2.txt" 2>&1
echo "prove rc=$? at $(el) s"
grep -v WARNING "$OUT/prove2.txt" | tail -n 25
echo "done at $(el) s"
