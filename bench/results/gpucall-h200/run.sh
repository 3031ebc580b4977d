#!/bin/sh
# gpucall device run: checks, engine 2^22, porep-like 2^24 (new path, then the old path if time allows)
cd "$(dirname "$0")"
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
nvidia-smi --query-gpu=name,driver_version,memory.used,clocks.sm --format=csv,noheader
SP_GPU_BIG_LOG=18 timeout 170 scripts/gpu-check.sh build-cuda --quick --no-bench >"$OUT/gpucheck.txt" 2>&1
echo "gpu-check rc=$? at $(el) s"
grep -E '^gpu_check:|^FAIL|^end-to-end|check failed' "$OUT/gpucheck.txt" | head -30
SP_NO_SWEEP=1 OUT=$OUT/eng timeout 110 bench/engine-gpu.sh build-cuda 22 20 8 >"$OUT/engine.txt" 2>&1
echo "engine rc=$? at $(el) s"
grep -E 'best|isolation|load|first proof|^dev:|^gpu |^synth |^gpu0' "$OUT/engine.txt"
grep -E 'GPU_START|DEV_STAGE|GPU_END' "$OUT/eng/timeline.txt" | head -24 | cut -c1-150
SP_WITNESS=0 OUT=$OUT/porep timeout 120 bench/porep-gpu.sh build-cuda 32GiB 2 3 2 10 >"$OUT/porep.txt" 2>&1
echo "porep rc=$? at $(el) s"
grep -E 'isolation|load|first proof|^dev:|^gpu |^synth |^gpu0|circuit and key' "$OUT/porep.txt"
if [ "$(el)" -lt 250 ]; then
  SP_CUDA_C_FROM_AB=0 SP_CUDA_WIT_OVERLAP=0 SP_WITNESS=0 OUT=$OUT/old timeout 100 bench/porep-gpu.sh build-cuda 32GiB 2 3 2 10 >"$OUT/porep_old.txt" 2>&1
  echo "porep old path rc=$? at $(el) s"
  grep -E 'isolation|load|first proof|^dev:|^gpu |^gpu0' "$OUT/porep_old.txt"
fi
rm -f "$OUT"/*/waterfall.svg "$OUT"/*/table.txt "$OUT"/*/waterfall.txt "$OUT"/*/shape.json
echo "done at $(el) s"
