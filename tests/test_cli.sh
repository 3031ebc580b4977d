#!/usr/bin/env bash
# The snarkpipe CLI against the real snarkjs 0.7.6 (installed from npm into
# BUILD/npm on first use, reused afterwards):
#   a. our prove -> snarkjs verifies (both BLS12-381 vectors)
#   b. snarkjs prove -> our verify accepts
#   c. our setup -> snarkjs proves with our zkey and verifies with our
#      exported vkey, and so do we (a vector circuit and a gen-circuit one)
#   d. bellperson params from our setup -> our prove (192-byte and JSON) -> our verify
#   e. tampered proof / public input -> rejected by both verifiers
#   f. a witness that breaks a constraint -> exit 2 naming its index
#   g. --insecure-fixed-rs 12345,67890 reproduces proof_fixed_rs.json byte for byte
#   h. mistakes named before any key is loaded: swapped arguments, circuit
#      inputs for a witness, a circuit for a key, the other curve's witness,
#      another circuit's witness, an output directory that does not exist,
#      an output that is an input (no key cache entry is written: the key
#      was never loaded; tests/test_porep_cli.sh times them on a large key);
#      one usage line for a usage error, "did you mean" for commands and
#      options; snarkjs' `groth16 prove|verify|fullprove` forms and orders
#   plus exit codes of usage errors, info and the bench --json lines.
# Usage: tests/test_cli.sh BUILD (the build dir holding snarkpipe; run.sh passes it).
# Prints failures and a summary; SP_TEST_VERBOSE=1 lists every check.
set -u
build=${1:-build}
bin=$build/snarkpipe
here=$(cd "$(dirname "$0")" && pwd)
vec=$here/vectors
[ -x "$bin" ] || { echo "test_cli: $bin not found (build first)"; exit 1; }
command -v node >/dev/null && command -v npm >/dev/null || { echo "test_cli: node and npm are required"; exit 1; }

T=$(mktemp -d "${TMPDIR:-/tmp}/sp_test_cli.XXXXXX")
trap 'rm -rf "$T"' EXIT
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
snarkjs=$(need_snarkjs "$build") || exit 1

# snarkjs_rejects NAME VK PUBLIC PROOF: snarkjs says the proof is invalid
# (non-zero exit, or an "Invalid" line, and never "OK!").
snarkjs_rejects() {
    local rc=0
    "$snarkjs" groth16 verify "$2" "$3" "$4" >"$T/out" 2>&1 || rc=$?
    if { [ "$rc" -ne 0 ] || grep -qi invalid "$T/out"; } && ! grep -q "OK!" "$T/out"; then
        pass=$((pass + 1))
        [ -z "${SP_TEST_VERBOSE:-}" ] || echo "ok   $1"
    else
        fail=$((fail + 1))
        echo "FAIL $1 (snarkjs accepted, exit $rc)"
        sed 's/^/     | /' "$T/out"
    fi
}

# json_edit IN OUT JS: OUT = IN parsed as JSON, changed by the JS statement
# (on `j`; p is the BLS12-381 base field prime, r the group order, as BigInt).
json_edit() {
    node -e '
const fs = require("fs");
const p = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaabn;
const r = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n;
const j = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
eval(process.argv[3]);
fs.writeFileSync(process.argv[2], JSON.stringify(j, null, 1));' "$1" "$2" "$3"
}

# poke_wtns IN OUT WIRE: OUT = IN with the low byte of w[WIRE] moved by 2
# (a bit becomes 2 or 3, any other value changes).
poke_wtns() {
    cp "$1" "$2"
    poke_byte "$2" $((76 + 32 * $3))
}

snarkjs_verify() { expect 0 "$1" "$snarkjs" groth16 verify "$2" "$3" "$4"; expect_out "OK!" "$1: OK"; }

echo "# a, g: our proofs of the snarkjs vectors"
for c in multiplier chain1021; do
    d=$vec/${c}_bls12381
    expect 0 "$c: prove" "$bin" prove --quiet "$d/circuit_final.zkey" "$d/witness.wtns" "$T/$c.proof.json" "$T/$c.public.json"
    snarkjs_verify "$c: snarkjs verifies our proof" "$d/verification_key.json" "$T/$c.public.json" "$T/$c.proof.json"
    expect 0 "$c: our verify" "$bin" verify "$d/verification_key.json" "$T/$c.public.json" "$T/$c.proof.json"
    expect_out "^OK$" "$c: our verify prints OK"
    expect 0 "$c: our verify with the .zkey as the key" "$bin" verify "$d/circuit_final.zkey" "$T/$c.public.json" "$T/$c.proof.json"
    expect_out "^OK$" "  (prints OK)"
    expect 0 "$c: export-vkey from verification_key.json" "$bin" export-vkey "$d/verification_key.json" "$T/$c.vk_again.json"
    expect 0 "  (the same bytes)" cmp "$d/verification_key.json" "$T/$c.vk_again.json"
    expect 0 "$c: prove --insecure-fixed-rs" "$bin" prove --quiet --insecure-fixed-rs 12345,67890 \
        "$d/circuit_final.zkey" "$d/witness.wtns" "$T/$c.fixed.json" "$T/$c.fixed_pub.json"
    expect_out "WARNING.*insecure" "$c: fixed r, s prints a warning"
    expect 0 "$c: fixed r, s proof = snarkjs' proof_fixed_rs.json, byte for byte" cmp "$T/$c.fixed.json" "$d/proof_fixed_rs.json"
    expect 0 "$c: public signals = snarkjs' public.json, byte for byte" cmp "$T/$c.fixed_pub.json" "$d/public_fixed_rs.json"
done

echo "# b: snarkjs proofs, our verify"
for c in multiplier chain1021; do
    d=$vec/${c}_bls12381
    expect 0 "$c: snarkjs prove" "$snarkjs" groth16 prove "$d/circuit_final.zkey" "$d/witness.wtns" "$T/$c.sj.json" "$T/$c.sj_pub.json"
    expect 0 "$c: our verify accepts snarkjs' proof" "$bin" verify "$d/verification_key.json" "$T/$c.sj_pub.json" "$T/$c.sj.json"
done

echo "# c: our setup, snarkjs proves and verifies"
"$bin" gen-circuit --quiet --constraints 2000 --public 2 --bool-fraction 0.6 "$T/gen.r1cs" "$T/gen.wtns" ||
    { echo "FAIL gen-circuit"; exit 1; }
setup_roundtrip() { # NAME R1CS WTNS
    local k=$T/$1
    expect 0 "$1: setup" "$bin" setup "$2" "$k.zkey"
    expect_out "WARNING.*NOT a trusted ceremony" "$1: setup warns that it is not a ceremony"
    expect 0 "$1: export-vkey" "$bin" export-vkey "$k.zkey" "$k.vk.json"
    expect 0 "$1: snarkjs proves with our zkey" "$snarkjs" groth16 prove "$k.zkey" "$3" "$k.sj.json" "$k.sj_pub.json"
    snarkjs_verify "$1: snarkjs verifies with our vkey" "$k.vk.json" "$k.sj_pub.json" "$k.sj.json"
    expect 0 "$1: our verify accepts" "$bin" verify "$k.vk.json" "$k.sj_pub.json" "$k.sj.json"
    expect 0 "$1: our prove --r1cs --check --verify" "$bin" prove --quiet --r1cs "$2" --check --verify "$k.zkey" "$3" "$k.p.json" "$k.p_pub.json"
    snarkjs_verify "$1: snarkjs verifies our proof" "$k.vk.json" "$k.p_pub.json" "$k.p.json"
}
setup_roundtrip chain1021 "$vec/chain1021_bls12381/circuit.r1cs" "$vec/chain1021_bls12381/witness.wtns"
setup_roundtrip gen2000 "$T/gen.r1cs" "$T/gen.wtns"

echo "# d: bellperson parameters"
k=$T/bp
expect 0 "bellperson setup" "$bin" setup --quiet --bellperson --vk "$k.vk" --vkey-json "$k.vk.json" "$T/gen.r1cs" "$k.params"
expect 0 "bellperson prove (192-byte and JSON)" "$bin" prove --quiet --params "$k.params" --r1cs "$T/gen.r1cs" \
    --proof-bin "$k.proof.bin" "$T/gen.wtns" "$k.proof.json" "$k.public.json"
expect 0 "192-byte proof has 192 bytes" test "$(wc -c <"$k.proof.bin")" -eq 192
expect 0 "our verify: .vk + 192-byte proof" "$bin" verify "$k.vk" "$k.public.json" "$k.proof.bin"
expect 0 "our verify: vkey JSON + proof JSON" "$bin" verify "$k.vk.json" "$k.public.json" "$k.proof.json"
expect 0 "our verify: the .params as the key" "$bin" verify "$k.params" "$k.public.json" "$k.proof.bin"
expect 2 "export-vkey from the vkey JSON to a .vk: refused" "$bin" export-vkey "$k.vk.json" "$k.vk3.vk"
expect_out "no beta_g1 and delta_g1" "  (says what JSON lacks)"
expect 1 "  (nothing written)" test -e "$k.vk3.vk"
expect 0 "export-vkey from the .vk to JSON = the setup's vkey JSON" "$bin" export-vkey "$k.vk" "$k.vk3.json"
expect 0 "  (identical files)" cmp "$k.vk.json" "$k.vk3.json"
expect 0 "export-vkey from .params = the setup's .vk" "$bin" export-vkey "$k.params" "$k.vk2.vk"
expect 0 "  (identical files)" cmp "$k.vk" "$k.vk2.vk"
# A key whose first coordinate bytes happen to read as whitespace and '{'
# (about one random key in a thousand) is still a .params: here alpha_g1's
# bytes are spoiled that way, and the error is about that point, not JSON.
for lead in '\n{' '\t\r[' ' {'; do
    cp "$k.params" "$k.lead.params"
    printf "$lead" | dd of="$k.lead.params" bs=1 conv=notrunc status=none
    expect 2 "export-vkey: a .params starting with $(printf %q "$lead") is read as one" \
        "$bin" export-vkey "$k.lead.params" "$T/lead.vk"
    expect_out "vk: alpha_g1: (not on the curve|bad flag bits)" "  (its first point refused)"
done
cp "$k.proof.bin" "$k.bad.bin"
poke_byte "$k.bad.bin" 150
expect 1 "our verify rejects a 192-byte proof with one byte changed" "$bin" verify "$k.vk" "$k.public.json" "$k.bad.bin"

echo "# e: tampered proofs and public inputs"
d=$vec/chain1021_bls12381
vk=$d/verification_key.json
json_edit "$T/chain1021.proof.json" "$T/t1.json" 'j.pi_a[0] = ((BigInt(j.pi_a[0]) + 1n) % p).toString()'
expect 1 "a coordinate of pi_a + 1: ours says invalid" "$bin" verify "$vk" "$T/chain1021.public.json" "$T/t1.json"
expect_out "^INVALID$" "  (prints INVALID)"
snarkjs_rejects "a coordinate of pi_a + 1: snarkjs rejects" "$vk" "$T/chain1021.public.json" "$T/t1.json"
json_edit "$T/chain1021.proof.json" "$T/t2.json" 'j.pi_c[1] = (p - BigInt(j.pi_c[1])).toString()'
expect 1 "pi_c negated (a valid point): ours says invalid" "$bin" verify "$vk" "$T/chain1021.public.json" "$T/t2.json"
snarkjs_rejects "pi_c negated: snarkjs rejects" "$vk" "$T/chain1021.public.json" "$T/t2.json"
json_edit "$T/chain1021.proof.json" "$T/t3.json" 'j.pi_b[0][1] = ((BigInt(j.pi_b[0][1]) + 5n) % p).toString()'
expect 1 "a coordinate of pi_b changed: ours says invalid" "$bin" verify "$vk" "$T/chain1021.public.json" "$T/t3.json"
snarkjs_rejects "a coordinate of pi_b changed: snarkjs rejects" "$vk" "$T/chain1021.public.json" "$T/t3.json"
json_edit "$T/chain1021.public.json" "$T/pub1.json" 'j[1] = ((BigInt(j[1]) + 1n) % r).toString()'
expect 1 "public input + 1: ours says invalid" "$bin" verify "$vk" "$T/pub1.json" "$T/chain1021.proof.json"
expect 1 "public input + 1, the .zkey as the key: ours says invalid" "$bin" verify "$d/circuit_final.zkey" "$T/pub1.json" "$T/chain1021.proof.json"
snarkjs_rejects "public input + 1: snarkjs rejects" "$vk" "$T/pub1.json" "$T/chain1021.proof.json"
json_edit "$T/chain1021.public.json" "$T/pub2.json" 'j[0] = (BigInt(j[0]) + r).toString()'
expect 1 "public input + r (not below r): ours says invalid" "$bin" verify "$vk" "$T/pub2.json" "$T/chain1021.proof.json"
snarkjs_rejects "public input + r: snarkjs rejects" "$vk" "$T/pub2.json" "$T/chain1021.proof.json"
expect 1 "a proof made with another key of the same circuit: ours says invalid" \
    "$bin" verify "$vk" "$T/chain1021.p_pub.json" "$T/chain1021.p.json"
snarkjs_rejects "a proof made with another key: snarkjs rejects" "$vk" "$T/chain1021.p_pub.json" "$T/chain1021.p.json"

echo "# f: witnesses that break a constraint"
m=$vec/multiplier_bls12381
poke_wtns "$m/witness.wtns" "$T/mbad.wtns" 1
expect 2 "multiplier, output changed: --check refuses" "$bin" prove --r1cs "$m/circuit.r1cs" --check \
    "$m/circuit_final.zkey" "$T/mbad.wtns" "$T/x.json" "$T/y.json"
expect_out "constraint 0 is not satisfied" "  (names constraint 0)"
expect 1 "  (and wrote no proof)" test -e "$T/x.json"
# gen-circuit: wire K + 3 + i is defined by constraint i (K = 2 public inputs).
poke_wtns "$T/gen.wtns" "$T/gbad.wtns" $((2 + 3 + 1234))
expect 2 "gen2000, wire of constraint 1234 changed: --check refuses" "$bin" prove --r1cs "$T/gen.r1cs" --check \
    "$T/gen2000.zkey" "$T/gbad.wtns" "$T/x.json" "$T/y.json"
expect_out "constraint 1234 is not satisfied" "  (names constraint 1234)"
expect 2 "  bellperson key: refused the same way" "$bin" prove --params "$k.params" --r1cs "$T/gen.r1cs" --check \
    --proof-bin "$T/x.bin" "$T/gbad.wtns"
expect_out "constraint 1234 is not satisfied" "  (names constraint 1234)"
expect 2 "gen2000 without --check, with --verify: the proof is refused" "$bin" prove --verify \
    "$T/gen2000.zkey" "$T/gbad.wtns" "$T/x.json" "$T/y.json"

echo "# exit codes, info, bench"
expect 64 "unknown command: usage error" "$bin" no-such-command
expect 64 "prove with 3 files: usage error" "$bin" prove a b c
expect 64 "--check without --r1cs: usage error" "$bin" prove --check a b c d
expect 64 "verify with an unknown option: usage error" "$bin" verify --frobnicate a b c
expect 64 "bad --threads: usage error" "$bin" --threads x info "$m/circuit.r1cs"
expect 2 "verify with a missing file: error" "$bin" verify "$T/none.json" "$T/none.json" "$T/none.json"
expect 0 "global options before the command" "$bin" --threads 1 --quiet prove "$m/circuit_final.zkey" \
    "$m/witness.wtns" "$T/q.json" "$T/q_pub.json"
expect 0 "  (prints nothing with --quiet)" test ! -s "$T/out"
expect 0 "info --json on a zkey" "$bin" info --json "$m/circuit_final.zkey"
expect_out '"type":"zkey".*"wires":4.*"public":1.*"domain_size":4' "  (type and sizes)"
expect 0 "info on a .params" "$bin" info "$k.params"
expect_out "bellperson Groth16 parameters" "  (recognised)"
expect 0 "info --json on public.json" "$bin" info --json "$T/chain1021.public.json"
expect_out '"type":"public_json","public":2' "  (type and count)"
expect 0 "verify --json" "$bin" verify --json "$vk" "$T/chain1021.public.json" "$T/chain1021.proof.json"
expect_out '^\{"valid":true\}$' "  (one JSON object)"
check_bench_json() { # NAME OP: every line of $T/out is an object with op, log_size, threads, seconds
    expect 0 "$1: JSON lines" node -e '
const lines = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n");
let n = 0;
for (const l of lines) {
    const o = JSON.parse(l);
    for (const k of ["op", "log_size", "threads", "seconds"]) if (!(k in o)) throw new Error("no " + k + ": " + l);
    if (!(o.seconds >= 0)) throw new Error("bad seconds: " + l);
    if (o.op === process.argv[2]) n++;
}
if (n === 0) throw new Error("no " + process.argv[2] + " row");' "$2" "$3"
}
expect 0 "bench msm g1 --json" "$bin" bench msm --group g1 --log-size 6,8 --threads 1,2 --reps 3 --json
cp "$T/out" "$T/bench.out" && check_bench_json "bench msm g1" "$T/bench.out" msm
expect 0 "bench msm g2 --split --json" "$bin" bench msm --group g2 --log-size 6 --bool-fraction 0.7 --split --reps 1 --json
cp "$T/out" "$T/bench.out" && check_bench_json "bench msm g2" "$T/bench.out" msm
expect 0 "bench ntt --json" "$bin" bench ntt --log-size 8 --threads 1 --json
cp "$T/out" "$T/bench.out" && check_bench_json "bench ntt" "$T/bench.out" ntt
expect 0 "bench prove --json" "$bin" bench prove "$m/circuit_final.zkey" "$m/witness.wtns" --reps 1 --json
cp "$T/out" "$T/bench.out" && check_bench_json "bench prove" "$T/bench.out" prove
expect 0 "bench prove --stages --json" "$bin" bench prove "$m/circuit_final.zkey" "$m/witness.wtns" --reps 2 --stages --json
for s in h msm_h msm_a msm_b1 msm_c msm_b2 outside_stages; do
    expect_out "\"op\":\"prove_stage\",\"stage\":\"$s\"" "  (stage $s)"
done
cp "$T/out" "$T/bench.out" && check_bench_json "bench prove --stages" "$T/bench.out" prove_stage
expect 0 "bench prove --stages table" "$bin" bench prove "$m/circuit_final.zkey" "$m/witness.wtns" --reps 1 --stages
expect_out "^  stage msm_h +[0-9.]+ ms" "  (a stage row)"
expect 0 "bench msm table" "$bin" bench msm --group g1 --log-size 6 --reps 1
expect_out "^msm +g1 plain" "  (a table row)"

# A FIFO given as an input file is refused at once (open(2) of a FIFO
# without a writer used to block for ever), by every reader: key, witness,
# JSON, and the file-kind detection of info.
mkfifo "$T/fifo"
expect 2 "prove: a FIFO as the key" timeout 20 "$bin" prove "$T/fifo" "$m/witness.wtns" "$T/f.json" "$T/f_pub.json"
expect_out "is not a regular file" "  (says why)"
expect 2 "prove: a FIFO as the witness" timeout 20 "$bin" prove "$m/circuit_final.zkey" "$T/fifo" "$T/f.json" "$T/f_pub.json"
expect 2 "verify: a FIFO as the key" timeout 20 "$bin" verify "$T/fifo" "$T/fifo" "$T/fifo"
expect 2 "info: a FIFO" timeout 20 "$bin" info "$T/fifo"
expect_out "is not a regular file" "  (says why)"

echo "# h: mistakes named at once; usage lines; snarkjs' forms"
c=$vec/chain1021_bls12381
bnv=$vec/chain1021_bn128
export SNARKPIPE_CACHE_DIR=$T/cache_h
early() { # NAME REGEX CMD...: exit 2, the message matches, and no key was loaded (no cache entry)
    expect 2 "$1" "${@:3}"
    expect_out "$2" "  (says: $2)"
    expect 0 "  (before loading the key: nothing cached)" test -z "$(ls -A "$T/cache_h" 2>/dev/null)"
}
early "swapped key and witness" "witness.wtns and .*circuit_final.zkey look swapped \(the order is prove <circuit.zkey> <witness.wtns>" \
    "$bin" prove "$c/witness.wtns" "$c/circuit_final.zkey" "$T/h.json" "$T/h_pub.json"
early "circuit inputs where the witness belongs" "public.json is JSON, not a witness \(.wtns\): .*snarkpipe wtns calculate circuit.wasm input.json witness.wtns.*snarkpipe fullprove" \
    "$bin" prove "$c/circuit_final.zkey" "$c/public.json" "$T/h.json" "$T/h_pub.json"
early "a circuit where the key belongs" "is a circuit \(.r1cs\), not a proving key \(.zkey\): make a key from the circuit first \(.snarkpipe setup" \
    "$bin" prove "$c/circuit.r1cs" "$c/witness.wtns" "$T/h.json" "$T/h_pub.json"
early "the other curve's witness" "wtns is for bn254 \(bn128\) but this is the bls12-381 prover; the key .* is for bls12-381" \
    "$bin" prove "$c/circuit_final.zkey" "$bnv/witness.wtns" "$T/h.json" "$T/h_pub.json"
early "another circuit's witness" "expected 1024 values \(nVars of the key .*\), file holds 4: the witness is of another circuit" \
    "$bin" prove "$c/circuit_final.zkey" "$m/witness.wtns" "$T/h.json" "$T/h_pub.json"
early "an output directory that does not exist" "cannot write $T/nodir/h.json: the directory $T/nodir does not exist \(create it first" \
    "$bin" prove "$c/circuit_final.zkey" "$c/witness.wtns" "$T/nodir/h.json" "$T/h_pub.json"
cp "$c/witness.wtns" "$T/h.wtns"
early "an output that is an input" "h.wtns is an input and an output" \
    "$bin" prove "$c/circuit_final.zkey" "$T/h.wtns" "$T/h.wtns" "$T/h_pub.json"
early "a porep-like preset that is not the key's" "the porep-like circuit of these options \(preset 2KiB: 39 public inputs\) is not the key's \(1024 wires, 2 public inputs\)" \
    "$bin" prove --circuit porep-like --preset 2KiB "$c/circuit_final.zkey" "$T/h.json" "$T/h_pub.json"
expect 2 "setup: an output directory that does not exist, before the setup" "$bin" setup "$c/circuit.r1cs" "$T/nodir/x.zkey"
expect_out "cannot write $T/nodir/x.zkey: the directory $T/nodir does not exist" "  (says so)"
expect 0 "  (before the setup: no warning that it runs)" bash -c "! grep -q WARNING '$T/out'"
unset SNARKPIPE_CACHE_DIR
short_usage() { # NAME REGEX CMD...: exit 64, the message matches, then one usage form (not the whole help)
    expect 64 "$1" "${@:3}"
    expect_out "$2" "  (says: $2)"
    expect 0 "  (at most 4 lines: the message, the usage form, where the rest is)" test "$(wc -l <"$T/out")" -le 4
}
short_usage "no command" "^usage: snarkpipe .*COMMAND" "$bin"
short_usage "prove with one file" "expected 4 file arguments, got 1" "$bin" prove "$c/circuit_final.zkey"
short_usage "verify with one file" "expected 3 file arguments, got 1" "$bin" verify "$c/verification_key.json"
short_usage "prov" "unknown command 'prov' \(did you mean prove\?\)" "$bin" prov a b c d
short_usage "proove" "unknown command 'proove' \(did you mean prove\?\)" "$bin" proove a b c d
short_usage "verfy" "unknown command 'verfy' \(did you mean verify\?\)" "$bin" verfy a b c
short_usage "client statsu" "unknown command 'statsu' \(did you mean status\?\)" "$bin" client statsu
short_usage "prove --verfy" "unknown option --verfy \(did you mean --verify\?\)" "$bin" prove --verfy a b c d
short_usage "prove --key-cache-dri=x" "unknown option --key-cache-dri=x \(did you mean --key-cache-dir\?\)" \
    "$bin" prove --key-cache-dri=x a b c d
short_usage "--quite" "unknown option '--quite' \(did you mean --quiet\?\)" "$bin" --quite prove a b c d
short_usage "no suggestion for a word like none" "unknown command 'frobnicate' \(snarkpipe help: the commands\)" \
    "$bin" frobnicate
short_usage "groth16 with another verb" "groth16 contribute: snarkpipe takes snarkjs' groth16 prove, verify, fullprove and setup" \
    "$bin" groth16 contribute a b
expect 0 "groth16 prove (snarkjs' form and order)" "$bin" --quiet groth16 prove "$c/circuit_final.zkey" "$c/witness.wtns" \
    "$T/g16.json" "$T/g16_pub.json"
expect 0 "groth16 verify (snarkjs' form and order)" "$bin" groth16 verify "$c/verification_key.json" "$T/g16_pub.json" "$T/g16.json"
expect_out "^OK$" "  (OK)"
snarkjs_verify "snarkjs verifies the groth16 prove form's proof" "$c/verification_key.json" "$T/g16_pub.json" "$T/g16.json"
expect 2 "verify with public.json and proof.json swapped" "$bin" verify "$c/verification_key.json" "$T/g16.json" "$T/g16_pub.json"
expect_out "public signals and proof look swapped \(the order is verify <verification_key.json> <public.json> <proof.json>\)" \
    "  (says so)"
expect 0 "g16p, g16v: snarkjs' short forms" bash -c "'$bin' --quiet g16p '$c/circuit_final.zkey' '$c/witness.wtns' \
    '$T/g16p.json' '$T/g16p_pub.json' && '$bin' g16v '$c/verification_key.json' '$T/g16p_pub.json' '$T/g16p.json'"
expect_out "^OK$" "  (OK)"
expect 0 "groth16 fullprove (snarkjs' form and order)" "$bin" --quiet groth16 fullprove "$c/input.json" "$c/circuit.wasm" \
    "$c/circuit_final.zkey" "$T/g16f.json" "$T/g16f_pub.json"
snarkjs_verify "snarkjs verifies the groth16 fullprove form's proof" "$c/verification_key.json" "$T/g16f_pub.json" "$T/g16f.json"
expect 0 "  (the public signals of the witness)" cmp "$T/g16f_pub.json" "$c/public.json"
expect 0 "g16f: snarkjs' short form" "$bin" --quiet g16f "$c/input.json" "$c/circuit.wasm" "$c/circuit_final.zkey" \
    "$T/g16f2.json" "$T/g16f2_pub.json"
expect 0 "  (verifies)" "$bin" verify "$c/verification_key.json" "$T/g16f2_pub.json" "$T/g16f2.json"
expect 0 "groth16 prove of a bn128 key: the curve from its files" "$bin" --quiet groth16 prove "$bnv/circuit_final.zkey" \
    "$bnv/witness.wtns" "$T/g16bn.json" "$T/g16bn_pub.json"
expect 0 "  (verifies)" "$bin" groth16 verify "$bnv/verification_key.json" "$T/g16bn_pub.json" "$T/g16bn.json"

echo "test_cli.sh: $pass checks ok, $fail failed"
[ "$fail" -eq 0 ]
