#!/usr/bin/env bash
# The engine's commands of the snarkpipe CLI: `bench pipeline` proves a
# small built-in batch (every proof verified by the engine) and writes a
# TIMELINE; `waterfall` reads it and writes an SVG; then the exit codes of
# usage errors and of a malformed timeline.
# Exit codes (cli/cli.h): 0 ok, 1 a check failed, 2 runtime error, 64 usage.
# Usage: tests/test_engine_cli.sh BUILD (the build dir holding snarkpipe; run.sh passes it).
set -u
build=${1:-build}
bin=$build/snarkpipe
[ -x "$bin" ] || { echo "test_engine_cli: $bin not found (build first)"; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/sp_test_engine_cli.XXXXXX")
trap 'rm -rf "$T"' EXIT
pass=0
fail=0

# expect CODE NAME CMD...: CMD exits with CODE; its output is kept in $T/out.
expect() {
    local want=$1 name=$2 rc=0
    shift 2
    "$@" >"$T/out" 2>&1 || rc=$?
    if [ "$rc" -eq "$want" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "test_engine_cli: $name: exit $rc, expected $want"
        sed 's/^/    /' "$T/out" | head -20
    fi
}

# check NAME CONDITION...: a shell test on the files made so far.
check() {
    local name=$1
    shift
    if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "test_engine_cli: $name failed"; fi
}

expect 0 "bench pipeline" "$bin" bench pipeline --constraints 300 -c 3 -j 2 -p 2 --sweep \
    --set synth_threads=1 --set finish_threads=1 --set backend_threads=1 --timeline "$T/tl.txt"
check "bench prints isolation and load" grep -q '^load (c=3, j=2)' "$T/out"
check "bench prints the sweep" grep -q '^sweep pinned_pool=0' "$T/out"
check "timeline written" grep -q '^TIMELINE,.*,JOB_DONE,j[0-9]*,status=ok' "$T/tl.txt"
expect 0 "waterfall" "$bin" waterfall "$T/tl.txt" --svg "$T/wf.svg"
check "waterfall reports 3 jobs (and the warm-up)" grep -q '4 jobs (4 ok, 0 failed, 0 cancelled), 8 partitions' "$T/out"
check "waterfall reports the GPU" grep -q '^gpu0 ' "$T/out"
check "svg written" grep -q '</svg>' "$T/wf.svg"
check "one bar per stage" [ "$(grep -c 'class="bar"' "$T/wf.svg")" -eq 24 ]
if command -v xmllint >/dev/null; then expect 0 "svg is XML" xmllint --noout "$T/wf.svg"; fi
expect 0 "bench --json" "$bin" --json bench pipeline --constraints 100 -c 1 -j 1 -p 1 --no-isolation
check "one JSON object" grep -q '^{"run":"load (c=1, j=1)",.*"failed":0}$' "$T/out"

expect 64 "unknown engine option" "$bin" bench pipeline --set nope=1
expect 64 "bad -c" "$bin" bench pipeline -c 0
expect 64 "zkey without wtns" "$bin" bench pipeline --zkey x.zkey
expect 0 "--set help" "$bin" bench pipeline --set help
check "--set help lists the switches" grep -q 'two_step_release' "$T/out"
expect 64 "waterfall without a file" "$bin" waterfall
printf 'TIMELINE,1.0,JOB_SUBMIT,j1,partitions=1\nTIMELINE,x,SYNTH_START,j1,partition=0\n' >"$T/bad.txt"
expect 2 "malformed timeline" "$bin" waterfall "$T/bad.txt"
check "names the line" grep -q 'line 2' "$T/out"
expect 2 "missing timeline" "$bin" waterfall "$T/none.txt"
expect 2 "unknown backend" "$bin" bench pipeline --constraints 100 -c 1 --set backends=nope
expect 2 "--release-host-key on the cpu" "$bin" bench pipeline --constraints 100 -c 1 --release-host-key \
    --set g2_on_device=1
check "names why" grep -q 'no key array is resident on every device' "$T/out"
expect 2 "--release-host-key, G2 on the host" "$bin" bench pipeline --constraints 100 -c 1 --release-host-key \
    --set g2_on_device=0
check "names why" grep -q 'needs the G2 MSM on the device' "$T/out"

echo "test_engine_cli: $pass checks, $fail failed"
[ "$fail" -eq 0 ]
