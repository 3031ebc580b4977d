#!/usr/bin/env bash
# `snarkpipe prove` with and without the key cache (groth16/keycache.h).
#
#   bench/keycache.sh [BUILD [K...]]     default: build, K = 14 17
#
# For each K: `gen-circuit` writes a circuit of 2^K constraints (1 public
# input, half of the witness values 0/1; domain 2^(K+1)), `setup` makes its
# key, then whole `prove` processes run REPS times each (default 3, env
# REPS), in turn:
#   default    --no-key-cache: every key point decoded and checked on the
#              curve and in the subgroup (what every prove did before)
#   no-sg      --no-key-cache --skip-subgroup-check: on-curve checks only
#   cold       an empty cache: the key checked as by default, then its
#              entry written
#   warm       the entry read back (the key file hashed, nothing checked)
#   warm-no-sg --skip-subgroup-check served by the same entry
# Columns: the median wall-clock seconds of the whole process (and below,
# its CPU seconds, user + system, which a loaded machine disturbs less), then (from
# prove --json, median) the key's part of it: read_key for default and
# warm, and for the cold and warm runs what the cache spent: hashing the
# key file, reading the entry, checking the key, writing the entry. Last:
# the key file and entry sizes and the hashing throughput. Threads: every
# core (--threads to change it: env THREADS).
set -eu
build=${1:-build}
shift || true
sizes=${*:-14 17}
reps=${REPS:-3}
threads=${THREADS:-0}
bin=$build/snarkpipe
[ -x "$bin" ] || { echo "keycache: $bin not found (make BUILD=$build first)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "keycache: /usr/bin/time is needed (Debian: apt-get install time)" >&2; exit 2; }
T=$(mktemp -d "${TMPDIR:-/tmp}/sp_bench_keycache.XXXXXX")
trap 'rm -rf "$T"' EXIT
export SNARKPIPE_CACHE_DIR=$T/cache
export SNARKPIPE_CACHE_MAX=1T # the key cache's cap: room for the entry of any size measured

median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
now() { date +%s.%N; }
# run NAME [prove options]: one whole prove; appends wall seconds to $T/NAME.wall
# and its --json line to $T/NAME.json
run() {
    local name=$1 t0
    shift
    t0=$(now)
    /usr/bin/time -f "%U %S" -o "$T/cpu" "$bin" --threads "$threads" --json prove "$@" "$T/c.zkey" "$T/c.wtns" \
        "$T/p.json" "$T/pub.json" >>"$T/runs/$name.json" 2>"$T/err" || { echo "failed: prove $*" >&2; cat "$T/err" >&2; exit 1; }
    awk -v a="$t0" -v b="$(now)" 'BEGIN {printf "%.3f\n", b - a}' >>"$T/runs/$name.wall"
    awk '{printf "%.3f\n", $1 + $2}' "$T/cpu" >>"$T/runs/$name.cpu"
    "$bin" verify "$T/vk.json" "$T/pub.json" "$T/p.json" >/dev/null || { echo "proof does not verify" >&2; exit 1; }
}
# field NAME KEY: median of a JSON number field over NAME's runs
field() { grep -o "\"$2\":[0-9][0-9.]*" "$T/runs/$1.json" | cut -d: -f2 | median | awk '{printf "%.3f", $1}'; }
wall() { median <"$T/runs/$1.wall"; }
cpu() { median <"$T/runs/$1.cpu"; }

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "snarkpipe: $("$bin" version)"
printf "%-5s %-8s | %-8s %-8s %-8s %-8s %-10s | %-9s %-9s | %-6s %-7s %-7s %-7s | %-7s %-8s %s\n" \
    "log n" "domain" "default" "no-sg" "cold" "warm" "warm-no-sg" "key dflt" "key warm" "hash" "entry" "check" "store" \
    "zkey MiB" "entry MiB" "hash MB/s"
for k in $sizes; do
    "$bin" gen-circuit --quiet --constraints $((1 << k)) --public 1 "$T/c.r1cs" "$T/c.wtns"
    "$bin" setup --quiet "$T/c.r1cs" "$T/c.zkey" 2>/dev/null
    "$bin" export-vkey --quiet "$T/c.zkey" "$T/vk.json"
    rm -rf "$T/runs" && mkdir "$T/runs"
    for _ in $(seq "$reps"); do
        run default --no-key-cache
        run nosg --no-key-cache --skip-subgroup-check
        "$bin" --quiet cache clear
        run cold
        run warm
        run warmnosg --skip-subgroup-check
    done
    grep -q '"state":"miss","stored":true' "$T/runs/cold.json" || { echo "the cold runs did not store" >&2; exit 1; }
    [ "$(grep -c '"state":"hit"' "$T/runs/warm.json")" = "$reps" ] || { echo "a warm run missed" >&2; exit 1; }
    [ "$(grep -c '"state":"hit"' "$T/runs/warmnosg.json")" = "$reps" ] || { echo "a warm-no-sg run missed" >&2; exit 1; }
    domain=$("$bin" info --json "$T/c.zkey" | sed 's/.*"domain_size":\([0-9]*\).*/\1/')
    zb=$(stat -c %s "$T/c.zkey")
    eb=$(stat -c %s "$T"/cache/*.spkc)
    hash=$(field warm hash)
    printf "%-5s %-8s | %-8s %-8s %-8s %-8s %-10s | %-9s %-9s | %-6s %-7s %-7s %-7s | %-7s %-8s %s\n" \
        "$k" "$domain" "$(wall default)" "$(wall nosg)" "$(wall cold)" "$(wall warm)" "$(wall warmnosg)" "$(field default read_key)" "$(field warm read_key)" \
        "$hash" "$(field warm entry)" "$(field cold check)" "$(field cold store)" \
        "$(awk -v b="$zb" 'BEGIN {printf "%.1f", b / 1048576}')" "$(awk -v b="$eb" 'BEGIN {printf "%.1f", b / 1048576}')" \
        "$(awk -v b="$zb" -v t="$hash" 'BEGIN {printf "%.0f", (t > 0 ? b / t / 1e6 : 0)}')"
    printf "%-5s %-8s | %-8s %-8s %-8s %-8s %-10s |\n" "" "(cpu s)" "$(cpu default)" "$(cpu nosg)" "$(cpu cold)" \
        "$(cpu warm)" "$(cpu warmnosg)"
done
