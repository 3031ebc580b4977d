#!/usr/bin/env bash
# What `make test` needs, checked (and installed) before anything is built.
#
# On Debian (dpkg and apt-get present): the packages below that are not
# installed are installed with apt-get when this runs as root; otherwise
# the missing ones are named with the command that installs them. Without
# a compiler or GMP nothing can be tested: exit 1. The rest (the daemon's
# libraries, libpq and the PostgreSQL server for the farm's test, Chromium,
# node and npm, systemd for systemd-analyze) only make tests skip when
# missing;
# run.sh counts those as skipped.
#
#   scripts/deps.sh            check, install as root, report
#   SP_DEPS_NO_INSTALL=1       only check and report (never apt-get)
#
# The same package list is installed by .ci/run (plus clang for the fuzzers).
# npm packages are not installed here: the tests install what they use on
# first run (tests/lib.sh: snarkjs 0.7.6; tests/evm/package-lock.json: solc
# and ethereumjs' EVM), from the npm registry.
set -u
required=(build-essential libgmp-dev)
optional=(pkg-config libmicrohttpd-dev libinih-dev libpq-dev postgresql chromium nodejs npm ca-certificates systemd curl)

# Debian: a package is there when dpkg says "install ok installed".
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "ok installed"; }
# Elsewhere: what the build and the tests look for.
have_thing() {
    case $1 in
        build-essential) command -v "${CC:-gcc}" >/dev/null && command -v make >/dev/null ;;
        libgmp-dev) printf '#include <gmp.h>\nint main(void){return 0;}\n' | "${CC:-gcc}" -x c - -lgmp -o /dev/null 2>/dev/null ;;
        pkg-config) command -v pkg-config >/dev/null ;;
        libmicrohttpd-dev) pkg-config --exists libmicrohttpd 2>/dev/null ;;
        libinih-dev) pkg-config --exists inih 2>/dev/null ;;
        libpq-dev) pkg-config --exists libpq 2>/dev/null ;;
        postgresql) ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null ;;
        chromium) command -v chromium >/dev/null ;;
        nodejs) command -v node >/dev/null ;;
        npm) command -v npm >/dev/null ;;
        systemd) command -v systemd-analyze >/dev/null ;;
        curl) command -v curl >/dev/null ;;
        *) return 0 ;;
    esac
}
debian=0
command -v dpkg-query >/dev/null && command -v apt-get >/dev/null && debian=1
missing=()
for p in "${required[@]}" "${optional[@]}"; do
    if [ "$debian" = 1 ]; then
        # node and npm from elsewhere (NodeSource bundles npm) count as present
        case $p in nodejs | npm) have_thing "$p" && continue ;; esac
        have_pkg "$p" || missing+=("$p")
    else
        have_thing "$p" || missing+=("$p")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$debian" = 1 ] && [ "$(id -u)" = 0 ] && [ "${SP_DEPS_NO_INSTALL:-0}" != 1 ]; then
    echo "deps.sh: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    if apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null; then
        exit 0
    fi
    echo "deps.sh: apt-get failed for: ${missing[*]}" >&2
else
    echo "deps.sh: missing: ${missing[*]}" >&2
    if [ "$debian" = 1 ]; then
        echo "deps.sh: install them with: sudo apt-get install --no-install-recommends ${missing[*]}" >&2
    fi
fi
for p in "${required[@]}"; do
    for m in "${missing[@]}"; do
        if [ "$p" = "$m" ]; then
            echo "deps.sh: $p is needed to build and run any test; stopping" >&2
            exit 1
        fi
    done
done
echo "deps.sh: going on; the tests that need the rest are skipped (and counted)" >&2
exit 0
