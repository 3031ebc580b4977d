#!/usr/bin/env bash
# `make demo`: the main job on a built-in example, with the tools in the
# build directory $1 (default build). Run from the repository root.
#
#   1. selftest: the arithmetic (fields, curves, pairing) against
#      independent known answers from @noble/curves;
#   2. prove: a Groth16 proof for the bundled circom circuit chain1021
#      (1021 constraints, key and witness made by circom + snarkjs);
#   3. verify it, check that the public signals are the ones snarkjs
#      computed, and check that a wrong public input is rejected;
#   4. the engine (demo-engine.sh): a batch of jobs and its waterfall;
#   5. the seed's workload, sized: the porep-like circuit of a 32 GiB
#      Filecoin sector (counted, not proved: that is bench/porep-gpu.sh on
#      a GPU machine) and the native synthesis of a small one, timed.
set -euo pipefail

build=${1:-build}
bin=$build/snarkpipe
ex=tests/vectors/chain1021_bls12381
out=$build/demo
[ -x "$bin" ] || { echo "demo: $bin not found; run make first" >&2; exit 2; }
mkdir -p "$out"

step() { printf '\n== %s\n' "$*"; }

demo_main() {
    step "1. arithmetic self-check"
    "$bin" selftest tests/vectors/noble_bls12381.txt

    step "2. prove $ex (snarkjs .zkey and .wtns)"
    "$bin" prove "$ex/circuit_final.zkey" "$ex/witness.wtns" "$out/proof.json" "$out/public.json"
    echo "wrote $out/proof.json, $out/public.json"

    step "3. verify"
    "$bin" verify "$ex/verification_key.json" "$out/public.json" "$out/proof.json"
    cmp -s "$out/public.json" "$ex/public.json" || { echo "public signals differ from snarkjs' $ex/public.json"; return 1; }
    echo "public signals match snarkjs' $ex/public.json"
    # The same proof with the first public signal changed must not verify (exit 1).
    sed '0,/"[0-9]*"/s//"1"/' "$out/public.json" >"$out/public_wrong.json"
    local rc=0
    "$bin" verify "$ex/verification_key.json" "$out/public_wrong.json" "$out/proof.json" >/dev/null || rc=$?
    [ "$rc" -eq 1 ] || { echo "a wrong public signal was not rejected (exit $rc)"; return 1; }
    echo "with a wrong public signal: rejected, as it should be"
    scripts/demo-engine.sh "$build" "$out/engine" || return 1 # 4. the engine: a batch of jobs, its waterfall
    step "5. the seed's workload: a porep-like partition of a 32 GiB sector"
    "$bin" gen-circuit --kind porep-like --preset 32GiB --dry-run || return 1
    "$bin" bench witness --preset 2KiB --threads-list 2 --reps 2 || return 1
}

echo "== $("$bin" version)"
start=$(date +%s.%N)
if demo_main; then status=ok; else status=FAILED; fi
printf '\n== demo %s (%ss)\n' "$status" "$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')"
[ "$status" = ok ]
