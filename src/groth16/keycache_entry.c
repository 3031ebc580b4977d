/* Key cache entries and the cache directory (keycache_entry.h), listing and clearing. */
#include "groth16/keycache_entry.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/vfs.h>
#include <unistd.h>
#include "r1cs/binfile.h"
#include "util/progress.h"
#include "util/rng.h"
#include "util/crc32c.h"
#include "util/par.h"
#include "util/sha256.h"

static const char MAGIC[8] = {'S', 'P', 'K', 'C', 'A', 'C', 'H', 'E'};
static const char SUFFIX[] = ".spkc";
static const char REF_SUFFIX[] = ".spref";

/* Bump when the in-memory layout of points, field elements or the CSR
 * matrices changes in a way the sizes below do not show. */
#define KC_REPRESENTATION 1

/* Read and write in pieces of this many bytes (hashed while in cache). */
#define KC_CHUNK ((size_t)8 << 20)

/* ---- little-endian header fields ---- */

static uint64_t get64(const uint8_t *p) { return (uint64_t)sp_bin_le32(p) | (uint64_t)sp_bin_le32(p + 4) << 32; }

static void head_pack(uint8_t raw[KC_HEAD], const kc_head *h)
{
    memset(raw, 0, KC_HEAD);
    memcpy(raw, MAGIC, 8);
    sp_bin_put_u32(raw + 8, KC_FORMAT);
    sp_bin_put_u32(raw + 12, KC_HEAD);
    memcpy(raw + 16, h->curve, 16);
    memcpy(raw + 32, h->build, 32);
    sp_bin_put_u32(raw + 64, h->kind);
    sp_bin_put_u32(raw + 68, h->level);
    sp_bin_put_u64(raw + 72, h->src_size);
    memcpy(raw + 80, h->src_sha, 32);
    memcpy(raw + 112, h->density, 32);
    sp_bin_put_u64(raw + 144, (uint64_t)h->created);
    sp_bin_put_u64(raw + 152, h->payload);
    sp_bin_put_u32(raw + 160, h->n_vars);
    sp_bin_put_u32(raw + 164, h->n_public);
    sp_bin_put_u32(raw + 168, h->domain);
    sp_bin_put_u32(raw + 172, h->h_kind);
    sp_bin_put_u64(raw + 176, h->n_h);
    sp_bin_put_u32(raw + 184, h->has_qap);
    sp_bin_put_u64(raw + 192, h->nnz_a);
    sp_bin_put_u64(raw + 200, h->nnz_b);
    sp_bin_put_u64(raw + 208, h->mpc_len);
    memcpy(raw + 224, h->path, KC_PATH_ROOM);
    raw[224 + KC_PATH_ROOM - 1] = 0;
}

/* ---- the stamp ---- */

enum { STAMP_CRC_AT = KC_STAMP_BYTES - 4 };

static uint32_t stamp_crc(const uint8_t st[KC_STAMP_BYTES], const uint8_t src_sha[32])
{
    return sp_crc32c(sp_crc32c(0, st, STAMP_CRC_AT), src_sha, 32);
}

void kc_stamp_pack(uint8_t out[KC_STAMP_BYTES], const kc_stamp *s, const uint8_t src_sha[32])
{
    memset(out, 0, KC_STAMP_BYTES);
    sp_bin_put_u64(out, s->dev);
    sp_bin_put_u64(out + 8, s->ino);
    sp_bin_put_u64(out + 16, s->size);
    sp_bin_put_u64(out + 24, (uint64_t)s->mtime_ns);
    sp_bin_put_u64(out + 32, (uint64_t)s->ctime_ns);
    sp_bin_put_u64(out + 40, (uint64_t)s->hashed_ns);
    sp_bin_put_u32(out + 48, 1);
    sp_bin_put_u32(out + STAMP_CRC_AT, stamp_crc(out, src_sha));
}

/* File systems whose ctime the kernel sets on every change and nobody can
 * set back: local ones with fine timestamps. Others (network and FUSE file
 * systems, FAT, ...) are always hashed. */
int kc_keeps_ctime(int fd)
{
    static const unsigned long ok[] = {
        0xEF53,     /* ext2, ext3, ext4 */
        0x58465342, /* xfs */
        0x9123683E, /* btrfs */
        0x01021994, /* tmpfs */
        0xF2F52010, /* f2fs */
        0x2FC12FC1, /* zfs */
        0xCA451A4E, /* bcachefs */
        0x794C7630, /* overlayfs (ctime of the layer's inode; a copy-up is a change) */
    };
    struct statfs f;
    if (fstatfs(fd, &f) != 0)
        return 0;
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        if ((unsigned long)f.f_type == ok[i])
            return 1;
    return 0;
}

int kc_stamp_get(kc_stamp *s, const uint8_t p[KC_STAMP_BYTES], const uint8_t src_sha[32])
{
    if (sp_bin_le32(p + 48) != 1 || sp_bin_le32(p + STAMP_CRC_AT) != stamp_crc(p, src_sha))
        return -1;
    s->dev = get64(p);
    s->ino = get64(p + 8);
    s->size = get64(p + 16);
    s->mtime_ns = (int64_t)get64(p + 24);
    s->ctime_ns = (int64_t)get64(p + 32);
    s->hashed_ns = (int64_t)get64(p + 40);
    return 0;
}

/* Returns 0 when raw starts like an entry of any build (magic, format, header size). */
static int head_unpack(kc_head *h, const uint8_t raw[KC_HEAD])
{
    if (memcmp(raw, MAGIC, 8) || sp_bin_le32(raw + 8) != KC_FORMAT || sp_bin_le32(raw + 12) != KC_HEAD)
        return -1;
    memcpy(h->curve, raw + 16, 16);
    h->curve[15] = 0;
    memcpy(h->build, raw + 32, 32);
    h->kind = sp_bin_le32(raw + 64);
    h->level = sp_bin_le32(raw + 68);
    h->src_size = get64(raw + 72);
    memcpy(h->src_sha, raw + 80, 32);
    memcpy(h->density, raw + 112, 32);
    h->created = (int64_t)get64(raw + 144);
    h->payload = get64(raw + 152);
    h->n_vars = sp_bin_le32(raw + 160);
    h->n_public = sp_bin_le32(raw + 164);
    h->domain = sp_bin_le32(raw + 168);
    h->h_kind = sp_bin_le32(raw + 172);
    h->n_h = get64(raw + 176);
    h->has_qap = sp_bin_le32(raw + 184);
    h->nnz_a = get64(raw + 192);
    h->nnz_b = get64(raw + 200);
    h->mpc_len = get64(raw + 208);
    memcpy(h->path, raw + 224, KC_PATH_ROOM);
    h->path[KC_PATH_ROOM - 1] = 0;
    return 0;
}

/* ---- what binds an entry ---- */

void kc_build_fingerprint(uint8_t out[32])
{
    static const char tag[] = "snarkpipe key cache representation";
    uint64_t facts[] = {KC_REPRESENTATION, SP_FP_LIMBS, SP_FR_LIMBS, sizeof(sp_fp), sizeof(sp_fr), sizeof(sp_fp2),
                        sizeof(sp_g1_affine), sizeof(sp_g2_affine), sizeof(((sp_csr *)0)->row[0]),
                        sizeof(((sp_csr *)0)->col[0]), 0x0102030405060708ULL /* byte order */};
    sp_fp one_p;
    sp_fr one_r;
    sp_fp_set_one(&one_p);
    sp_fr_set_one(&one_r);
    sp_sha256_ctx c;
    sp_sha256_init(&c);
    sp_sha256_update(&c, tag, sizeof tag);
    sp_sha256_update(&c, KC_CURVE, sizeof KC_CURVE);
    sp_sha256_update(&c, facts, sizeof facts);
    sp_sha256_update(&c, SP_FP_MODULUS, SP_FP_LIMBS * sizeof(uint64_t));
    sp_sha256_update(&c, SP_FR_MODULUS, SP_FR_LIMBS * sizeof(uint64_t));
    sp_sha256_update(&c, one_p.l, sizeof one_p.l); /* the Montgomery radix */
    sp_sha256_update(&c, one_r.l, sizeof one_r.l);
    sp_sha256_final(out, &c);
}

void kc_density_digest(uint8_t out[32], const sp_g16_density *d)
{
    memset(out, 0, 32);
    if (!d)
        return;
    size_t words = ((size_t)d->n_vars + 63) / 64;
    uint32_t n[2] = {d->n_vars, d->n_public};
    sp_sha256_ctx c;
    sp_sha256_init(&c);
    sp_sha256_update(&c, n, sizeof n);
    sp_sha256_update(&c, d->a, words * sizeof *d->a);
    sp_sha256_update(&c, d->b, words * sizeof *d->b);
    sp_sha256_final(out, &c);
}

/* 40 hex digits of the SHA-256 of what binds a file, then "-<curve><suffix>". */
static void name_of(char out[KC_NAME_MAX], const char *tag, const uint8_t build[32], sp_kc_kind kind,
                    const uint8_t density[32], const void *what, size_t what_len, const char *suffix)
{
    uint8_t d[32], k[4];
    sp_bin_put_u32(k, (uint32_t)kind);
    sp_sha256_ctx c;
    sp_sha256_init(&c);
    sp_sha256_update(&c, tag, strlen(tag) + 1);
    sp_sha256_update(&c, build, 32);
    sp_sha256_update(&c, k, 4);
    sp_sha256_update(&c, density, 32);
    sp_sha256_update(&c, what, what_len);
    sp_sha256_final(d, &c);
    for (int i = 0; i < 20; i++)
        snprintf(out + 2 * i, 3, "%02x", d[i]);
    snprintf(out + 40, KC_NAME_MAX - 40, "-%s%s", KC_CURVE, suffix);
}

void kc_entry_name(char out[KC_NAME_MAX], const uint8_t build[32], sp_kc_kind kind, const uint8_t density[32],
                   const uint8_t src_sha[32])
{
    name_of(out, "snarkpipe key cache entry of a content", build, kind, density, src_sha, 32, SUFFIX);
}

void kc_ref_name(char out[KC_NAME_MAX], const uint8_t build[32], sp_kc_kind kind, const uint8_t density[32],
                 const char *canon)
{
    name_of(out, "snarkpipe key cache reference of a path", build, kind, density, canon, strlen(canon), REF_SUFFIX);
}

/* 40 hex digits, '-', then anything ending in suffix. */
static int is_name(const char *n, const char *suffix)
{
    size_t len = strlen(n), sl = strlen(suffix);
    if (len < 41 + sl || n[40] != '-' || strcmp(n + len - sl, suffix))
        return 0;
    return strspn(n, "0123456789abcdef") == 40;
}

int kc_is_entry_name(const char *n) { return is_name(n, SUFFIX); }
int kc_is_ref_name(const char *n) { return is_name(n, REF_SUFFIX); }

/* "." + an entry's or a reference's name + ".tmp-" + anything: a temporary file of a write. */
static int is_temp_name(const char *n)
{
    const char *m = n[0] == '.' ? strstr(n, ".tmp-") : NULL;
    if (!m)
        return 0;
    char e[KC_NAME_MAX];
    size_t k = (size_t)(m - (n + 1));
    if (k >= sizeof e)
        return 0;
    memcpy(e, n + 1, k);
    e[k] = 0;
    return kc_is_entry_name(e) || kc_is_ref_name(e);
}

/* ---- payload ---- */

typedef struct {
    void *p;
    uint64_t n;
} seg;

#define MAX_SEGS 20

/* The payload's pieces in order, pointing into pk (whose arrays must be
 * allocated for the header's counts). */
static size_t segments(seg *s, sp_g16_pk *pk)
{
    const uint64_t g1 = sizeof(sp_g1_affine), g2 = sizeof(sp_g2_affine);
    uint64_t nv = pk->n_vars, np = pk->vk.n_public;
    size_t k = 0;
    s[k++] = (seg){&pk->vk.alpha1, g1};
    s[k++] = (seg){&pk->vk.beta1, g1};
    s[k++] = (seg){&pk->vk.delta1, g1};
    s[k++] = (seg){&pk->vk.beta2, g2};
    s[k++] = (seg){&pk->vk.gamma2, g2};
    s[k++] = (seg){&pk->vk.delta2, g2};
    s[k++] = (seg){pk->vk.ic, (np + 1) * g1};
    s[k++] = (seg){pk->a, nv * g1};
    s[k++] = (seg){pk->b1, nv * g1};
    s[k++] = (seg){pk->b2, nv * g2};
    s[k++] = (seg){pk->c, (nv - np - 1) * g1};
    s[k++] = (seg){pk->h, (uint64_t)pk->n_h * g1};
    if (pk->has_qap) {
        sp_csr *m[2] = {&pk->qap_a, &pk->qap_b};
        for (int i = 0; i < 2; i++) {
            s[k++] = (seg){m[i]->row, ((uint64_t)m[i]->n_rows + 1) * sizeof *m[i]->row};
            s[k++] = (seg){m[i]->col, m[i]->nnz * sizeof *m[i]->col};
            s[k++] = (seg){m[i]->val, m[i]->nnz * sizeof *m[i]->val};
        }
    }
    if (pk->mpc_len)
        s[k++] = (seg){pk->mpc, pk->mpc_len};
    return k;
}

/* The payload size the header's counts imply; 0 when they are out of range. */
static uint64_t payload_of(const kc_head *h)
{
    const uint64_t g1 = sizeof(sp_g1_affine), g2 = sizeof(sp_g2_affine), lim = (uint64_t)1 << 40;
    if (h->n_vars == 0 || h->n_public >= h->n_vars || h->n_h > h->domain || h->nnz_a > lim || h->nnz_b > lim ||
        h->mpc_len > lim)
        return 0;
    uint64_t nv = h->n_vars, np = h->n_public;
    uint64_t n = 3 * g1 + 3 * g2 + (np + 1) * g1 + nv * (2 * g1 + g2) + (nv - np - 1) * g1 + h->n_h * g1;
    if (h->has_qap)
        n += 2 * ((uint64_t)h->domain + 1) * sizeof(uint64_t) +
             (h->nnz_a + h->nnz_b) * (sizeof(uint32_t) + sizeof(sp_fr));
    return n + h->mpc_len;
}

void kc_head_of(kc_head *h, const sp_g16_pk *pk)
{
    memset(h, 0, sizeof *h);
    memcpy(h->curve, KC_CURVE, sizeof KC_CURVE);
    kc_build_fingerprint(h->build);
    h->n_vars = pk->n_vars;
    h->n_public = pk->vk.n_public;
    h->domain = pk->domain_size;
    h->h_kind = (uint32_t)pk->h_kind;
    h->n_h = pk->n_h;
    h->has_qap = pk->has_qap ? 1 : 0;
    h->nnz_a = pk->has_qap ? pk->qap_a.nnz : 0;
    h->nnz_b = pk->has_qap ? pk->qap_b.nnz : 0;
    h->mpc_len = pk->mpc ? pk->mpc_len : 0;
    h->payload = payload_of(h);
}

/* ---- the directory ---- */

/* mkdir -p with mode 0700 for what it creates. */
static int mkdirs(const char *dir)
{
    char p[SP_KC_PATH];
    size_t n = strlen(dir);
    if (n == 0 || n >= sizeof p) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(p, dir, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (p[i] != '/' && p[i] != 0)
            continue;
        char keep = p[i];
        p[i] = 0;
        if (mkdir(p, 0700) != 0 && errno != EEXIST)
            return -1;
        p[i] = keep;
    }
    return 0;
}

int kc_dir_open(const char *dir, char warn[SP_ERR_LEN])
{
    struct stat st;
    int fd = -1;
    if (mkdirs(dir) != 0 || (fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0 || fstat(fd, &st) != 0) {
        snprintf(warn, SP_ERR_LEN, "key cache: cannot use %.150s: %s", dir, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    if (st.st_uid != geteuid() || (st.st_mode & 022)) {
        snprintf(warn, SP_ERR_LEN, "key cache: %.120s is not private to this user (owner %u, mode %03o); not used",
                 dir, (unsigned)st.st_uid, (unsigned)(st.st_mode & 0777));
        close(fd);
        return -1;
    }
    return fd;
}

/* ---- reading ---- */

/* Checks what an entry's header must say for this build, against the
 * entry file's size. Returns 0 or -1 with why. */
static int head_check(const kc_head *h, uint64_t file_size, char why[SP_ERR_LEN])
{
    uint8_t build[32];
    unsigned lg;
    kc_build_fingerprint(build);
    if (strcmp(h->curve, KC_CURVE) || memcmp(h->build, build, 32)) {
        snprintf(why, SP_ERR_LEN, "made by another build (curve %s)", h->curve);
        return -1;
    }
    int zkey = h->kind == SP_KC_ZKEY;
    if ((!zkey && h->kind != SP_KC_PARAMS) || (h->level != KC_LEVEL_CURVE && h->level != KC_LEVEL_SUBGROUP) ||
        !sp_g16_domain_log2(&lg, h->domain) || h->h_kind != (zkey ? SP_G16_H_SNARKJS : SP_G16_H_BELLPERSON) ||
        h->n_h != (zkey ? h->domain : (uint64_t)h->domain - 1) || h->has_qap > 1 || (!zkey && h->has_qap)) {
        snprintf(why, SP_ERR_LEN, "header fields out of range");
        return -1;
    }
    uint64_t want = payload_of(h);
    if (want == 0 || h->payload != want || file_size != KC_HEAD + want + KC_TRAILER) {
        snprintf(why, SP_ERR_LEN, "%" PRIu64 " bytes where its header implies %" PRIu64, file_size,
                 KC_HEAD + want + KC_TRAILER);
        return -1;
    }
    return 0;
}

int kc_entry_open(kc_head *h, uint8_t raw[KC_HEAD], struct stat *stp, kc_verdict *v, int dirfd, const char *name)
{
    struct stat st;
    memset(stp, 0, sizeof *stp);
    v->outcome = SP_KC_DAMAGED;
    v->why[0] = 0;
    int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        if (errno == ENOENT)
            v->outcome = SP_KC_MISS;
        else
            snprintf(v->why, SP_ERR_LEN, "cannot open: %s", strerror(errno));
        return -1;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 022)) {
        snprintf(v->why, SP_ERR_LEN, "not a regular file private to this user");
    } else if (pread(fd, raw, KC_HEAD, 0) != KC_HEAD || head_unpack(h, raw) != 0) {
        snprintf(v->why, SP_ERR_LEN, "not an entry of this format");
    } else if (head_check(h, (uint64_t)st.st_size, v->why) == 0) {
        v->outcome = SP_KC_HIT;
        *stp = st;
        posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
        return fd;
    }
    close(fd);
    return -1;
}

/* The QAP matrices index the witness: rows must be ordered offsets ending
 * at nnz, columns wires of the key. */
static int csr_ok(const sp_csr *m, uint32_t n_vars)
{
    if (m->row[0] != 0 || m->row[m->n_rows] != m->nnz)
        return 0;
    for (size_t r = 0; r < m->n_rows; r++)
        if (m->row[r] > m->row[r + 1])
            return 0;
    for (uint64_t k = 0; k < m->nnz; k++)
        if (m->col[k] >= n_vars)
            return 0;
    return 1;
}

static sp_status alloc_like(sp_g16_pk *pk, const kc_head *h)
{
    sp_status st = sp_g16_pk_alloc(pk, h->n_vars, h->n_public, h->domain, (sp_g16_h_kind)h->h_kind);
    if (st == SP_OK && h->has_qap)
        st = sp_g16_pk_alloc_qap(pk, h->nnz_a, h->nnz_b);
    if (st == SP_OK && h->mpc_len) {
        if ((pk->mpc = malloc((size_t)h->mpc_len)) != NULL)
            pk->mpc_len = (size_t)h->mpc_len;
        else
            st = SP_ERR_NOMEM;
    }
    if (st != SP_OK)
        sp_g16_pk_free(pk);
    return st == SP_OK ? SP_OK : SP_ERR_NOMEM; /* the header was checked: only memory can fail */
}

static int pread_full(int fd, void *p, size_t n, uint64_t at)
{
    uint8_t *b = p;
    while (n) {
        ssize_t k = pread(fd, b, n, (off_t)at);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        b += k;
        at += (uint64_t)k;
        n -= (size_t)k;
    }
    return 0;
}

/* The payload read in parts, one a thread: part t is the payload's bytes
 * sp_par_range gives for it, read into the key's arrays and checksummed
 * on its own (joined with sp_crc32c_combine). */
#define MAX_PARTS 4
typedef struct {
    int fd;
    const seg *s;
    size_t ns;
    uint64_t total;
    int parts;
    uint32_t crc[MAX_PARTS];
    int bad[MAX_PARTS];
} read_job;

static void read_part(sp_par *par, int tid, void *vctx)
{
    read_job *j = vctx;
    for (int t = tid; t < j->parts; t += par->nthreads) {
        size_t lo, hi;
        sp_par_range(&lo, &hi, j->total, t, j->parts);
        uint64_t start = 0; /* of segment i in the payload */
        uint32_t crc = 0;
        int bad = 0;
        for (size_t i = 0; i < j->ns && !bad && start < hi; start += j->s[i++].n) {
            uint64_t a = lo > start ? lo : start, b = hi < start + j->s[i].n ? hi : start + j->s[i].n;
            for (; a < b && !bad; a += KC_CHUNK) {
                size_t k = b - a < KC_CHUNK ? (size_t)(b - a) : KC_CHUNK;
                uint8_t *p = (uint8_t *)j->s[i].p + (a - start);
                bad = pread_full(j->fd, p, k, KC_HEAD + a) != 0;
                crc = sp_crc32c(crc, p, k);
                sp_progress_add(k);
            }
        }
        j->crc[t] = crc;
        j->bad[t] = bad;
    }
}

sp_status kc_entry_read(sp_g16_pk *pk, int fd, const kc_head *h, const uint8_t raw[KC_HEAD], int threads,
                        char why[SP_ERR_LEN])
{
    seg s[MAX_SEGS];
    uint8_t want[KC_TRAILER];
    if (alloc_like(pk, h) != SP_OK) {
        snprintf(why, SP_ERR_LEN, "out of memory for the key");
        return SP_ERR_NOMEM;
    }
    read_job j = {.fd = fd, .s = s, .ns = segments(s, pk), .total = h->payload};
    j.parts = threads < 1 ? 1 : threads > MAX_PARTS ? MAX_PARTS : threads;
    sp_par_run(j.parts, read_part, &j);
    uint32_t crc = sp_crc32c(0, raw, KC_STAMP_AT); /* the stamp has its own */
    int bad = 0;
    for (int t = 0; t < j.parts; t++) {
        size_t lo, hi; /* part t's bounds, as read_part took them */
        sp_par_range(&lo, &hi, j.total, t, j.parts);
        crc = sp_crc32c_combine(crc, j.crc[t], hi - lo);
        bad |= j.bad[t];
    }
    if (bad || pread_full(fd, want, sizeof want, KC_HEAD + j.total) != 0)
        snprintf(why, SP_ERR_LEN, "cannot be read whole");
    else if (sp_bin_le32(want) != crc)
        snprintf(why, SP_ERR_LEN, "its checksum does not match its content");
    else if (pk->has_qap && (!csr_ok(&pk->qap_a, pk->n_vars) || !csr_ok(&pk->qap_b, pk->n_vars)))
        snprintf(why, SP_ERR_LEN, "its QAP matrices are malformed");
    else
        return SP_OK;
    sp_g16_pk_free(pk);
    return SP_ERR_FORMAT;
}

/* ---- writing ---- */

static int write_full(int fd, const void *p, size_t n)
{
    const uint8_t *b = p;
    while (n) {
        ssize_t k = write(fd, b, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            if (k == 0)
                errno = ENOSPC;
            return -1;
        }
        b += k;
        n -= (size_t)k;
    }
    return 0;
}

/* Opens the temporary file: unnamed where the file system can (nothing is
 * left if we die), else a fresh name. */
static int open_temp(kc_pending *p, int dirfd, const char *name)
{
    uint8_t r[8] = {0};
    p->named = 0;
    p->fd = openat(dirfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
    if (sp_os_random(r, sizeof r) != SP_OK) /* a name collision would only make this write fail */
        memcpy(r, &p->fd, sizeof p->fd);
    int n = snprintf(p->tmp, sizeof p->tmp, ".%s.tmp-%02x%02x%02x%02x%02x%02x%02x%02x", name, r[0], r[1], r[2],
                     r[3], r[4], r[5], r[6], r[7]);
    if (n < 0 || (size_t)n >= sizeof p->tmp) {
        errno = ENAMETOOLONG;
        return -1;
    }
    if (p->fd >= 0)
        return 0;
    p->fd = openat(dirfd, p->tmp, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0600);
    p->named = p->fd >= 0;
    return p->fd >= 0 ? 0 : -1;
}

/* Refuses to fill the file system: the entry must leave 64 MiB or 1% free. */
static int room_for(int dirfd, uint64_t bytes, char why[SP_ERR_LEN])
{
    struct statvfs v;
    if (fstatvfs(dirfd, &v) != 0)
        return 1; /* unknown: let the writes say */
    uint64_t avail = (uint64_t)v.f_bavail * v.f_frsize, total = (uint64_t)v.f_blocks * v.f_frsize;
    uint64_t keep = total / 100 > ((uint64_t)64 << 20) ? total / 100 : (uint64_t)64 << 20;
    if (avail >= bytes && avail - bytes >= keep)
        return 1;
    snprintf(why, SP_ERR_LEN, "the entry needs %" PRIu64 " MiB and %" PRIu64 " MiB are free", bytes >> 20,
             avail >> 20);
    return 0;
}

sp_status kc_entry_write(kc_pending *p, int dirfd, const char *name, const kc_head *h, const sp_g16_pk *pk,
                         char why[SP_ERR_LEN])
{
    seg s[MAX_SEGS];
    uint8_t raw[KC_HEAD], trailer[KC_TRAILER];
    memset(p, 0, sizeof *p);
    p->fd = -1;
    if (!room_for(dirfd, KC_HEAD + h->payload + KC_TRAILER, why))
        return SP_ERR_IO;
    if (open_temp(p, dirfd, name) != 0) {
        snprintf(why, SP_ERR_LEN, "cannot write there: %s", strerror(errno));
        return SP_ERR_IO;
    }
    size_t ns = segments(s, (sp_g16_pk *)pk); /* only read from */
    head_pack(raw, h); /* with no stamp: keycache.c adds it once the entry is in place */
    uint32_t crc = sp_crc32c(0, raw, KC_STAMP_AT);
    int bad = write_full(p->fd, raw, KC_HEAD);
    for (size_t i = 0; i < ns && !bad; i++)
        for (uint64_t at = 0; at < s[i].n && !bad; at += KC_CHUNK) {
            size_t k = s[i].n - at < KC_CHUNK ? (size_t)(s[i].n - at) : KC_CHUNK;
            const uint8_t *b = (const uint8_t *)s[i].p + at;
            crc = sp_crc32c(crc, b, k);
            bad = write_full(p->fd, b, k);
            sp_progress_add(k);
        }
    sp_bin_put_u32(trailer, crc);
    if (!bad)
        bad = write_full(p->fd, trailer, sizeof trailer);
    if (bad) {
        snprintf(why, SP_ERR_LEN, "cannot write the entry: %s", strerror(errno));
        kc_entry_drop(p, dirfd);
        return SP_ERR_IO;
    }
    return SP_OK;
}

sp_status kc_entry_publish(kc_pending *p, int dirfd, const char *name, char why[SP_ERR_LEN])
{
    if (!p->named) {
        char proc[64];
        snprintf(proc, sizeof proc, "/proc/self/fd/%d", p->fd);
        if (linkat(AT_FDCWD, proc, dirfd, p->tmp, AT_SYMLINK_FOLLOW) != 0 &&
            linkat(p->fd, "", dirfd, p->tmp, AT_EMPTY_PATH) != 0) {
            snprintf(why, SP_ERR_LEN, "cannot name the entry: %s", strerror(errno));
            kc_entry_drop(p, dirfd);
            return SP_ERR_IO;
        }
        p->named = 1;
    }
    if (close(p->fd) != 0 || renameat(dirfd, p->tmp, dirfd, name) != 0) {
        snprintf(why, SP_ERR_LEN, "cannot put the entry in place: %s", strerror(errno));
        p->fd = -1;
        kc_entry_drop(p, dirfd);
        return SP_ERR_IO;
    }
    p->fd = -1;
    p->named = 0;
    return SP_OK;
}

void kc_entry_drop(kc_pending *p, int dirfd)
{
    if (p->fd >= 0)
        close(p->fd);
    if (p->named)
        unlinkat(dirfd, p->tmp, 0);
    p->fd = -1;
    p->named = 0;
}

/* ---- listing and clearing ---- */

static void describe_entry(sp_kc_file *f, int fd)
{
    uint8_t raw[KC_HEAD], build[32];
    kc_head h;
    if (pread(fd, raw, KC_HEAD, 0) != KC_HEAD || head_unpack(&h, raw) != 0)
        return;
    kc_build_fingerprint(build);
    f->readable = 1;
    f->this_build = !strcmp(h.curve, KC_CURVE) && !memcmp(h.build, build, 32);
    memcpy(f->build, h.build, 32);
    memcpy(f->curve, h.curve, sizeof f->curve);
    f->kind = (sp_kc_kind)h.kind;
    f->subgroup_checked = h.level == KC_LEVEL_SUBGROUP;
    f->source_size = h.src_size;
    memcpy(f->source_sha256, h.src_sha, 32);
    f->created = h.created;
    snprintf(f->source, sizeof f->source, "%s", h.path);
}

static void describe(sp_kc_file *f, int dirfd, const char *name, const struct stat *st)
{
    memset(f, 0, sizeof *f);
    snprintf(f->name, sizeof f->name, "%s", name);
    f->bytes = (uint64_t)st->st_size;
    f->used = (int64_t)st->st_mtim.tv_sec;
    f->used_nsec = st->st_mtim.tv_nsec;
    f->temp = is_temp_name(name);
    f->ref = !f->temp && kc_is_ref_name(name);
    if (f->ref) {
        kc_ref *r = malloc(sizeof *r);
        if (r && kc_ref_get(r, dirfd, name) == 0) {
            f->readable = 1;
            memcpy(f->source_sha256, r->src_sha, 32);
            snprintf(f->source, sizeof f->source, "%s", r->path);
            snprintf(f->target, sizeof f->target, "%s", r->entry);
        }
        free(r);
        return;
    }
    int fd = f->temp ? -1 : openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return;
    describe_entry(f, fd);
    close(fd);
}

/* Calls fn(ctx, directory fd, name, its stat) for each file of ours in dir
 * until it returns non-zero (negative: an error already in err). */
static sp_status walk(const char *dir, int (*fn)(void *, int, const char *, const struct stat *), void *ctx,
                      char err[SP_ERR_LEN])
{
    DIR *d = opendir(dir);
    if (!d) {
        if (errno == ENOENT)
            return SP_OK;
        snprintf(err, SP_ERR_LEN, "key cache: cannot read %.180s: %s", dir, strerror(errno));
        return SP_ERR_IO;
    }
    int dfd = dirfd(d), stop = 0;
    struct dirent *e;
    while (!stop && (e = readdir(d)) != NULL) {
        struct stat st;
        if ((!kc_is_entry_name(e->d_name) && !kc_is_ref_name(e->d_name) && !is_temp_name(e->d_name)) ||
            fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        stop = fn(ctx, dfd, e->d_name, &st);
    }
    closedir(d);
    return stop < 0 ? SP_ERR_IO : SP_OK;
}

typedef struct {
    sp_kc_list_fn fn;
    void *ctx;
} list_ctx;

static int list_one(void *vctx, int dfd, const char *name, const struct stat *st)
{
    list_ctx *l = vctx;
    sp_kc_file *f = malloc(sizeof *f);
    if (!f)
        return 0;
    describe(f, dfd, name, st);
    int stop = l->fn(l->ctx, f);
    free(f);
    return stop ? 1 : 0;
}

sp_status sp_kc_list(const char *dir, sp_kc_list_fn fn, void *ctx, char err[SP_ERR_LEN])
{
    list_ctx l = {fn, ctx};
    return walk(dir, list_one, &l, err);
}

typedef struct {
    size_t removed;
    uint64_t bytes;
    char *err;
} clear_ctx;

static int clear_one(void *vctx, int dfd, const char *name, const struct stat *st)
{
    clear_ctx *c = vctx;
    if (unlinkat(dfd, name, 0) != 0) {
        snprintf(c->err, SP_ERR_LEN, "key cache: cannot remove %.150s: %s", name, strerror(errno));
        return -1;
    }
    c->removed++;
    c->bytes += (uint64_t)st->st_size;
    return 0;
}

sp_status sp_kc_clear(const char *dir, size_t *removed, uint64_t *bytes, char err[SP_ERR_LEN])
{
    clear_ctx c = {0, 0, err};
    sp_status st = walk(dir, clear_one, &c, err);
    if (removed)
        *removed = c.removed;
    if (bytes)
        *bytes = c.bytes;
    return st;
}

void sp_kc_fingerprint(uint8_t out[32]) { kc_build_fingerprint(out); }

/* ---- references from key paths to contents ---- */

static const char REF_MAGIC[8] = {'S', 'P', 'K', 'C', 'R', 'E', 'F', '1'};

enum { REF_SHA = 8, REF_STAMP = 40, REF_ENTRY = 104, REF_LEN = 200, REF_PATH = 204 };

int kc_ref_get(kc_ref *r, int dirfd, const char *name)
{
    uint8_t b[REF_PATH + SP_KC_PATH + 4];
    int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return -1;
    struct stat st;
    ssize_t n = -1;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() && !(st.st_mode & 022))
        n = pread(fd, b, sizeof b, 0);
    close(fd);
    if (n < REF_PATH + 4 || memcmp(b, REF_MAGIC, 8))
        return -1;
    uint32_t len = sp_bin_le32(b + REF_LEN);
    if (len >= SP_KC_PATH || (size_t)n != REF_PATH + (size_t)len + 4 ||
        sp_bin_le32(b + REF_PATH + len) != sp_crc32c(0, b, REF_PATH + len) || b[REF_ENTRY + KC_NAME_MAX - 1])
        return -1;
    memset(r, 0, sizeof *r);
    memcpy(r->src_sha, b + REF_SHA, 32);
    r->stamped = kc_stamp_get(&r->stamp, b + REF_STAMP, r->src_sha) == 0;
    memcpy(r->entry, b + REF_ENTRY, KC_NAME_MAX);
    memcpy(r->path, b + REF_PATH, len);
    r->path[len] = 0;
    return 0;
}

int kc_ref_put(int dirfd, const char *name, const kc_ref *r)
{
    uint8_t b[REF_PATH + SP_KC_PATH + 4], rnd[8] = {0};
    char tmp[KC_NAME_MAX + 32];
    size_t len = strnlen(r->path, SP_KC_PATH - 1);
    memset(b, 0, REF_PATH);
    memcpy(b, REF_MAGIC, 8);
    memcpy(b + REF_SHA, r->src_sha, 32);
    if (r->stamped)
        kc_stamp_pack(b + REF_STAMP, &r->stamp, r->src_sha);
    snprintf((char *)b + REF_ENTRY, KC_NAME_MAX, "%s", r->entry);
    sp_bin_put_u32(b + REF_LEN, (uint32_t)len);
    memcpy(b + REF_PATH, r->path, len);
    sp_bin_put_u32(b + REF_PATH + len, sp_crc32c(0, b, REF_PATH + len));
    if (sp_os_random(rnd, sizeof rnd) != SP_OK) { /* a name collision would only make this write fail */
        pid_t pid = getpid();
        memcpy(rnd, &pid, sizeof pid);
    }
    int w = snprintf(tmp, sizeof tmp, ".%s.tmp-%02x%02x%02x%02x%02x%02x%02x%02x", name, rnd[0], rnd[1], rnd[2],
                     rnd[3], rnd[4], rnd[5], rnd[6], rnd[7]);
    if (w < 0 || (size_t)w >= sizeof tmp)
        return -1;
    int fd = openat(dirfd, tmp, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0)
        return -1;
    size_t total = REF_PATH + len + 4;
    int ok = write(fd, b, total) == (ssize_t)total;
    ok = close(fd) == 0 && ok;
    if (!ok || renameat(dirfd, tmp, dirfd, name) != 0) {
        unlinkat(dirfd, tmp, 0);
        return -1;
    }
    return 0;
}
