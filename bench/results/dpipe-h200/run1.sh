#!/bin/sh
# Lead, 2026-12-02 (afternoon session), call 1: G2 inverting the norms
# (SP_BA_G2_NORM, 64) and the pipelined denominators (SP_BA_DENS_PIPE,
# 128). Binaries built here with nvcc 13.0 (make BUILD=build-cuda CUDA=1
# DAEMON_OK=0 all gpu; CURVE=bn254 BUILD=build-cuda-bn254 gpu),
# --strip-debug, xz, carried in build-devrun/:
#   1. gpu_check --quick --only msm on both curves (every MSM
#      configuration, the new forms among them, and the table forms);
#   2. gpu_bench --no-checks --ba-forms --g1 26 --g2 24: forms 0, 13, 77
#      (13 + norms), 137 (13 with the pipeline for the pairs), 201 (both);
#   3. one random-witness 2^24 key, bench prove --stages with
#      SP_CUDA_PROFILE=1 under forms 13, 77, 137, 201 (a proof's B2 over
#      distinct bases).
cd "$(dirname "$0")/../../.." || exit 1
T0=$(date +%s)
el() { echo $(($(date +%s) - T0)); }
D=build-devrun
for b in build-cuda build-cuda-bn254; do mkdir -p $b/tests/gpu $b/bench/gpu; done
unxz_to() { xz -dc "$1" >"$2" 2>/dev/null ||
    python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' "$1" "$2"; }
unxz_to $D/snarkpipe.xz build-cuda/snarkpipe &&
    unxz_to $D/gpu_check.xz build-cuda/tests/gpu/gpu_check &&
    unxz_to $D/gpu_bench.xz build-cuda/bench/gpu/gpu_bench &&
    unxz_to $D/gpu_check_bn.xz build-cuda-bn254/tests/gpu/gpu_check &&
    chmod +x build-cuda/snarkpipe build-cuda/tests/gpu/gpu_check build-cuda/bench/gpu/gpu_bench \
        build-cuda-bn254/tests/gpu/gpu_check || exit 1
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total,driver_version --format=csv,noheader
for b in build-cuda build-cuda-bn254; do
    timeout 120 $b/tests/gpu/gpu_check --quick --only msm >"$OUT/check-msm-$b.txt" 2>&1
    echo "gpu_check msm $b rc=$? at $(el) s"
    grep -E 'FAIL|checks|failed' "$OUT/check-msm-$b.txt" | tail -n 6
done
timeout 170 build-cuda/bench/gpu/gpu_bench --no-checks --ba-forms --g1 26 --g2 24 >"$OUT/baforms.txt" 2>&1
echo "ba-forms rc=$? at $(el) s"
grep -E '^\| G[12] (plain|table)|FAIL' "$OUT/baforms.txt" | tail -n 12
W=$(mktemp -d /tmp/b2p.XXXXXX)
S=build-cuda/snarkpipe
$S --quiet gen-circuit --constraints $(((1 << 24) - 2)) --bool-fraction 0 $W/c.r1cs $W/c.wtns &&
    $S --json setup --backend cuda:0 $W/c.r1cs $W/c.zkey >"$OUT/setup.txt" 2>&1
echo "setup rc=$? at $(el) s"
for f in 13 77 137 201; do
    [ "$(el)" -lt 520 ] || break
    echo "== SP_CUDA_BA_FORM=$f" >>"$OUT/prove.txt"
    SP_CUDA_BA_FORM=$f SP_CUDA_PROFILE=1 timeout 40 $S bench prove $W/c.zkey $W/c.wtns --backend cuda:0 \
        --skip-subgroup-check --reps 2 --stages >>"$OUT/prove.txt" 2>&1
    echo "form $f rc=$? at $(el) s"
    grep -E 'msm g[12]|stage msm_|^prove' "$OUT/prove.txt" | tail -n 8 | cut -c1-300
done
echo "done at $(el) s"
