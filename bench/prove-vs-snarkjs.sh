#!/usr/bin/env bash
# Groth16 prove time, snarkpipe vs snarkjs 0.7.6 (and rapidsnark, when one
# is given), on the same .zkey and witness, in one run (so all see the same
# machine state).
#
#   bench/prove-vs-snarkjs.sh [BUILD [K...]]     default: build, K = 14 16
#   CURVE=bn254 ...                              the circuits on BN254 (bn128)
#   RAPIDSNARK=/path/to/prover CURVE=bn254 ...   rapidsnark's prover too
#
# For each K: `snarkpipe gen-circuit --curve CURVE` writes a circuit of 2^K
# constraints (1 public input, half of the witness values 0/1; the domain is
# 2^(K+1) because of the input rows), `snarkpipe setup` makes its key, then
# each prover runs REPS times (default 3, env REPS; the provers alternate
# within each round), whole processes timed from the outside (reading the
# key included). Cold is the first round (the key just written, nothing
# loaded before), warm the median of the other rounds; the CPU time (user +
# system of the finished process, which the load of a shared machine
# disturbs less than the wall clock) is the median of all rounds. Every
# prover uses every core. Each prover's last proof is checked with
# `snarkjs groth16 verify`. snarkjs is installed into BUILD/npm when
# missing (as tests/test_cli.sh does). rapidsnark reads the same .zkey and
# .wtns; it is BN254-only and is not built by this repository.
#
# snarkpipe is timed three ways: as it runs by default, with its key cache
# (a cache of the benchmark's own, emptied for each K: the cold run reads
# the key, checks every point on the curve AND in the subgroup and writes
# the cache entry, the warm runs read the checked key back from it;
# bench/keycache.sh has the details); with --no-key-cache, every run
# checking every point; and with --no-key-cache --skip-subgroup-check,
# which checks what snarkjs and rapidsnark check (nothing: they do not
# validate key points). The last column is the proof alone, in-process
# (`snarkpipe bench prove`: key and witness already in memory).
set -eu
build=${1:-build}
shift || true
sizes=${*:-14 16}
reps=${REPS:-3}
curve=${CURVE:-bls12-381}
rapid=${RAPIDSNARK:-}
bin=$build/snarkpipe
[ -x "$bin" ] || { echo "prove-vs-snarkjs: $bin not found (make BUILD=$build first)" >&2; exit 2; }
[ -z "$rapid" ] || [ -x "$rapid" ] || { echo "prove-vs-snarkjs: RAPIDSNARK=$rapid is not executable" >&2; exit 2; }
snarkjs=$build/npm/node_modules/.bin/snarkjs
if [ ! -x "$snarkjs" ]; then
    mkdir -p "$build/npm"
    npm install --no-audit --no-fund --loglevel=error --prefix "$build/npm" snarkjs@0.7.6 >&2
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/sp_prove_vs_snarkjs.XXXXXX")
trap 'rm -rf "$T"' EXIT
export SNARKPIPE_CACHE_DIR=$T/cache

# median of the numbers on stdin
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
# timed NAME CMD...: appends "wall cpu" of CMD to $T/NAME
timed() {
    local name=$1
    shift
    local t0 t1
    # the wall clock to the millisecond (time's %e has hundredths only);
    # user + system from time
    t0=$(date +%s.%N)
    /usr/bin/time -f "%U %S" -o "$T/time" "$@" >/dev/null 2>"$T/err" ||
        { echo "failed: $*" >&2; cat "$T/err" >&2; exit 1; }
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" '{printf "%.4f %.3f\n", b - a, $1 + $2}' "$T/time" >>"$T/$name"
}
# cold NAME / warm NAME / cpu NAME: the first wall time, the median of the others, the median CPU time
cold() { head -1 "$T/$1" | cut -d' ' -f1; }
warm() { if [ "$reps" -gt 1 ]; then tail -n +2 "$T/$1" | cut -d' ' -f1 | median; else cold "$1"; fi; }
cpu() { cut -d' ' -f2 <"$T/$1" | median; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.1fx", a / b}'; }
verified() { "$snarkjs" groth16 verify "$T/vk.json" "$2" "$1" | grep -q "OK!" || { echo "snarkjs rejected $3's proof" >&2; exit 1; }; }

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "snarkpipe: $("$bin" version | head -1), curve $curve"
echo "snarkjs: $("$snarkjs" --version 2>/dev/null | head -1 || true)  node $(node --version)"
[ -z "$rapid" ] || echo "rapidsnark: $rapid"
provers="ours nocache nosg snarkjs${rapid:+ rapidsnark}"
printf "%-5s %-7s %-7s | %-22s | %-22s | %-22s | %-22s |%s %s\n" "log n" "domain" "setup s" "ours: cold/warm/cpu s" \
    "no-cache: cold/warm/cpu" "no-cache-nosg" "snarkjs: cold/warm/cpu" "${rapid:+ rapidsnark: cold/warm/cpu |}" \
    "warm ratios vs snarkjs (ours, no-cache, nosg${rapid:+, rapidsnark}); in-process prove s"
for k in $sizes; do
    n=$((1 << k))
    "$bin" gen-circuit --curve "$curve" --quiet --constraints "$n" --public 1 "$T/c.r1cs" "$T/c.wtns"
    t0=$(date +%s.%N)
    "$bin" setup --quiet "$T/c.r1cs" "$T/c.zkey" 2>/dev/null
    t_setup=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.2f", b - a}')
    domain=$("$bin" info --json "$T/c.zkey" | sed 's/.*"domain_size":\([0-9]*\).*/\1/')
    "$bin" export-vkey --quiet "$T/c.zkey" "$T/vk.json"
    for p in $provers; do rm -f "$T/$p"; done
    "$bin" --quiet cache clear
    for _ in $(seq "$reps"); do
        timed ours "$bin" prove --quiet "$T/c.zkey" "$T/c.wtns" "$T/p1.json" "$T/pub1.json"
        timed nocache "$bin" prove --quiet --no-key-cache "$T/c.zkey" "$T/c.wtns" "$T/p1.json" "$T/pub1.json"
        timed nosg "$bin" prove --quiet --no-key-cache --skip-subgroup-check "$T/c.zkey" "$T/c.wtns" "$T/p1.json" \
            "$T/pub1.json"
        timed snarkjs "$snarkjs" groth16 prove "$T/c.zkey" "$T/c.wtns" "$T/p2.json" "$T/pub2.json"
        [ -z "$rapid" ] || timed rapidsnark "$rapid" "$T/c.zkey" "$T/c.wtns" "$T/p3.json" "$T/pub3.json"
    done
    verified "$T/p1.json" "$T/pub1.json" snarkpipe
    verified "$T/p2.json" "$T/pub2.json" snarkjs
    [ -z "$rapid" ] || verified "$T/p3.json" "$T/pub3.json" rapidsnark
    inproc=$("$bin" bench prove "$T/c.zkey" "$T/c.wtns" --reps "$reps" --json | sed 's/.*"seconds":\([0-9.]*\).*/\1/')
    col() { printf "%-22s" "$(cold "$1") / $(warm "$1") / $(cpu "$1")"; }
    rs=$(warm snarkjs)
    rr="$(ratio "$rs" "$(warm ours)"), $(ratio "$rs" "$(warm nocache)"), $(ratio "$rs" "$(warm nosg)")"
    [ -z "$rapid" ] || rr="$rr, $(ratio "$rs" "$(warm rapidsnark)")"
    printf "%-5s %-7s %-7s | %s | %s | %s | %s |%s %s; %s\n" "$k" "$domain" "$t_setup" "$(col ours)" "$(col nocache)" \
        "$(col nosg)" "$(col snarkjs)" "${rapid:+ $(col rapidsnark) |}" "$rr" "$inproc"
done
