#!/usr/bin/env bash
# `snarkpipe daemon` with circom circuits registered with their .wasm: jobs
# carry input.json and the daemon's synthesis workers make the witness
# (wasm/circom.h's interpreter). On both curves, one daemon each (a daemon
# proves on one curve), with circom 2's PoseidonMerkle(2, 3) of
# tests/circom/wtns_lib.circom compiled for that curve:
#   a. registration: by the configuration (with the r1cs: every constraint
#      checked), by path (zkey and wasm: a, b, c from the key's QAP) and by
#      upload; GET /v1/circuits names the .wasm; refused with 422 bad_key: a
#      file that is no WebAssembly, a damaged module, a .wasm of the other
#      curve (the detail says which daemon takes it), a .wasm of another
#      circuit than the key's;
#   b. random valid inputs (seed printed; SP_SEED replays), through
#      `client prove --input-json` (2 partitions), JSON "inputs" and a raw
#      body: every proof verified by the daemon, by `snarkpipe verify` and
#      by snarkjs, its public.json byte for byte that of `snarkpipe
#      fullprove` (the CLI's witness path) on the same input;
#   c. bad inputs: refused at submit with 400 bad_input when the body shows
#      it (not JSON, not an object, null, a fraction); otherwise the job
#      fails with the interpreter's words naming the signal (missing, extra,
#      a wrong array length, not a number: bad_input) or the template (a
#      failing assert: unsatisfied); witnesses for such a circuit and
#      input.json for a file circuit are 400; the daemon serves on;
#   d. kill -9 with a queued job, restart: the job (its input.json in the
#      state directory) completes under its id and its proof verifies.
# Usage: tests/test_daemon_wasm.sh BUILD (run.sh passes it). SP_TEST_VERBOSE=1 lists every check.
set -u
build=${1:-build}
bin=$build/snarkpipe
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$bin" ] || { echo "test_daemon_wasm.sh: $bin not found (build first)"; exit 1; }
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
need_daemon test_daemon_wasm.sh "$bin"
command -v node >/dev/null && command -v npm >/dev/null || { echo "test_daemon_wasm.sh: node and npm are required"; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/sp_test_dwasm.XXXXXX")
pid=
cleanup() { [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; [ -n "${SP_KEEP:-}" ] || rm -rf "$T"; }
trap cleanup EXIT
ok() { pass=$((pass + 1)); [ -z "${SP_TEST_VERBOSE:-}" ] || echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -f "$T/out" ] && sed 's/^/     | /' "$T/out" | tail -15; }
snarkjs=$(need_snarkjs "$build") || exit 1
circom=$(need_circom "$build") && circom=$(realpath "$circom") || exit 1
seed=${SP_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
echo "test_daemon_wasm.sh: seed $seed (replay: SP_SEED=$seed)"

# merkle PRIME: BUILD/daemon-wasm/merkle_<prime>/ holding merkle.r1cs, merkle.sym and
# merkle_js/merkle.wasm (compiled again when the template's source changes)
merkle() {
    local dir=$build/daemon-wasm/merkle_$1 key
    key="$(cksum <"$here/circom/wtns_lib.circom")"
    if [ "$(cat "$dir/.key" 2>/dev/null)" != "$key" ]; then
        rm -rf "$dir" && mkdir -p "$dir/lib/circomlib" || return 1
        cp -r "$build/npm/node_modules/circomlib/circuits" "$dir/lib/circomlib/"
        cp "$here/circom/wtns_lib.circom" "$dir/"
        printf 'pragma circom 2.0.0;\ninclude "wtns_lib.circom";\ncomponent main = PoseidonMerkle(2, 3);\n' \
            >"$dir/merkle.circom"
        (cd "$dir" && "$circom" merkle.circom --r1cs --wasm --sym --prime "$1" -l lib -o . >compile.log 2>&1) ||
            { echo "FAIL circom2 could not compile merkle for $1:" >&2; tail -5 "$dir/compile.log" >&2; return 1; }
        echo "$key" >"$dir/.key"
    fi
    echo "$dir"
}

# input SEED PRIME [EDIT]: a random valid input.json of the circuit, EDIT (JavaScript on o) applied
input() {
    node -e '
const [seed, prime, edit] = process.argv.slice(1);
let s = BigInt(seed) * 6364136223846793005n + 1442695040888963407n;
const next = () => { s = (s * 6364136223846793005n + 1442695040888963407n) & ((1n << 64n) - 1n); return s; };
const below = (n) => { let x = 0n; for (let i = 0; i < 5; i++) x = (x << 64n) | next(); return x % n; };
const p = prime === "bn128"
    ? 21888242871839275222246405745257275088548364400416034343698204186575808495617n
    : 52435875175126190479447740508185965836491006296208211946934063021066497490945n;
const el = () => below(p).toString(), bit = () => Number(next() & 1n);
const o = { leaf: [below(1n << 64n).toString(), Number(next() % 1000n)],
    path: [[el(), el(), el()], [el(), el(), el()]], index: [[bit(), bit(), bit()], [bit(), bit(), bit()]] };
if (edit) eval(edit);
process.stdout.write(JSON.stringify(o));' "$1" "$2" "${3:-}"
}

start() { # start LOGNAME [ARGS...]: runs the daemon, waits for its ready file
    local log=$T/$1.log
    shift
    rm -f "$T/ready"
    "$bin" daemon --config "$T/d.conf" "$@" 2>>"$log" &
    pid=$!
    for _ in $(seq 600); do [ -s "$T/ready" ] && break; kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    [ -s "$T/ready" ] || { echo "daemon did not start:"; tail -20 "$log"; return 1; }
    port=$(sed -n 's/^127\.0\.0\.1:\([0-9]*\)$/\1/p' "$T/ready")
}
cl() { "$bin" client --addr "unix:$T/d.sock" "$@"; }
# req TYPE PATH BODY: a raw request on the TCP listener; the answer in $T/out
req() {
    exec 3<>"/dev/tcp/127.0.0.1/$port" || { echo "cannot connect" >"$T/out"; return; }
    printf 'POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: %s\r\nContent-Length: %d\r\n' "$2" "$1" "${#3}" >&3
    printf 'Connection: close\r\n\r\n%s' "$3" >&3
    cat <&3 >"$T/out"
    exec 3<&-
}
answer() { # answer NAME CODE REGEX: the last req's status and body
    if head -1 "$T/out" | grep -q "^HTTP/1.1 $2 " && grep -Eq "$3" "$T/out"; then ok "$1"
    else bad "$1 (expected $2 and /$3/)"; fi
}

one_curve() { # one_curve PRIME CURVE
    local prime=$1 curve=$2 dir k
    echo "# $curve ($prime)"
    dir=$(merkle "$prime") || { fail=$((fail + 1)); return; }
    local K=$T/keys_$prime
    rm -rf "$T/state" && mkdir -p "$K"
    cp "$dir/merkle_js/merkle.wasm" "$dir/merkle.sym" "$dir/merkle.r1cs" "$K/"
    expect 0 "$curve: setup" "$bin" --quiet setup "$K/merkle.r1cs" "$K/k.zkey"
    expect 0 "$curve: export-vkey" "$bin" --quiet export-vkey "$K/k.zkey" "$K/vk.json"
    "$bin" --quiet gen-circuit --curve "$curve" --constraints 64 --public 2 --seed 7 "$K/f.r1cs" "$K/f.wtns" \
        >/dev/null 2>&1
    expect 0 "$curve: a key of a file circuit" "$bin" --quiet setup "$K/f.r1cs" "$K/f.zkey"
    head -c 3000 /dev/urandom >"$K/noise.wasm"
    node -e 'const fs = require("fs"); const b = fs.readFileSync(process.argv[1]);
let s = BigInt(process.argv[2]); for (let i = 0; i < 8; i++) { s = (s * 6364136223846793005n + 1n) & ((1n << 64n) - 1n);
  const at = 8 + Number(s % BigInt(b.length - 8)); b[at] ^= 1 << Number((s >> 32n) % 8n); }
fs.writeFileSync(process.argv[3], b);' "$K/merkle.wasm" "$seed" "$K/damaged.wasm"
    cat >"$T/d.conf" <<EOF
[engine]
synth_threads = 2
backend_threads = 2
finish_threads = 2
budget = 2GiB
max_partitions = 4
[server]
listen = unix:$T/d.sock
listen = 127.0.0.1:0
state_dir = $T/state
ready_file = $T/ready
[keys]
key_dirs = $T
wasm_max_time = 2m
wasm_max_memory = 1024
[circuit.cfgw]
zkey = $K/k.zkey
wasm = $K/merkle.wasm
r1cs = $K/merkle.r1cs
[circuit.file]
zkey = $K/f.zkey
EOF
    local cargs=()
    [ "$curve" = bn254 ] && cargs=(--curve bn254)
    start "run_$prime" "${cargs[@]}" || { fail=$((fail + 1)); return; }

    # a. registration
    expect 0 "$curve: circuits" cl circuits
    expect_out '"id":"cfgw","tier":"hot","kind":"file","wasm":"[^"]*merkle.wasm"' "$curve: the config's circuit names its .wasm"
    expect 0 "$curve: register by path (zkey and wasm)" cl register --id apiw --zkey "$K/k.zkey" --wasm "$K/merkle.wasm"
    expect_out '"id":"apiw","tier":"hot","kind":"file","wasm":' "$curve:   201, with its .wasm"
    expect 0 "$curve: register by upload" cl register --upload --no-preload --id upw --zkey "$K/k.zkey" \
        --wasm "$K/merkle.wasm"
    expect 2 "$curve: a .wasm that is no WebAssembly" cl register --id x1 --zkey "$K/k.zkey" --wasm "$K/noise.wasm"
    expect_out "HTTP 422 bad_key: .*noise.wasm" "$curve:   422 bad_key naming the file"
    rc=0
    cl register --id x2 --zkey "$K/k.zkey" --wasm "$K/damaged.wasm" >"$T/out" 2>&1 || rc=$?
    if [ "$rc" -eq 0 ] || grep -q "HTTP 422 bad_key" "$T/out"; then ok "$curve: a damaged module: registered or 422"
    else bad "$curve: a damaged module: registered or 422 (exit $rc)"; fi
    local other=bls12381 want=bls12-381
    [ "$prime" = bls12381 ] && other=bn128 want=bn254
    expect 2 "$curve: a .wasm of the other curve" cl register --id x3 --zkey "$K/k.zkey" \
        --wasm "$(merkle "$other")/merkle_js/merkle.wasm" --upload
    expect_out "HTTP 422 bad_key: .*prime.*--curve $want" "$curve:   says which daemon takes it"
    cp "$here/vectors/multiplier_$prime/circuit.wasm" "$K/mult.wasm"
    expect 2 "$curve: the .wasm of another circuit" cl register --id x4 --zkey "$K/k.zkey" --wasm "$K/mult.wasm"
    expect_out "HTTP 422 bad_key: the .wasm makes witnesses of 4 values but the key has [0-9]+ wires" \
        "$curve:   the sizes named"
    expect 64 "$curve: client: --wasm without --zkey" cl register --id x5 --params "$K/f.zkey" --r1cs "$K/f.r1cs" \
        --wasm "$K/merkle.wasm"

    # b. random valid inputs, proved by the daemon and by fullprove
    for k in 1 2 3; do input $((seed + k)) "$prime" >"$T/in$k.json"; done
    mkdir -p "$T/o_$prime" "$T/a_$prime"
    expect 0 "$curve: client prove --input-json, 2 partitions (cfgw, r1cs checked)" cl --json prove --circuit cfgw \
        --input-json "$T/in1.json" --input-json "$T/in2.json" --out-dir "$T/o_$prime"
    expect_out '"status":"completed","partitions":2,"verified":true' "$curve:   2 proofs, verified by the daemon"
    expect 0 "$curve: client prove --input-json (apiw, the key's QAP)" cl --json prove --circuit apiw \
        --input-json "$T/in3.json" --out-dir "$T/a_$prime"
    for k in 1 2 3; do
        local o=$T/o_$prime/ p=$((k - 1))
        [ "$k" -eq 3 ] && o=$T/a_$prime/ p=0
        expect 0 "$curve: input $k: snarkpipe verify" "$bin" verify "$K/vk.json" "${o}public_$p.json" "${o}proof_$p.json"
        expect 0 "$curve: input $k: fullprove" "$bin" --quiet fullprove "$T/in$k.json" "$K/merkle.wasm" "$K/k.zkey" \
            "$T/fp_proof.json" "$T/fp_public.json"
        expect 0 "$curve: input $k:   the public signals are fullprove's, byte for byte" cmp "${o}public_$p.json" \
            "$T/fp_public.json"
    done
    expect 0 "$curve: snarkjs verifies the daemon's proof" "$snarkjs" groth16 verify "$K/vk.json" \
        "$T/o_$prime/public_1.json" "$T/o_$prime/proof_1.json"
    expect_out "OK!" "$curve:   (OK)"
    expect 1 "$curve: two inputs, two sets of public signals" cmp -s "$T/o_$prime/public_0.json" \
        "$T/o_$prime/public_1.json"
    req application/json "/v1/prove?wait_ms=120000" "{\"circuit\":\"upw\",\"inputs\":[$(cat "$T/in1.json")]}"
    answer "$curve: JSON \"inputs\" to /v1/prove (the uploaded circuit)" 200 '"status":"completed","partitions":1,"verified":true'
    local pj pc
    pj=$(grep -o '"public":\[[^]]*\]' "$T/out" | tr -d ' \n')
    pc=\"public\":$(tr -d ' \n' <"$T/o_$prime/public_0.json")
    [ "$pj" = "$pc" ] && ok "$curve:   the same public signals as input 1's" ||
        bad "$curve:   the same public signals as input 1's ($pj vs $pc)"
    req application/octet-stream "/v1/prove?circuit=apiw&wait_ms=120000" "$(cat "$T/in2.json")"
    answer "$curve: a raw input.json body" 200 '"status":"completed","partitions":1,"verified":true'
    req application/octet-stream "/v1/prove?circuit=apiw&wait_ms=120000" "{\"leaf\": [1, 2], $(tail -c +2 "$T/in2.json")"
    answer "$curve: a name given twice (the last value counts)" 200 '"status":"completed","partitions":1,"verified":true'

    # c. bad inputs
    req application/octet-stream "/v1/jobs?circuit=cfgw" '{"leaf": [1, 2'
    answer "$curve: not JSON: 400 at submit" 400 '"error":"bad_input","detail":"input 0: input.json is not JSON'
    req application/json /v1/jobs '{"circuit":"cfgw","inputs":[[1,2]]}'
    answer "$curve: not an object: 400 at submit" 400 '"error":"bad_input".*expected an object of input signals, found'
    req application/json /v1/jobs "{\"circuit\":\"cfgw\",\"inputs\":[$(cat "$T/in1.json"),$(input 1 "$prime" 'o.path = null')]}"
    answer "$curve: null, in the second input: 400 at submit" 400 "\"error\":\"bad_input\",\"detail\":\"input 1: .*signal 'path'"
    req application/octet-stream "/v1/jobs?circuit=cfgw" "$(input 1 "$prime" 'o.leaf[1] = 1.5')"
    answer "$curve: a fraction: 400 at submit" 400 "\"error\":\"bad_input\".*signal 'leaf'"
    failed() { # NAME EDIT ERROR REGEX: the job fails; the answer's error and detail
        input $((seed + 9)) "$prime" "$2" >"$T/bad.json"
        expect 2 "$curve: $1" cl --json prove --circuit cfgw --input-json "$T/bad.json"
        expect_out "\"status\":\"failed\",\"error\":\"$3\",\"detail\":\"[^\"]*$4" "$curve:   $3: $4"
    }
    failed "a missing signal" 'delete o.index' bad_input "Not all inputs have been set. Only 8 out of 14 \\(missing: index\\)"
    failed "an extra signal" 'o.extra = 1' bad_input "Too many values for input signal extra"
    failed "a wrong array length" 'o.path[1].pop()' bad_input "Not enough values for input signal path"
    failed "not a number" 'o.path[0][1] = "12abc"' bad_input 'input signal path: \\"12abc\\" is not a number'
    failed "a failing assert" 'o.leaf[1] = (1n << 64n).toString()' unsatisfied \
        "Assert Failed. Error in template PoseidonMerkle_[0-9]+ line: [0-9]+"
    printf '[]' >"$T/bad.json" # read as {}: nothing set
    expect 2 "$curve: [] for a circuit with inputs" cl --json prove --circuit cfgw --input-json "$T/bad.json"
    expect_out '"status":"failed","error":"bad_input","detail":"[^"]*Not all inputs have been set. Only 0 out of 14' \
        "$curve:   bad_input: none set"
    expect 2 "$curve: a witness for a circuit with its .wasm" cl submit --circuit cfgw "$K/f.wtns"
    expect_out "HTTP 400 bad_request: circuit 'cfgw' has its .wasm" "$curve:   400"
    expect 2 "$curve: an input.json for a file circuit" cl submit --circuit file --input-json "$T/in1.json"
    expect_out "HTTP 400 bad_request: circuit 'file' takes witnesses" "$curve:   400"
    expect 64 "$curve: client: witnesses and --input-json" cl submit --circuit cfgw --input-json "$T/in1.json" "$K/f.wtns"
    expect 0 "$curve: the daemon serves on" cl healthz

    # d. kill -9 with a queued job, restart
    expect 0 "$curve: pause" cl pause
    expect 0 "$curve: submit a job" cl submit --circuit apiw --request-id rk --input-json "$T/in3.json"
    local kid
    kid=$(cat "$T/out")
    grep -q '"input_json":true' "$T/state/jobs/$kid.job" && ok "$curve: its input.json is in the state directory" ||
        bad "$curve: its input.json is in the state directory"
    kill -9 "$pid"; wait "$pid" 2>/dev/null; pid=
    start "run2_$prime" "${cargs[@]}" || { fail=$((fail + 1)); return; }
    expect 0 "$curve: resume" cl resume
    mkdir -p "$T/r_$prime"
    expect 0 "$curve: after the restart the job completes under its id" cl --json await --out-dir "$T/r_$prime" "$kid"
    expect_out "\"job_id\":\"$kid\",\"request_id\":\"rk\",\"circuit\":\"apiw\",\"status\":\"completed\"" \
        "$curve:   completed"
    expect 0 "$curve:   its proof verifies" "$bin" verify "$K/vk.json" "$T/r_$prime/public_0.json" \
        "$T/r_$prime/proof_0.json"
    expect 0 "$curve:   its public signals are input 3's" cmp "$T/r_$prime/public_0.json" "$T/a_$prime/public_0.json"
    expect 0 "$curve: circuits after the restart" cl circuits
    expect_out '"id":"upw","tier":"[a-z]*","kind":"file","wasm":"[^"]*\.wasm"' "$curve:   the uploaded one is back, with its .wasm"
    expect 0 "$curve: evict the uploaded circuit" cl evict upw
    [ -z "$(ls "$T/state/uploads")" ] && ok "$curve:   its uploads are removed" || bad "$curve:   its uploads are removed"
    kill -TERM "$pid"; wait "$pid"; drc=$?; pid=
    [ "$drc" -eq 0 ] && ok "$curve: clean shutdown" || bad "$curve: clean shutdown (exit $drc)"

    # e. the interpreter's memory limit: a module that needs more is refused, the daemon serves on
    sed -i 's/^wasm_max_memory = .*/wasm_max_memory = 1/' "$T/d.conf"
    rm -rf "$T/state"
    start "run3_$prime" "${cargs[@]}" || { fail=$((fail + 1)); return; }
    grep -q "circuit cfgw.*memory" "$T/run3_$prime.log" && ok "$curve: wasm_max_memory = 1: the config's circuit is refused, saying why" ||
        { cp "$T/run3_$prime.log" "$T/out"; bad "$curve: wasm_max_memory = 1: the config's circuit is refused, saying why"; }
    expect 2 "$curve: wasm_max_memory = 1: registration" cl register --id apiw --zkey "$K/k.zkey" --wasm "$K/merkle.wasm"
    expect_out "HTTP 422 bad_key: .*merkle.wasm: .*memory" "$curve:   422 bad_key, the memory named"
    expect 0 "$curve: the daemon serves on" cl healthz
    kill -TERM "$pid"; wait "$pid"; pid=
}

one_curve bls12381 bls12-381
one_curve bn128 bn254

if grep -l "Sanitizer\|runtime error:" "$T"/*.log >/dev/null 2>&1; then
    bad "sanitizer reports in the daemon logs"; grep -h -A5 "Sanitizer\|runtime error:" "$T"/*.log | head -30
fi
echo "test_daemon_wasm.sh: $((pass + fail)) checks, $fail failed"
[ "$fail" -eq 0 ]
