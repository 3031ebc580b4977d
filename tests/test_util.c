/*
 * The small util/ helpers without a test of their own: the byte-count
 * syntax (src/util/bytes.h), with its edges: every unit, the 2^k form,
 * the largest values that fit and the smallest that do not, and junk;
 * SHA-256 (src/util/sha256.h): FIPS 180-4 answers on both paths, and the
 * SHA-extension path against the portable one on random messages of
 * random lengths fed in random pieces;
 * CRC-32C (src/util/crc32c.h): known answers on both paths, and both
 * against a bit-at-a-time reference on random messages at every
 * alignment, whole, in two pieces, and joined from two pieces' checksums;
 * the atomic file replacement (src/util/file.h): new and existing files,
 * modes, links, what it refuses, and nothing left behind;
 * the fork-join pool (src/util/par.h): sp_par_run with barriers and
 * sp_par_tasks on random sizes and thread counts against a serial
 * reference, many calls in a row (the pool reused), calls nested in a
 * worker, calls from several threads at once, and a call in a forked child;
 * huge-page buffers (src/util/hugemem.h): zeroed, aligned, wholly writable,
 * at random sizes on both sides of SP_HUGE_MIN.
 */
#include <dirent.h>
#include <stdint.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdatomic.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>
#include "test.h"
#include "util/bytes.h"
#include "util/clock.h"
#include "util/file.h"
#include "util/hugemem.h"
#include "util/crc32c.h"
#include "util/par.h"
#include "util/sha256.h"

static void test_bytes_good(void)
{
    static const struct {
        const char *s;
        size_t v;
    } good[] = {
        {"0", 0}, {"123", 123}, {"1000000", 1000000}, {"007", 7},
        {"64K", (size_t)64 << 10}, {"64k", (size_t)64 << 10}, {"64KiB", (size_t)64 << 10}, {"64kib", (size_t)64 << 10},
        {"256m", (size_t)256 << 20}, {"512MiB", (size_t)512 << 20}, {"2G", (size_t)2 << 30},
        {"2GiB", (size_t)2 << 30}, {"1T", (size_t)1 << 40}, {"3TiB", (size_t)3 << 40}, {"0G", 0},
        {"2^0", 1}, {"2^30", (size_t)1 << 30}, {"2^63", (size_t)1 << 63},
        {"18446744073709551615", SIZE_MAX},           /* the largest plain value */
        {"16777215T", (size_t)16777215 << 40},        /* the largest in T */
        {"17179869183G", (size_t)17179869183 << 30},  /* and in G */
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        size_t v = 1;
        CHECKF(sp_bytes_parse(&v, good[i].s) == SP_OK && v == good[i].v, "sp_bytes_parse(\"%s\")", good[i].s);
    }
}

static void test_bytes_bad(void)
{
    static const char *const bad[] = {
        "", "x", "K", "-1", "+1", " 1", "1 ", "1 K", "1.5G", "0x10", "12Q", "10XB",
        "1KB", "3GB", "1MB", "1TB", "1b", "1Ki", "1KiBB", "1KK", "1P", "2^", "2^64", "2^x", "2^-1", "2^3K",
        "18446744073709551616",  /* SIZE_MAX + 1 */
        "99999999999999999999", "16777216T", "17179869184G", "99999999999T",
        "1e9", "auto",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        size_t v = 7;
        CHECKF(sp_bytes_parse(&v, bad[i]) == SP_ERR_INVALID_ARG && v == 7, "sp_bytes_parse(\"%s\") accepted", bad[i]);
    }
}

static void hex32(char out[65], const uint8_t d[32])
{
    for (int i = 0; i < 32; i++)
        snprintf(out + 2 * i, 3, "%02x", d[i]);
}

/* FIPS 180-4 / NIST CAVP answers, on whichever path is active. */
static void sha_known(const char *path)
{
    static const struct { const char *msg; size_t repeat; const char *hex; } kat[] = {
        {"", 1, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"abc", 1, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1,
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
        {"a", 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"},
    };
    for (size_t k = 0; k < sizeof kat / sizeof kat[0]; k++) {
        sp_sha256_ctx c;
        uint8_t d[32];
        char got[65];
        size_t n = strlen(kat[k].msg);
        sp_sha256_init(&c);
        for (size_t r = 0; r < kat[k].repeat; r++)
            sp_sha256_update(&c, kat[k].msg, n);
        sp_sha256_final(d, &c);
        hex32(got, d);
        CHECKF(!strcmp(got, kat[k].hex), "%s path, answer %zu: %s", path, k, got);
    }
}

static void sha_digest(uint8_t out[32], sp_rng *rng, const uint8_t *m, size_t len, int hw)
{
    sp_sha256_use_hw(hw);
    sp_sha256_ctx c;
    sp_sha256_init(&c);
    for (size_t at = 0; at < len;) {
        size_t k = (size_t)(sp_rng_u64(rng) % 300);
        k = k > len - at ? len - at : k;
        sp_sha256_update(&c, m + at, k);
        at += k;
    }
    sp_sha256_final(out, &c);
}

static void test_sha256(sp_rng *rng)
{
    int hw = sp_sha256_hw_active();
    printf("test_util: SHA-256 extension path %s\n", hw ? "on" : "off (no SHA extensions, or SP_NO_ASM set): portable only");
    sp_sha256_use_hw(0);
    CHECK(!sp_sha256_hw_active());
    sha_known("portable");
    sp_sha256_use_hw(1);
    if (hw)
        sha_known("SHA extensions");
    enum { MAX = 5000 };
    uint8_t *m = malloc(MAX);
    for (int it = 0; it < sp_test_iters(300); it++) {
        size_t len = (size_t)(sp_rng_u64(rng) % MAX);
        uint8_t a[32], b[32];
        sp_rng_bytes(rng, m, len);
        sha_digest(a, rng, m, len, 0);
        sha_digest(b, rng, m, len, 1);
        CHECKF(!memcmp(a, b, 32), "message of %zu bytes", len);
        uint32_t h1[8], h2[8];
        memcpy(h1, SP_SHA256_IV, sizeof h1);
        memcpy(h2, SP_SHA256_IV, sizeof h2);
        sp_sha256_use_hw(0);
        sp_sha256_compress(h1, m);
        sp_sha256_use_hw(1);
        sp_sha256_compress(h2, m);
        CHECK(!memcmp(h1, h2, sizeof h1));
    }
    sp_sha256_use_hw(hw);
    free(m);
}

/* The obvious CRC-32C: one bit at a time, the reference for both paths. */
static uint32_t crc_bitwise(const uint8_t *p, size_t n)
{
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = c & 1 ? (c >> 1) ^ 0x82F63B78u : c >> 1;
    }
    return ~c;
}

/* Known answers: "123456789" (the CRC catalogue's check value) and the
 * three 32-byte patterns of RFC 3720's appendix B.4. */
static void crc_known(const char *path)
{
    uint8_t z[32], f[32], up[32];
    memset(z, 0, 32);
    memset(f, 0xff, 32);
    for (int i = 0; i < 32; i++)
        up[i] = (uint8_t)i;
    CHECKF(sp_crc32c(0, "123456789", 9) == 0xE3069283u, "%s: check value", path);
    CHECKF(sp_crc32c(0, z, 32) == 0x8A9136AAu, "%s: 32 zero bytes", path);
    CHECKF(sp_crc32c(0, f, 32) == 0x62A8AB43u, "%s: 32 bytes 0xff", path);
    CHECKF(sp_crc32c(0, up, 32) == 0x46DD794Eu, "%s: bytes 0..31", path);
    CHECKF(sp_crc32c(0, NULL, 0) == 0 && sp_crc32c(0x1234u, NULL, 0) == 0x1234u, "%s: nothing", path);
}

static void test_crc32c(sp_rng *rng)
{
    int hw = sp_crc32c_hw_active();
    printf("test_util: CRC-32C SSE4.2 path %s\n", hw ? "on" : "off (no SSE4.2, or SP_NO_ASM set): portable only");
    sp_crc32c_use_hw(0);
    CHECK(!sp_crc32c_hw_active());
    crc_known("portable");
    sp_crc32c_use_hw(1);
    if (hw)
        crc_known("SSE4.2");
    enum { MAX = 5000 };
    uint8_t *buf = malloc(MAX + 8);
    for (int it = 0; it < sp_test_iters(300); it++) {
        size_t len = (size_t)(sp_rng_u64(rng) % MAX), off = (size_t)(sp_rng_u64(rng) % 8);
        size_t cut = len ? (size_t)(sp_rng_u64(rng) % (len + 1)) : 0;
        uint8_t *m = buf + off; /* every alignment */
        sp_rng_bytes(rng, m, len);
        uint32_t want = crc_bitwise(m, len);
        for (int path = 0; path < 2; path++) {
            sp_crc32c_use_hw(path);
            CHECKF(sp_crc32c(0, m, len) == want, "%zu bytes at offset %zu, path %d", len, off, path);
            CHECKF(sp_crc32c(sp_crc32c(0, m, cut), m + cut, len - cut) == want, "%zu bytes cut at %zu, path %d",
                   len, cut, path);
            CHECKF(sp_crc32c_combine(sp_crc32c(0, m, cut), sp_crc32c(0, m + cut, len - cut), len - cut) == want,
                   "%zu bytes joined at %zu, path %d", len, cut, path);
        }
    }
    /* joining over a long zero run, against the run checksummed */
    size_t zlen = (size_t)1 << 22;
    uint8_t *z = calloc(zlen, 1);
    if (z) {
        uint32_t head = crc_bitwise(buf, 100);
        CHECK(sp_crc32c_combine(head, sp_crc32c(0, z, zlen), zlen) == sp_crc32c(sp_crc32c(0, buf, 100), z, zlen));
        CHECK(sp_crc32c_combine(head, sp_crc32c(0, NULL, 0), 0) == head);
        free(z);
    }
    sp_crc32c_use_hw(hw);
    free(buf);
}

/* 1 when path holds exactly text. */
static int holds(const char *path, const char *text)
{
    char buf[64] = "";
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    return n == strlen(text) && !memcmp(buf, text, n);
}

/* Entries of dir other than . and .. */
static int entries(const char *dir)
{
    int n = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));)
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    if (d)
        closedir(d);
    return n;
}

static void test_write_atomic(void)
{
    char dir[] = "/tmp/sp_test_util.XXXXXX", a[64], link[64], sub[64], err[SP_ERR_LEN];
    if (!mkdtemp(dir)) {
        CHECK(!"mkdtemp");
        return;
    }
    snprintf(a, sizeof a, "%s/a.txt", dir);
    snprintf(link, sizeof link, "%s/link.txt", dir);
    snprintf(sub, sizeof sub, "%s/sub", dir);
    mode_t old = umask(022);
    CHECK(sp_file_write_atomic(a, "one", 3, "t", err) == SP_OK && holds(a, "one"));
    struct stat st;
    CHECK(stat(a, &st) == 0 && (st.st_mode & 0777) == 0644); /* 0666 less the umask */
    CHECK(chmod(a, 0600) == 0);
    CHECK(sp_file_write_atomic(a, "second", 6, "t", err) == SP_OK && holds(a, "second"));
    CHECK(stat(a, &st) == 0 && (st.st_mode & 0777) == 0600); /* the replaced file's mode */
    CHECK(sp_file_write_atomic(a, "", 0, "t", err) == SP_OK && holds(a, ""));
    /* through a link: the target changes, the link stays */
    CHECK(symlink("a.txt", link) == 0);
    CHECK(sp_file_write_atomic(link, "via", 3, "t", err) == SP_OK && holds(a, "via"));
    CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
    /* refused: a directory (untouched), a missing folder; messages name the path */
    CHECK(mkdir(sub, 0700) == 0);
    CHECK(sp_file_write_atomic(sub, "x", 1, "t", err) == SP_ERR_IO && strstr(err, "not a regular file") &&
          strstr(err, "sub"));
    CHECK(stat(sub, &st) == 0 && S_ISDIR(st.st_mode));
    char missing[80];
    snprintf(missing, sizeof missing, "%s/none/b.txt", dir);
    CHECK(sp_file_write_atomic(missing, "x", 1, "t", err) == SP_ERR_IO && strstr(err, "none/b.txt"));
    /* a dangling link is an error, not a new file beside it */
    CHECK(unlink(a) == 0);
    CHECK(sp_file_write_atomic(link, "x", 1, "t", err) == SP_ERR_IO && access(a, F_OK) != 0);
    /* in pieces, a new file with the mode asked for, a replaced one keeping its own */
    char b[64];
    snprintf(b, sizeof b, "%s/b.txt", dir);
    struct iovec v[3] = {{"ab", 2}, {"", 0}, {"cde", 3}};
    CHECK(sp_file_write_atomicv(b, v, 3, 0600, "t", err) == SP_OK && holds(b, "abcde"));
    CHECK(stat(b, &st) == 0 && (st.st_mode & 0777) == 0600);
    CHECK(chmod(b, 0640) == 0);
    CHECK(sp_file_write_atomicv(b, v + 2, 1, 0600, "t", err) == SP_OK && holds(b, "cde"));
    CHECK(stat(b, &st) == 0 && (st.st_mode & 0777) == 0640);
    CHECK(sp_file_write_atomicv(b, v, 0, 0600, "t", err) == SP_OK && holds(b, ""));
    /* replaced without the fsyncs: the same file, mode and refusals */
    CHECK(sp_file_replace(b, "fgh", 3, "t", err) == SP_OK && holds(b, "fgh"));
    CHECK(stat(b, &st) == 0 && (st.st_mode & 0777) == 0640);
    CHECK(sp_file_replace(sub, "x", 1, "t", err) == SP_ERR_IO && strstr(err, "not a regular file"));
    CHECK(sp_file_replace(missing, "x", 1, "t", err) == SP_ERR_IO && strstr(err, "none/b.txt"));
    unlink(b);
    CHECK(sp_file_replace(b, "new", 3, "t", err) == SP_OK && holds(b, "new"));
    CHECK(stat(b, &st) == 0 && (st.st_mode & 0777) == 0644);
    unlink(b);
    umask(old);
    CHECKF(entries(dir) == 2, "%d entries: a temporary file was left behind", entries(dir)); /* link, sub */
    /* the names of those temporary files, for sweeps after a crash */
    static const char *const tmp_names[] = {"a.json.tmp-123-0", "x.tmp-1-99", "j1.ab.job.tmp-4242-7"};
    static const char *const other_names[] = {"a.json", "a.json.tmp", "a.tmp-", "a.tmp-12", "a.tmp-12-",
                                              "a.tmp-x-1", "a.tmp-1-2x", ".tmp-1-2", "a.tmp-1-2.job"};
    for (size_t i = 0; i < sizeof tmp_names / sizeof tmp_names[0]; i++)
        CHECKF(sp_file_is_atomic_tmp(tmp_names[i]), "%s not seen as a temporary file", tmp_names[i]);
    for (size_t i = 0; i < sizeof other_names / sizeof other_names[0]; i++)
        CHECKF(!sp_file_is_atomic_tmp(other_names[i]), "%s taken for a temporary file", other_names[i]);
    unlink(link);
    rmdir(sub);
    rmdir(dir);
}

/* The regular-file opens: a file opens (stream and descriptor), a FIFO, a
 * folder and a missing path are refused at once, naming the path. */
static void test_open_regular(void)
{
    char dir[] = "/tmp/sp_test_util.XXXXXX", a[64], fifo[64], err[SP_ERR_LEN];
    if (!mkdtemp(dir)) {
        CHECK(!"mkdtemp");
        return;
    }
    snprintf(a, sizeof a, "%s/a.txt", dir);
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    CHECK(sp_file_write_atomic(a, "hello", 5, "t", err) == SP_OK && mkfifo(fifo, 0600) == 0);
    char buf[8] = "";
    FILE *f = sp_file_fopen_regular(a, "r", "t", err);
    CHECK(f && fread(buf, 1, sizeof buf, f) == 5 && !memcmp(buf, "hello", 5));
    if (f)
        fclose(f);
    int fd = -1;
    uint64_t size = 0;
    CHECK(sp_file_open_regular(&fd, &size, a, "t", err) == SP_OK && fd >= 0 && size == 5);
    if (fd >= 0)
        close(fd);
    const char *bad[] = {fifo, dir, "/nonexistent/sp_test_util"};
    for (size_t i = 0; i < 3; i++) {
        CHECKF(!sp_file_fopen_regular(bad[i], "r", "t", err) && strstr(err, bad[i]), "fopen %s", bad[i]);
        CHECKF(sp_file_open_regular(&fd, &size, bad[i], "t", err) == SP_ERR_IO && fd == -1 && strstr(err, bad[i]),
               "open %s", bad[i]);
    }
    CHECK(strstr(err, "cannot open") != NULL);
    unlink(fifo);
    unlink(a);
    rmdir(dir);
}

static int64_t ns_of(struct timespec t) { return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec; }

/* sp_clock_after lies between now + ms taken before and after the call,
 * on either clock, with tv_nsec normalized; ms <= 0 is now. */
static void test_clock_after(sp_rng *rng)
{
    static const clockid_t clocks[] = {CLOCK_REALTIME, CLOCK_MONOTONIC};
    long ms_list[] = {0, -5, 1, 999, 1000, 1001, 86400000L, (long)(sp_rng_u64(rng) % 100000000)};
    for (size_t c = 0; c < 2; c++)
        for (size_t i = 0; i < sizeof ms_list / sizeof ms_list[0]; i++) {
            long ms = ms_list[i];
            struct timespec a, b;
            clock_gettime(clocks[c], &a);
            struct timespec t = sp_clock_after(clocks[c], ms);
            clock_gettime(clocks[c], &b);
            int64_t add = ms > 0 ? (int64_t)ms * 1000000 : 0;
            CHECKF(t.tv_nsec >= 0 && t.tv_nsec < 1000000000 && ns_of(t) >= ns_of(a) + add &&
                       ns_of(t) <= ns_of(b) + add,
                   "clock %zu, %ld ms", c, ms);
        }
}

/* ---- the fork-join pool ---- */

static uint64_t mix(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x9e3779b97f4a7c15ULL;
    return x ^ (x >> 29);
}

/* Two phases split by a barrier: out[i] = mix(in[i]), then
 * out2[i] = out[n-1-i] + out[(i+1) % n] (entries other threads wrote). */
typedef struct {
    const uint64_t *in;
    uint64_t *out, *out2;
    size_t n;
    int seen_nt;      /* par->nthreads, as each worker saw it (the same for all) */
    atomic_int runs;  /* how many tids ran */
    atomic_int bad;   /* a tid out of range, or a disagreement on nthreads */
} two_phase;

static void two_phase_fn(sp_par *par, int tid, void *vctx)
{
    two_phase *c = vctx;
    size_t lo, hi;
    atomic_fetch_add(&c->runs, 1);
    if (tid < 0 || tid >= par->nthreads || par->nthreads != c->seen_nt)
        atomic_fetch_add(&c->bad, 1);
    sp_par_range(&lo, &hi, c->n, tid, par->nthreads);
    for (size_t i = lo; i < hi; i++)
        c->out[i] = mix(c->in[i]);
    sp_par_sync(par);
    for (size_t i = lo; i < hi; i++)
        c->out2[i] = c->out[c->n - 1 - i] + c->out[(i + 1) % c->n];
}

/* One sp_par_run of nt threads over n entries, against the serial answer.
 * Returns 0 when right. */
static int run_two_phase(sp_rng *rng, int nt, size_t n)
{
    uint64_t *in = malloc((n + 1) * sizeof *in), *out = calloc(n + 1, sizeof *out),
             *out2 = calloc(n + 1, sizeof *out2);
    int bad = 1;
    if (in && out && out2) {
        for (size_t i = 0; i < n; i++)
            in[i] = sp_rng_u64(rng);
        int expect = nt < 1 ? 1 : nt; /* fewer than one means one */
        two_phase c = {.in = in, .out = out, .out2 = out2, .n = n, .seen_nt = expect};
        atomic_init(&c.runs, 0);
        atomic_init(&c.bad, 0);
        sp_par_run(nt, two_phase_fn, &c);
        bad = atomic_load(&c.bad) != 0 || atomic_load(&c.runs) != expect;
        for (size_t i = 0; i < n && !bad; i++)
            bad = out2[i] != mix(in[n - 1 - i]) + mix(in[(i + 1) % n]);
    }
    free(in);
    free(out);
    free(out2);
    return bad;
}

typedef struct {
    atomic_uint *hits; /* per task: how often it ran */
    uint64_t *val;     /* per task: its answer */
    int threads;
    atomic_int bad_tid;
} tasks_ctx;

static void task_fn(void *vctx, int tid, size_t task)
{
    tasks_ctx *c = vctx;
    if (tid < 0 || tid >= c->threads)
        atomic_fetch_add(&c->bad_tid, 1);
    atomic_fetch_add(&c->hits[task], 1);
    uint64_t x = task;
    for (size_t k = 0; k < task % 97; k++) /* uneven tasks */
        x = mix(x);
    c->val[task] = x;
}

/* One sp_par_tasks; returns 0 when every task ran once with the right answer. */
static int run_tasks(int threads, size_t ntasks)
{
    tasks_ctx c = {.hits = calloc(ntasks + 1, sizeof *c.hits), .val = calloc(ntasks + 1, sizeof *c.val),
                   .threads = threads < 1 ? 1 : threads}; /* fewer than one means one */
    atomic_init(&c.bad_tid, 0);
    int bad = !c.hits || !c.val;
    if (!bad) {
        sp_par_tasks(threads, ntasks, task_fn, &c);
        bad = atomic_load(&c.bad_tid) != 0;
        for (size_t t = 0; t < ntasks && !bad; t++) {
            uint64_t x = t;
            for (size_t k = 0; k < t % 97; k++)
                x = mix(x);
            bad = atomic_load(&c.hits[t]) != 1 || c.val[t] != x;
        }
    }
    free(c.hits);
    free(c.val);
    return bad;
}

/* Many barriers in a row: phase k+1 reads what other threads wrote in
 * phase k (row k+1, entry i = row k, entry i+1 mod n, times 3, plus k). */
typedef struct {
    uint64_t *rows; /* phases + 1 rows of n */
    size_t n;
    int phases;
} phases_ctx;

static void phases_fn(sp_par *par, int tid, void *vctx)
{
    phases_ctx *c = vctx;
    size_t lo, hi;
    sp_par_range(&lo, &hi, c->n, tid, par->nthreads);
    for (int k = 0; k < c->phases; k++) {
        const uint64_t *r = c->rows + (size_t)k * c->n;
        uint64_t *o = c->rows + (size_t)(k + 1) * c->n;
        for (size_t i = lo; i < hi; i++)
            o[i] = r[(i + 1) % c->n] * 3 + (uint64_t)k;
        sp_par_sync(par);
    }
}

static int run_phases(sp_rng *rng, int nt, size_t n, int phases)
{
    phases_ctx c = {.rows = malloc((size_t)(phases + 1) * n * sizeof(uint64_t)), .n = n, .phases = phases};
    uint64_t *ref = malloc(2 * n * sizeof *ref);
    int bad = !c.rows || !ref;
    if (!bad) {
        for (size_t i = 0; i < n; i++)
            c.rows[i] = ref[i] = sp_rng_u64(rng);
        sp_par_run(nt, phases_fn, &c);
        for (int k = 0; k < phases; k++) { /* serially, two rows */
            uint64_t *r = ref + (size_t)(k & 1) * n, *o = ref + (size_t)((k + 1) & 1) * n;
            for (size_t i = 0; i < n; i++)
                o[i] = r[(i + 1) % n] * 3 + (uint64_t)k;
        }
        bad = memcmp(ref + (size_t)(phases & 1) * n, c.rows + (size_t)phases * n, n * sizeof *ref) != 0;
    }
    free(c.rows);
    free(ref);
    return bad;
}

static void test_par_random(sp_rng *rng)
{
    for (int round = 0; round < 40; round++) {
        int nt = 1 + (int)(sp_rng_u64(rng) % 6), phases = 1 + (int)(sp_rng_u64(rng) % 60);
        size_t n = 1 + (size_t)(sp_rng_u64(rng) % 500);
        CHECKF(run_phases(rng, nt, n, phases) == 0, "%d barriers: %d threads, %zu entries", phases, nt, n);
    }
    for (int round = 0; round < 300; round++) {
        int nt = 1 + (int)(sp_rng_u64(rng) % 8);
        size_t n = 1 + (size_t)(sp_rng_u64(rng) % (round % 10 == 0 ? 100000 : 3000));
        CHECKF(run_two_phase(rng, nt, n) == 0, "sp_par_run: %d threads, %zu entries", nt, n);
        int threads = 1 + (int)(sp_rng_u64(rng) % 8);
        size_t ntasks = (size_t)(sp_rng_u64(rng) % 2000);
        CHECKF(run_tasks(threads, ntasks) == 0, "sp_par_tasks: %d threads, %zu tasks", threads, ntasks);
    }
    CHECK(run_two_phase(rng, 0, 10) == 0 && run_two_phase(rng, -3, 10) == 0);
    CHECK(run_tasks(0, 5) == 0 && run_tasks(3, 0) == 0);
}

/* Calls nested in tasks: each task runs an sp_par_run of its own. */
typedef struct {
    uint64_t seed;
    atomic_int bad;
} nest_ctx;

static void nest_task(void *vctx, int tid, size_t task)
{
    nest_ctx *c = vctx;
    sp_rng r;
    sp_rng_seed(&r, c->seed + task);
    if (run_two_phase(&r, 1 + (int)(task % 4), 1 + (size_t)(sp_rng_u64(&r) % 5000)) != 0)
        atomic_fetch_add(&c->bad, 1);
}

/* Calls from several threads at once. */
static void *concurrent_main(void *p)
{
    nest_ctx *c = p;
    sp_rng r;
    sp_rng_seed(&r, c->seed);
    for (int i = 0; i < 40; i++)
        if (run_two_phase(&r, 1 + (int)(sp_rng_u64(&r) % 4), 1 + (size_t)(sp_rng_u64(&r) % 4000)) != 0 ||
            run_tasks(1 + (int)(sp_rng_u64(&r) % 4), (size_t)(sp_rng_u64(&r) % 500)) != 0)
            atomic_fetch_add(&c->bad, 1);
    return NULL;
}

static void test_par_nested_concurrent(sp_rng *rng)
{
    nest_ctx n = {.seed = sp_rng_u64(rng)};
    atomic_init(&n.bad, 0);
    sp_par_tasks(3, 24, nest_task, &n);
    CHECKF(atomic_load(&n.bad) == 0, "sp_par_run nested in sp_par_tasks");

    enum { T = 4 };
    nest_ctx cs[T];
    pthread_t th[T];
    int started[T];
    for (int i = 0; i < T; i++) {
        cs[i].seed = sp_rng_u64(rng);
        atomic_init(&cs[i].bad, 0);
        started[i] = pthread_create(&th[i], NULL, concurrent_main, &cs[i]) == 0;
    }
    for (int i = 0; i < T; i++) {
        if (started[i])
            pthread_join(th[i], NULL);
        else
            concurrent_main(&cs[i]);
        CHECKF(atomic_load(&cs[i].bad) == 0, "calls from thread %d of %d at once", i, T);
    }
}

/* A child forked after the pool has workers gets none of them: its calls
 * must start their own and finish. */
static void test_par_fork(sp_rng *rng)
{
    CHECK(run_two_phase(rng, 4, 1000) == 0); /* the pool has idle workers now */
    uint64_t seed = sp_rng_u64(rng);
    pid_t kid = fork();
    if (kid == 0) {
        sp_rng r;
        sp_rng_seed(&r, seed);
        int bad = run_two_phase(&r, 4, 5000) | run_tasks(3, 100) | run_two_phase(&r, 2, 10);
        _exit(bad ? 1 : 0);
    }
    int status = 0;
    CHECK(kid > 0 && waitpid(kid, &status, 0) == kid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECK(run_two_phase(rng, 3, 777) == 0); /* and the parent's pool still works */
}

static void test_hugemem(sp_rng *rng)
{
    size_t sizes[40] = {0, 1, 63, SP_HUGE_MIN - 1, SP_HUGE_MIN, SP_HUGE_MIN + 1, (size_t)2 << 20, ((size_t)2 << 20) + 1};
    for (int i = 8; i < 40; i++)
        sizes[i] = (size_t)(sp_rng_u64(rng) % ((size_t)9 << 20)) >> (sp_rng_u64(rng) % 12);
    for (int i = 0; i < 40; i++) {
        size_t n = sizes[i];
        uint8_t *p = sp_huge_alloc(n);
        CHECKF(p != NULL, "%zu bytes", n);
        if (!p)
            continue;
        int zero = 1;
        for (size_t k = 0; k < n; k++)
            zero &= p[k] == 0;
        CHECKF(zero, "%zu bytes: not zeroed", n);
        CHECKF((uintptr_t)p % 64 == 0 && (n < SP_HUGE_MIN || (uintptr_t)p % ((size_t)2 << 20) == 0),
               "%zu bytes at %p", n, (void *)p);
        memset(p, 0xA5, n); /* every byte is ours */
        sp_huge_free(p);
    }
    sp_huge_free(NULL);
}

int main(void)
{
    _Static_assert(sizeof(size_t) == 8, "the known answers assume a 64-bit size_t");
    sp_rng rng;
    sp_test_begin("test_util", &rng);
    test_bytes_good();
    test_bytes_bad();
    test_sha256(&rng);
    test_crc32c(&rng);
    test_write_atomic();
    test_open_regular();
    test_clock_after(&rng);
    test_par_random(&rng);
    test_par_nested_concurrent(&rng);
    test_par_fork(&rng);
    test_hugemem(&rng);
    return sp_test_done();
}
