#!/usr/bin/env bash
# The key cache through the CLI (`snarkpipe prove`, `snarkpipe cache`):
#   a. the second prove of a key uses its entry (prove --json says "hit",
#      the summary "key cached"); proofs identical (fixed r, s) and verified
#   b. a key file changed under its entry: a point's byte flipped or the
#      file truncated (refused, exit 2), replaced by another valid key of
#      the same size (checked again: the proof verifies with the new key's
#      vkey only)
#   c. a damaged entry: one warning line, the key checked again, the entry
#      rebuilt (the next prove is a hit)
#   d. --no-key-cache reads and writes nothing; cache list / clear / dir and
#      the directory's precedence (--key-cache-dir, $SNARKPIPE_CACHE_DIR,
#      $XDG_CACHE_HOME, $HOME)
#   e. --skip-subgroup-check entries do not serve a default prove
#   f. a bellperson .params key (with its circuit) is cached too
#   g. three provers at once on an empty cache: all succeed, one entry
#   h. a read-only cache directory (as an unprivileged user when run as
#      root): hits still served, a miss proves with one warning line; a
#      write that fails midway (file size limit, as a full disk) leaves
#      nothing; a directory others may write is not used
#   i. one key at two paths: one entry, listed with both paths
#   j. the cap: SNARKPIPE_CACHE_MAX=0 is off, an entry over the cap is not
#      written, the least recently used entries go first (--key-cache-max)
#   k. entries of both curves are listed as usable by this snarkpipe
# Usage: tests/test_keycache.sh BUILD (run.sh passes it).
set -u
build=${1:-build}
bin=$build/snarkpipe
here=$(cd "$(dirname "$0")" && pwd)
vec=$here/vectors/chain1021_bls12381
[ -x "$bin" ] || { echo "test_keycache: $bin not found (build first)"; exit 1; }

T=$(mktemp -d "${TMPDIR:-/tmp}/sp_test_keycache.XXXXXX")
trap 'chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"' EXIT
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
export SNARKPIPE_CACHE_DIR=$T/cache
unset XDG_CACHE_HOME
rs=12345,67890

check() { # NAME CMD...: CMD succeeds
    if "${@:2}"; then pass=$((pass + 1)); [ -z "${SP_TEST_VERBOSE:-}" ] || echo "ok   $1"
    else fail=$((fail + 1)); echo "FAIL $1"; fi
}
entries() { find "$1" -maxdepth 1 -name '*.spkc' 2>/dev/null | wc -l; }
temps() { find "$1" -maxdepth 1 -name '.*.tmp-*' 2>/dev/null | wc -l; }
# section_offset FILE ID: offset of a binfile section's payload
section_offset() {
    local f=$1 id=$2 pos=12 n i sid lo hi
    n=$(od -An -tu4 -j8 -N4 "$f" | tr -d ' ')
    for ((i = 0; i < n; i++)); do
        sid=$(od -An -tu4 -j$pos -N4 "$f" | tr -d ' ')
        lo=$(od -An -tu4 -j$((pos + 4)) -N4 "$f" | tr -d ' ')
        hi=$(od -An -tu4 -j$((pos + 8)) -N4 "$f" | tr -d ' ')
        [ "$sid" = "$id" ] && { echo $((pos + 12)); return; }
        pos=$((pos + 12 + lo + hi * 4294967296))
    done
    echo -1
}
prove() { # OUT-STEM [prove options...] KEY: proof and public into $T/OUT-STEM.{proof,public}.json
    local stem=$1
    shift
    "$bin" --json prove --insecure-fixed-rs $rs "$@" "$vec/witness.wtns" "$T/$stem.proof.json" "$T/$stem.public.json"
}

cp "$vec/circuit_final.zkey" "$T/k.zkey"

# a. second prove from the cache
expect 0 "a: first prove" prove a1 "$T/k.zkey"
expect_out '"key_cache":\{"state":"miss","stored":true' "a: first prove checks the key and stores its entry"
check "a: one line says so: size, where, the cap, how to turn it off" test "$(grep -c "^snarkpipe prove: key cache: kept the checked key ([0-9.]* KiB) in $T/cache for fast loads; the cache holds [0-9.]* KiB of its 4.00 GiB cap; --no-key-cache or SNARKPIPE_CACHE_MAX=0 turn it off$" "$T/out")" = 1
check "a: one entry, mode 0600 in a 0700 directory" test "$(entries "$T/cache")" = 1 -a \
    "$(stat -c %a "$T/cache")" = 700 -a "$(stat -c %a "$T"/cache/*.spkc)" = 600
expect 0 "a: second prove" prove a2 "$T/k.zkey"
expect_out '"key_cache":\{"state":"hit","stored":false' "a: second prove uses the entry"
check "a: no notice for a hit" test "$(grep -c 'key cache:' "$T/out")" = 0
check "a: identical proofs" cmp -s "$T/a1.proof.json" "$T/a2.proof.json"
check "a: identical public signals" cmp -s "$T/a1.public.json" "$T/a2.public.json"
check "a: the proof snarkjs makes with the same r, s" cmp -s "$T/a2.proof.json" "$vec/proof_fixed_rs.json"
expect 0 "a: the cached key's proof verifies" "$bin" verify "$vec/verification_key.json" "$T/a2.public.json" "$T/a2.proof.json"
expect 0 "a: text summary" "$bin" prove "$T/k.zkey" "$vec/witness.wtns" "$T/a3.proof.json" "$T/a3.public.json"
expect_out "key cached" "a: the summary says the key came from the cache"
expect 0 "a: random r, s from the cached key verify" "$bin" verify "$vec/verification_key.json" "$T/a3.public.json" "$T/a3.proof.json"

# b. the key file changes under its entry
off=$(section_offset "$T/k.zkey" 9)
check "b: found the H section" test "$off" -gt 0
cp "$T/k.zkey" "$T/k.orig"
poke_byte "$T/k.zkey" $((off + 96 * 3 + 10))
expect 2 "b: a byte flipped in H[3]: refused" prove b1 "$T/k.zkey"
expect_out "section 9 \(H\): point 3" "b: the error names the point"
head -c -1 "$T/k.orig" >"$T/k.zkey"
expect 2 "b: truncated: refused" prove b2 "$T/k.zkey"
for k in ka kb; do
    "$bin" --quiet setup "$vec/circuit.r1cs" "$T/$k.zkey" 2>/dev/null
    "$bin" --quiet export-vkey "$T/$k.zkey" "$T/$k.vkey.json"
done
check "b: two valid keys of the same size" test "$(stat -c %s "$T/ka.zkey")" = "$(stat -c %s "$T/kb.zkey")"
cp "$T/ka.zkey" "$T/kx.zkey"
expect 0 "b: key A" prove b3 "$T/kx.zkey"
expect 0 "b: key A again" prove b3 "$T/kx.zkey"
expect_out '"state":"hit"' "b: hit"
cp "$T/kb.zkey" "$T/kx.zkey"
expect 0 "b: key A replaced by key B" prove b4 "$T/kx.zkey"
expect_out '"state":"stale","stored":true' "b: the entry is not used, the new key checked and stored"
expect 0 "b: the proof verifies with B's vkey" "$bin" verify "$T/kb.vkey.json" "$T/b4.public.json" "$T/b4.proof.json"
expect 1 "b: and not with A's" "$bin" verify "$T/ka.vkey.json" "$T/b4.public.json" "$T/b4.proof.json"
check "b: one entry per key content (k, A, B)" test "$(entries "$T/cache")" = 3
# b2. the stamp: a key file whose ctime is over 2 s old is hashed once more and
# its identity recorded; then trusted without hashing, until the file changes,
# even in place with the same size and its mtime put back (a cache of its own:
# the entry count below stays the section's)
p2() { SNARKPIPE_CACHE_DIR=$T/cache2 prove "$@"; }
cp "$T/ka.zkey" "$T/ky.zkey"
touch -r "$T/ka.zkey" "$T/ky.zkey"
expect 0 "b2: key A" p2 b6 "$T/ky.zkey"
expect_out '"stamped":false' "b2: a key file written just now is not stamped"
sleep 2.2
# (the file systems keycache_entry.c's kc_keeps_ctime trusts; elsewhere never a stamp)
case $(stat -f -c %t "$T") in
ef53 | 58465342 | 9123683e | 1021994 | f2f52010 | 2fc12fc1 | ca451a4e | 794c7630)
    expect 0 "b2: key A, 2 s later" p2 b6 "$T/ky.zkey"
    expect_out '"state":"hit","stored":false,"identity":false,"stamped":true' "b2: hashed, then stamped"
    expect 0 "b2: key A again" p2 b6 "$T/ky.zkey"
    expect_out '"state":"hit","stored":false,"identity":true' "b2: a hit without hashing"
    cp "$T/kb.zkey" "$T/ky.zkey"
    touch -r "$T/ka.zkey" "$T/ky.zkey"
    expect 0 "b2: key B written over it, A's mtime put back" p2 b7 "$T/ky.zkey"
    expect_out '"state":"stale","stored":true,"identity":false' "b2: the stamp is not trusted"
    expect 0 "b2: the proof verifies with B's vkey" "$bin" verify "$T/kb.vkey.json" "$T/b7.public.json" \
        "$T/b7.proof.json"
    ;;
*)
    echo "test_keycache.sh: $T's file system ($(stat -f -c %T "$T")) is not one the stamp trusts"
    expect 0 "b2: key A, 2 s later" p2 b6 "$T/ky.zkey"
    expect_out '"identity":false,"stamped":false' "b2: never stamped on this file system"
    ;;
esac
rm -f "$T/ky.zkey"
cp "$T/k.orig" "$T/k.zkey"
expect 0 "b: the original restored" prove b5 "$T/k.zkey"
expect_out '"state":"hit"' "b: its entry serves again (the failed loads did not replace it)"

# c. a damaged entry
ent=$(grep -o '"entry":"[^"]*"' "$T/out" | cut -d'"' -f4)
poke_byte "$ent" 50000
expect 0 "c: a damaged entry" prove c1 "$T/k.zkey"
expect_out '"state":"damaged","stored":true' "c: ignored, the key checked again and the entry rebuilt"
check "c: one warning line" test "$(grep -c 'snarkpipe prove: key cache: entry .* ignored (its checksum does not match its content); key checked again' "$T/out")" = 1
check "c: identical proof" cmp -s "$T/c1.proof.json" "$T/a1.proof.json"
expect 0 "c: then a hit" prove c2 "$T/k.zkey"
expect_out '"state":"hit"' "c: hit"

# d. bypass, list, clear, directory
expect 0 "d: --no-key-cache" env SNARKPIPE_CACHE_DIR="$T/unused" "$bin" --json prove --no-key-cache "$T/k.zkey" \
    "$vec/witness.wtns" "$T/d1.proof.json" "$T/d1.public.json"
expect_out '"key_cache":\{"state":"off","stored":false' "d: the cache is off"
check "d: nothing written" test ! -e "$T/unused"
expect 0 "d: cache list" "$bin" cache list
expect_out "usable, bls12-381 zkey key, subgroup checks" "d: list shows the entry"
expect_out "key $T/k.zkey \([0-9]+ bytes, now: same size\)" "d: and its key file"
expect 0 "d: cache list --json" "$bin" --json cache list
expect_out '"entries":\[\{"file":"[0-9a-f]{40}-bls12-381.spkc"' "d: JSON listing"
expect 0 "d: cache clear" "$bin" cache clear
expect_out "removed 5 file" "d: the three entries and the two paths' references removed"
check "d: no entry left" test "$(entries "$T/cache")" = 0
expect 0 "d: after clear" prove d2 "$T/k.zkey"
expect_out '"state":"miss"' "d: a miss again"
expect 0 "d: cache dir" "$bin" cache dir
expect_out "^$T/cache$" "d: \$SNARKPIPE_CACHE_DIR"
expect 0 "d: --key-cache-dir wins" "$bin" cache dir --key-cache-dir /x/y
expect_out "^/x/y$" "d: --key-cache-dir"
expect 0 "d: XDG" env -u SNARKPIPE_CACHE_DIR XDG_CACHE_HOME="$T/xdg" "$bin" cache dir
expect_out "^$T/xdg/snarkpipe$" "d: \$XDG_CACHE_HOME/snarkpipe"
expect 0 "d: HOME" env -u SNARKPIPE_CACHE_DIR XDG_CACHE_HOME=relative HOME="$T/home" "$bin" cache dir
expect_out "^$T/home/.cache/snarkpipe$" "d: ~/.cache/snarkpipe (a relative XDG_CACHE_HOME is ignored)"
expect 64 "d: unknown action" "$bin" cache purge

# e. check levels
"$bin" --quiet cache clear
expect 0 "e: --skip-subgroup-check" prove e1 --skip-subgroup-check "$T/k.zkey"
expect_out '"state":"miss"' "e: miss"
expect 0 "e: --skip-subgroup-check again" prove e2 --skip-subgroup-check "$T/k.zkey"
expect_out '"state":"hit"' "e: hit"
expect 0 "e: default checks" prove e3 "$T/k.zkey"
expect_out '"state":"weaker","stored":true' "e: the curve-only entry does not serve the subgroup checks"
expect 0 "e: default checks again" prove e4 "$T/k.zkey"
expect_out '"state":"hit"' "e: the checked entry serves"

# f. bellperson .params
"$bin" --quiet setup --bellperson "$vec/circuit.r1cs" "$T/k.params" 2>/dev/null
"$bin" --quiet export-vkey "$T/k.params" "$T/params.vk"
for i in 1 2; do
    expect 0 "f: prove --params ($i)" "$bin" --json prove --params "$T/k.params" --r1cs "$vec/circuit.r1cs" \
        "$vec/witness.wtns" "$T/f$i.proof.json" "$T/f$i.public.json"
done
expect_out '"key":"bellperson","key_cache":\{"state":"hit"' "f: the second .params load is a hit"
expect 0 "f: its proof verifies" "$bin" verify "$T/params.vk" "$T/f2.public.json" "$T/f2.proof.json"

# g. concurrent provers
"$bin" --quiet cache clear
pids=()
for i in 1 2 3; do
    prove "g$i" "$T/k.zkey" >"$T/g$i.out" 2>&1 &
    pids+=($!)
done
rcs=0
for p in "${pids[@]}"; do wait "$p" || rcs=$((rcs + 1)); done
check "g: three concurrent provers succeed" test "$rcs" = 0
check "g: one entry, no temporary file" test "$(entries "$T/cache")" = 1 -a "$(temps "$T/cache")" = 0
check "g: identical proofs" cmp -s "$T/g1.proof.json" "$T/g3.proof.json"
expect 0 "g: then a hit" prove g4 "$T/k.zkey"
expect_out '"state":"hit"' "g: hit"

# h. directories that cannot be written or should not be trusted
if [ "$(id -u)" = 0 ]; then
    # root writes anywhere: make the read-only case real as an unprivileged user
    as_user() { setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"; }
    chmod 755 "$T"
    cp "$bin" "$T/sp"
    cp "$vec/witness.wtns" "$T/w.wtns"
    chmod 644 "$T/w.wtns" "$T/k.zkey"
    mkdir -m 755 "$T/ro" && chown 65534:65534 "$T/ro"
else
    as_user() { "$@"; }
    cp "$bin" "$T/sp"
    cp "$vec/witness.wtns" "$T/w.wtns"
    mkdir "$T/ro"
fi
ro=$T/ro/cache
ro_prove() { # STEM KEY
    as_user env SNARKPIPE_CACHE_DIR="$ro" "$T/sp" --json prove "$2" "$T/w.wtns" "$T/ro/$1.proof.json" "$T/ro/$1.public.json"
}
expect 0 "h: fill a cache as its owner" ro_prove h1 "$T/k.zkey"
expect_out '"state":"miss","stored":true' "h: stored"
as_user chmod 500 "$ro"
expect 0 "h: read-only directory, cached key" ro_prove h2 "$T/k.zkey"
expect_out '"state":"hit"' "h: a hit from a read-only directory"
check "h: no warning for a hit" test "$(grep -c 'key cache:' "$T/out")" = 0
cp "$T/ka.zkey" "$T/k2.zkey" && chmod 644 "$T/k2.zkey"
expect 0 "h: read-only directory, new key" ro_prove h3 "$T/k2.zkey"
expect_out '"state":"miss","stored":false' "h: proved without storing"
check "h: one warning line" test "$(grep -c '^snarkpipe prove: key cache: not stored in .*: cannot write there' "$T/out")" = 1
expect 0 "h: the proof verifies" "$bin" verify "$T/ka.vkey.json" "$T/ro/h3.public.json" "$T/ro/h3.proof.json"
as_user chmod 700 "$ro"
rm -rf "$T/fsz" && mkdir "$T/fsz"
expect 0 "h: a write that fails midway" bash -c "trap '' XFSZ; ulimit -f 64; SNARKPIPE_CACHE_DIR='$T/fsz' exec '$bin' --json prove '$T/k.zkey' '$vec/witness.wtns' '$T/h4.proof.json' '$T/h4.public.json'"
expect_out '"stored":false' "h: not stored"
expect_out "key cache: not stored in .*cannot write the entry: File too large" "h: says why"
check "h: nothing left behind" test -z "$(ls -A "$T/fsz")"
expect 0 "h: its proof verifies" "$bin" verify "$vec/verification_key.json" "$T/h4.public.json" "$T/h4.proof.json"
chmod 777 "$T/cache"
expect 0 "h: a directory others may write" prove h5 "$T/k.zkey"
expect_out '"state":"unusable"' "h: not used"
expect_out "key cache: .*not private to this user \(owner [0-9]+, mode 777\); not used" "h: one warning says why"
chmod 700 "$T/cache"

# i. one key at two paths
export SNARKPIPE_CACHE_DIR=$T/cache_i
cp "$T/k.zkey" "$T/k_other.zkey"
expect 0 "i: the key at one path" prove i1 "$T/k.zkey"
expect_out '"state":"miss","stored":true' "i: stored"
expect 0 "i: the same key at another path" prove i2 "$T/k_other.zkey"
expect_out '"state":"hit","stored":false' "i: a hit: the entry is the content's"
check "i: one entry" test "$(entries "$T/cache_i")" = 1
check "i: identical proofs" cmp -s "$T/i1.proof.json" "$T/i2.proof.json"
expect 0 "i: cache list" "$bin" cache list
expect_out "key $T/k.zkey \([0-9]+ bytes, now: same size\)" "i: lists the first path"
expect_out "key $T/k_other.zkey \([0-9]+ bytes, now: same size\)" "i: and the second"
expect_out "^1 file\(s\), .* cap, in $T/cache_i \(and 2 key path reference\(s\)\)" "i: one entry, two references"
expect 0 "i: cache list --json" "$bin" --json cache list
expect_out '"paths":\[\{"key":"[^"]*k(_other)?.zkey","now":"same size"\},\{"key":"[^"]*k(_other)?.zkey"' "i: both paths in JSON"

# j. the cap
export SNARKPIPE_CACHE_DIR=$T/cache_j
expect 0 "j: SNARKPIPE_CACHE_MAX=0" env SNARKPIPE_CACHE_MAX=0 "$bin" --json prove "$T/k.zkey" "$vec/witness.wtns" \
    "$T/j0.proof.json" "$T/j0.public.json"
expect_out '"key_cache":\{"state":"off"' "j: the cache is off"
check "j: nothing written" test ! -e "$T/cache_j"
expect 0 "j: a cap below the entry" env SNARKPIPE_CACHE_MAX=64K "$bin" --json prove "$T/k.zkey" "$vec/witness.wtns" \
    "$T/j1.proof.json" "$T/j1.public.json"
expect_out '"stored":false' "j: not stored"
check "j: one warning says why" test "$(grep -c '^snarkpipe prove: key cache: not stored: its entry would take [0-9.]* MiB, more than the cache.s cap of 0.1 MiB$' "$T/out")" = 1
expect 64 "j: a bad --key-cache-max" "$bin" prove --key-cache-max 4GB "$T/k.zkey" "$vec/witness.wtns" "$T/j.json" "$T/jp.json"
size=$(stat -c %s "$T/k.zkey")
cap=$((size * 5 / 2)) # the entries are a little smaller than their keys: room for two
for k in k ka kb; do
    expect 0 "j: $k under a cap of two entries" prove "j_$k" --key-cache-max "$cap" "$T/$k.zkey"
    expect_out '"stored":true' "j: $k stored"
done
expect_out "1 least recently used entry removed to make room" "j: the third removed one"
check "j: two entries left" test "$(entries "$T/cache_j")" = 2
"$bin" --json cache list >"$T/list.json"
ent_of() { node -e 'const j = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
for (const e of j.entries) for (const p of e.paths) if (p.key.endsWith("/" + process.argv[2])) console.log(e.file);' "$T/list.json" "$1"; }
ek=$(ent_of k.zkey) eka=$(ent_of ka.zkey) ekb=$(ent_of kb.zkey)
check "j: k's entry, the least recently used, is the one gone" test -z "$ek" -a -n "$eka" -a -n "$ekb"
touch -d @1000 "$T/cache_j/$eka"
touch -d @2000 "$T/cache_j/$ekb"
expect 0 "j: ka again: a hit" prove j_ka2 --key-cache-max "$cap" "$T/ka.zkey"
expect_out '"state":"hit"' "j: hit"
check "j: a hit marks its entry used now" test "$(stat -c %Y "$T/cache_j/$eka")" -gt 2000
expect 0 "j: k again, stored" prove j_k2 --key-cache-max "$cap" "$T/k.zkey"
check "j: kb's entry, now the least recently used, is the one gone" test ! -e "$T/cache_j/$ekb" -a -e "$T/cache_j/$eka"
"$bin" --json cache list >"$T/list.json"
expect 0 "j: cache list" "$bin" cache list --key-cache-max "$cap"
expect_out "^2 file\(s\), [0-9.]+ MiB of the [0-9.]+ MiB cap" "j: the total against the cap"
check "j: most recently used first" test "$(grep -c spkc "$T/out")" = 2 -a "$(grep -m1 spkc "$T/out")" = "$(ent_of k.zkey)"

# k. both curves' entries
export SNARKPIPE_CACHE_DIR=$T/cache_k
bn=$here/vectors/chain1021_bn128
expect 0 "k: a bls12-381 key" prove k1 "$T/k.zkey"
expect 0 "k: a bn254 key" "$bin" --quiet prove "$bn/circuit_final.zkey" "$bn/witness.wtns" "$T/k2.json" "$T/k2p.json"
expect 0 "k: cache list" "$bin" cache list
expect_out "usable, bls12-381 zkey key" "k: the bls12-381 entry is usable"
expect_out "usable, bn254 zkey key" "k: and so is the bn254 one"
check "k: nothing marked another build" test "$(grep -c 'other build' "$T/out")" = 0
expect 0 "k: the bn254 key again" "$bin" --json prove "$bn/circuit_final.zkey" "$bn/witness.wtns" "$T/k3.json" "$T/k3p.json"
expect_out '"state":"hit"' "k: prove uses it"

echo "test_keycache.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
