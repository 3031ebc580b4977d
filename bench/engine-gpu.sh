#!/bin/sh
# The engine measured on a GPU machine, in one go: a generated circuit of
# 2^K constraints (70% of the witness 0 or 1), its development setup (on the
# GPU when `setup --backend` has it), then the in-process engine on cuda:0:
#   1. a pilot of two short load runs, G2 MSM on the finish pool vs inside
#      the device lock, to pick the better placement;
#   2. with it: isolation vs load (C jobs, J in flight), the sweep (j grid,
#      each memory switch off alone, 1 vs 2 GPU workers, finish_threads, the
#      other G2 placement), TIMELINE of the load run;
#   3. `snarkpipe waterfall` of that TIMELINE and its SVG.
#
#   bench/engine-gpu.sh BUILD [K=22] [C=20] [J=8] [P=1]
#     BUILD   a CUDA=1 build directory holding snarkpipe
#   environment
#     OUT             where the TIMELINE, SVG and tables go (default: a temp dir)
#     SP_SWEEP_J      the sweep's j values (default 1,4,J)
#     SP_NO_SWEEP=1   isolation and load only (no sweep rows)
#     SP_CONSTRAINTS  the circuit's constraint count instead of 2^K (2^K - 2 keeps
#                     the domain at 2^K)
#     SP_ENGINE_SET   extra "--set K=V" options for every run
#     SP_ENGINE_BACKEND  the engine's backends (default cuda:0; cpu to try it here)
# Exit status 0 only when every job of every run completed and verified.
set -eu
B=${1:?usage: bench/engine-gpu.sh BUILD [K] [C] [J] [P]}
K=${2:-22}
C=${3:-20}
J=${4:-8}
P=${5:-1}
S=$B/snarkpipe
D=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/sp-engine.XXXXXX")}
mkdir -p "$D"
W=$(mktemp -d "${TMPDIR:-/tmp}/sp-engine-w.XXXXXX")
trap 'rm -rf "$W"' EXIT
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

N=${SP_CONSTRAINTS:-$((1 << K))}
echo "== circuit of $N constraints, 70% of the witness 0/1"
t=$(now)
"$S" --quiet gen-circuit --constraints "$N" --bool-fraction 0.7 "$W/c.r1cs" "$W/c.wtns"
echo "gen-circuit: $(since "$t") s"
t=$(now)
if "$S" setup --help 2>&1 | grep -q -- --backend; then
    "$S" --quiet setup --backend "${SP_ENGINE_BACKEND:-cuda:0}" "$W/c.r1cs" "$W/c.zkey" 2>"$W/setup.err" || { cat "$W/setup.err"; exit 1; }
    echo "setup (GPU): $(since "$t") s"
else
    "$S" --quiet setup "$W/c.r1cs" "$W/c.zkey" 2>"$W/setup.err" || { cat "$W/setup.err"; exit 1; }
    echo "setup (CPU): $(since "$t") s"
fi
rm -f "$W/c.r1cs" # the engine synthesises from the zkey's matrices
ls -l "$W/c.zkey" | awk '{ printf "zkey: %.2f GiB\n", $5 / 2^30 }'

# shellcheck disable=SC2086 # SP_ENGINE_SET is a list of options
run() { "$S" bench pipeline --zkey "$W/c.zkey" --wtns "$W/c.wtns" --skip-subgroup-check \
        --set backends="${SP_ENGINE_BACKEND:-cuda:0}" -p "$P" ${SP_ENGINE_SET:-} "$@"; }

echo "== 1. pilot: G2 MSM placement (8 jobs, 4 in flight, no isolation run)"
best=0
bestv=
for g2 in 0 1; do
    run --json --no-isolation -c 8 -j 4 --set g2_on_device=$g2 >"$W/pilot$g2.json"
    v=$(sed -n 's/.*"s_per_proof":\([0-9.e+-]*\).*/\1/p' "$W/pilot$g2.json")
    echo "g2_on_device=$g2: $v s/proof"
    if [ -z "$bestv" ] || awk -v a="$v" -v b="$bestv" 'BEGIN { exit !(a < b) }'; then
        best=$g2
        bestv=$v
    fi
done
echo "best: g2_on_device=$best"

echo "== 2. isolation vs load and the sweep (g2_on_device=$best)"
rc=0
sweep="--sweep-j ${SP_SWEEP_J:-1,4,$J}"
[ "${SP_NO_SWEEP:-0}" = 1 ] && sweep=
# shellcheck disable=SC2086 # $sweep is two words or none
run -c "$C" -j "$J" --set g2_on_device=$best $sweep --timeline "$D/timeline.txt" | tee "$D/table.txt" || rc=1

echo "== 3. waterfall of the load run"
"$S" waterfall "$D/timeline.txt" --svg "$D/waterfall.svg" | tee "$D/waterfall.txt" || rc=1
echo "results in $D"
exit $rc
