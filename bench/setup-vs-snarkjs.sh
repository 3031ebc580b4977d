#!/usr/bin/env bash
# The Groth16 setup from a powers-of-tau file, snarkpipe vs snarkjs 0.7.6,
# on the same circuit and .ptau, in one run (both see the same machine
# state): `snarkpipe setup c.r1cs pot.ptau` against `snarkjs groth16
# setup c.r1cs pot.ptau`, whole processes timed from the outside, REPS
# rounds (default 1, env REPS; alternating), the median wall time and CPU
# time (user + system) of each. The two keys must be the same file (cmp);
# with VERIFY=1 snarkjs' `zkey verify` also checks ours (it takes as long
# as a snarkjs setup).
#
#   bench/setup-vs-snarkjs.sh BUILD POT.ptau [POT.ptau ...]
#
# Each .ptau must be prepared for phase 2 (snarkjs' setup needs that). Its
# power K sets the circuit: `snarkpipe gen-circuit` writes 2^K - 2
# constraints with 1 public input, a domain of exactly 2^K (the largest the
# file serves). Making a .ptau takes long with snarkjs (about an hour at
# K = 16 on BN254 on a 2-core machine, mostly `prepare phase2`):
#   S=BUILD/npm/node_modules/.bin/snarkjs
#   $S powersoftau new bn128 16 p0.ptau
#   $S powersoftau contribute p0.ptau p1.ptau -e=some-entropy
#   $S powersoftau prepare phase2 p1.ptau pot16.ptau
# snarkjs is installed into BUILD/npm when missing.
set -eu
build=${1:?usage: bench/setup-vs-snarkjs.sh BUILD POT.ptau [POT.ptau ...]}
shift
[ $# -ge 1 ] || { echo "setup-vs-snarkjs: give at least one prepared .ptau" >&2; exit 2; }
reps=${REPS:-1}
bin=$build/snarkpipe
[ -x "$bin" ] || { echo "setup-vs-snarkjs: $bin not found (make BUILD=$build first)" >&2; exit 2; }
snarkjs=$build/npm/node_modules/.bin/snarkjs
if [ ! -x "$snarkjs" ]; then
    mkdir -p "$build/npm"
    npm install --no-audit --no-fund --loglevel=error --prefix "$build/npm" snarkjs@0.7.6 >&2
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/sp_setup_vs_snarkjs.XXXXXX")
trap 'rm -rf "$T"' EXIT

median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
# timed NAME CMD...: appends "wall cpu" of CMD to $T/NAME.times
timed() {
    local name=$1
    shift
    /usr/bin/time -f "%e %U %S" -o "$T/time" "$@" >"$T/$name.log" 2>&1 ||
        { echo "setup-vs-snarkjs: $name failed:" >&2; tail -5 "$T/$name.log" >&2; exit 1; }
    awk '{printf "%s %.2f\n", $1, $2 + $3}' "$T/time" >>"$T/$name.times"
}
col() { awk -v c="$2" '{print $c}' "$T/$1.times" | median; }

printf "%-8s %6s %10s %12s %12s %14s %14s %9s %9s\n" curve log_n constraints "snarkjs s" "snarkpipe s" \
    "snarkjs cpu s" "snarkpipe cpu" speedup identical
for pot in "$@"; do
    "$bin" info --json "$pot" >"$T/info.json"
    grep -q '"prepared_phase2":"yes"' "$T/info.json" ||
        { echo "setup-vs-snarkjs: $pot is not prepared for phase 2 (snarkjs powersoftau prepare phase2)" >&2; exit 2; }
    k=$(sed 's/.*"power":\([0-9]*\).*/\1/' "$T/info.json")
    curve=$(sed 's/.*"curve":"\([^"]*\)".*/\1/' "$T/info.json")
    n=$(((1 << k) - 2))
    "$bin" gen-circuit --curve "$curve" --quiet --constraints "$n" --public 1 "$T/c.r1cs" "$T/c.wtns"
    rm -f "$T"/*.times
    for _ in $(seq "$reps"); do
        timed snarkjs "$snarkjs" groth16 setup "$T/c.r1cs" "$pot" "$T/js.zkey"
        timed snarkpipe "$bin" setup --quiet "$T/c.r1cs" "$pot" "$T/sp.zkey"
    done
    same=no
    cmp -s "$T/js.zkey" "$T/sp.zkey" && same=yes
    if [ "${VERIFY:-0}" = 1 ]; then
        "$snarkjs" zkey verify "$T/c.r1cs" "$pot" "$T/sp.zkey" >"$T/verify.log" 2>&1 && grep -q "ZKey Ok!" "$T/verify.log" ||
            { echo "setup-vs-snarkjs: snarkjs zkey verify refused our key:" >&2; tail -5 "$T/verify.log" >&2; exit 1; }
        same="$same+verified"
    fi
    js=$(col snarkjs 1)
    sp=$(col snarkpipe 1)
    printf "%-8s %6s %10s %12s %12s %14s %14s %8.1fx %9s\n" "$curve" "$k" "$n" "$js" "$sp" "$(col snarkjs 2)" \
        "$(col snarkpipe 2)" "$(awk -v a="$js" -v b="$sp" 'BEGIN{print a / b}')" "$same"
done
