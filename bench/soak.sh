#!/usr/bin/env bash
# Soak test of `snarkpipe daemon` (not part of make test or CI):
# N jobs (default 1000) from L concurrent client lanes (default 4), mixed
# circuit sizes and partition counts, random priorities, random cancels,
# and a share of malformed requests (unknown circuit, witness of the wrong
# length, garbage witness, malformed JSON on a raw connection, a body over
# max_body). Every job accepted must end completed, cancelled or failed;
# one that does not (await error, or still pending after 5 minutes) is
# counted lost. A monitor checks /healthz every 2 s and samples the
# daemon's RSS; a daemon that stops answering is restarted and counted.
# Every 10th completed proof is checked with `snarkpipe verify`.
#
# Usage: bench/soak.sh [BUILD] (default build); environment: SOAK_JOBS,
# SOAK_LANES, SOAK_SIZES (constraint counts, default "256 2048 16384 65536",
# drawn 50/25/15/10 %), SOAK_BUDGET (engine budget, default 256MiB),
# SOAK_SEED, SOAK_KEEP=1 keeps the work directory.
# Prints a summary (and a markdown block for bench/NOTES.md) at the end.
set -u
build=${1:-build}
bin=$(cd "$(dirname "$build/snarkpipe")" && pwd)/snarkpipe
[ -x "$bin" ] || { echo "soak: $bin not found (make first)"; exit 1; }
jobs=${SOAK_JOBS:-1000}
lanes=${SOAK_LANES:-4}
read -r -a sizes <<<"${SOAK_SIZES:-256 2048 16384 65536}"
budget=${SOAK_BUDGET:-256MiB}
seed=${SOAK_SEED:-$$}
W=$(mktemp -d "${TMPDIR:-/tmp}/sp_soak.XXXXXX")
pid=
mon=
cleanup() {
    [ -n "$mon" ] && kill "$mon" 2>/dev/null
    [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
    [ -n "${SOAK_KEEP:-}" ] && echo "soak: work directory kept: $W" || rm -rf "$W"
}
trap cleanup EXIT
echo "soak: $jobs jobs, $lanes lanes, sizes ${sizes[*]}, budget $budget, seed $seed, work dir $W"

# ---- circuits ----
for i in "${!sizes[@]}"; do
    n=${sizes[$i]}
    "$bin" gen-circuit --quiet --constraints "$n" --public 2 --seed $((i + 1)) "$W/c$i.r1cs" "$W/c$i.wtns" &&
        "$bin" setup "$W/c$i.r1cs" "$W/c$i.zkey" >/dev/null 2>&1 &&
        "$bin" export-vkey "$W/c$i.zkey" "$W/c$i.vk.json" >/dev/null || exit 1
done
head -c 3000 /dev/urandom >"$W/garbage.wtns"
head -c $((33 << 20)) /dev/zero >"$W/huge.wtns" # over max_body

# ---- the daemon ----
cat >"$W/soak.conf" <<EOF
[engine]
budget = $budget
[server]
listen = unix:$W/d.sock
listen = 127.0.0.1:0
ready_file = $W/ready
max_body = 32MiB
log_level = warn
[keys]
hot_budget = 64MiB
EOF
for i in "${!sizes[@]}"; do printf '[circuit.c%d]\nzkey = %s\n' "$i" "$W/c$i.zkey" >>"$W/soak.conf"; done
start_daemon() {
    rm -f "$W/ready"
    "$bin" daemon --config "$W/soak.conf" 2>>"$W/daemon.log" &
    pid=$!
    echo "$pid" >"$W/pid"
    for _ in $(seq 300); do [ -s "$W/ready" ] && return 0; sleep 0.1; done
    echo "soak: the daemon did not start"; tail "$W/daemon.log"; exit 1
}
start_daemon
port=$(sed -n 2p "$W/ready" | sed 's/.*://')
cl() { "$bin" client --addr "unix:$W/d.sock" "$@"; }

# ---- monitor: health and RSS every 2 s ----
(
    restarts=0 peak=0
    while :; do
        p=$(cat "$W/pid")
        rss=$(awk '/VmRSS/{print $2}' "/proc/$p/status" 2>/dev/null || echo 0)
        [ "${rss:-0}" -gt "$peak" ] && peak=$rss
        if ! cl healthz >/dev/null 2>&1 && ! [ -e "$W/stop" ]; then
            restarts=$((restarts + 1))
            echo "monitor: daemon not answering at $(date +%T); restarting" >>"$W/daemon.log"
            kill -9 "$p" 2>/dev/null
            start_daemon >/dev/null
        fi
        echo "$restarts $peak" >"$W/monitor"
        sleep 2
    done
) &
mon=$!

# ---- malformed requests ----
raw_json() { # POST malformed JSON on a raw TCP connection; prints the status code
    exec 3<>"/dev/tcp/127.0.0.1/$port" || { echo 0; return; }
    printf 'POST /v1/circuits HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 11\r\nConnection: close\r\n\r\n{"id": "x",' >&3
    local line
    read -r -t 30 line <&3
    exec 3<&-
    echo "$line" | awk '{print $2}'
}
malformed() { # malformed KIND: prints "rejected" when the daemon answered the right 4xx
    local out code=0
    case $1 in
        0) out=$(cl prove --circuit nope "$W/c0.wtns" 2>&1); [[ $out == *"HTTP 404 unknown_circuit"* ]] && code=1 ;;
        1) out=$(cl prove --circuit c0 "$W/c1.wtns" 2>&1); [[ $out == *"HTTP 400 bad_witness"* ]] && code=1 ;;
        2) out=$(cl submit --circuit c1 "$W/garbage.wtns" 2>&1); [[ $out == *"HTTP 400 bad_witness"* ]] && code=1 ;;
        3) [ "$(raw_json)" = 400 ] && code=1 ;;
        4) out=$(cl submit --circuit c0 "$W/huge.wtns" 2>&1); [[ $out == *"HTTP 413 body_too_large"* ]] && code=1 ;;
    esac
    [ "$code" = 1 ] && echo rejected || echo "unexpected-$1"
}

# ---- one job ----
# Settles job ID: prints completed / cancelled / failed / lost.
settle() {
    local out rc
    out=$(cl await --wait-ms 300000 ${2:+--out-dir "$2"} "$1" 2>&1)
    rc=$?
    if [ $rc -eq 0 ]; then echo completed
    elif [[ $out == *" cancelled:"* ]]; then echo cancelled
    elif [[ $out == *" failed:"* ]]; then echo failed
    else echo "lost"; echo "$1: exit $rc: $out" >>"$W/lost.log"; fi
}

lane() {
    local lane=$1 count=$2 k r s c parts prio w jid res outdir
    RANDOM=$((seed + lane * 7919))
    for ((k = 0; k < count; k++)); do
        r=$((RANDOM % 100)) s=$((RANDOM % 100))
        c=$((s < 50 ? 0 : s < 75 ? 1 : s < 90 ? 2 : 3))
        [ "$c" -ge "${#sizes[@]}" ] && c=$((${#sizes[@]} - 1))
        parts=$((1 + RANDOM % 3)) prio=$((RANDOM % 4 - 1))
        w=(); for ((p = 0; p < parts; p++)); do w+=("$W/c$c.wtns"); done
        outdir=
        if [ $((k % 10)) -eq 0 ]; then outdir=$W/out/$lane-$k; mkdir -p "$outdir"; fi
        if [ "$r" -lt 10 ]; then
            res=$(malformed $((RANDOM % 5)))
            echo "$lane $k malformed $res" >>"$W/results"
            continue
        fi
        jid=$(cl submit --circuit "c$c" --priority "$prio" --request-id "s$lane-$k" "${w[@]}" 2>>"$W/client.log")
        if [ -z "$jid" ]; then echo "$lane $k submit submit-refused" >>"$W/results"; continue; fi
        if [ "$r" -lt 25 ]; then # cancel after 0 to 300 ms
            sleep "0.$((RANDOM % 4))"
            cl cancel "$jid" >/dev/null 2>>"$W/client.log"
            res=$(settle "$jid")
            echo "$lane $k cancel $res" >>"$W/results"
        else
            res=$(settle "$jid" "$outdir")
            echo "$lane $k prove $res" >>"$W/results"
            if [ "$res" = completed ] && [ -n "$outdir" ]; then
                if "$bin" verify "$W/c$c.vk.json" "$outdir/public_0.json" "$outdir/proof_0.json" >/dev/null 2>&1; then
                    echo ok >>"$W/verified"
                else
                    echo "BAD $lane-$k" >>"$W/verified"
                fi
            fi
        fi
    done
}

t0=$(date +%s)
per=$((jobs / lanes))
lane_pids=()
for ((l = 0; l < lanes; l++)); do
    n=$per
    [ $l -eq $((lanes - 1)) ] && n=$((jobs - per * (lanes - 1)))
    lane "$l" "$n" &
    lane_pids+=($!)
done
wait "${lane_pids[@]}"
t1=$(date +%s)
touch "$W/stop"
sleep 2
read -r restarts peak_kb <"$W/monitor"
hwm_kb=$(awk '/VmHWM/{print $2}' "/proc/$(cat "$W/pid")/status" 2>/dev/null || echo 0)
cl status >"$W/status.json" 2>/dev/null
kill -TERM "$(cat "$W/pid")"
wait "$(cat "$W/pid")" 2>/dev/null
drc=$?
pid=

count() { awk -v k="$1" -v v="$2" '$3 == k && $4 == v' "$W/results" | wc -l; }
total=$(wc -l <"$W/results")
completed=$(($(count prove completed) + $(count cancel completed)))
cancelled=$(($(count prove cancelled) + $(count cancel cancelled)))
failed=$(($(count prove failed) + $(count cancel failed)))
rejected=$(count malformed rejected)
unexpected=$(grep -c "unexpected\|submit-refused" "$W/results")
lost=$(($(count prove lost) + $(count cancel lost)))
verified=$(grep -c '^ok' "$W/verified" 2>/dev/null || true)
badproofs=$(grep -c '^BAD' "$W/verified" 2>/dev/null || true)
budget_bytes=$(grep -o '"budget_bytes":[0-9]*' "$W/status.json" | cut -d: -f2)
hwm_engine=$(grep -o '"high_water_bytes":[0-9]*' "$W/status.json" | cut -d: -f2)
keys_hot=$(grep -o '"keys_hot_bytes":[0-9]*' "$W/status.json" | cut -d: -f2)
cat <<EOF

### Daemon soak ($(date +%F), $(nproc) cores)

\`SOAK_JOBS=$jobs SOAK_LANES=$lanes SOAK_SIZES="${sizes[*]}" bench/soak.sh\`: $total requests in $((t1 - t0)) s
from $lanes concurrent client lanes; circuits of ${sizes[*]} constraints (50/25/15/10 %),
1 to 3 partitions per job, priorities -1..2, engine budget $budget.

| Outcome | Count |
|---|---|
| jobs completed | $completed |
| jobs cancelled (cancel requested 0-300 ms after submission) | $cancelled |
| jobs failed | $failed |
| malformed requests rejected with the right 4xx | $rejected |
| unexpected answers (malformed request accepted, valid submit refused) | $unexpected |
| jobs lost (no final state) | $lost |
| sampled proofs verified by \`snarkpipe verify\` | $verified ($badproofs invalid) |
| daemon restarts needed | $restarts |
| peak RSS (VmHWM) | $((hwm_kb / 1024)) MiB (sampled max $((peak_kb / 1024)) MiB) |
| engine budget: size, high water | $((${budget_bytes:-0} >> 20)) MiB, $((${hwm_engine:-0} >> 20)) MiB |
| hot keys at the end (keys.hot_budget 64 MiB; a key in use is loaded even over it) | $((${keys_hot:-0} >> 20)) MiB |
| daemon exit after SIGTERM | $drc |
EOF
[ "$lost" -eq 0 ] && [ "$restarts" -eq 0 ] && [ "$unexpected" -eq 0 ] && [ "$badproofs" -eq 0 ] && [ "$drc" -eq 0 ]
