#!/bin/sh
# The seed's workload on a GPU machine, in one go:
#   1. the porep-like circuit's synthesis on this machine's cores (bench
#      witness: the full-size preset's witness and a, b, c, cold and warm,
#      thread counts side by side) and, with SP_RECORD=1, the record-once
#      path (record, write, read back the .sprec);
#   2. proofs of that circuit shape through the engine on cuda:0: a
#      development setup made in memory (the key's points on the GPU, no key
#      file), then isolation (1 proof of P partitions) and load (C proofs,
#      J in flight), every proof verified, TIMELINE, waterfall and SVG, peak
#      RSS and the device's memory.
#
#   bench/porep-gpu.sh BUILD [PRESET=32GiB] [CHALLENGES=] [C=3] [J=2] [P=10]
#     BUILD       a CUDA=1 build directory holding snarkpipe
#     CHALLENGES  per partition for step 2 (empty: the preset's); fewer make a
#                 smaller domain on the same code path (32GiB with 2: 2^24)
#   environment
#     OUT             where the tables, TIMELINE and SVG go (default: a temp dir)
#     SP_WITNESS=0    skip step 1;  SP_PROVE=0  skip step 2
#     SP_RECORD=1     step 1 also times the record-once path
#     SP_THREADS_LIST thread counts of step 1 (default: all cores and half)
#     SP_ENGINE_SET   extra "--set K=V" options for step 2
# Exit status 0 only when every job completed and verified.
set -eu
B=${1:?usage: bench/porep-gpu.sh BUILD [PRESET] [CHALLENGES] [C] [J] [P]}
PRESET=${2:-32GiB}
CH=${3:-}
C=${4:-3}
J=${5:-2}
P=${6:-10}
S=$B/snarkpipe
D=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/sp-porep.XXXXXX")}
mkdir -p "$D"
W=$(mktemp -d "${TMPDIR:-/tmp}/sp-porep-w.XXXXXX")
trap 'rm -rf "$W"' EXIT
cores=$(nproc)
rc=0

"$S" --json gen-circuit --kind porep-like --preset "$PRESET" --dry-run | tee "$D/shape.json"
if [ "${SP_WITNESS:-1}" = 1 ]; then
    echo "== 1. synthesis of one $PRESET partition on $cores cores"
    rec=
    [ "${SP_RECORD:-0}" = 1 ] && rec="--record $W/c.sprec"
    # shellcheck disable=SC2086 # $rec is two words or none
    "$S" bench witness --preset "$PRESET" --threads-list "${SP_THREADS_LIST:-$cores,$((cores / 2))}" --reps 3 \
        $rec | tee "$D/witness.txt" || rc=1
    rm -f "$W/c.sprec"
fi
if [ "${SP_PROVE:-1}" = 1 ]; then
    chopt=
    [ -n "$CH" ] && chopt="--challenges $CH"
    echo "== 2. the engine on cuda:0: $PRESET ${CH:+with $CH challenges per partition}, $C proofs of $P partitions, $J in flight"
    command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,memory.used,memory.total --format=csv,noheader
    # shellcheck disable=SC2086 # option lists
    "$S" bench pipeline --circuit porep-like --preset "$PRESET" $chopt --set backends=cuda:0 -c "$C" -j "$J" \
        -p "$P" ${SP_ENGINE_SET:-} --timeline "$D/timeline.txt" | tee "$D/table.txt" || rc=1
    "$S" waterfall "$D/timeline.txt" --svg "$D/waterfall.svg" | tee "$D/waterfall.txt" || rc=1
fi
echo "results in $D"
exit $rc
