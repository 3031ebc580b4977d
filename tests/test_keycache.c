/*
 * The key cache (groth16/keycache.h) on a generated circuit's development
 * key (so it runs the same for every curve):
 *   - a first load checks the key and stores its entry; the second is a
 *     hit and gives exactly the key sp_zkey_read gives, which proves and
 *     verifies;
 *   - an entry made with the subgroup checks skipped does not serve a load
 *     that asks for them (checked again, entry upgraded), and the upgraded
 *     one serves both;
 *   - a key file changed under its entry: a byte flipped in a point (the
 *     load fails as without a cache), a byte flipped where the key stays
 *     valid, truncated, replaced by another valid key of the same size:
 *     never the old key;
 *   - damaged entries: a byte flipped in the payload or the header,
 *     truncated, a symbolic link, writable by others, and a forged entry
 *     whose digest matches but whose matrices point outside the witness:
 *     each ignored with a warning, the key checked again, the entry rebuilt;
 *   - a key file that changes while it is being checked (the test hook
 *     sp_kc_debug_after_check changes the bytes): the load fails, nothing
 *     is stored;
 *   - a directory others may write is not used; store = 0 writes nothing;
 *   - four processes storing the same entry at once: all load, one entry,
 *     nothing temporary left; a write that hits the file size limit (as a
 *     full disk would) leaves nothing and does not fail the load;
 *   - list and clear: our files only;
 *   - the stamp (the key file's identity, to skip its hash): written only
 *     when the file's mtime and ctime are older than the racy window
 *     (shortened here with sp_kc_debug_racy_ns instead of sleeping), then
 *     a hit without hashing; never trusted after the file was rewritten in
 *     place with another key of the same size and its mtime restored
 *     (utimensat), replaced by rename with the old mtime, truncated, or
 *     merely touched; a damaged stamp is no stamp; a damaged entry is
 *     caught by its checksum though the stamp matches.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>
#include "groth16/keycache.h"
#include "groth16/keycache_entry.h"
#include "groth16/setup.h"
#include "groth16/verify.h"
#include "groth16/zkey.h"
#include "synth/gen.h"
#include "synth/prover.h"
#include "test.h"
#include "test_g16.h"
#include "util/crc32c.h"

static char T[] = "/tmp/sp_test_keycache_XXXXXX";
static char DIRC[300], KEY[300], KEY2[300];
static sp_r1cs cs;
static sp_fr *wit;
static size_t wit_n;

static void path_in(char *out, size_t n, const char *name) { snprintf(out, n, "%s/%s", T, name); }

static uint8_t *slurp(const char *path, size_t *len)
{
    uint8_t *b = sp_test_slurp(path, len);
    CHECKF(b != NULL, "cannot read %s", path);
    return b;
}

static void spit(const char *path, const uint8_t *b, size_t len)
{
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(b, 1, len, f) == len);
    if (f)
        fclose(f);
}

static void copy_file(const char *to, const char *from)
{
    size_t n;
    uint8_t *b = slurp(from, &n);
    if (b)
        spit(to, b, n);
    free(b);
}

static uint64_t cap_bytes; /* the cache's cap for load(); 0: the default */

static sp_status load(sp_g16_pk *pk, sp_kc_report *rep, const char *path, unsigned flags, int store, char *err)
{
    sp_kc_request rq = {.kind = SP_KC_ZKEY, .path = path, .flags = flags, .threads = 2, .store = store,
                        .max_bytes = cap_bytes};
    return sp_kc_load(pk, rep, DIRC, &rq, err);
}

/* The key as the plain reader makes it. */
static void plain(sp_g16_pk *pk, const char *path)
{
    char err[SP_ERR_LEN] = "";
    CHECKF(sp_zkey_read(pk, NULL, path, 0, 2, err) == SP_OK, "%s", err);
}

static int verifies(const sp_g16_pk *pk)
{
    char err[SP_ERR_LEN] = "";
    sp_g16_proof p;
    sp_g16_pvk pvk;
    int valid = 0;
    sp_fr *pub = calloc(pk->vk.n_public + 1, sizeof(sp_fr));
    sp_g16_prove_opts o = sp_g16_prove_opts_default();
    o.threads = 2;
    if (sp_synth_prove(&p, pub, pk, NULL, wit, wit_n, 0, &o, err) == SP_OK && sp_g16_pvk_init(&pvk, &pk->vk, err) == SP_OK) {
        if (sp_g16_verify(&valid, &pvk, &p, pub, pk->vk.n_public, err) != SP_OK)
            valid = 0;
        sp_g16_pvk_free(&pvk);
    }
    free(pub);
    return valid;
}

/* Files of the cache directory: entries, and temporary ones. */
static void count_files(int *entries, int *temps, int *others)
{
    *entries = *temps = *others = 0;
    DIR *d = opendir(DIRC);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        if (strstr(e->d_name, ".tmp-"))
            (*temps)++;
        else if (strstr(e->d_name, ".spkc"))
            (*entries)++;
        else
            (*others)++;
    }
    if (d)
        closedir(d);
}

static void make_key(const char *path)
{
    char err[SP_ERR_LEN] = "";
    sp_g16_pk pk;
    CHECKF(sp_g16_setup(&pk, &cs, SP_G16_H_SNARKJS, 2, err) == SP_OK, "setup: %s", err);
    CHECKF(sp_zkey_write(path, &pk, err) == SP_OK, "%s", err);
    sp_g16_pk_free(&pk);
}

/* ---- hits ---- */

static void test_hit(void)
{
    char err[SP_ERR_LEN] = "";
    sp_g16_pk pk, ref;
    sp_kc_report rep;
    plain(&ref, KEY);
    CHECKF(load(&pk, &rep, KEY, 0, 1, err) == SP_OK, "%s", err);
    CHECK(rep.outcome == SP_KC_MISS && rep.stored && !*rep.warning && tg_pk_equal(&pk, &ref));
    sp_g16_pk_free(&pk);
    struct stat st;
    CHECK(stat(rep.entry, &st) == 0 && (st.st_mode & 0777) == 0600);
    CHECK(stat(DIRC, &st) == 0 && (st.st_mode & 0777) == 0700);
    CHECKF(load(&pk, &rep, KEY, 0, 1, err) == SP_OK, "%s", err);
    CHECKF(rep.outcome == SP_KC_HIT && !rep.stored && !*rep.warning, "%s %s", sp_kc_outcome_str(rep.outcome),
           rep.warning);
    CHECK(tg_pk_equal(&pk, &ref) && pk.mpc_len == ref.mpc_len && !memcmp(pk.mpc, ref.mpc, ref.mpc_len));
    CHECK(verifies(&pk));
    sp_g16_pk_free(&pk);
    /* the same content under another path shares its entry: a hit, nothing written */
    char first[SP_KC_PATH];
    snprintf(first, sizeof first, "%s", rep.entry);
    copy_file(KEY2, KEY);
    CHECK(load(&pk, &rep, KEY2, 0, 1, err) == SP_OK && rep.outcome == SP_KC_HIT && !rep.stored &&
          !strcmp(rep.entry, first) && tg_pk_equal(&pk, &ref));
    sp_g16_pk_free(&pk);
    int e, t, o;
    count_files(&e, &t, &o);
    CHECKF(e == 1 && t == 0 && o == 2, "%d entries, %d temporary, %d other files (two references)", e, t, o);
    CHECK(load(&pk, &rep, KEY2, SP_G16_SKIP_SUBGROUP_CHECK, 1, err) == SP_OK && rep.outcome == SP_KC_HIT);
    sp_g16_pk_free(&pk);
    unlink(KEY2);
    sp_g16_pk_free(&ref);
}

static void test_levels(void)
{
    char err[SP_ERR_LEN] = "";
    sp_g16_pk pk;
    sp_kc_report rep;
    size_t cleared = 0;
    CHECK(sp_kc_clear(DIRC, &cleared, NULL, err) == SP_OK && cleared >= 1);
    CHECK(load(&pk, &rep, KEY, SP_G16_SKIP_SUBGROUP_CHECK, 1, err) == SP_OK && rep.outcome == SP_KC_MISS);
    sp_g16_pk_free(&pk);
    CHECK(load(&pk, &rep, KEY, SP_G16_SKIP_SUBGROUP_CHECK, 1, err) == SP_OK && rep.outcome == SP_KC_HIT);
    sp_g16_pk_free(&pk);
    CHECK(load(&pk, &rep, KEY, 0, 1, err) == SP_OK && rep.outcome == SP_KC_WEAKER && rep.stored);
    sp_g16_pk_free(&pk);
    CHECK(load(&pk, &rep, KEY, 0, 1, err) == SP_OK && rep.outcome == SP_KC_HIT);
    sp_g16_pk_free(&pk);
    CHECK(load(&pk, &rep, KEY, SP_G16_SKIP_SUBGROUP_CHECK, 1, err) == SP_OK && rep.outcome == SP_KC_HIT);
    sp_g16_pk_free(&pk);
}

/* ---- the key file changed ---- */

/* Offset of section id's payload in a zkey. */
static size_t section_at(const uint8_t *d, size_t len, uint32_t id)
{
    tg_section s[16];
    int n = tg_sections(s, 16, d, len);
    const tg_section *f = tg_find(s, n, id);
    CHECK(f != NULL);
    return f ? f->off : 0;
}

static void test_key_changed(void)
{
    char err[SP_ERR_LEN] = "", other[300];
    sp_g16_pk pk, ref;
    sp_kc_report rep;
    size_t len;
    uint8_t *orig = slurp(KEY, &len);
    if (!orig)
        return;
    /* a byte of H[3]'s x: the key no longer loads, cache or not */
    uint8_t *b = malloc(len);
    memcpy(b, orig, len);
    b[section_at(b, len, 9) + 3 * 2 * SP_FP_BYTES + 5] ^= 0x10;
    spit(KEY, b, len);
    sp_status want = sp_zkey_read(&ref, NULL, KEY, 0, 2, err), got = load(&pk, &rep, KEY, 0, 1, err);
    CHECKF(want != SP_OK && got == want && rep.outcome == SP_KC_STALE && !rep.stored, "%d %d %s", want, got,
           sp_kc_outcome_str(rep.outcome));
    /* a byte of section 10 (the MPC transcript's hash): valid, but another file */
    memcpy(b, orig, len);
    b[section_at(b, len, 10) + 7] ^= 0x01;
    spit(KEY, b, len);
    plain(&ref, KEY);
    CHECK(load(&pk, &rep, KEY, 0, 1, err) == SP_OK && rep.outcome == SP_KC_STALE && rep.stored);
    CHECK(tg_pk_equal(&pk, &ref) && !memcmp(pk.mpc, ref.mpc, ref.mpc_len));
    sp_g16_pk_free(&pk);
    sp_g16_pk_free(&ref);
    /* truncated by one byte */
    spit(KEY, orig, len - 1);
    CHECK(load(&pk, &rep, KEY, 0, 1, err) != SP_OK && rep.outcome == SP_KC_STALE);
    /* the original content again: its entry is still there and serves */
    spit(KEY, orig, len);
    CHECK(load(&pk, &rep, KEY, 0, 1, err) == SP_OK && rep.outcome == SP_KC_HIT && !rep.stored);
    sp_g16_pk_free(&pk);
    path_in(other, sizeof other, "other.zkey");
    make_key(other);
    size_t len2;
    uint8_t *b2 = slurp(other, &len2);
    CHECK(b2 && len2 == len);
    if (b2)
        spit(KEY, b2, len2);
    plain(&ref, KEY);
    CHECK(load(&pk, &rep, KEY, 0, 1, err) == SP_OK && rep.outcome == SP_KC_STALE && rep.stored);
    CHECK(tg_pk_equal(&pk, &ref) && verifies(&pk));
    sp_g16_pk_free(&pk);
    CHECK(load(&pk, &rep, KEY, 0, 1, err) == SP_OK && rep.outcome == SP_KC_HIT && tg_pk_equal(&pk, &ref));
    sp_g16_pk_free(&pk);
    sp_g16_pk_free(&ref);
    spit(KEY, orig, len);
    unlink(other);
    free(b2);
    free(b);
    free(orig);
}

static uint8_t *racing;
static size_t racing_at;

static void change_under_load(void) { racing[racing_at] ^= 0x01; }

static void test_changed_while_read(void)
{
    char err[SP_ERR_LEN] = "";
    sp_g16_pk pk;
    sp_kc_report rep;
    size_t len;
    int e, t, o;
    CHECK(sp_kc_clear(DIRC, NULL, NULL, err) == SP_OK);
    racing = slurp(KEY, &len);
    if (!racing)
        return;
    racing_at = section_at(racing, len, 10) + 9; /* the key stays valid either way */
    sp_kc_request rq = {.kind = SP_KC_ZKEY, .path = KEY, .data = racing, .len = len, .threads = 2, .store = 1};
    sp_kc_debug_after_check = change_under_load;
    sp_status st = sp_kc_load(&pk, &rep, DIRC, &rq, err);
    sp_kc_debug_after_check = NULL;
    CHECKF(st == SP_ERR_IO && strstr(err, "changed while") && !rep.stored, "%d %s", st, err);
    count_files(&e, &t, &o);
    CHECK(e == 0 && t == 0);
    /* unchanged bytes given by the caller (the daemon's mapping) load and store */
    CHECK(sp_kc_load(&pk, &rep, DIRC, &rq, err) == SP_OK && rep.stored);
    sp_g16_pk_free(&pk);
    CHECK(sp_kc_load(&pk, &rep, DIRC, &rq, err) == SP_OK && rep.outcome == SP_KC_HIT);
    sp_g16_pk_free(&pk);
    free(racing);
}

/* ---- damaged entries ---- */

/* Loads twice after `damage` spoiled the entry: first checked again with a
 * warning (and the entry rebuilt), then a hit. */
static void expect_damaged(const char *what, const char *entry)
{
    char err[SP_ERR_LEN] = "";
    sp_g16_pk pk, ref;
    sp_kc_report rep;
    plain(&ref, KEY);
    CHECKF(load(&pk, &rep, KEY, 0, 1, err) == SP_OK && rep.outcome == SP_KC_DAMAGED && rep.stored && *rep.warning,
           "%s: %s, %s", what, sp_kc_outcome_str(rep.outcome), rep.warning);
    CHECKF(tg_pk_equal(&pk, &ref), "%s", what);
    sp_g16_pk_free(&pk);
    CHECKF(load(&pk, &rep, KEY, 0, 1, err) == SP_OK && rep.outcome == SP_KC_HIT, "%s: not rebuilt", what);
    struct stat st;
    CHECK(lstat(entry, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 0777) == 0600);
    sp_g16_pk_free(&pk);
    sp_g16_pk_free(&ref);
}

/* Rewrites the entry with its checksum made right again (it covers all
 * but the stamp and itself). */
static void reseal(const char *entry, uint8_t *b, size_t len)
{
    uint32_t crc = sp_crc32c(0, b, KC_STAMP_AT);
    tg_put32(b + len - KC_TRAILER, sp_crc32c(crc, b + KC_HEAD, len - KC_TRAILER - KC_HEAD));
    spit(entry, b, len);
}

static void test_damaged(sp_rng *rng)
{
    char err[SP_ERR_LEN] = "", entry[SP_KC_PATH];
    sp_g16_pk pk;
    sp_kc_report rep;
    CHECK(load(&pk, &rep, KEY, 0, 1, err) == SP_OK);
    sp_g16_pk_free(&pk);
    snprintf(entry, sizeof entry, "%s", rep.entry);
    size_t len;
    uint8_t *orig = slurp(entry, &len), *b = malloc(len);
    if (!orig)
        return;
    size_t at = KC_HEAD + (size_t)(sp_rng_u64(rng) % (len - KC_HEAD - KC_TRAILER));
    memcpy(b, orig, len);
    b[at] ^= (uint8_t)(1 + sp_rng_u64(rng) % 255);
    spit(entry, b, len);
    expect_damaged("payload byte", entry);
    memcpy(b, orig, len);
    b[160] ^= 1; /* n_vars */
    spit(entry, b, len);
    expect_damaged("header byte", entry);
    memcpy(b, orig, len);
    b[len - 1 - sp_rng_u64(rng) % KC_TRAILER] ^= (uint8_t)(1 + sp_rng_u64(rng) % 255);
    spit(entry, b, len);
    expect_damaged("checksum byte", entry);
    spit(entry, orig, len - 100);
    expect_damaged("truncated", entry);
    unlink(entry);
    CHECK(symlink(KEY, entry) == 0);
    expect_damaged("symbolic link", entry);
    chmod(entry, 0666);
    expect_damaged("writable by others", entry);
    /* digest right, but a QAP column outside the wires */
    const size_t g1 = sizeof(sp_g1_affine), g2 = sizeof(sp_g2_affine);
    sp_g16_pk ref;
    plain(&ref, KEY);
    size_t nv = ref.n_vars, np = ref.vk.n_public;
    size_t col = KC_HEAD + 3 * g1 + 3 * g2 + (np + 1) * g1 + nv * (2 * g1 + g2) + (nv - np - 1) * g1 + ref.n_h * g1 +
                 ((size_t)ref.domain_size + 1) * 8;
    memcpy(b, orig, len);
    tg_put32(b + col, ref.n_vars);
    reseal(entry, b, len);
    expect_damaged("matrix column out of range", entry);
    /* and the same reseal of an unchanged entry is a hit: the test above damaged only the column */
    memcpy(b, orig, len);
    reseal(entry, b, len);
    CHECK(load(&pk, &rep, KEY, 0, 1, err) == SP_OK && rep.outcome == SP_KC_HIT && tg_pk_equal(&pk, &ref));
    sp_g16_pk_free(&pk);
    sp_g16_pk_free(&ref);
    free(b);
    free(orig);
}


/* ---- the stamp ---- */

/* The path of the one reference in the cache directory; 0 when there is not exactly one. */
static int ref_path(char *out, size_t n)
{
    DIR *d = opendir(DIRC);
    struct dirent *e;
    int found = 0;
    while (d && (e = readdir(d)) != NULL)
        if (strstr(e->d_name, ".spref") && e->d_name[0] != '.') {
            int w = snprintf(out, n, "%s/%s", DIRC, e->d_name);
            found += w > 0 && (size_t)w < n ? 1 : 100;
        }
    if (d)
        closedir(d);
    CHECKF(found == 1, "%d references", found);
    return found == 1;
}

static void nap_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&t, &t) != 0 && errno == EINTR) {
    }
}

/* Loads KEY; returns the outcome, with *identity and *stamped from the report. */
static int load_stamp(int *identity, int *stamped, sp_g16_pk *ref, const char *what)
{
    char err[SP_ERR_LEN] = "";
    sp_g16_pk pk;
    sp_kc_report rep;
    sp_status st = load(&pk, &rep, KEY, 0, 1, err);
    CHECKF(st == SP_OK, "%s: %s", what, err);
    if (st != SP_OK)
        return -1;
    CHECKF(tg_pk_equal(&pk, ref), "%s: not the key the file holds", what);
    sp_g16_pk_free(&pk);
    *identity = rep.identity;
    *stamped = rep.stamped;
    return (int)rep.outcome;
}

/* Waits out the (shortened) racy window, loads to stamp, and checks the
 * next load skips the hash. */
static void stamp_now(sp_g16_pk *ref, const char *what)
{
    int id, sd;
    nap_ms(60);
    int o = load_stamp(&id, &sd, ref, what);
    CHECKF((o == SP_KC_HIT || o == SP_KC_STALE || o == SP_KC_MISS) && sd, "%s: not stamped (%d)", what, o);
    o = load_stamp(&id, &sd, ref, what);
    CHECKF(o == SP_KC_HIT && id && !sd, "%s: the stamp was not used (%d %d %d)", what, o, id, sd);
}

/* Writes b over path in place (same inode) and gives it mtime m. */
static void rewrite_keep_mtime(const char *path, const uint8_t *b, size_t len, struct timespec m)
{
    int fd = open(path, O_WRONLY);
    CHECK(fd >= 0 && pwrite(fd, b, len, 0) == (ssize_t)len);
    struct timespec ts[2] = {m, m};
    CHECK(fd >= 0 && futimens(fd, ts) == 0);
    if (fd >= 0)
        close(fd);
}

static void test_stamp(void)
{
    char err[SP_ERR_LEN] = "", other[300], tmp[300];
    sp_g16_pk ref, ref2;
    struct stat st, st2;
    int id, sd;
    size_t len, len2;
    int64_t keep = sp_kc_debug_racy_ns;
    CHECK(sp_kc_clear(DIRC, NULL, NULL, err) == SP_OK);
    plain(&ref, KEY);
    uint8_t *orig = slurp(KEY, &len);
    path_in(other, sizeof other, "other2.zkey");
    path_in(tmp, sizeof tmp, "tmp.zkey");
    make_key(other);
    plain(&ref2, other);
    uint8_t *b2 = slurp(other, &len2);
    if (!orig || !b2 || len2 != len) {
        CHECK(0);
        goto out;
    }
    int fd = open(KEY, O_RDONLY);
    int stampable = fd >= 0 && kc_keeps_ctime(fd);
    if (fd >= 0)
        close(fd);
    if (!stampable) { /* then a stamp is never written nor used */
        printf("test_keycache: %s's file system is not one whose ctime the stamp trusts\n", T);
        sp_kc_debug_racy_ns = 0;
        nap_ms(10);
        CHECK(load_stamp(&id, &sd, &ref, "no stamps") >= 0 && !sd && !id);
        CHECK(load_stamp(&id, &sd, &ref, "no stamps") == SP_KC_HIT && !sd && !id);
        goto out;
    }
    /* racy: a key file just written is hashed, and no stamp is written */
    spit(KEY, orig, len);
    sp_kc_debug_racy_ns = (int64_t)3600 * 1000000000; /* an hour: every file here is recent */
    CHECK(load_stamp(&id, &sd, &ref, "racy, first") == SP_KC_MISS && !id && !sd);
    CHECK(load_stamp(&id, &sd, &ref, "racy, second") == SP_KC_HIT && !id && !sd);
    sp_kc_debug_racy_ns = 40 * 1000000; /* 40 ms */
    stamp_now(&ref, "stamped");

    /* rewritten in place with another key of the same size, mtime restored */
    CHECK(stat(KEY, &st) == 0);
    rewrite_keep_mtime(KEY, b2, len, st.st_mtim);
    CHECK(stat(KEY, &st2) == 0 && st2.st_ino == st.st_ino && st2.st_size == st.st_size &&
          st2.st_mtim.tv_sec == st.st_mtim.tv_sec && st2.st_mtim.tv_nsec == st.st_mtim.tv_nsec);
    CHECK(load_stamp(&id, &sd, &ref2, "rewritten in place") == SP_KC_STALE && !id);
    stamp_now(&ref2, "rewritten, stamped again");

    /* replaced by rename (a new inode) with the old mtime */
    CHECK(stat(KEY, &st) == 0);
    spit(tmp, orig, len);
    struct timespec ts[2] = {st.st_mtim, st.st_mtim};
    CHECK(utimensat(AT_FDCWD, tmp, ts, 0) == 0 && rename(tmp, KEY) == 0);
    /* (the original content's entry, still there, serves) */
    CHECK(load_stamp(&id, &sd, &ref, "replaced by rename") == SP_KC_HIT && !id);
    stamp_now(&ref, "renamed, stamped again");

    /* truncated (and put back) */
    CHECK(truncate(KEY, (off_t)len - 1) == 0);
    {
        sp_g16_pk pk;
        sp_kc_report rep;
        CHECK(load(&pk, &rep, KEY, 0, 1, err) != SP_OK && !rep.identity);
    }
    rewrite_keep_mtime(KEY, orig, len, st.st_mtim);
    CHECK(load_stamp(&id, &sd, &ref, "truncated, then written back") == SP_KC_HIT && !id);
    stamp_now(&ref, "written back, stamped again");

    /* touched: the same content, another identity: hashed, a hit, stamped again */
    CHECK(utimensat(AT_FDCWD, KEY, NULL, 0) == 0);
    CHECK(load_stamp(&id, &sd, &ref, "touched") == SP_KC_HIT && !id);
    stamp_now(&ref, "touched, stamped again");

    /* a damaged stamp is no stamp: hashed, and stamped again */
    {
        sp_g16_pk pk;
        sp_kc_report rep;
        CHECK(load(&pk, &rep, KEY, 0, 1, err) == SP_OK && rep.identity);
        sp_g16_pk_free(&pk);
        size_t elen, rlen;
        char refp[400];
        uint8_t *e = ref_path(refp, sizeof refp) ? slurp(refp, &rlen) : NULL;
        if (e) {
            e[40 + 3] ^= 0x40; /* the stamp's inode bits (keycache_entry.h, the reference's layout) */
            spit(refp, e, rlen);
            CHECK(load_stamp(&id, &sd, &ref, "stamp damaged") == SP_KC_HIT && !id && sd);
            CHECK(load_stamp(&id, &sd, &ref, "stamp again") == SP_KC_HIT && id);
            free(e);
        }
        /* a damaged payload under a matching stamp: the checksum catches it */
        e = slurp(rep.entry, &elen);
        if (e) {
            e[KC_HEAD + elen / 3] ^= 0x08;
            spit(rep.entry, e, elen);
            CHECK(load(&pk, &rep, KEY, 0, 1, err) == SP_OK && rep.outcome == SP_KC_DAMAGED && rep.identity &&
                  rep.stored && tg_pk_equal(&pk, &ref));
            sp_g16_pk_free(&pk);
            free(e);
        }
    }
out:
    sp_kc_debug_racy_ns = keep;
    unlink(other);
    free(orig);
    free(b2);
    sp_g16_pk_free(&ref);
    sp_g16_pk_free(&ref2);
}

/* ---- the directory ---- */

static void test_directory(void)
{
    char err[SP_ERR_LEN] = "";
    sp_g16_pk pk;
    sp_kc_report rep;
    int e, t, o;
    CHECK(chmod(DIRC, 0777) == 0);
    CHECK(load(&pk, &rep, KEY, 0, 1, err) == SP_OK && rep.outcome == SP_KC_UNUSABLE && !rep.stored);
    CHECKF(strstr(rep.warning, "not private") != NULL, "%s", rep.warning);
    CHECK(verifies(&pk));
    sp_g16_pk_free(&pk);
    CHECK(chmod(DIRC, 0700) == 0);
    CHECK(sp_kc_clear(DIRC, NULL, NULL, err) == SP_OK);
    CHECK(load(&pk, &rep, KEY, 0, 0, err) == SP_OK && rep.outcome == SP_KC_MISS && !rep.stored);
    sp_g16_pk_free(&pk);
    count_files(&e, &t, &o);
    CHECK(e == 0 && t == 0);
}

/* ---- the size cap: least recently used first ---- */

/* Sets an entry's last use (its mtime) to Unix second t: orders uses without waiting. */
static void set_used(const char *entry, time_t t)
{
    struct timespec ts[2] = {{t, 0}, {t, 0}};
    CHECKF(utimensat(AT_FDCWD, entry, ts, 0) == 0, "%s", entry);
}

static int gone(const char *path)
{
    struct stat st;
    return stat(path, &st) != 0 && errno == ENOENT;
}

/* Loads key path, storing: the outcome; its entry's path into ent. */
static int load_into(char ent[SP_KC_PATH], sp_kc_report *rep, const char *path)
{
    char err[SP_ERR_LEN] = "";
    sp_g16_pk pk, ref;
    sp_status st = load(&pk, rep, path, 0, 1, err);
    CHECKF(st == SP_OK, "%s: %s", path, err);
    if (st != SP_OK)
        return -1;
    plain(&ref, path);
    CHECKF(tg_pk_equal(&pk, &ref), "%s: not its key", path);
    sp_g16_pk_free(&ref);
    sp_g16_pk_free(&pk);
    snprintf(ent, SP_KC_PATH, "%s", rep->entry);
    return (int)rep->outcome;
}

static void test_cap(void)
{
    char err[SP_ERR_LEN] = "", k[3][300], ent[4][SP_KC_PATH];
    sp_kc_report rep;
    struct stat st;
    int e, t, o;
    CHECK(sp_kc_clear(DIRC, NULL, NULL, err) == SP_OK);
    for (int i = 0; i < 3; i++) {
        char name[32];
        snprintf(name, sizeof name, "cap%d.zkey", i);
        path_in(k[i], sizeof k[i], name);
        make_key(k[i]);
    }
    cap_bytes = 0;
    CHECK(load_into(ent[0], &rep, k[0]) == SP_KC_MISS && rep.stored && rep.max_bytes == SP_KC_DEFAULT_MAX);
    uint64_t one = rep.entry_bytes;
    CHECK(stat(ent[0], &st) == 0 && (uint64_t)st.st_size == one && rep.cache_bytes == one);
    cap_bytes = 2 * one + one / 2; /* room for two entries */
    CHECK(load_into(ent[1], &rep, k[1]) == SP_KC_MISS && rep.stored && !rep.evicted && rep.cache_bytes == 2 * one);
    set_used(ent[0], 1000);
    set_used(ent[1], 2000);
    /* a hit makes its entry the most recently used */
    CHECK(load_into(ent[3], &rep, k[0]) == SP_KC_HIT && !strcmp(ent[3], ent[0]));
    CHECK(stat(ent[0], &st) == 0 && st.st_mtim.tv_sec > 2000);
    /* a third entry removes the least recently used one: k[1]'s, and its reference */
    CHECK(load_into(ent[2], &rep, k[2]) == SP_KC_MISS && rep.stored && rep.evicted == 1 && rep.cache_bytes == 2 * one);
    CHECK(gone(ent[1]) && !gone(ent[0]) && !gone(ent[2]));
    count_files(&e, &t, &o);
    CHECKF(e == 2 && t == 0 && o == 2, "%d entries, %d temporary, %d references", e, t, o);
    /* k[1] again: checked and stored, removing what is now least recent */
    set_used(ent[0], 3000);
    set_used(ent[2], 4000);
    CHECK(load_into(ent[1], &rep, k[1]) == SP_KC_MISS && rep.stored && rep.evicted == 1);
    CHECK(gone(ent[0]) && !gone(ent[1]) && !gone(ent[2]));
    /* an entry larger than the cap is not written (nothing removed for it) */
    cap_bytes = one - 1;
    CHECK(load_into(ent[3], &rep, k[0]) == SP_KC_MISS && !rep.stored && strstr(rep.warning, "cap"));
    count_files(&e, &t, &o);
    CHECKF(e == 2 && t == 0, "%d entries, %d temporary", e, t);
    cap_bytes = 0;
    for (int i = 0; i < 3; i++)
        unlink(k[i]);
}

static void test_concurrent(void)
{
    char err[SP_ERR_LEN] = "";
    pid_t kids[4];
    int e, t, o;
    CHECK(sp_kc_clear(DIRC, NULL, NULL, err) == SP_OK);
    for (int i = 0; i < 4; i++) {
        kids[i] = fork();
        if (kids[i] == 0) {
            sp_g16_pk pk;
            sp_kc_report rep;
            int ok = load(&pk, &rep, KEY, 0, 1, err) == SP_OK && !*rep.warning;
            _exit(ok ? 0 : 1);
        }
    }
    for (int i = 0; i < 4; i++) {
        int status = -1;
        CHECK(kids[i] > 0 && waitpid(kids[i], &status, 0) == kids[i] && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    count_files(&e, &t, &o);
    CHECKF(e == 1 && t == 0, "%d entries, %d temporary files", e, t);
    sp_g16_pk pk;
    sp_kc_report rep;
    CHECK(load(&pk, &rep, KEY, 0, 1, err) == SP_OK && rep.outcome == SP_KC_HIT);
    sp_g16_pk_free(&pk);
}

/* A write past RLIMIT_FSIZE fails with EFBIG, like a full disk with ENOSPC. */
static void test_write_fails(void)
{
    char err[SP_ERR_LEN] = "";
    int e, t, o;
    CHECK(sp_kc_clear(DIRC, NULL, NULL, err) == SP_OK);
    pid_t kid = fork();
    if (kid == 0) {
        struct rlimit r = {64 << 10, 64 << 10};
        signal(SIGXFSZ, SIG_IGN);
        sp_g16_pk pk;
        sp_kc_report rep;
        int ok = setrlimit(RLIMIT_FSIZE, &r) == 0 && load(&pk, &rep, KEY, 0, 1, err) == SP_OK && !rep.stored &&
                 strstr(rep.warning, "not stored") && verifies(&pk);
        if (!ok)
            fprintf(stderr, "write_fails: %s / %s\n", err, rep.warning);
        _exit(ok ? 0 : 1);
    }
    int status = -1;
    CHECK(kid > 0 && waitpid(kid, &status, 0) == kid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    count_files(&e, &t, &o);
    CHECKF(e == 0 && t == 0, "%d entries, %d temporary files left", e, t);
}

/* ---- list and clear ---- */

typedef struct {
    int entries, temps, usable, refs;
    char source[SP_KC_PATH];
} seen;

static int see(void *vctx, const sp_kc_file *f)
{
    seen *s = vctx;
    s->temps += f->temp;
    s->refs += f->ref && f->readable;
    if (!f->temp && !f->ref && f->readable) {
        s->entries++;
        s->usable += f->this_build && f->subgroup_checked && f->kind == SP_KC_ZKEY;
        snprintf(s->source, sizeof s->source, "%s", f->source);
    }
    return 0;
}

static void test_list_clear(void)
{
    char err[SP_ERR_LEN] = "", p[400];
    sp_g16_pk pk;
    sp_kc_report rep;
    CHECK(load(&pk, &rep, KEY, 0, 1, err) == SP_OK);
    sp_g16_pk_free(&pk);
    const char *slash = strrchr(rep.entry, '/');
    snprintf(p, sizeof p, "%s/.%s.tmp-0011223344556677", DIRC, slash ? slash + 1 : "");
    spit(p, (const uint8_t *)"x", 1);
    snprintf(p, sizeof p, "%s/notes.txt", DIRC);
    spit(p, (const uint8_t *)"keep me", 7);
    seen s;
    memset(&s, 0, sizeof s);
    CHECK(sp_kc_list(DIRC, see, &s, err) == SP_OK);
    char canon[4096];
    CHECK(realpath(KEY, canon) != NULL);
    CHECKF(s.entries == 1 && s.temps == 1 && s.refs == 1 && s.usable == 1 && !strcmp(s.source, canon),
           "%d %d %d %d %s", s.entries, s.temps, s.refs, s.usable, s.source);
    size_t n = 0;
    uint64_t bytes = 0;
    CHECK(sp_kc_clear(DIRC, &n, &bytes, err) == SP_OK && n == 3 && bytes > 1);
    int e, t, o;
    count_files(&e, &t, &o);
    CHECK(e == 0 && t == 0 && o == 1);
    unlink(p);
    snprintf(p, sizeof p, "%s/missing", T);
    CHECK(sp_kc_clear(p, &n, NULL, err) == SP_OK && n == 0);
}

int main(void)
{
    sp_rng rng;
    char err[SP_ERR_LEN] = "", r1cs[300], wtns[300];
    sp_test_begin("test_keycache", &rng);
    CHECK(mkdtemp(T) != NULL);
    path_in(DIRC, sizeof DIRC, "cache/snarkpipe");
    path_in(KEY, sizeof KEY, "key.zkey");
    path_in(KEY2, sizeof KEY2, "copy.zkey");
    path_in(r1cs, sizeof r1cs, "c.r1cs");
    path_in(wtns, sizeof wtns, "c.wtns");
    sp_gen_params gp = {.n_constraints = 600, .n_public = 2, .bool_fraction = 0.5, .seed = sp_rng_u64(&rng)};
    CHECKF(sp_gen_circuit(r1cs, wtns, &gp, NULL, err) == SP_OK, "%s", err);
    CHECKF(sp_r1cs_read(&cs, r1cs, err) == SP_OK, "%s", err);
    CHECKF(sp_wtns_read(&wit, &wit_n, wtns, err) == SP_OK, "%s", err);
    make_key(KEY);
    test_hit();
    test_levels();
    test_key_changed();
    test_changed_while_read();
    test_damaged(&rng);
    test_directory();
    test_cap();
    test_concurrent();
    test_write_fails();
    test_list_clear();
    test_stamp();
    sp_r1cs_free(&cs);
    free(wit);
    char rm[400];
    snprintf(rm, sizeof rm, "rm -rf '%s'", T);
    CHECK(system(rm) == 0);
    return sp_test_done();
}
