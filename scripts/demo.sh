#!/usr/bin/env bash
# `make demo`: the main job on a built-in example, with the tools in the
# build directory $1 (default build). Run from the repository root.
#
#   1. selftest: the arithmetic (fields, curves, pairing) of both curves
#      against independent known answers from @noble/curves;
#   2. prove: a Groth16 proof for the bundled circom circuit chain1021
#      (1021 constraints, key and witness made by circom + snarkjs);
#   3. verify it, check that the public signals are the ones snarkjs
#      computed, and check that a wrong public input is rejected;
#   4. the engine (demo-engine.sh): a batch of jobs and its waterfall;
#   5. the seed's workload, sized: the porep-like circuit of a 32 GiB
#      Filecoin sector (counted, not proved: that is bench/porep-gpu.sh on
#      a GPU machine) and the native synthesis of a small one, timed;
#   6. BN254: the same circuit compiled for bn128 (circom's default
#      curve), proved by the same binary (the curve comes from the files)
#      and verified, with the fixed-r,s proof equal to snarkjs' byte for byte.
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
    "$bin" selftest tests/vectors/noble_bn254.txt

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
    local bn=tests/vectors/chain1021_bn128
    step "6. BN254: prove and verify $bn"
    "$bin" prove "$bn/circuit_final.zkey" "$bn/witness.wtns" "$out/proof_bn128.json" "$out/public_bn128.json"
    "$bin" verify "$bn/verification_key.json" "$out/public_bn128.json" "$out/proof_bn128.json"
    "$bin" prove --quiet --insecure-fixed-rs 12345,67890 "$bn/circuit_final.zkey" "$bn/witness.wtns" \
        "$out/proof_bn128_fixed.json" "$out/public_bn128_fixed.json" 2>/dev/null
    cmp -s "$out/proof_bn128_fixed.json" "$bn/proof_fixed_rs.json" ||
        { echo "the fixed-r,s proof differs from snarkjs' $bn/proof_fixed_rs.json"; return 1; }
    echo "with r = 12345, s = 67890 the proof is snarkjs' proof_fixed_rs.json byte for byte"
}

echo "== $("$bin" version)"
start=$(date +%s.%N)
if demo_main; then status=ok; else status=FAILED; fi
printf '\n== demo %s (%ss)\n' "$status" "$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')"
[ "$status" = ok ]
