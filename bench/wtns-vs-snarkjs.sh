#!/usr/bin/env bash
# `snarkpipe wtns calculate` and `snarkpipe fullprove` against snarkjs 0.7.6
# as whole processes, side by side on the same files: circomlib's SHA-256
# of 1000 bits (Sha256Bits(1000), 93,792 constraints) and 12 Poseidon
# Merkle paths of depth 20 (PoseidonMerkle(12, 20), 125,580 constraints),
# from tests/circom/wtns_lib.circom, compiled by circom 2 for bn128.
#
#   bench/wtns-vs-snarkjs.sh [BIN]      default: build/snarkpipe
#   ROUNDS=7 (wtns rounds)  PROVE_ROUNDS=3 (fullprove rounds)  NO_PROVE=1 (wtns only)
#   BASE=path: another snarkpipe (e.g. a build before a change) timed
#   against snarkjs the same way in the same run, its wtns rows marked "base"
#   SNARKJS=path, CIRCOM=path (default: BUILD/npm/node_modules/.bin/, as tests/lib.sh installs them)
#
# Each round runs snarkpipe and snarkjs once each, alternating which goes
# first. Printed per circuit: median wall and CPU (user + system) seconds
# of each, and the median over rounds of snarkjs' time / ours (wall, and
# CPU: on a shared machine the CPU ratio is the steadier one). The first
# run of snarkpipe (nothing cached by the OS yet) is reported apart. Every
# .wtns is checked byte for byte against snarkjs', every proof verified by
# snarkjs. The keys come from `snarkpipe setup` (a development setup);
# compiled circuits and keys are kept in BUILD/wtns-bench.
set -eu
bin=${1:-build/snarkpipe}
build=$(dirname "$bin")
here=$(cd "$(dirname "$0")" && pwd)
rounds=${ROUNDS:-7}
prove_rounds=${PROVE_ROUNDS:-3}
snarkjs=${SNARKJS:-$build/npm/node_modules/.bin/snarkjs}
circom=${CIRCOM:-$build/npm/node_modules/.bin/circom2}
[ -x "$bin" ] || { echo "wtns-vs-snarkjs: $bin is not executable" >&2; exit 2; }
[ -x "$snarkjs" ] && [ -x "$circom" ] ||
    { echo "wtns-vs-snarkjs: no snarkjs or circom2 (run tests/test_wtns.sh $build once, or set SNARKJS, CIRCOM)" >&2; exit 2; }
circom=$(realpath "$circom")
T=$(mktemp -d "${TMPDIR:-/tmp}/sp_wtns_bench.XXXXXX")
trap 'rm -rf "$T"' EXIT
cc -O2 -o "$T/timeit" "$here/timeit.c"
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

cache=$build/wtns-bench
# compile NAME MAIN_LINE: the circuit in $cache/NAME (kept while its source matches)
compile() {
    local dir=$cache/$1 key
    key=$(cksum <"$here/../tests/circom/wtns_lib.circom")" $2"
    if [ "$(cat "$dir/.key" 2>/dev/null)" != "$key" ]; then
        rm -rf "$dir" && mkdir -p "$dir/lib/circomlib"
        cp -r "$build/npm/node_modules/circomlib/circuits" "$dir/lib/circomlib/"
        cp "$here/../tests/circom/wtns_lib.circom" "$dir/"
        printf 'pragma circom 2.0.0;\ninclude "wtns_lib.circom";\n%s\n' "$2" >"$dir/$1.circom"
        echo "compiling $1 with circom 2 (once)..." >&2
        (cd "$dir" && "$circom" "$1.circom" --r1cs --wasm --sym -l lib -o . >compile.log 2>&1) ||
            { tail -5 "$dir/compile.log" >&2; exit 1; }
        "$bin" setup --quiet "$dir/$1.r1cs" "$dir/$1.zkey" 2>/dev/null
        "$bin" export-vkey "$dir/$1.zkey" "$dir/vk.json"
        echo "$key" >"$dir/.key"
    fi
}
compile sha "component main = Sha256Bits(1000);"
compile merkle "component main = PoseidonMerkle(12, 20);"
node -e '
const fs = require("fs"); let s = 12345n;
const next = () => { s = (s * 6364136223846793005n + 1442695040888963407n) & ((1n << 64n) - 1n); return s; };
const p = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;
const el = () => ((next() << 192n | next() << 128n | next() << 64n | next()) % p).toString();
fs.writeFileSync(process.argv[1], JSON.stringify({ in: Array.from({length: 1000}, () => Number(next() & 1n)) }));
fs.writeFileSync(process.argv[2], JSON.stringify({
    leaf: Array.from({length: 12}, () => next().toString()),
    path: Array.from({length: 12}, () => Array.from({length: 20}, el)),
    index: Array.from({length: 12}, () => Array.from({length: 20}, () => Number(next() & 1n))) }));
' "$T/sha.json" "$T/merkle.json"

# pairs NAME ROUNDS OURS_CMD -- SNARKJS_CMD: alternating runs into $T/NAME.{ours,sj}
pairs() {
    local name=$1 n=$2 ours=() sj=()
    shift 2
    while [ "$1" != -- ]; do ours+=("$1"); shift; done
    shift
    sj=("$@")
    for r in $(seq "$n"); do
        if [ $((r % 2)) -eq 1 ]; then
            "$T/timeit" "${ours[@]}" >>"$T/$name.ours"
            "$T/timeit" "${sj[@]}" >>"$T/$name.sj"
        else
            "$T/timeit" "${sj[@]}" >>"$T/$name.sj"
            "$T/timeit" "${ours[@]}" >>"$T/$name.ours"
        fi
    done
}

row() { # NAME LABEL FIRST
    local o=$T/$1.ours s=$T/$1.sj
    paste -d' ' "$s" "$o" | awk '{print $1 / $3, $2 / $4}' >"$T/ratio"
    printf "%-34s %8s %8.3f %8.3f %8.3f %8.3f %7.1fx %7.1fx\n" "$2" "$3" \
        "$(cut -d' ' -f1 "$o" | median)" "$(cut -d' ' -f2 "$o" | median)" \
        "$(cut -d' ' -f1 "$s" | median)" "$(cut -d' ' -f2 "$s" | median)" \
        "$(cut -d' ' -f1 "$T/ratio" | median)" "$(cut -d' ' -f2 "$T/ratio" | median)"
}

for c in sha merkle; do
    d=$cache/$c
    wasm=$d/${c}_js/$c.wasm
    sync
    echo 3 2>/dev/null >/proc/sys/vm/drop_caches || true # a cold first run where allowed
    "$T/timeit" "$bin" wtns calculate "$wasm" "$T/$c.json" "$T/$c.wtns" | cut -d' ' -f1 >"$T/$c.first"
    pairs "wtns-$c" "$rounds" "$bin" wtns calculate "$wasm" "$T/$c.json" "$T/$c.wtns" -- \
        "$snarkjs" wtns calculate "$wasm" "$T/$c.json" "$T/$c.sj.wtns"
    cmp "$T/$c.wtns" "$T/$c.sj.wtns" || { echo "$c: our .wtns differs from snarkjs'" >&2; exit 1; }
    if [ -n "${BASE:-}" ]; then
        pairs "base-$c" "$rounds" "$BASE" wtns calculate "$wasm" "$T/$c.json" "$T/$c.base.wtns" -- \
            "$snarkjs" wtns calculate "$wasm" "$T/$c.json" "$T/$c.sj.wtns"
        cmp "$T/$c.base.wtns" "$T/$c.sj.wtns" || { echo "$c: base's .wtns differs from snarkjs'" >&2; exit 1; }
    fi
    if [ -z "${NO_PROVE:-}" ]; then
        "$bin" fullprove --quiet "$T/$c.json" "$wasm" "$d/$c.zkey" "$T/p.json" "$T/pub.json" # the key cache, filled
        pairs "prove-$c" "$prove_rounds" "$bin" fullprove --quiet "$T/$c.json" "$wasm" "$d/$c.zkey" "$T/p.json" \
            "$T/pub.json" -- "$snarkjs" groth16 fullprove "$T/$c.json" "$wasm" "$d/$c.zkey" "$T/sp.json" "$T/spub.json"
        for pr in "pub.json p.json" "spub.json sp.json"; do
            set -- $pr
            "$snarkjs" groth16 verify "$d/vk.json" "$T/$1" "$T/$2" | grep -q "OK!" ||
                { echo "$c: a proof ($2) does not verify" >&2; exit 1; }
        done
    fi
done

echo "bn128; $rounds wtns rounds, $prove_rounds fullprove rounds; load $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
printf "%-34s %8s %8s %8s %8s %8s %8s %8s\n" "" "ours" "ours" "ours" "snarkjs" "snarkjs" "speed-up" "speed-up"
printf "%-34s %8s %8s %8s %8s %8s %8s %8s\n" "" "1st s" "wall s" "cpu s" "wall s" "cpu s" "wall" "cpu"
row wtns-sha "wtns calculate, SHA-256 (93,792)" "$(printf %.3f "$(cat "$T/sha.first")")"
row wtns-merkle "wtns calculate, Merkle (125,580)" "$(printf %.3f "$(cat "$T/merkle.first")")"
if [ -n "${BASE:-}" ]; then
    row base-sha "base: wtns calculate, SHA-256" "-"
    row base-merkle "base: wtns calculate, Merkle" "-"
fi
if [ -z "${NO_PROVE:-}" ]; then
    row prove-sha "fullprove, SHA-256" "-"
    row prove-merkle "fullprove, Merkle" "-"
fi
