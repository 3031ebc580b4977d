# What a device call's script shares (sourced from the repository root by
# bench/results/*/run*.sh since 2026-12-02 night; the older scripts keep
# their own copies, as they were run). Set DEVRUN_NAME, the call's name,
# before: its outputs go to /tmp/$DEVRUN_NAME and come back as
# $OUT/$DEVRUN_NAME.tgz whatever happens.
#   el             seconds since the start
#   unxz_to F G    F (xz) unpacked to G (xz, else Python's lzma)
#   devrun_unpack  build-devrun/*.xz to where make puts them
#   check DIR      gpu_check --quick --only msm of DIR's build, logged
#   proof_rows T   the proof and engine rows of the issue table
#   sppark_rows    the sppark harness
DEVRUN_NAME=${DEVRUN_NAME:?set DEVRUN_NAME before sourcing}
REAL_OUT=$OUT
OUT=/tmp/$DEVRUN_NAME
mkdir -p "$OUT"
export OUT
trap 'tar -czf "$REAL_OUT/$DEVRUN_NAME.tgz" -C /tmp "$DEVRUN_NAME"' EXIT
T0=$(date +%s)
el() { echo $(($(date +%s) - T0)); }
unxz_to() { xz -dc "$1" >"$2" 2>/dev/null ||
    python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' "$1" "$2"; }
devrun_unpack() {
    D=build-devrun
    for b in build-cuda build-cuda-bn254; do mkdir -p $b/tests/gpu $b/bench/gpu; done
    for p in "gpu_check build-cuda/tests/gpu/gpu_check" "gpu_bench build-cuda/bench/gpu/gpu_bench" \
        "gpu_check_bn build-cuda-bn254/tests/gpu/gpu_check" "snarkpipe build-cuda/snarkpipe" \
        "sppark_harness /tmp/sppark_harness"; do
        set -- $p
        [ -f $D/$1.xz ] || continue
        unxz_to $D/$1.xz $2 && chmod +x $2 || return 1
    done
    nvidia-smi --query-gpu=name,clocks.max.sm,memory.total,driver_version --format=csv,noheader
}
check() {
    timeout 150 $1/tests/gpu/gpu_check --quick --only msm >"$OUT/check-msm-$1.txt" 2>&1
    rc=$?
    echo "gpu_check msm $1 rc=$rc at $(el) s"
    grep -E 'FAIL|checks|failed' "$OUT/check-msm-$1.txt" | tail -n 8 | cut -c1-400
    return $rc
}
# proof_rows TAG: the issue table's proof rows on build-cuda's snarkpipe: a
# random-witness 2^24 proof (bench prove --stages, profiled) into
# prove-TAG.txt, the 70% 0/1 2^24 proof, the engine (22 20 8)
proof_rows() {
    W=$(mktemp -d /tmp/b2p.XXXXXX)
    S=build-cuda/snarkpipe
    $S --quiet gen-circuit --constraints $(((1 << 24) - 2)) --bool-fraction 0 $W/c.r1cs $W/c.wtns &&
        $S --json setup --backend cuda:0 $W/c.r1cs $W/c.zkey >"$OUT/setup.txt" 2>&1
    echo "setup rc=$? at $(el) s"
    SP_CUDA_PROFILE=1 timeout 40 $S bench prove $W/c.zkey $W/c.wtns --backend cuda:0 \
        --skip-subgroup-check --reps 2 --stages >"$OUT/prove-$1.txt" 2>&1
    echo "prove rc=$? at $(el) s"
    grep -E 'msm g[12]|stage msm_|^prove' "$OUT/prove-$1.txt" | tail -n 11 | cut -c1-300
    rm -rf "$W"
    SP_BOOL="0.7" SP_REPS=2 timeout 90 bench/prove-gpu.sh build-cuda 24 >"$OUT/prove-bls-24.txt" 2>&1
    echo "prove bls 2^24 70% rc=$? at $(el) s"
    grep -E '^prove' "$OUT/prove-bls-24.txt" | tail -n 4
    SP_NO_SWEEP=1 timeout 110 bench/engine-gpu.sh build-cuda 22 20 8 >"$OUT/engine.txt" 2>&1
    echo "engine rc=$? at $(el) s"
    grep -E 'isolation|load|first' "$OUT/engine.txt" | tail -n 12
}
# sppark_rows [ENV=VALUE ...]: the sppark harness (/tmp, built by hand, not
# committed) at 2^26 into sppark.txt
sppark_rows() {
    env "$@" timeout 100 /tmp/sppark_harness 26 >"$OUT/sppark.txt" 2>&1
    echo "sppark rc=$? at $(el) s"
    grep -v '^#' "$OUT/sppark.txt" | tail -n 16
}
