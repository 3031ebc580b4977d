# What a device call's script shares (sourced from the repository root by
# bench/results/*/run*.sh since 2026-12-02 night; the older scripts keep
# their own copies, as they were run). Set DEVRUN_NAME, the call's name,
# before: its outputs go to /tmp/$DEVRUN_NAME and come back as
# $OUT/$DEVRUN_NAME.tgz whatever happens.
#   el             seconds since the start
#   unxz_to F G    F (xz) unpacked to G (xz, else Python's lzma)
#   devrun_unpack  build-devrun/*.xz to where make puts them
#   check DIR      gpu_check --quick --only msm of DIR's build, logged
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
    timeout 200 $1/tests/gpu/gpu_check --quick --only msm >"$OUT/check-msm-$1.txt" 2>&1
    rc=$?
    echo "gpu_check msm $1 rc=$rc at $(el) s"
    grep -E 'FAIL|checks|failed' "$OUT/check-msm-$1.txt" | tail -n 8 | cut -c1-400
    return $rc
}
