#!/usr/bin/env bash
# `make demo`: the main job on a built-in example, using the tools in the
# build directory $1 (default build). Run from the repository root.
#
# Today the job is a self-check of the arithmetic foundation (fields,
# curves, pairing) against independent known answers; once Groth16 lands,
# demo_main becomes: prove a bundled circuit, verify the proof, compare
# with snarkjs.
set -euo pipefail

build=${1:-build}
bin=$build/snarkpipe
[ -x "$bin" ] || { echo "demo: $bin not found; run make first" >&2; exit 2; }

demo_main() {
    "$bin" selftest tests/vectors/noble_bls12381.txt
}

echo "== $("$bin" version)"
start=$(date +%s.%N)
if demo_main; then status=ok; else status=FAILED; fi
echo "== demo $status ($(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')s)"
[ "$status" = ok ]
