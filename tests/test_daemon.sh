#!/usr/bin/env bash
# `snarkpipe daemon` driven by `snarkpipe client`, as an operator would:
#   a. the annotated snarkpipe.conf.example is valid and names every option
#      (the same keys as --print-config); --help, bad flags, bad files;
#   b. circuits from the config file, registered by path and uploaded;
#      client prove / submit / await (by job id and by request id) / cancel /
#      status / metrics / circuits / evict; every proof (snarkjs JSON and
#      bellperson bytes) checked with `snarkpipe verify`;
#   c. kill -9, then a restart with the same configuration serves again:
#      the stale socket is replaced, the config circuit and the uploaded one
#      (state_dir) are back, proofs verify; their keys come from the key
#      cache (keys.cache_dir) filled by the first run; the temporary files
#      of cut-short state writes are swept;
#   d. SIGHUP: a smaller max_body applies (413), a new [circuit.*] section is
#      registered, a change that needs a restart is reported and ignored; a
#      token set and removed (401 without it; the client's --token-file, a
#      warning for a file others can read, a bad token or a FIFO refused);
#   e. SIGTERM drains a job in flight (it completes, exit 0); with
#      shutdown = cancel it is cancelled (exit 0);
#   f. a BN254 daemon (curve = bn254 in its configuration, the dispatcher
#      runs the BN254 daemon): it proves a bn128 key's jobs (the proofs
#      verify, no bellperson encoding), refuses a BLS12-381 key at
#      registration and a BLS12-381 witness, naming both curves; --curve
#      contradicting the configuration is refused.
# Usage: tests/test_daemon.sh BUILD (run.sh passes it). SP_TEST_VERBOSE=1 lists every check.
set -u
build=${1:-build}
bin=$build/snarkpipe
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$bin" ] || { echo "test_daemon.sh: $bin not found (build first)"; exit 1; }
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
need_daemon test_daemon.sh "$bin"

T=$(mktemp -d "${TMPDIR:-/tmp}/sp_test_daemon_sh.XXXXXX")
pid=
cleanup() { [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; [ -n "${SP_KEEP:-}" ] || rm -rf "$T"; }
trap cleanup EXIT
pass=0
fail=0

ok() { pass=$((pass + 1)); [ -z "${SP_TEST_VERBOSE:-}" ] || echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -f "$T/out" ] && sed 's/^/     | /' "$T/out" | tail -15; }
# expect CODE NAME CMD...: CMD exits with CODE; its output (both streams) is kept in $T/out.
expect() {
    local want=$1 name=$2 rc=0
    shift 2
    "$@" >"$T/out" 2>&1 || rc=$?
    if [ "$rc" -eq "$want" ] && ! grep -q "Sanitizer\|runtime error:" "$T/out"; then ok "$name"; else bad "$name (exit $rc, expected $want)"; fi
}
# expect_out REGEX NAME: the output of the last expect matches REGEX.
expect_out() { if grep -Eq -- "$1" "$T/out"; then ok "$2"; else bad "$2 (output does not match /$1/)"; fi; }

# ---- a. configuration ----
expect 0 "example config is valid" "$bin" daemon --check-config --config "$here/../snarkpipe.conf.example"
expect 0 "print-config" "$bin" daemon --print-config
grep -E '^[a-z_]+ =' "$T/out" | cut -d' ' -f1 | sort -u >"$T/keys.printed"
grep -E '^[a-z_]+ =' "$here/../snarkpipe.conf.example" | cut -d' ' -f1 | sort -u >"$T/keys.example"
if diff "$T/keys.printed" "$T/keys.example" >"$T/out"; then ok "example names every option"; else bad "example names every option"; fi
expect 0 "daemon --help" "$bin" daemon --help
expect_out "--max-body SIZE" "help lists the flags"
expect 64 "unknown flag" "$bin" daemon --no-such-flag
printf '[engine]\nbudget = plenty\n' >"$T/bad.conf"
expect 64 "bad config value" "$bin" daemon --config "$T/bad.conf" --check-config
expect_out "bad.conf:2: budget" "the error names the line"
expect 64 "client usage" "$bin" client --addr unix:/nonexistent frobnicate
expect 2 "client: no daemon" "$bin" client --addr unix:"$T/none.sock" status

# ---- circuits and witnesses ----
"$bin" gen-circuit --quiet --constraints 64 --public 2 --seed 7 "$T/c.r1cs" "$T/c.wtns" || exit 1
"$bin" setup "$T/c.r1cs" "$T/c.zkey" 2>/dev/null >/dev/null || exit 1
"$bin" export-vkey "$T/c.zkey" "$T/vk.json" >/dev/null && "$bin" export-vkey "$T/c.zkey" "$T/c.vk" >/dev/null || exit 1
"$bin" gen-circuit --quiet --constraints 4096 --public 1 --seed 8 "$T/big.r1cs" "$T/big.wtns" || exit 1
"$bin" setup "$T/big.r1cs" "$T/big.zkey" 2>/dev/null >/dev/null || exit 1
"$bin" gen-circuit --quiet --constraints 32 --public 1 --seed 9 "$T/late.r1cs" "$T/late.wtns" || exit 1
"$bin" setup "$T/late.r1cs" "$T/late.zkey" 2>/dev/null >/dev/null || exit 1
sock=$T/d.sock
cat >"$T/d.conf" <<EOF
[engine]
synth_threads = 1
backend_threads = 1
finish_threads = 1
budget = 512MiB
[server]
listen = unix:$sock
state_dir = $T/state
ready_file = $T/ready
log_level = debug
[keys]
load_threads = 1
key_dirs = $T
cache_dir = $T/kcache
[circuit.cfg]
zkey = $T/c.zkey
r1cs = $T/c.r1cs
[circuit.big]
zkey = $T/big.zkey
preload = no
EOF
cl() { "$bin" client --addr "unix:$sock" "$@"; }
start() { # start LOGNAME [flags...]: runs the daemon with $T/d.conf, waits for its ready file
    local log=$T/$1.log
    shift
    rm -f "$T/ready"
    "$bin" daemon --config "$T/d.conf" "$@" 2>>"$log" &
    pid=$!
    for _ in $(seq 300); do [ -s "$T/ready" ] && return 0; kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    echo "daemon did not start:"; tail -20 "$log"; return 1
}
# verify_out DIR NAME: proof_0.json / public_0.json / proof_0.bin in DIR verify.
verify_out() {
    expect 0 "$2: snarkjs JSON proof verifies" "$bin" verify "$T/vk.json" "$1/public_0.json" "$1/proof_0.json"
    expect 0 "$2: bellperson proof verifies" "$bin" verify "$T/c.vk" "$1/public_0.json" "$1/proof_0.bin"
}

# ---- b. the client ----
start run1 || exit 1
expect 0 "healthz" cl healthz
expect 0 "circuits" cl circuits
expect_out '"id":"cfg","tier":"hot"' "config circuit is hot"
expect_out '"id":"cfg","tier":"hot"[^}]*"key_cache":"miss"' "its key was checked and cached"
expect_out '"id":"big","tier":"cold"' "preload = no registers it cold"
expect 0 "register by path" cl register --id api --zkey "$T/c.zkey"
expect 2 "register twice" cl register --id api --zkey "$T/c.zkey"
expect_out "HTTP 409 circuit_exists" "duplicate id is 409"
expect 0 "register by upload" cl register --upload --id up --zkey "$T/c.zkey" --r1cs "$T/c.r1cs"
expect 0 "prove" cl prove --circuit cfg --proof "$T/p.json" --public "$T/pub.json" --bin "$T/p.bin" "$T/c.wtns"
expect 0 "prove: JSON verifies" "$bin" verify "$T/vk.json" "$T/pub.json" "$T/p.json"
expect 0 "prove: bellperson verifies" "$bin" verify "$T/c.vk" "$T/pub.json" "$T/p.bin"
"$bin" prove "$T/c.zkey" "$T/c.wtns" "$T/ref_p.json" "$T/ref_pub.json" >/dev/null 2>&1
expect 0 "client's public.json is byte for byte the CLI's (snarkjs layout)" cmp "$T/pub.json" "$T/ref_pub.json"
expect 0 "submit" cl submit --circuit up --request-id r-42 "$T/c.wtns"
jid=$(cat "$T/out")
mkdir -p "$T/o1" "$T/o2"
expect 0 "await by job id" cl await --out-dir "$T/o1" "$jid"
verify_out "$T/o1" "await"
expect 0 "await by request id" cl await --out-dir "$T/o2" r-42
verify_out "$T/o2" "await by request id"
expect 0 "pause" cl pause
expect 0 "submit while paused" cl submit --circuit cfg "$T/c.wtns"
qid=$(cat "$T/out")
expect 75 "await: still pending" cl await --wait-ms 200 "$qid"
expect 0 "cancel" cl cancel "$qid"
expect_out '"cancelled":true,"was_running":false' "cancel of a queued job"
expect 2 "await a cancelled job" cl await "$qid"
expect_out "cancelled" "its status is cancelled"
expect 0 "resume" cl resume
expect 0 "status" cl status
expect_out '"waterfall"' "status has the waterfall"
expect 0 "metrics" cl metrics
expect_out '^snarkpipe_proofs_completed_total\{circuit="cfg"\} 1$' "metrics count the proofs"
expect 0 "evict" cl evict api
expect 2 "evict unknown" cl evict api
expect_out "HTTP 404" "evicting twice is 404"
expect 2 "prove on an unknown circuit" cl prove --json --circuit nope "$T/c.wtns"
expect_out "HTTP 404 unknown_circuit" "unknown circuit is 404"

# ---- c. kill -9 and restart ----
kill -9 "$pid"; wait "$pid" 2>/dev/null
[ -S "$sock" ] && ok "kill -9 leaves the socket behind" || bad "kill -9 leaves the socket behind"
# what a kill during a state write leaves (util/file.h's temporary names, and
# the older <name>.tmp) is swept at the start; other files stay
for f in circuits/up.json.tmp-4242-0 circuits/old.json.tmp jobs/j9.x.job.tmp-77-3 jobs/notes.txt; do
    echo partial >"$T/state/$f"
done
start run2 || exit 1
grep -q "removing the stale socket" "$T/run2.log" && ok "stale socket replaced" || bad "stale socket replaced"
left=$(cd "$T/state" && ls circuits/*.tmp* jobs/*.tmp* 2>/dev/null)
[ -z "$left" ] && [ -e "$T/state/jobs/notes.txt" ] && [ "$(grep -c "removing the leftover" "$T/run2.log")" = 3 ] &&
    ok "temporary files of cut-short state writes removed, nothing else" || bad "leftover temporary files: '$left'"
rm -f "$T/state/jobs/notes.txt"
expect 0 "circuits after restart" cl circuits
expect_out '"id":"up"' "uploaded circuit restored from state_dir"
expect_out '"id":"cfg"' "config circuit registered again"
expect_out '"id":"cfg"[^}]*"key_cache":"hit"' "config circuit's key loaded from the key cache"
if grep -q '"id":"api"' "$T/out"; then bad "evicted circuit stays evicted"; else ok "evicted circuit stays evicted"; fi
mkdir -p "$T/o3"
expect 0 "prove after restart" cl prove --circuit up --out-dir "$T/o3" "$T/c.wtns"
verify_out "$T/o3" "after restart"
expect 0 "circuits after a proof" cl circuits
expect_out '"id":"up"[^}]*"key_cache":"hit"' "uploaded circuit's key loaded from the key cache"

# ---- d. SIGHUP ----
sed -i 's/^log_level = debug/log_level = info\nmax_body = 64KiB/; s/^synth_threads = 1/synth_threads = 2/' "$T/d.conf"
printf '[circuit.late]\nzkey = %s\n' "$T/late.zkey" >>"$T/d.conf"
kill -HUP "$pid"
for _ in $(seq 300); do grep -q "reload done\|reload failed" "$T/run2.log" && break; sleep 0.1; done
expect 2 "a body over the reloaded max_body" cl prove --json --circuit big "$T/big.wtns"
expect_out "HTTP 413 body_too_large" "413 after SIGHUP"
expect 0 "circuits after SIGHUP" cl circuits
expect_out '"id":"late"' "new [circuit] section registered on SIGHUP"
grep -q "synth_threads changed.*needs a restart" "$T/run2.log" && ok "restart-only change reported" || bad "restart-only change reported"
sed -i 's/^max_body = 64KiB/max_body = 8MiB/' "$T/d.conf"
kill -HUP "$pid"
for _ in $(seq 300); do [ "$(grep -c "reload done" "$T/run2.log")" -ge 2 ] && break; sleep 0.1; done
# a token set by SIGHUP; the client's --token-file is read by the same reader
printf 'tok-0123456789abcdef0123456789abcdef\n' >"$T/token"
chmod 600 "$T/token"
sed -i "s|^ready_file = .*|&\ntoken_file = $T/token|" "$T/d.conf"
kill -HUP "$pid"
for _ in $(seq 300); do [ "$(grep -c "reload done" "$T/run2.log")" -ge 3 ] && break; sleep 0.1; done
expect 2 "token set: a request without it" cl status
expect_out "HTTP 401" "  (401)"
expect 0 "the client's --token-file" cl --token-file "$T/token" status
if grep -q "can be read by other users" "$T/out"; then bad "  (no warning for a 0600 file)"; else ok "  (no warning for a 0600 file)"; fi
chmod 644 "$T/token"
expect 0 "a token file others can read" cl --token-file "$T/token" status
expect_out "warning: token file .* can be read by other users" "  (the client warns)"
printf 'two words\n' >"$T/badtoken"
expect 2 "the client refuses a token with a blank inside" cl --token-file "$T/badtoken" status
expect_out "expected one line of 1 to 4095 printable characters" "  (says what a token is)"
mkfifo "$T/tokfifo"
expect 2 "the client refuses a FIFO as the token file, without blocking" timeout 20 "$bin" client --addr "unix:$sock" --token-file "$T/tokfifo" status
expect_out "not a regular file" "  (says so)"
sed -i '/^token_file = /d' "$T/d.conf"
kill -HUP "$pid"
for _ in $(seq 300); do [ "$(grep -c "reload done" "$T/run2.log")" -ge 4 ] && break; sleep 0.1; done
expect 0 "token removed by SIGHUP: no token needed" cl status

# ---- e. SIGTERM: drain, then cancel ----
w16=(); for _ in $(seq 16); do w16+=("$T/big.wtns"); done
# sigterm_in_job WHAT OUT: submits a long job, awaits it in the background
# (its output to OUT), SIGTERMs the daemon meanwhile; arc is await's exit
# status, drc the daemon's.
sigterm_in_job() {
    local bid aw
    expect 0 "$1" cl submit --circuit big "${w16[@]}"
    bid=$(cat "$T/out")
    cl await --wait-ms 60000 "$bid" >"$2" 2>&1 &
    aw=$!
    sleep 0.3
    kill -TERM "$pid"
    wait "$aw"; arc=$?
    wait "$pid"; drc=$?; pid=
}
sigterm_in_job "submit a long job" "$T/drain.out"
[ "$arc" -eq 0 ] && grep -q "completed" "$T/drain.out" && ok "drain: the job in flight completes" || { bad "drain: the job in flight completes (await exit $arc)"; cat "$T/drain.out"; }
[ "$drc" -eq 0 ] && ok "drain: exit 0" || bad "drain: exit $drc"
grep -q "draining 1 job" "$T/run2.log" && ok "drain logged" || bad "drain logged"
[ -e "$sock" ] && bad "socket removed at exit" || ok "socket removed at exit"

start run3 --shutdown cancel || exit 1
sigterm_in_job "submit a long job (cancel mode)" "$T/cancel.out"
[ "$arc" -eq 2 ] && grep -q "cancelled" "$T/cancel.out" && ok "cancel mode: the job is cancelled" || { bad "cancel mode: the job is cancelled (await exit $arc)"; cat "$T/cancel.out"; }
[ "$drc" -eq 0 ] && ok "cancel mode: exit 0" || bad "cancel mode: exit $drc"

# ---- f. a BN254 daemon ----
bnv=$here/vectors/chain1021_bn128
blsv=$here/vectors/chain1021_bls12381
cp "$bnv/circuit_final.zkey" "$T/bn.zkey"
cp "$blsv/circuit_final.zkey" "$T/bls.zkey"
sock=$T/bn.sock
cat >"$T/d.conf" <<EOF
[engine]
curve = bn254
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
[circuit.bn]
zkey = $T/bn.zkey
EOF
expect 64 "--curve bls12-381 against curve = bn254" "$bin" --curve bls12-381 daemon --config "$T/d.conf" --check-config
expect_out "curve = bn254, but this is the bls12-381 daemon" "  (says so)"
start run4 || exit 1
grep -q "info  engine: curve bn254, backends cpu" "$T/run4.log" && ok "bn254: the start log names the curve" ||
    bad "bn254: the start log names the curve"
expect 0 "bn254 status" cl status
expect_out '"curve":"bn254"' "  (the daemon's curve)"
mkdir -p "$T/o4"
expect 0 "bn254: prove" cl prove --circuit bn --out-dir "$T/o4" "$bnv/witness.wtns"
expect 0 "bn254: the proof verifies" "$bin" verify "$bnv/verification_key.json" "$T/o4/public_0.json" "$T/o4/proof_0.json"
[ ! -e "$T/o4/proof_0.bin" ] && ok "bn254: no bellperson encoding" || bad "bn254: no bellperson encoding"
expect 2 "bn254: a BLS12-381 key is refused at registration" cl register --id bls --zkey "$T/bls.zkey"
expect_out "zkey is for bls12-381 but this daemon proves bn254; start one with \`--curve bls12-381\` \(or \`\[engine\] curve = bls12-381\`\) for this key" "  (names both curves and how to get a daemon of the key's)"
expect 2 "bn254: a BLS12-381 witness is refused" cl prove --json --circuit bn "$blsv/witness.wtns"
expect_out "wtns is for bls12-381 but this daemon proves bn254; start one with \`--curve bls12-381\`" "  (names both curves and the fix)"
kill -TERM "$pid"
wait "$pid"; drc=$?; pid=
[ "$drc" -eq 0 ] && ok "bn254: exit 0" || bad "bn254: exit $drc"

if grep -l "Sanitizer\|runtime error:" "$T"/*.log >/dev/null 2>&1; then bad "sanitizer reports in the daemon logs"; grep -h -A5 "Sanitizer\|runtime error:" "$T"/*.log | head -30; fi
echo "test_daemon.sh: $((pass + fail)) checks, $fail failed"
[ "$fail" -eq 0 ]
