#!/usr/bin/env bash
# A native circuit's synthesis in the engine against `bench witness` on
# the same circuit and thread count, side by side.
#
#   bench/engine-synth.sh BUILD KEY.zkey [OLD_SNARKPIPE] -- CIRCUIT OPTIONS
#
# CIRCUIT OPTIONS are the native circuit's, as `bench pipeline` takes them
# (--circuit porep-like|window-post-like, --preset, --nodes, ...); KEY is a
# key for that circuit (gen-circuit --record, then setup). Rows:
#   bench witness   the circuit's synthesis into buffers kept between runs:
#                   the first run (cold) and the median of the rest (warm)
#   engine          `bench pipeline` with one partition at a time (-j 1 -p 1,
#                   one synthesis worker, so nothing else runs beside a
#                   synthesis), each partition's synth_ms from the TIMELINE
#                   (the warm-up job's left out): median and max; every
#                   constraint checked (check_witness=1, the default)
#   engine, no check  the same with check_witness=0 (as bench witness runs)
#   engine (old)    the same with OLD_SNARKPIPE, another build's binary, for
#                   a before/after comparison
# Env: JOBS (engine partitions timed, default 8), REPS (bench witness runs,
# default 6), THREADS (threads of one synthesis, default 2).
set -eu
build=${1:?usage: bench/engine-synth.sh BUILD KEY.zkey [OLD_SNARKPIPE] -- CIRCUIT OPTIONS}
key=${2:?usage: bench/engine-synth.sh BUILD KEY.zkey [OLD_SNARKPIPE] -- CIRCUIT OPTIONS}
shift 2
old=
if [ "${1:-}" != "--" ] && [ $# -gt 0 ]; then
    old=$1
    shift
fi
[ "${1:-}" = "--" ] && shift
circ=("$@")
jobs=${JOBS:-8}
reps=${REPS:-6}
threads=${THREADS:-2}
bin=$build/snarkpipe
T=$(mktemp -d "${TMPDIR:-/tmp}/sp_bench_esynth.XXXXXX")
trap 'rm -rf "$T"' EXIT

# bench witness takes the porep-like options only; the engine rows take both
shape=()
kind=porep-like
for ((i = 0; i < ${#circ[@]}; i++)); do
    if [ "${circ[$i]}" = "--circuit" ]; then
        kind=${circ[$((i + 1))]}
        i=$((i + 1))
    else
        shape+=("${circ[$i]}")
    fi
done

# median and max of the numbers on stdin
stats() { sort -g | awk '{ v[NR] = $1 } END { if (!NR) { print "- -"; exit } printf "%.1f %.1f\n", v[int((NR + 1) / 2)], v[NR] }'; }

engine_row() { # label binary check_witness
    "$2" --quiet --threads "$threads" bench pipeline --circuit "$kind" "${shape[@]}" --zkey "$key" \
        --skip-subgroup-check -c "$jobs" -j 1 -p 1 --no-isolation --set synth=1 --set synth_threads="$threads" \
        --set check_witness="$3" --timeline "$T/tl" >/dev/null
    read -r med max < <(grep ',SYNTH_END,' "$T/tl" | tail -n +2 | sed 's/.*synth_ms=\([0-9.]*\).*/\1/' | stats)
    printf "%-16s %10s %10s %12s %12s\n" "$1" - - "$med" "$max"
}

printf "%s %s, %s threads a synthesis, %s engine partitions\n" "$kind" "${shape[*]}" "$threads" "$jobs"
printf "%-16s %10s %10s %12s %12s\n" "row" "cold ms" "warm ms" "median ms" "max ms"
if [ "$kind" = porep-like ]; then
    "$bin" --json bench witness "${shape[@]}" --threads-list "$threads" --reps "$reps" >"$T/w.json"
    cold=$(sed -n 's/.*"cold_s":\([0-9.e-]*\).*/\1/p' "$T/w.json" | head -1)
    warm=$(sed -n 's/.*"warm_s":\([0-9.e-]*\).*/\1/p' "$T/w.json" | head -1)
    awk -v c="$cold" -v w="$warm" 'BEGIN { printf "%-16s %10.1f %10.1f %12s %12s\n", "bench witness", c * 1000, w * 1000, "-", "-" }'
fi
engine_row engine "$bin" 1
engine_row "engine, no check" "$bin" 0
if [ -n "$old" ]; then
    engine_row "engine (old)" "$old" 1
    engine_row "old, no check" "$old" 0
fi
exit 0
