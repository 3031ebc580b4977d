#!/usr/bin/env bash
# Enforces the layer rule of ARCHITECTURE.md: a file under src/<layer>/ may
# include headers of its own layer or of lower layers only.
#
#   util < field < curve < {pairing, msm, ntt, r1cs} < {groth16, circuit} < synth < engine < daemon < cli
#
# pairing, msm, ntt and r1cs share a rank and may not include one another;
# so do groth16 and circuit.
# Quoted includes are checked ("layer/file.h"; a name without a slash is a
# file of the same folder); <system> includes and "snarkpipe.h" (the public
# header) are always allowed. A folder under src/ that is not in the table
# is an error, so a new layer has to be placed here deliberately.
# Usage: tools/check-layers.sh [src-dir]     exit 0 when clean, 1 otherwise.
set -euo pipefail

src=${1:-src}
declare -A rank=(
    [util]=0 [field]=1 [curve]=2 [pairing]=3 [msm]=3 [ntt]=3 [r1cs]=3
    [groth16]=4 [circuit]=4 [synth]=5 [engine]=6 [daemon]=7 [cli]=8
)

bad=0
report() { echo "check-layers: $*" >&2; bad=1; }

for dir in "$src"/*/; do
    layer=$(basename "$dir")
    [ -n "${rank[$layer]+x}" ] || report "src/$layer/ is not a known layer (add it to tools/check-layers.sh and ARCHITECTURE.md)"
done

files=0
while IFS= read -r -d '' f; do
    files=$((files + 1))
    rel=${f#"$src"/}
    layer=${rel%%/*}
    [ -n "${rank[$layer]+x}" ] || continue
    lineno=0
    while IFS= read -r line; do
        lineno=$((lineno + 1))
        [[ $line =~ ^[[:space:]]*#[[:space:]]*include[[:space:]]*\"([^\"]+)\" ]] || continue
        inc=${BASH_REMATCH[1]}
        [ "$inc" = snarkpipe.h ] && continue
        [[ $inc == */* ]] || continue # same folder
        target=${inc%%/*}
        if [ -z "${rank[$target]+x}" ]; then
            report "$f:$lineno: includes \"$inc\" from unknown layer '$target'"
        elif [ "$target" != "$layer" ] && [ "${rank[$target]}" -ge "${rank[$layer]}" ]; then
            report "$f:$lineno: layer '$layer' includes \"$inc\" from layer '$target' (not lower)"
        fi
    done <"$f"
done < <(find "$src" -type f \( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' \) -print0)

if [ "$bad" -ne 0 ]; then
    echo "check-layers: FAILED" >&2
    exit 1
fi
echo "check-layers: $files files, layering ok"
