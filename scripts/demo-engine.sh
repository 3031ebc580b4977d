#!/usr/bin/env bash
# `make demo`, the engine step: a batch of multi-partition jobs through the
# pipelined proving engine, on the GPU when one is usable, else the CPU.
#   scripts/demo-engine.sh [BUILD_DIR [OUT_DIR]]
#
# 1. makes a built-in circuit (2^11 generated constraints, half of the
#    witness 0/1) with a development setup;
# 2. proves 6 jobs of 4 partitions, 3 jobs in flight, after one job alone
#    (isolation); the engine verifies every proof before a job completes,
#    and the run fails if any proof does not verify;
# 3. prints the waterfall statistics of the load run and writes its SVG.
set -euo pipefail

build=${1:-build}
out=${2:-$build/demo/engine}
bin=$build/snarkpipe
[ -x "$bin" ] || { echo "demo-engine: $bin not found; run make first" >&2; exit 2; }
mkdir -p "$out"

printf '\n== engine: 6 jobs x 4 partitions through the pipeline (backend: auto = GPU if usable, else CPU)\n'
"$bin" bench pipeline --constraints 2^11 -c 6 -j 3 -p 4 --set backends=auto --timeline "$out/timeline.txt"
echo "every proof was verified by the engine before its job completed"

printf '\n== engine: waterfall of the load run\n'
"$bin" waterfall "$out/timeline.txt" --svg "$out/waterfall.svg"
