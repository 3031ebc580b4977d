#!/usr/bin/env bash
# The daemon's guards around a farm's queue database (a throwaway
# PostgreSQL cluster, tests/pg.sh):
#   a. /healthz and /readyz say how the queue stands: connected, both 200;
#      with the database stopped /healthz stays 200 (the process lives:
#      "degraded") while /readyz is 503 ("not_ready"); both are "ok" again
#      once the database is back;
#   b. a second daemon with a live daemon's farm.node_id exits 2 and says
#      so (it used to start with a warning and queue the live node's
#      claims again); after a kill -9 of the first, one with that id starts.
# Skipped (exit 77) when the daemon or the farm is not built, or PostgreSQL
# or curl is missing. Usage: tests/test_daemon_queue.sh BUILD.
# SP_TEST_VERBOSE=1 lists every check; SP_KEEP=1 keeps the temporary files.
set -u
build=${1:-build}
bin=$build/snarkpipe
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$bin" ] || { echo "test_daemon_queue.sh: $bin not found (build first)"; exit 1; }
if "$bin" daemon --help 2>&1 | grep -q "built without daemon support"; then
    echo "test_daemon_queue.sh: skipped (no libmicrohttpd/libinih: the daemon is not built)"; exit 77
fi
if ! "$bin" daemon --help 2>&1 | grep -q "farm.queue, --queue): built in"; then
    if pkg-config --exists libpq 2>/dev/null; then echo "test_daemon_queue.sh: libpq is installed but $bin lacks the farm"; exit 1; fi
    echo "test_daemon_queue.sh: skipped (no libpq: the farm is not built)"; exit 77
fi
command -v curl >/dev/null || { echo "test_daemon_queue.sh: skipped (no curl; Debian: apt-get install curl)"; exit 77; }
# shellcheck source=tests/pg.sh
. "$here/pg.sh"
pg_find || { echo "test_daemon_queue.sh: skipped (no PostgreSQL server: apt-get install postgresql)"; exit 77; }

T=$(mktemp -d "${TMPDIR:-/tmp}/sp_test_dqueue.XXXXXX")
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
    pg_destroy
    [ -n "${SP_KEEP:-}" ] || rm -rf "$T"
}
trap cleanup EXIT
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
ok() { pass=$((pass + 1)); [ -z "${SP_TEST_VERBOSE:-}" ] || echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; } # check NAME CONDITION
pg_create "$(mktemp -d "${TMPDIR:-/tmp}/sp_test_dqueue_pg.XXXXXX")" || exit 1

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

echo "test_daemon_queue.sh: $pass checks, $fail failed"
[ "$fail" -eq 0 ]
