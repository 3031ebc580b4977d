#!/usr/bin/env bash
# Builds the libFuzzer targets (make fuzz) and runs each for a fixed time
# over a scratch copy of its seed corpus (tests/fuzz/corpus/<name>), so the
# repository is never written to. One line per target; exits 1 when any
# target finds a crash, a leak, a timeout or an out-of-memory (and prints
# where the reproducer was saved), or when one of the committed reproducers
# tests/fuzz/crashes/<target>-*.bin, run first, still fails.
#
#   scripts/fuzz.sh [target ...]     (default: every target of the curve, make fuzz-list)
#   FUZZ_SECONDS=20   seconds per target
#   CURVE=bn254       the BN254 build of the targets (default bls12-381)
#   FUZZ_BUILD=build-fuzz   build directory (make fuzz FUZZ_BUILD=...; default
#                     build-fuzz, build-fuzz-bn254 with CURVE=bn254)
#   FUZZ_KEEP=1       keep the scratch directory (grown corpora, logs)
#
# Needs clang with its fuzzer runtime (Debian 12: clang libclang-rt-14-dev).
# A reproducer runs alone with: $FUZZ_BUILD/fuzz/fuzz_<name> <file>
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_EACH=${FUZZ_SECONDS:-20}
CURVE=${CURVE:-bls12-381}
default_build=build-fuzz
if [ "$CURVE" = bn254 ]; then default_build=build-fuzz-bn254; fi
BUILD_DIR=${FUZZ_BUILD:-$default_build}
CC_FUZZ=${FUZZ_CC:-clang}

if ! command -v "$CC_FUZZ" >/dev/null; then
    echo "fuzz.sh: $CC_FUZZ not found (Debian: apt-get install clang libclang-rt-14-dev)" >&2
    exit 2
fi
make -s -j"$(nproc)" fuzz CURVE="$CURVE" FUZZ_BUILD="$BUILD_DIR" FUZZ_CC="$CC_FUZZ" >/dev/null

if [ $# -gt 0 ]; then
    targets=("$@")
else
    mapfile -t targets < <(make -s --no-print-directory fuzz-list CURVE="$CURVE")
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/sp-fuzz.XXXXXX")
cleanup() { [ "${FUZZ_KEEP:-0}" = 1 ] || rm -rf "$scratch"; }
trap cleanup EXIT

failed=0
for t in "${targets[@]}"; do
    bin=$BUILD_DIR/fuzz/fuzz_$t
    seeds=tests/fuzz/corpus/$t
    if [ ! -x "$bin" ] || [ ! -d "$seeds" ]; then
        echo "fuzz_$t: FAIL (no binary $bin or no corpus $seeds)"
        failed=1
        continue
    fi
    mkdir -p "$scratch/$t/corpus" "$scratch/$t/crash"
    # Reproducers of bugs found before (tests/fuzz/crashes/<target>-*.bin) must pass first.
    repro=()
    for f in tests/fuzz/crashes/"$t"-*.bin; do
        [ -f "$f" ] && repro+=("$f")
    done
    if [ ${#repro[@]} -gt 0 ] && ! "$bin" "${repro[@]}" >"$scratch/$t/repro.log" 2>&1; then
        failed=1
        FUZZ_KEEP=1
        echo "fuzz_$t: FAIL (a reproducer in tests/fuzz/crashes still fails; log: $scratch/$t/repro.log)"
        grep -E '^(Running: |==[0-9]+==ERROR|SUMMARY|fuzz invariant failed|.*runtime error)' "$scratch/$t/repro.log" |
            tail -n 4 | sed 's/^/    /'
        continue
    fi
    cp "$seeds"/* "$scratch/$t/corpus/" 2>/dev/null || true
    n_seeds=$(find "$scratch/$t/corpus" -type f | wc -l)
    log=$scratch/$t/log
    rc=0
    TMPDIR=$scratch/$t "$bin" "$scratch/$t/corpus" -max_total_time="$SECONDS_EACH" -timeout=30 \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$scratch/$t/crash/" >"$log" 2>&1 || rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n1)
    n_corpus=$(find "$scratch/$t/corpus" -type f | wc -l)
    artifact=$(find "$scratch/$t/crash" -type f | head -n1)
    if [ "$rc" -eq 0 ] && [ -z "$artifact" ]; then
        echo "fuzz_$t: ok, ${runs:-?} runs in ${SECONDS_EACH} s, corpus $n_seeds -> $n_corpus"
        continue
    fi
    failed=1
    FUZZ_KEEP=1
    echo "fuzz_$t: FAIL (exit $rc) reproducer: ${artifact:-none}, log: $log"
    grep -E '^(==[0-9]+==ERROR|SUMMARY|fuzz invariant failed|.*runtime error)' "$log" | head -n 5 | sed 's/^/    /'
done
[ "$failed" -eq 0 ] || echo "fuzz.sh: failures above; scratch directory kept: $scratch"
exit "$failed"
