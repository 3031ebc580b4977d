#!/usr/bin/env bash
# The native window-post-like circuit through the CLI, against the real
# snarkjs 0.7.6, on a small shape (2 sectors of 2 challenges, 64 nodes):
#   a. gen-circuit writes .r1cs, .wtns and the recorded .sprec (--check on);
#      --dry-run gives the sizes the files have; the 32GiB preset's count is
#      within 5% of Filecoin's 125,279,217 with 25,840 inputs
#   b. our setup from the .r1cs -> snarkjs proves and verifies; we verify
#      snarkjs' proof
#   c. we prove from the .wtns -> snarkjs verifies; the public inputs are
#      snarkjs' byte for byte; another partition's witness gives other
#      public inputs, its proof verified by snarkjs too
#   d. the engine proves native jobs (bench pipeline --circuit
#      window-post-like, each witness made by the engine): every proof verified
#   e. setup from the .sprec -> a key that proves and verifies
#   f. usage and data errors
# Usage: tests/test_post_cli.sh BUILD
set -u
build=${1:-build}
bin=$build/snarkpipe
[ -x "$bin" ] || { echo "test_post_cli: $bin not found (build first)"; exit 1; }
command -v node >/dev/null && command -v npm >/dev/null || { echo "test_post_cli: node and npm are required"; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/sp_test_post.XXXXXX")
trap 'rm -rf "$T"' EXIT
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
snarkjs=$(need_snarkjs "$build") || exit 1

shape=(--kind window-post-like --sectors 2 --challenges 2 --nodes 64)
pshape=("${shape[@]:2}")

# a. the files, and the sizes --dry-run announces
expect 0 "gen-circuit window-post-like --check" "$bin" gen-circuit "${shape[@]}" --check --record "$T/c.sprec" \
    "$T/c.r1cs" "$T/c.wtns"
expect 0 "gen-circuit --dry-run --json" "$bin" --json gen-circuit "${shape[@]}" --dry-run
rows=$(sed -n 's/.*"constraints":\([0-9]*\).*/\1/p' "$T/out")
wires=$(sed -n 's/.*"wires":\([0-9]*\).*/\1/p' "$T/out")
expect 0 "info on the .r1cs" "$bin" --json info "$T/c.r1cs"
expect_out "\"constraints\":$rows[,}]" "the .r1cs has the announced constraints"
expect_out "\"wires\":$wires[,}]" "the .r1cs has the announced wires"
expect 0 "dry run writes nothing" "$bin" gen-circuit "${shape[@]}" --dry-run "$T/none.r1cs" "$T/none.wtns"
expect 1 "dry run wrote no file" test -e "$T/none.r1cs"
expect 0 "32GiB --dry-run" "$bin" --json gen-circuit --kind window-post-like --preset 32GiB --dry-run
big=$(sed -n 's/.*"constraints":\([0-9]*\).*/\1/p' "$T/out")
expect_out '"public_inputs":25839[,}]' "25,839 public inputs (25,840 with ONE)"
expect 0 "32GiB within 5% of Filecoin's 125,279,217 ($big)" \
    awk -v n="$big" 'BEGIN { r = n / 125279217; exit !(r > 0.95 && r < 1.05) }'

# b. our setup; snarkjs proves and verifies; we verify its proof
expect 0 "setup from the .r1cs" "$bin" --quiet setup "$T/c.r1cs" "$T/c.zkey"
expect 0 "export-vkey" "$bin" --quiet export-vkey "$T/c.zkey" "$T/vk.json"
expect 0 "snarkjs groth16 prove" "$snarkjs" groth16 prove "$T/c.zkey" "$T/c.wtns" "$T/sj_proof.json" "$T/sj_public.json"
expect 0 "snarkjs verifies its proof" "$snarkjs" groth16 verify "$T/vk.json" "$T/sj_public.json" "$T/sj_proof.json"
expect_out "OK!" "snarkjs says OK"
expect 0 "we verify snarkjs' proof" "$bin" verify "$T/vk.json" "$T/sj_public.json" "$T/sj_proof.json"

# c. our proof; snarkjs verifies; the same public inputs; another partition
expect 0 "our prove" "$bin" --quiet prove "$T/c.zkey" "$T/c.wtns" "$T/our_proof.json" "$T/our_public.json"
expect 0 "snarkjs verifies our proof" "$snarkjs" groth16 verify "$T/vk.json" "$T/our_public.json" "$T/our_proof.json"
expect_out "OK!" "snarkjs says OK to our proof"
expect 0 "public inputs identical to snarkjs'" cmp "$T/our_public.json" "$T/sj_public.json"
expect 0 "witness of partition 3 of seed 9" "$bin" --quiet gen-circuit "${shape[@]}" --seed 9 --partition 3 \
    --check "$T/p3.r1cs" "$T/p3.wtns"
expect 0 "same circuit for another partition" cmp "$T/p3.r1cs" "$T/c.r1cs"
expect 0 "our prove of partition 3" "$bin" --quiet prove "$T/c.zkey" "$T/p3.wtns" "$T/p3_proof.json" \
    "$T/p3_public.json"
expect 1 "another partition has other public inputs" cmp -s "$T/p3_public.json" "$T/sj_public.json"
expect 0 "snarkjs verifies partition 3" "$snarkjs" groth16 verify "$T/vk.json" "$T/p3_public.json" "$T/p3_proof.json"
expect_out "OK!" "snarkjs says OK to partition 3"
expect 1 "partition 3's proof fails on partition 0's inputs" "$bin" verify "$T/vk.json" "$T/sj_public.json" \
    "$T/p3_proof.json"

# d. the engine: native jobs, every proof verified by the engine
expect 0 "bench pipeline --circuit window-post-like" "$bin" bench pipeline --circuit window-post-like \
    "${pshape[@]}" --zkey "$T/c.zkey" -c 2 -j 2 -p 2 --no-isolation
expect_out "load \(c=2, j=2\)" "the engine proved the native jobs"

# e. record once: a setup from the .sprec proves and verifies
expect 0 "setup from the .sprec" "$bin" --quiet setup "$T/c.sprec" "$T/r.zkey"
expect 0 "prove with that key" "$bin" --quiet prove "$T/r.zkey" "$T/c.wtns" "$T/r_proof.json" "$T/r_public.json"
expect 0 "export its vkey" "$bin" --quiet export-vkey "$T/r.zkey" "$T/rvk.json"
expect 0 "snarkjs verifies it" "$snarkjs" groth16 verify "$T/rvk.json" "$T/r_public.json" "$T/r_proof.json"
expect_out "OK!" "snarkjs says OK to the .sprec key's proof"

# f. errors
expect 64 "unknown preset" "$bin" gen-circuit --kind window-post-like --preset 3KiB --dry-run
expect 64 "porep-like's options refused" "$bin" gen-circuit --kind window-post-like --layers 3 --dry-run
expect 64 "--sectors refused for porep-like" "$bin" gen-circuit --kind porep-like --sectors 3 --dry-run
expect 64 "nodes not a power of two" "$bin" gen-circuit --kind window-post-like --nodes 12 --dry-run
expect 64 "no sectors" "$bin" gen-circuit --kind window-post-like --sectors 0 --dry-run
expect 2 "a key of another circuit" "$bin" bench pipeline --circuit window-post-like --sectors 3 --challenges 2 \
    --nodes 64 --zkey "$T/c.zkey" -c 1 -j 1 -p 1 --no-isolation
expect_out "not the circuit's" "the message names the mismatch"

echo "test_post_cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
