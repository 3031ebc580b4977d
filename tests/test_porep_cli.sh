#!/usr/bin/env bash
# The native porep-like circuit through the CLI, against the real snarkjs
# 0.7.6, on its smallest shape (the "tiny" preset, about 2^18 constraints):
#   0. README.md's porep-like steps, run as written there (gen-circuit,
#      setup, prove, export-vkey, verify: "OK"); their key serves below,
#      first for mistakes on it: each reported before the key is read (no
#      key cache entry; a full load of this key checks its points for
#      seconds), its time printed (not asserted: a loaded machine is slow)
#   a. gen-circuit writes .r1cs, .wtns and the recorded .sprec (--check on);
#      --dry-run gives the sizes the files have
#   b. the README's setup (the same .r1cs) -> snarkjs proves with that
#      .zkey and the .wtns and verifies; we verify snarkjs' proof
#   c. our native prove (--circuit porep-like: the witness made in-process,
#      no .wtns) -> snarkjs verifies it; its public.json is snarkjs' byte for
#      byte; another partition gives other public inputs, also verified
#   d. the engine proves native jobs (bench pipeline --circuit porep-like):
#      every proof verified
#   e. setup from the .sprec (record once, reuse) -> a key that proves and verifies
#   f. usage and data errors: an unknown preset, a shape that does not fit,
#      a damaged .sprec, a key of another circuit
# Usage: tests/test_porep_cli.sh BUILD
set -u
build=${1:-build}
bin=$build/snarkpipe
[ -x "$bin" ] || { echo "test_porep_cli: $bin not found (build first)"; exit 1; }
command -v node >/dev/null && command -v npm >/dev/null || { echo "test_porep_cli: node and npm are required"; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/sp_test_porep.XXXXXX")
trap 'rm -rf "$T"' EXIT
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
snarkjs=$(need_snarkjs "$build") || exit 1

shape=(--kind porep-like --nodes 4 --layers 2 --challenges 1 --drg-parents 1 --exp-parents 1 --label-parents 2)
pshape=("${shape[@]:2}")
export SNARKPIPE_CACHE_DIR=$T/cache

# 0. the README's steps, each line as it is written there; `make` is this
# build (BUILD linked as build/ beside the scratch folder)
here=$(cd "$(dirname "$0")" && pwd)
sed -n '/<!-- porep-like steps: begin -->/,/<!-- porep-like steps: end -->/p' "$here/../README.md" |
    sed '/^```/d;/^<!--/d;/^make\b/d' >"$T/readme.sh"
check_lines=$(grep -c 'build/snarkpipe' "$T/readme.sh")
expect 0 "README: the porep-like steps are there (5 commands)" test "$check_lines" = 5
mkdir -p "$T/readme" && ln -s "$(cd "$build" && pwd)" "$T/readme/build"
expect 0 "README: the steps run as written" bash -c "cd '$T/readme' && set -e && . '$T/readme.sh'"
expect_out "^OK$" "README: the last step verifies the proof"
expect 0 "README: snarkjs verifies that proof too" "$snarkjs" groth16 verify "$T/readme/porep/verification_key.json" \
    "$T/readme/porep/public.json" "$T/readme/porep/proof.json"
expect_out "OK!" "README: snarkjs says OK"
big=$T/readme/porep/tiny.zkey
now_ms() { echo $((${EPOCHREALTIME/./} / 1000)); }
early() { # NAME REGEX CMD...: exit 2, the message matches, nothing cached; prints the time
    local t0 t1
    t0=$(now_ms)
    expect 2 "$1" env SNARKPIPE_CACHE_DIR="$T/cache_early" "${@:3}"
    t1=$(now_ms)
    expect_out "$2" "  (says: $2)"
    echo "  (took $((t1 - t0)) ms)"
    expect 0 "  (before reading the key: nothing cached)" test -z "$(ls -A "$T/cache_early" 2>/dev/null)"
}
rp=$T/readme/porep
early "large key: swapped arguments" "look swapped" "$bin" prove "$rp/tiny.wtns" "$big" "$T/e.json" "$T/e_pub.json"
early "large key: circuit inputs for a witness" "wtns calculate" "$bin" prove "$big" "$rp/public.json" "$T/e.json" "$T/e_pub.json"
early "large key: the other curve's witness" "is for bn254 \(bn128\) but this is the bls12-381 prover" \
    "$bin" prove "$big" "$here/vectors/chain1021_bn128/witness.wtns" "$T/e.json" "$T/e_pub.json"
early "large key: another circuit's witness" "of another circuit" \
    "$bin" prove "$big" "$here/vectors/multiplier_bls12381/witness.wtns" "$T/e.json" "$T/e_pub.json"
early "large key: no output directory" "does not exist" "$bin" prove "$big" "$rp/tiny.wtns" "$T/none/e.json" "$T/e_pub.json"
early "large key: a preset not the key's" "preset 2KiB: 39 public inputs\) is not the key's" \
    "$bin" prove --circuit porep-like --preset 2KiB "$big" "$T/e.json" "$T/e_pub.json"
early "large key: a shape with as many public inputs" "preset custom: 280713 wires\) is not the key's" \
    "$bin" prove --circuit porep-like --nodes 8 --layers 2 --challenges 1 --drg-parents 1 --exp-parents 1 \
    --label-parents 2 "$big" "$T/e.json" "$T/e_pub.json"
"$bin" --json gen-circuit --kind porep-like --preset tiny --dry-run | sed 's/"preset":"[^"]*",//' >"$T/tiny.json"
"$bin" --json gen-circuit "${shape[@]}" --dry-run | sed 's/"preset":"[^"]*",//' >"$T/shape.json"
expect 0 "the tiny preset is this test's shape (the same sizes)" cmp "$T/tiny.json" "$T/shape.json"

# a. the files, and the sizes --dry-run announces
expect 0 "gen-circuit porep-like --check" "$bin" gen-circuit "${shape[@]}" --check --record "$T/c.sprec" \
    "$T/c.r1cs" "$T/c.wtns"
expect 0 "gen-circuit --dry-run --json" "$bin" --json gen-circuit "${shape[@]}" --dry-run
rows=$(sed -n 's/.*"constraints":\([0-9]*\).*/\1/p' "$T/out")
wires=$(sed -n 's/.*"wires":\([0-9]*\).*/\1/p' "$T/out")
expect 0 "info on the .r1cs" "$bin" --json info "$T/c.r1cs"
expect_out "\"constraints\":$rows[,}]" "the .r1cs has the announced constraints"
expect_out "\"wires\":$wires[,}]" "the .r1cs has the announced wires"
[ ! -e "$T/none.r1cs" ] && expect 0 "dry run writes nothing" "$bin" gen-circuit "${shape[@]}" --dry-run \
    "$T/none.r1cs" "$T/none.wtns"
expect 1 "dry run wrote no file" test -e "$T/none.r1cs"

# b. the README's key (its circuit is this one); snarkjs proves and verifies; we verify its proof
expect 0 "the README's circuit is this one" cmp "$T/readme/porep/tiny.r1cs" "$T/c.r1cs"
cp "$T/readme/porep/tiny.zkey" "$T/c.zkey"
expect 0 "export-vkey" "$bin" --quiet export-vkey "$T/c.zkey" "$T/vk.json"
expect 0 "snarkjs groth16 prove" "$snarkjs" groth16 prove "$T/c.zkey" "$T/c.wtns" "$T/sj_proof.json" "$T/sj_public.json"
expect 0 "snarkjs verifies its proof" "$snarkjs" groth16 verify "$T/vk.json" "$T/sj_public.json" "$T/sj_proof.json"
expect_out "OK!" "snarkjs says OK"
expect 0 "we verify snarkjs' proof" "$bin" verify "$T/vk.json" "$T/sj_public.json" "$T/sj_proof.json"

# c. the native path: no .wtns; snarkjs verifies; same public inputs
expect 0 "native prove --check --verify" "$bin" --quiet prove --circuit porep-like "${pshape[@]}" --check --verify \
    "$T/c.zkey" "$T/n_proof.json" "$T/n_public.json"
expect 0 "snarkjs verifies the native proof" "$snarkjs" groth16 verify "$T/vk.json" "$T/n_public.json" "$T/n_proof.json"
expect_out "OK!" "snarkjs says OK to the native proof"
expect 0 "public inputs identical to snarkjs'" cmp "$T/n_public.json" "$T/sj_public.json"
expect 0 "native prove, partition 3 of sector 9" "$bin" --quiet prove --circuit porep-like "${pshape[@]}" --seed 9 \
    --partition 3 "$T/c.zkey" "$T/p3_proof.json" "$T/p3_public.json"
expect 1 "another partition has other public inputs" cmp -s "$T/p3_public.json" "$T/sj_public.json"
expect 0 "snarkjs verifies partition 3" "$snarkjs" groth16 verify "$T/vk.json" "$T/p3_public.json" "$T/p3_proof.json"
expect_out "OK!" "snarkjs says OK to partition 3"
expect 1 "partition 3's proof fails on partition 0's inputs" "$bin" verify "$T/vk.json" "$T/sj_public.json" \
    "$T/p3_proof.json"

# d. the engine: native jobs, every proof verified by the engine
expect 0 "bench pipeline --circuit porep-like" "$bin" bench pipeline --circuit porep-like "${pshape[@]}" \
    --zkey "$T/c.zkey" -c 2 -j 2 -p 2 --no-isolation
expect_out "load \(c=2, j=2\)" "the engine proved the native jobs"

# e. record once: a setup from the .sprec proves and verifies
expect 0 "setup from the .sprec" "$bin" --quiet setup "$T/c.sprec" "$T/r.zkey"
expect 0 "native prove with that key" "$bin" --quiet prove --circuit porep-like "${pshape[@]}" --verify \
    "$T/r.zkey" "$T/r_proof.json" "$T/r_public.json"

# f. errors
expect 64 "unknown preset" "$bin" gen-circuit --kind porep-like --preset 3KiB --dry-run
expect 64 "challenges not below the nodes" "$bin" gen-circuit --kind porep-like --nodes 2 --challenges 2 --dry-run
expect 64 "nodes not a power of two" "$bin" gen-circuit --kind porep-like --nodes 12 --dry-run
head -c 4000 "$T/c.sprec" >"$T/short.sprec"
expect 2 "truncated .sprec refused" "$bin" setup "$T/short.sprec" "$T/x.zkey"
expect_out "shorter" "the message says it is truncated"
cp "$T/c.sprec" "$T/bad.sprec"
poke_byte "$T/bad.sprec" 5000
expect 2 "corrupt .sprec refused" "$bin" setup "$T/bad.sprec" "$T/x.zkey"
expect_out "digest|bad row|coefficient" "the message says it is corrupt"
expect 2 "a key of another circuit" "$bin" prove --circuit porep-like --nodes 8 --layers 2 --challenges 1 \
    --drg-parents 1 --exp-parents 1 --label-parents 2 "$T/c.zkey" "$T/x.json" "$T/y.json"
expect_out "not the key's" "the message names the mismatch"

echo "test_porep_cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
