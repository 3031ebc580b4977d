#!/usr/bin/env bash
# Ethereum conveniences for BN254 keys, against the real snarkjs 0.7.6 and a
# real EVM (tests/evm: solc-js and ethereumjs' EVM with the BN254
# precompiles, pinned by tests/evm/package-lock.json, installed into
# BUILD/npm-evm on first use):
#   a. export-solidity writes a contract that compiles (no warnings) with
#      snarkjs' interface; the same from the vkey and from the zkey
#   b. calldata prints byte for byte what snarkjs soliditycalldata prints,
#      for snarkjs' proofs and ours
#   c. on the EVM, our contract and snarkjs' accept each valid proof and
#      refuse changed ones (signal + 1, signal + r, A negated, points off the
#      curve, ...) alike (tests/evm/check.mjs)
#   d. bad input: a BLS12-381 key or proof, points off the curve or outside
#      the subgroup, signals >= r, a key without public signals; the output
#      file is replaced atomically or left as it was
# Usage: tests/test_solidity.sh BUILD (the build dir holding snarkpipe).
set -u
build=${1:-build}
bin=$build/snarkpipe
here=$(cd "$(dirname "$0")" && pwd)
vec=$here/vectors
[ -x "$bin" ] || { echo "test_solidity: $bin not found (build first)"; exit 1; }
command -v node >/dev/null && command -v npm >/dev/null || { echo "test_solidity: node and npm are required"; exit 1; }

T=$(mktemp -d "${TMPDIR:-/tmp}/sp_test_solidity.XXXXXX")
trap 'rm -rf "$T"' EXIT
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
snarkjs=$(need_snarkjs "$build") || exit 1
modules=$(need_evm "$build") || exit 1

# json_edit IN OUT JS: OUT = IN parsed as JSON, changed by the JS statement
# (on `j`; p and r are BN254's base field prime and group order, as BigInt).
json_edit() {
    node -e '
const fs = require("fs");
const p = 0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47n;
const r = 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001n;
const j = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
eval(process.argv[3]);
fs.writeFileSync(process.argv[2], JSON.stringify(j, null, 1));' "$1" "$2" "$3"
}

echo "# a, b: contracts and calldata"
calldata_files=()
for c in multiplier chain1021; do
    d=$vec/${c}_bn128
    expect 0 "$c: export-solidity from the vkey" "$bin" export-solidity "$d/verification_key.json" "$T/$c.sol"
    expect_out "Groth16Verifier \(BN254, [0-9]+ public signals?\) written" "  (says what it wrote)"
    expect 0 "$c: export-solidity from the zkey" "$bin" export-solidity --quiet "$d/circuit_final.zkey" "$T/$c.zkey.sol"
    expect 0 "  (the same contract)" cmp "$T/$c.sol" "$T/$c.zkey.sol"
    expect 0 "$c: snarkjs solidityverifier" "$snarkjs" zkey export solidityverifier "$d/circuit_final.zkey" "$T/$c.snarkjs.sol"
    expect 0 "$c: our prove" "$bin" prove --quiet "$d/circuit_final.zkey" "$d/witness.wtns" "$T/$c.ours.json" "$T/$c.ours_pub.json"
    expect 0 "$c: our prove --insecure-fixed-rs = snarkjs' proof_fixed_rs.json" "$bin" prove --quiet \
        --insecure-fixed-rs 12345,67890 "$d/circuit_final.zkey" "$d/witness.wtns" "$T/$c.fixed.json" "$T/$c.fixed_pub.json"
    expect 0 "  (byte for byte)" cmp "$T/$c.fixed.json" "$d/proof_fixed_rs.json"
    for pr in "snarkjs:$d/public.json:$d/proof.json" "fixed_rs:$d/public_fixed_rs.json:$d/proof_fixed_rs.json" \
        "ours:$T/$c.ours_pub.json:$T/$c.ours.json"; do
        IFS=: read -r name pub proof <<<"$pr"
        out=$T/$c.$name.calldata
        expect 0 "$c, $name proof: calldata" "$bin" calldata "$pub" "$proof"
        cp "$T/out" "$out"
        "$snarkjs" zkey export soliditycalldata "$pub" "$proof" >"$out.snarkjs" 2>&1
        expect 0 "  (= snarkjs soliditycalldata, byte for byte)" cmp "$out" "$out.snarkjs"
        calldata_files+=("$c:$out")
    done
done

echo "# c: on the EVM"
for c in multiplier chain1021; do
    files=()
    for cf in "${calldata_files[@]}"; do [ "${cf%%:*}" = "$c" ] && files+=("${cf#*:}"); done
    expect 0 "$c: ours and snarkjs' contracts, ${#files[@]} proofs and their changed copies" \
        node "$here/evm/check.mjs" "$modules" "$T/$c.sol" "$T/$c.snarkjs.sol" -- "${files[@]}"
    expect_out "^all calls answered as expected$" "  (every call as expected)"
    cp "$T/out" "$T/$c.evm"
    expect 1 "$c: our contract compiles without warnings" grep -q "^$T/$c.sol: solc" "$T/$c.evm"
    [ -z "${SP_TEST_VERBOSE:-}" ] || grep " valid:\|bytes of code" "$T/$c.evm" | sed 's/^/     /'
done

echo "# d: bad input"
m=$vec/multiplier_bn128
echo keep >"$T/keep.sol"
expect 2 "a BLS12-381 vkey: refused" "$bin" export-solidity "$vec/multiplier_bls12381/verification_key.json" "$T/keep.sol"
expect_out "BLS12-381.*BN254 only" "  (names both curves)"
expect 0 "  (the output is left as it was)" grep -qx keep "$T/keep.sol"
expect 2 "a BLS12-381 proof: calldata refuses" "$bin" calldata "$vec/multiplier_bls12381/public.json" "$vec/multiplier_bls12381/proof.json"
expect_out "BLS12-381.*BN254 only" "  (names both curves)"

expect 2 "--curve bls12-381 with a BN254 vkey: refused" "$bin" --curve bls12-381 export-solidity "$m/verification_key.json" "$T/keep.sol"
expect_out "bn254.*bls12-381" "  (names both curves)"
expect 2 "--curve bn254 with a BLS12-381 proof: refused" "$bin" --curve bn254 calldata \
    "$vec/multiplier_bls12381/public.json" "$vec/multiplier_bls12381/proof.json"
expect_out "bls12-381.*bn254" "  (names both curves)"
expect 0 "  (the output is left as it was)" grep -qx keep "$T/keep.sol"

json_edit "$m/verification_key.json" "$T/vk_off.json" 'j.vk_alpha_1[0] = ((BigInt(j.vk_alpha_1[0]) + 1n) % p).toString()'
expect 2 "vkey with alpha off the curve: refused" "$bin" export-solidity "$T/vk_off.json" "$T/keep.sol"
expect_out "vk_alpha_1" "  (names the point)"
expect 0 "  (the output is left as it was)" grep -qx keep "$T/keep.sol"
# A point of the twist y^2 = x^3 + 3/(9+u) outside the order-r subgroup
# (x = 2 + u; found and checked with @noble/curves 2.4.0's bn254).
json_edit "$m/verification_key.json" "$T/vk_sub.json" 'j.vk_delta_2 = [["2", "1"],
    ["7292567877523311580221095596750716176434782432868683424513645834767876293070",
     "19659275751359636165940301690575149581329631496732780143538578556285923319774"], ["1", "0"]]'
expect 2 "vkey with delta outside the subgroup: refused" "$bin" export-solidity "$T/vk_sub.json" "$T/keep.sol"
expect_out "subgroup" "  (says so)"
json_edit "$m/proof.json" "$T/proof_sub.json" 'j.pi_b = [["2", "1"],
    ["7292567877523311580221095596750716176434782432868683424513645834767876293070",
     "19659275751359636165940301690575149581329631496732780143538578556285923319774"], ["1", "0"]]'
expect 2 "proof with B outside the subgroup: calldata refuses" "$bin" calldata "$m/public.json" "$T/proof_sub.json"
expect_out "subgroup" "  (says so)"
json_edit "$m/proof.json" "$T/proof_off.json" 'j.pi_a[1] = ((BigInt(j.pi_a[1]) + 1n) % p).toString()'
expect 2 "proof with A off the curve: calldata refuses" "$bin" calldata "$m/public.json" "$T/proof_off.json"
json_edit "$m/public.json" "$T/pub_r.json" 'j[0] = (BigInt(j[0]) + r).toString()'
expect 2 "public signal + r: calldata refuses" "$bin" calldata "$T/pub_r.json" "$m/proof.json"
json_edit "$m/verification_key.json" "$T/vk_0.json" 'j.nPublic = 0; j.IC = j.IC.slice(0, 1)'
expect 2 "vkey without public signals: refused" "$bin" export-solidity "$T/vk_0.json" "$T/keep.sol"
expect_out "no public signals" "  (says why)"
expect 0 "  (the output is left as it was)" grep -qx keep "$T/keep.sol"

echo "# d: writing the output"
expect 64 "output = input: usage error" "$bin" export-solidity "$m/verification_key.json" "$m/verification_key.json"
expect 2 "output in a missing folder: error" "$bin" export-solidity "$m/verification_key.json" "$T/none/v.sol"
mkdir "$T/dir.sol"
expect 2 "output is a folder: error" "$bin" export-solidity "$m/verification_key.json" "$T/dir.sol"
expect_out "not a regular file" "  (says so)"
chmod 0640 "$T/keep.sol"
expect 0 "an existing output is replaced" "$bin" export-solidity "$m/verification_key.json" "$T/keep.sol"
expect 0 "  (with the new contract)" cmp "$T/keep.sol" "$T/multiplier.sol"
expect 0 "  (keeping its mode)" test "$(stat -c %a "$T/keep.sol")" = 640
expect 0 "  (and no temporary file)" test "$(find "$T" -maxdepth 1 -name '*.tmp-*' | wc -l)" = 0
ln -s keep.sol "$T/link.sol"
expect 0 "through a symbolic link" "$bin" export-solidity "$vec/chain1021_bn128/verification_key.json" "$T/link.sol"
expect 0 "  (the link stays a link)" test -L "$T/link.sol"
expect 0 "  (its target holds the contract)" cmp "$T/keep.sol" "$T/chain1021.sol"
expect 64 "calldata with one file: usage error" "$bin" calldata "$m/public.json"
expect 2 "calldata with a missing file: error" "$bin" calldata "$m/public.json" "$T/none.json"
expect 0 "help lists export-solidity and calldata" "$bin" help
expect_out "export-solidity" "  (export-solidity)"
expect_out "^  calldata" "  (calldata)"

echo "test_solidity: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
