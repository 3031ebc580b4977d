#!/usr/bin/env bash
# The setup from a powers-of-tau file against the real snarkjs 0.7.6
# (installed into BUILD/npm on first use), on both curves: for each curve
# a .ptau made here by snarkjs (powersoftau new, contribute with entropy,
# prepare phase2; fresh randomness every run), then for every circuit
# under tests/vectors/ with an r1cs:
#   - `snarkpipe setup circuit.r1cs pot.ptau` writes snarkjs' own
#     `groth16 setup` file byte for byte (cmp), and so does the setup from
#     the .ptau before `prepare phase2`;
#   - snarkjs' `zkey verify` accepts it, `zkey contribute` and `zkey
#     beacon` build on it, and `zkey verify` accepts the final key;
#   - with the final key, snarkjs' proof and ours verify in snarkjs;
#     a tampered public signal is refused;
# `snarkpipe ptau-prepare` writes snarkjs' `powersoftau prepare phase2`
# file byte for byte; `snarkpipe info` describes the .ptau (prepared or not); a 2-argument
# setup whose output is a .ptau is refused before anything is written.
# Usage: tests/test_ptau.sh BUILD (the build dir holding snarkpipe; run.sh passes it).
set -u
build=${1:-build}
bin=$build/snarkpipe
here=$(cd "$(dirname "$0")" && pwd)
vec=$here/vectors
power=10 # the vectors' largest domain is 2^10
[ -x "$bin" ] || { echo "test_ptau: $bin not found (build first)"; exit 1; }
command -v node >/dev/null && command -v npm >/dev/null || { echo "test_ptau: node and npm are required"; exit 1; }

T=$(mktemp -d "${TMPDIR:-/tmp}/sp_test_ptau.XXXXXX")
trap 'rm -rf "$T"' EXIT
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
snarkjs=$(need_snarkjs "$build") || exit 1

# The two curves' ceremonies at once (each takes about a minute).
make_ptau() {
    local c=$1 e
    e=$(od -An -tx8 -N16 /dev/urandom | tr -d ' \n')
    "$snarkjs" powersoftau new "$c" "$power" "$T/${c}_0.ptau" &&
        "$snarkjs" powersoftau contribute "$T/${c}_0.ptau" "$T/${c}_raw.ptau" --name=test -e="$e" &&
        "$snarkjs" powersoftau prepare phase2 "$T/${c}_raw.ptau" "$T/$c.ptau"
}
make_ptau bn128 >"$T/ptau_bn128.log" 2>&1 &
bn_pid=$!
make_ptau bls12381 >"$T/ptau_bls12381.log" 2>&1
wait "$bn_pid"
for curve in bn128 bls12381; do
    expect 0 "snarkjs makes the $curve ptau" test -s "$T/$curve.ptau"
    [ -s "$T/$curve.ptau" ] || tail -5 "$T/ptau_$curve.log"
done

for curve in bn128 bls12381; do
    pot=$T/$curve.ptau
    raw=$T/${curve}_raw.ptau
    [ -s "$pot" ] || continue
    expect 0 "$curve: info ptau" "$bin" info "$pot"
    expect_out "power +$power" "  (power)"
    expect_out "contributions +1" "  (contributions)"
    expect_out "prepared_phase2 +yes" "  (prepared)"
    expect 0 "$curve: info --json --check raw ptau" "$bin" info --json --check "$raw"
    expect_out '"type":"ptau".*"prepared_phase2":"no' "  (not prepared)"
    expect 0 "$curve: ptau-prepare" "$bin" ptau-prepare --quiet "$raw" "$T/${curve}_ours.ptau"
    expect 0 "$curve: ptau-prepare = snarkjs' prepare phase2 byte for byte" cmp "$T/${curve}_ours.ptau" "$pot"
    for dir in "$vec"/*_"$curve"; do
        [ -f "$dir/circuit.r1cs" ] || continue
        name=$(basename "$dir")
        o=$T/$name
        mkdir -p "$o"
        expect 0 "$name: setup" "$bin" setup "$dir/circuit.r1cs" "$pot" "$o/ours_0000.zkey"
        expect_out "circuit hash [0-9a-f]{128}" "  (prints the circuit hash)"
        expect 0 "$name: snarkjs setup" "$snarkjs" groth16 setup "$dir/circuit.r1cs" "$pot" "$o/js_0000.zkey"
        expect 0 "$name: byte for byte snarkjs' setup" cmp "$o/ours_0000.zkey" "$o/js_0000.zkey"
        expect 0 "$name: setup from the unprepared ptau" "$bin" setup "$dir/circuit.r1cs" "$raw" "$o/raw_0000.zkey"
        expect 0 "$name: the same file" cmp "$o/raw_0000.zkey" "$o/js_0000.zkey"
        expect 0 "$name: snarkjs zkey verify" "$snarkjs" zkey verify "$dir/circuit.r1cs" "$pot" "$o/ours_0000.zkey"
        expect_out "ZKey Ok!" "  (ZKey Ok!)"
        expect 0 "$name: snarkjs zkey contribute" "$snarkjs" zkey contribute "$o/ours_0000.zkey" "$o/ours_0001.zkey" \
            --name=first -e="$(od -An -tx8 -N16 /dev/urandom | tr -d ' \n')"
        expect 0 "$name: snarkjs zkey beacon" "$snarkjs" zkey beacon "$o/ours_0001.zkey" "$o/final.zkey" \
            0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f 10 --name=beacon
        expect 0 "$name: snarkjs zkey verify (final)" "$snarkjs" zkey verify "$dir/circuit.r1cs" "$pot" "$o/final.zkey"
        expect_out "ZKey Ok!" "  (ZKey Ok!)"
        expect 0 "$name: snarkjs exports the vkey" "$snarkjs" zkey export verificationkey "$o/final.zkey" "$o/vk.json"
        expect 0 "$name: snarkjs proves" "$snarkjs" groth16 prove "$o/final.zkey" "$dir/witness.wtns" "$o/js_proof.json" \
            "$o/js_public.json"
        expect 0 "$name: snarkjs' proof verifies" "$snarkjs" groth16 verify "$o/vk.json" "$o/js_public.json" \
            "$o/js_proof.json"
        expect_out "OK!" "  (OK!)"
        expect 0 "$name: we prove" "$bin" prove "$o/final.zkey" "$dir/witness.wtns" "$o/proof.json" "$o/public.json"
        expect 0 "$name: our proof verifies in snarkjs" "$snarkjs" groth16 verify "$o/vk.json" "$o/public.json" \
            "$o/proof.json"
        expect_out "OK!" "  (OK!)"
        sed 's/"\([0-9]\)/"1\1/' "$o/public.json" >"$o/public_bad.json"
        expect 1 "$name: a changed public signal is refused" "$snarkjs" groth16 verify "$o/vk.json" \
            "$o/public_bad.json" "$o/proof.json"
    done
    mul=$vec/multiplier_$curve
    cp "$pot" "$T/keep.ptau"
    expect 64 "$curve: setup with the ptau as output" "$bin" setup "$mul/circuit.r1cs" "$T/keep.ptau"
    expect_out "setup $mul/circuit.r1cs $T/keep.ptau circuit_0000.zkey" "  (says the 3-file form)"
    expect 0 "$curve: the ptau is untouched" cmp "$pot" "$T/keep.ptau"
done

echo "test_ptau.sh: $pass checks ok, $fail failed"
[ "$fail" -eq 0 ]
