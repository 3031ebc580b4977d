#!/bin/sh
# The lead's last device call of 2026-12-01 (night): main after merging
# the NTT helper (ntt_fs.cu, default 9) and the MSM-table helper
# (msm_table.cu, tables of resident keys' bases at key attach) and folding
# the two batch-affine accumulations' block products and inversion into
# msm_ba.cuh; built here with nvcc 13.0 (`make BUILD=build-cuda CUDA=1 all
# gpu`, `make CURVE=bn254 BUILD=build-cuda-bn254 CUDA=1 gpu`),
# --strip-debug, xz-compressed, carried in build-devrun/:
#   1. scripts/gpu-check.sh on both curves (--quick --no-bench,
#      SP_GPU_BIG_LOG=16; the two-curve snarkpipe as the snarkpipe of each);
#   2. bench/prove-gpu.sh: BLS12-381 2^24 (random and 70% 0/1), 3 proofs
#      each, with the backend's stages (--stages);
#   3. gpu_bench --msm-table --g1 26 --ntt 26 (BLS12-381: plain and table
#      MSMs, G2, NTT) and the sppark harness in the same call.
cd "$(dirname "$0")/../../.." || exit 1
T0=$(date +%s)
el() { echo $(($(date +%s) - T0)); }
D=build-devrun
for b in build-cuda build-cuda-bn254; do mkdir -p $b/tests/gpu $b/bench/gpu; done
# xz, to fit the call's 64 MiB (python's lzma where xz is missing)
unxz_to() { xz -dc "$1" >"$2" 2>/dev/null ||
    python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' "$1" "$2"; }
unxz_to $D/snarkpipe.xz build-cuda/snarkpipe &&
    cp build-cuda/snarkpipe build-cuda-bn254/snarkpipe &&
    unxz_to $D/gpu_check.xz build-cuda/tests/gpu/gpu_check &&
    unxz_to $D/gpu_bench.xz build-cuda/bench/gpu/gpu_bench &&
    unxz_to $D/gpu_check_bn.xz build-cuda-bn254/tests/gpu/gpu_check &&
    gzip -dc $D/sppark_harness.gz >/tmp/sppark_harness &&
    chmod +x build-cuda/snarkpipe build-cuda-bn254/snarkpipe build-cuda/tests/gpu/gpu_check \
        build-cuda/bench/gpu/gpu_bench build-cuda-bn254/tests/gpu/gpu_check /tmp/sppark_harness || exit 1
build-cuda/snarkpipe version
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total,driver_version --format=csv,noheader
for b in build-cuda build-cuda-bn254; do
    SP_GPU_BIG_LOG=16 timeout 170 scripts/gpu-check.sh $b --quick --no-bench >"$OUT/gpucheck2-$b.txt" 2>&1
    echo "gpu-check $b rc=$? at $(el) s"
    grep -E '^curve|^gpu_check:|^FAIL|^end-to-end' "$OUT/gpucheck2-$b.txt" | tail -n 12
done
SP_BOOL="0 0.7" SP_REPS=3 timeout 220 bench/prove-gpu.sh build-cuda 24 >"$OUT/prove2-bls-24.txt" 2>&1
echo "prove bls 2^24 rc=$? at $(el) s"
grep -E '^==|^prove|stage' "$OUT/prove2-bls-24.txt" | tail -n 30
if [ "$(el)" -lt 400 ]; then
    timeout 150 build-cuda/bench/gpu/gpu_bench --msm-table --g1 26 --ntt 26 >"$OUT/table2.txt" 2>&1
    echo "table rc=$? at $(el) s"
    grep -E '^\|' "$OUT/table2.txt" | head -n 60
    timeout 60 /tmp/sppark_harness 26 24 26 >"$OUT/sppark2.txt" 2>&1
    echo "sppark rc=$? at $(el) s"
    cat "$OUT/sppark2.txt"
fi
echo "done at $(el) s"
