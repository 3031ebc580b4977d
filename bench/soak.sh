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
# SOAK_KILL=1: the crash soak. The daemon runs with a state directory and
# is killed with SIGKILL at random times (every SOAK_KILL_EVERY seconds on
# average, default 8) and started again at once. The clients behave as a
# careful client must: a submit whose answer is lost is sent again with
# the same request id (409 then says the job exists), and a job is awaited
# by its request id, again and again, until it ends. There are no cancels
# and no malformed requests in this mode. Every job must complete, every
# proof of it is verified, none may be lost (404, or never ending) and none
# may run as two jobs (two results for one request id in the state
# directory).
#
# Usage: bench/soak.sh [BUILD] (default build); environment: SOAK_JOBS,
# SOAK_LANES, SOAK_SIZES (constraint counts, default "256 2048 16384 65536",
# drawn 50/25/15/10 %), SOAK_BUDGET (engine budget, default 256MiB),
# SOAK_SEED, SOAK_KILL, SOAK_KILL_EVERY, SOAK_KEEP=1 keeps the work directory.
# Prints a summary (and the same as a markdown table) at the end.
set -u
build=${1:-build}
bin=$(cd "$(dirname "$build/snarkpipe")" && pwd)/snarkpipe
[ -x "$bin" ] || { echo "soak: $bin not found (make first)"; exit 1; }
jobs=${SOAK_JOBS:-1000}
lanes=${SOAK_LANES:-4}
read -r -a sizes <<<"${SOAK_SIZES:-256 2048 16384 65536}"
budget=${SOAK_BUDGET:-256MiB}
seed=${SOAK_SEED:-$$}
kill_mode=${SOAK_KILL:-0}
kill_every=${SOAK_KILL_EVERY:-8}
W=$(mktemp -d "${TMPDIR:-/tmp}/sp_soak.XXXXXX")
pid=
mon=
cleanup() {
    [ -n "$mon" ] && kill "$mon" 2>/dev/null
    [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
    [ -n "${SOAK_KEEP:-}" ] && echo "soak: work directory kept: $W" || rm -rf "$W"
}
trap cleanup EXIT
echo "soak: $jobs jobs, $lanes lanes, sizes ${sizes[*]}, budget $budget, seed $seed, work dir $W$([ "$kill_mode" = 1 ] && echo ", kill -9 every ~${kill_every} s")"

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
state_dir = $W/state
; every result stays (and its file), so the crash soak can count them all
result_ttl = 2h
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

# ---- monitor: health and RSS every 2 s (and, with SOAK_KILL, the kills) ----
(
    restarts=0 peak=0 kills=0 inflight=0
    RANDOM=$((seed + 17))
    next_kill=$(($(date +%s) + 1 + RANDOM % (2 * kill_every)))
    while :; do
        p=$(cat "$W/pid")
        rss=$(awk '/VmRSS/{print $2}' "/proc/$p/status" 2>/dev/null || echo 0)
        [ "${rss:-0}" -gt "$peak" ] && peak=$rss
        if [ "$kill_mode" = 1 ] && [ "$(date +%s)" -ge "$next_kill" ] && ! [ -e "$W/stop" ]; then
            kills=$((kills + 1))
            echo "monitor: kill -9 number $kills at $(date +%T)" >>"$W/daemon.log"
            kill -9 "$p" 2>/dev/null
            # accepted jobs that had not finished when it died (their inputs are still there)
            inflight=$((inflight + $(find "$W/state/jobs" -name '*.job' 2>/dev/null | wc -l)))
            while kill -0 "$p" 2>/dev/null; do sleep 0.05; done
            start_daemon >/dev/null
            next_kill=$(($(date +%s) + 1 + RANDOM % (2 * kill_every)))
        elif ! cl healthz >/dev/null 2>&1 && ! [ -e "$W/stop" ]; then
            restarts=$((restarts + 1))
            echo "monitor: daemon not answering at $(date +%T); restarting" >>"$W/daemon.log"
            kill -9 "$p" 2>/dev/null
            start_daemon >/dev/null
        fi
        echo "$restarts $peak $kills $inflight" >"$W/monitor"
        sleep "$([ "$kill_mode" = 1 ] && echo 0.5 || echo 2)"
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
        0) out=$(cl prove --json --circuit nope "$W/c0.wtns" 2>&1); [[ $out == *"HTTP 404 unknown_circuit"* ]] && code=1 ;;
        1) out=$(cl prove --json --circuit c0 "$W/c1.wtns" 2>&1); [[ $out == *"HTTP 400 bad_witness"* ]] && code=1 ;;
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

# ---- the crash soak's client: submit until accepted, await until ended ----
# Prints the final state of request id $1 (completed / failed / cancelled / lost).
crash_settle() {
    local rid=$1 out rc t0=$SECONDS
    while [ $((SECONDS - t0)) -lt 900 ]; do
        out=$(cl await --wait-ms 60000 --out-dir "$2" "$rid" 2>&1)
        rc=$?
        if [ $rc -eq 0 ]; then echo completed; return; fi
        if [[ $out == *" cancelled:"* ]]; then echo cancelled; return; fi
        if [[ $out == *" failed:"* ]]; then echo failed; echo "$rid: $out" >>"$W/failed.log"; return; fi
        if [[ $out == *"HTTP 404"* ]]; then echo lost; echo "$rid: $out" >>"$W/lost.log"; return; fi
        sleep 0.3 # the daemon is down or starting: ask again
    done
    echo lost
    echo "$rid: never ended: $out" >>"$W/lost.log"
}

crash_lane() {
    local lane=$1 count=$2 k s c parts w rid out res outdir accepted p try
    RANDOM=$((seed + lane * 7919))
    for ((k = 0; k < count; k++)); do
        s=$((RANDOM % 100))
        c=$((s < 50 ? 0 : s < 75 ? 1 : s < 90 ? 2 : 3))
        [ "$c" -ge "${#sizes[@]}" ] && c=$((${#sizes[@]} - 1))
        parts=$((1 + RANDOM % 3))
        w=(); for ((p = 0; p < parts; p++)); do w+=("$W/c$c.wtns"); done
        rid=k$lane-$k
        accepted=
        for ((try = 0; try < 600; try++)); do
            out=$(cl submit --circuit "c$c" --priority $((RANDOM % 4 - 1)) --request-id "$rid" "${w[@]}" 2>&1)
            if [[ $out == j* ]]; then accepted=202; break
            elif [[ $out == *"HTTP 409 duplicate_request_id"* ]]; then accepted=409; break # an earlier try got in
            fi
            sleep 0.3
        done
        if [ -z "$accepted" ]; then echo "$lane $k crash submit-refused" >>"$W/results"; continue; fi
        [ "$accepted" = 409 ] && echo "$rid" >>"$W/resubmitted"
        outdir=$W/out/$rid
        mkdir -p "$outdir"
        res=$(crash_settle "$rid" "$outdir")
        echo "$lane $k crash $res $c $parts" >>"$W/results"
        if [ "$res" = completed ]; then
            for ((p = 0; p < parts; p++)); do
                if "$bin" verify "$W/c$c.vk.json" "$outdir/public_$p.json" "$outdir/proof_$p.json" >/dev/null 2>&1; then
                    echo ok >>"$W/verified"
                else
                    echo "BAD $rid partition $p" >>"$W/verified"
                fi
            done
        fi
    done
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
    if [ "$kill_mode" = 1 ]; then crash_lane "$l" "$n" & else lane "$l" "$n" & fi
    lane_pids+=($!)
done
wait "${lane_pids[@]}"
t1=$(date +%s)
touch "$W/stop"
sleep 2
read -r restarts peak_kb kills inflight <"$W/monitor"
hwm_kb=$(awk '/VmHWM/{print $2}' "/proc/$(cat "$W/pid")/status" 2>/dev/null || echo 0)
cl status >"$W/status.json" 2>/dev/null
dpid=$(cat "$W/pid")
kill -TERM "$dpid"
wait "$dpid" 2>/dev/null
drc=$?
if [ "$drc" -eq 127 ]; then # started again by the monitor: not our child
    while kill -0 "$dpid" 2>/dev/null; do sleep 0.1; done
    [ ! -e "$W/ready" ] && drc=0 || drc=1 # a clean exit removes the ready file
fi
pid=

count() { awk -v k="$1" -v v="$2" '$3 == k && $4 == v' "$W/results" | wc -l; }
if [ "$kill_mode" = 1 ]; then
    accepted=$(awk '$3 == "crash" && $4 != "submit-refused"' "$W/results" | wc -l)
    done_ok=$(count crash completed)
    lost=$(count crash lost)
    failed=$(($(count crash failed) + $(count crash cancelled)))
    refused=$(count crash submit-refused)
    resub=$(cat "$W/resubmitted" 2>/dev/null | wc -l)
    parts_total=$(awk '$3 == "crash" && $4 == "completed" {n += $6} END {print n + 0}' "$W/results")
    verified=$(grep -c '^ok' "$W/verified" 2>/dev/null || true)
    badproofs=$(grep -c '^BAD' "$W/verified" 2>/dev/null || true)
    # one result file per job: two for one request id would be a job run twice
    dups=$(for f in "$W"/state/jobs/*.result; do sed -n 2p "$f" | grep -o '"request_id":"[^"]*"'; done |
        sort | uniq -d | wc -l)
    results_files=$(ls "$W"/state/jobs/*.result 2>/dev/null | wc -l)
    cat <<EOT

### Daemon crash soak ($(date +%F), $(nproc) cores)

\`SOAK_KILL=1 SOAK_JOBS=$jobs SOAK_LANES=$lanes SOAK_SIZES="${sizes[*]}" bench/soak.sh\`: $jobs jobs in $((t1 - t0)) s
from $lanes client lanes; the daemon was killed with SIGKILL $kills times (every ~${kill_every} s on average)
and started again at once; circuits of ${sizes[*]} constraints, 1 to 3 partitions per job.

| Outcome | Count |
|---|---|
| jobs accepted (202, or 409 for a submit sent again whose first try had got in) | $accepted |
| submits sent again after a lost answer and found by request id (409) | $resub |
| jobs completed | $done_ok |
| jobs failed or cancelled | $failed |
| jobs lost (404, or never ending) | $lost |
| jobs run twice (two results for one request id) | $dups |
| result files in the state directory | $results_files |
| proofs verified by \`snarkpipe verify\` (every partition of every job) | $verified of $parts_total ($badproofs invalid) |
| kill -9 and restart | $kills |
| accepted jobs unfinished at a kill (summed over the kills; each ran again after the restart) | $inflight |
| submits never accepted | $refused |
| daemon exit after the final SIGTERM | $drc |
EOT
    [ "$lost" -eq 0 ] && [ "$dups" -eq 0 ] && [ "$failed" -eq 0 ] && [ "$badproofs" -eq 0 ] && [ "$refused" -eq 0 ] &&
        [ "$done_ok" -eq "$jobs" ] && [ "$verified" -eq "$parts_total" ] && [ "$drc" -eq 0 ]
    exit
fi
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
