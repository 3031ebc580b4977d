#!/usr/bin/env bash
# `snarkpipe prove --backend NAME --g2 cpu|gpu`: every backend this build
# can open gives the proof of snarkjs byte for byte when r and s are fixed
# (proof_fixed_rs.json, made by snarkjs), with the G2 MSM on either side;
# a backend that cannot be opened is refused with its reason (exit 2), a
# bad option value is a usage error (exit 64). On a machine with no GPU,
# "auto" is the CPU, and so is the default. (scripts/gpu-check.sh runs the
# same proofs on a GPU.)
# Usage: tests/test_prove_backend.sh BUILD (run.sh passes it).
set -u
build=${1:-build}
bin=$build/snarkpipe
vec=$(cd "$(dirname "$0")" && pwd)/vectors/chain1021_bls12381
[ -x "$bin" ] || { echo "test_prove_backend: $bin not found (build first)"; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/sp_test_backend.XXXXXX")
trap 'rm -rf "$T"' EXIT
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

zkey=$vec/circuit_final.zkey
wtns=$vec/witness.wtns
for be in cpu auto default; do
    for g2 in gpu cpu; do
        opt=(--backend "$be")
        [ "$be" = default ] && opt=()
        expect 0 "prove ${opt[*]} --g2 $g2" "$bin" prove --json "${opt[@]}" --g2 $g2 --insecure-fixed-rs 12345,67890 \
            "$zkey" "$wtns" "$T/p.json" "$T/pub.json"
        expect_out '"backend":"(cpu|cuda:0)"' "prove ${opt[*]} --g2 $g2 names its backend"
        expect 0 "prove ${opt[*]} --g2 $g2 = proof_fixed_rs.json" cmp "$T/p.json" "$vec/proof_fixed_rs.json"
    done
done
expect 0 "prove --backend cpu, fresh r and s, verified" "$bin" prove --verify --backend cpu "$zkey" "$wtns" \
    "$T/p.json" "$T/pub.json"
expect_out "backend cpu" "the summary names the backend"
expect 0 "verify the fresh proof" "$bin" verify "$vec/verification_key.json" "$T/pub.json" "$T/p.json"

expect 2 "--backend bogus is refused" "$bin" prove --backend bogus "$zkey" "$wtns" "$T/p.json" "$T/pub.json"
expect_out "unknown backend 'bogus'" "--backend bogus: the reason"
expect 2 "--backend cuda:7 is refused" "$bin" prove --backend cuda:7 "$zkey" "$wtns" "$T/p.json" "$T/pub.json"
expect_out "no CUDA backend|cuda:7" "--backend cuda:7: the reason"
expect 64 "--g2 fpga is a usage error" "$bin" prove --g2 fpga "$zkey" "$wtns" "$T/p.json" "$T/pub.json"
expect 64 "--backend without a value" "$bin" prove "$zkey" "$wtns" "$T/p.json" "$T/pub.json" --backend

echo "test_prove_backend.sh: $pass checks ok, $fail failed"
[ "$fail" -eq 0 ]
