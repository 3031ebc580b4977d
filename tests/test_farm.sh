#!/usr/bin/env bash
# A proving farm: three daemons on this machine share one
# PostgreSQL queue (a throwaway cluster, tests/pg.sh), CPU backends, small
# generated circuits. Each daemon names the circuits its own way (one has
# the key under another path); they match by content digest. n3 lacks B.
#   a. 200 jobs (1 to 3 partitions, every partition its own witness) from 4
#      clients, submitted to any daemon; meanwhile n2 is frozen while it
#      holds claims, kill -9'd and restarted, and n3 is stopped for good
#      (SIGTERM, drain). Every job completes; every proof is in its place
#      (its public inputs are its witness's), verified by the daemons and
#      here (a sample with `snarkpipe verify`); the database holds exactly
#      one proof per partition; n3 never proves B.
#   b. cancel across nodes: a job submitted to n1 and running is cancelled
#      through n2; no proof of it is stored afterwards, nothing stays claimed.
#      A cancel that PostgreSQL rolls back to break a deadlock with a store
#      is run again and answers.
#   c. a database restart in the middle of a batch: the daemons reconnect,
#      a submit during the outage is 503, every job completes.
#   d. fencing: n1 frozen (SIGSTOP) past its lease while it holds claims
#      (n2 frozen meanwhile, so the claims go to n1); n2 thawed takes them over; n1 thawed finds them lost or its proofs fenced;
#      every partition still has exactly one proof.
#   e. bad and hostile rows: stored proofs that do not verify (a corrupted
#      one, one for other public inputs) are proved again; a partition held
#      by an unknown node is taken over; a partition whose input is not a
#      witness fails its job at once; an unsatisfied witness fails after
#      farm.max_attempts claims, and so does one whose claims were all lost.
#   g. a node takes a job for a circuit only another node has, named by the
#      digest that node recorded;
#   h. leases tied to progress, with a fourth node n4 whose prover hangs
#      (SP_FARM_TEST_WEDGE): its claim is given up as stalled after
#      farm.progress_timeout and proved by n2 within 2 of n4's leases; with
#      farm.max_run, given up as run_limit; the attempts table (in the job's
#      JSON) says who tried what and how it ended;
#   i. per-client limits (farm.max_queued_per_client: 429 past it) and
#      deadlines (farm.job_deadline: a job nobody takes fails, saying why);
#   j. memory-aware claiming: n4 with farm.memory of 2.5 partitions never
#      holds 3 at once (from the attempts' times), and finishes the job;
#   k. retention: a node asking for a short result_ttl deletes no job
#      another live node asks to keep; a job deleted takes its attempts;
#   l. a schema-1 database (made with SP_QUEUE_SCHEMA_STOP=1) holding a
#      queued and a claimed partition is migrated by a starting node and
#      its job completes;
#   f. clean stops: the daemons leave the farm (no node rows, no claims).
# Skipped (exit 77) when the daemon or the farm is not built, or PostgreSQL
# is not installed. Usage: tests/test_farm.sh BUILD. SP_TEST_VERBOSE=1
# lists every check; SP_KEEP=1 keeps the temporary directories.
set -u
build=${1:-build}
bin=$build/snarkpipe
tool=$build/tests/tool_witnesses
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$bin" ] && [ -x "$tool" ] || { echo "test_farm.sh: $bin or $tool not found (build first)"; exit 1; }
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
# shellcheck source=tests/pg.sh
. "$here/pg.sh"
pg_test test_farm.sh
ok() { pass=$((pass + 1)); [ -z "${SP_TEST_VERBOSE:-}" ] || echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; } # check NAME CONDITION

# ---- circuits, keys, witnesses and their public inputs ----
mk() { # mk NAME CONSTRAINTS PUBLIC SEED WITNESSES
    "$bin" --quiet gen-circuit --constraints "$2" --public "$3" --seed "$4" "$T/$1.r1cs" "$T/$1.wtns" &&
        "$bin" --quiet setup "$T/$1.r1cs" "$T/$1.zkey" >/dev/null 2>&1 &&
        "$bin" --quiet export-vkey "$T/$1.zkey" "$T/$1.vk.json" &&
        "$tool" "$T/$1.r1cs" "$5" "$T/w$1_" >/dev/null || { echo "cannot make circuit $1"; exit 1; }
}
mk A 64 2 7 24
mk B 48 1 8 12
mk C 2048 1 9 1
mkdir -p "$T/other" && cp "$T/A.zkey" "$T/other/copy-of-A.zkey"
# the public inputs each witness must come back with (public.json as snarkjs writes it)
for w in "$T"/wA_*.wtns "$T"/wB_*.wtns; do
    b=$(basename "$w" .wtns) c=${b:1:1}
    "$bin" --quiet prove "$T/$c.zkey" "$w" "$T/$b.proof.json" "$T/$b.pub.json" >/dev/null 2>&1 || { echo "prove $b failed"; exit 1; }
done

# ---- three daemons ----
conf() { # conf I: the configuration of daemon nI
    local i=$1
    cat <<EOF
[engine]
synth_threads = 1
backend_threads = 1
finish_threads = 1
max_parallel_synthesis = 1
gpu_workers_per_device = 1
budget = 384MiB
[server]
listen = unix:$T/d$i.sock
ready_file = $T/ready$i
result_ttl = 30m
[keys]
load_threads = 1
[farm]
queue = $PG_URL
node_id = n$i
lease = 2s
poll = 500ms
max_attempts = 4
EOF
    case $i in
        1) printf '[circuit.alpha]\nzkey = %s\nr1cs = %s\n[circuit.beta]\nzkey = %s\nr1cs = %s\n[circuit.gamma]\nzkey = %s\n' \
               "$T/A.zkey" "$T/A.r1cs" "$T/B.zkey" "$T/B.r1cs" "$T/C.zkey" ;;
        2) printf '[circuit.a2]\nzkey = %s\nr1cs = %s\n[circuit.b2]\nzkey = %s\n[circuit.c2]\nzkey = %s\n' \
               "$T/other/copy-of-A.zkey" "$T/A.r1cs" "$T/B.zkey" "$T/C.zkey" ;;
        3) printf '[circuit.a3]\nzkey = %s\nr1cs = %s\n' "$T/A.zkey" "$T/A.r1cs" ;;
    esac
}
declare -A dpid name
name[1A]=alpha name[1B]=beta name[1C]=gamma name[2A]=a2 name[2B]=b2 name[2C]=c2 name[3A]=a3
start() { # start I LOG: starts nI, waits until it serves
    local i=$1
    conf "$i" >"$T/d$i.conf"
    rm -f "$T/ready$i"
    "$bin" daemon --config "$T/d$i.conf" 2>>"$T/$2.log" &
    dpid[$i]=$!
    pids+=($!)
    for _ in $(seq 300); do [ -s "$T/ready$i" ] && return 0; kill -0 "${dpid[$i]}" 2>/dev/null || break; sleep 0.1; done
    echo "daemon n$i did not start:"; tail -20 "$T/$2.log"; exit 1
}
cl() { local i=$1; shift; "$bin" client --addr "unix:$T/d$i.sock" --timeout-ms 60000 "$@"; }
start 1 n1
start 2 n2
start 3 n3
check "the farm's schema is made (version 3)" '[ "$(pg_sql "SELECT value FROM sp_meta WHERE key = '"'"'schema_version'"'"'")" = 3 ]'
check "three nodes in the farm" '[ "$(pg_sql "SELECT count(*) FROM sp_nodes")" = 3 ]'
expect 0 "status names the farm node" cl 1 status
expect_out '"farm":\{"node":"n1"' "status: farm member"
cl 1 status >"$T/s1.json"; cl 2 status >"$T/s2.json"
check "A has one digest on n1 (alpha) and n2 (a2, another path)" \
    '[ "$(grep -o "\"id\":\"alpha\",\"digest\":\"[0-9a-f]*\"" "$T/s1.json" | cut -d\" -f8)" = "$(grep -o "\"id\":\"a2\",\"digest\":\"[0-9a-f]*\"" "$T/s2.json" | cut -d\" -f8)" ]'

# ---- a. 200 jobs from 4 clients, while nodes die and leave ----
# job g: circuit A (B every 4th), 1 + g % 3 partitions, witnesses (3g + k) mod count
job_desc() { # job_desc G -> "CIRCUIT N W0 W1 W2"
    local g=$1 c=A n=$((1 + $1 % 3)) cnt=24
    [ $((g % 4)) -eq 3 ] && c=B cnt=12
    echo "$c $n $(((3 * g) % cnt)) $(((3 * g + 1) % cnt)) $(((3 * g + 2) % cnt))"
}
submit_job() { # submit_job G: to node 1 + g % 3, else any live node; by request id rG
    local g=$1 d c n w0 w1 w2
    read -r c n w0 w1 w2 <<<"$(job_desc "$g")"
    local ws=("$T/w${c}_$w0.wtns" "$T/w${c}_$w1.wtns" "$T/w${c}_$w2.wtns")
    for try in $(seq 40); do
        for d in $((1 + g % 3)) 1 2 3; do
            [ -n "${name[$d$c]:-}" ] || continue
            out=$(cl "$d" submit --circuit "${name[$d$c]}" --request-id "r$g" "${ws[@]:0:$n}" 2>&1) && return 0
            case $out in *"HTTP 409"*) return 0 ;; esac # an earlier try got through
        done
        sleep 0.25
    done
    echo "submit r$g failed: $out"; return 1
}
await_job() { # await_job G: the result into $T/res/G, from any live node
    local g=$1 d
    mkdir -p "$T/res/$g"
    for try in $(seq 20); do
        for d in 1 2 3; do
            cl "$d" await --wait-ms 60000 --out-dir "$T/res/$g" "r$g" >"$T/res/$g.log" 2>&1 && return 0
            grep -q "HTTP\|failed\|cancelled" "$T/res/$g.log" && ! grep -q "HTTP 503" "$T/res/$g.log" && return 1
        done
        sleep 0.25
    done
    return 1
}
client() { # client C: jobs 50C .. 50C+49, submitted, then awaited
    local c=$1 g bad=0
    for g in $(seq $((50 * c)) $((50 * c + 49))); do submit_job "$g" || bad=$((bad + 1)); done
    for g in $(seq $((50 * c)) $((50 * c + 49))); do await_job "$g" || { bad=$((bad + 1)); echo "await r$g: $(cat "$T/res/$g.log")"; }; done
    return "$bad"
}
t0=$(date +%s.%N)
cpids=()
for c in 0 1 2 3; do client "$c" >"$T/client$c.log" 2>&1 & cpids+=($!); done

# freeze_holding I COND TRIES PAUSE: stops nI at a moment it holds claims
# (partitions claimed by it that meet the SQL condition COND), trying TRIES
# times PAUSE s apart; held = their count then (0: never caught, nI runs on),
# holding = "job index epoch" of each, read in the same statement
freeze_holding() {
    held=0
    for _ in $(seq "$3"); do
        kill -STOP "${dpid[$1]}"
        holding=$(pg_sql "SELECT job_id || ' ' || idx || ' ' || epoch FROM sp_parts WHERE state = 'claimed' AND claimed_by LIKE 'n$1/%' AND $2")
        held=$(grep -c . <<<"$holding")
        [ "$held" -gt 0 ] && return
        kill -CONT "${dpid[$1]}"
        sleep "$4"
    done
}

# n2 frozen while it holds claims (so they are held for sure), then kill -9 and a restart
freeze_holding 2 true 200 0.05
check "n2 held claims when it was killed ($held)" '[ "$held" -gt 0 ]'
orphans=$holding
kill -9 "${dpid[2]}"; wait "${dpid[2]}" 2>/dev/null
start 2 n2b # its start hands back what the killed run held, unless the lease ran out first and others took it
# n3 leaves for good once it has proved something
for _ in $(seq 200); do [ "$(pg_sql "SELECT count(*) FROM sp_parts WHERE proved_by LIKE 'n3/%'")" -gt 0 ] && break; sleep 0.1; done
kill -TERM "${dpid[3]}"; wait "${dpid[3]}"; rc3=$?
check "n3 stops for good with SIGTERM (exit 0)" '[ "$rc3" = 0 ]'
check "n3 left the farm (no node row, no claim)" \
    '[ "$(pg_sql "SELECT count(*) FROM sp_nodes WHERE name = '"'"'n3'"'"'") $(pg_sql "SELECT count(*) FROM sp_parts WHERE state = '"'"'claimed'"'"' AND claimed_by LIKE '"'"'n3/%'"'"'")" = "0 0" ]'
unset 'name[3A]'

cfail=0
for p in "${cpids[@]}"; do wait "$p" || cfail=$((cfail + 1)); done
t1=$(date +%s.%N)
check "4 clients: every job submitted and completed" '[ "$cfail" = 0 ]'
[ "$cfail" = 0 ] || cat "$T"/client*.log | head -20
# every partition in its place: its public inputs are its witness's; a sample verified here too
misplaced=0 unverified=0 nparts=0 n3B=0
for g in $(seq 0 199); do
    read -r c n w0 w1 w2 <<<"$(job_desc "$g")"
    ws=("$w0" "$w1" "$w2")
    for k in $(seq 0 $((n - 1))); do
        nparts=$((nparts + 1))
        cmp -s "$T/res/$g/public_$k.json" "$T/w${c}_${ws[$k]}.pub.json" || misplaced=$((misplaced + 1))
        if [ $((g % 5)) -eq 0 ]; then
            "$bin" verify "$T/$c.vk.json" "$T/w${c}_${ws[$k]}.pub.json" "$T/res/$g/proof_$k.json" >/dev/null 2>&1 ||
                unverified=$((unverified + 1))
        fi
    done
done
check "every proof of the 200 jobs answers its own witness ($nparts partitions)" '[ "$misplaced" = 0 ]'
check "the sample verifies with snarkpipe verify" '[ "$unverified" = 0 ]'
q200="SELECT id FROM sp_jobs WHERE request_id LIKE 'r%'"
check "the database: 200 jobs completed" '[ "$(pg_sql "SELECT count(*) FROM sp_jobs WHERE request_id LIKE '"'"'r%'"'"' AND state = '"'"'completed'"'"'")" = 200 ]'
check "the database: exactly one proof per partition ($nparts), none lost" \
    '[ "$(pg_sql "SELECT count(*) FILTER (WHERE state = '"'"'done'"'"' AND proof IS NOT NULL), count(*) FROM sp_parts WHERE job_id IN ($q200)")" = "$nparts|$nparts" ]'
n3B=$(pg_sql "SELECT count(*) FROM sp_parts p JOIN sp_jobs j ON j.id = p.job_id WHERE j.request_id LIKE 'r%'
               AND j.circuit_digest = (SELECT circuit_digest FROM sp_jobs WHERE request_id = 'r3') AND p.proved_by LIKE 'n3/%'")
check "n3 (which lacks B) proved no partition of B" '[ "$n3B" = 0 ]'
retaken=0
while read -r j k e; do
    [ "$(pg_sql "SELECT state = 'done' AND epoch > $e FROM sp_parts WHERE job_id = $j AND idx = $k")" = t ] && retaken=$((retaken + 1))
done <<<"$orphans"
check "what the killed n2 held was claimed again and proved ($retaken of $held)" '[ "$retaken" = "$held" ]'
"$bin" --json client --addr "unix:$T/d1.sock" await r5 >"$T/r5.json" 2>&1
check "a result names the node of each proof" 'grep -Eq "\"partition\":2,.*\"node\":\"n[123]\"" "$T/r5.json"'
nodes=$(pg_sql "SELECT string_agg(DISTINCT split_part(proved_by, '/', 1), ',' ORDER BY split_part(proved_by, '/', 1)) FROM sp_parts WHERE job_id IN ($q200)")
check "all three nodes proved partitions ($nodes)" '[ "$nodes" = "n1,n2,n3" ]'
echo "test_farm.sh: 200 jobs, $nparts partitions in $(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f", b-a}') s"

# ---- b. cancel across nodes ----
# 32 partitions: enough that the job is still running when the cancel comes
# on a slow machine
w32=(); for _ in $(seq 32); do w32+=("$T/C.wtns"); done
expect 0 "submit a long job to n1" cl 1 submit --circuit gamma --request-id long "${w32[@]}"
lid=$(cat "$T/out")
for _ in $(seq 200); do [ "$(pg_sql "SELECT count(*) FROM sp_parts WHERE job_id = ${lid#f} AND state = 'claimed'")" -gt 0 ] && break; sleep 0.05; done
expect 0 "cancel it through n2" cl 2 cancel "$lid"
expect_out '"cancelled":true,"was_running":true' "cancelled while running"
done_at_cancel=$(pg_sql "SELECT count(*) FROM sp_parts WHERE job_id = ${lid#f} AND state = 'done'")
expect 2 "await it on n1" cl 1 await "$lid"
expect_out "cancelled" "n1 answers cancelled"
sleep 2
check "no partition of it stays claimed; none proved after the cancel" \
    '[ "$(pg_sql "SELECT count(*) FILTER (WHERE state = '"'"'claimed'"'"'), count(*) FILTER (WHERE state = '"'"'done'"'"') FROM sp_parts WHERE job_id = ${lid#f}")" = "0|$done_at_cancel" ]'
# a claim is dropped at the holder's next heartbeat, or, when its proof is
# done first, at the store that finds the claim gone
check "a node dropped its claim of it" \
    'grep -Eq "f${lid#f} partition [0-9]* is no longer this node|proof of f${lid#f} partition [0-9]* came too late" "$T"/n*.log'
# A cancel that meets a stored proof's locks: psql plays the store (it locks
# one of the job's partitions, waits until the cancel, holding the job's row,
# waits for that partition, then updates the job's row). PostgreSQL breaks
# the deadlock by rolling back the cancel (its wait began first; psql's
# deadlock_timeout is long); the daemon runs the cancel again and answers.
expect 0 "submit a second long job to n1" cl 1 submit --circuit gamma --request-id long2 "${w32[@]}"
did=$(cat "$T/out")
pg_as "$PG_BIN/psql" -h "$PG_DIR" -U sp -d farm -qAt -v ON_ERROR_STOP=1 >"$T/lockplay.out" 2>"$T/lockplay.err" <<SQL &
SET deadlock_timeout = '60s';
BEGIN;
SELECT count(*) FROM (SELECT 1 FROM sp_parts WHERE job_id = ${did#f} AND state IN ('queued', 'claimed')
  ORDER BY idx DESC LIMIT 1 FOR UPDATE) l;
DO \$\$ BEGIN
  FOR i IN 1..1200 LOOP
    PERFORM pg_stat_clear_snapshot();
    EXIT WHEN EXISTS (SELECT 1 FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND wait_event_type = 'Lock'
                      AND query LIKE '%cancelled by a client%');
    PERFORM pg_sleep(0.05);
  END LOOP;
END \$\$;
UPDATE sp_jobs SET n_left = n_left WHERE id = ${did#f};
COMMIT;
SQL
lockplay=$!
sleep 0.5
fail_before=$fail
expect 0 "cancel it while a store holds one of its partitions" cl 2 cancel "$did"
expect_out '"cancelled":true' "cancelled after the deadlock"
lockrc=0
wait "$lockplay" || lockrc=$?
# (psql's stderr apart: run as the cluster's owner it may warn that it cannot enter the working directory)
check "psql's side held a partition and committed" '[ "$lockrc" = 0 ] && [ "$(cat "$T/lockplay.out")" = 1 ]'
check "n2 ran the cancel again after PostgreSQL rolled it back" 'grep -q "rolled a statement back (a deadlock); running it again" "$T"/n2*.log'
if [ "$fail" -gt "$fail_before" ]; then
    # what each side saw, for a failure that only a loaded machine shows
    echo "     | psql exit $lockrc, out '$(cat "$T/lockplay.out")'"
    sed 's/^/     | psql: /' "$T/lockplay.err" | head -10
    grep -h "farm\|cancel" "$T"/n2*.log | tail -15 | sed 's/^/     | n2: /'
fi
check "the database: the second job cancelled, none of its partitions claimed" \
    '[ "$(pg_sql "SELECT state, (SELECT count(*) FROM sp_parts WHERE job_id = ${did#f} AND state = '"'"'claimed'"'"') FROM sp_jobs WHERE id = ${did#f}")" = "cancelled|0" ]'

# ---- c. a database restart in the middle ----
for g in $(seq 300 309); do submit_job "$g" || bad "submit r$g"; done
pg_restart || bad "postgres restart"
outage=0
for g in $(seq 310 319); do submit_job "$g" || outage=1; done
check "submits after the restart get through (retrying a 503)" '[ "$outage" = 0 ]'
dbfail=0
for g in $(seq 300 319); do await_job "$g" || dbfail=$((dbfail + 1)); done
check "20 jobs around a database restart complete" '[ "$dbfail" = 0 ]'
check "the daemons saw the outage and reconnected" 'grep -q "lost the queue database" "$T/n1.log" && [ "$(grep -c "connected to the queue" "$T/n1.log")" -ge 2 ]'
pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null 2>&1
expect 2 "submit while the database is down" cl 1 submit --circuit alpha "$T/wA_0.wtns"
expect_out "HTTP 503 queue_unavailable" "503 while the database is down"
pg_start_ || bad "postgres start"
retry() { for _ in $(seq 40); do "$@" && return 0; sleep 0.25; done; return 1; } # the pool's backoff after an outage

# ---- d. fencing: a node frozen past its lease ----
# n2 is frozen first, so the job's claims can only go to n1: otherwise n2 may
# claim and prove all six while n1 spends its time stopped in the loop below.
w6=(); for _ in $(seq 6); do w6+=("$T/C.wtns"); done
kill -STOP "${dpid[2]}"
expect 0 "submit a job for n1 to hold" retry cl 1 submit --circuit gamma --request-id frozen "${w6[@]}"
fid=$(tail -n 1 "$T/out")
freeze_holding 1 "job_id = ${fid#f}" 400 0.02
kill -CONT "${dpid[2]}"
check "n1 frozen while it holds claims of the job ($held)" '[ "$held" -gt 0 ]'
for _ in $(seq 300); do
    [ "$(pg_sql "SELECT count(*) FROM sp_parts WHERE job_id = ${fid#f} AND state = 'done'")" = 6 ] && break; sleep 0.1
done
check "n2 took the frozen node's claims over and finished the job" \
    '[ "$(pg_sql "SELECT state FROM sp_jobs WHERE id = ${fid#f}")" = completed ]'
kill -CONT "${dpid[1]}"
lostfenced=0
for _ in $(seq 60); do # its next lease renewal or proof store finds out
    cl 1 metrics >"$T/m1.txt"
    lostfenced=$(awk '/^snarkpipe_farm_(claims_lost|proofs_fenced)_total/ {s += $2} END {print s + 0}' "$T/m1.txt")
    [ "$lostfenced" -ge 1 ] && break
    sleep 0.25
done
check "thawed n1 finds its claims lost or its proofs fenced ($lostfenced)" '[ "$lostfenced" -ge 1 ]'
check "still exactly one proof per partition of it" \
    '[ "$(pg_sql "SELECT count(*) FROM sp_parts WHERE job_id = ${fid#f} AND state = '"'"'done'"'"' AND proof IS NOT NULL")" = 6 ]'
mkdir -p "$T/res/frozen"
expect 0 "its result reads on n1" cl 1 await --out-dir "$T/res/frozen" frozen
expect 0 "and verifies" "$bin" verify "$T/C.vk.json" "$T/res/frozen/public_5.json" "$T/res/frozen/proof_5.json"

# ---- e. bad and hostile rows ----
src=$(pg_sql "SELECT id FROM sp_jobs WHERE request_id = 'r1'") # circuit A, 2 partitions: witnesses 3 and 4
oth=$(pg_sql "SELECT id FROM sp_jobs WHERE request_id = 'r4'") # circuit A, 2 partitions: witnesses 12 and 13
copy_job() { # copy_job RID STATE PROOF_SQL PUBLICS_SQL CLAIMED_BY LEASE INPUT_SQL [ATTEMPTS]: a copy of job $src, as a hostile row
    pg_sql "WITH j AS (INSERT INTO sp_jobs (request_id, circuit_digest, circuit_name, native, n_public, priority, n_parts,
              submitted_by) SELECT '$1', circuit_digest, circuit_name, native, n_public, priority, n_parts, 'test'
              FROM sp_jobs WHERE id = $src RETURNING id)
            INSERT INTO sp_parts (job_id, idx, circuit_digest, priority, state, input, expect_pub, epoch, attempts, proof,
              publics, proved_by, claimed_by, lease_until)
            SELECT j.id, p.idx, p.circuit_digest, p.priority, '$2', $7, p.expect_pub, 7, ${8:-0}, $3, $4, 'ghost/0', $5, $6
              FROM sp_parts p, j WHERE p.job_id = $src; NOTIFY sp_work" >/dev/null
}
# stored proofs that do not verify: one corrupted, one of another witness (publics not the recorded ones)
copy_job hostile-proof done \
    "CASE WHEN p.idx = 0 THEN overlay(p.proof PLACING '\\x00'::bytea FROM 40 FOR 1) ELSE (SELECT o.proof FROM sp_parts o WHERE o.job_id = $oth AND o.idx = p.idx) END" \
    "CASE WHEN p.idx = 0 THEN p.publics ELSE (SELECT o.publics FROM sp_parts o WHERE o.job_id = $oth AND o.idx = p.idx) END" \
    NULL NULL p.input
mkdir -p "$T/res/hp" "$T/res/ghost"
expect 0 "a job whose stored proofs do not verify completes" cl 2 await --wait-ms 60000 --out-dir "$T/res/hp" hostile-proof
# the assembly's reason may be overwritten by a later one (a claim of the
# re-queued partition that lapsed or was handed back): the log keeps it
hid=$(pg_sql "SELECT id FROM sp_jobs WHERE request_id = 'hostile-proof'")
check "an assembly found both stored proofs bad" 'grep -q "job f$hid: 2 stored proof(s) did not verify at assembly" "$T"/n*.log'
check "both were proved again by the farm's nodes" \
    '[ "$(pg_sql "SELECT count(*) FROM sp_parts WHERE job_id = $hid AND state = '"'"'done'"'"' AND proved_by ~ '"'"'^n[12]/'"'"'")" = 2 ]'
check "and answer their witnesses" 'cmp -s "$T/res/hp/public_0.json" "$T/wA_3.pub.json" && cmp -s "$T/res/hp/public_1.json" "$T/wA_4.pub.json"'
expect 0 "a re-proved partition verifies" "$bin" verify "$T/A.vk.json" "$T/wA_4.pub.json" "$T/res/hp/proof_1.json"
# partitions held by an unknown node under a lease of an hour
copy_job hostile-ghost claimed NULL NULL "'ghost/12345678'" "now() + interval '1 hour'" p.input
expect 0 "partitions claimed by an unknown node are taken over" cl 1 await --wait-ms 60000 --out-dir "$T/res/ghost" hostile-ghost
check "by the farm's nodes" \
    '[ "$(pg_sql "SELECT count(*) FROM sp_parts p JOIN sp_jobs j ON j.id = p.job_id WHERE j.request_id = '"'"'hostile-ghost'"'"' AND p.state = '"'"'done'"'"' AND p.proved_by ~ '"'"'^n[12]/'"'"'")" = 2 ] && cmp -s "$T/res/ghost/public_1.json" "$T/wA_4.pub.json"'
# an input that is no witness: the job fails at once
copy_job hostile-input queued NULL NULL NULL NULL "'\\xdeadbeef'::bytea"
expect 2 "a partition whose input is not a witness fails its job" cl 1 await --wait-ms 60000 hostile-input
expect_out "bad_input" "with bad_input"
# partitions that already used up their attempts (claims lost with their nodes): the janitor fails the job
copy_job hostile-attempts queued NULL NULL NULL NULL p.input 4
expect 2 "a job whose partitions used up their attempts fails" cl 2 await --wait-ms 60000 hostile-attempts
expect_out "claimed 4 times without a proof" "says so"
# an unsatisfied witness (one value changed): refused by every claim, failed after max_attempts
cp "$T/wA_0.wtns" "$T/unsat.wtns"
poke_byte "$T/unsat.wtns" $(($(stat -c %s "$T/unsat.wtns") - 32))
expect 0 "submit an unsatisfied witness" cl 1 submit --circuit alpha --request-id unsat "$T/unsat.wtns"
expect 2 "it fails" cl 2 await --wait-ms 60000 unsat
expect_out "unsatisfied" "as unsatisfied"
check "after farm.max_attempts claims" '[ "$(pg_sql "SELECT attempts FROM sp_parts p JOIN sp_jobs j ON j.id = p.job_id WHERE j.request_id = '"'"'unsat'"'"'")" = 4 ]'

# a paused node claims nothing
expect 0 "pause n2" cl 2 pause
expect 0 "a job while n2 is paused" cl 1 prove --json --circuit alpha --request-id while-paused "$T/wA_5.wtns" "$T/wA_6.wtns" "$T/wA_7.wtns"
check "n2, paused, proved none of it" \
    '[ "$(pg_sql "SELECT count(*) FROM sp_parts p JOIN sp_jobs j ON j.id = p.job_id WHERE j.request_id = '"'"'while-paused'"'"' AND p.proved_by LIKE '"'"'n2/%'"'"'")" = 0 ]'
expect 0 "resume n2" cl 2 resume

# ---- g. a job for a circuit this node lacks, named by its digest ----
mk D 40 1 12 2
expect 0 "n2 registers D (n1 has not)" cl 2 register --upload --id only-on-n2 --zkey "$T/D.zkey"
for _ in $(seq 100); do
    dD=$(pg_sql "SELECT digest FROM sp_circuits WHERE name = 'only-on-n2'"); [ -n "$dD" ] && break; sleep 0.1
done
check "n2 recorded D's digest in the farm" '[ ${#dD} = 64 ]'
expect 2 "n1 does not know D by n2's name" cl 1 submit --circuit only-on-n2 "$T/wD_0.wtns"
expect_out "HTTP 404 unknown_circuit" "404"
expect 2 "nor an unknown digest" cl 1 submit --circuit "$(printf '%064d' 7)" "$T/wD_0.wtns"
expect_out "HTTP 404 unknown_circuit" "404 too"
mkdir -p "$T/res/dd"
expect 0 "n1 takes a job for D by its digest" cl 1 prove --circuit "$dD" --out-dir "$T/res/dd" "$T/wD_0.wtns" "$T/wD_1.wtns"
expect 0 "n2 proved it" "$bin" verify "$T/D.vk.json" "$T/res/dd/public_1.json" "$T/res/dd/proof_1.json"
check "with D's witnesses" 'cmp -s "$T/res/dd/public_1.json" <("$bin" --quiet prove "$T/D.zkey" "$T/wD_1.wtns" /dev/null /dev/stdout 2>/dev/null)'

# ---- h. leases tied to progress: a wedged prover ----
conf4() { # conf4 EXTRA_FARM_LINES [SED]: node n4 (circuit A as a4), lease 3 s
    conf 3 | sed -e "s/d3.sock/d4.sock/; s/ready3/ready4/; s/node_id = n3/node_id = n4/; s/^lease = 2s/lease = 3s/" \
        -e "s/circuit.a3/circuit.a4/; ${2:-}"
    printf '[farm]\n%b' "$1"
}
start4() { # start4 LOG EXTRA_FARM_LINES [ENV [SED]]: n4 with extra [farm] lines
    conf4 "$2" "${4:-}" >"$T/d4.conf"
    rm -f "$T/ready4"
    env ${3:-SP_NONE=} "$bin" daemon --config "$T/d4.conf" 2>>"$T/$1.log" &
    dpid[4]=$!
    pids+=($!)
    for _ in $(seq 300); do [ -s "$T/ready4" ] && return 0; kill -0 "${dpid[4]}" 2>/dev/null || break; sleep 0.1; done
    echo "daemon n4 did not start:"; tail -20 "$T/$1.log"; exit 1
}
stop4() { kill -TERM "${dpid[4]}"; wait "${dpid[4]}"; rc4=$?; }
jid_of() { pg_sql "SELECT id FROM sp_jobs WHERE request_id = '$1'"; }
att() { # att RID COLUMNS: its attempts, oldest first, one per line
    pg_sql "SELECT $2 FROM sp_attempts a JOIN sp_jobs j ON j.id = a.job_id WHERE j.request_id = '$1' ORDER BY a.started_at, a.idx"
}
wait_sql() { # wait_sql SQL WANT [TRIES]: polls until SQL answers WANT (0.1 s apart)
    for _ in $(seq "${3:-600}"); do [ "$(pg_sql "$1")" = "$2" ] && return 0; sleep 0.1; done; return 1
}
held_by() { echo "SELECT count(*) FROM sp_attempts a JOIN sp_jobs j ON j.id = a.job_id WHERE j.request_id = '$1' AND a.node LIKE '$2/%'"; }
expect 0 "pause n1" cl 1 pause
expect 0 "pause n2" cl 2 pause
start4 n4a 'progress_timeout = 1s\nmax_run = 0\n' SP_FARM_TEST_WEDGE='*'
expect 0 "submit a job for the wedged n4" cl 4 submit --circuit a4 --request-id wedged "$T/wA_8.wtns"
check "n4 claims it" 'wait_sql "$(held_by wedged n4)" 1'
expect 0 "resume n2" cl 2 resume
mkdir -p "$T/res/wedged"
expect 0 "the wedged claim is proved elsewhere" cl 2 await --wait-ms 60000 --out-dir "$T/res/wedged" wedged
expect 0 "its proof verifies" "$bin" verify "$T/A.vk.json" "$T/wA_8.pub.json" "$T/res/wedged/proof_0.json"
check "n4's attempt ended stalled, n2's proved it" \
    '[ "$(att wedged "split_part(a.node, '"'"'/'"'"', 1) || '"'"' '"'"' || a.outcome" | tr "\n" " ")" = "n4 stalled n2 proved " ]'
gap=$(pg_sql "SELECT extract(epoch FROM max(a.started_at) - min(a.started_at)) FROM sp_attempts a JOIN sp_jobs j ON j.id = a.job_id WHERE j.request_id = 'wedged'")
check "taken over within 2 of n4's leases (3 s each): after $gap s" 'awk -v g="$gap" "BEGIN { exit !(g < 6) }"'
check "n4 counts the stall" '[ "$(cl 4 metrics | awk '"'"'$1 == "snarkpipe_farm_claims_stalled_total" {print $2}'"'"')" = 1 ]'
curl -s --unix-socket "$T/d2.sock" "http://localhost/v1/jobs/wedged" >"$T/wedged.json"
check "the job's JSON has no attempts unless asked" '! grep -q "\"attempts\"" "$T/wedged.json"'
curl -s --unix-socket "$T/d1.sock" "http://localhost/v1/jobs/wedged?attempts=1" >"$T/wedged_att.json"
check "?attempts=1 lists both attempts" \
    'grep -Eq "\"attempts\":\[\{\"partition\":0,\"claim\":[0-9]+,\"node\":\"n4/[0-9a-f]+\",\"start_ms\":[0-9.]+,\"end_ms\":[0-9.]+,\"outcome\":\"stalled\",\"error\":\"no progress for 1000 ms[^\"]*\"\},\{[^}]*\"node\":\"n2/[^}]*\"outcome\":\"proved\"\}\]\}$" "$T/wedged_att.json"'
check "and keeps the result whole" 'grep -q "^{\"job_id\":\"f[0-9]*\"" "$T/wedged_att.json" && cmp -s <(sed "s/,\"attempts\":.*//" "$T/wedged_att.json") <(sed "s/}$//" "$T/wedged.json") && [ -s "$T/wedged.json" ]'
stop4; check "a wedged n4 still stops on SIGTERM (exit 0)" '[ "$rc4" = 0 ]'
# a run-time limit: the wedged claim runs past farm.max_run (its progress timeout is long)
expect 0 "pause n2" cl 2 pause
start4 n4b 'progress_timeout = 1h\nmax_run = 1s\n' SP_FARM_TEST_WEDGE='*'
expect 0 "submit a job for the wedged n4 again" cl 4 submit --circuit a4 --request-id overran "$T/wA_9.wtns"
check "n4 claims it" 'wait_sql "$(held_by overran n4)" 1'
expect 0 "resume n2" cl 2 resume
expect 0 "the overrunning claim is proved elsewhere" cl 2 await --wait-ms 60000 overran
check "n4's attempt ended run_limit" '[ "$(att overran "a.outcome" | head -1)" = run_limit ]'
check "saying why" '[ "$(att overran "a.error" | head -1)" = "ran past farm.max_run (1000 ms) on node n4" ]'
stop4
# every attempt recorded for a failed job, in its answer: the unsatisfied witness of e.
"$bin" --json client --addr "unix:$T/d1.sock" await unsat >"$T/unsat.json" 2>&1
check "a failed job's answer lists its 4 attempts" '[ "$(grep -o "\"outcome\":\"[a-z_]*\"" "$T/unsat.json" | sort | uniq -c | awk "{print \$1}")" = 4 ]'

# ---- i. per-client limits and deadlines ----
expect 0 "pause n2" cl 2 pause
start4 n4c 'max_queued_per_client = 2\njob_deadline = 2s\n'
expect 0 "pause n4" cl 4 pause
expect 0 "a first queued job" cl 4 submit --circuit a4 --request-id q1 "$T/wA_1.wtns"
expect 0 "a second" cl 4 submit --circuit a4 --request-id q2 "$T/wA_2.wtns"
expect 2 "a third from the same client is refused" cl 4 submit --circuit a4 --request-id q3 "$T/wA_3.wtns"
expect_out "HTTP 429 too_many_queued" "429 too_many_queued"
check "the client is n4's (no token), counted in the database" \
    '[ "$(pg_sql "SELECT count(*) FROM sp_jobs WHERE client = '"'"'node:n4'"'"' AND state = '"'"'queued'"'"'")" = 2 ]'
expect 0 "n1 (no limit) still takes jobs" cl 1 submit --circuit alpha --request-id q4 "$T/wA_4.wtns"
expect 2 "nobody takes q1 before its deadline: it fails" cl 4 await --wait-ms 60000 q1
expect_out "deadline_passed" "deadline_passed"
expect_out "still queued at its deadline \(farm.job_deadline\): [0-9]+ live node\(s\) prove its circuit but none took them" \
    "saying that live nodes prove it but none took it"
expect 2 "and q2" cl 4 await --wait-ms 60000 q2
expect 0 "the client may queue again" cl 4 submit --circuit a4 --request-id q5 "$T/wA_5.wtns"
expect 0 "cancel it" cl 4 cancel q5
expect 0 "evict D on n2: no live node proves it" cl 2 evict only-on-n2
check "n2 no longer lists D in the farm" 'wait_sql "SELECT count(*) FROM sp_nodes WHERE '"'"'$dD'"'"' = ANY(digests)" 0'
expect 0 "a job for D through n4" cl 4 submit --circuit "$dD" --request-id nobody "$T/wD_0.wtns"
expect 2 "fails at its deadline" cl 4 await --wait-ms 60000 nobody
expect_out "no live node of the farm proves its circuit" "saying that no live node proves it"
expect 0 "resume n1" cl 1 resume
expect 0 "resume n2" cl 2 resume
expect 0 "q4 completes" cl 1 await --wait-ms 60000 q4
stop4

# ---- j. memory-aware claiming ----
start4 n4d ''
expect 0 "pause n1" cl 1 pause
expect 0 "pause n2" cl 2 pause
mkdir -p "$T/res/load4"
expect 0 "a job on n4 (its key loads)" cl 4 prove --circuit a4 --out-dir "$T/res/load4" "$T/wA_6.wtns"
pb=$(cl 4 status | grep -o '"id":"a4","digest":"[0-9a-f]*","partition_bytes":[0-9]*' | grep -o '[0-9]*$')
check "n4 knows what a partition of A weighs ($pb bytes)" '[ "${pb:-0}" -gt 0 ]'
stop4
start4 n4e "max_claims = 8\nmemory = $((pb * 5 / 2))\n"
w8=(); for i in $(seq 10 17); do w8+=("$T/wA_$i.wtns"); done
mkdir -p "$T/res/mem"
expect 0 "an 8-partition job on n4 alone (memory for 2.5 partitions, 8 claims)" cl 4 prove --circuit a4 --request-id mem --out-dir "$T/res/mem" "${w8[@]}"
check "every partition answers its witness" 'for i in $(seq 0 7); do cmp -s "$T/res/mem/public_$i.json" "$T/wA_$((10 + i)).pub.json" || exit 1; done'
over=$(pg_sql "SELECT max(c) FROM (SELECT (SELECT count(*) FROM sp_attempts b WHERE b.job_id = a.job_id AND b.node = a.node
                 AND b.started_at <= a.started_at AND (b.ended_at IS NULL OR b.ended_at > a.started_at)) AS c
               FROM sp_attempts a JOIN sp_jobs j ON j.id = a.job_id WHERE j.request_id = 'mem') s")
check "n4 never held more than 2 at once ($over)" '[ "$over" -ge 1 ] && [ "$over" -le 2 ]'
stop4
expect 0 "resume n1" cl 1 resume
expect 0 "resume n2" cl 2 resume

# ---- k. retention: the longest any live node asks for ----
# n1 and n2 ask for 30 minutes, n4 now for 1 s; one job asks for an hour itself
start4 n4f '' '' 's/^poll = 500ms/poll = 100ms/; s/^result_ttl = 30m/result_ttl = 1s/'
check "n4 asks for 1 s of retention" 'wait_sql "SELECT count(*) FROM sp_nodes WHERE name = '"'"'n4'"'"' AND keep_ms = 1000" 1'
wid=$(jid_of wedged)
check "the wedged job has its attempts" '[ "$(pg_sql "SELECT count(*) FROM sp_attempts WHERE job_id = $wid")" -ge 2 ]'
pg_sql "UPDATE sp_jobs SET finished_at = now() - interval '20 minutes' WHERE request_id IN ('q4', 'mem');
        UPDATE sp_jobs SET finished_at = now() - interval '40 minutes' WHERE request_id IN ('nobody', 'overran', 'wedged');
        UPDATE sp_jobs SET keep_ms = 3600000 WHERE request_id = 'overran'" >/dev/null
check "a job finished longer ago than every retention is deleted" 'wait_sql "SELECT count(*) FROM sp_jobs WHERE request_id = '"'"'nobody'"'"'" 0 900'
check "  and its attempts with it" 'wait_sql "SELECT count(*) FROM sp_jobs WHERE id = $wid" 0 && [ "$(pg_sql "SELECT count(*) FROM sp_attempts WHERE job_id = $wid")" = 0 ]'
s0=$(cl 4 metrics | awk '$1 == "snarkpipe_farm_db_statements_total{side=\"worker\"}" {print $2}')
for _ in $(seq 600); do # n4's housekeeping has run several times since (every 4 polls)
    [ "$(cl 4 metrics | awk '$1 == "snarkpipe_farm_db_statements_total{side=\"worker\"}" {print $2}')" -gt $((s0 + 60)) ] && break; sleep 0.1
done
check "n4 keeps what the other live nodes ask to keep (30 m)" '[ "$(pg_sql "SELECT count(*) FROM sp_jobs WHERE request_id IN ('"'"'q4'"'"', '"'"'mem'"'"')")" = 2 ]'
check "and what a job asks to keep itself (1 h)" '[ "$(pg_sql "SELECT count(*) FROM sp_jobs WHERE request_id = '"'"'overran'"'"'")" = 1 ]'
stop4

# ---- l. a schema-1 database migrated ----
pg_sql "CREATE DATABASE farm1" >/dev/null
V1_URL="host=$PG_DIR dbname=farm1 user=sp"
conf 1 | sed -e "s|^queue = .*|queue = $V1_URL|; s/d1.sock/d5.sock/; s/ready1/ready5/; s/node_id = n1/node_id = n5/" >"$T/d5.conf"
SP_QUEUE_SCHEMA_STOP=1 "$bin" daemon --config "$T/d5.conf" >"$T/out" 2>&1; rc=$?
check "SP_QUEUE_SCHEMA_STOP=1 leaves a schema-1 database (exit $rc)" '[ "$rc" = 2 ] && grep -q "left at schema version 1" "$T/out"'
v1sql() { pg_as "$PG_BIN/psql" -h "$PG_DIR" -U sp -d farm1 -qAt -v ON_ERROR_STOP=1 -c "$1"; }
read -r dA inA pubA <<<"$(pg_sql "SELECT j.circuit_digest, encode(p.input, 'hex'), encode(p.expect_pub, 'hex') FROM sp_parts p
                                  JOIN sp_jobs j ON j.id = p.job_id WHERE j.request_id = 'r1' AND p.idx = 0" | tr '|' ' ')"
inB=$(pg_sql "SELECT encode(p.input, 'hex') || ' ' || encode(p.expect_pub, 'hex') FROM sp_parts p JOIN sp_jobs j ON j.id = p.job_id WHERE j.request_id = 'r1' AND p.idx = 1")
v1sql "INSERT INTO sp_jobs (request_id, circuit_digest, circuit_name, native, n_public, priority, n_parts, submitted_by)
       VALUES ('old', '$dA', 'alpha', false, 2, 0, 2, 'n0');
       INSERT INTO sp_parts (job_id, idx, circuit_digest, priority, input, expect_pub, state, claimed_by, lease_until, epoch, attempts)
       SELECT id, 0, '$dA', 0, '\\x$inA'::bytea, '\\x$pubA'::bytea, 'queued', NULL, NULL, 0, 0 FROM sp_jobs WHERE request_id = 'old';
       INSERT INTO sp_parts (job_id, idx, circuit_digest, priority, input, expect_pub, state, claimed_by, lease_until, epoch, attempts)
       SELECT id, 1, '$dA', 0, '\\x${inB% *}'::bytea, '\\x${inB#* }'::bytea, 'claimed', 'n0/dead', now() - interval '1 minute', 1, 1
       FROM sp_jobs WHERE request_id = 'old'" >/dev/null
rm -f "$T/ready5"; "$bin" daemon --config "$T/d5.conf" 2>>"$T/n5.log" & dpid[5]=$!; pids+=($!)
for _ in $(seq 300); do [ -s "$T/ready5" ] && break; sleep 0.1; done
mkdir -p "$T/res/old"
expect 0 "a node on it migrates it and proves the old job" cl 5 await --wait-ms 60000 --out-dir "$T/res/old" old
check "schema version 3 now" '[ "$(v1sql "SELECT value FROM sp_meta WHERE key = '"'"'schema_version'"'"'")" = 3 ]'
check "the old job's proofs answer its witnesses" 'cmp -s "$T/res/old/public_0.json" "$T/wA_3.pub.json" && cmp -s "$T/res/old/public_1.json" "$T/wA_4.pub.json"'
check "the claim of the dead node was an attempt, expired" '[ "$(v1sql "SELECT outcome FROM sp_attempts WHERE idx = 1 ORDER BY epoch LIMIT 1")" = expired ]'
kill -TERM "${dpid[5]}"; wait "${dpid[5]}"

# ---- f. clean stops ----
for i in 1 2; do
    kill -TERM "${dpid[$i]}"; wait "${dpid[$i]}"; rc=$?
    check "n$i stops (exit 0)" '[ "$rc" = 0 ]'
done
check "no node rows and no claims are left" \
    '[ "$(pg_sql "SELECT (SELECT count(*) FROM sp_nodes) + (SELECT count(*) FROM sp_parts WHERE state = '"'"'claimed'"'"')")" = 0 ]'
if grep -l "Sanitizer\|runtime error:" "$T"/*.log >/dev/null 2>&1; then bad "sanitizer reports in the daemon logs"; grep -h -A5 "Sanitizer\|runtime error:" "$T"/*.log | head -30; fi
# no password in what the daemon prints
expect 0 "print-config" "$bin" daemon --queue "postgresql://sp:hunter2@localhost:1/farm?sslmode=disable" --print-config
expect_out "^queue = postgresql://sp:\*\*\*@localhost:1/farm" "print-config hides the password"
expect 2 "an unreachable queue database" "$bin" daemon --queue "host=127.0.0.1 port=1 password=hunter2 dbname=farm" \
    --listen "unix:$T/x.sock"
expect_out "cannot connect to the queue database" "the daemon says so and stops"
check "without the password" '! grep -q hunter2 "$T/out"'
echo "test_farm.sh: $((pass + fail)) checks, $fail failed"
[ "$fail" -eq 0 ]
