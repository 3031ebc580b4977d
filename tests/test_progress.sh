#!/usr/bin/env bash
# Progress lines of the CLI (util/progress.h) on a real terminal, made by
# script(1), and their absence everywhere else:
#   a. on a terminal: gen-circuit, setup, prove (the key checked, then
#      cached), prove --params, gen-circuit --kind porep-like draw their
#      stages' lines ("\r<stage>: <part>  NN%  T s"), erase them, and write
#      nothing else to the terminal than without progress;
#   b. stderr not a terminal: not one byte more than with progress off
#      (the same commands, stderr to a file: empty);
#   c. --quiet, before or after the command name: no line on a terminal.
# $SP_TEST_PROGRESS_NOW=1 (tests only) makes every update draw, so the
# lines do not depend on how long the steps take.
# Usage: tests/test_progress.sh BUILD (run.sh passes it).
set -u
build=${1:-build}
bin=$(cd "$build" && pwd)/snarkpipe
here=$(cd "$(dirname "$0")" && pwd)
vec=$here/vectors/chain1021_bls12381
[ -x "$bin" ] || { echo "test_progress: $bin not found (build first)"; exit 1; }
command -v script >/dev/null || { echo "test_progress: script(1) is needed (util-linux / bsdutils)"; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/sp_test_progress.XXXXXX")
trap 'rm -rf "$T"' EXIT
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
export SNARKPIPE_CACHE_DIR=$T/cache
export SP_TEST_PROGRESS_NOW=1
cd "$T" || exit 1
script -q -e -c true /dev/null >/dev/null 2>&1 || { echo "test_progress: script(1) cannot open a terminal here"; exit 1; }

check() { # NAME CMD...: CMD succeeds
    if "${@:2}"; then pass=$((pass + 1)); [ -z "${SP_TEST_VERBOSE:-}" ] || echo "ok   $1"
    else fail=$((fail + 1)); echo "FAIL $1"; sed 's/^/     | /' "$T/out" | tr '\r' '\n' | head -20; fi
}
# on_tty NAME CMD-STRING: runs it on a terminal; its session's bytes in $T/out
on_tty() { expect 0 "$1 (on a terminal)" script -q -e -c "$2" /dev/null; }
has_line() { grep -Eq $'\r'"$1" "$T/out"; }
no_cr() { ! grep -q $'\r[a-z]' "$T/out"; }

# a. on a terminal
on_tty "gen-circuit" "'$bin' gen-circuit --constraints 8192 --public 1 c.r1cs c.wtns"
check "a: gen-circuit draws its stage" has_line 'gen-circuit: constraints  *[0-9]+%  [0-9.]+ s'
check "a: and erases it" grep -q $'\r *\r' "$T/out"
on_tty "setup" "'$bin' setup c.r1cs c.zkey"
check "a: setup: its scalars" has_line "setup: scalars "
check "a: setup: G1 points" has_line "setup: G1 points "
check "a: setup: G2 points, done" has_line "setup: G2 points  100%"
on_tty "prove, key checked" "'$bin' prove c.zkey c.wtns p.json pub.json"
check "a: prove: the key's points checked" has_line "zkey: checking points: H "
check "a: prove: the cache entry written" has_line "key: writing its cache entry  *[0-9]+%"
check "a: prove: its MSMs" has_line "prove: MSM B2 \(G2\)  100%"
check "a: prove: the summary" grep -q "proved: .*key checked, cached" "$T/out"
on_tty "prove, key cached" "'$bin' prove c.zkey c.wtns p.json pub.json"
check "a: the cached key read back" has_line "key: reading the cached key  *[0-9]+%"
check "a: not checked" bash -c "! grep -q 'zkey: checking' '$T/out'"
on_tty "prove --skip-subgroup-check --no-key-cache" "'$bin' prove --skip-subgroup-check --no-key-cache c.zkey c.wtns p.json pub.json"
check "a: reading points without the subgroup checks" has_line "zkey: reading points: B2 "
"$bin" --quiet setup --bellperson "$vec/circuit.r1cs" k.params 2>/dev/null
on_tty "prove --params" "'$bin' prove --no-key-cache --params k.params --r1cs '$vec/circuit.r1cs' '$vec/witness.wtns' pp.json ppub.json"
check "a: params: checking points" has_line "params: checking points: b_g2 "
on_tty "porep-like" "'$bin' gen-circuit --kind porep-like --preset 2KiB --challenges 1 pr.r1cs pr.wtns"
check "a: porep-like recording" has_line "porep-like: recording  *[0-9]+%"
check "a: porep-like witness" has_line "porep-like: witness  *[0-9]+%"

# b. stderr not a terminal: nothing more than with progress off
run_plain() { # NAME CMD...: stderr of CMD (stdout discarded) into $T/NAME.err
    local name=$1 rc=0
    shift
    "$@" >/dev/null 2>"$T/$name.err" || rc=$?
    cp "$T/$name.err" "$T/out"
    check "b: $name: exit 0" test "$rc" = 0
    # (the one line that says a key cache entry was written is not progress)
    check "b: $name: no progress byte on a file" bash -c "! grep -v '^snarkpipe prove: key cache: kept the checked key ' \
        '$T/$name.err' | grep -q ."
}
rm -rf "$T/cache"
run_plain gen "$bin" gen-circuit --constraints 2048 --public 1 c2.r1cs c2.wtns
run_plain prove1 "$bin" prove c.zkey c.wtns p.json pub.json
run_plain prove2 "$bin" prove c.zkey c.wtns p.json pub.json
run_plain params "$bin" prove --params k.params --r1cs "$vec/circuit.r1cs" "$vec/witness.wtns" pp.json ppub.json

# c. --quiet on a terminal
rm -rf "$T/cache"
on_tty "--quiet before the command" "'$bin' --quiet prove c.zkey c.wtns p.json pub.json"
check "c: no line with --quiet before the command" no_cr
on_tty "--quiet after the command" "'$bin' prove --quiet c.zkey c.wtns p.json pub.json"
check "c: no line with --quiet after the command" no_cr
check "c: nothing at all on the terminal" test ! -s "$T/out"

echo "test_progress.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
