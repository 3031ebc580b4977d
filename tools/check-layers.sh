#!/usr/bin/env bash
# Enforces the layer rule of ARCHITECTURE.md on every folder with C, CUDA
# or header files: src/, gpu/, bench/ and tests/.
#
#   util < field < curve < {pairing, msm, ntt, r1cs} < {groth16, circuit} < synth < engine < daemon < cli
#
# src/<layer>/  includes its own layer or lower ones. pairing, msm, ntt and
#               r1cs share a rank and may not include one another; so do
#               groth16 and circuit.
# gpu/          the CUDA backend: src/ layers up to groth16's rank
#               (groth16/backend.h is its interface), never circuit/ or
#               anything above, plus its own headers.
# gpu/check/    the GPU checks (a test harness; issue 17 moves them to
#               tests/gpu/ and bench/gpu/): any src/ layer and gpu/'s
#               headers; see the one exception below.
# bench/, tests/ (and tests/fuzz/) sit above the library: any src/ layer
#               and their own folder's headers.
#
# Everywhere: quoted includes are "layer/file.h" (resolved under src/) or a
# bare name, which must be a file of the including file's own folder; no
# "../" paths and no .c file of another place (code is shared by linking
# its object: src/cli/cmd_bench_field.o, src/cli/kat.o). A file that includes itself
# (the tests' two-pass instantiation, e.g. test_curve.c) is allowed.
# <system> includes and "snarkpipe.h" (the public header) are always
# allowed. A folder under src/ that is not in the table is an error, so a
# new layer has to be placed here deliberately.
#
# src/ never includes gpu/ headers and never names the CUDA backend
# (sp_backend_cuda_*, sp_cuda_*): backends register themselves as providers
# (groth16/backend.h), so the library does not depend on them.
#
# Usage: tools/check-layers.sh [repo-root]     exit 0 when clean, 1 otherwise.
set -euo pipefail

root=${1:-.}
src=$root/src
declare -A rank=(
    [util]=0 [field]=1 [curve]=2 [pairing]=3 [msm]=3 [ntt]=3 [r1cs]=3
    [groth16]=4 [circuit]=4 [synth]=5 [engine]=6 [daemon]=7 [cli]=8
)
top=9 # above every layer: bench/, tests/, gpu/check/

# The listed exceptions, "file:include" (paths relative to root), each
# with its reason. Remove a line when its reason goes away.
declare -A allowed=(
    # gpu/check/ uses the test header (CHECK, counters) until it moves
    # to tests/gpu/ (issue 17, second item).
    ["gpu/check/check.h:../../tests/test.h"]=1
)

bad=0
report() { echo "check-layers: $*" >&2; bad=1; }

for dir in "$src"/*/; do
    layer=$(basename "$dir")
    [ -n "${rank[$layer]+x}" ] || report "src/$layer/ is not a known layer (add it to tools/check-layers.sh and ARCHITECTURE.md)"
done

# check_file FILE REL MAXRANK OWNLAYER [EXTRA-DIR]
#   MAXRANK: highest src/ rank the file may include; OWNLAYER: its src/
#   layer ("" outside src/); EXTRA-DIR: a second folder whose headers a bare
#   name may name (gpu/ for gpu/check/).
check_file() {
    local f=$1 rel=$2 max=$3 own=$4 extra=${5:-} lineno=0 line inc target dir
    dir=$(dirname "$f")
    while IFS= read -r line; do
        lineno=$((lineno + 1))
        [[ $line =~ ^[[:space:]]*#[[:space:]]*include[[:space:]]*\"([^\"]+)\" ]] || continue
        inc=${BASH_REMATCH[1]}
        [ "$inc" = snarkpipe.h ] && continue
        [ -n "${allowed[$rel:$inc]+x}" ] && continue
        if [[ $inc == *..* ]]; then
            report "$rel:$lineno: includes \"$inc\" (a path out of its folder)"
        elif [[ $inc == *.c ]]; then
            [ "$inc" = "$(basename "$f")" ] ||
                report "$rel:$lineno: includes the source file \"$inc\" (link its object and include its header)"
        elif [[ $inc != */* ]]; then
            [ -f "$dir/$inc" ] || { [ -n "$extra" ] && [ -f "$extra/$inc" ]; } ||
                report "$rel:$lineno: includes \"$inc\", which is not a header of its own folder"
        else
            target=${inc%%/*}
            if [ -z "${rank[$target]+x}" ]; then
                report "$rel:$lineno: includes \"$inc\" from unknown layer '$target'"
            elif [ "$target" = "$own" ]; then
                :
            elif [ -n "$own" ] && [ "${rank[$target]}" -ge "${rank[$own]}" ]; then
                report "$rel:$lineno: layer '$own' includes \"$inc\" from layer '$target' (not lower)"
            elif [ "${rank[$target]}" -gt "$max" ]; then
                report "$rel:$lineno: includes \"$inc\": layer '$target' is above what ${rel%/*}/ may use"
            fi
        fi
    done <"$f"
}

sources() { find "$@" -type f \( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' \) -print0 2>/dev/null; }

files=0
while IFS= read -r -d '' f; do
    files=$((files + 1))
    rel=${f#"$root"/}
    layer=${rel#src/}
    layer=${layer%%/*}
    [ -n "${rank[$layer]+x}" ] || continue
    check_file "$f" "$rel" "${rank[$layer]}" "$layer"
    if grep -nE '\bsp_(backend_)?cuda_' "$f" >/dev/null; then
        report "$rel: names the CUDA backend (backends register themselves: groth16/backend.h)"
    fi
done < <(sources "$src")

while IFS= read -r -d '' f; do
    files=$((files + 1))
    rel=${f#"$root"/}
    case $rel in
    gpu/check/*) check_file "$f" "$rel" "$top" "" "$root/gpu" ;;
    gpu/*)
        check_file "$f" "$rel" "${rank[groth16]}" ""
        grep -nE '#[[:space:]]*include[[:space:]]*"circuit/' "$f" >/dev/null &&
            report "$rel: the backend includes circuit/ (it may use the layers up to groth16/)"
        ;;
    *) check_file "$f" "$rel" "$top" "" ;;
    esac
done < <(sources "$root/gpu" "$root/bench" "$root/tests")

if [ "$bad" -ne 0 ]; then
    echo "check-layers: FAILED" >&2
    exit 1
fi
echo "check-layers: $files files in src/, gpu/, bench/, tests/, layering ok"
