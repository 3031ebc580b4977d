#!/usr/bin/env bash
# The daemon's live status page (GET /) in headless Chromium (Debian's
# `chromium` package): with jobs running, the page's script must have
# polled /v1/status and drawn the worker lanes and partition bars (read
# back from the DOM), and its screenshot must be a 1200x800 PNG that is
# not blank (many colours, no colour covering nearly everything; decoded
# with node's zlib). Only 127.0.0.1 is contacted; Chromium runs with
# its background networking off and a fresh profile directory.
# Usage: tests/test_daemon_page.sh BUILD (run.sh passes it).
set -u
build=${1:-build}
bin=$build/snarkpipe
[ -x "$bin" ] || { echo "test_daemon_page.sh: $bin not found (build first)"; exit 1; }
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
need_daemon test_daemon_page.sh "$bin"
chromium=$(command -v chromium || true)
[ -n "$chromium" ] || { echo "test_daemon_page.sh: skipped (no chromium; Debian: apt-get install chromium, or scripts/deps.sh)"; exit 77; }
command -v node >/dev/null || { echo "test_daemon_page.sh: skipped (no node, which decodes the screenshot; Debian: apt-get install nodejs)"; exit 77; }

T=$(mktemp -d "${TMPDIR:-/tmp}/sp_test_page.XXXXXX")
pid=
cleanup() { [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; [ -n "${SP_KEEP:-}" ] || rm -rf "$T"; }
trap cleanup EXIT
fail=0
checks=0
check() { checks=$((checks + 1)); if eval "$2"; then [ -z "${SP_TEST_VERBOSE:-}" ] || echo "ok   $1"; else fail=$((fail + 1)); echo "FAIL $1"; fi; }

"$bin" gen-circuit --quiet --constraints 64 --public 2 --seed 3 "$T/s.r1cs" "$T/s.wtns" &&
    "$bin" setup "$T/s.r1cs" "$T/s.zkey" >/dev/null 2>&1 &&
    "$bin" gen-circuit --quiet --constraints 4096 --public 1 --seed 4 "$T/b.r1cs" "$T/b.wtns" &&
    "$bin" setup "$T/b.r1cs" "$T/b.zkey" >/dev/null 2>&1 || exit 1
"$bin" daemon --listen 127.0.0.1:0 --key-dirs "$T" --ready-file "$T/ready" --synth-threads 1 --backend-threads 1 --gpu-threads 1 \
    --budget 512MiB 2>"$T/daemon.log" &
pid=$!
for _ in $(seq 300); do [ -s "$T/ready" ] && break; sleep 0.1; done
addr=$(head -1 "$T/ready" 2>/dev/null)
[ -n "$addr" ] || { echo "daemon did not start"; cat "$T/daemon.log"; exit 1; }
cl() { "$bin" client --addr "$addr" "$@" >/dev/null; }
cl register --id small --zkey "$T/s.zkey" && cl register --id big --zkey "$T/b.zkey" || exit 1
for _ in 1 2 3; do cl prove --out-dir "$T" --circuit small "$T/s.wtns" || exit 1; done
w=(); for _ in $(seq 24); do w+=("$T/b.wtns"); done
cl submit --circuit big "${w[@]}" && cl submit --circuit small "$T/s.wtns" "$T/s.wtns" || exit 1
sleep 0.5

browse() { # browse OUTPUT-FLAG: headless Chromium on the page, 3 s of (virtual) time for its polls
    local prof
    prof=$(mktemp -d "$T/profile.XXXXXX")
    timeout 90 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync --user-data-dir="$prof" \
        --window-size=1200,800 --virtual-time-budget=3000 "$1" "http://$addr/"
}
browse --dump-dom >"$T/dom.html" 2>"$T/chromium.log"
summary=$(grep -o 'id="summary"[^>]*>[^<]*' "$T/dom.html" | sed 's/.*>//')
polls=$(sed -n 's/.*polls=\([0-9]*\).*/\1/p' <<<"$summary")
lanes=$(sed -n 's/.*lanes=\([0-9]*\).*/\1/p' <<<"$summary")
bars=$(sed -n 's/.*bars=\([0-9]*\).*/\1/p' <<<"$summary")
check "the page polled /v1/status ($summary)" '[ "${polls:-0}" -ge 1 ]'
check "it drew the queue and the worker lanes" '[ "${lanes:-0}" -ge 6 ]'
check "it drew partition bars" '[ "${bars:-0}" -ge 4 ]'
check "it shows the keys" 'grep -q "<td>big</td><td class=\"hot\">hot</td>" "$T/dom.html"'
check "no error line on the page" 'grep -q "<span id=\"err\"></span>" "$T/dom.html"'

browse --screenshot="$T/page.png" >>"$T/chromium.log" 2>&1
check "screenshot written" '[ -s "$T/page.png" ]'
# Decodes the PNG (8-bit RGB or RGBA, non-interlaced) and prints: width height colours top_share
node -e '
const fs = require("fs"), zlib = require("zlib");
const b = fs.readFileSync(process.argv[1]);
if (b.readUInt32BE(0) !== 0x89504e47) { console.log("0 0 0 1"); process.exit(0); }
let off = 8, w = 0, h = 0, ct = 0, idat = [];
while (off < b.length) {
  const len = b.readUInt32BE(off), type = b.toString("ascii", off + 4, off + 8), d = b.subarray(off + 8, off + 8 + len);
  if (type === "IHDR") { w = d.readUInt32BE(0); h = d.readUInt32BE(4); ct = d[9]; if (d[8] !== 8 || d[12]) { console.log(w, h, 0, 1); process.exit(0); } }
  if (type === "IDAT") idat.push(d);
  off += 12 + len;
}
const bpp = ct === 6 ? 4 : ct === 2 ? 3 : 0, raw = zlib.inflateSync(Buffer.concat(idat)), stride = w * bpp;
const cur = Buffer.alloc(stride), prev = Buffer.alloc(stride), count = new Map();
for (let y = 0; y < h; y++) {
  const f = raw[y * (stride + 1)], row = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
  for (let i = 0; i < stride; i++) {
    const a = i >= bpp ? cur[i - bpp] : 0, up = prev[i], c = i >= bpp ? prev[i - bpp] : 0;
    let p = 0;
    if (f === 1) p = a; else if (f === 2) p = up; else if (f === 3) p = (a + up) >> 1;
    else if (f === 4) { const q = a + up - c, pa = Math.abs(q - a), pb = Math.abs(q - up), pc = Math.abs(q - c); p = pa <= pb && pa <= pc ? a : pb <= pc ? up : c; }
    cur[i] = (row[i] + p) & 255;
  }
  for (let x = 0; x < w; x++) { const k = (cur[x * bpp] << 16) | (cur[x * bpp + 1] << 8) | cur[x * bpp + 2]; count.set(k, (count.get(k) || 0) + 1); }
  cur.copy(prev);
}
let top = 0; for (const v of count.values()) top = Math.max(top, v);
console.log(w, h, count.size, (top / (w * h)).toFixed(3));
' "$T/page.png" >"$T/png.txt" 2>&1
read -r pw ph colours top <"$T/png.txt"
check "screenshot is 1200x800 (${pw:-?}x${ph:-?})" '[ "${pw:-0}" = 1200 ] && [ "${ph:-0}" = 800 ]'
check "screenshot is not blank (${colours:-0} colours, top colour ${top:-1} of the pixels)" \
    '[ "${colours:-0}" -ge 32 ] && awk "BEGIN{exit !(${top:-1} < 0.95)}"'
[ -n "${SP_PAGE_PNG:-}" ] && cp "$T/page.png" "$SP_PAGE_PNG"

kill -TERM "$pid"; wait "$pid"; rc=$?; pid=
check "daemon exits cleanly (exit $rc)" '[ "$rc" -eq 0 ]'
if [ "$fail" -ne 0 ]; then
    echo "-- summary: $summary; png: $(cat "$T/png.txt")"; tail -5 "$T/chromium.log"; tail -10 "$T/daemon.log"
fi
echo "test_daemon_page.sh: $checks checks, $fail failed"
[ "$fail" -eq 0 ]
