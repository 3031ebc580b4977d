#!/bin/sh
# Lead, 2026-12-02 morning, call 3: the merged tree (batch-affine forms,
# default 15; the G2 sums over two lanes as a form; the NTT helper's
# implementation 15 as the default from 2^22). Binaries built here with
# nvcc 13.0 (`make BUILD=build-cuda CUDA=1 DAEMON_OK=0 all gpu`, `make
# CURVE=bn254 BUILD=build-cuda-bn254 CUDA=1 DAEMON_OK=0 gpu`),
# --strip-debug, xz, carried in build-devrun/:
#   1. scripts/gpu-check.sh on both curves (--quick --no-bench,
#      SP_GPU_BIG_LOG=16; the two-curve snarkpipe as the snarkpipe of each);
#   2. gpu_bench --no-checks --ba-forms --g1 26 --g2 24 (forms 0, 5, 13,
#      15, 47 side by side, plain and over the model's table, phases).
cd "$(dirname "$0")/../../.." || exit 1
T0=$(date +%s)
el() { echo $(($(date +%s) - T0)); }
D=build-devrun
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
    SP_GPU_BIG_LOG=16 timeout 200 scripts/gpu-check.sh $b --quick --no-bench >"$OUT/gpucheck-$b.txt" 2>&1
    echo "gpu-check $b rc=$? at $(el) s"
    grep -E '^curve|^gpu_check:|FAIL|^end-to-end|checks done' "$OUT/gpucheck-$b.txt" | tail -n 16
done
timeout 150 build-cuda/bench/gpu/gpu_bench --no-checks --ba-forms --g1 26 --g2 24 >"$OUT/baforms.txt" 2>&1
echo "ba-forms rc=$? at $(el) s"
grep -E '^\| G[12] (plain|table)|FAIL' "$OUT/baforms.txt" | tail -n 12
echo "done at $(el) s"
