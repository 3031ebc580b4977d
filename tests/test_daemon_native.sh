#!/usr/bin/env bash
# `snarkpipe daemon` with native circuits (porep-like, window-post-like):
# jobs that carry inputs (a seed and a partition each) instead of
# witnesses. One small porep-like key (the shape of test_porep_cli.sh,
# about 2^18 constraints) serves every porep-like circuit here, and one
# small window-post-like key (2 sectors of 2 challenges, 64 nodes) the
# window-post-like ones:
#   a. --check-config takes a native [circuit.*] section and refuses bad ones
#      (an unknown kind, a shape the circuit refuses, a native circuit with
#      an r1cs);
#   b. registration: by the configuration, by the API (path) and by upload;
#      GET /v1/circuits describes them (kind, parameters, constraints);
#      refused with the right codes: unknown kind 400, unknown preset and
#      bad shape 422 bad_params, a key of another shape 422 bad_key;
#   c. jobs from 2 clients at once on two native circuits: every proof
#      verified by the daemon; one checked with `snarkpipe verify`, its
#      public.json byte for byte what `snarkpipe prove --circuit porep-like`
#      gives for the same seed and partition; a window-post-like job on a
#      circuit of the configuration and one registered through the API,
#      checked with `snarkpipe verify`, its public.json that of the
#      witness gen-circuit writes for the same seed and partition;
#   d. bad jobs refused: witnesses for a native circuit and inputs for a
#      file circuit (400), bad seeds and partitions (400 bad_input), more
#      inputs than engine.max_partitions (413); the seed's string form and
#      2^64-1 accepted;
#   e. kill -9 while a native job runs, restart: the job completes under its
#      id (its proofs verify), the API and uploaded circuits are back.
# Usage: tests/test_daemon_native.sh BUILD (run.sh passes it). SP_TEST_VERBOSE=1 lists every check.
set -u
build=${1:-build}
bin=$build/snarkpipe
[ -x "$bin" ] || { echo "test_daemon_native.sh: $bin not found (build first)"; exit 1; }
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
need_daemon test_daemon_native.sh "$bin"
T=$(mktemp -d "${TMPDIR:-/tmp}/sp_test_dnative.XXXXXX")
pid=
cleanup() { [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; [ -n "${SP_KEEP:-}" ] || rm -rf "$T"; }
trap cleanup EXIT
ok() { pass=$((pass + 1)); [ -z "${SP_TEST_VERBOSE:-}" ] || echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -f "$T/out" ] && sed 's/^/     | /' "$T/out" | tail -15; }

# ---- the key (once), a small file circuit, the CLI's reference proof ----
shape=(--nodes 4 --layers 2 --challenges 1 --drg-parents 1 --exp-parents 1 --label-parents 2)
"$bin" --quiet gen-circuit --kind porep-like "${shape[@]}" "$T/c.r1cs" "$T/c.wtns" || exit 1
"$bin" --quiet setup "$T/c.r1cs" "$T/c.zkey" >/dev/null 2>&1 || { echo "setup failed"; exit 1; }
"$bin" --quiet export-vkey "$T/c.zkey" "$T/vk.json" || exit 1
rows=$("$bin" --json gen-circuit --kind porep-like "${shape[@]}" --dry-run | sed -n 's/.*"constraints":\([0-9]*\).*/\1/p')
rm -f "$T/c.r1cs" "$T/c.wtns"
"$bin" --quiet gen-circuit --constraints 64 --public 2 --seed 7 "$T/f.r1cs" "$T/f.wtns" || exit 1
pshape=(--sectors 2 --challenges 2 --nodes 64)
"$bin" --quiet gen-circuit --kind window-post-like "${pshape[@]}" --seed 9 --partition 3 "$T/p.r1cs" "$T/p.wtns" ||
    exit 1
"$bin" --quiet setup "$T/p.r1cs" "$T/p.zkey" >/dev/null 2>&1 || { echo "setup (window-post-like) failed"; exit 1; }
"$bin" --quiet export-vkey "$T/p.zkey" "$T/pvk.json" || exit 1
prows=$("$bin" --json gen-circuit --kind window-post-like "${pshape[@]}" --dry-run |
    sed -n 's/.*"constraints":\([0-9]*\).*/\1/p')
expect 0 "window-post-like seed 9 partition 3 from its .wtns (the reference)" "$bin" --quiet prove \
    --skip-subgroup-check "$T/p.zkey" "$T/p.wtns" "$T/pref_proof.json" "$T/pref_public.json"
"$bin" --quiet setup "$T/f.r1cs" "$T/f.zkey" >/dev/null 2>&1 || exit 1
expect 0 "CLI native prove, seed 5 partition 1 (the reference)" "$bin" --quiet prove --skip-subgroup-check \
    --circuit porep-like "${shape[@]}" --seed 5 --partition 1 "$T/c.zkey" "$T/ref_proof.json" "$T/ref_public.json"

# ---- a. configuration ----
sock=$T/d.sock
cat >"$T/d.conf" <<EOF
[engine]
synth_threads = 2
backend_threads = 2
# gpu_threads: the old name of finish_threads, still accepted
gpu_threads = 2
budget = 3GiB
max_partitions = 4
[server]
listen = unix:$sock
listen = 127.0.0.1:0
state_dir = $T/state
ready_file = $T/ready
[keys]
load_threads = 2
skip_subgroup_check = yes
key_dirs = $T
[circuit.cfgn]
zkey = $T/c.zkey
native = porep-like
nodes = 4
layers = 2
challenges = 1
drg_parents = 1
exp_parents = 1
label_parents = 2
[circuit.file]
zkey = $T/f.zkey
[circuit.cfgp]
zkey = $T/p.zkey
native = window-post-like
sectors = 2
challenges = 2
nodes = 64
EOF
expect 0 "a native section passes --check-config" "$bin" daemon --config "$T/d.conf" --check-config
bad_conf() { # bad_conf NAME REGEX LINE...: the config with the native section's lines replaced is refused
    local name=$1 re=$2
    shift 2
    { sed -n '1,/^\[circuit.cfgn\]/p' "$T/d.conf"; echo "zkey = $T/c.zkey"; printf '%s\n' "$@"; } >"$T/bad.conf"
    expect 64 "$name" "$bin" daemon --config "$T/bad.conf" --check-config
    expect_out "$re" "$name: the message says why"
}
bad_conf "unknown native kind" "unknown native circuit 'porep-lite'" "native = porep-lite"
bad_conf "a shape the circuit refuses" "circuit.cfgn.*power of two" "native = porep-like" "nodes = 12"
bad_conf "an unknown preset" "unknown preset '3KiB'" "native = porep-like" "preset = 3KiB"
bad_conf "parameters without native" "without native" "nodes = 4"
bad_conf "a native circuit with an r1cs" "zkey only" "native = porep-like" "r1cs = $T/f.r1cs"
bad_conf "a parameter that is no number" "layers: '2x'" "native = porep-like" "layers = 2x"
bad_conf "a parameter of another kind" "window-post-like takes no parameter 'layers'" "native = window-post-like" \
    "layers = 2"

cl() { "$bin" client --addr "unix:$sock" "$@"; }
start() { # start LOGNAME: runs the daemon, waits for its ready file
    local log=$T/$1.log
    rm -f "$T/ready"
    "$bin" daemon --config "$T/d.conf" 2>>"$log" &
    pid=$!
    for _ in $(seq 600); do [ -s "$T/ready" ] && break; kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    [ -s "$T/ready" ] || { echo "daemon did not start:"; tail -20 "$log"; return 1; }
    port=$(sed -n 's/^127\.0\.0\.1:\([0-9]*\)$/\1/p' "$T/ready")
}
# post PATH JSON: a raw request on the TCP listener (no client in between); the answer in $T/out
post() {
    exec 3<>"/dev/tcp/127.0.0.1/$port" || { echo "cannot connect" >"$T/out"; return; }
    printf 'POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: %d\r\n' \
        "$1" "${#2}" >&3
    printf 'Connection: close\r\n\r\n%s' "$2" >&3
    cat <&3 >"$T/out"
    exec 3<&-
}
# refuse NAME CODE ERROR PATH JSON
refuse() {
    post "$4" "$5"
    if head -1 "$T/out" | grep -q "^HTTP/1.1 $2 " && grep -q "\"error\":\"$3\"" "$T/out"; then ok "$1"
    else bad "$1 (expected $2 $3)"; fi
}

# ---- b. registration ----
start run1 || exit 1
expect 0 "circuits" cl circuits
expect_out '"id":"cfgn","tier":"hot","kind":"porep-like","native_params":\{"preset":"custom","challenges":1,"layers":2,"nodes":4,' \
    "the config's native circuit is described with its parameters"
expect_out "\"id\":\"cfgn\",.*\"constraints\":$rows," "the config's native circuit has its constraints"
expect_out '"id":"file","tier":"hot","kind":"file"' "a file circuit's kind"
expect 0 "register native by path" cl register --id apin --zkey "$T/c.zkey" --native porep-like "${shape[@]}"
expect_out '"id":"apin","tier":"hot","kind":"porep-like"' "the answer describes it"
expect 0 "register native by upload" cl register --upload --no-preload --id upn --zkey "$T/c.zkey" \
    --native porep-like --preset 2KiB "${shape[@]}"
expect_out '"preset":"2KiB\*"' "an overridden preset is named with a star"
expect 2 "unknown native kind" cl register --id x1 --zkey "$T/c.zkey" --native porep-lite
expect_out "HTTP 400 bad_request: unknown native circuit" "unknown kind is 400"
expect 2 "unknown preset" cl register --id x2 --zkey "$T/c.zkey" --native porep-like --preset 3KiB
expect_out "HTTP 422 bad_params: .*unknown preset" "unknown preset is 422 bad_params"
expect 2 "bad shape" cl register --id x3 --zkey "$T/c.zkey" --native porep-like --nodes 12
expect_out "HTTP 422 bad_params: .*power of two" "bad shape is 422 bad_params"
expect 2 "a key of another shape" cl register --id x4 --zkey "$T/c.zkey" --native porep-like --nodes 8 \
    --layers 2 --challenges 1 --drg-parents 1 --exp-parents 1 --label-parents 2
expect_out "HTTP 422 bad_key: the key \(234918 wires" "a key of another shape is 422 bad_key"
expect 2 "an upload of a key of another shape" cl register --upload --id x5 --zkey "$T/c.zkey" \
    --native porep-like --nodes 4 --layers 3 --challenges 1 --drg-parents 1 --exp-parents 1 --label-parents 2
expect_out "HTTP 422 bad_key" "an upload of a key of another shape is 422 bad_key"
[ "$(ls "$T/state/uploads")" = "$(ls "$T/state/uploads" | grep '^upn\.')" ] && ok "a refused upload leaves no file" ||
    bad "a refused upload leaves no file"
expect 64 "client: parameters without --native" cl register --id x6 --zkey "$T/c.zkey" --nodes 4
refuse "native_params of the wrong type" 400 bad_request /v1/circuits \
    "{\"id\":\"x7\",\"zkey\":\"$T/c.zkey\",\"native\":\"porep-like\",\"native_params\":{\"nodes\":\"4\"}}"
refuse "an unknown parameter" 400 bad_request /v1/circuits \
    "{\"id\":\"x8\",\"zkey\":\"$T/c.zkey\",\"native\":\"porep-like\",\"native_params\":{\"sector\":4}}"
refuse "window-post-like's parameter for porep-like" 422 bad_params /v1/circuits \
    "{\"id\":\"x8\",\"zkey\":\"$T/c.zkey\",\"native\":\"porep-like\",\"native_params\":{\"sectors\":4}}"
expect_out "porep-like takes no parameter 'sectors'" "  the detail names the parameter"
expect 0 "circuits (window-post-like)" cl circuits
expect_out '"id":"cfgp","tier":"hot","kind":"window-post-like","native_params":\{"preset":"custom","challenges":2,"nodes":64,"sectors":2\},"constraints":'"$prows," \
    "the config's window-post-like circuit is described with its parameters and constraints"
expect 0 "register window-post-like by path" cl register --id apip --zkey "$T/p.zkey" --native window-post-like \
    "${pshape[@]}"
expect_out '"id":"apip","tier":"hot","kind":"window-post-like"' "the answer describes it"
expect 2 "window-post-like with a key of another shape" cl register --id x10 --zkey "$T/p.zkey" \
    --native window-post-like --sectors 3 --challenges 2 --nodes 64
expect_out "HTTP 422 bad_key: the key .* is not the circuit's \(window-post-like custom" "  422 bad_key, naming the kind"
refuse "native_params without native" 422 bad_params /v1/circuits \
    "{\"id\":\"x9\",\"zkey\":\"$T/c.zkey\",\"native_params\":{\"nodes\":4}}"

# ---- c. two clients at once ----
mkdir -p "$T/oa" "$T/ob"
cl --json prove --circuit cfgn --input 5:0 --input 5:1 --out-dir "$T/oa" >"$T/a.out" 2>&1 &
ca=$!
cl --json prove --circuit apin --input 7:2 --out-dir "$T/ob" >"$T/b.out" 2>&1 &
cb=$!
wait "$ca"; ra=$?
wait "$cb"; rb=$?
[ "$ra" -eq 0 ] && grep -q '"status":"completed","partitions":2,"verified":true' "$T/a.out" &&
    ok "client A: 2 native proofs, verified by the daemon" || { cp "$T/a.out" "$T/out"; bad "client A (exit $ra)"; }
[ "$rb" -eq 0 ] && grep -q '"status":"completed","partitions":1,"verified":true' "$T/b.out" &&
    ok "client B: a native proof, verified by the daemon" || { cp "$T/b.out" "$T/out"; bad "client B (exit $rb)"; }
expect 0 "snarkpipe verify: seed 5 partition 1" "$bin" verify "$T/vk.json" "$T/oa/public_1.json" "$T/oa/proof_1.json"
expect 0 "its public.json is the CLI's, byte for byte" cmp "$T/oa/public_1.json" "$T/ref_public.json"
expect 1 "partition 0 has other public inputs" cmp -s "$T/oa/public_0.json" "$T/ref_public.json"
expect 0 "snarkpipe verify: client B's proof" "$bin" verify "$T/vk.json" "$T/ob/public_0.json" "$T/ob/proof_0.json"
for pc in cfgp apip; do
    mkdir -p "$T/op_$pc"
    expect 0 "window-post-like job on $pc (seed 9 partitions 3 and 0)" cl --json prove --circuit "$pc" --input 9:3 \
        --input 9:0 --out-dir "$T/op_$pc"
    expect_out '"status":"completed","partitions":2,"verified":true' "  $pc: 2 proofs, verified by the daemon"
    expect 0 "  snarkpipe verify: $pc partition 3" "$bin" verify "$T/pvk.json" "$T/op_$pc/public_0.json" \
        "$T/op_$pc/proof_0.json"
    expect 0 "  its public.json is that of gen-circuit's witness, byte for byte" cmp "$T/op_$pc/public_0.json" \
        "$T/pref_public.json"
    expect 0 "  snarkpipe verify: $pc partition 0" "$bin" verify "$T/pvk.json" "$T/op_$pc/public_1.json" \
        "$T/op_$pc/proof_1.json"
    expect 1 "  partition 0 has other public inputs" cmp -s "$T/op_$pc/public_1.json" "$T/pref_public.json"
done

# ---- d. bad jobs ----
expect 2 "witnesses for a native circuit" cl submit --circuit cfgn "$T/f.wtns"
expect_out "HTTP 400 bad_request: circuit 'cfgn' is native" "witnesses for a native circuit: 400"
expect 2 "inputs for a file circuit" cl submit --circuit file --input 1:0
expect_out "HTTP 400 bad_request: circuit 'file' takes witnesses" "inputs for a file circuit: 400"
expect 64 "client: an input without a partition" cl submit --circuit cfgn --input 5
expect 64 "client: a partition over 2^32-1" cl submit --circuit cfgn --input 5:4294967296
job() { printf '{"circuit":"cfgn","inputs":[%s]}' "$1"; }
refuse "a negative seed" 400 bad_input /v1/jobs "$(job '{"seed":-1,"partition":0}')"
refuse "a seed of 2^64" 400 bad_input /v1/jobs "$(job '{"seed":18446744073709551616,"partition":0}')"
refuse "a fractional seed" 400 bad_input /v1/jobs "$(job '{"seed":1.5,"partition":0}')"
refuse "a seed string that is no number" 400 bad_input /v1/jobs "$(job '{"seed":"0x10","partition":0}')"
refuse "a partition of 2^32" 400 bad_input /v1/jobs "$(job '{"seed":1,"partition":4294967296}')"
refuse "a member too many" 400 bad_input /v1/jobs "$(job '{"seed":1,"partition":0,"layer":1}')"
refuse "no input" 400 bad_input /v1/jobs "$(job '')"
refuse "witnesses and inputs" 400 bad_request /v1/jobs '{"circuit":"cfgn","witnesses":[],"inputs":[]}'
p='{"seed":1,"partition":0}'
refuse "more inputs than engine.max_partitions" 413 too_many_partitions /v1/jobs "$(job "$p,$p,$p,$p,$p")"
expect 0 "pause" cl pause
post /v1/jobs "$(job '{"seed":"18446744073709551615","partition":4294967295},{"seed":18446744073709551615,"partition":0}')"
head -1 "$T/out" | grep -q "^HTTP/1.1 202 " && ok "seeds up to 2^64-1, as a string or an integer: 202" ||
    bad "seeds up to 2^64-1: 202"
qid=$(sed -n 's/.*"job_id":"\([^"]*\)".*/\1/p' "$T/out")
grep -q '"inputs":\[{"seed":18446744073709551615,"partition":4294967295},' "$T/state/jobs/$qid.job" &&
    ok "the accepted job's inputs are in the state directory" || bad "the accepted job's inputs are in the state directory"
expect 0 "cancel it" cl cancel "$qid"
expect 0 "resume" cl resume

# ---- e. kill -9 mid-job, restart ----
expect 0 "submit a native job" cl submit --circuit cfgn --request-id rk --input 9:0 --input 9:3
kid=$(cat "$T/out")
running=0
for _ in $(seq 300); do
    cl --json await --wait-ms 0 "$kid" >"$T/out" 2>&1
    grep -q '"partition_states":\[[^]]*"\(synthesizing\|synth_done\|device\|finishing\)' "$T/out" &&
        { running=1; break; }
    grep -q "completed" "$T/out" && break
    sleep 0.05
done
[ "$running" -eq 1 ] && ok "the job runs" || bad "the job runs (it should still be running when killed)"
kill -9 "$pid"; wait "$pid" 2>/dev/null; pid=
start run2 || exit 1
mkdir -p "$T/ok"
expect 0 "after the restart the job completes under its id" cl --json await --out-dir "$T/ok" "$kid"
expect_out "\"job_id\":\"$kid\",\"request_id\":\"rk\",\"circuit\":\"cfgn\",\"status\":\"completed\",\"partitions\":2,\"verified\":true"
for k in 0 1; do
    expect 0 "restored job: proof $k verifies" "$bin" verify "$T/vk.json" "$T/ok/public_$k.json" "$T/ok/proof_$k.json"
done
grep -q "job $kid: accepted before the restart; queued again" "$T/run2.log" && ok "the restart says so" ||
    bad "the restart says so"
expect 0 "circuits after the restart" cl circuits
expect_out '"id":"apin","tier":"[a-z]*","kind":"porep-like".*"source":"api"' "the API's native circuit is back"
expect_out '"id":"upn","tier":"cold","kind":"porep-like","native_params":\{"preset":"2KiB\*".*"source":"upload"' \
    "the uploaded native circuit is back, with its parameters"
expect 0 "evict the uploaded native circuit" cl evict upn
[ -z "$(ls "$T/state/uploads")" ] && ok "its upload is removed" || bad "its upload is removed"
kill -TERM "$pid"; wait "$pid"; drc=$?; pid=
[ "$drc" -eq 0 ] && ok "clean shutdown" || bad "clean shutdown (exit $drc)"

if grep -l "Sanitizer\|runtime error:" "$T"/*.log >/dev/null 2>&1; then
    bad "sanitizer reports in the daemon logs"; grep -h -A5 "Sanitizer\|runtime error:" "$T"/*.log | head -30
fi
echo "test_daemon_native.sh: $((pass + fail)) checks, $fail failed"
[ "$fail" -eq 0 ]
