#!/usr/bin/env bash
# `make install` as operators and packagers run it: PREFIX and DESTDIR are
# honoured (the CLI, the example and service configurations, the systemd
# unit with the paths filled in), an existing configuration is kept, and
# the unit passes `systemd-analyze verify` with the usual sandboxing
# options in it. Where systemd-analyze is missing, or the daemon was not
# built (its configuration cannot be checked), the rest still runs and the
# test exits 77 (skipped) unless something failed.
# Usage: tests/test_install.sh BUILD (run.sh passes it).
set -u
build=${1:-build}
here=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$build/snarkpipe" ] || { echo "test_install.sh: $build/snarkpipe not found (build first)"; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/sp_test_install.XXXXXX")
trap '[ -n "${SP_KEEP:-}" ] || rm -rf "$T"' EXIT
. "$here/tests/lib.sh"
# BUILD as the normal build names it (relative to the repository): an
# absolute spelling would make make rebuild the objects under other target
# names and rewrite their dependency files for them.
rel=$(realpath --relative-to="$here" "$build")
inst() { make -s -C "$here" --no-print-directory BUILD="$rel" install "$@"; }

# a package's tree: PREFIX=/usr, everything under DESTDIR
expect 0 "make install PREFIX=/usr DESTDIR=..." inst PREFIX=/usr DESTDIR="$T/pkg"
for f in usr/bin/snarkpipe etc/snarkpipe/snarkpipe.conf usr/share/doc/snarkpipe/snarkpipe.conf.example \
    usr/lib/systemd/system/snarkpipe.service; do
    expect 0 "  installs $f" test -f "$T/pkg/$f"
done
expect 0 "  the CLI runs" "$T/pkg/usr/bin/snarkpipe" help
expect 0 "  the unit starts /usr/bin/snarkpipe with /etc/snarkpipe" grep -qx \
    "ExecStart=/usr/bin/snarkpipe daemon --config /etc/snarkpipe/snarkpipe.conf" "$T/pkg/usr/lib/systemd/system/snarkpipe.service"
unit=$T/pkg/usr/lib/systemd/system/snarkpipe.service
for opt in DynamicUser=yes StateDirectory=snarkpipe NoNewPrivileges=yes ProtectSystem=strict PrivateTmp=yes \
    ProtectHome=yes "CapabilityBoundingSet="; do
    expect 0 "  the unit has $opt" grep -qx "$opt" "$unit"
done
skipped=()
if "$T/pkg/usr/bin/snarkpipe" daemon --help 2>&1 | grep -q "built without daemon support"; then
    skipped+=("the service configuration (the daemon is not built)")
else
    expect 0 "  the service configuration is valid" "$T/pkg/usr/bin/snarkpipe" daemon --check-config --config "$T/pkg/etc/snarkpipe/snarkpipe.conf"
    expect_out "configuration ok" "  (says so)"
    expect 0 "  installs usr/bin/snarkpipe-daemon" test -x "$T/pkg/usr/bin/snarkpipe-daemon"
    mkdir -p "$T/lone"
    cp "$T/pkg/usr/bin/snarkpipe" "$T/lone/"
    expect 2 "  snarkpipe without snarkpipe-daemon beside it: daemon fails" "$T/lone/snarkpipe" daemon --help
    expect_out "cannot run $T/lone/snarkpipe-daemon" "  (says which executable is missing)"
fi
echo "; mine" >>"$T/pkg/etc/snarkpipe/snarkpipe.conf"
expect 0 "make install again" inst PREFIX=/usr DESTDIR="$T/pkg"
expect 0 "  keeps an existing configuration" grep -q "^; mine" "$T/pkg/etc/snarkpipe/snarkpipe.conf"

# a local install: PREFIX only; then the unit is checked against the real system
expect 0 "make install PREFIX=..." inst PREFIX="$T/local"
expect 0 "  the unit points into PREFIX" grep -qx \
    "ExecStart=$T/local/bin/snarkpipe daemon --config $T/local/etc/snarkpipe/snarkpipe.conf" "$T/local/lib/systemd/system/snarkpipe.service"
if command -v systemd-analyze >/dev/null; then
    expect 0 "systemd-analyze verify snarkpipe.service" systemd-analyze verify "$T/local/lib/systemd/system/snarkpipe.service"
    if [ -s "$T/out" ]; then fail=$((fail + 1)); echo "FAIL systemd-analyze verify warns:"; sed 's/^/     | /' "$T/out"; fi
else
    skipped+=("systemd-analyze verify (not found; Debian: apt-get install systemd)")
fi
expect 0 "make uninstall" make -s -C "$here" --no-print-directory BUILD="$rel" uninstall PREFIX=/usr DESTDIR="$T/pkg"
expect 1 "  the CLI is gone" test -e "$T/pkg/usr/bin/snarkpipe"
expect 1 "  and the daemon's executable" test -e "$T/pkg/usr/bin/snarkpipe-daemon"
echo "test_install.sh: $((pass + fail)) checks, $fail failed"
[ "$fail" -eq 0 ] || exit 1
if [ ${#skipped[@]} -gt 0 ]; then
    printf 'test_install.sh: skipped: %s\n' "${skipped[@]}"
    exit 77
fi
