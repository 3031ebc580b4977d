#!/usr/bin/env bash
# Enforces the layer rule of ARCHITECTURE.md on every folder with C, CUDA
# or header files: src/, gpu/, bench/ and tests/.
#
#   util < field < curve < {pairing, msm, ntt, r1cs, wasm} < {groth16, circuit} < synth < engine < daemon < cli
#
# src/<layer>/  includes its own layer or lower ones. pairing, msm, ntt,
#               r1cs and wasm share a rank and may not include one another; so do
#               groth16 and circuit.
# gpu/          the CUDA backend: src/ layers up to groth16's rank
#               (groth16/backend.h is its interface), never circuit/ or
#               anything above, plus its own headers, ranked by folder:
#
#   gpu/*.h (the contract) < core < field < curve < {msm, ntt} < backend
#
#               A file includes its own folder's headers by name and lower
#               folders' as "gpu/dir/file.h"; msm and ntt share a rank and
#               may not include one another.
# src/util/, src/wasm/ are compiled once for both curves (ARCHITECTURE.md,
#               "Curves"): wasm/ includes only util/ from below, and
#               neither names a build's curve (SP_CURVE_ID_THIS,
#               SP_CURVE_BN254; util/curves.h defines the first).
# src/engine/   is compiled once for both curves too: from below it includes only util/ and
#               synth/ops.h, the curve-neutral table through which it
#               drives a curve; that header includes only util/; and the
#               engine never names a curve's table (sp_synth_curve_ops:
#               its callers pass it).
# src/daemon/   ranks its own files by header (the daemon's layers,
#               types.h says what each holds):
#
#   parts < types.h < state.h < services.h, farm/farm.h < transport.h < api.h < daemon.h
#
#               The parts know no struct sp_dmn (config.h, form.h, log.h,
#               native.h, wasmcirc.h, wire.h, farm/queue.h,
#               farm/queue_pg.h). A header has its rank (dmn_rank), a .c
#               file its own header's (dmn_home), which it includes; a file
#               includes daemon headers of its rank or lower. A daemon file
#               missing from these tables is an error. Given a build folder
#               (second argument), the daemon's objects there, built from
#               the current sources, are checked too: a file calls into
#               files of its rank or lower only, and no calls go in a circle.
#               The daemon is compiled once for both curves, as the engine
#               (ARCHITECTURE.md, "Curves"): from below, its files include
#               only util/, engine/ and synth/ops.h, name no build's curve
#               (SP_CURVE_ID_THIS, sp_synth_curve_ops, sp_dmn_curve_ops:
#               ops.h only declares the last)
#               and, in the build folder, call nothing of the library but
#               util/ and engine/ (their curve comes in a table, ops.h). The
#               two files of that table, ops.c and wasmcirc.c, are compiled
#               per curve and may use any lower layer.
# tests/, bench/ (with their subfolders: tests/fuzz/, tests/gpu/,
#               bench/gpu/) sit above the library and the backend: any src/
#               layer, the backend's headers as "gpu/file.h", the headers of
#               their own folder and of their top folder (tests/test.h from
#               tests/gpu/). bench/ sits above tests/: a benchmark may check
#               what it times with the tests' helpers, "tests/dir/file.h"
#               (bench/gpu/ with tests/gpu/gpu_check.h); tests/ never
#               includes bench/.
#
# Everywhere: quoted includes are "layer/file.h" (resolved under src/), the
# paths above, or a bare name, which must be a file of the including
# file's own folder (or top folder, above); no "../" paths and no .c file
# of another place (code is shared by linking its object:
# src/cli/cmd_bench_field.o, src/cli/kat.o, tests/gpu/common.o). A file that
# includes itself (the tests' two-pass instantiation, e.g. test_curve.c) is
# allowed.
# <system> includes and "snarkpipe.h" (the public header) are always
# allowed. A folder under src/ that is not in the table is an error, so a
# new layer has to be placed here deliberately.
#
# src/ never includes gpu/ headers and never names the CUDA backend
# (sp_backend_cuda_*, sp_cuda_*): backends register themselves as providers
# (groth16/backend.h), so the library does not depend on them.
#
# Usage: tools/check-layers.sh [repo-root [build-dir]]   exit 0 when clean, 1 otherwise.
set -euo pipefail

root=${1:-.}
build=${2:-}
src=$root/src
declare -A rank=(
    [util]=0 [field]=1 [curve]=2 [pairing]=3 [msm]=3 [ntt]=3 [r1cs]=3 [wasm]=3
    [groth16]=4 [circuit]=4 [synth]=5 [engine]=6 [daemon]=7 [cli]=8
)
top_rank=9 # above every layer: bench/, tests/
# gpu/'s folders ("." for the headers at its top)
declare -A gpu_rank=(
    [.]=0 [core]=1 [field]=2 [curve]=3 [msm]=4 [ntt]=4 [backend]=5
)
# src/daemon/'s headers (paths under src/daemon/) and each .c file's own header
declare -A dmn_rank=(
    [config.h]=0 [form.h]=0 [log.h]=0 [native.h]=0 [ops.h]=0 [wasmcirc.h]=0 [wire.h]=0
    [farm/queue.h]=0 [farm/queue_pg.h]=0
    [types.h]=1 [state.h]=2 [services.h]=3 [farm/farm.h]=3 [transport.h]=4 [api.h]=5 [daemon.h]=6
)
declare -A dmn_home=(
    [config.c]=config.h [form.c]=form.h [log.c]=log.h [native.c]=native.h [ops.c]=ops.h [wasmcirc.c]=wasmcirc.h
    [wire.c]=wire.h [farm/queue_none.c]=farm/queue.h [farm/queue_pg.c]=farm/queue_pg.h
    [farm/queue_pg_jobs.c]=farm/queue_pg.h
    [settings.c]=state.h [state.c]=state.h
    [registry.c]=services.h [keypath.c]=services.h [jobs.c]=services.h [tracker.c]=services.h
    [restore.c]=services.h [farm/pool.c]=farm/farm.h [farm/circuits.c]=farm/farm.h
    [farm/assemble.c]=farm/farm.h [farm/worker.c]=farm/farm.h
    [http.c]=transport.h
    [api.c]=api.h [api_circuits.c]=api.h [status.c]=api.h [page.c]=api.h [routes.c]=api.h [farm/api.c]=api.h
    [server.c]=daemon.h
)

# src/daemon/'s files compiled per curve (the rest is compiled once)
declare -A dmn_per_curve=([ops.c]=1 [wasmcirc.c]=1)

bad=0
report() { echo "check-layers: $*" >&2; bad=1; }

for dir in "$src"/*/; do
    layer=$(basename "$dir")
    [ -n "${rank[$layer]+x}" ] || report "src/$layer/ is not a known layer (add it to tools/check-layers.sh and ARCHITECTURE.md)"
done

# check_file FILE REL MAXRANK OWNLAYER [TOP [GPUDIR]]
#   MAXRANK: highest src/ rank the file may include; OWNLAYER: its src/
#   layer ("" outside src/); TOP: tests or bench for the files there (their
#   top folder's headers, and the paths above, are theirs to include), gpu
#   for gpu/'s, whose folder (a key of gpu_rank) is GPUDIR.
check_file() {
    local f=$1 rel=$2 max=$3 own=$4 top=${5:-} gdir=${6:-} lineno=0 line inc target dir sub
    dir=$(dirname "$f")
    while IFS= read -r line; do
        lineno=$((lineno + 1))
        [[ $line =~ ^[[:space:]]*#[[:space:]]*include[[:space:]]*\"([^\"]+)\" ]] || continue
        inc=${BASH_REMATCH[1]}
        [ "$inc" = snarkpipe.h ] && continue
        if [[ $inc == *..* ]]; then
            report "$rel:$lineno: includes \"$inc\" (a path out of its folder)"
        elif [[ $inc == *.c ]]; then
            [ "$inc" = "$(basename "$f")" ] ||
                report "$rel:$lineno: includes the source file \"$inc\" (link its object and include its header)"
        elif [[ $inc != */* ]]; then
            [ -f "$dir/$inc" ] || { [ -n "$top" ] && [ -f "$root/$top/$inc" ]; } ||
                report "$rel:$lineno: includes \"$inc\", which is not a header of its own folder"
        else
            target=${inc%%/*}
            if [ "$target" = gpu ] && [ "$top" = gpu ]; then
                sub=${inc#gpu/}
                sub=${sub%/*}
                [[ $inc == gpu/*/* ]] || sub=.
                if [ ! -f "$root/$inc" ]; then
                    report "$rel:$lineno: includes \"$inc\", which does not exist"
                elif [ -z "${gpu_rank[$sub]+x}" ]; then
                    report "$rel:$lineno: includes \"$inc\" from gpu/$sub/, which is not ranked (tools/check-layers.sh)"
                elif [ "$sub" = "$gdir" ]; then
                    [ "$sub" = . ] || report "$rel:$lineno: includes \"$inc\" of its own folder by path (write \"${inc##*/}\")"
                elif [ "${gpu_rank[$sub]}" -ge "${gpu_rank[$gdir]}" ]; then
                    report "$rel:$lineno: gpu/$gdir/ includes \"$inc\" from gpu/$sub/ (not lower)"
                fi
            elif [ "$target" = gpu ] || [ "$target" = tests ] || [ "$target" = bench ]; then
                case $target/$top in
                gpu/tests | gpu/bench | tests/bench)
                    [ -f "$root/$inc" ] || report "$rel:$lineno: includes \"$inc\", which does not exist" ;;
                gpu/*) report "$rel:$lineno: includes \"$inc\": only tests/ and bench/ include the backend's headers" ;;
                *) report "$rel:$lineno: includes \"$inc\": only bench/ includes tests/ headers, and nothing bench/'s" ;;
                esac
            elif [ -z "${rank[$target]+x}" ]; then
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

# check_neutral FILE REL: the engine's includes from below (util/ and
# synth/ops.h), synth/ops.h's and wasm/'s (util/ only); and util/, wasm/
# and the engine, compiled once for both curves, name no build's curve
# (util/curves.h defines SP_CURVE_ID_THIS for the layers compiled per curve).
check_neutral() {
    local f=$1 rel=$2 lineno=0 line inc
    while IFS= read -r line; do
        lineno=$((lineno + 1))
        [[ $line =~ ^[[:space:]]*#[[:space:]]*include[[:space:]]*\"([^\"]+)\" ]] || continue
        inc=${BASH_REMATCH[1]}
        [[ $inc == */* ]] || continue
        case $rel:$inc in
        src/engine/*:engine/* | src/engine/*:util/* | src/engine/*:synth/ops.h | src/synth/ops.h:util/*) ;;
        src/util/*:util/* | src/wasm/*:util/* | src/wasm/*:wasm/*) ;;
        src/engine/*)
            report "$rel:$lineno: the engine is curve-neutral: it includes \"$inc\" (only util/ and synth/ops.h from below)" ;;
        *) report "$rel:$lineno: ${rel%/*}/ is curve-neutral: it includes \"$inc\" (only util/)" ;;
        esac
    done <"$f"
    if [[ $rel != src/synth/ops.h && $rel != src/util/curves.h ]] &&
        grep -nE '\bSP_CURVE_(ID_THIS|BN254)\b' "$f" >/dev/null; then
        report "$rel: names this build's curve (${rel%/*}/ is compiled once for both curves)"
    fi
    if [[ $rel == src/engine/* ]] && grep -n 'sp_synth_curve_ops' "$f" >/dev/null; then
        report "$rel: names sp_synth_curve_ops (the engine is given its curve's table)"
    fi
}

# check_daemon_neutral FILE REL: a daemon file compiled once includes from
# below only util/, engine/ and synth/ops.h, and names no build's curve.
check_daemon_neutral() {
    local f=$1 rel=$2 lineno=0 line inc
    [ -z "${dmn_per_curve[${rel#src/daemon/}]:-}" ] || return 0
    while IFS= read -r line; do
        lineno=$((lineno + 1))
        [[ $line =~ ^[[:space:]]*#[[:space:]]*include[[:space:]]*\"([^\"]+)\" ]] || continue
        inc=${BASH_REMATCH[1]}
        [[ $inc == */* ]] || continue
        case $inc in
        daemon/* | util/* | engine/* | synth/ops.h) ;;
        *) report "$rel:$lineno: the daemon is curve-neutral: it includes \"$inc\"" \
            "(only util/, engine/ and synth/ops.h from below; the curve's calls go through daemon/ops.h)" ;;
        esac
    done <"$f"
    if [ "$rel" != src/daemon/ops.h ] &&
        grep -nE '\b(SP_CURVE_ID_THIS|sp_synth_curve_ops|sp_dmn_curve_ops)\b' "$f" >/dev/null; then
        report "$rel: names this build's curve (the daemon is given its curve's table: daemon/ops.h)"
    fi
}

# dmn_rank_of NAME: the rank of daemon file NAME (a path under src/daemon/),
# empty when it is not in the tables.
dmn_rank_of() {
    local h=$1
    [[ $h == *.c ]] && h=${dmn_home[$h]:-}
    [ -n "$h" ] && [ -n "${dmn_rank[$h]+x}" ] && echo "${dmn_rank[$h]}"
    return 0
}

# check_daemon_file FILE REL: the ranks inside src/daemon/.
check_daemon_file() {
    local f=$1 rel=$2 name=${2#src/daemon/} r lineno=0 line inc key
    r=$(dmn_rank_of "$name")
    if [ -z "$r" ]; then
        report "$rel: not ranked among the daemon's files (add it to dmn_rank or dmn_home in tools/check-layers.sh)"
        return
    fi
    if [[ $name == *.c ]] && ! grep -qE "^[[:space:]]*#[[:space:]]*include[[:space:]]*\"daemon/${dmn_home[$name]}\"" "$f"; then
        report "$rel: does not include its own header \"daemon/${dmn_home[$name]}\""
    fi
    while IFS= read -r line; do
        lineno=$((lineno + 1))
        [[ $line =~ ^[[:space:]]*#[[:space:]]*include[[:space:]]*\"([^\"]+)\" ]] || continue
        inc=${BASH_REMATCH[1]}
        if [[ $inc == daemon/* ]]; then
            key=${inc#daemon/}
        elif [[ $inc != */* ]] && [[ $inc != snarkpipe.h ]]; then
            key=$inc
            [[ $name == */* ]] && key=${name%/*}/$inc
        else
            continue
        fi
        if [ -z "${dmn_rank[$key]+x}" ]; then
            report "$rel:$lineno: includes \"$inc\", which is not a ranked daemon header (tools/check-layers.sh)"
        elif [ "${dmn_rank[$key]}" -gt "$r" ]; then
            report "$rel:$lineno: includes \"$inc\" (daemon rank ${dmn_rank[$key]}) from daemon rank $r (not its rank or lower)"
        fi
    done <"$f"
}

# check_daemon_calls BUILD: in the daemon's objects under BUILD, every call
# from one file into another goes to a file of its rank or lower, and the
# calls among files form no circle.
check_daemon_calls() {
    local b=$1 f name sym to r rt loop edges="" n=0
    local -A def=()
    command -v nm >/dev/null || { report "nm not found (needed to check the daemon's calls)"; return; }
    local names=()
    while IFS= read -r -d '' f; do
        name=${f#"$src/daemon/"}
        [ -f "$b/src/daemon/${name%.c}.o" ] && names+=("$name")
    done < <(find "$src/daemon" -name '*.c' -print0)
    for name in "${names[@]}"; do
        while read -r sym; do def[$sym]=$name; done < <(nm -g --defined-only "$b/src/daemon/${name%.c}.o" | awk '{print $3}')
    done
    local -A neutral=() # what the daemon compiled once may call below it: util/ and engine/
    while IFS= read -r -d '' f; do
        while read -r sym; do neutral[$sym]=1; done < <(nm -g --defined-only "$f" | awk '{print $3}')
    done < <(find "$b/src/util" "$b/src/engine" -name '*.o' -print0 2>/dev/null)
    for name in "${names[@]}"; do
        r=$(dmn_rank_of "$name")
        [ -n "$r" ] || continue
        while read -r sym; do
            if [ -z "${dmn_per_curve[$name]:-}" ] && [[ $sym == sp_* ]] && [ -z "${neutral[$sym]:-}" ] &&
                { [ -z "${def[$sym]:-}" ] || [ -n "${dmn_per_curve[${def[$sym]}]:-}" ]; }; then
                report "src/daemon/$name calls $sym, which is compiled per curve" \
                    "(the daemon reaches its curve through daemon/ops.h)"
            fi
            to=${def[$sym]:-}
            [ -n "$to" ] && [ "$to" != "$name" ] || continue
            n=$((n + 1))
            edges+="$name $to"$'\n'
            rt=$(dmn_rank_of "$to")
            [ -z "$rt" ] || [ "$rt" -le "$r" ] ||
                report "src/daemon/$name calls $sym of src/daemon/$to (daemon rank $rt, above its $r)"
        done < <(nm -u "$b/src/daemon/${name%.c}.o" | awk '{print $2}')
    done
    if ! loop=$(printf '%s' "$edges" | tsort 2>&1 >/dev/null); then
        report "calls among the daemon's files go in a circle: $(printf '%s\n' "$loop" | grep -v 'input contains a loop' | sed 's/^tsort: //' | tr '\n' ' ')"
    fi
    dmn_calls="${#names[@]} daemon objects in $b ($n references between files), "
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
    if [ "$layer" = daemon ]; then
        check_daemon_file "$f" "$rel"
        check_daemon_neutral "$f" "$rel"
    fi
    case $layer in util | wasm | engine) check_neutral "$f" "$rel" ;; esac
    [ "$rel" = src/synth/ops.h ] && check_neutral "$f" "$rel"
    if grep -nE '\bsp_(backend_)?cuda_' "$f" >/dev/null; then
        report "$rel: names the CUDA backend (backends register themselves: groth16/backend.h)"
    fi
done < <(sources "$src")

while IFS= read -r -d '' f; do
    files=$((files + 1))
    rel=${f#"$root"/}
    case $rel in
    gpu/*)
        gdir=${rel#gpu/}
        gdir=${gdir%/*}
        [[ $rel == gpu/*/* ]] || gdir=.
        if [ -z "${gpu_rank[$gdir]+x}" ]; then
            report "$rel: gpu/$gdir/ is not a ranked folder of the backend (add it to tools/check-layers.sh and ARCHITECTURE.md)"
            continue
        fi
        check_file "$f" "$rel" "${rank[groth16]}" "" gpu "$gdir"
        grep -nE '#[[:space:]]*include[[:space:]]*"circuit/' "$f" >/dev/null &&
            report "$rel: the backend includes circuit/ (it may use the layers up to groth16/)"
        ;;
    *) check_file "$f" "$rel" "$top_rank" "" "${rel%%/*}" ;;
    esac
done < <(sources "$root/gpu" "$root/bench" "$root/tests")

dmn_calls=""
[ -z "$build" ] || check_daemon_calls "$build"

if [ "$bad" -ne 0 ]; then
    echo "check-layers: FAILED" >&2
    exit 1
fi
echo "check-layers: $files files in src/, gpu/, bench/, tests/, ${dmn_calls}layering ok"
