#!/usr/bin/env bash
# Runs every test program in DIR (default build/tests), then, with
# --bn254 DIR2, every test program of the BN254 build in DIR2 (reported as
# bn254/test_x), then every executable script tests/test_*.sh with the
# build directory (the parent of DIR) as its argument, and prints the
# closing line "N passed, N failed, N skipped".
#   tests/run.sh [DIR] [--bn254 DIR2]
#
# SP_TEST_PROGRAMS (names, space-separated) is the list of test programs
# DIR should have, SP_TEST_PROGRAMS_BN254 that of DIR2 (the Makefile sets
# them: some exist for one curve only); default: one per tests/test_*.c.
# SP_TEST_SCRIPTS, when set (even empty), replaces the scripts
# tests/test_*.sh by the ones it names.
#
# A test that cannot run here (a library, a tool or a browser missing)
# exits 77 and says why: it is counted as skipped, never as passed. A test
# program of the list that was not built (the daemon's, without
# libmicrohttpd and libinih) is skipped too, by name.
# Exit status 1 when any failed, or when any was skipped and
# SP_TEST_NO_SKIP=1 (CI sets it: there, everything must run).
dir=${1:-build/tests}
bn_dir=
[ "${2:-}" = --bn254 ] && bn_dir=${3:?--bn254 needs a directory}
here=$(dirname "$0")
# `snarkpipe prove` keeps checked keys in ~/.cache/snarkpipe by default: the
# tests use a throw-away key cache of their own, never the user's.
kcache=$(mktemp -d "${TMPDIR:-/tmp}/sp_test_kcache.XXXXXX")
# Each test's output is kept there too, so that the closing lines can
# repeat what a failed test said (CI shows only the end of the log).
logs=$kcache/logs
mkdir -p "$logs"
trap 'rm -rf "$kcache"' EXIT
export SNARKPIPE_CACHE_DIR=$kcache/snarkpipe
pass=0; fail=0; skip=0; failed=(); skipped=()
all_programs=()
for src in "$here"/test_*.c; do all_programs+=("$(basename "$src" .c)"); done

# run_one NAME PROGRAM [ARGS...]
run_one() {
    local name=$1 start rc=0 status log
    shift
    log=$logs/${name//\//_}.log
    start=$(date +%s.%N)
    # (a process substitution, not a pipe: a server a test leaves behind
    # holding the output cannot stall the run)
    "$@" > >(tee "$log") 2>&1 || rc=$?
    if [ "$rc" -eq 0 ]; then pass=$((pass + 1)); status=ok
    elif [ "$rc" -eq 77 ]; then skip=$((skip + 1)); skipped+=("$name"); status=skipped
    else fail=$((fail + 1)); failed+=("$name"); status=FAILED; fi
    printf "== %s %s (%ss)\n" "$name" "$status" "$(awk -v a="$start" -v b="$(date +%s.%N)" "BEGIN{printf \"%.1f\", b-a}")"
}

# run_dir DIR PREFIX NAMES...: the listed test programs of one build.
run_dir() {
    local d=$1 prefix=$2 name
    shift 2
    for name in "$@"; do
        if [ -x "$d/$name" ]; then
            run_one "$prefix$name" "$d/$name"
        else
            skip=$((skip + 1)); skipped+=("$prefix$name")
            echo "== $prefix$name skipped (not built: the daemon's tests need libmicrohttpd and libinih; scripts/deps.sh)"
        fi
    done
}

if [ -n "${SP_TEST_PROGRAMS+set}" ]; then read -r -a programs <<<"$SP_TEST_PROGRAMS"; else programs=("${all_programs[@]}"); fi
run_dir "$dir" "" "${programs[@]}"
if [ -n "$bn_dir" ]; then
    if [ -n "${SP_TEST_PROGRAMS_BN254+set}" ]; then read -r -a programs <<<"$SP_TEST_PROGRAMS_BN254"; else programs=("${all_programs[@]}"); fi
    run_dir "$bn_dir" "bn254/" "${programs[@]}"
fi
if [ -n "${SP_TEST_SCRIPTS+set}" ]; then
    read -r -a names <<<"$SP_TEST_SCRIPTS"
    scripts=()
    for s in "${names[@]}"; do scripts+=("$here/$s"); done
else
    scripts=("$here"/test_*.sh)
fi
for t in "${scripts[@]}"; do
    [ -x "$t" ] || continue
    run_one "$(basename "$t")" "$t" "$(dirname "$dir")"
done
# what each failed test said: its seed, its failed checks and its last lines
for name in "${failed[@]}"; do
    log=$logs/${name//\//_}.log
    echo "-- $name said:"
    { grep -m 3 -E 'seed|replay' "$log"; grep -m 8 -iE 'check failed|FAIL|error|Sanitizer|Segmentation|Abort' "$log"
      tail -n 6 "$log"; } | awk '!seen[$0]++' | cut -c1-300
done
[ ${#failed[@]} -gt 0 ] && echo "failed: ${failed[*]}"
[ ${#skipped[@]} -gt 0 ] && echo "skipped: ${skipped[*]}"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ] && { [ "$skip" -eq 0 ] || [ "${SP_TEST_NO_SKIP:-0}" != 1 ]; }
