#!/bin/sh
# Whole Groth16 proofs on a GPU at large sizes, in one go: for each size K
# and witness kind, `gen-circuit` (2^K - 2 constraints, so that with the
# public input rows the domain is exactly 2^K), `setup --backend cuda`
# (timed, its phases in JSON), then `bench prove --backend cuda:0` (key
# read once without subgroup checks, since we just made it, and resident in
# VRAM; one untimed warm-up; median of SP_REPS, with the median of each
# stage the backend reports (--stages); the last proof verified).
#
#   bench/prove-gpu.sh BUILD [K...]        (default K: 24)
#   environment: SP_BOOL="0 0.7" the witness kinds (share of 0/1 values)
#                SP_CPU_K=20     also prove on the CPU for sizes <= this
#                SP_CURVE=bn254  the curve (default: the binary's default,
#                                BLS12-381)
#                SP_REPS=3       timed proofs per size (the median is printed)
set -eu
B=${1:?usage: bench/prove-gpu.sh BUILD [K...]}
shift
S="$B/snarkpipe${SP_CURVE:+ --curve $SP_CURVE}"
REPS=${SP_REPS:-3}
W=$(mktemp -d "${TMPDIR:-/tmp}/sp-prove-gpu.XXXXXX")
trap 'rm -rf "$W"' EXIT
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
rc=0
for K in "${@:-24}"; do
    for F in ${SP_BOOL:-0 0.7}; do
        echo "== 2^$K domain, witness $F 0/1"
        t=$(now)
        $S --quiet gen-circuit --constraints $(((1 << K) - 2)) --bool-fraction "$F" "$W/c.r1cs" "$W/c.wtns"
        echo "gen-circuit: $(since "$t") s"
        $S --json setup --backend cuda:0 "$W/c.r1cs" "$W/c.zkey" || { rc=1; continue; }
        rm -f "$W/c.r1cs"
        $S bench prove "$W/c.zkey" "$W/c.wtns" --backend cuda:0 --skip-subgroup-check --reps "$REPS" --stages || rc=1
        if [ "$K" -le "${SP_CPU_K:-20}" ]; then
            $S bench prove "$W/c.zkey" "$W/c.wtns" --backend cpu --skip-subgroup-check --reps "$REPS" || rc=1
        fi
        rm -f "$W/c.zkey" "$W/c.wtns"
    done
done
exit $rc
