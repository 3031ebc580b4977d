#!/usr/bin/env bash
# The README's two commands, in its order, on a Debian 12 root bootstrapped
# from Debian's packages where nothing else is installed: what a newcomer
# meets on a fresh machine.
#
#   tools/fresh-debian.sh [ROOT]      as root; needs debootstrap, chroot and
#                                     bind mounts, and the network to reach
#                                     Debian's archive and the npm registry
#
# ROOT (default: a new folder under /var/tmp) receives a minimal bookworm,
# the committed tree (git archive HEAD, as a fresh clone has it) under
# /src/snarkpipe, and then, inside it: apt-get install make (the one thing
# the README's commands need to start), `make demo`, `make test`. Exit
# status: that of the first command that failed. SP_TEST_NO_SKIP=1 is
# passed in, so a skipped test fails the run as in CI. A ROOT given is
# kept; a default one is removed at the end unless SP_FRESH_KEEP=1.
#   DEBIAN_MIRROR   the archive (default http://deb.debian.org/debian)
set -euo pipefail
cd "$(dirname "$0")/.."

[ "$(id -u)" = 0 ] || { echo "fresh-debian.sh: run as root (debootstrap, chroot, mount)" >&2; exit 2; }
command -v debootstrap >/dev/null || { echo "fresh-debian.sh: debootstrap is missing (apt-get install debootstrap)" >&2; exit 2; }
remove=0
if [ $# -ge 1 ]; then root=$1; mkdir -p "$root"; else root=$(mktemp -d /var/tmp/sp-fresh.XXXXXX); remove=1; fi
[ "${SP_FRESH_KEEP:-0}" = 1 ] && remove=0
mounted=()
cleanup() {
    local i
    for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[i]}" 2>/dev/null || true; done
    [ "$remove" = 1 ] && rm -rf --one-file-system "$root"
    return 0
}
trap cleanup EXIT

step() { printf '\n==== fresh-debian: %s (%s)\n' "$*" "$(date -u +%H:%M:%S)"; }

step "debootstrap bookworm into $root"
[ -x "$root/bin/bash" ] ||
    debootstrap --variant=minbase bookworm "$root" "${DEBIAN_MIRROR:-http://deb.debian.org/debian}" >"$root.debootstrap.log" 2>&1 ||
    { tail -n 20 "$root.debootstrap.log" >&2; exit 1; }
rm -f "$root.debootstrap.log"

step "the committed tree into /src/snarkpipe"
rm -rf "$root/src/snarkpipe"
mkdir -p "$root/src/snarkpipe"
git archive HEAD | tar -x -C "$root/src/snarkpipe"

for m in proc sys dev dev/pts; do
    mkdir -p "$root/$m"
    mount --bind "/$m" "$root/$m"
    mounted+=("$root/$m")
done
# Chromium needs a shared-memory folder of its own.
mkdir -p "$root/dev/shm"
mount -t tmpfs -o mode=1777 tmpfs "$root/dev/shm" && mounted+=("$root/dev/shm")
cp -L /etc/resolv.conf "$root/etc/resolv.conf"
# Certificate authorities this host added for itself (a TLS proxy's, say)
# are trusted inside too once Debian's ca-certificates is installed there;
# without them npm could not reach its registry through such a proxy.
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
    mkdir -p "$root/usr/local/share/ca-certificates"
    cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
fi

step "inside: apt-get install make, then make demo, then make test"
chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    LANG=C.UTF-8 SP_TEST_NO_SKIP=1 DEBIAN_FRONTEND=noninteractive /bin/bash -euc '
    apt-get update -q >/dev/null
    apt-get install -y -q --no-install-recommends make >/dev/null
    cd /src/snarkpipe
    make demo
    make test
'
step "done: make demo and make test passed on a fresh Debian 12 root"
