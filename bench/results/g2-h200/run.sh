#!/bin/sh
# Device call of helper g2 (issue 15 item 3, G2 MSM <= 3x G1): wip-g2,
# built here with nvcc 13.0 (both curves; only the objects whose code
# changed recompiled: ctx, field, msm_ba2, ntt_fs, ntt_fused and the C
# files), --strip-debug, xz-compressed, carried in build-g2run/ with this
# script (run as build-g2run/run.sh from the repository root):
#   1. scripts/gpu-check.sh --quick --no-bench on both curves (the
#      two-curve snarkpipe as the snarkpipe of each; SP_GPU_BIG_LOG=16);
#   2. gpu_bench --precomp --g1 24 --g2 24: the modmul rates (Fp2 by
#      Karatsuba and by sums of products) and G1 / G2 MSMs at 2^22 and
#      2^24, plain and over the model's table, G2 with both Fp2
#      multiplications (SP_CUDA_FP2_MUL's 0 and 1), phases printed;
#   3. a 2^24 proof with a random witness (bench prove --stages, 3 each):
#      Fp2 0 and 1, then one with SP_CUDA_PROFILE=1 (each MSM's phases).
cd "$(dirname "$0")/.." || exit 1
T0=$(date +%s)
el() { echo $(($(date +%s) - T0)); }
D=build-g2run
for b in build-cuda build-cuda-bn254; do mkdir -p $b/tests/gpu $b/bench/gpu; done
unxz_to() { xz -dc "$1" >"$2" 2>/dev/null ||
    python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' "$1" "$2"; }
unxz_to $D/snarkpipe.xz build-cuda/snarkpipe &&
    cp build-cuda/snarkpipe build-cuda-bn254/snarkpipe &&
    unxz_to $D/gpu_check.xz build-cuda/tests/gpu/gpu_check &&
    unxz_to $D/gpu_bench.xz build-cuda/bench/gpu/gpu_bench &&
    unxz_to $D/gpu_check_bn.xz build-cuda-bn254/tests/gpu/gpu_check &&
    chmod +x build-cuda/snarkpipe build-cuda-bn254/snarkpipe build-cuda/tests/gpu/gpu_check \
        build-cuda/bench/gpu/gpu_bench build-cuda-bn254/tests/gpu/gpu_check || exit 1
build-cuda/snarkpipe version
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total,driver_version --format=csv,noheader
for b in build-cuda build-cuda-bn254; do
    SP_GPU_BIG_LOG=16 timeout 170 scripts/gpu-check.sh $b --quick --no-bench >"$OUT/gpucheck-$b.txt" 2>&1
    echo "gpu-check $b rc=$? at $(el) s"
    grep -E '^curve|^gpu_check:|^FAIL|^end-to-end|checks done' "$OUT/gpucheck-$b.txt" | tail -n 14
done
timeout 150 build-cuda/bench/gpu/gpu_bench --no-checks --precomp --g1 24 --g2 24 >"$OUT/precomp.txt" 2>&1
echo "precomp rc=$? at $(el) s"
grep -E 'Fp2|^\|' "$OUT/precomp.txt" | head -n 60
if [ "$(el)" -lt 290 ]; then
    W=$(mktemp -d /tmp/g2p.XXXXXX)
    S=build-cuda/snarkpipe
    $S --quiet gen-circuit --constraints $(((1 << 24) - 2)) --bool-fraction 0 $W/c.r1cs $W/c.wtns &&
        $S --json setup --backend cuda:0 $W/c.r1cs $W/c.zkey >"$OUT/prove.txt" 2>&1
    echo "setup rc=$? at $(el) s"
    for f in 1 0; do
        echo "== SP_CUDA_FP2_MUL=$f" >>"$OUT/prove.txt"
        SP_CUDA_FP2_MUL=$f timeout 60 $S bench prove $W/c.zkey $W/c.wtns --backend cuda:0 \
            --skip-subgroup-check --reps 3 --stages >>"$OUT/prove.txt" 2>&1
        echo "prove fp2=$f rc=$? at $(el) s"
    done
    if [ "$(el)" -lt 380 ]; then
        echo "== SP_CUDA_PROFILE=1" >>"$OUT/prove.txt"
        SP_CUDA_PROFILE=1 timeout 45 $S bench prove $W/c.zkey $W/c.wtns --backend cuda:0 \
            --skip-subgroup-check --reps 1 --stages >>"$OUT/prove.txt" 2>&1
        echo "prove profile rc=$? at $(el) s"
    fi
    grep -E '^==|^prove|stage|snarkpipe cuda:0: msm' "$OUT/prove.txt" | cut -c1-400
fi
echo "done at $(el) s"
