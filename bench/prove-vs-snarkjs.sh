#!/usr/bin/env bash
# Groth16 prove time, snarkpipe vs snarkjs 0.7.6, on the same .zkey and
# witness, in one run (so both see the same machine state).
#
#   bench/prove-vs-snarkjs.sh [BUILD [K...]]     default: build, K = 14 16
#
# For each K: `snarkpipe gen-circuit` writes a circuit of 2^K constraints
# (1 public input, half of the witness values 0/1), `snarkpipe setup` makes
# its key, then `snarkpipe prove` and `snarkjs groth16 prove` run REPS times
# each (default 3, alternating; env REPS), whole processes timed from the
# outside (reading the key included), and the median of each is printed
# with the ratio. Both use every core. Both proofs are checked with
# `snarkjs groth16 verify` once. snarkjs is installed into BUILD/npm when
# missing (as tests/test_cli.sh does).
#
# snarkpipe is timed three times: with every key point checked on the
# curve AND in the subgroup while the key is read (the default without a
# key cache entry: --no-key-cache), with --skip-subgroup-check, which
# checks what snarkjs checks (nothing: it does not validate key points at
# all; also --no-key-cache), and as a second prove with the same key runs
# by default: its checked key read back from the key cache (a cache of the
# benchmark's own, filled before the timed runs; bench/keycache.sh has the
# cold and warm details). The last column is the proof alone, in-process
# (`snarkpipe bench prove`: key and witness already in memory).
set -eu
build=${1:-build}
shift || true
sizes=${*:-14 16}
reps=${REPS:-3}
bin=$build/snarkpipe
[ -x "$bin" ] || { echo "prove-vs-snarkjs: $bin not found (make BUILD=$build first)" >&2; exit 2; }
snarkjs=$build/npm/node_modules/.bin/snarkjs
if [ ! -x "$snarkjs" ]; then
    mkdir -p "$build/npm"
    npm install --no-audit --no-fund --loglevel=error --prefix "$build/npm" snarkjs@0.7.6 >&2
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/sp_prove_vs_snarkjs.XXXXXX")
trap 'rm -rf "$T"' EXIT
export SNARKPIPE_CACHE_DIR=$T/cache

now() { date +%s.%N; }
# median of the numbers on stdin
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
# timed FILE CMD...: appends CMD's wall-clock seconds to FILE
timed() {
    local out=$1 t0
    shift
    t0=$(now)
    "$@" >/dev/null 2>"$T/err" || { echo "failed: $*" >&2; cat "$T/err" >&2; exit 1; }
    awk -v a="$t0" -v b="$(now)" 'BEGIN {printf "%.3f\n", b - a}' >>"$out"
}

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "snarkpipe: $("$bin" version)"
echo "snarkjs: $("$snarkjs" --version 2>/dev/null | head -1 || true)  node $(node --version)"
printf "%-6s %-8s %-7s %-8s %-10s %-10s %-10s %-10s %-7s %-7s %-8s %s\n" "log n" "constr." "domain" "setup s" "ours s" \
    "ours-nosg" "ours-cached" "snarkjs s" "ratio" "r-nosg" "r-cached" "in-process prove s"
for k in $sizes; do
    n=$((1 << k))
    "$bin" gen-circuit --quiet --constraints "$n" --public 1 "$T/c.r1cs" "$T/c.wtns"
    t0=$(now)
    "$bin" setup --quiet "$T/c.r1cs" "$T/c.zkey" 2>/dev/null
    t_setup=$(awk -v a="$t0" -v b="$(now)" 'BEGIN {printf "%.2f", b - a}')
    domain=$("$bin" info --json "$T/c.zkey" | sed 's/.*"domain_size":\([0-9]*\).*/\1/')
    "$bin" export-vkey --quiet "$T/c.zkey" "$T/vk.json"
    rm -f "$T/ours" "$T/nosg" "$T/cached" "$T/theirs"
    "$bin" --quiet cache clear
    "$bin" prove --quiet "$T/c.zkey" "$T/c.wtns" "$T/p1.json" "$T/pub1.json" # fills the key cache
    for _ in $(seq "$reps"); do
        timed "$T/ours" "$bin" prove --quiet --no-key-cache "$T/c.zkey" "$T/c.wtns" "$T/p1.json" "$T/pub1.json"
        timed "$T/nosg" "$bin" prove --quiet --no-key-cache --skip-subgroup-check "$T/c.zkey" "$T/c.wtns" "$T/p1.json" "$T/pub1.json"
        timed "$T/cached" "$bin" prove --quiet "$T/c.zkey" "$T/c.wtns" "$T/p1.json" "$T/pub1.json"
        timed "$T/theirs" "$snarkjs" groth16 prove "$T/c.zkey" "$T/c.wtns" "$T/p2.json" "$T/pub2.json"
    done
    "$snarkjs" groth16 verify "$T/vk.json" "$T/pub1.json" "$T/p1.json" | grep -q "OK!" || { echo "snarkjs rejected our proof" >&2; exit 1; }
    "$snarkjs" groth16 verify "$T/vk.json" "$T/pub2.json" "$T/p2.json" | grep -q "OK!" || { echo "snarkjs rejected its proof" >&2; exit 1; }
    ours=$(median <"$T/ours")
    nosg=$(median <"$T/nosg")
    cached=$(median <"$T/cached")
    theirs=$(median <"$T/theirs")
    inproc=$("$bin" bench prove "$T/c.zkey" "$T/c.wtns" --reps "$reps" --json | sed 's/.*"seconds":\([0-9.]*\).*/\1/')
    ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.1fx", a / b}'; }
    printf "%-6s %-8s %-7s %-8s %-10s %-10s %-10s %-10s %-7s %-7s %-8s %s\n" "$k" "$n" "$domain" "$t_setup" "$ours" "$nosg" \
        "$cached" "$theirs" "$(ratio "$theirs" "$ours")" "$(ratio "$theirs" "$nosg")" "$(ratio "$theirs" "$cached")" "$inproc"
done
