/* Recorded matrices of a native circuit (rec.h): building, the reference
 * a, b, c, conversion to sp_r1cs, and the .sprec file. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "circuit/native.h"
#include "circuit/rec.h"
#include "util/curves.h"
#include "util/file.h"
#include "util/par.h"
#include "util/sha256.h"

/* ---- building ---- */

sp_cs_rec *sp_cs_rec_new(void)
{
    sp_cs_rec *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->n_vars = 1;
    for (int m = 0; m < 3; m++)
        if (!(r->m[m].row = calloc(1, sizeof(uint64_t)))) {
            sp_cs_rec_free(r);
            return NULL;
        }
    r->row_cap = 1;
    return r;
}

void sp_cs_rec_free(sp_cs_rec *r)
{
    if (!r)
        return;
    for (int m = 0; m < 3; m++) {
        free(r->m[m].row);
        free(r->m[m].var);
        free(r->m[m].kid);
    }
    free(r->coef);
    free(r->hash);
    free(r);
}

static uint32_t fr_hash_(const sp_fr *k)
{
    uint64_t h = k->l[0] * 0x9E3779B97F4A7C15ull ^ k->l[1] ^ (k->l[2] << 7) ^ (k->l[3] >> 3);
    return (uint32_t)(h ^ (h >> 29));
}

static int grow_hash_(sp_cs_rec *r)
{
    uint32_t cap = r->hash_cap ? 2 * r->hash_cap : 256;
    uint32_t *h = malloc((size_t)cap * sizeof *h);
    if (!h)
        return 0;
    memset(h, 0xff, (size_t)cap * sizeof *h);
    for (uint32_t i = 0; i < r->n_coef; i++) {
        uint32_t j = fr_hash_(&r->coef[i]) & (cap - 1);
        while (h[j] != UINT32_MAX)
            j = (j + 1) & (cap - 1);
        h[j] = i;
    }
    free(r->hash);
    r->hash = h, r->hash_cap = cap;
    return 1;
}

/* The number of coefficient k, added to the table when new; UINT32_MAX on
 * out of memory. */
static uint32_t intern_(sp_cs_rec *r, const sp_fr *k)
{
    if (2 * (r->n_coef + 1) > r->hash_cap && !grow_hash_(r))
        return UINT32_MAX;
    uint32_t j = fr_hash_(k) & (r->hash_cap - 1);
    for (; r->hash[j] != UINT32_MAX; j = (j + 1) & (r->hash_cap - 1))
        if (sp_fr_eq(&r->coef[r->hash[j]], k))
            return r->hash[j];
    if (r->n_coef == r->coef_cap) {
        uint32_t cap = r->coef_cap ? 2 * r->coef_cap : 64;
        sp_fr *c = realloc(r->coef, (size_t)cap * sizeof *c);
        if (!c)
            return UINT32_MAX;
        r->coef = c, r->coef_cap = cap;
    }
    r->coef[r->n_coef] = *k;
    r->hash[j] = r->n_coef;
    return r->n_coef++;
}

static int reserve_rows_(sp_cs_rec *r, uint64_t rows)
{
    if (rows + 1 <= r->row_cap)
        return 1;
    uint64_t cap = r->row_cap * 2 > rows + 1 ? r->row_cap * 2 : rows + 1;
    for (int m = 0; m < 3; m++) {
        uint64_t *p = realloc(r->m[m].row, cap * sizeof *p);
        if (!p)
            return 0;
        r->m[m].row = p;
    }
    r->row_cap = cap;
    return 1;
}

static int reserve_terms_(sp_cs_mat *m, uint64_t nnz)
{
    if (nnz <= m->cap)
        return 1;
    uint64_t cap = m->cap * 2 > nnz ? m->cap * 2 : (nnz > 64 ? nnz : 64);
    uint32_t *v = realloc(m->var, cap * sizeof *v);
    if (!v)
        return 0;
    m->var = v;
    uint32_t *k = realloc(m->kid, cap * sizeof *k);
    if (!k)
        return 0;
    m->kid = k, m->cap = cap;
    return 1;
}

static int term_cmp_(const void *x, const void *y)
{
    const sp_cs_term *a = x, *b = y;
    return (a->var > b->var) - (a->var < b->var);
}

/* Appends one combination as a row of m: terms sorted by wire, repeats
 * added up, zero coefficients dropped (so every exported row names a wire
 * once, as circom's readers expect). */
static sp_status add_lc_(sp_cs_rec *r, sp_cs_mat *m, const sp_cs_term *t, uint32_t n)
{
    sp_cs_term stack[64], *s = n <= 64 ? stack : malloc((size_t)n * sizeof *s);
    if (!s)
        return SP_ERR_NOMEM;
    if (n)
        memcpy(s, t, (size_t)n * sizeof *s);
    int sorted = 1;
    for (uint32_t i = 1; i < n && sorted; i++)
        sorted = s[i - 1].var < s[i].var;
    if (!sorted)
        qsort(s, n, sizeof *s, term_cmp_);
    sp_status st = SP_OK;
    if (!reserve_terms_(m, m->nnz + n)) {
        st = SP_ERR_NOMEM;
        goto out;
    }
    for (uint32_t i = 0; i < n;) {
        sp_fr k = s[i].k;
        uint32_t j = i + 1;
        for (; j < n && s[j].var == s[i].var; j++)
            sp_fr_add(&k, &k, &s[j].k);
        if (!sp_fr_is_zero(&k)) {
            uint32_t id = intern_(r, &k);
            if (id == UINT32_MAX) {
                st = SP_ERR_NOMEM;
                goto out;
            }
            m->var[m->nnz] = s[i].var;
            m->kid[m->nnz] = id;
            m->nnz++;
        }
        i = j;
    }
out:
    if (s != stack)
        free(s);
    return st;
}

sp_status sp_cs_rec_add(sp_cs_rec *r, const sp_cs_term *const t[3], const uint32_t n[3])
{
    if (!reserve_rows_(r, r->n_rows + 1))
        return SP_ERR_NOMEM;
    for (int m = 0; m < 3; m++) {
        sp_status st = add_lc_(r, &r->m[m], t[m], n[m]);
        if (st != SP_OK)
            return st;
    }
    r->n_rows++;
    for (int m = 0; m < 3; m++)
        r->m[m].row[r->n_rows] = r->m[m].nnz;
    return SP_OK;
}

sp_status sp_cs_rec_append(sp_cs_rec *dst, const sp_cs_rec *src)
{
    if (!reserve_rows_(dst, dst->n_rows + src->n_rows))
        return SP_ERR_NOMEM;
    uint32_t *map = malloc(((size_t)src->n_coef + 1) * sizeof *map);
    if (!map)
        return SP_ERR_NOMEM;
    for (uint32_t i = 0; i < src->n_coef; i++)
        if ((map[i] = intern_(dst, &src->coef[i])) == UINT32_MAX) {
            free(map);
            return SP_ERR_NOMEM;
        }
    for (int m = 0; m < 3; m++) {
        sp_cs_mat *d = &dst->m[m];
        const sp_cs_mat *s = &src->m[m];
        if (!reserve_terms_(d, d->nnz + s->nnz)) {
            free(map);
            return SP_ERR_NOMEM;
        }
        for (uint64_t i = 0; i < s->nnz; i++) {
            d->var[d->nnz + i] = s->var[i];
            d->kid[d->nnz + i] = map[s->kid[i]];
        }
        for (uint64_t i = 1; i <= src->n_rows; i++)
            d->row[dst->n_rows + i] = d->nnz + s->row[i];
        d->nnz += s->nnz;
    }
    dst->n_rows += src->n_rows;
    if (src->n_vars > dst->n_vars)
        dst->n_vars = src->n_vars;
    free(map);
    return SP_OK;
}

/* ---- evaluation ---- */

void sp_cs_rec_row_dot(sp_fr *out, const sp_cs_rec *r, int m, uint64_t i, const sp_fr *w)
{
    const sp_cs_mat *M = &r->m[m];
    sp_fr acc, t;
    sp_fr_set_zero(&acc);
    for (uint64_t j = M->row[i]; j < M->row[i + 1]; j++) {
        sp_fr_mul(&t, &r->coef[M->kid[j]], &w[M->var[j]]);
        sp_fr_add(&acc, &acc, &t);
    }
    *out = acc;
}

typedef struct {
    sp_fr *a, *b, *c;
    const sp_cs_rec *r;
    const sp_fr *w;
    int check;
    uint64_t bad[SP_PAR_MAX_THREADS];
} abc_job_;

static void abc_worker_(sp_par *par, int tid, void *ctx)
{
    abc_job_ *j = ctx;
    size_t lo, hi;
    sp_par_range(&lo, &hi, j->r->n_rows, tid, par->nthreads);
    j->bad[tid] = UINT64_MAX;
    for (size_t i = lo; i < hi; i++) {
        sp_cs_rec_row_dot(&j->a[i], j->r, 0, i, j->w);
        sp_cs_rec_row_dot(&j->b[i], j->r, 1, i, j->w);
        sp_cs_rec_row_dot(&j->c[i], j->r, 2, i, j->w);
        if (j->check && j->bad[tid] == UINT64_MAX) {
            sp_fr ab;
            sp_fr_mul(&ab, &j->a[i], &j->b[i]);
            if (!sp_fr_eq(&ab, &j->c[i]))
                j->bad[tid] = i;
        }
    }
}

sp_status sp_cs_rec_abc(sp_fr *a, sp_fr *b, sp_fr *c, size_t n, const sp_cs_rec *r, const sp_fr *w, int check,
                        int threads, uint64_t *bad_row, char err[SP_ERR_LEN])
{
    if (n < r->n_rows + r->n_public + 1) {
        snprintf(err, SP_ERR_LEN, "circuit: domain of %zu rows is too small for %llu constraints", n,
                 (unsigned long long)r->n_rows);
        return SP_ERR_INVALID_ARG;
    }
    abc_job_ j = {.a = a, .b = b, .c = c, .r = r, .w = w, .check = check};
    if (threads > SP_PAR_MAX_THREADS)
        threads = SP_PAR_MAX_THREADS;
    int nt = sp_par_threads_for(threads, r->n_rows, 4096);
    for (int t = 0; t < SP_PAR_MAX_THREADS; t++)
        j.bad[t] = UINT64_MAX;
    sp_par_run(nt, abc_worker_, &j);
    uint64_t bad = UINT64_MAX;
    for (int t = 0; t < SP_PAR_MAX_THREADS; t++)
        if (j.bad[t] < bad)
            bad = j.bad[t];
    if (bad != UINT64_MAX) {
        if (bad_row)
            *bad_row = bad;
        snprintf(err, SP_ERR_LEN, "circuit: constraint %llu is not satisfied", (unsigned long long)bad);
        return SP_ERR_UNSATISFIED;
    }
    return sp_cs_abc_tail(a, b, c, n, r->n_rows, w, r->n_public);
}

sp_status sp_cs_rec_to_r1cs(sp_r1cs *out, const sp_cs_rec *r, char err[SP_ERR_LEN])
{
    memset(out, 0, sizeof *out);
    if (r->n_vars > UINT32_MAX || r->n_rows > UINT32_MAX) {
        snprintf(err, SP_ERR_LEN, "circuit: %llu wires / %llu constraints do not fit an r1cs (2^32 - 1)",
                 (unsigned long long)r->n_vars, (unsigned long long)r->n_rows);
        return SP_ERR_UNSUPPORTED;
    }
    out->h.n_wires = (uint32_t)r->n_vars;
    out->h.n_pub_inputs = (uint32_t)r->n_public;
    out->h.n_labels = r->n_vars;
    out->h.n_constraints = (uint32_t)r->n_rows;
    sp_csr *dst[3] = {&out->a, &out->b, &out->c};
    for (int m = 0; m < 3; m++) {
        const sp_cs_mat *s = &r->m[m];
        sp_csr *d = dst[m];
        d->n_rows = r->n_rows;
        d->nnz = s->nnz;
        d->row = malloc((r->n_rows + 1) * sizeof *d->row);
        d->col = malloc((s->nnz ? s->nnz : 1) * sizeof *d->col);
        d->val = malloc((s->nnz ? s->nnz : 1) * sizeof *d->val);
        if (!d->row || !d->col || !d->val) {
            sp_r1cs_free(out);
            snprintf(err, SP_ERR_LEN, "circuit: out of memory converting to r1cs");
            return SP_ERR_NOMEM;
        }
        memcpy(d->row, s->row, (r->n_rows + 1) * sizeof *d->row);
        for (uint64_t i = 0; i < s->nnz; i++) {
            d->col[i] = s->var[i];
            d->val[i] = r->coef[s->kid[i]];
        }
    }
    return SP_OK;
}

uint64_t sp_cs_rec_bytes(const sp_cs_rec *r)
{
    uint64_t b = 96 + (uint64_t)r->n_coef * 32;
    for (int m = 0; m < 3; m++)
        b += (r->n_rows + 1) * 8 + r->m[m].nnz * 8;
    return b;
}

/* ---- the file ---- */

static const uint8_t MAGIC_[8] = {'S', 'P', 'R', 'E', 'C', 0, 1, 0};
#define CHUNK_ ((size_t)16 << 20)

/* The file body as a list of pieces (pointer, length), in file order. */
typedef struct {
    const void *p[16];
    uint64_t len[16];
    int n;
} body_;

static void body_of_(body_ *b, const sp_cs_rec *r, uint8_t *coef_bytes)
{
    b->n = 0;
    b->p[b->n] = coef_bytes, b->len[b->n++] = (uint64_t)r->n_coef * 32;
    for (int m = 0; m < 3; m++) {
        b->p[b->n] = r->m[m].row, b->len[b->n++] = (r->n_rows + 1) * 8;
        b->p[b->n] = r->m[m].var, b->len[b->n++] = r->m[m].nnz * 4;
        b->p[b->n] = r->m[m].kid, b->len[b->n++] = r->m[m].nnz * 4;
    }
}

/* The digest of rec.h over the body pieces: chunk digests on every core. */
typedef struct {
    const body_ *b;
    uint64_t total;
    uint8_t *dig; /* 32 per chunk */
} dig_job_;

static void dig_task_(void *ctx, int tid, size_t k)
{
    dig_job_ *j = ctx;
    uint64_t lo = (uint64_t)k * CHUNK_, hi = lo + CHUNK_ < j->total ? lo + CHUNK_ : j->total, at = 0;
    sp_sha256_ctx c;
    sp_sha256_init(&c);
    for (int i = 0; i < j->b->n; i++) {
        uint64_t s = at, e = at + j->b->len[i];
        at = e;
        if (e <= lo || s >= hi)
            continue;
        uint64_t from = lo > s ? lo : s, to = hi < e ? hi : e;
        sp_sha256_update(&c, (const uint8_t *)j->b->p[i] + (from - s), to - from);
    }
    sp_sha256_final(j->dig + 32 * k, &c);
}

/* out = SHA-256(header fields || the chunk digests): the header's counts
 * are covered too, so no field can change unnoticed. */
static int digest_(uint8_t out[32], const uint8_t head[64], const body_ *b)
{
    dig_job_ j = {.b = b};
    for (int i = 0; i < b->n; i++)
        j.total += b->len[i];
    size_t chunks = (size_t)((j.total + CHUNK_ - 1) / CHUNK_);
    if (!(j.dig = malloc(chunks ? 32 * chunks : 1)))
        return 0;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    sp_par_tasks(cores > 0 ? (int)cores : 1, chunks, dig_task_, &j);
    sp_sha256_ctx c;
    sp_sha256_init(&c);
    sp_sha256_update(&c, head, 64);
    sp_sha256_update(&c, j.dig, 32 * chunks);
    sp_sha256_final(out, &c);
    free(j.dig);
    return 1;
}

static void put64_(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static uint64_t get64_(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static int write_all_(int fd, const void *p, uint64_t len)
{
    const uint8_t *q = p;
    while (len) {
        ssize_t k = write(fd, q, len > (1u << 30) ? (1u << 30) : len);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return 0;
        q += k, len -= (uint64_t)k;
    }
    return 1;
}

static int read_all_(int fd, void *p, uint64_t len)
{
    uint8_t *q = p;
    while (len) {
        ssize_t k = read(fd, q, len > (1u << 30) ? (1u << 30) : len);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return 0;
        q += k, len -= (uint64_t)k;
    }
    return 1;
}

sp_status sp_native_curve_check(char err[SP_ERR_LEN])
{
#if SP_CURVE_BN254
    snprintf(err, SP_ERR_LEN, "the native circuits (porep-like) and .sprec recordings are bls12-381's; this is the "
             "%s prover", sp_curve_label(SP_CURVE_ID_THIS));
    return SP_ERR_UNSUPPORTED;
#else
    (void)err;
    return SP_OK;
#endif
}

sp_status sp_cs_rec_save(const sp_cs_rec *r, const char *path, char err[SP_ERR_LEN])
{
    if (sp_native_curve_check(err) != SP_OK)
        return SP_ERR_UNSUPPORTED;
    uint8_t *coef = malloc(r->n_coef ? (size_t)r->n_coef * 32 : 1);
    if (!coef) {
        snprintf(err, SP_ERR_LEN, "%s: out of memory", path);
        return SP_ERR_NOMEM;
    }
    for (uint32_t i = 0; i < r->n_coef; i++)
        sp_fr_to_bytes_le(coef + 32 * (size_t)i, &r->coef[i]);
    body_ b;
    body_of_(&b, r, coef);
    uint8_t h[96] = {0};
    memcpy(h, MAGIC_, 8);
    put64_(h + 8, r->n_vars);
    put64_(h + 16, r->n_public);
    put64_(h + 24, r->n_rows);
    put64_(h + 32, r->n_coef);
    for (int m = 0; m < 3; m++)
        put64_(h + 40 + 8 * m, r->m[m].nnz);
    if (!digest_(h + 64, h, &b)) {
        free(coef);
        snprintf(err, SP_ERR_LEN, "%s: out of memory", path);
        return SP_ERR_NOMEM;
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    int ok = fd >= 0 && write_all_(fd, h, sizeof h);
    for (int i = 0; ok && i < b.n; i++)
        ok = write_all_(fd, b.p[i], b.len[i]);
    if (fd >= 0 && close(fd) != 0)
        ok = 0;
    free(coef);
    if (!ok) {
        snprintf(err, SP_ERR_LEN, "%s: cannot write: %s", path, strerror(errno));
        return SP_ERR_IO;
    }
    return SP_OK;
}

static sp_status load_fail_(sp_cs_rec *r, int fd, sp_status st, char err[SP_ERR_LEN], const char *path,
                            const char *what)
{
    snprintf(err, SP_ERR_LEN, "%s: %s", path, what);
    sp_cs_rec_free(r);
    if (fd >= 0)
        close(fd);
    return st;
}

/* Checks one matrix as read: offsets from 0, monotone, ending at nnz;
 * wires and coefficient numbers in range. Returns 1 when sound. */
static int mat_ok_(const sp_cs_mat *m, uint64_t n_rows, uint64_t n_vars, uint32_t n_coef)
{
    if (m->row[0] != 0 || m->row[n_rows] != m->nnz)
        return 0;
    for (uint64_t i = 0; i < n_rows; i++)
        if (m->row[i] > m->row[i + 1])
            return 0;
    for (uint64_t i = 0; i < m->nnz; i++)
        if (m->var[i] >= n_vars || m->kid[i] >= n_coef)
            return 0;
    return 1;
}

static sp_status load_body_(sp_cs_rec *r, int fd, uint8_t *coef, const char *path, char err[SP_ERR_LEN])
{
    if (!read_all_(fd, coef, (uint64_t)r->n_coef * 32))
        return load_fail_(NULL, -1, SP_ERR_TRUNCATED, err, path, "truncated in the coefficients");
    for (uint32_t i = 0; i < r->n_coef; i++)
        if (sp_fr_from_bytes_le(&r->coef[i], coef + 32 * (size_t)i) != SP_OK)
            return load_fail_(NULL, -1, SP_ERR_NOT_CANONICAL, err, path, "a coefficient is not below r");
    for (int m = 0; m < 3; m++) {
        sp_cs_mat *M = &r->m[m];
        if (!read_all_(fd, M->row, (r->n_rows + 1) * 8) || !read_all_(fd, M->var, M->nnz * 4) ||
            !read_all_(fd, M->kid, M->nnz * 4))
            return load_fail_(NULL, -1, SP_ERR_TRUNCATED, err, path, "truncated in the matrices");
        if (!mat_ok_(M, r->n_rows, r->n_vars, r->n_coef))
            return load_fail_(NULL, -1, SP_ERR_FORMAT, err, path,
                              m == 0   ? "matrix A: bad row offsets, wire or coefficient number"
                              : m == 1 ? "matrix B: bad row offsets, wire or coefficient number"
                                       : "matrix C: bad row offsets, wire or coefficient number");
    }
    return SP_OK;
}

sp_status sp_cs_rec_load(sp_cs_rec **out, const char *path, char err[SP_ERR_LEN])
{
    *out = NULL;
    if (sp_native_curve_check(err) != SP_OK)
        return SP_ERR_UNSUPPORTED;
    int fd;
    uint64_t size;
    sp_status st = sp_file_open_regular(&fd, &size, path, "sprec", err);
    if (st != SP_OK)
        return st;
    uint8_t h[96];
    if (!read_all_(fd, h, sizeof h))
        return load_fail_(NULL, fd, SP_ERR_TRUNCATED, err, path, "shorter than the 96-byte header");
    if (memcmp(h, MAGIC_, 8) != 0)
        return load_fail_(NULL, fd, SP_ERR_FORMAT, err, path, "not a recorded circuit (.sprec version 1)");
    uint64_t n_vars = get64_(h + 8), n_public = get64_(h + 16), n_rows = get64_(h + 24), n_coef = get64_(h + 32);
    uint64_t nnz[3] = {get64_(h + 40), get64_(h + 48), get64_(h + 56)};
    /* Sizes against the file length before any allocation (no overflow:
     * each count is bounded first). */
    uint64_t need = 96;
    /* absolute bounds first, so that the sum below cannot overflow */
    if (n_vars == 0 || n_vars > UINT32_MAX || n_public >= n_vars || n_rows > ((uint64_t)1 << 40) ||
        n_coef > UINT32_MAX || nnz[0] > ((uint64_t)1 << 44) || nnz[1] > ((uint64_t)1 << 44) ||
        nnz[2] > ((uint64_t)1 << 44))
        return load_fail_(NULL, fd, SP_ERR_FORMAT, err, path, "header counts out of range");
    need += n_coef * 32 + 3 * (n_rows + 1) * 8 + 8 * (nnz[0] + nnz[1] + nnz[2]);
    if (need != size)
        return load_fail_(NULL, fd, need > size ? SP_ERR_TRUNCATED : SP_ERR_FORMAT, err, path,
                          need > size ? "shorter than its header says" : "longer than its header says");
    sp_cs_rec *r = calloc(1, sizeof *r);
    uint8_t *coef = malloc(n_coef ? n_coef * 32 : 1);
    if (!r || !coef) {
        free(coef);
        return load_fail_(r, fd, SP_ERR_NOMEM, err, path, "out of memory");
    }
    r->n_vars = n_vars, r->n_public = n_public, r->n_rows = n_rows, r->row_cap = n_rows + 1;
    r->n_coef = r->coef_cap = (uint32_t)n_coef;
    int ok = (r->coef = malloc(n_coef ? n_coef * sizeof *r->coef : 1)) != NULL;
    for (int m = 0; ok && m < 3; m++) {
        r->m[m].nnz = r->m[m].cap = nnz[m];
        ok = (r->m[m].row = malloc((n_rows + 1) * 8)) && (r->m[m].var = malloc(nnz[m] ? nnz[m] * 4 : 1)) &&
             (r->m[m].kid = malloc(nnz[m] ? nnz[m] * 4 : 1));
    }
    if (!ok) {
        free(coef);
        return load_fail_(r, fd, SP_ERR_NOMEM, err, path, "out of memory");
    }
    st = load_body_(r, fd, coef, path, err);
    close(fd);
    if (st == SP_OK) {
        body_ b;
        uint8_t d[32];
        body_of_(&b, r, coef);
        if (!digest_(d, h, &b))
            st = SP_ERR_NOMEM, snprintf(err, SP_ERR_LEN, "%s: out of memory", path);
        else if (memcmp(d, h + 64, 32) != 0)
            st = SP_ERR_FORMAT, snprintf(err, SP_ERR_LEN, "%s: digest mismatch (the file is corrupt)", path);
    }
    free(coef);
    if (st != SP_OK) {
        sp_cs_rec_free(r);
        return st;
    }
    *out = r;
    return SP_OK;
}
