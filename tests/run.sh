#!/usr/bin/env bash
# Runs every test program in $1 (default build/tests), then every
# executable script tests/test_*.sh with the build directory (the parent of
# $1) as its argument, and prints the closing line "N passed, N failed".
# Exit status 1 when any failed.
dir=${1:-build/tests}
pass=0; fail=0; failed=()
for t in "$dir"/test_* "$(dirname "$0")"/test_*.sh; do
    [ -x "$t" ] || continue
    name=$(basename "$t")
    start=$(date +%s.%N)
    args=()
    case $t in *.sh) args=("$(dirname "$dir")") ;; esac
    if "$t" "${args[@]}"; then pass=$((pass + 1)); status=ok; else fail=$((fail + 1)); failed+=("$name"); status=FAILED; fi
    printf "== %s %s (%ss)\n" "$name" "$status" "$(awk -v a="$start" -v b="$(date +%s.%N)" "BEGIN{printf \"%.1f\", b-a}")"
done
[ ${#failed[@]} -gt 0 ] && echo "failed: ${failed[*]}"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
