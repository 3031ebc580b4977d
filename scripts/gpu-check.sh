#!/bin/sh
# GPU-vs-CPU equality tests, end-to-end proofs on the GPU and the GPU
# tables, in one go, on a machine with a CUDA device (gpu/sp_cuda.h,
# gpu/backend/; the checks in tests/gpu/, the timings in bench/gpu/).
# Under 10 minutes on an H200.
#
#   scripts/gpu-check.sh [BUILD_DIR] [options]
#     BUILD_DIR   default "build"; tests/gpu/gpu_check, bench/gpu/gpu_bench
#                 and a CUDA=1 snarkpipe are built there with make unless they
#                 already exist (gpu_bench not needed with --no-bench;
#                 SP_GPU_REBUILD=1 forces the build). The
#                 curve checked is the build's: a CURVE=bn254 build directory
#                 (build-bn254, build-cuda-bn254, ...; made with CURVE=bn254
#                 when it has "bn254" in its name) checks BN254 (its gpu_check
#                 against its CPU backend, the bn128 vectors, every snarkpipe
#                 command with --curve bn254); any other checks BLS12-381
#     options     (given to both gpu_check and gpu_bench, each taking its own)
#                 --quick  --no-checks (no gpu_check)  --no-bench (no gpu_bench)
#                 --witness  --g1 LOG  --g2 LOG  --ntt LOG  --device N
#                 --stream (only the streamed-MSM and streamed-key checks and
#                 rows)  --only field|ntt|msm|split|hstep (of the checks only that group)
#                 (--witness: of the timing tables only the plain vs split
#                 MSMs on witness-like scalars)
#   environment
#     SP_GPU_E2E=0          skip the end-to-end part (proofs, engine)
#     SP_GPU_BIG_LOG=K      generated circuit of 2^K constraints (default 20)
#     SP_GPU_SETUP_LIMIT=S  seconds the setup of 2^K may take before the
#                           script falls back to 2^18 (default 150)
#     SP_GPU_PTAU=FILE      a .ptau of the build's curve for part 5's larger setup
#     SP_GPU_STREAM_CAP=B   SP_CUDA_MEM_LIMIT for the streamed-key proof of part 3
#                           (default 3 x 2^(K-12) MiB: 768M for 2^20)
#
# Parts: 1. gpu_check (field, NTT, MSM, split MSM, H step, backend, streaming
# and fixed-base checks against the CPU), then gpu_bench (the timing table,
# every timed result checked too); 2. the chain1021
# zkey proved on the GPU with fixed r, s (byte for byte = snarkjs'
# proof_fixed_rs.json), also under a device memory cap that no MSM fits
# (SP_CUDA_MEM_LIMIT=16M: the MSMs fall back to the CPU), and with fresh r,
# s (verified); 3. a generated circuit (70% of the witness 0/1) set up
# with the key's points made on the GPU (setup --backend cuda:N; also on
# the CPU, timed, its key proved on the GPU), the GPU key's .zkey read
# back and proved on GPU and CPU with the same fixed r, s (the two proofs must be
# identical), both verified, and once more on the GPU under a cap that
# leaves the key in host memory (streamed in chunks: the proof must be
# identical again); 4. the engine (bench pipeline) with backends=cuda:0,
# with backends=cpu and with backends=cuda:0 under SP_CUDA_MEM_LIMIT=256M;
# 5. the setup from a .ptau on the GPU: snarkjs' power-2 files (prepared
# and not) give snarkjs' key byte for byte, ptau-prepare on the GPU gives
# snarkjs' prepared file; with SP_GPU_PTAU=FILE also a circuit filling that
# file's power, set up and prepared on GPU and CPU (identical files, timed),
# its key proving.
# Exit status 0 only when every check of every part passed.
set -eu
cd "$(dirname "$0")/.."
B=build
case "${1:-}" in
    -*|"") ;;
    *) B=$1; shift ;;
esac
S=$B/snarkpipe
case "$B" in
    *bn254*) MK_CURVE=bn254 ;;
    *) MK_CURVE=bls12-381 ;;
esac
device=0
checks=1
bench=1
prev=
for a in "$@"; do
    [ "$prev" = --device ] && device=$a
    [ "$a" = --no-checks ] && checks=0
    [ "$a" = --no-bench ] && bench=0
    prev=$a
done
GC=$B/tests/gpu/gpu_check
GB=$B/bench/gpu/gpu_bench
# A snarkpipe linked with the CUDA backend holds the backend's strings (a
# string, unlike a symbol name, survives strip: carried binaries are stripped).
# gpu_check names the curve, so it is needed even with --no-checks.
if [ "${SP_GPU_REBUILD:-0}" = 1 ] || [ ! -x "$GC" ] || { [ $bench = 1 ] && [ ! -x "$GB" ]; } ||
   [ ! -x "$S" ] || ! grep -qa SP_CUDA_MEM_LIMIT "$S"; then
    rm -f "$S" # a CPU-only snarkpipe is relinked with the CUDA backend
    make CURVE=$MK_CURVE BUILD="$B" CUDA=1 -j"$(nproc)" gpu "$S"
fi
# the curve gpu_check was built for decides the vectors and snarkpipe's --curve
C=$("$GC" --curve)
case "$C" in
    bls12-381) V=tests/vectors/chain1021_bls12381 ;;
    bn254) V=tests/vectors/chain1021_bn128 ;;
    *) echo "gpu-check: $GC names no known curve ('$C')" >&2; exit 2 ;;
esac
[ $bench = 0 ] || [ "$("$GB" --curve)" = "$C" ] || { echo "gpu-check: $GB is not for $C" >&2; exit 2; }
echo "curve: $C ($B)"
# (a build directory is a path without spaces: make needs that too)
SP="$S --curve $C"
if command -v nvidia-smi >/dev/null 2>&1; then
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw \
        --format=csv,noheader || true
fi
rc=0
if [ $checks = 1 ]; then
    echo "== 1. gpu_check"
    "$GC" "$@" || rc=1
fi
if [ $bench = 1 ]; then
    echo "== 1. gpu_bench"
    "$GB" "$@" || rc=1
fi
[ "${SP_GPU_E2E:-1}" = 0 ] && exit $rc

W=$(mktemp -d "${TMPDIR:-/tmp}/sp-gpu-check.XXXXXX")
trap 'rm -rf "$W"' EXIT
T=$W/table
fails=0
ok() { echo "PASS: $*"; }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
# json_num FILE KEY: the first number after "KEY": in FILE
json_num() { sed -n "s/.*\"$2\":\([0-9.e+-]*\).*/\1/p" "$1" | head -n 1; }
row() { printf '| %s | %s | %s |\n' "$1" "$2" "$3" >>"$T"; }
: >"$T"
BE=cuda:$device

echo "== 2. chain1021 on $BE"
RS=12345,67890
for g2 in gpu cpu; do
    if $SP prove --quiet --backend "$BE" --g2 $g2 --insecure-fixed-rs $RS "$V/circuit_final.zkey" "$V/witness.wtns" \
        "$W/fixed.json" "$W/fixed_pub.json" 2>"$W/err" &&
       cmp -s "$W/fixed.json" "$V/proof_fixed_rs.json" && cmp -s "$W/fixed_pub.json" "$V/public_fixed_rs.json"; then
        ok "chain1021 fixed r,s on $BE (--g2 $g2) = proof_fixed_rs.json byte for byte"
    else
        bad "chain1021 fixed r,s on $BE (--g2 $g2): $(cat "$W/err")"
    fi
done
if SP_CUDA_MEM_LIMIT=16M $SP prove --quiet --backend "$BE" --insecure-fixed-rs $RS "$V/circuit_final.zkey" \
       "$V/witness.wtns" "$W/capped.json" "$W/capped_pub.json" 2>"$W/err" &&
   cmp -s "$W/capped.json" "$V/proof_fixed_rs.json" && grep -q "MSM of .* on the CPU" "$W/err"; then
    ok "chain1021 fixed r,s on $BE with SP_CUDA_MEM_LIMIT=16M (MSMs on the CPU, logged) = proof_fixed_rs.json"
else
    bad "chain1021 fixed r,s on $BE with SP_CUDA_MEM_LIMIT=16M: $(cat "$W/err")"
fi
if $SP prove --json --backend "$BE" "$V/circuit_final.zkey" "$V/witness.wtns" "$W/fresh.json" "$W/fresh_pub.json" \
       >"$W/out" 2>"$W/err" && grep -q "\"backend\":\"$BE\"" "$W/out" &&
   $SP verify --quiet "$V/verification_key.json" "$W/fresh_pub.json" "$W/fresh.json"; then
    ok "chain1021 fresh r,s on $BE verifies"
    row "chain1021 (2^10) prove on $BE, fresh r,s" "$(json_num "$W/out" prove)" "s, verified"
else
    bad "chain1021 fresh r,s on $BE: $(cat "$W/err")"
fi

echo "== 3. generated circuit"
LOG=${SP_GPU_BIG_LOG:-20}
setup_big() {
    # 2^K - 2 constraints: with the public input and wire 0 the domain is 2^K
    $SP gen-circuit --quiet --constraints $(((1 << $1) - 2)) --bool-fraction 0.7 "$W/big.r1cs" "$W/big.wtns" &&
        timeout "$2" $SP --json setup --backend "$BE" "$W/big.r1cs" "$W/big.zkey" >"$W/setup.out" 2>"$W/err"
}
# setup_row FILE WHERE: the row of a setup's --json summary
setup_row() {
    row "setup, domain 2^$LOG (development), points on $2" "$(json_num "$1" setup)" \
        "s: scalars $(json_num "$1" scalars) s, G1 $(json_num "$1" g1) s, G2 $(json_num "$1" g2) s; then write $(json_num "$1" write) s"
}
t0=$(now)
if ! setup_big "$LOG" "${SP_GPU_SETUP_LIMIT:-150}"; then
    echo "setup of 2^$LOG did not finish in ${SP_GPU_SETUP_LIMIT:-150} s ($(since "$t0") s): using 2^18"
    row "setup 2^$LOG (development, points on $BE)" "> ${SP_GPU_SETUP_LIMIT:-150}" "s, abandoned"
    LOG=18
    t0=$(now)
    setup_big 18 600 || bad "setup of 2^18: $(cat "$W/err")"
fi
row "gen-circuit + setup + write, domain 2^$LOG, points on $BE" "$(since "$t0")" "s, $(nproc) host cores"
if grep -q "\"backend\":\"$BE\"" "$W/setup.out"; then
    ok "setup --backend $BE of 2^$LOG ran on $BE"
    setup_row "$W/setup.out" "$BE"
else
    bad "setup --backend $BE of 2^$LOG: $(cat "$W/setup.out" "$W/err")"
fi
$SP export-vkey --quiet "$W/big.zkey" "$W/big_vk.json" || bad "export-vkey"
# the same circuit set up on the CPU, for the time; its key proves on the GPU
if timeout 900 $SP --json setup --backend cpu "$W/big.r1cs" "$W/big_cpu.zkey" >"$W/setup_cpu.out" 2>"$W/err" &&
   $SP export-vkey --quiet "$W/big_cpu.zkey" "$W/big_cpu_vk.json" &&
   $SP prove --quiet --skip-subgroup-check --backend "$BE" "$W/big_cpu.zkey" "$W/big.wtns" "$W/bc.json" "$W/bc.pub" \
       2>"$W/err" &&
   $SP verify --quiet "$W/big_cpu_vk.json" "$W/bc.pub" "$W/bc.json"; then
    ok "2^$LOG: a key set up on the CPU proves on $BE and verifies"
    setup_row "$W/setup_cpu.out" "the CPU ($(nproc) cores)"
else
    bad "2^$LOG setup on the CPU: $(cat "$W/setup_cpu.out" "$W/err")"
fi
rm -f "$W/big_cpu.zkey"
for be in "$BE" cpu; do
    f=$W/big_$(echo "$be" | tr : _)
    if $SP prove --json --skip-subgroup-check --backend "$be" --insecure-fixed-rs $RS "$W/big.zkey" "$W/big.wtns" \
           "$f.json" "$f.pub" >"$f.out" 2>"$W/err" &&
       $SP verify --quiet "$W/big_vk.json" "$f.pub" "$f.json"; then
        ok "2^$LOG proof on $be verifies"
        row "domain 2^$LOG prove on $be (70% of the witness 0/1)" "$(json_num "$f.out" prove)" \
            "s, verified (on a GPU: key upload included); key read $(json_num "$f.out" read_key) s"
    else
        bad "2^$LOG proof on $be: $(cat "$W/err")"
    fi
done
if cmp -s "$W/big_cuda_$device.json" "$W/big_cpu.json"; then
    ok "2^$LOG: GPU and CPU proofs with the same r,s are identical"
else
    bad "2^$LOG: GPU and CPU proofs with the same r,s differ"
fi
CAP=${SP_GPU_STREAM_CAP:-$((3 << (LOG - 12)))M}
f=$W/big_capped
if SP_CUDA_MEM_LIMIT=$CAP $SP prove --json --skip-subgroup-check --backend "$BE" --insecure-fixed-rs $RS \
       "$W/big.zkey" "$W/big.wtns" "$f.json" "$f.pub" >"$f.out" 2>"$W/err" &&
   grep -q "streamed from host memory" "$W/err" && cmp -s "$f.json" "$W/big_cpu.json"; then
    ok "2^$LOG on $BE with SP_CUDA_MEM_LIMIT=$CAP (key streamed): proof identical to the CPU's"
    row "domain 2^$LOG prove on $BE, SP_CUDA_MEM_LIMIT=$CAP" "$(json_num "$f.out" prove)" \
        "s; $(grep -o '[0-9.]* MiB resident, [0-9.]* MiB ([a-z0-9, ]*) streamed' "$W/err" | head -n 1)"
else
    bad "2^$LOG on $BE with SP_CUDA_MEM_LIMIT=$CAP: $(cat "$W/err")"
fi

echo "== 4. engine (bench pipeline, built-in circuit of 2^16 - 2 constraints)"
for be in "$BE" cpu "$BE"@256M; do
    lim=${be#*@}
    [ "$lim" = "$be" ] && lim=
    be=${be%@*}
    if SP_CUDA_MEM_LIMIT=$lim $SP --json bench pipeline --constraints 65534 -c 8 -j 4 -p 2 --no-isolation \
           --set backends="$be" >"$W/eng.out" 2>"$W/err" && [ "$(json_num "$W/eng.out" failed)" = 0 ]; then
        ok "engine backends=$be${lim:+ (SP_CUDA_MEM_LIMIT=$lim)}: 8 jobs x 2 partitions proved and verified"
        row "engine backends=$be${lim:+ under SP_CUDA_MEM_LIMIT=$lim}, domain 2^16, 8 jobs x 2 partitions, 4 in flight" \
            "$(json_num "$W/eng.out" s_per_proof)" \
            "s/proof; GPU efficiency (device lock held / wall) $(json_num "$W/eng.out" gpu_efficiency)"
    else
        bad "engine backends=$be: $(cat "$W/err" "$W/eng.out")"
    fi
done

# the host copy of the resident key arrays dropped: all five with room, under
# a cap only those that stayed resident (or, none resident, a clean refusal)
for lim in "" 256M; do
    if SP_CUDA_MEM_LIMIT=$lim $SP --json bench pipeline --constraints 65534 -c 4 -j 2 -p 2 --no-isolation \
           --release-host-key --set g2_on_device=1 --set backends="$BE" >"$W/eng.out" 2>"$W/err" &&
        [ "$(json_num "$W/eng.out" failed)" = 0 ] && grep -q 'host copy of the key dropped' "$W/err" &&
        { [ -n "$lim" ] || grep -q 'dropped: h, a, b1, c, b2 ' "$W/err"; }; then
        ok "engine backends=$BE --release-host-key${lim:+ (SP_CUDA_MEM_LIMIT=$lim)}: $(grep -o 'dropped: [a-z0-9, ]*' "$W/err"), 4 jobs proved and verified"
    elif [ -n "$lim" ] && grep -q 'no key array is resident on every device' "$W/err"; then
        ok "engine backends=$BE --release-host-key (SP_CUDA_MEM_LIMIT=$lim): nothing resident, refused"
    else
        bad "engine backends=$BE --release-host-key${lim:+ (SP_CUDA_MEM_LIMIT=$lim)}: $(cat "$W/err" "$W/eng.out")"
    fi
done

echo "== 5. setup from a .ptau on $BE"
# snarkjs' power-2 ceremony (prepared and not) and its setup of the multiplier;
# SP_GPU_PTAU=FILE adds a larger .ptau of the curve (a circuit filling its power)
PC=$(echo "$V" | sed 's/.*_//')
PV=tests/vectors/ptau
MUL=tests/vectors/multiplier_$PC
for pot in "$PV/pot2_$PC.ptau" "$PV/pot2_${PC}_raw.ptau"; do
    if $SP setup --quiet --backend "$BE" "$MUL/circuit.r1cs" "$pot" "$W/mul_gpu.zkey" 2>"$W/err" &&
       cmp -s "$W/mul_gpu.zkey" "$PV/multiplier_${PC}_0000.zkey"; then
        ok "setup --backend $BE from $(basename "$pot") = snarkjs' groth16 setup byte for byte"
    else
        bad "setup --backend $BE from $(basename "$pot"): $(cat "$W/err")"
    fi
done
if $SP ptau-prepare --quiet --backend "$BE" "$PV/pot2_${PC}_raw.ptau" "$W/pot2_gpu.ptau" 2>"$W/err" &&
   cmp -s "$W/pot2_gpu.ptau" "$PV/pot2_$PC.ptau"; then
    ok "ptau-prepare --backend $BE = snarkjs' powersoftau prepare phase2 byte for byte"
else
    bad "ptau-prepare --backend $BE: $(cat "$W/err")"
fi
if [ -n "${SP_GPU_PTAU:-}" ]; then
    K=$($SP info --json "$SP_GPU_PTAU" | sed -n 's/.*"power":\([0-9]*\).*/\1/p')
    $SP gen-circuit --quiet --constraints $(((1 << K) - 2)) --public 1 --bool-fraction 0.7 "$W/pt.r1cs" "$W/pt.wtns" ||
        bad "gen-circuit of 2^$K"
    for be in "$BE" cpu; do
        f=$W/pt_$(echo "$be" | tr : _)
        if $SP --json setup --backend "$be" "$W/pt.r1cs" "$SP_GPU_PTAU" "$f.zkey" >"$f.out" 2>"$W/err"; then
            row "setup from $(basename "$SP_GPU_PTAU") (power $K), domain 2^$K, on $be" "$(json_num "$f.out" setup)" "s"
        else
            bad "setup from $SP_GPU_PTAU on $be: $(cat "$W/err")"
        fi
        if $SP --json ptau-prepare --backend "$be" "$SP_GPU_PTAU" "$f.ptau" >"$f.pout" 2>"$W/err"; then
            row "ptau-prepare of power $K on $be" "$(json_num "$f.pout" seconds)" "s"
        else
            bad "ptau-prepare of $SP_GPU_PTAU on $be: $(cat "$W/err")"
        fi
    done
    g=$W/pt_$(echo "$BE" | tr : _)
    if cmp -s "$g.zkey" "$W/pt_cpu.zkey" && cmp -s "$g.ptau" "$W/pt_cpu.ptau"; then
        ok "power $K: the setup and the prepared .ptau on $BE are the CPU's byte for byte"
    else
        bad "power $K: the setup or the prepared .ptau on $BE differs from the CPU's"
    fi
    $SP export-vkey --quiet "$g.zkey" "$W/pt_vk.json" &&
        $SP prove --quiet --backend "$BE" "$g.zkey" "$W/pt.wtns" "$W/pt.json" "$W/pt.pub" &&
        $SP verify --quiet "$W/pt_vk.json" "$W/pt.pub" "$W/pt.json" &&
        ok "power $K: a proof with the key set up on $BE verifies" ||
        bad "power $K: a proof with the key set up on $BE"
fi

echo
echo "| what | value | unit / note |"
echo "|---|---|---|"
cat "$T"
echo
echo "end-to-end: $fails failed"
[ $fails = 0 ] || rc=1
exit $rc
