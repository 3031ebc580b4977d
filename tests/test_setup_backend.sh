#!/usr/bin/env bash
# `snarkpipe setup --backend NAME`: a key made on every backend this build
# can open (cpu, auto, the default; on a GPU machine auto and the default
# are cuda:0) proves and verifies, in both key formats, and the JSON
# summary names the backend and the phase times; a backend that cannot be
# opened is refused with its reason (exit 2), a missing value is a usage
# error (exit 64). scripts/gpu-check.sh runs a GPU setup at 2^20.
# Usage: tests/test_setup_backend.sh BUILD (run.sh passes it).
set -u
build=${1:-build}
bin=$build/snarkpipe
vec=$(cd "$(dirname "$0")" && pwd)/vectors/chain1021_bls12381
[ -x "$bin" ] || { echo "test_setup_backend: $bin not found (build first)"; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/sp_test_setup_be.XXXXXX")
trap 'rm -rf "$T"' EXIT
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

r1cs=$vec/circuit.r1cs
wtns=$vec/witness.wtns
for be in cpu auto default; do
    opt=(--backend "$be")
    [ "$be" = default ] && opt=()
    expect 0 "setup ${opt[*]}" "$bin" --json setup "${opt[@]}" "$r1cs" "$T/k.zkey"
    expect_out '"backend":"(cpu|cuda:0)"' "setup ${opt[*]} names its backend"
    expect_out '"scalars":[0-9.]+,"g1":[0-9.]+,"g2":[0-9.]+' "setup ${opt[*]} reports its phases"
    expect 0 "export-vkey (${opt[*]})" "$bin" export-vkey "$T/k.zkey" "$T/vk.json"
    expect 0 "prove with the key (${opt[*]})" "$bin" prove --quiet "$T/k.zkey" "$wtns" "$T/p.json" "$T/pub.json"
    expect 0 "verify (${opt[*]})" "$bin" verify "$T/vk.json" "$T/pub.json" "$T/p.json"
done
expect 0 "setup --bellperson --backend cpu" "$bin" setup --bellperson --backend cpu --vk "$T/k.vk" "$r1cs" "$T/k.params"
expect_out "backend cpu" "the summary names the backend"
expect 0 "bellperson prove" "$bin" prove --quiet --params "$T/k.params" --r1cs "$r1cs" --proof-bin "$T/p.bin" "$wtns"
expect 0 "bellperson verify" "$bin" verify "$T/k.vk" "$T/pub.json" "$T/p.bin"

expect 2 "--backend bogus is refused" "$bin" setup --backend bogus "$r1cs" "$T/x.zkey"
expect_out "unknown backend 'bogus'" "--backend bogus: the reason"
expect 2 "--backend cuda:7 is refused" "$bin" setup --backend cuda:7 "$r1cs" "$T/x.zkey"
expect_out "no CUDA backend|cuda:7" "--backend cuda:7: the reason"
expect 64 "--backend without a value" "$bin" setup "$r1cs" "$T/x.zkey" --backend
expect 1 "no key written after a refusal" test -e "$T/x.zkey"

echo "test_setup_backend.sh: $pass checks ok, $fail failed"
[ "$fail" -eq 0 ]
