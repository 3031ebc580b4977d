# A throwaway PostgreSQL cluster for the farm's tests and benchmarks
# (bash, sourced): made under a temporary directory, listening on a unix
# socket there only (no TCP), trust authentication, fsync off (nothing
# here must survive a machine crash), removed by pg_destroy. Commits are
# asynchronous (a crash of PostgreSQL itself may lose the last ones)
# unless PG_DURABLE=1: then a commit is in the WAL (in the page cache)
# before it is acknowledged, so it survives kill -9 of the server.
#
#   pg_find               sets PG_BIN to the directory of initdb and pg_ctl
#                         (PostgreSQL from Debian: /usr/lib/postgresql/N/bin);
#                         returns 1 when there is none
#   pg_create DIR         initdb into DIR/data, start, create database "farm";
#                         sets PG_DIR, PG_URL (a libpq connection string)
#   pg_sql SQL            runs SQL in it (psql, unaligned, tuples only)
#   pg_restart            stops (fast: sessions are cut) and starts it again
#   pg_destroy            stops it and removes DIR
#   pg_test NAME          the farm tests' start, with tests/lib.sh sourced and
#                         bin set: skips (exit 77) as need_farm does, or when there
#                         is no PostgreSQL server; makes T (a temporary directory)
#                         and a cluster; an EXIT trap kill -9s the processes in the
#                         pids array and removes both (SP_KEEP=1 keeps T)
#
# The cluster must not belong to root (initdb refuses): as root, it is made
# and run as the "postgres" user (Debian's postgresql package makes it),
# else "nobody", through runuser; the directory is given to that user.
pg_find() {
    local d
    PG_BIN=
    for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r) "$(dirname "$(command -v initdb 2>/dev/null || echo /none/x)")"; do
        if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && [ -x "$d/psql" ]; then PG_BIN=$d; return 0; fi
    done
    return 1
}

pg_as() { # pg_as CMD...: runs CMD as the cluster's owner
    if [ "$(id -u)" = 0 ]; then runuser -u "$PG_USER" -- "$@"; else "$@"; fi
}

pg_create() {
    PG_DIR=$1
    PG_USER=$(id -un)
    if [ "$(id -u)" = 0 ]; then
        PG_USER=nobody
        id postgres >/dev/null 2>&1 && PG_USER=postgres
    fi
    mkdir -p "$PG_DIR" && chmod 700 "$PG_DIR" && chown "$PG_USER" "$PG_DIR" || return 1
    pg_as test -w "$PG_DIR" ||
        { echo "pg.sh: $PG_USER cannot reach $PG_DIR (set TMPDIR to a directory it can traverse)"; return 1; }
    pg_as "$PG_BIN/initdb" -D "$PG_DIR/data" -U sp --auth=trust -E UTF8 --no-sync >"$PG_DIR/initdb.log" 2>&1 ||
        { echo "initdb failed:"; tail -5 "$PG_DIR/initdb.log"; return 1; }
    pg_start_ || return 1
    PG_URL="host=$PG_DIR dbname=farm user=sp"
    pg_as "$PG_BIN/psql" -h "$PG_DIR" -U sp -d postgres -qAt -c "CREATE DATABASE farm" >/dev/null || return 1
}

pg_start_() {
    pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 \
        -o "-k $PG_DIR -c listen_addresses= -c fsync=off -c synchronous_commit=$([ -n "${PG_DURABLE:-}" ] && echo on || echo off) -c full_page_writes=off -c max_connections=100" \
        start >/dev/null 2>&1 || { echo "postgres did not start:"; tail -5 "$PG_DIR/server.log"; return 1; }
}

pg_sql() { pg_as "$PG_BIN/psql" -h "$PG_DIR" -U sp -d farm -qAt -v ON_ERROR_STOP=1 -c "$1"; }

pg_restart() {
    pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null 2>&1
    pg_start_
}

pg_destroy() {
    [ -n "${PG_DIR:-}" ] && [ -d "$PG_DIR/data" ] && pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate -w stop >/dev/null 2>&1
    [ -n "${PG_DIR:-}" ] && rm -rf "$PG_DIR"
    PG_DIR=
}

pg_test() {
    need_farm "$1" "$bin"
    pg_find || { echo "$1: skipped (no PostgreSQL server: apt-get install postgresql)"; exit 77; }
    T=$(mktemp -d "${TMPDIR:-/tmp}/sp_${1%.sh}.XXXXXX")
    pids=()
    trap pg_test_end_ EXIT
    pg_create "$(mktemp -d "${TMPDIR:-/tmp}/sp_${1%.sh}_pg.XXXXXX")" || exit 1
}

pg_test_end_() {
    local p
    for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
    pg_destroy
    [ -n "${SP_KEEP:-}" ] || rm -rf "$T"
}
