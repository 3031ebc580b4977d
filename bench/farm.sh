#!/usr/bin/env bash
# Farm throughput: the same batch of jobs through one daemon
# alone (no database), then through a farm of 1, 2 and 3 daemons on one
# PostgreSQL queue (a throwaway cluster on a unix socket, tests/pg.sh),
# all on this machine with CPU backends (one thread each for synthesis,
# the backend and the G2 MSM: a daemon keeps about one core busy).
#
#   bench/farm.sh [BUILD [LOG_CONSTRAINTS [JOBS [PARTITIONS]]]]
#   defaults: build, 12 (2^12 constraints), 40 jobs of 2 partitions
#
# Each row: a warm-up job, then JOBS jobs submitted by 4 clients to the
# daemons in turn and awaited, timed from the first submit to the last
# result. The database's share, per partition of the batch:
#   - server CPU ms: the CPU time of the cluster's processes (backends,
#     writers) over the batch: the database's own work, all nodes and both
#     sides, whatever else the machine runs;
#   - server ms: the wall time PostgreSQL logged for the farm's statements
#     (parse, bind, execute; log_min_duration_statement = 0), which a busy
#     machine stretches;
#   - wall ms, proving / clients side: the time the daemons waited for
#     their statements (snarkpipe_farm_db_seconds_total, side=worker:
#     claims, proofs, leases, polls, assembly; side=http: submits and
#     awaits), which adds the scheduling delays of a busy machine;
#   - statements per partition, both sides. Prints a table; SP_KEEP=1
# keeps the temporary directory (logs, TIMELINEs).
set -u
build=${1:-build}
logn=${2:-12}
jobs=${3:-40}
parts=${4:-2}
bin=$build/snarkpipe
tool=$build/tests/tool_witnesses
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$bin" ] && [ -x "$tool" ] || { echo "farm.sh: build first (make $build/snarkpipe tests)"; exit 1; }
"$bin" daemon --help 2>&1 | grep -q "farm.queue, --queue): built in" || { echo "farm.sh: $bin lacks the farm (libpq)"; exit 1; }
# shellcheck source=tests/pg.sh
. "$here/../tests/pg.sh"
pg_find || { echo "farm.sh: no PostgreSQL server (apt-get install postgresql)"; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/sp_bench_farm.XXXXXX")
dp=()
cleanup() { for p in "${dp[@]}"; do kill -9 "$p" 2>/dev/null; done; pg_destroy; [ -n "${SP_KEEP:-}" ] || rm -rf "$T"; }
trap cleanup EXIT
pg_create "$(mktemp -d "${TMPDIR:-/tmp}/sp_bench_farm_pg.XXXXXX")" || exit 1

"$bin" --quiet gen-circuit --constraints $((1 << logn)) --public 2 --seed 11 "$T/c.r1cs" "$T/c.wtns" &&
    "$bin" --quiet setup "$T/c.r1cs" "$T/c.zkey" >/dev/null 2>&1 &&
    "$tool" "$T/c.r1cs" 16 "$T/w" >/dev/null || { echo "farm.sh: cannot make the circuit"; exit 1; }

start() { # start I QUEUE: daemon I (QUEUE empty: alone)
    local i=$1
    {
        printf '[engine]\nsynth_threads = 1\nbackend_threads = 1\nfinish_threads = 1\nmax_parallel_synthesis = 1\n'
        printf 'gpu_workers_per_device = 1\nbudget = 1GiB\n'
        printf '[server]\nlisten = unix:%s/d%s.sock\nready_file = %s/ready%s\nmax_wait = 10m\n' "$T" "$i" "$T" "$i"
        printf '[keys]\nload_threads = 1\nskip_subgroup_check = yes\n[circuit.c]\nzkey = %s\n' "$T/c.zkey"
        [ -n "$2" ] && printf '[farm]\nqueue = %s\nnode_id = n%s\n' "$2" "$i"
    } >"$T/d$i.conf"
    rm -f "$T/ready$i"
    "$bin" daemon --config "$T/d$i.conf" 2>>"$T/d$i.log" &
    dp+=($!)
    for _ in $(seq 600); do [ -s "$T/ready$i" ] && return 0; sleep 0.1; done
    echo "farm.sh: daemon $i did not start"; tail "$T/d$i.log"; exit 1
}
cl() { local i=$1; shift; "$bin" client --addr "unix:$T/d$i.sock" "$@"; }
# the sum over daemons 1..n of a metric
metric() { local s=0 i v; for i in $(seq "$2"); do v=$(cl "$i" metrics | awk -v m="$1" '$1 == m {print $2}'); s=$(awk -v a="$s" -v b="${v:-0}" 'BEGIN{print a + b}'); done; echo "$s"; }
batch() { # batch N: JOBS jobs from 4 clients over daemons 1..N; prints the seconds
    local n=$1 t0 t1 cp=() bad=0
    t0=$(date +%s.%N)
    for c in 0 1 2 3; do
        (
            for j in $(seq "$c" 4 $((jobs - 1))); do
                d=$((1 + j % n)) ws=()
                for k in $(seq 0 $((parts - 1))); do ws+=("$T/w$(((j * parts + k) % 16)).wtns"); done
                id=$(cl "$d" submit --circuit c "${ws[@]}") || exit 1
                echo "$d $id"
            done >"$T/ids$c"
            while read -r d id; do cl "$d" await --wait-ms 600000 "$id" >/dev/null || exit 1; done <"$T/ids$c"
        ) >/dev/null 2>&1 &
        cp+=($!)
    done
    for p in "${cp[@]}"; do wait "$p" || bad=1; done
    t1=$(date +%s.%N)
    [ "$bad" = 0 ] || { echo "farm.sh: a job failed" >&2; exit 1; }
    awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.2f", b - a}'
}
sub() { awk -v a="$1" -v b="$2" 'BEGIN{print b - a}'; }

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; 2^$logn constraints, $jobs jobs of $parts partitions"
printf '| daemons | queue | partitions | wall s | partitions/s | DB server CPU ms / partition | DB server ms / partition | DB wall ms / partition, proving side | DB wall ms / partition, clients side | statements / partition (proving + clients) |\n'
printf '|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|\n'
pg_sql "ALTER SYSTEM SET log_min_duration_statement = 0" >/dev/null && pg_sql "SELECT pg_reload_conf()" >/dev/null
# the milliseconds PostgreSQL logged from byte offset $1 of its log on
server_ms() { tail -c +"$(($1 + 1))" "$PG_DIR/server.log" | awk '/duration: [0-9.]+ ms/ { for (i = 1; i < NF; i++) if ($i == "duration:") s += $(i + 1) } END { printf "%.3f", s }'; }
log_size() { stat -c %s "$PG_DIR/server.log"; }
# CPU seconds (user + system) of the cluster's processes so far: the postmaster and its children
pg_cpu() {
    local pm t=0 p
    pm=$(head -1 "$PG_DIR/data/postmaster.pid")
    for p in $pm $(ps -o pid= --ppid "$pm"); do
        t=$(awk -v t="$t" '{ sub(/^.*\) /, ""); print t + $12 + $13 }' "/proc/$p/stat" 2>/dev/null || echo "$t")
    done
    awk -v t="$t" -v hz="$(getconf CLK_TCK)" 'BEGIN{ printf "%.3f", t / hz }'
}
W='snarkpipe_farm_db_seconds_total{side="worker"}' H='snarkpipe_farm_db_seconds_total{side="http"}'
SW='snarkpipe_farm_db_statements_total{side="worker"}' SH='snarkpipe_farm_db_statements_total{side="http"}'
for n in 0 1 2 3; do
    m=$((n ? n : 1)) q=
    [ "$n" -gt 0 ] && q=$PG_URL
    for i in $(seq "$m"); do start "$i" "$q"; done
    cl 1 submit --circuit c "$T/w0.wtns" >"$T/warm" && cl 1 await "$(cat "$T/warm")" >/dev/null || exit 1
    w0=$(metric "$W" "$m") h0=$(metric "$H" "$m") sw0=$(metric "$SW" "$m") sh0=$(metric "$SH" "$m") l0=$(log_size)
    c0=$(pg_cpu)
    secs=$(batch "$m") || exit 1
    c1=$(pg_cpu)
    w1=$(metric "$W" "$m") h1=$(metric "$H" "$m") sw1=$(metric "$SW" "$m") sh1=$(metric "$SH" "$m")
    np=$((jobs * parts))
    awk -v n="$m" -v q="$q" -v p="$np" -v s="$secs" -v w="$(sub "$w0" "$w1")" -v h="$(sub "$h0" "$h1")" \
        -v sw="$(sub "$sw0" "$sw1")" -v sh="$(sub "$sh0" "$sh1")" -v sv="$(server_ms "$l0")" -v cpu="$(sub "$c0" "$c1")" \
        'BEGIN{ if (q) printf "| %d | postgresql | %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.1f + %.1f |\n", n, p, s,
                   p / s, 1000 * cpu / p, sv / p, 1000 * w / p, 1000 * h / p, sw / p, sh / p;
                else printf "| 1 | none (one daemon alone) | %d | %.2f | %.2f | - | - | - | - | - |\n", p, s, p / s }'
    for p in "${dp[@]}"; do kill -TERM "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
    dp=()
    [ "$n" -gt 0 ] && pg_sql "SET client_min_messages = warning; TRUNCATE sp_jobs, sp_attempts CASCADE" >/dev/null
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
