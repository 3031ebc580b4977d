# Shared helpers of the tests/test_*.sh scripts (bash). Source it after
# setting T (the test's temporary directory); it defines pass, fail and:
#   expect CODE NAME CMD...   CMD exits with CODE (its output in $T/out)
#                             and prints no sanitizer report
#   expect_out REGEX NAME     the output of the last expect matches REGEX
#   need_snarkjs BUILD        prints the path of snarkjs 0.7.6, installed from npm
#                             into BUILD/npm on first use (fails with the log)
#   need_circom BUILD         prints the path of circom 2 (the npm package circom2
#                             0.2.23, circom compiled to WebAssembly), installed with
#                             circomlib 2.0.5 into BUILD/npm on first use; circuits
#                             include "circomlib/circuits/..." with -l BUILD/npm/node_modules
#   need_evm BUILD            prints the node_modules folder of tests/evm/package.json
#                             (solc, ethereumjs' EVM), installed by npm ci from its
#                             lock file into BUILD/npm-evm, again when the lock changes
#   need_daemon NAME BIN      returns when BIN (a snarkpipe) has the daemon; else exits:
#                             77 (skipped) when libmicrohttpd or libinih is missing,
#                             1 when they are installed (the build should have it)
#   need_farm NAME BIN        the same for the farm (BIN's daemon with libpq)
#   poke_byte FILE OFFSET     changes the byte at OFFSET of FILE, whatever it holds
#                             (moved by 2: a random byte set to a constant would be
#                             left as it was once in 256 runs)
# With SP_TEST_VERBOSE set, each passing check prints "ok   NAME".
pass=0
fail=0

expect() {
    local want=$1 name=$2 rc=0
    shift 2
    "$@" >"$T/out" 2>&1 || rc=$?
    if [ "$rc" -eq "$want" ] && ! grep -q "Sanitizer\|runtime error:" "$T/out"; then
        pass=$((pass + 1))
        [ -z "${SP_TEST_VERBOSE:-}" ] || echo "ok   $name"
    else
        fail=$((fail + 1))
        echo "FAIL $name (exit $rc, expected $want)"
        sed 's/^/     | /' "$T/out" | head -20
    fi
}

poke_byte() {
    local b
    b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
    printf "$(printf '\\%03o' $(((b + 2) % 256)))" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

expect_out() {
    if grep -Eq "$1" "$T/out"; then
        pass=$((pass + 1))
        [ -z "${SP_TEST_VERBOSE:-}" ] || echo "ok   $2"
    else
        fail=$((fail + 1))
        echo "FAIL $2 (output does not match /$1/)"
        sed 's/^/     | /' "$T/out" | head -20
    fi
}

need_snarkjs() {
    local npmdir=$1/npm
    local bin=$npmdir/node_modules/.bin/snarkjs
    if [ ! -x "$bin" ]; then
        mkdir -p "$npmdir"
        npm install --no-audit --no-fund --loglevel=error --prefix "$npmdir" snarkjs@0.7.6 >"$npmdir/install.log" 2>&1 ||
            { echo "npm install snarkjs@0.7.6 failed:" >&2; cat "$npmdir/install.log" >&2; return 1; }
    fi
    echo "$bin"
}

need_circom() {
    local npmdir=$1/npm
    local bin=$npmdir/node_modules/.bin/circom2
    if [ ! -x "$bin" ] || [ ! -d "$npmdir/node_modules/circomlib/circuits" ]; then
        mkdir -p "$npmdir"
        npm install --no-audit --no-fund --loglevel=error --prefix "$npmdir" circom2@0.2.23 circomlib@2.0.5 \
            >"$npmdir/install-circom.log" 2>&1 ||
            { echo "npm install circom2@0.2.23 circomlib@2.0.5 failed:" >&2; cat "$npmdir/install-circom.log" >&2; return 1; }
    fi
    echo "$bin"
}

need_evm() {
    local dir=$1/npm-evm src
    src=$(cd "$(dirname "${BASH_SOURCE[0]}")/evm" && pwd)
    # .installed: the lock file of the last complete install
    if ! cmp -s "$src/package-lock.json" "$dir/.installed"; then
        rm -rf "$dir" && mkdir -p "$dir" && cp "$src/package.json" "$src/package-lock.json" "$dir/" || return 1
        (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error) >"$dir/install.log" 2>&1 ||
            { echo "npm ci of tests/evm/package-lock.json failed:" >&2; cat "$dir/install.log" >&2; return 1; }
        cp "$src/package-lock.json" "$dir/.installed"
    fi
    echo "$dir/node_modules"
}

need_daemon() {
    "$2" daemon --help 2>&1 | grep -q "built without daemon support" || return 0
    if pkg-config --exists libmicrohttpd inih 2>/dev/null; then
        echo "$1: the libraries are installed but $2 was built without the daemon"; exit 1
    fi
    echo "$1: skipped (no libmicrohttpd/libinih: the daemon is not built; scripts/deps.sh installs them)"; exit 77
}

need_farm() {
    need_daemon "$1" "$2"
    "$2" daemon --help 2>&1 | grep -q "farm.queue, --queue): built in" && return 0
    if pkg-config --exists libpq 2>/dev/null; then echo "$1: libpq is installed but $2 lacks the farm"; exit 1; fi
    echo "$1: skipped (no libpq: the farm is not built; scripts/deps.sh installs libpq-dev)"; exit 77
}
