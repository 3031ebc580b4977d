#!/bin/sh
# gpu-bn device run (issue 12 item 2): BN254 on the H200, in one call.
#   build-dev/ (carried; built on the development machine, --strip-debug, gzip):
#     gpu_check.gz    CURVE=bn254 CUDA=1 gpu_check
#     snarkpipe.gz    the two-curve CLI built with CUDA=1 (both instances
#                     with a CUDA backend), or the CURVE=bn254 one-curve CLI
# 1. scripts/gpu-check.sh on the BN254 build: gpu_check's checks against the
#    BN254 CPU backend, the bn128 chain1021 vector proved on the GPU (= snarkjs
#    byte for byte), setup/prove/streamed key at 2^16, the engine;
# 2. gpu_check --no-checks --msm-table --quick: modmul rates, NTT, G1 MSM
#    2^22 and 2^24, G2 2^22 (each timed call checked against the CPU);
# 3. a proof of 2^22 constraints (domain 2^23, 70% of the witness 0/1):
#    gen-circuit, setup --backend cuda:0, bench prove (key resident, median
#    of 3, the last verified);
# 4. the two-curve binary: the BLS12-381 chain1021 on cuda:0 too.
cd "$(dirname "$0")/../../.."
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
B=build-dev-bn254
mkdir -p $B/gpu
gzip -dc build-dev/gpu_check.gz >$B/gpu/gpu_check && gzip -dc build-dev/snarkpipe.gz >$B/snarkpipe &&
    chmod +x $B/gpu/gpu_check $B/snarkpipe || exit 1
nvidia-smi --query-gpu=name,driver_version,memory.used,clocks.sm --format=csv,noheader
$B/snarkpipe version
SP_GPU_BIG_LOG=16 timeout 150 scripts/gpu-check.sh $B --quick --no-bench >"$OUT/gpucheck.txt" 2>&1
echo "gpu-check rc=$? at $(el) s"
grep -E '^curve|^gpu_check:|^FAIL|^PASS|^end-to-end|check failed|checks done' "$OUT/gpucheck.txt" | head -40
timeout 70 $B/gpu/gpu_check --no-checks --msm-table --quick >"$OUT/table.txt" 2>&1
echo "table rc=$? at $(el) s"
grep -E '^\|' "$OUT/table.txt" | head -40
if [ "$(el)" -lt 200 ]; then
    W=/tmp/bnproof && mkdir -p $W
    S="$B/snarkpipe --curve bn254"
    (set -e
     $S --quiet gen-circuit --constraints 4194304 --bool-fraction 0.7 $W/c.r1cs $W/c.wtns
     echo "gen-circuit done at $(el) s"
     $S --json setup --backend cuda:0 $W/c.r1cs $W/c.zkey
     echo "setup done at $(el) s"
     timeout 60 $S bench prove $W/c.zkey $W/c.wtns --backend cuda:0 --skip-subgroup-check --reps 3
    ) >"$OUT/prove.txt" 2>&1
    echo "prove rc=$? at $(el) s"
    tail -n 15 "$OUT/prove.txt"
fi
V=tests/vectors/chain1021_bls12381
if $B/snarkpipe version | grep -q bls12-381; then
    $B/snarkpipe prove --quiet --backend cuda:0 --insecure-fixed-rs 12345,67890 $V/circuit_final.zkey $V/witness.wtns \
        /tmp/bls.json /tmp/bls_pub.json && cmp /tmp/bls.json $V/proof_fixed_rs.json &&
        echo "PASS: two-curve binary: BLS12-381 chain1021 on cuda:0 = snarkjs' proof_fixed_rs.json"
fi
echo "done at $(el) s"
