#!/usr/bin/env bash
# Runs every test program in $1 (default build/tests), then every
# executable script tests/test_*.sh with the build directory (the parent of
# $1) as its argument, and prints the closing line
# "N passed, N failed, N skipped".
#
# SP_TEST_PROGRAMS (names, space-separated) is the list of test programs
# this build should have (the Makefile sets it: some exist for one curve
# only); default: one per tests/test_*.c. SP_TEST_SCRIPTS, when set (even
# empty), replaces the scripts tests/test_*.sh by the ones it names.
#
# A test that cannot run here (a library, a tool or a browser missing)
# exits 77 and says why: it is counted as skipped, never as passed. A test
# program of tests/test_*.c that was not built (the daemon's, without
# libmicrohttpd and libinih) is skipped too, by name.
# Exit status 1 when any failed, or when any was skipped and
# SP_TEST_NO_SKIP=1 (CI sets it: there, everything must run).
dir=${1:-build/tests}
here=$(dirname "$0")
pass=0; fail=0; skip=0; failed=(); skipped=()
if [ -n "${SP_TEST_PROGRAMS+set}" ]; then
    read -r -a programs <<<"$SP_TEST_PROGRAMS"
else
    programs=()
    for src in "$here"/test_*.c; do programs+=("$(basename "$src" .c)"); done
fi
if [ -n "${SP_TEST_SCRIPTS+set}" ]; then
    read -r -a names <<<"$SP_TEST_SCRIPTS"
    scripts=()
    for s in "${names[@]}"; do scripts+=("$here/$s"); done
else
    scripts=("$here"/test_*.sh)
fi
runnable=()
for name in "${programs[@]}"; do
    if [ ! -x "$dir/$name" ]; then
        skip=$((skip + 1)); skipped+=("$name")
        echo "== $name skipped (not built: the daemon's tests need libmicrohttpd and libinih; scripts/deps.sh)"
    else
        runnable+=("$dir/$name")
    fi
done
for t in "${runnable[@]}" "${scripts[@]}"; do
    [ -x "$t" ] || continue
    name=$(basename "$t")
    start=$(date +%s.%N)
    args=()
    case $t in *.sh) args=("$(dirname "$dir")") ;; esac
    rc=0
    "$t" "${args[@]}" || rc=$?
    if [ "$rc" -eq 0 ]; then pass=$((pass + 1)); status=ok
    elif [ "$rc" -eq 77 ]; then skip=$((skip + 1)); skipped+=("$name"); status=skipped
    else fail=$((fail + 1)); failed+=("$name"); status=FAILED; fi
    printf "== %s %s (%ss)\n" "$name" "$status" "$(awk -v a="$start" -v b="$(date +%s.%N)" "BEGIN{printf \"%.1f\", b-a}")"
done
[ ${#failed[@]} -gt 0 ] && echo "failed: ${failed[*]}"
[ ${#skipped[@]} -gt 0 ] && echo "skipped: ${skipped[*]}"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ] && { [ "$skip" -eq 0 ] || [ "${SP_TEST_NO_SKIP:-0}" != 1 ]; }
