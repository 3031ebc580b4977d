#!/usr/bin/env bash
# What the daemon and `snarkpipe client` tell their user:
#   a. the daemon logs its curve and backends at start; a key of the other
#      curve is refused with 422 saying which daemon to start (`--curve
#      bn254`), and the refusal is logged;
#   b. one info line per job event: submitted, started, each partition
#      proved (jobs of several), completed with its duration, failed with
#      its reason, cancelled; never a witness value;
#   c. a pending job's "progress" (partitions, partitions_done, stage,
#      percent, one entry per partition) while it waits and once it runs,
#      its percent never going back; the status page's lanes and JSON name
#      the devices (two CPU devices: cpu0, cpu1), not a GPU: "device" queues,
#      states, timings and metrics;
#   d. client prove without an output option is a usage error (nothing
#      sent); with --json it prints the answer; an output directory that is
#      missing is refused before anything is sent;
#   e. client prove and await while a job waits: a progress line on a
#      terminal (script(1)), plain "job ...: N of M partitions proved" lines
#      on stderr otherwise, none with --quiet; the proofs verify.
# Usage: tests/test_daemon_ux.sh BUILD (run.sh passes it). SP_TEST_VERBOSE=1 lists every check.
set -u
build=${1:-build}
bin=$(cd "$build" 2>/dev/null && pwd)/snarkpipe
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$bin" ] || { echo "test_daemon_ux.sh: $build/snarkpipe not found (build first)"; exit 1; }
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
need_daemon test_daemon_ux.sh "$bin"
command -v script >/dev/null || { echo "test_daemon_ux.sh: script(1) is needed (util-linux / bsdutils)"; exit 1; }

T=$(mktemp -d "${TMPDIR:-/tmp}/sp_test_daemon_ux.XXXXXX")
pid=
cleanup() { [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; [ -n "${SP_KEEP:-}" ] || rm -rf "$T"; }
trap cleanup EXIT
ok() { pass=$((pass + 1)); [ -z "${SP_TEST_VERBOSE:-}" ] || echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }
log=$T/daemon.log
# wait_log REGEX: until the daemon's log has a line matching REGEX (at most 120 s); 0 when it has
wait_log() { for _ in $(seq 1200); do grep -Eq -- "$1" "$log" && return 0; sleep 0.1; done; return 1; }

cd "$T" || exit 1
"$bin" gen-circuit --quiet --constraints 64 --public 2 --seed 3 small.r1cs small.wtns || exit 1
"$bin" setup small.r1cs small.zkey >/dev/null 2>&1 || exit 1
"$bin" export-vkey small.zkey small_vk.json >/dev/null || exit 1
# a job of a few seconds on one thread: progress has time to show
"$bin" gen-circuit --quiet --constraints 2^13 --public 1 --seed 4 big.r1cs big.wtns || exit 1
"$bin" setup big.r1cs big.zkey >/dev/null 2>&1 || exit 1
"$bin" export-vkey big.zkey big_vk.json >/dev/null || exit 1
# another circuit of the same size: its witness does not satisfy small's constraints
"$bin" gen-circuit --quiet --constraints 64 --public 2 --seed 9 other.r1cs other.wtns || exit 1
"$bin" --curve bn254 gen-circuit --quiet --constraints 16 --public 1 --seed 5 bn.r1cs bn.wtns || exit 1
"$bin" setup bn.r1cs bn128.zkey >/dev/null 2>&1 || exit 1

sock=$T/d.sock
cat >d.conf <<EOF
[engine]
backends = cpu,cpu
synth_threads = 1
backend_threads = 1
finish_threads = 1
budget = 512MiB
[server]
listen = unix:$sock
ready_file = $T/ready
[keys]
load_threads = 1
key_dirs = $T
EOF
"$bin" daemon --config d.conf 2>"$log" &
pid=$!
for _ in $(seq 600); do [ -s ready ] && break; kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
[ -s ready ] || { echo "test_daemon_ux.sh: the daemon did not start:"; tail -20 "$log"; exit 1; }
cl() { "$bin" client --addr "unix:$sock" "$@"; }
get() { cl --json "$@"; } # a route's answer on stdout

# ---- a. the curve ----
check "the start is logged with the curve and backends" "grep -Eq 'info  engine: curve bls12-381, backends cpu,cpu, ' '$log'"
expect 2 "a bn128 key on a BLS12-381 daemon" cl register --id bn --zkey "$T/bn128.zkey"
expect_out "HTTP 422 bad_key: zkey is for bn254 \(bn128\) but this daemon proves bls12-381; start one with \`--curve bn254\` \(or \`\[engine\] curve = bn254\`\) for this key" \
    "  says how to get a daemon for it"
check "  the refusal is logged" "grep -q 'info  circuit bn: registration refused (422 bad_key): zkey is for bn254' '$log'"
expect 0 "register small" cl register --id small --zkey "$T/small.zkey"
expect 0 "register big" cl register --id big --zkey "$T/big.zkey"

# ---- b. job events in the log ----
mkdir -p o1
expect 0 "a job of two partitions" cl prove --circuit small --out-dir o1 --request-id two small.wtns small.wtns
expect 0 "  its proofs verify" "$bin" verify small_vk.json o1/public_1.json o1/proof_1.json
jid=$(sed -n 's/.*info  job \([^:]*\): submitted (circuit small, 2 partitions, priority 0, request_id .two.).*/\1/p' "$log")
check "submitted is logged (with circuit, partitions, priority, request id)" "[ -n '$jid' ]"
wait_log "job $jid: completed"
check "started is logged" "grep -Eq 'info  job $jid: started \(2 partitions; [0-9]+ ms in the queue\)' '$log'"
check "each partition proved is logged" "grep -q 'info  job $jid: partition 0 proved (. of 2)' '$log' && grep -q 'info  job $jid: partition 1 proved (. of 2)' '$log'"
check "completed is logged with its duration" "grep -Eq 'info  job $jid: completed \(2 proofs, [0-9.]+ ms\)' '$log'"
expect 2 "a witness that does not satisfy the circuit" cl prove --json --circuit small other.wtns
fid=$(sed -n 's/.*"job_id":"\([^"]*\)".*/\1/p' "$T/out" | head -1)
check "  the job failed ($fid)" "grep -q '\"status\":\"failed\"' '$T/out' && [ -n '$fid' ]"
wait_log "job $fid: failed"
check "failed is logged with the reason" "grep -Eq 'info  job $fid: failed after [0-9.]+ ms: .+' '$log'"
expect 0 "a request id with control characters" cl prove --json --circuit small --request-id $'r\e[31m\tx' small.wtns
check "  is logged without them" "grep -q \"request_id 'r \\[31m x'\" '$log' && ! grep -q \$'\\e' '$log'"
expect 0 "pause" cl pause
expect 0 "submit while paused" cl submit --circuit small small.wtns
cid=$(cat "$T/out")
expect 0 "cancel it" cl cancel "$cid"
wait_log "job $cid: cancelled"
check "cancelled is logged" "grep -Eq 'info  job $cid: cancelled after [0-9.]+ ms' '$log'"
values=$(grep -Eo '[0-9]{12,}' "$log" | head -3)
check "no witness value in the log (no long numbers: '$values')" "[ -z '$values' ]"

# ---- c. progress in the API; devices named by what they are ----
expect 0 "submit a job of two partitions while paused" cl submit --circuit big --request-id prog big.wtns big.wtns
get await --wait-ms 0 prog >"$T/p0" 2>&1
check "a queued job's progress" "grep -q '\"progress\":{\"per_partition\":\[{\"stage\":\"queued\",\"percent\":0},{\"stage\":\"queued\",\"percent\":0}\],\"partitions\":2,\"partitions_done\":0,\"stage\":\"queued\",\"percent\":0}' '$T/p0'"
check "  and its partition states" "grep -q '\"partition_states\":\[\"queued\",\"queued\"\]' '$T/p0'"
expect 0 "resume" cl resume
last=0 seen=0 back=0 stages=
for _ in $(seq 2400); do
    get await --wait-ms 0 prog >"$T/p" 2>&1
    grep -q '"status":"completed"' "$T/p" && break
    p=$(sed -n 's/.*"partitions_done":[0-9]*,"stage":"[^"]*","percent":\([0-9]*\)}.*/\1/p' "$T/p")
    s=$(sed -n 's/.*"partitions_done":[0-9]*,"stage":"\([^"]*\)".*/\1/p' "$T/p")
    [ -n "$p" ] || continue
    seen=$((seen + 1))
    [ "$p" -lt "$last" ] && back=1
    [ "$p" -gt 100 ] && back=1
    last=$p
    case " $stages " in *" $s "*) ;; *) stages="$stages $s" ;; esac
    sleep 0.05
done
check "progress read while the job ran ($seen answers; stages:$stages)" "[ $seen -ge 1 ]"
check "  its percent never went back nor past 100" "[ $back = 0 ]"
check "  the job completed" "grep -q '\"status\":\"completed\"' '$T/p'"
check "  timings name the device, not a GPU" "grep -q '\"timings_ms\":{\"queue_wait\":[0-9.]*,\"synthesis\":[0-9.]*,\"device\":' '$T/p'"
get status >"$T/s" 2>&1
check "status: lanes named after the CPU devices (cpu0, cpu1)" "grep -Eq '\"lanes\":\[\"synth 0\",(\"synth [0-9]+\",)*\"cpu0 w0\",(\"cpu0 w[0-9]+\",)*\"cpu1 w0\",' '$T/s'"
check "status: the device queue" "grep -q '\"queues\":{\"dispatch\":[0-9]*,\"device\":[0-9]*' '$T/s'"
check "status: no gpu anywhere" "! grep -qi 'gpu' '$T/s'"
get metrics >"$T/m" 2>&1
check "metrics: device names" "grep -q '^snarkpipe_device_busy_ratio{device=\"cpu#2\"}' '$T/m' && grep -q 'snarkpipe_queue_depth{queue=\"device\"}' '$T/m' && grep -q 'stage=\"device\"' '$T/m'"
check "metrics: no gpu anywhere" "! grep -qi 'gpu' '$T/m'"

# ---- d. client prove's outputs ----
n_sub=$(grep -c ": submitted" "$log")
expect 64 "prove without an output option" cl prove --circuit small small.wtns
expect_out "prove needs somewhere to put the proofs: --proof FILE --public FILE \(one partition\), --out-dir DIR, or --json" "  says what to give"
expect 2 "prove into a missing directory" cl prove --circuit small --out-dir "$T/nowhere" small.wtns
expect_out "out-dir $T/nowhere: not a writable directory" "  names it"
expect 2 "prove into a file of a missing directory" cl prove --circuit small --proof "$T/nowhere/p.json" small.wtns
check "  nothing was sent for them" "[ \$(grep -c ': submitted' '$log') = $n_sub ]"
expect 0 "prove --json prints the answer" cl prove --json --circuit small small.wtns
expect_out '"status":"completed"' "  (the result)"

# ---- e. progress while the client waits ----
# pause, start the client, see the job queued, resume: the client shows the wait.
bg_prove() { # OUTFILE CMD-STRING: runs CMD in the background; its pid in bgpid
    bash -c "$2" >"$1" 2>&1 &
    bgpid=$!
}
shown_then_resume() { # FILE REGEX: once the client wrote REGEX (its job queued, dispatch paused) to FILE, resume
    for _ in $(seq 1200); do grep -Eq -- "$2" "$1" 2>/dev/null && break; sleep 0.1; done
    cl resume >/dev/null
}
cl pause >/dev/null
mkdir -p o2 o3 o4
bg_prove "$T/tty" "SP_TEST_PROGRESS_NOW=1 script -q -e -c \"'$bin' client --addr 'unix:$sock' prove --circuit small --out-dir o2 small.wtns\" /dev/null"
shown_then_resume "$T/tty" $'\rjob j[^:]*: 0/1, queued'
wait "$bgpid"; rc=$?
check "on a terminal: prove exits 0 ($rc)" "[ $rc = 0 ]"
check "  a progress line was drawn (\\r job ...: 0/1, queued)" "grep -q \$'\\rjob j[^:]*: 0/1, queued' '$T/tty'"
check "  then erased, and the summary printed" "grep -q 'completed (' '$T/tty'"
expect 0 "  its proof verifies" "$bin" verify small_vk.json o2/public_0.json o2/proof_0.json
cl pause >/dev/null
bg_prove "$T/plain" "'$bin' client --addr 'unix:$sock' prove --circuit small --out-dir o3 small.wtns 2>'$T/plain.err'"
shown_then_resume "$T/plain.err" 'partitions proved, queued'
wait "$bgpid"; rc=$?
check "stderr not a terminal: prove exits 0 ($rc)" "[ $rc = 0 ]"
check "  a plain progress line on stderr" "grep -Eq '^snarkpipe client: job j[^:]*: 0 of 1 partitions proved, queued, 0%$' '$T/plain.err'"
check "  no carriage return" "! grep -q \$'\\r' '$T/plain.err'"
expect 0 "  its proof verifies" "$bin" verify small_vk.json o3/public_0.json o3/proof_0.json
cl pause >/dev/null
expect 0 "submit for await on a terminal" cl submit --circuit small --request-id aw-tty small.wtns
mkdir -p o5
bg_prove "$T/tty2" "SP_TEST_PROGRESS_NOW=1 script -q -e -c \"'$bin' client --addr 'unix:$sock' await --out-dir o5 aw-tty\" /dev/null"
shown_then_resume "$T/tty2" $'\rjob j[^:]*: 0/1, queued'
wait "$bgpid"; rc=$?
check "await on a terminal: exits 0 ($rc)" "[ $rc = 0 ]"
check "  a progress line was drawn" "grep -q \$'\\rjob j[^:]*: 0/1, queued' '$T/tty2'"
expect 0 "  its proof verifies" "$bin" verify small_vk.json o5/public_0.json o5/proof_0.json
cl pause >/dev/null
expect 0 "submit for await" cl submit --circuit small --request-id aw small.wtns
bg_prove "$T/await" "'$bin' --quiet client --addr 'unix:$sock' await --out-dir o4 aw 2>'$T/await.err'"
sleep 1.5
cl resume >/dev/null
wait "$bgpid"; rc=$?
check "await --quiet exits 0 ($rc)" "[ $rc = 0 ]"
check "  and shows no progress" "[ ! -s '$T/await.err' ]"
expect 0 "  its proof verifies" "$bin" verify small_vk.json o4/public_0.json o4/proof_0.json

kill -TERM "$pid"
wait "$pid"
drc=$?
pid=
check "the daemon stops cleanly ($drc)" "[ $drc = 0 ]"
if grep -q "Sanitizer\|runtime error:" "$log"; then bad "sanitizer reports in the daemon log"; grep -A5 "Sanitizer\|runtime error:" "$log" | head -20; fi
echo "test_daemon_ux.sh: $((pass + fail)) checks, $fail failed"
[ "$fail" -eq 0 ]
