#!/usr/bin/env bash
# `snarkpipe wtns calculate` and `snarkpipe fullprove` (circom's .wasm run
# natively) against snarkjs 0.7.6, on both curves:
#   a. the committed vectors (tests/vectors/*/circuit.wasm): our .wtns is
#      snarkjs' witness.wtns byte for byte; fullprove with their keys gives
#      proofs snarkjs verifies (also as `groth16 fullprove`);
#   b. circuits compiled here by circom 2 from circomlib (tests/circom/:
#      Poseidon Merkle paths, SHA-256, MiMC7 + Pedersen, the Poseidon /
#      MiMCSponge preimage of test_bn254.sh) for bn128 and bls12381, on
#      random valid inputs (seed printed; SP_SEED replays): our .wtns equals
#      snarkjs wtns calculate's byte for byte, with the native field
#      operations and without; fullprove proofs verify in snarkjs; the
#      same for circomlib's EdDSAPoseidonVerifier on bn128 with random keys
#      and messages signed by circomlibjs (npm), and a signature of another
#      message fails in both, naming the template ForceEqualIfEnabled; a
#      circuit with bus inputs (given whole or by field) whose .r1cs counts
#      private inputs the optimizer took off the wires: same witness, setup
#      and a proof snarkjs verifies, a missing field named; a module of
#      circom 2.0.3, which has no getInputSignalSize (tests/circom/); a
#      circuit without inputs given {} or [];
#   c. bad inputs exit 2 naming the cause as snarkjs does (a missing
#      signal, named when the circuit's .sym is beside its .wasm; an extra
#      one, which circom's code gives size 0, so "too many values"; a wrong
#      array length; a non-number; a failing assert, naming the template and
#      line) and snarkjs refuses them too, while values of 12,000 digits or
#      padded with Unicode spaces, and names given twice (the last value
#      counts), are read as snarkjs reads them; a .wasm
#      that is not a circom witness generator, and damaged ones, exit 2;
#   d. wtns check (OK, or the constraint where a changed value first
#      fails, the same one snarkjs names) and wtns export json (snarkjs'
#      file byte for byte) on the circuits of b; snarkjs' command forms
#      (wc, wchk, wej, zkey export verificationkey|solidityverifier|
#      soliditycalldata, zkev, zkesv, zkesc, generatecall, r1cs info, ri).
# Compiled circuits are kept in BUILD/wtns-circuits (keyed by their source).
# Usage: tests/test_wtns.sh BUILD (the build dir holding snarkpipe).
set -u
build=${1:-build}
bin=$build/snarkpipe
here=$(cd "$(dirname "$0")" && pwd)
vec=$here/vectors
[ -x "$bin" ] || { echo "test_wtns: $bin not found (build first)"; exit 1; }
command -v node >/dev/null && command -v npm >/dev/null || { echo "test_wtns: node and npm are required"; exit 1; }

T=$(mktemp -d "${TMPDIR:-/tmp}/sp_test_wtns.XXXXXX")
trap 'rm -rf "$T"' EXIT
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
snarkjs=$(need_snarkjs "$build") || exit 1
circom=$(need_circom "$build") && circom=$(realpath "$circom") || exit 1
seed=${SP_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
echo "test_wtns: seed $seed (replay: SP_SEED=$seed)"

same_wtns() { # NAME WASM INPUT: ours (natives on and off) = snarkjs'
    expect 0 "$1: snarkjs wtns calculate" "$snarkjs" wtns calculate "$2" "$3" "$T/sj.wtns"
    expect 0 "$1: wtns calculate" "$bin" wtns calculate "$2" "$3" "$T/our.wtns"
    expect 0 "$1: the .wtns is snarkjs', byte for byte" cmp "$T/our.wtns" "$T/sj.wtns"
    expect 0 "$1: wtns calculate --no-native-field" "$bin" wtns calculate --no-native-field "$2" "$3" "$T/slow.wtns"
    expect 0 "$1:   the same bytes" cmp "$T/slow.wtns" "$T/sj.wtns"
}

fullprove_verifies() { # NAME INPUT WASM ZKEY VKEY [snarkpipe fullprove form...]
    local name=$1 input=$2 wasm=$3 zkey=$4 vk=$5
    shift 5
    expect 0 "$name: ${*:-fullprove}" "$bin" "${@:-fullprove}" --quiet "$input" "$wasm" "$zkey" "$T/p.json" "$T/pub.json"
    expect 0 "$name:   snarkjs verifies the proof" "$snarkjs" groth16 verify "$vk" "$T/pub.json" "$T/p.json"
    expect_out "OK!" "$name:   (OK)"
}

echo "# a. the committed vectors"
for d in "$vec"/multiplier_bn128 "$vec"/chain1021_bn128 "$vec"/multiplier_bls12381 "$vec"/chain1021_bls12381; do
    c=$(basename "$d")
    expect 0 "$c: wtns calculate" "$bin" wtns calculate "$d/circuit.wasm" "$d/input.json" "$T/$c.wtns"
    expect 0 "$c:   = snarkjs' witness.wtns" cmp "$T/$c.wtns" "$d/witness.wtns"
    fullprove_verifies "$c" "$d/input.json" "$d/circuit.wasm" "$d/circuit_final.zkey" "$d/verification_key.json"
done
d=$vec/chain1021_bn128
fullprove_verifies "groth16 fullprove" "$d/input.json" "$d/circuit.wasm" "$d/circuit_final.zkey" \
    "$d/verification_key.json" groth16 fullprove
expect 2 "fullprove: a bls12381 circuit's witness with a bn128 key" "$bin" fullprove --quiet "$vec/chain1021_bls12381/input.json" \
    "$vec/chain1021_bls12381/circuit.wasm" "$d/circuit_final.zkey" "$T/p.json" "$T/pub.json"
expect_out "bls12-381|prime" "  (names the curves)"

# compile NAME PRIME MAIN_LINE: BUILD/wtns-circuits/<name>_<prime>/ with
# <name>.r1cs, <name>.sym, <name>_js/<name>.wasm (kept while the sources match);
# an empty MAIN_LINE compiles tests/circom/<name>.circom as it is
cache=$build/wtns-circuits
compile() {
    local name=$1 prime=$2 main=$3 dir key
    dir=$cache/${name}_$prime
    key=$(cat "$here/circom/wtns_lib.circom" "$here/circom/preimage.circom" | cksum)" $main"
    if [ "$(cat "$dir/.key" 2>/dev/null)" != "$key" ]; then
        rm -rf "$dir" && mkdir -p "$dir/lib/circomlib" || return 1
        cp -r "$build/npm/node_modules/circomlib/circuits" "$dir/lib/circomlib/"
        cp "$here/circom/wtns_lib.circom" "$here/circom/preimage.circom" "$dir/"
        [ -z "$main" ] || # else tests/circom/<name>.circom is the circuit itself
            printf 'pragma circom 2.0.0;\ninclude "wtns_lib.circom";\n%s\n' "$main" >"$dir/$name.circom"
        # circom2 runs as WebAssembly with the working directory as its only file system
        (cd "$dir" && "$circom" "$name.circom" --r1cs --wasm --sym --prime "$prime" -l lib -o . >compile.log 2>&1) ||
            { echo "FAIL circom2 could not compile $name for $prime:"; tail -5 "$dir/compile.log"; return 1; }
        echo "$key" >"$dir/.key"
    fi
    echo "$dir"
}

# inputs KIND SEED: a random valid input.json for a circuit kind
inputs() {
    node -e '
const [kind, seed, primeName] = process.argv.slice(1);
let s = BigInt(seed) * 6364136223846793005n + 1442695040888963407n;
const mask = (1n << 64n) - 1n;
const next = () => { s = (s * 6364136223846793005n + 1442695040888963407n) & mask; return s; };
const below = (n) => { let x = 0n; for (let i = 0; i < 5; i++) x = (x << 64n) | next(); return x % n; };
const p = primeName === "bn128"
    ? 21888242871839275222246405745257275088548364400416034343698204186575808495617n
    : 52435875175126190479447740508185965836491006296208211946934063021066497490945n;
const el = () => { const x = below(p); const f = next() % 3n;
    return f === 0n ? x.toString() : f === 1n ? "0x" + x.toString(16) : Number(x % 1000000n); };
const bit = () => Number(next() & 1n);
let o;
if (kind === "merkle") o = { leaf: [below(1n << 64n).toString(), Number(next() % 1000n)],
    path: [[el(), el(), el()], [el(), el(), el()]], index: [[bit(), bit(), bit()], [bit(), bit(), bit()]] };
else if (kind === "sha") o = { in: Array.from({length: 16}, bit) };
else if (kind === "mp") o = { x: el(), k: el(), bits: Array.from({length: 8}, bit) };
else o = { secret: below(1000000000n).toString(), nonce: el(), limit: "1000000000" };
process.stdout.write(JSON.stringify(o));' "$1" "$2" "$3"
}

echo "# b. circomlib circuits, random inputs"
merkle_bn=$(compile merkle bn128 "component main = PoseidonMerkle(2, 3);") || exit 1
merkle_bls=$(compile merkle bls12381 "component main = PoseidonMerkle(2, 3);") || exit 1
sha=$(compile sha bn128 "component main = Sha256Bits(16);") || exit 1
mp_bn=$(compile mp bn128 "component main {public [x]} = MimcPedersen(8);") || exit 1
mp_bls=$(compile mp bls12381 "component main {public [x]} = MimcPedersen(8);") || exit 1
pre=$(compile preimage bn128 "") || exit 1
for spec in "merkle $merkle_bn bn128" "merkle $merkle_bls bls12381" "sha $sha bn128" "mp $mp_bn bn128" \
    "mp $mp_bls bls12381" "preimage $pre bn128"; do
    set -- $spec
    kind=$1 dir=$2 prime=$3 name=$(basename "$2" | sed 's/_[^_]*$//')
    wasm=$dir/${name}_js/$name.wasm
    for k in 1 2 3; do
        inputs "$kind" $((seed + k)) "$prime" >"$T/in.json"
        same_wtns "$name/$prime input $k" "$wasm" "$T/in.json"
    done
    if [ "$kind" != sha ]; then # sha: 30k constraints; the setup alone would dominate the test
        expect 0 "$name/$prime: setup" "$bin" setup --quiet "$dir/$name.r1cs" "$T/k.zkey"
        expect 0 "$name/$prime: export-vkey" "$bin" export-vkey "$T/k.zkey" "$T/vk.json"
        fullprove_verifies "$name/$prime" "$T/in.json" "$wasm" "$T/k.zkey" "$T/vk.json"
    fi
done

echo "# b2. EdDSA (circomlib's EdDSAPoseidonVerifier, bn128) on signatures circomlibjs makes"
# need_circomlibjs BUILD: the node_modules folder of circomlibjs 0.1.7, installed from npm on first use
need_circomlibjs() {
    local dir=$1/npm-circomlibjs
    if [ ! -d "$dir/node_modules/circomlibjs" ]; then
        mkdir -p "$dir"
        npm install --no-audit --no-fund --loglevel=error --prefix "$dir" circomlibjs@0.1.7 >"$dir/install.log" 2>&1 ||
            { echo "npm install circomlibjs@0.1.7 failed:" >&2; cat "$dir/install.log" >&2; return 1; }
    fi
    echo "$dir/node_modules"
}
jslib=$(need_circomlibjs "$build") || exit 1
eddsa=$(compile eddsa bn128 'include "circomlib/circuits/eddsaposeidon.circom";
component main {public [Ax, Ay, M]} = EdDSAPoseidonVerifier();') || exit 1
# a random key and message per input (from the seed), signed with Poseidon; bad.json: the
# message of the last one changed by one, its signature kept
NODE_PATH=$jslib node -e '
const [seed, n, out] = process.argv.slice(1);
const fs = require("fs");
require("circomlibjs").buildEddsa().then((eddsa) => {
    let s = BigInt(seed) * 6364136223846793005n + 1442695040888963407n;
    const next = () => { s = (s * 6364136223846793005n + 1442695040888963407n) & ((1n << 64n) - 1n); return s; };
    const F = eddsa.babyJub.F, str = (x) => F.toObject(x).toString();
    let o;
    for (let k = 1; k <= Number(n); k++) {
        const prv = Buffer.alloc(32);
        for (let i = 0; i < 32; i++) prv[i] = Number(next() & 255n);
        const pub = eddsa.prv2pub(prv);
        const msg = F.e(((next() << 192n) | (next() << 128n) | (next() << 64n) | next()) % eddsa.babyJub.p);
        const sig = eddsa.signPoseidon(prv, msg);
        if (!eddsa.verifyPoseidon(msg, sig, pub)) throw new Error("circomlibjs: its own signature does not verify");
        o = { enabled: 1, Ax: str(pub[0]), Ay: str(pub[1]), S: sig.S.toString(), R8x: str(sig.R8[0]),
            R8y: str(sig.R8[1]), M: str(msg) };
        fs.writeFileSync(`${out}/eddsa${k}.json`, JSON.stringify(o));
    }
    o.M = ((BigInt(o.M) + 1n) % eddsa.babyJub.p).toString();
    fs.writeFileSync(`${out}/eddsa_bad.json`, JSON.stringify(o));
}).catch((e) => { console.error(e.message); process.exit(1); });' "$seed" 3 "$T" ||
    { echo "FAIL circomlibjs could not sign"; exit 1; }
wasm=$eddsa/eddsa_js/eddsa.wasm
for k in 1 2 3; do
    same_wtns "eddsa/bn128 signature $k" "$wasm" "$T/eddsa$k.json"
done
expect 0 "eddsa/bn128: setup" "$bin" setup --quiet "$eddsa/eddsa.r1cs" "$T/k.zkey"
expect 0 "eddsa/bn128: export-vkey" "$bin" export-vkey "$T/k.zkey" "$T/vk.json"
fullprove_verifies "eddsa/bn128" "$T/eddsa3.json" "$wasm" "$T/k.zkey" "$T/vk.json"
tmpl="Assert Failed. Error in template ForceEqualIfEnabled_[0-9]+ line: [0-9]+"
expect 2 "eddsa/bn128: a signature of another message" "$bin" wtns calculate "$wasm" "$T/eddsa_bad.json" "$T/bad.wtns"
expect_out "$tmpl" "  (says: $tmpl)"
expect 1 "  and wrote nothing" test -e "$T/bad.wtns"
expect 1 "  snarkjs refuses it too" "$snarkjs" wtns calculate "$wasm" "$T/eddsa_bad.json" "$T/sjbad.wtns"
expect_out "$tmpl" "  (naming the same template)"
expect 2 "  fullprove refuses it" "$bin" fullprove --quiet "$T/eddsa_bad.json" "$wasm" "$T/k.zkey" "$T/p.json" "$T/pub.json"
expect_out "$tmpl" "  (says: $tmpl)"

echo "# b3. bus inputs (circom 2.2), private inputs circom's optimizer took off the wires"
# the .r1cs header counts 5 private inputs, 2 of them wires: setup must still read it; inputs
# are given whole ("p") or by field ("q[0].x"); a missing field is named
bus=$(compile bus bn128 'bus Pt() { signal x; signal y; }
template BusIn() { input Pt p; input Pt q[2]; signal input b; signal output o; o <== p.x * q[1].y + b; }
component main {public [p]} = BusIn();') || exit 1
wasm=$bus/bus_js/bus.wasm
printf '{"p": ["%s", 2], "q[0].x": 3, "q[0].y": "4", "q[1].x": 5, "q[1].y": "0x%x", "b": 7}' "$seed" "$seed" >"$T/bus.json"
same_wtns "bus/bn128" "$wasm" "$T/bus.json"
expect 0 "bus/bn128: setup" "$bin" setup --quiet "$bus/bus.r1cs" "$T/k.zkey"
expect 0 "bus/bn128: export-vkey" "$bin" export-vkey "$T/k.zkey" "$T/vk.json"
fullprove_verifies "bus/bn128" "$T/bus.json" "$wasm" "$T/k.zkey" "$T/vk.json"
node -e 'const o = JSON.parse(require("fs").readFileSync(process.argv[1])); delete o["q[1].y"];
process.stdout.write(JSON.stringify(o));' "$T/bus.json" >"$T/bad.json"
expect 2 "bus/bn128: a bus field missing" "$bin" wtns calculate "$wasm" "$T/bad.json" "$T/bad.wtns"
expect_out "Only 6 out of 7 \(missing: q\[1\]\.y\)" "  (names the field)"
expect 1 "  snarkjs refuses it too" "$snarkjs" wtns calculate "$wasm" "$T/bad.json" "$T/sjbad.wtns"

echo "# b4. a module of circom 2.0.3 (tests/circom/circom203.wasm): no getInputSignalSize, so no size checks"
old=$here/circom/circom203.wasm
printf '{"a": %d, "b": [3, "0x%x"]}' $((seed % 1000 + 8)) "$seed" >"$T/old.json"
same_wtns "circom 2.0.3 module" "$old" "$T/old.json"
printf '{"a": 5, "b": [1, 2, 3]}' >"$T/bad.json"
expect 2 "circom 2.0.3 module: too many values" "$bin" wtns calculate "$old" "$T/bad.json" "$T/bad.wtns"
expect_out "Too many signals set. \(input signal b\)" "  (says so, naming the signal)"
expect 1 "  snarkjs refuses it too" "$snarkjs" wtns calculate "$old" "$T/bad.json" "$T/sjbad.wtns"

echo "# b5. a circuit without inputs, given {} or []"
noin=$(compile noin bn128 'template NoIn() { signal x; x <== 3; signal output o; o <== x * x + 1; }
component main = NoIn();') || exit 1
for e in '{}' '[]'; do
    printf '%s' "$e" >"$T/empty.json"
    same_wtns "no inputs, $e" "$noin/noin_js/noin.wasm" "$T/empty.json"
done

echo "# c. bad inputs"
wasm=$merkle_bn/merkle_js/merkle.wasm
inputs merkle "$seed" bn128 >"$T/good.json"
bad() { # NAME JSON REGEX: we and snarkjs refuse it; our message matches REGEX
    printf '%s' "$2" >"$T/bad.json"
    expect 2 "$1" "$bin" wtns calculate "$wasm" "$T/bad.json" "$T/bad.wtns"
    expect_out "$3" "  (says: $3)"
    expect 1 "  and wrote nothing" test -e "$T/bad.wtns"
    expect 1 "  snarkjs refuses it too" "$snarkjs" wtns calculate "$wasm" "$T/bad.json" "$T/sjbad.wtns"
}
edit() { node -e 'const o = JSON.parse(require("fs").readFileSync(process.argv[1])); '"$1"'; process.stdout.write(JSON.stringify(o));' "$T/good.json"; }
bad "a missing signal" "$(edit 'delete o.index')" "Not all inputs have been set. Only 8 out of 14 \(missing: index\)"
bad "an extra signal" "$(edit 'o.extra = 1')" "Too many values for input signal extra .*not an input of the circuit"
bad "a wrong array length" "$(edit 'o.path[1].pop()')" "Not enough values for input signal path"
bad "too many values" "$(edit 'o.leaf.push(1)')" "Too many values for input signal leaf"
bad "a non-number" "$(edit 'o.path[0][1] = "12abc"')" 'input signal path: "12abc" is not a number'
bad "a fraction" "$(edit 'o.leaf[0] = 1.5')" "input signal leaf: 1.5 is not an integer"
bad "a failing assert" "$(edit 'o.leaf[1] = (1n << 64n).toString()')" "Assert Failed. Error in template PoseidonMerkle_[0-9]+ line: [0-9]+"
bad "a failing constraint" "$(edit 'o.index[0][0] = 2')" "Assert Failed. Error in template PoseidonMerkle_[0-9]+ line: [0-9]+"
bad "not JSON" "{\"leaf\": [1, 2" "input.json is not JSON: "
# odd values snarkjs reads all the same: 12,000 digits, Unicode spaces that BigInt() trims
edit 'o.leaf[1] = "\u00a0" + "0".repeat(12000) + o.leaf[1] + "\u2028"; o.path[0][0] = "\ufeff-" + "7".repeat(3000)' >"$T/odd.json"
same_wtns "long, space-padded values" "$wasm" "$T/odd.json"
# a name given twice: the last value counts, at the first one's place, as JSON.parse reads it
node -e 'const s = JSON.stringify(JSON.parse(require("fs").readFileSync(process.argv[1])));
process.stdout.write("{\"index\": 5, \"leaf\": [\"1\", \"2\"], " + s.slice(1) + "\n");' "$T/good.json" >"$T/dup.json"
same_wtns "names given twice" "$wasm" "$T/dup.json"
bad "an array of values" '[1, 2]' "expected an object of input signals, found array"
# the missing signal without the .sym: the count only
mkdir -p "$T/nosym" && cp "$wasm" "$T/nosym/"
edit 'delete o.index' >"$T/bad.json"
expect 2 "a missing signal, no .sym" "$bin" wtns calculate "$T/nosym/merkle.wasm" "$T/bad.json" "$T/bad.wtns"
expect_out "Not all inputs have been set. Only 8 out of 14" "  (the count)"
expect 2 "a .wasm that is not one" "$bin" wtns calculate "$vec/chain1021_bn128/input.json" "$T/good.json" "$T/x.wtns"
expect_out "not a WebAssembly" "  (says so)"
expect 2 "a missing .wasm" "$bin" wtns calculate "$T/none.wasm" "$T/good.json" "$T/x.wtns"
expect 64 "wtns without calculate" "$bin" wtns "$wasm" "$T/good.json" "$T/x.wtns"
for k in 1 2 3 4 5 6; do # damaged modules: an error, never a crash
    node -e '
const fs = require("fs"); const b = fs.readFileSync(process.argv[1]); let s = BigInt(process.argv[2]);
for (let i = 0; i < 4; i++) { s = (s * 6364136223846793005n + 1n) & ((1n << 64n) - 1n);
  const at = Number(s % BigInt(b.length)); b[at] ^= 1 << Number((s >> 32n) % 8n); }
fs.writeFileSync(process.argv[3], b);' "$wasm" $((seed + k)) "$T/damaged.wasm"
    rc=0
    "$bin" wtns calculate --max-seconds 20 "$T/damaged.wasm" "$T/good.json" "$T/d.wtns" >"$T/out" 2>&1 || rc=$?
    if [ "$rc" -eq 0 ] || [ "$rc" -eq 2 ]; then pass=$((pass + 1)); else
        fail=$((fail + 1)); echo "FAIL damaged module $k: exit $rc"; head -5 "$T/out"; fi
done

echo "# d. wtns check and export json, snarkjs' command forms"
okif() { if eval "$2"; then pass=$((pass + 1)); [ -z "${SP_TEST_VERBOSE:-}" ] || echo "ok   $1"; else fail=$((fail + 1)); echo "FAIL $1"; fi; }
# sjcheck R1CS WTNS: snarkjs wtns check's verdict: ok, or the constraint where it stopped
sjcheck() {
    "$snarkjs" wtns check "$1" "$2" >"$T/sjc.txt" 2>&1
    if grep -q "WITNESS IS CORRECT" "$T/sjc.txt"; then echo ok; else
        grep -o "aborting checking process at constraint [0-9]*" "$T/sjc.txt" | grep -o "[0-9]*$" || echo "?"; fi
}
for spec in "$merkle_bn/merkle bn128" "$merkle_bls/merkle bls12381" "$sha/sha bn128" "$mp_bls/mp bls12381"; do
    set -- $spec
    dir=$(dirname "$1") name=$(basename "$1") prime=$2
    inputs "$name" $((seed + 7)) "$prime" >"$T/in.json"
    expect 0 "$name/$prime: a witness to check" "$bin" wtns calculate "$dir/${name}_js/$name.wasm" "$T/in.json" "$T/w.wtns"
    expect 0 "$name/$prime: wtns check" "$bin" wtns check "$dir/$name.r1cs" "$T/w.wtns"
    expect_out "^OK" "  (OK)"
    okif "  snarkjs agrees" '[ "$(sjcheck "$dir/$name.r1cs" "$T/w.wtns")" = ok ]'
    expect 0 "$name/$prime: wtns export json" "$bin" wtns export json "$T/w.wtns" "$T/ours.json"
    "$snarkjs" wtns export json "$T/w.wtns" "$T/sj.json" >/dev/null 2>&1
    expect 0 "  snarkjs' file, byte for byte" cmp "$T/ours.json" "$T/sj.json"
    # one value past the inputs plus 1 (which one: the seed): both give the same verdict
    node -e '
const fs = require("fs"); const b = fs.readFileSync(process.argv[1]); const n8 = b.readUInt32LE(24);
const le = (o) => { let v = 0n; for (let k = n8 - 1; k >= 0; k--) v = (v << 8n) | BigInt(b[o + k]); return v; };
const p = le(28), n = b.readUInt32LE(28 + n8), i = 20 + Number(BigInt(process.argv[2]) % BigInt(n - 20));
const at = 28 + n8 + 4 + 12 + i * n8; let v = (le(at) + 1n) % p;
for (let k = 0; k < n8; k++) { b[at + k] = Number(v & 255n); v >>= 8n; }
fs.writeFileSync(process.argv[3], b);' "$T/w.wtns" $((seed + 3)) "$T/bad.wtns"
    rc=0
    "$bin" wtns check "$dir/$name.r1cs" "$T/bad.wtns" >"$T/out" 2>&1 || rc=$?
    ours=$(grep -o "constraint [0-9]* of" "$T/out" | grep -o "[0-9]*" | head -1)
    [ "$rc" = 0 ] && grep -q "^OK" "$T/out" && ours=ok # a wire no constraint reads
    okif "$name/$prime: wtns check of a changed value: exit 1 naming a constraint, or OK" \
        '{ [ "$rc" = 1 ] && [ -n "$ours" ]; } || [ "$ours" = ok ]'
    sj=$(sjcheck "$dir/$name.r1cs" "$T/bad.wtns")
    okif "  the same verdict as snarkjs (ours $ours, snarkjs $sj)" '[ "$ours" = "$sj" ]'
done
expect 1 "wtns check: another circuit's witness" "$bin" wtns check "$sha/sha.r1cs" "$vec/multiplier_bn128/witness.wtns"
expect_out "expected [0-9]+ values \(nVars of the circuit\), file holds [0-9]+" "  (the lengths named)"
expect 2 "wtns check: a .wasm for the witness" "$bin" wtns check "$sha/sha.r1cs" "$sha/sha_js/sha.wasm"
expect 2 "wtns export json: a missing file" "$bin" wtns export json "$T/none.wtns" "$T/x.json"
expect 64 "wtns export without json" "$bin" wtns export "$T/w.wtns" "$T/x.json"
d=$vec/multiplier_bn128
expect 0 "wchk (snarkjs' short form)" "$bin" wchk "$d/circuit.r1cs" "$d/witness.wtns"
expect 0 "wej" "$bin" wej "$d/witness.wtns" "$T/ours.json"
expect 0 "wc" "$bin" wc "$d/circuit.wasm" "$d/input.json" "$T/wc.wtns"
expect 0 "  = snarkjs' witness.wtns" cmp "$T/wc.wtns" "$d/witness.wtns"
expect 0 "zkey export verificationkey" "$bin" zkey export verificationkey "$d/circuit_final.zkey" "$T/vk.json"
expect 0 "  = snarkjs' verification_key.json" cmp "$T/vk.json" "$d/verification_key.json"
expect 0 "zkev" "$bin" zkev "$d/circuit_final.zkey" "$T/vk2.json"
expect 0 "  the same file" cmp "$T/vk.json" "$T/vk2.json"
expect 0 "zkey export solidityverifier" "$bin" zkey export solidityverifier "$d/circuit_final.zkey" "$T/v1.sol"
expect 0 "export-solidity" "$bin" export-solidity "$d/circuit_final.zkey" "$T/v2.sol"
expect 0 "  the same contract" cmp "$T/v1.sol" "$T/v2.sol"
"$bin" calldata "$d/public.json" "$d/proof.json" >"$T/cd1.txt"
for form in "zkey export soliditycalldata" zkesc generatecall; do
    # shellcheck disable=SC2086
    expect 0 "$form" "$bin" $form "$d/public.json" "$d/proof.json"
    cp "$T/out" "$T/cd2.txt"
    expect 0 "  calldata's output" cmp "$T/cd2.txt" "$T/cd1.txt"
done
expect 0 "r1cs info" "$bin" r1cs info "$d/circuit.r1cs"
expect_out "constraints +1$" "  (the counts)"
expect 0 "ri" "$bin" ri "$d/circuit.r1cs"
expect 64 "zkey with another command" "$bin" zkey new "$d/circuit.r1cs" x.ptau y.zkey
expect_out "snarkpipe takes snarkjs' groth16 prove" "  (says which forms there are)"

echo "test_wtns.sh: $pass checks ok, $fail failed"
[ "$fail" -eq 0 ]
