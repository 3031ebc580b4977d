#!/usr/bin/env bash
# BN254 (snarkjs' and circom's bn128) through the two-curve snarkpipe,
# against the real snarkjs 0.7.6 and circom 2 (the npm package circom2
# 0.2.23) with circomlib 2.0.5, all installed into BUILD/npm on first use:
#   a. our proofs of the bn128 vectors verify in snarkjs, and with r = 12345,
#      s = 67890 they are snarkjs' proof_fixed_rs.json byte for byte;
#      snarkjs' proofs verify here, alone and in a batch (engine);
#   b. a circuit compiled by circom for bn128 from circomlib's gadgets
#      (tests/circom/preimage.circom; witness from circom's wasm): our
#      setup -> snarkjs proves with our zkey and verifies with our vkey,
#      which is snarkjs' own export byte for byte; our proofs verify in
#      snarkjs, snarkjs' proofs verify here; a broken witness is refused;
#   c. gen-circuit --curve bn254: our setup and prove, snarkjs verifies;
#   d. the curve: from the files (.zkey/.r1cs/.wtns prime, JSON "curve"),
#      or --curve; files of the two curves mixed, or a --curve that
#      contradicts them, are refused naming both curves; bellperson files
#      and porep-like are BLS12-381's and refused on BN254; info, version
#      and help name the curves; bench on BN254.
# The BN254 daemon is tested by test_daemon.sh (section f).
# Usage: tests/test_bn254.sh BUILD (the build dir holding snarkpipe; run.sh passes it).
set -u
build=${1:-build}
bin=$build/snarkpipe
here=$(cd "$(dirname "$0")" && pwd)
vec=$here/vectors
[ -x "$bin" ] || { echo "test_bn254: $bin not found (build first)"; exit 1; }
command -v node >/dev/null && command -v npm >/dev/null || { echo "test_bn254: node and npm are required"; exit 1; }

T=$(mktemp -d "${TMPDIR:-/tmp}/sp_test_bn254.XXXXXX")
trap 'rm -rf "$T"' EXIT
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
snarkjs=$(need_snarkjs "$build") || exit 1
circom=$(need_circom "$build") && circom=$(realpath "$circom") || exit 1

snarkjs_verify() { expect 0 "$1" "$snarkjs" groth16 verify "$2" "$3" "$4"; expect_out "OK!" "$1: OK"; }
mul=$vec/multiplier_bn128
chain=$vec/chain1021_bn128
blsm=$vec/multiplier_bls12381

echo "# a. the bn128 vectors"
for d in "$mul" "$chain"; do
    c=$(basename "$d")
    expect 0 "$c: prove" "$bin" prove --quiet "$d/circuit_final.zkey" "$d/witness.wtns" "$T/$c.p.json" "$T/$c.pub.json"
    snarkjs_verify "$c: snarkjs verifies our proof" "$d/verification_key.json" "$T/$c.pub.json" "$T/$c.p.json"
    expect 0 "$c: our verify" "$bin" verify "$d/verification_key.json" "$T/$c.pub.json" "$T/$c.p.json"
    expect 0 "$c: prove --insecure-fixed-rs" "$bin" prove --quiet --insecure-fixed-rs 12345,67890 \
        "$d/circuit_final.zkey" "$d/witness.wtns" "$T/$c.f.json" "$T/$c.fpub.json"
    expect 0 "$c: fixed r, s proof = snarkjs' proof_fixed_rs.json, byte for byte" cmp "$T/$c.f.json" "$d/proof_fixed_rs.json"
    expect 0 "$c: public signals = snarkjs' public.json, byte for byte" cmp "$T/$c.fpub.json" "$d/public_fixed_rs.json"
    expect 0 "$c: snarkjs' proof verifies here" "$bin" verify "$d/verification_key.json" "$d/public.json" "$d/proof.json"
    expect 0 "$c: snarkjs' proof verifies with the .zkey as the key" "$bin" verify "$d/circuit_final.zkey" "$d/public.json" "$d/proof.json"
    expect 0 "$c: export-vkey = snarkjs' verification_key.json" "$bin" export-vkey "$d/circuit_final.zkey" "$T/$c.vk.json"
    expect 0 "  (byte for byte)" cmp "$T/$c.vk.json" "$d/verification_key.json"
    expect 0 "$c: prove --r1cs --check --verify" "$bin" prove --quiet --r1cs "$d/circuit.r1cs" --check --verify \
        "$d/circuit_final.zkey" "$d/witness.wtns" "$T/$c.c.json" "$T/$c.cpub.json"
done
expect 0 "snarkjs prove, our verify" "$snarkjs" groth16 prove "$chain/circuit_final.zkey" "$chain/witness.wtns" \
    "$T/sj.json" "$T/sj_pub.json"
expect 0 "  accepted" "$bin" verify "$chain/verification_key.json" "$T/sj_pub.json" "$T/sj.json"
sed 's/"1234567"/"1234568"/' "$T/sj_pub.json" >"$T/sj_bad_pub.json"
expect 1 "  a wrong public input: INVALID" "$bin" verify "$chain/verification_key.json" "$T/sj_bad_pub.json" "$T/sj.json"

echo "# b. a circom circuit from circomlib's gadgets"
mkdir -p "$T/circ/lib/circomlib"
cp "$here/circom/preimage.circom" "$T/circ/"
# circom2 runs as WebAssembly with the working directory as its only file
# system: the circuit and circomlib's sources are copied under it
cp -r "$build/npm/node_modules/circomlib/circuits" "$T/circ/lib/circomlib/"
(cd "$T/circ" && "$circom" preimage.circom --r1cs --wasm -l lib -o . >compile.log 2>&1) ||
    { echo "FAIL circom2 could not compile tests/circom/preimage.circom:"; cat "$T/circ/compile.log"; exit 1; }
k=$T/circ/preimage
echo '{"secret": "123456789", "nonce": "987654321987654321", "limit": "1000000000"}' >"$T/in.json"
expect 0 "circom's witness (snarkjs wtns calculate)" "$snarkjs" wtns calculate "${k}_js/preimage.wasm" "$T/in.json" "$k.wtns"
expect 0 "info: the circuit is bn254's" "$bin" info --json "$k.r1cs"
expect_out '"type":"r1cs","curve":"bn254","constraints":2424' "  (type, curve, constraints)"
expect 0 "our setup" "$bin" setup --quiet "$k.r1cs" "$k.zkey"
expect 0 "export-vkey" "$bin" export-vkey "$k.zkey" "$k.vk.json"
expect 0 "snarkjs exports the same vkey from our zkey" "$snarkjs" zkey export verificationkey "$k.zkey" "$k.sjvk.json"
expect 0 "  (byte for byte)" cmp "$k.vk.json" "$k.sjvk.json"
expect 0 "our prove --r1cs --check" "$bin" prove --quiet --r1cs "$k.r1cs" --check "$k.zkey" "$k.wtns" "$k.p.json" "$k.pub.json"
snarkjs_verify "snarkjs verifies our proof" "$k.vk.json" "$k.pub.json" "$k.p.json"
expect 0 "snarkjs proves with our zkey" "$snarkjs" groth16 prove "$k.zkey" "$k.wtns" "$k.sj.json" "$k.sj_pub.json"
expect 0 "  the same public signals" cmp "$k.pub.json" "$k.sj_pub.json"
expect 0 "our verify accepts snarkjs' proof" "$bin" verify "$k.vk.json" "$k.sj_pub.json" "$k.sj.json"
echo '{"secret": "2000000000", "nonce": "5", "limit": "1000000000"}' >"$T/in_bad.json"
"$snarkjs" wtns calculate "${k}_js/preimage.wasm" "$T/in_bad.json" "$k.bad.wtns" >/dev/null 2>&1 &&
    { echo "FAIL circom's witness calculator accepted secret >= limit"; fail=$((fail + 1)); }
cp "$k.wtns" "$k.bad.wtns"
poke_byte "$k.bad.wtns" $((76 + 32 * 5))
expect 2 "a changed witness: --check refuses" "$bin" prove --r1cs "$k.r1cs" --check "$k.zkey" "$k.bad.wtns" \
    "$T/x.json" "$T/y.json"
expect_out "constraint [0-9]+ is not satisfied" "  (names the constraint)"
expect 1 "  and writes nothing" test -e "$T/x.json"

echo "# c. gen-circuit --curve bn254"
expect 0 "gen-circuit" "$bin" gen-circuit --curve bn254 --quiet --constraints 3000 --public 2 --bool-fraction 0.5 \
    "$T/g.r1cs" "$T/g.wtns"
expect 0 "  info: bn254" "$bin" info "$T/g.r1cs"
expect_out "curve +bn254 \(bn128\)" "  (curve line)"
expect 0 "setup, then prove" "$bin" setup --quiet --vkey-json "$T/g.vk.json" "$T/g.r1cs" "$T/g.zkey"
expect 0 "  prove" "$bin" prove --quiet "$T/g.zkey" "$T/g.wtns" "$T/g.p.json" "$T/g.pub.json"
snarkjs_verify "  snarkjs verifies" "$T/g.vk.json" "$T/g.pub.json" "$T/g.p.json"

echo "# d. which curve"
expect 0 "version names both curves" "$bin" --version
expect_out "^curves: bls12-381, bn254 \(bn128\)$" "  (curves line)"
expect 0 "info alone names both curves" "$bin" --json info
expect_out '^\{"version":"[0-9.]+","curves":\["bls12-381","bn254"\]\}$' "  (JSON)"
expect 0 "help" "$bin" --curve bn128 help
expect_out "This is the bn254 \(bn128\) prover" "  (--curve bn128 chose the BN254 prover)"
expect 0 "info --json on a bn128 zkey" "$bin" info --json "$mul/circuit_final.zkey"
expect_out '"type":"zkey","curve":"bn254"' "  (curve)"
expect 0 "info --json on a bn128 proof" "$bin" info --json "$mul/proof.json"
expect_out '"type":"proof_json","curve":"bn254"' "  (curve)"
expect 64 "--curve with an unknown name" "$bin" --curve bls12-377 info "$mul/circuit.r1cs"
expect_out "unknown curve 'bls12-377'" "  (says so)"
expect 64 "--curve without a name" "$bin" info "$mul/circuit.r1cs" --curve
expect 2 "bn128 key, BLS12-381 witness" "$bin" prove "$mul/circuit_final.zkey" "$blsm/witness.wtns" "$T/x.json" "$T/y.json"
expect_out "witness.wtns: wtns is for bls12-381 but this is the bn254 \(bn128\) prover" "  (names both curves)"
expect 2 "BLS12-381 key, bn128 witness" "$bin" prove "$blsm/circuit_final.zkey" "$mul/witness.wtns" "$T/x.json" "$T/y.json"
expect_out "wtns is for bn254 \(bn128\) but this is the bls12-381 prover" "  (names both curves)"
expect 2 "--curve bls12-381 on bn128 files" "$bin" --curve bls12-381 prove "$mul/circuit_final.zkey" "$mul/witness.wtns" \
    "$T/x.json" "$T/y.json"
expect_out "zkey is for bn254 \(bn128\) but this is the bls12-381 prover" "  (names both curves)"
expect 1 "  and wrote nothing" test -e "$T/x.json"
expect 2 "bn128 vkey, BLS12-381 proof" "$bin" verify "$mul/verification_key.json" "$blsm/public.json" "$blsm/proof.json"
expect_out "proof is for bls12-381 but this is the bn254 \(bn128\) prover" "  (names both curves)"
expect 2 "setup of a bn128 circuit with --curve bls12-381" "$bin" setup --curve=bls12-381 "$mul/circuit.r1cs" "$T/x.zkey"
expect_out "r1cs is for bn254 \(bn128\) but this is the bls12-381 prover" "  (names both curves)"
expect 2 "bellperson setup on BN254" "$bin" setup --bellperson "$mul/circuit.r1cs" "$T/x.params"
expect_out "bellperson .* are bls12-381's; this is the bn254 \(bn128\) prover" "  (says why)"
expect 1 "  and wrote nothing" test -e "$T/x.params"
expect 2 "a 192-byte bellperson proof on BN254" "$bin" prove --proof-bin "$T/x.bin" "$mul/circuit_final.zkey" \
    "$mul/witness.wtns" "$T/x.json" "$T/y.json"
expect_out "bls12-381's" "  (says why)"
expect 2 "porep-like on BN254" "$bin" gen-circuit --curve bn254 --kind porep-like --dry-run
expect_out "native circuits \(porep-like\) .* are bls12-381's" "  (says why)"
expect 0 "bench msm --curve bn254" "$bin" bench msm --curve bn254 --group g2 --log-size 6 --reps 1 --json
expect_out '"op":"msm"' "  (a JSON row)"
expect_out '"path":"scalar"' "  (timed one addition at a time)"
if grep -qw avx512ifma /proc/cpuinfo && [ "${SP_NO_ASM:-0}" = 0 ]; then
    expect_out '"path":"ifma"' "  (and on the IFMA lanes, this CPU having them)"
else
    echo "  (this CPU has no AVX-512 IFMA: no row on its lanes)"
fi
expect 0 "bench prove on bn128 files" "$bin" bench prove "$chain/circuit_final.zkey" "$chain/witness.wtns" --reps 1 --json
expect_out '"op":"prove"' "  (a JSON row)"

echo "test_bn254.sh: $pass checks ok, $fail failed"
[ "$fail" -eq 0 ]
