#!/usr/bin/env bash
# Runs every test program in DIR (default build/tests), then, with
# --bn254 DIR2, every test program of the BN254 build in DIR2 (named
# bn254/test_x in the report), then every executable script
# tests/test_*.sh with the build directory (the parent of DIR) as its
# argument, and prints the closing line "N passed, N failed, N skipped".
#   tests/run.sh [DIR] [--bn254 DIR2]
#
# A test that cannot run here (a library, a tool or a browser missing)
# exits 77 and says why: it is counted as skipped, never as passed. A test
# program of tests/test_*.c that was not built (the daemon's, without
# libmicrohttpd and libinih) is skipped too, by name; in the BN254 build,
# those of tests/bls12-381-only.txt are not expected.
# Exit status 1 when any failed, or when any was skipped and
# SP_TEST_NO_SKIP=1 (CI sets it: there, everything must run).
dir=${1:-build/tests}
bn_dir=
[ "${2:-}" = --bn254 ] && bn_dir=${3:?--bn254 needs a directory}
here=$(dirname "$0")
# `snarkpipe prove` keeps checked keys in ~/.cache/snarkpipe by default: the
# tests use a throw-away key cache of their own, never the user's.
kcache=$(mktemp -d "${TMPDIR:-/tmp}/sp_test_kcache.XXXXXX")
trap 'rm -rf "$kcache"' EXIT
export SNARKPIPE_CACHE_DIR=$kcache/snarkpipe
pass=0; fail=0; skip=0; failed=(); skipped=()
bls_only=$(sed -n 's/^\(test_[a-z0-9_]*\).*/\1/p' "$here/bls12-381-only.txt")

# run_one NAME PROGRAM [ARGS...]
run_one() {
    local name=$1 start rc=0 status
    shift
    start=$(date +%s.%N)
    "$@" || rc=$?
    if [ "$rc" -eq 0 ]; then pass=$((pass + 1)); status=ok
    elif [ "$rc" -eq 77 ]; then skip=$((skip + 1)); skipped+=("$name"); status=skipped
    else fail=$((fail + 1)); failed+=("$name"); status=FAILED; fi
    printf "== %s %s (%ss)\n" "$name" "$status" "$(awk -v a="$start" -v b="$(date +%s.%N)" "BEGIN{printf \"%.1f\", b-a}")"
}

# run_dir DIR PREFIX EXCLUDED: the test programs of one build.
run_dir() {
    local d=$1 prefix=$2 excluded=$3 src name t
    for src in "$here"/test_*.c; do
        name=$(basename "$src" .c)
        case " $excluded " in *" $name "*) continue ;; esac
        if [ ! -x "$d/$name" ]; then
            skip=$((skip + 1)); skipped+=("$prefix$name")
            echo "== $prefix$name skipped (not built: the daemon's tests need libmicrohttpd and libinih; scripts/deps.sh)"
        fi
    done
    for t in "$d"/test_*; do
        [ -x "$t" ] || continue
        case " $excluded " in *" $(basename "$t") "*) continue ;; esac # left over from an older build
        run_one "$prefix$(basename "$t")" "$t"
    done
}

run_dir "$dir" "" ""
[ -n "$bn_dir" ] && run_dir "$bn_dir" "bn254/" "$(echo $bls_only)"
for t in "$here"/test_*.sh; do
    [ -x "$t" ] || continue
    run_one "$(basename "$t")" "$t" "$(dirname "$dir")"
done
[ ${#failed[@]} -gt 0 ] && echo "failed: ${failed[*]}"
[ ${#skipped[@]} -gt 0 ] && echo "skipped: ${skipped[*]}"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ] && { [ "$skip" -eq 0 ] || [ "${SP_TEST_NO_SKIP:-0}" != 1 ]; }
