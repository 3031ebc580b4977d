#!/usr/bin/env bash
# Soak of the farm (not part of make test or CI): 3 daemons on one
# PostgreSQL queue (a throwaway cluster, tests/pg.sh), JOBS jobs (default
# 1000) of 1 to 3 partitions of two small circuits from LANES client
# lanes (default 4), while a chaos loop, every CHAOS_S seconds on average
# (default 3), does one of:
#   - kill -9 a daemon, started again 0-3 s later;
#   - freeze a daemon (SIGSTOP) for 1-8 s (past its 2 s lease or not);
#   - crash PostgreSQL (pg_ctl stop -m immediate), started again 0-3 s
#     later;
#   - restart daemon s3 with its prover wedged (SP_FARM_TEST_WEDGE: its
#     claims hang until given up after farm.progress_timeout), or
#     unwedged again.
# Clients behave as a careful client must: a submit whose answer is lost
# is sent again with the same request id (409 then names the job), a job
# is awaited by request id until it ends. At the end:
#   lost        jobs accepted that did not complete (must be 0);
#   duplicated  partitions with more than one stored proof in their
#               attempts (outcome "proved"), or a request id twice (must
#               be 0);
#   verified    every partition's proof checked here with `snarkpipe
#               verify` against the public inputs of its own witness
#               (failures must be 0).
# Usage: bench/farm-soak.sh [BUILD]; environment: SOAK_JOBS, SOAK_LANES,
# SOAK_CHAOS_S, SOAK_SEED, SOAK_KEEP=1 keeps the work directory.
set -u
build=${1:-build}
jobs=${SOAK_JOBS:-1000}
lanes=${SOAK_LANES:-4}
chaos_s=${SOAK_CHAOS_S:-3}
seed=${SOAK_SEED:-$RANDOM}
bin=$build/snarkpipe
tool=$build/tests/tool_witnesses
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$bin" ] && [ -x "$tool" ] || { echo "farm-soak.sh: build first (make $bin tests)"; exit 1; }
"$bin" daemon --help 2>&1 | grep -q "farm.queue, --queue): built in" || { echo "farm-soak.sh: $bin lacks the farm (libpq)"; exit 1; }
# shellcheck source=tests/pg.sh
. "$here/../tests/pg.sh"
pg_find || { echo "farm-soak.sh: no PostgreSQL server"; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/sp_farm_soak.XXXXXX")
declare -A dpid
cleanup() { for p in "${dpid[@]}"; do kill -9 "$p" 2>/dev/null; done; pg_destroy; [ -n "${SOAK_KEEP:-}" ] || rm -rf "$T"; }
trap cleanup EXIT
PG_DURABLE=1 # the server is crashed: what it acknowledged must survive
pg_create "$(mktemp -d "${TMPDIR:-/tmp}/sp_farm_soak_pg.XXXXXX")" || exit 1
RANDOM=$seed
echo "farm-soak.sh: seed $seed, $jobs jobs, $lanes lanes, chaos every ~${chaos_s} s, work directory $T"

mk() { # mk NAME CONSTRAINTS PUBLIC SEED WITNESSES
    "$bin" --quiet gen-circuit --constraints "$2" --public "$3" --seed "$4" "$T/$1.r1cs" "$T/$1.wtns" &&
        "$bin" --quiet setup "$T/$1.r1cs" "$T/$1.zkey" >/dev/null 2>&1 &&
        "$bin" --quiet export-vkey "$T/$1.zkey" "$T/$1.vk.json" &&
        "$tool" "$T/$1.r1cs" "$5" "$T/w$1_" >/dev/null || { echo "cannot make circuit $1"; exit 1; }
    for w in "$T"/w"$1"_*.wtns; do
        "$bin" --quiet prove "$T/$1.zkey" "$w" /dev/null "${w%.wtns}.pub.json" >/dev/null 2>&1 || { echo "prove $w failed"; exit 1; }
    done
}
mk A 64 2 7 16
mk B 48 1 8 8

start() { # start I [WEDGE]: daemon sI (s3 with WEDGE: its prover hangs)
    local i=$1
    {
        printf '[engine]\nsynth_threads = 1\nbackend_threads = 1\nfinish_threads = 1\nmax_parallel_synthesis = 1\n'
        printf 'gpu_workers_per_device = 1\nbudget = 256MiB\n'
        printf '[server]\nlisten = unix:%s/d%s.sock\nready_file = %s/ready%s\nresult_ttl = 2h\nlog_level = warn\n' "$T" "$i" "$T" "$i"
        printf '[keys]\nload_threads = 1\n[circuit.a]\nzkey = %s\nr1cs = %s\n[circuit.b]\nzkey = %s\n' "$T/A.zkey" "$T/A.r1cs" "$T/B.zkey"
        printf '[farm]\nqueue = %s\nnode_id = s%s\nlease = 2s\npoll = 500ms\nprogress_timeout = 2s\nmax_attempts = 1000\n' "$PG_URL" "$i"
    } >"$T/d$i.conf"
    rm -f "$T/ready$i"
    env ${2:+SP_FARM_TEST_WEDGE=$2} "$bin" daemon --config "$T/d$i.conf" 2>>"$T/s$i.log" &
    dpid[$i]=$!
    for _ in $(seq 300); do [ -s "$T/ready$i" ] && return 0; sleep 0.1; done
    return 0 # the database may be down: it starts when it can (or the chaos restarts it)
}
for i in 1 2 3; do start "$i"; done
cl() { local i=$1; shift; "$bin" client --addr "unix:$T/d$i.sock" --timeout-ms 30000 "$@"; }

job_desc() { # job_desc G -> "CIRCUIT N W0 W1 W2"
    local g=$1 c=a C=A n=$((1 + $1 % 3)) cnt=16
    [ $((g % 4)) -eq 3 ] && c=b C=B cnt=8
    echo "$c $C $n $(((3 * g) % cnt)) $(((3 * g + 1) % cnt)) $(((3 * g + 2) % cnt))"
}
lane() { # lane L: jobs L, L + LANES, ...; prints "g ok" or "g lost"
    local l=$1 g c C n w0 w1 w2 out d
    for g in $(seq "$l" "$lanes" $((jobs - 1))); do
        read -r c C n w0 w1 w2 <<<"$(job_desc "$g")"
        local ws=("$T/w${C}_$w0.wtns" "$T/w${C}_$w1.wtns" "$T/w${C}_$w2.wtns") sent=0
        for _ in $(seq 600); do
            d=$((1 + RANDOM % 3))
            out=$(cl "$d" submit --circuit "$c" --request-id "s$g" "${ws[@]:0:$n}" 2>&1) && { sent=1; break; }
            case $out in *"HTTP 409"*) sent=1; break ;; esac
            sleep 0.2
        done
        [ "$sent" = 1 ] || { echo "$g unsent"; continue; }
        echo "$g sent"
    done
    for g in $(seq "$l" "$lanes" $((jobs - 1))); do
        mkdir -p "$T/res/$g"
        local ok=0
        for _ in $(seq 2000); do
            d=$((1 + RANDOM % 3))
            out=$(cl "$d" await --wait-ms 20000 --out-dir "$T/res/$g" "s$g" 2>&1) && { ok=1; break; }
            case $out in *"failed"*|*"cancelled"*) grep -q "HTTP" <<<"$out" || break ;; esac
            sleep 0.2
        done
        [ "$ok" = 1 ] && echo "$g ok" || echo "$g lost: $out"
    done
}
t0=$(date +%s)
lp=()
for l in $(seq 0 $((lanes - 1))); do lane "$l" >"$T/lane$l.log" 2>&1 & lp+=($!); done

# the chaos loop, until the lanes are done
kills=0 freezes=0 pgcrash=0 wedges=0 unwedges=0 wedged=
lanes_running() { for p in "${lp[@]}"; do kill -0 "$p" 2>/dev/null && return 0; done; return 1; }
while lanes_running; do
    sleep "$(awk -v s="$chaos_s" -v r=$RANDOM 'BEGIN{printf "%.2f", s * (0.5 + r / 32768)}')"
    lanes_running || break
    for i in 1 2 3; do # a daemon that could not start (the database was down) starts again
        kill -0 "${dpid[$i]}" 2>/dev/null || { [ "$i" = 3 ] && start 3 "$wedged" || start "$i"; }
    done
    i=$((1 + RANDOM % 3))
    case $((RANDOM % 10)) in
        0|1|2) kill -9 "${dpid[$i]}" 2>/dev/null; wait "${dpid[$i]}" 2>/dev/null; kills=$((kills + 1))
               sleep "$((RANDOM % 4))"; [ "$i" = 3 ] && start 3 "$wedged" || start "$i" ;;
        3|4|5) kill -STOP "${dpid[$i]}"; sleep "$((1 + RANDOM % 8))"; kill -CONT "${dpid[$i]}"; freezes=$((freezes + 1)) ;;
        6|7) pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate -w stop >/dev/null 2>&1; pgcrash=$((pgcrash + 1))
             sleep "$((RANDOM % 4))"; pg_start_ >/dev/null ;;
        8|9) kill -9 "${dpid[3]}" 2>/dev/null; wait "${dpid[3]}" 2>/dev/null
             if [ -z "$wedged" ]; then wedged='*' wedges=$((wedges + 1)); else wedged= unwedges=$((unwedges + 1)); fi
             start 3 "$wedged" ;;
    esac
done
t1=$(date +%s)
[ -n "$wedged" ] && { kill -9 "${dpid[3]}"; wait "${dpid[3]}" 2>/dev/null; start 3; }

# ---- the counts ----
sent=$(cat "$T"/lane*.log | grep -c " sent$")
okc=$(cat "$T"/lane*.log | grep -c " ok$")
lost=$(cat "$T"/lane*.log | grep -c " lost\| unsent")
dup_rid=$(pg_sql "SELECT count(*) FROM (SELECT request_id FROM sp_jobs GROUP BY request_id HAVING count(*) > 1) d")
dup_proof=$(pg_sql "SELECT count(*) FROM (SELECT job_id, idx FROM sp_attempts WHERE outcome = 'proved' GROUP BY job_id, idx HAVING count(*) > 1) d")
fenced=$(pg_sql "SELECT count(*) FROM sp_attempts WHERE outcome = 'late'")
stalled=$(pg_sql "SELECT count(*) FROM sp_attempts WHERE outcome = 'stalled'")
expired=$(pg_sql "SELECT count(*) FROM sp_attempts WHERE outcome = 'expired'")
notcompleted=$(pg_sql "SELECT count(*) FROM sp_jobs WHERE request_id LIKE 's%' AND state <> 'completed'")
nparts=0 verified=0 badv=0 misplaced=0
for g in $(seq 0 $((jobs - 1))); do
    read -r c C n w0 w1 w2 <<<"$(job_desc "$g")"
    ws=("$w0" "$w1" "$w2")
    for k in $(seq 0 $((n - 1))); do
        nparts=$((nparts + 1))
        [ -f "$T/res/$g/proof_$k.json" ] || continue
        cmp -s "$T/res/$g/public_$k.json" "$T/w${C}_${ws[$k]}.pub.json" || misplaced=$((misplaced + 1))
        if "$bin" verify "$T/$C.vk.json" "$T/w${C}_${ws[$k]}.pub.json" "$T/res/$g/proof_$k.json" >/dev/null 2>&1; then
            verified=$((verified + 1))
        else
            badv=$((badv + 1))
        fi
    done
done
cat <<EOF
farm-soak.sh: $((t1 - t0)) s; seed $seed
| jobs | sent | completed | lost | not completed in the database | duplicated request ids | partitions with two stored proofs | partitions | proofs verified here | verify failures | proofs in the wrong place |
|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|
| $jobs | $sent | $okc | $lost | $notcompleted | $dup_rid | $dup_proof | $nparts | $verified | $badv | $misplaced |
chaos: $kills daemon kill -9, $freezes freezes (SIGSTOP 1-8 s), $pgcrash PostgreSQL crashes (immediate stop), $wedges wedged and $unwedges unwedged restarts of s3
attempts: $fenced proofs fenced (came after their claim was lost), $stalled claims given up as stalled, $expired claims expired
EOF
[ "$lost" = 0 ] && [ "$dup_rid" = 0 ] && [ "$dup_proof" = 0 ] && [ "$badv" = 0 ] && [ "$misplaced" = 0 ] && [ "$verified" = "$nparts" ]
