#!/bin/sh
# Not yet run: the check of the two changes made after call 1 (helper g2),
# for whoever has device time. The final wip-g2 binaries, built as for
# run.sh, carried in build-g2run/ (run as build-g2run/run2.sh):
#   1. gpu_check --quick --no-bench --only msm and --only split, both
#      curves (G2 MSMs with both Fp2 forms, the reduction now always
#      Karatsuba; the split's new no-gather path, "3% 0/1" scalars);
#   2. gpu_bench --precomp --g1 24 --g2 24 (predicted: G2 2^24 plain ~310
#      ms = 3.03x, table ~271 = 3.02x; 2^22 ~102.8 / ~92.1);
#   3. the 2^24 random-witness proof with SP_CUDA_PROFILE=1 (predicted:
#      msm_b2's split "no gather", B2 ~5-26 ms under 340.8, A and B1
#      1-5 ms under 110).
# About 230 s of command.
cd "$(dirname "$0")/.." || exit 1
T0=$(date +%s)
el() { echo $(($(date +%s) - T0)); }
D=build-g2run
for b in build-cuda build-cuda-bn254; do mkdir -p $b/tests/gpu $b/bench/gpu; done
unxz_to() { xz -dc "$1" >"$2" 2>/dev/null ||
    python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' "$1" "$2"; }
unxz_to $D/snarkpipe.xz build-cuda/snarkpipe &&
    unxz_to $D/gpu_check.xz build-cuda/tests/gpu/gpu_check &&
    unxz_to $D/gpu_bench.xz build-cuda/bench/gpu/gpu_bench &&
    unxz_to $D/gpu_check_bn.xz build-cuda-bn254/tests/gpu/gpu_check &&
    chmod +x build-cuda/snarkpipe build-cuda/tests/gpu/gpu_check build-cuda/bench/gpu/gpu_bench \
        build-cuda-bn254/tests/gpu/gpu_check || exit 1
for b in build-cuda build-cuda-bn254; do
    for o in msm split; do
        timeout 120 $b/tests/gpu/gpu_check --quick --no-bench --only $o >"$OUT/check-$o-$b.txt" 2>&1
        echo "check $o $b rc=$? at $(el) s"
        grep -E '^gpu_check:|FAIL|equal to' "$OUT/check-$o-$b.txt" | head -n 12
    done
done
timeout 100 build-cuda/bench/gpu/gpu_bench --no-checks --precomp --g1 24 --g2 24 >"$OUT/precomp2.txt" 2>&1
echo "precomp rc=$? at $(el) s"
grep -E 'Fp2|^\| 2\^' "$OUT/precomp2.txt" | head -n 30
W=$(mktemp -d /tmp/g2p.XXXXXX)
S=build-cuda/snarkpipe
$S --quiet gen-circuit --constraints $(((1 << 24) - 2)) --bool-fraction 0 $W/c.r1cs $W/c.wtns &&
    $S --json setup --backend cuda:0 $W/c.r1cs $W/c.zkey >"$OUT/prove2.txt" 2>&1
SP_CUDA_PROFILE=1 timeout 60 $S bench prove $W/c.zkey $W/c.wtns --backend cuda:0 \
    --skip-subgroup-check --reps 3 --stages >>"$OUT/prove2.txt" 2>&1
echo "prove rc=$? at $(el) s"
grep -E '^prove|stage|msm_b2|msm_a' "$OUT/prove2.txt" | cut -c1-300
echo "done at $(el) s"
