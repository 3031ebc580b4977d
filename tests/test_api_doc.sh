#!/usr/bin/env bash
# docs/api.md against a real daemon:
#   a. every route of the daemon's route table (src/daemon/routes.c) and every
#      error code its handlers answer with (src/daemon/*.c) is named in the
#      document;
#   b. every curl example of the document (in its ```sh blocks: a line
#      starting "curl", its continuation lines, then "# => CODE") runs, in
#      order, against a daemon started here (BLS12-381, no token, on a TCP
#      port of its choosing), with SP, KEYS and the files the document
#      names, and answers the HTTP status the document claims.
# Usage: tests/test_api_doc.sh BUILD (run.sh passes it). SP_TEST_VERBOSE=1 lists every check.
set -u
build=${1:-build}
bin=$(cd "$build" 2>/dev/null && pwd)/snarkpipe
here=$(cd "$(dirname "$0")" && pwd)
doc=$here/../docs/api.md
[ -x "$bin" ] || { echo "test_api_doc.sh: $build/snarkpipe not found (build first)"; exit 1; }
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
need_daemon test_api_doc.sh "$bin"
command -v curl >/dev/null || { echo "test_api_doc.sh: skipped (no curl; scripts/deps.sh installs it)"; exit 77; }

T=$(mktemp -d "${TMPDIR:-/tmp}/sp_test_api_doc.XXXXXX")
pid=
cleanup() { [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; [ -n "${SP_KEEP:-}" ] || rm -rf "$T"; }
trap cleanup EXIT
ok() { pass=$((pass + 1)); [ -z "${SP_TEST_VERBOSE:-}" ] || echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }

# ---- a. the document names every route and error code ----
routes=$(sed -n 's/^ *{"\(GET\|POST\|DELETE\)", "\([^"]*\)", sp_dmn_api_.*/\2/p' "$here/../src/daemon/routes.c" | sort -u)
[ "$(wc -l <<<"$routes")" -ge 10 ] && ok "the route table was read" || bad "the route table was read ($routes)"
for p in $routes; do
    want=${p//\*/ID}
    grep -qF "$want" "$doc" && ok "route $p documented" || bad "route $p is not in docs/api.md (as $want)"
done
codes=$(cat "$here"/../src/daemon/*.c | tr -d '\n' | grep -o 'http_error(r, [0-9]*, *"[a-z_]*"' |
        sed 's/.*"\([a-z_]*\)"/\1/' | sort -u)
[ "$(wc -w <<<"$codes")" -ge 15 ] && ok "the error codes were read" || bad "the error codes were read ($codes)"
for c in $codes; do
    grep -q "\`$c\`" "$doc" && ok "error code $c documented" || bad "error code $c is not in docs/api.md"
done

# ---- b. the examples ----
# Each example as one record: CODE, a tab, the command (continuation lines joined), NUL-terminated.
awk '
    /^```sh$/ { insh = 1; next }
    /^```/ { insh = 0; next }
    !insh { next }
    cmd != "" && cont { cmd = cmd "\n" $0; cont = ($0 ~ /\\$/); next }
    cmd != "" {
        if (match($0, /^# => [0-9][0-9][0-9]/)) printf "%s\t%s%c", substr($0, 6, 3), cmd, 0
        else printf "none\t%s%c", cmd, 0
        cmd = ""
    }
    /^curl / { cmd = $0; cont = ($0 ~ /\\$/) }
    END { if (cmd != "") printf "none\t%s%c", cmd, 0 }
' "$doc" >"$T/examples"
n=$(tr -cd '\0' <"$T/examples" | wc -c)
[ "$n" -ge 25 ] && ok "$n curl examples found" || bad "only $n curl examples found in docs/api.md"

keys=$T/keys work=$T/work
mkdir -p "$keys" "$work"
( cd "$T" &&
  "$bin" gen-circuit --quiet --constraints 64 --public 2 --seed 3 "$keys/circuit.r1cs" "$work/witness.wtns" &&
  cp "$work/witness.wtns" "$work/witness2.wtns" &&
  "$bin" setup "$keys/circuit.r1cs" "$keys/circuit.zkey" >/dev/null 2>&1 &&
  cp "$keys/circuit.zkey" "$work/circuit.zkey" &&
  "$bin" --curve bn254 gen-circuit --quiet --constraints 16 --public 1 --seed 5 bn.r1cs bn.wtns &&
  "$bin" setup bn.r1cs "$keys/bn128.zkey" >/dev/null 2>&1 &&
  cp "$here/vectors/multiplier_bls12381/circuit.wasm" "$keys/mult.wasm" &&
  cp "$here/vectors/multiplier_bls12381/circuit_final.zkey" "$keys/mult.zkey" &&
  cp "$here/vectors/multiplier_bls12381/input.json" "$work/input.json" &&
  "$bin" gen-circuit --quiet --kind window-post-like --sectors 2 --challenges 2 --nodes 64 post.r1cs post.wtns &&
  "$bin" setup post.r1cs "$keys/post.zkey" >/dev/null 2>&1 &&
  head -c 1048576 /dev/zero >"$work/big.bin" ) || { echo "test_api_doc.sh: cannot make the files"; exit 1; }

cat >"$T/d.conf" <<EOF
[engine]
synth_threads = 1
backend_threads = 1
finish_threads = 1
budget = 256MiB
[server]
listen = 127.0.0.1:0
ready_file = $T/ready
state_dir = $T/state
[keys]
load_threads = 1
key_dirs = $keys
EOF
"$bin" daemon --config "$T/d.conf" 2>"$T/daemon.log" &
pid=$!
for _ in $(seq 600); do [ -s "$T/ready" ] && break; kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
[ -s "$T/ready" ] || { echo "test_api_doc.sh: the daemon did not start:"; tail -20 "$T/daemon.log"; exit 1; }
addr=$(head -1 "$T/ready")

k=0
while IFS=$'\t' read -r -d '' want cmd; do
    k=$((k + 1))
    first=$(head -1 <<<"$cmd")
    if [ "$want" = none ]; then bad "example $k has no '# => CODE' line: $first"; continue; fi
    got=$(cd "$work" && SP="http://$addr" KEYS="$keys" bash -c "$cmd -sS -o '$T/body' -w '%{http_code}' --max-time 300" 2>"$T/err")
    if [ "$got" = "$want" ]; then
        ok "example $k ($want): $first"
    else
        bad "example $k: $first: HTTP $got, the document says $want"
        sed 's/^/     | /' "$T/body" "$T/err" 2>/dev/null | head -5
    fi
done <"$T/examples"
[ "$k" = "$n" ] && ok "every example ran" || bad "$k of $n examples ran"

kill -TERM "$pid"
wait "$pid"
drc=$?
pid=
[ "$drc" -eq 0 ] && ok "the daemon stops cleanly" || bad "the daemon exited $drc"
if grep -q "Sanitizer\|runtime error:" "$T/daemon.log"; then bad "sanitizer reports in the daemon log"; grep -A5 "Sanitizer\|runtime error:" "$T/daemon.log" | head -20; fi
echo "test_api_doc.sh: $((pass + fail)) checks, $fail failed"
[ "$fail" -eq 0 ]
