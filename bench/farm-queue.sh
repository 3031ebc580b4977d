#!/usr/bin/env bash
# The farm's queue at scale: one daemon (CPU backend, a tiny circuit, so
# that the engine is fast and the queue's own cost shows) drains a queue
# filled with 10^4, 10^5 and 10^6 partitions (jobs of 10 partitions,
# inserted by generate_series from a template the daemon itself
# submitted, not through HTTP), on a throwaway PostgreSQL cluster
# (tests/pg.sh). For each size, one row:
#   - claim p50 / p99 ms: the server time of the daemon's own claim
#     statements during the drain (parse, when there is one, + bind +
#     execute as PostgreSQL logged them, log_min_duration_statement = 0;
#     the daemon prepares its claim once per connection), and their count;
#   - drain partitions/s: proofs stored per second over the window
#     (SECONDS long, started once the first claims came);
#   - plan: the claim's plan (EXPLAIN of the statement the daemon logged,
#     with its parameters, in a transaction rolled back): the index it
#     reads and whether it sorts sp_parts rows (it must not);
#   - isolated claim p50 / p99 ms: the same statement's execution time
#     (EXPLAIN ANALYZE, each in a transaction rolled back, 30 runs in one
#     session after a first one left out, the daemon paused);
#   - schema-1 claim p50 / p99 ms: for comparison, the claim statement of
#     schema version 1 (before the partial index in claim order), with its
#     index, timed the same way on the same rows (10 runs).
# The server times are those of a machine's scheduler too: on a loaded
# machine the p99 columns measure the load as much as the statement.
#
#   bench/farm-queue.sh [BUILD [SIZES [SECONDS]]]
#   defaults: build, "10000 100000 1000000", 20
# SP_KEEP=1 keeps the temporary directory (the server log).
set -u
build=${1:-build}
sizes=${2:-10000 100000 1000000}
secs=${3:-20}
bin=$build/snarkpipe
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$bin" ] && [ -x "$build/snarkpipe-daemon" ] || { echo "farm-queue.sh: build first (make $bin $build/snarkpipe-daemon)"; exit 1; }
"$bin" daemon --help 2>&1 | grep -q "farm.queue, --queue): built in" || { echo "farm-queue.sh: $bin lacks the farm (libpq)"; exit 1; }
# shellcheck source=tests/pg.sh
. "$here/../tests/pg.sh"
pg_find || { echo "farm-queue.sh: no PostgreSQL server (apt-get install postgresql)"; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/sp_bench_fq.XXXXXX")
dp=
cleanup() { [ -n "$dp" ] && kill -9 "$dp" 2>/dev/null; pg_destroy; [ -n "${SP_KEEP:-}" ] || rm -rf "$T"; }
trap cleanup EXIT
pg_create "$(mktemp -d "${TMPDIR:-/tmp}/sp_bench_fq_pg.XXXXXX")" || exit 1
pg_sql "ALTER SYSTEM SET log_min_duration_statement = 0" >/dev/null
pg_sql "ALTER SYSTEM SET autovacuum_naptime = '5s'" >/dev/null
pg_sql "SELECT pg_reload_conf()" >/dev/null

"$bin" --quiet gen-circuit --constraints 8 --public 1 --seed 5 "$T/c.r1cs" "$T/c.wtns" &&
    "$bin" --quiet setup "$T/c.r1cs" "$T/c.zkey" >/dev/null 2>&1 || { echo "farm-queue.sh: cannot make the circuit"; exit 1; }
{
    printf '[engine]\nsynth_threads = 1\nbackend_threads = 1\nfinish_threads = 1\nbudget = 1GiB\n'
    printf '[server]\nlisten = unix:%s/d.sock\nready_file = %s/ready\nlog_level = warn\n' "$T" "$T"
    printf '[keys]\nload_threads = 1\n[circuit.c]\nzkey = %s\n' "$T/c.zkey"
    printf '[farm]\nqueue = %s\nnode_id = bench\npoll = 1s\nmax_claims = 8\n' "$PG_URL"
} >"$T/d.conf"
"$bin" daemon --config "$T/d.conf" 2>>"$T/d.log" &
dp=$!
for _ in $(seq 600); do [ -s "$T/ready" ] && break; sleep 0.1; done
[ -s "$T/ready" ] || { echo "farm-queue.sh: the daemon did not start"; tail "$T/d.log"; exit 1; }
cl() { "$bin" client --addr "unix:$T/d.sock" "$@"; }
mkdir -p "$T/tpl"; cl prove --circuit c --request-id template --out-dir "$T/tpl" "$T/c.wtns" >/dev/null || { echo "farm-queue.sh: the template job failed"; exit 1; }
pg_sql "CREATE TABLE bench_tpl AS SELECT j.circuit_digest AS digest, j.n_public, p.input, p.expect_pub
        FROM sp_jobs j JOIN sp_parts p ON p.job_id = j.id WHERE j.request_id = 'template'" >/dev/null

# the claim statement of schema version 1, with its index (for comparison only)
V1_INDEX="CREATE INDEX bench_v1 ON sp_parts (circuit_digest, priority DESC, job_id, idx) WHERE state IN ('queued', 'claimed')"
v1_claim() { # v1_claim DIGEST
    echo "WITH c AS (SELECT p.job_id, p.idx FROM sp_parts p WHERE p.circuit_digest = ANY('{$1}'::text[]) AND p.attempts < 5
  AND (p.state = 'queued' OR (p.state = 'claimed' AND (p.lease_until IS NULL OR p.lease_until < now() OR NOT EXISTS
  (SELECT 1 FROM sp_nodes n WHERE n.instance = p.claimed_by AND n.last_seen > now() - 30000::bigint * interval '1 millisecond'))))
  ORDER BY p.priority DESC, p.job_id, p.idx LIMIT 8 FOR UPDATE OF p SKIP LOCKED)
 UPDATE sp_parts p SET state = 'claimed', claimed_by = 'bench/x', epoch = p.epoch + 1, attempts = p.attempts + 1,
  lease_until = now() + 30000::bigint * interval '1 millisecond', first_claim = COALESCE(p.first_claim, now())
 FROM c WHERE p.job_id = c.job_id AND p.idx = c.idx RETURNING p.job_id, p.idx, p.epoch, p.attempts, p.circuit_digest, p.input, p.expect_pub"
}
# p50 and p99 of the numbers on stdin
pct() { sort -g | awk '{ v[NR] = $1 } END { if (!NR) { print "- -"; exit } i = int(NR * 0.5 + 0.5); j = int(NR * 0.99 + 0.5);
                                              if (i < 1) i = 1; if (j < 1) j = 1; printf "%.2f %.2f", v[i], v[j] }'; }
# the claim statements' server ms (parse + bind + execute) logged from byte offset $1 on
claim_ms() {
    tail -c +"$(($1 + 1))" "$PG_DIR/server.log" | awk '
        /duration: [0-9.]+ ms +(parse|bind|execute) [^ ]+: WITH d AS \(SELECT \* FROM unnest/ {
            for (i = 1; i < NF; i++) if ($i == "duration:") ms = $(i + 1)
            acc += ms
            if ($0 ~ / execute [^ ]+: WITH/) { print acc; acc = 0 } }'
}
# the last claim statement the daemon ran, and its parameters, as a PREPARE and an EXECUTE
last_claim() {
    awk '/execute [^ ]+: WITH d AS \(SELECT \* FROM unnest/ { sub(/^.*execute [^ ]+: WITH/, "WITH"); s = $0; want = 1; next }
         want && /DETAIL: +parameters:/ { sub(/^.*parameters: /, ""); p = $0; want = 0 }
         END { gsub(/\$[0-9]+ = /, "", p); print "PREPARE bench_claim AS " s ";"; print "EXECUTE bench_claim(" p ");" }' "$PG_DIR/server.log"
}
done_count() { cl metrics | awk '$1 == "snarkpipe_farm_proofs_stored_total" { print $2 }'; }

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $NF}'); drain window ${secs} s"
printf '| queued partitions | fill s | claim p50 ms | claim p99 ms | claims timed | drain partitions/s | plan of the claim | isolated claim p50 ms | isolated claim p99 ms | schema-1 claim p50 ms | schema-1 claim p99 ms |\n'
printf '|--:|--:|--:|--:|--:|--:|---|--:|--:|--:|--:|\n'
for n in $sizes; do
    cl pause >/dev/null
    for _ in $(seq 100); do [ "$(pg_sql "SELECT count(*) FROM sp_parts WHERE state = 'claimed'")" = 0 ] && break; sleep 0.2; done
    pg_sql "SET client_min_messages = warning; TRUNCATE sp_jobs, sp_attempts CASCADE" >/dev/null
    f0=$(date +%s.%N)
    pg_sql "WITH j AS (INSERT INTO sp_jobs (circuit_digest, circuit_name, native, n_public, priority, n_parts, n_left, submitted_by, client)
              SELECT t.digest, 'c', false, t.n_public, 0, 10, 10, 'bench', 'bench' FROM bench_tpl t, generate_series(1, $((n / 10)))
              RETURNING id)
            INSERT INTO sp_parts (job_id, idx, circuit_digest, priority, input, expect_pub)
              SELECT j.id, k, t.digest, 0, t.input, t.expect_pub FROM j, bench_tpl t, generate_series(0, 9) k" >/dev/null
    pg_sql "VACUUM ANALYZE sp_parts" >/dev/null && pg_sql "VACUUM ANALYZE sp_jobs" >/dev/null
    f1=$(date +%s.%N)
    off=$(stat -c %s "$PG_DIR/server.log")
    cl resume >/dev/null
    s0=$(done_count)
    for _ in $(seq 300); do [ "$(done_count)" -gt "$s0" ] && break; sleep 0.1; done
    d0=$(done_count) t0=$(date +%s.%N)
    sleep "$secs"
    d1=$(done_count) t1=$(date +%s.%N)
    cl pause >/dev/null
    read -r p50 p99 <<<"$(claim_ms "$off" | pct)"
    nclaims=$(claim_ms "$off" | wc -l)
    last_claim | sed 's/EXECUTE bench_claim(/EXPLAIN EXECUTE bench_claim(/' >"$T/explain.sql"
    plan=$({ echo "BEGIN;"; cat "$T/explain.sql"; echo "ROLLBACK;"; } | pg_as "$PG_BIN/psql" -h "$PG_DIR" -U sp -d farm -qAt -v ON_ERROR_STOP=1 2>&1)
    echo "$plan" >"$T/plan_$n.txt"
    idx=$(echo "$plan" | grep -o "Index Scan using sp_parts_queue on sp_parts" | head -1 | awk '{print $4}')
    # a Sort whose subtree reads sp_parts would sort the queue; the one over the candidates reads the CTE only
    sorts=$(echo "$plan" | awk '/Sort  \(/ { d = index($0, "->"); s = 1; next } s && /->/ { if (index($0, "->") <= d) s = 0 }
                                s && /(Scan|Scan using [a-z_0-9]*) on sp_parts/ { bad = 1 } END { print bad ? "SORTS sp_parts" : "no sort of sp_parts" }')
    seq=$(echo "$plan" | grep -q "Seq Scan on sp_parts" && echo ", SEQ SCAN of sp_parts")
    # one session, its first run (cold caches) left out
    { grep '^PREPARE' "$T/explain.sql"
      for _ in $(seq 31); do echo "BEGIN;"; sed -n 's/^EXPLAIN EXECUTE/EXPLAIN (ANALYZE) EXECUTE/p' "$T/explain.sql"; echo "ROLLBACK;"; done; } |
        pg_as "$PG_BIN/psql" -h "$PG_DIR" -U sp -d farm -qAt | awk '/Execution Time:/ && n++ { print $3 }' >"$T/iso_$n.txt"
    read -r i50 i99 <<<"$(pct <"$T/iso_$n.txt")"
    # schema 1's claim, for comparison: 10 runs rolled back
    dig=$(pg_sql "SELECT digest FROM bench_tpl")
    pg_sql "$V1_INDEX" >/dev/null
    for _ in $(seq 11); do echo "BEGIN;"; echo "EXPLAIN (ANALYZE) $(v1_claim "$dig");"; echo "ROLLBACK;"; done |
        pg_as "$PG_BIN/psql" -h "$PG_DIR" -U sp -d farm -qAt | awk '/Execution Time:/ && n++ { print $3 }' >"$T/v1_$n.txt"
    pg_sql "DROP INDEX bench_v1" >/dev/null
    read -r v50 v99 <<<"$(pct <"$T/v1_$n.txt")"
    awk -v n="$n" -v f="$(awk -v a="$f0" -v b="$f1" 'BEGIN{print b - a}')" -v p50="$p50" -v p99="$p99" -v c="$nclaims" \
        -v r="$(awk -v a="$d0" -v b="$d1" -v s="$t0" -v e="$t1" 'BEGIN{printf "%.1f", (b - a) / (e - s)}')" \
        -v plan="Index Scan using ${idx:-NONE}, $sorts$seq" -v v50="$v50" -v v99="$v99" -v i50="$i50" -v i99="$i99" \
        'BEGIN { printf "| %d | %.1f | %s | %s | %d | %s | %s | %s | %s | %s | %s |\n", n, f, p50, p99, c, r, plan, i50, i99, v50, v99 }'
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
