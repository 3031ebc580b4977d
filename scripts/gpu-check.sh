#!/bin/sh
# GPU-vs-CPU equality tests and the GPU benchmark table, in one go, on a
# machine with a CUDA device (see gpu/sp_cuda.h, gpu/check/).
#
#   scripts/gpu-check.sh [BUILD_DIR] [gpu_check options]
#     BUILD_DIR   default "build"; gpu_check is built there with `make gpu`
#                 unless BUILD_DIR/gpu/gpu_check already exists
#                 (SP_GPU_REBUILD=1 forces the build)
#     options     --quick  --no-bench  --g1 LOG  --g2 LOG  --ntt LOG  --device N
#
# Exit status: that of gpu_check (0 when every check passed).
set -eu
cd "$(dirname "$0")/.."
B=build
case "${1:-}" in
    -*|"") ;;
    *) B=$1; shift ;;
esac
if [ "${SP_GPU_REBUILD:-0}" = 1 ] || [ ! -x "$B/gpu/gpu_check" ]; then
    make BUILD="$B" -j"$(nproc)" gpu
fi
if command -v nvidia-smi >/dev/null 2>&1; then
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw \
        --format=csv,noheader || true
fi
exec "$B/gpu/gpu_check" "$@"
