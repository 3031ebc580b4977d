#!/usr/bin/env bash
# The daemon's guards around a farm's queue database (a throwaway
# PostgreSQL cluster, tests/pg.sh):
#   a. /healthz and /readyz say how the queue stands: connected, both 200;
#      with the database stopped /healthz stays 200 (the process lives:
#      "degraded") while /readyz is 503 ("not_ready"); both are "ok" again
#      once the database is back;
#   b. a second daemon with a live daemon's farm.node_id exits 2 and says
#      so (it used to start with a warning and queue the live node's
#      claims again); after a kill -9 of the first, one with that id starts;
#   c. a request_id used again, through any node of the farm: the same
#      circuit (by content: each node names it its own way) and witness get
#      the job it names (200, its id), never a second job; another payload
#      gets 409 naming the job; once the job is done, the same payload gets
#      its result; the claim statement is parsed once per node, not at
#      every claim;
#   d. several client tokens ([client.NAME] sections, the same on two
#      nodes): each client has its own limit on queued jobs, counted in the
#      whole farm: one at its limit gets 429 through either node while the
#      other still submits; a retry of a queued job by a client at its
#      limit gets that job; an unknown token (and none) gets 401.
# Skipped (exit 77) when the daemon or the farm is not built, or PostgreSQL
# or curl is missing. Usage: tests/test_daemon_queue.sh BUILD.
# SP_TEST_VERBOSE=1 lists every check; SP_KEEP=1 keeps the temporary files.
set -u
build=${1:-build}
bin=$build/snarkpipe
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$bin" ] || { echo "test_daemon_queue.sh: $bin not found (build first)"; exit 1; }
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
# shellcheck source=tests/pg.sh
. "$here/pg.sh"
command -v curl >/dev/null || { echo "test_daemon_queue.sh: skipped (no curl; Debian: apt-get install curl)"; exit 77; }
pg_test test_daemon_queue.sh
ok() { pass=$((pass + 1)); [ -z "${SP_TEST_VERBOSE:-}" ] || echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; } # check NAME CONDITION

conf() { # conf I: daemon I's configuration, node id n1 for both
    cat <<EOF
[engine]
synth_threads = 1
backend_threads = 1
finish_threads = 1
budget = 256MiB
[server]
listen = unix:$T/d$1.sock
ready_file = $T/ready$1
[farm]
queue = $PG_URL
node_id = n1
lease = 2s
poll = 300ms
EOF
}
declare -A dpid
start() { # start I: starts daemon I, waits until it serves
    conf "$1" >"$T/d$1.conf"
    rm -f "$T/ready$1"
    "$bin" daemon --config "$T/d$1.conf" 2>>"$T/d$1.log" &
    dpid[$1]=$!
    pids+=($!)
    for _ in $(seq 300); do [ -s "$T/ready$1" ] && return 0; kill -0 "${dpid[$1]}" 2>/dev/null || break; sleep 0.1; done
    echo "daemon $1 did not start:"; tail -20 "$T/d$1.log"; exit 1
}
get() { # get I PATH: "CODE BODY" of GET PATH on daemon I
    curl -s --max-time 20 --unix-socket "$T/d$1.sock" -w ' %{http_code}' "http://localhost$2"
}
wait_for() { # wait_for I PATH REGEX: up to 30 s until GET PATH's "BODY CODE" matches
    local out
    for _ in $(seq 300); do out=$(get "$1" "$2"); grep -Eq -- "$3" <<<"$out" && return 0; sleep 0.1; done
    echo "     | $2: $out"; return 1
}

# ---- a. health and readiness follow the database ----
start 1
check "/healthz: ok, queue connected" 'wait_for 1 /healthz "\"status\":\"ok\",\"queue\":\"connected\"\\} 200$"'
check "/readyz: ok, queue connected" 'wait_for 1 /readyz "\"status\":\"ok\",\"queue\":\"connected\"\\} 200$"'
pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null 2>&1
check "database down: /readyz is 503 not_ready" 'wait_for 1 /readyz "\"status\":\"not_ready\",\"queue\":\"unreachable\"\\} 503$"'
check "database down: /healthz is 200 degraded" 'wait_for 1 /healthz "\"status\":\"degraded\",\"queue\":\"unreachable\"\\} 200$"'
pg_start_ || exit 1
check "database back: /readyz is 200 again" 'wait_for 1 /readyz "\"status\":\"ok\",\"queue\":\"connected\"\\} 200$"'

# ---- b. one live daemon per node id ----
conf 2 >"$T/d2.conf"
expect 2 "a second daemon with a live node id exits 2" "$bin" daemon --config "$T/d2.conf"
expect_out "node id 'n1' is in use by a live daemon" "  and says why"
check "  the first one still serves" 'wait_for 1 /readyz " 200$"'
kill -9 "${dpid[1]}"; wait "${dpid[1]}" 2>/dev/null
start 2
check "after a kill -9 of the first, the id is free" 'wait_for 2 /readyz "\"queue\":\"connected\"\\} 200$"'
check "  the second one is node n1" '[ "$(pg_sql "SELECT count(*) FROM sp_nodes WHERE name = '"'"'n1'"'"'")" = 1 ]'
kill "${dpid[2]}"; wait "${dpid[2]}"; rc=$?
check "  and leaves on SIGTERM (exit 0)" '[ "$rc" -eq 0 ]'

# ---- c. request ids across nodes ----
"$bin" --quiet gen-circuit --constraints 32 --public 1 --seed 3 "$T/A.r1cs" "$T/A.wtns" &&
    "$bin" --quiet gen-circuit --constraints 32 --public 1 --seed 4 "$T/B.r1cs" "$T/B.wtns" &&
    "$bin" --quiet setup "$T/A.r1cs" "$T/A.zkey" >/dev/null 2>&1 &&
    "$bin" --quiet setup "$T/B.r1cs" "$T/B.zkey" >/dev/null 2>&1 || { echo "cannot make the circuits"; exit 1; }
mkdir -p "$T/other" && cp "$T/A.zkey" "$T/other/A-again.zkey"
for c in alice bob; do head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$T/$c.tok"; chmod 600 "$T/$c.tok"; done
echo "not-a-client-token-0123456789" >"$T/stranger.tok"
conf() { # conf I: node nI with circuits A (a3, or a4 from another path) and B; the clients in $clients
    cat <<EOF
[engine]
synth_threads = 1
backend_threads = 1
finish_threads = 1
budget = 256MiB
[server]
listen = unix:$T/d$1.sock
ready_file = $T/ready$1
[farm]
queue = $PG_URL
node_id = n$1
lease = 2s
poll = 300ms
[circuit.a$1]
zkey = $([ "$1" = 4 ] && echo "$T/other/A-again.zkey" || echo "$T/A.zkey")
[circuit.b$1]
zkey = $T/B.zkey
$clients
EOF
}
clients=
post() { # post I CIRCUIT RID FILE [TOKEN_FILE]: "BODY CODE" of POST /v1/jobs on node I
    curl -s --max-time 20 --unix-socket "$T/d$1.sock" -w ' %{http_code}' ${5:+-H "Authorization: Bearer $(cat "$5")"} \
        -H 'Content-Type: application/octet-stream' --data-binary @"$4" "http://localhost/v1/jobs?circuit=$2&request_id=$3"
}
ctl() { # ctl I ACTION [TOKEN_FILE]: POST /v1/ACTION on node I
    curl -s --max-time 20 --unix-socket "$T/d$1.sock" ${3:+-H "Authorization: Bearer $(cat "$3")"} -X POST \
        "http://localhost/v1/$2" >/dev/null
}
pg_sql "ALTER SYSTEM SET log_min_duration_statement = 0" >/dev/null && pg_sql "SELECT pg_reload_conf()" >/dev/null
start 3
start 4
ctl 3 pause; ctl 4 pause # nothing is proved until they resume: the job stays queued
first=$(post 3 a3 same-rid "$T/A.wtns")
check "a first submit through n3: 202" 'grep -Eq "^\{\"job_id\":\"f[0-9]+\".* 202$" <<<"$first"'
jid=$(sed 's/.*"job_id":"\(f[0-9]*\)".*/\1/' <<<"$first")
check "the same circuit (named a4, another file) and witness through n4: 200, the same job" \
    'grep -Eq "^\{\"job_id\":\"$jid\".* 200$" <<<"$(post 4 a4 same-rid "$T/A.wtns")"'
check "  and no second job in the farm" '[ "$(pg_sql "SELECT count(*) FROM sp_jobs WHERE request_id = '"'"'same-rid'"'"'")" = 1 ]'
check "the same again through n3: 200, the same job" 'grep -Eq "^\{\"job_id\":\"$jid\".* 200$" <<<"$(post 3 a3 same-rid "$T/A.wtns")"'
check "snarkpipe client submit sending it again prints that job (exit 0)" \
    '[ "$("$bin" client --addr "unix:$T/d4.sock" submit --circuit a4 --request-id same-rid "$T/A.wtns")" = "$jid" ]'
other=$(post 4 b4 same-rid "$T/B.wtns")
check "another circuit and witness under that request_id: 409 duplicate_request_id" \
    'grep -Eq "\"error\":\"duplicate_request_id\".* 409$" <<<"$other"'
check "  naming the job, not finished" 'grep -q "names job $jid (not finished), whose circuit or inputs are not these" <<<"$other"'
ctl 3 resume; ctl 4 resume
check "the job completes" 'wait_for 3 "/v1/jobs/$jid?wait_ms=5000" "\"status\":\"completed\".* 200$"'
# the claim statement is parsed once per connection (one each here), not at every claim
parses=$(grep -c "parse sp_q0: WITH d AS" "$PG_DIR/server.log") runs=$(grep -c "execute sp_q0: WITH d AS" "$PG_DIR/server.log")
check "the claim: prepared once per node ($parses), run $runs times" '[ "$parses" = 2 ] && [ "$runs" -gt "$parses" ]'
check "  and never sent to be parsed again" '! grep -q "parse <unnamed>: WITH d AS" "$PG_DIR/server.log"'
check "once done, the same payload gets its result (200)" \
    'grep -Eq "^\{\"job_id\":\"$jid\".*\"status\":\"completed\".* 200$" <<<"$(post 4 a4 same-rid "$T/A.wtns")"'
check "  another payload still 409, naming it finished" 'grep -q "names job $jid (finished)" <<<"$(post 3 b3 same-rid "$T/B.wtns")"'
kill "${dpid[3]}" "${dpid[4]}"; wait "${dpid[3]}" "${dpid[4]}"

# ---- d. client tokens, each with its own limit in the whole farm ----
clients=$(printf '[client.alice]\ntoken_file = %s\nmax_queued = 1\n[client.bob]\ntoken_file = %s\nmax_queued = 2\n' \
    "$T/alice.tok" "$T/bob.tok")
start 3
start 4
ctl 3 pause "$T/alice.tok"; ctl 4 pause "$T/alice.tok"
check "alice's first job through n3: 202" 'grep -q " 202$" <<<"$(post 3 a3 al1 "$T/A.wtns" "$T/alice.tok")"'
check "alice's second through n4: 429 too_many_queued (her limit, 1, counted in the farm)" \
    'grep -Eq "\"error\":\"too_many_queued\".* 429$" <<<"$(post 4 b4 al2 "$T/B.wtns" "$T/alice.tok")"'
check "bob's first through n4: 202" 'grep -q " 202$" <<<"$(post 4 b4 bo1 "$T/B.wtns" "$T/bob.tok")"'
check "bob's second through n3: 202" 'grep -q " 202$" <<<"$(post 3 a3 bo2 "$T/A.wtns" "$T/bob.tok")"'
check "bob's third through n3: 429 (his limit, 2)" \
    'grep -Eq "\"error\":\"too_many_queued\".* 429$" <<<"$(post 3 b3 bo3 "$T/B.wtns" "$T/bob.tok")"'
check "alice at her limit sending her queued job again gets it (200)" \
    'grep -Eq "\"request_id\":\"al1\".* 200$" <<<"$(post 4 a4 al1 "$T/A.wtns" "$T/alice.tok")"'
check "the database counts the two clients apart" \
    '[ "$(pg_sql "SELECT count(DISTINCT client) || '"'"' '"'"' || count(*) FROM sp_jobs WHERE state = '"'"'queued'"'"' AND client LIKE '"'"'token:%'"'"'")" = "2 3" ]'
check "an unknown token: 401" 'grep -Eq "\"error\":\"unauthorized\".* 401$" <<<"$(post 3 a3 st1 "$T/A.wtns" "$T/stranger.tok")"'
check "no token: 401" 'grep -Eq "\"error\":\"unauthorized\".* 401$" <<<"$(post 4 a4 st2 "$T/A.wtns")"'
check "  and nothing of theirs queued" '[ "$(pg_sql "SELECT count(*) FROM sp_jobs WHERE request_id LIKE '"'"'st%'"'"'")" = 0 ]'
check "/healthz needs no token" 'wait_for 3 /healthz " 200$"'
kill "${dpid[3]}" "${dpid[4]}"; wait "${dpid[3]}" "${dpid[4]}"

echo "test_daemon_queue.sh: $pass checks, $fail failed"
[ "$fail" -eq 0 ]
