#!/usr/bin/env bash
# Whole-process prove time of one or more snarkpipe binaries against
# snarkjs 0.7.6, alternating in rounds, on the same .zkey/.wtns: the
# user's figure (default `snarkpipe prove`, key cached, the
# second and later runs using the reload path) with the run-to-run drift
# of a shared machine spread over every prover alike.
#
#   bench/prove-pairs.sh [BIN...]        default: build/snarkpipe
#   CURVE=bn254|bls12-381 (default bn254)  K=14 (2^K constraints)
#   PAIRS=15 (rounds)  SNARKJS=path (default build/npm/node_modules/.bin/snarkjs,
#   else /work/main's)  ARGS="..." (extra arguments to every snarkpipe prove)
#
# The circuit is `gen-circuit --constraints 2^K --public 1` of the first
# binary (domain 2^(K+1)), its key from `setup`. Each binary has its own
# key cache directory, filled by one untimed run, then a second untimed
# run (so the timed ones are all warm). Each round runs every binary and
# snarkjs once, the order rotating from round to round. Printed per
# prover: median wall and CPU (user + system) seconds, and for each
# binary the median over the rounds of snarkjs' wall / its wall (the
# pairwise ratio: both measured within seconds of each other).
set -eu
bins=${*:-build/snarkpipe}
curve=${CURVE:-bn254}
k=${K:-14}
pairs=${PAIRS:-15}
ARGS=${ARGS:-}
snarkjs=${SNARKJS:-build/npm/node_modules/.bin/snarkjs}
[ -x "$snarkjs" ] || snarkjs=/work/main/build/npm/node_modules/.bin/snarkjs
[ -x "$snarkjs" ] || { echo "prove-pairs: no snarkjs (set SNARKJS)" >&2; exit 2; }
for b in $bins; do [ -x "$b" ] || { echo "prove-pairs: $b is not executable" >&2; exit 2; }; done
T=$(mktemp -d "${TMPDIR:-/tmp}/sp_prove_pairs.XXXXXX")
trap 'rm -rf "$T"' EXIT
first=${bins%% *}
"$first" gen-circuit --curve "$curve" --quiet --constraints $((1 << k)) --public 1 "$T/c.r1cs" "$T/c.wtns"
"$first" setup --quiet "$T/c.r1cs" "$T/c.zkey" 2>/dev/null
"$first" export-vkey --quiet "$T/c.zkey" "$T/vk.json"

# run NAME CMD...: appends "wall cpu" of CMD to $T/NAME.t (bench/timeit.c)
cc -O2 -o "$T/timeit" "$(dirname "$0")/timeit.c"
run() {
    local name=$1
    shift
    "$T/timeit" "$@" >>"$T/$name.t" || { echo "failed: $*" >&2; exit 1; }
}
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

i=0
names=""
for b in $bins; do
    i=$((i + 1))
    mkdir -p "$T/cache$i"
    for _ in 1 2; do
        SNARKPIPE_CACHE_DIR=$T/cache$i "$b" prove --quiet $ARGS "$T/c.zkey" "$T/c.wtns" "$T/p$i.json" "$T/pub$i.json"
    done
    names="$names b$i"
done
names="$names snarkjs"
nprov=$(echo $names | wc -w)
for r in $(seq "$pairs"); do
    for j in $(seq 0 $((nprov - 1))); do
        idx=$(((r + j) % nprov + 1))
        p=$(echo $names | cut -d' ' -f$idx)
        if [ "$p" = snarkjs ]; then
            run snarkjs "$snarkjs" groth16 prove "$T/c.zkey" "$T/c.wtns" "$T/ps.json" "$T/pubs.json"
        else
            n=${p#b}
            b=$(echo $bins | cut -d' ' -f$n)
            SNARKPIPE_CACHE_DIR=$T/cache$n run "$p" "$b" prove --quiet $ARGS "$T/c.zkey" "$T/c.wtns" \
                "$T/p$n.json" "$T/pub$n.json"
        fi
    done
done
i=0
for b in $bins; do
    i=$((i + 1))
    "$snarkjs" groth16 verify "$T/vk.json" "$T/pub$i.json" "$T/p$i.json" | grep -q "OK!" ||
        { echo "snarkjs rejected $b's proof" >&2; exit 1; }
    SNARKPIPE_CACHE_DIR=$T/cache$i "$b" prove --json $ARGS "$T/c.zkey" "$T/c.wtns" "$T/p$i.json" "$T/pub$i.json" |
        grep -q '"state":"hit"' || { echo "$b: the key cache was not used" >&2; exit 1; }
done
echo "curve $curve, 2^$k constraints, $pairs rounds, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-40s %9s %9s %9s %9s %9s\n" prover "wall s" "min" "cpu s" "vs snarkjs" "(range)"
sj=$(cut -d' ' -f1 "$T/snarkjs.t" | median)
i=0
for b in $bins; do
    i=$((i + 1))
    w=$(cut -d' ' -f1 "$T/b$i.t" | median)
    mn=$(cut -d' ' -f1 "$T/b$i.t" | sort -g | head -1)
    c=$(cut -d' ' -f2 "$T/b$i.t" | median)
    paste -d' ' "$T/snarkjs.t" "$T/b$i.t" | awk '{print $1 / $3}' >"$T/ratio"
    rm=$(median <"$T/ratio")
    lo=$(sort -g "$T/ratio" | head -1)
    hi=$(sort -g "$T/ratio" | tail -1)
    printf "%-40s %9.4f %9.4f %9.4f %8.2fx %s\n" "$b" "$w" "$mn" "$c" "$rm" "($(printf %.2f "$lo")-$(printf %.2f "$hi"))"
done
printf "%-40s %9.4f %9s %9.4f\n" snarkjs "$sj" "" "$(cut -d' ' -f2 "$T/snarkjs.t" | median)"
