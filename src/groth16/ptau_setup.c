/*
 * Groth16 setup from a .ptau (ptau_setup.h), the computation of snarkjs'
 * zkey_new.js: with L_j the Lagrange basis of the circuit's domain at tau,
 *   A_i  = sum_rows a_{row,i} L_row G1          (section 12, block log n)
 *   B1_i = sum_rows b_{row,i} L_row G1, B2_i the same in G2 (section 13)
 *   IC_i / C_i = sum a beta L_row G1 + sum b alpha L_row G1 + sum c L_row G1
 *          (sections 15, 14, 12), IC for the public wires, C the others
 *   H_j  = L^(2n)_{2j+1} G1 (section 12, block log n + 1, odd points)
 * with row nC + s holding A = w_s for s = 0..nPublic (input consistency).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "groth16/backend.h"
#include "groth16/ptau_comb.h"
#include "groth16/ptau_setup.h"
#include "groth16/setup.h"
#include "msm/msm.h"
#include "ntt/ntt.h"
#include "util/blake2b.h"
#include "util/par.h"
#include "util/progress.h"

#define HASH_CHUNK 512  /* H-hash points made at once (on the stack) */
/* snarkjs hashes the H points 2^14 at a time, each chunk a full 2^14 (a
 * quirk of zkey_new.js's hashHPoints): past 2^14 it hashes n points, not
 * n - 1, the last one read from beyond tau^(2n-2) when n is 2^power. */
#define SNARKJS_H_CHUNK ((uint64_t)1 << 14)

/* One matrix by column: the entries of wire w are start[w] .. start[w+1]-1,
 * each a row and a canonical scalar. */
typedef struct {
    uint64_t *start;
    uint32_t *row;
    sp_scalar *s;
} ptau_col;

/* The sparse term of m over bases (n_bases points). */
static sp_ptau_sparse term_of(const ptau_col *m, const void *bases, size_t n_bases)
{
    sp_ptau_sparse t = {m->start, m->row, m->s, bases, n_bases};
    return t;
}

/* ---- the circuit by columns ---- */

static void col_free(ptau_col *c)
{
    free(c->start), free(c->row), free(c->s);
    memset(c, 0, sizeof *c);
}

/* The columns of m (n_rows rows over n_wires wires); with inputs, also
 * the input-consistency entries row n_rows + s, wire s, coefficient 1. */
static sp_status col_from_csr(ptau_col *c, const sp_csr *m, uint32_t n_wires, uint32_t inputs)
{
    uint64_t nnz = m->nnz + inputs;
    memset(c, 0, sizeof *c);
    c->start = calloc((size_t)n_wires + 2, sizeof *c->start);
    c->row = malloc(sizeof *c->row * (nnz ? nnz : 1));
    c->s = malloc(sizeof *c->s * (nnz ? nnz : 1));
    if (!c->start || !c->row || !c->s) {
        col_free(c);
        return SP_ERR_NOMEM;
    }
    uint64_t *next = c->start + 1; /* counts, then the fill positions */
    for (uint64_t k = 0; k < m->nnz; k++)
        next[m->col[k] + 1]++;
    for (uint32_t s = 0; s < inputs; s++)
        next[s + 1]++;
    for (uint32_t w = 0; w < n_wires; w++)
        next[w + 1] += next[w];
    for (size_t r = 0; r < m->n_rows; r++)
        for (uint64_t k = m->row[r]; k < m->row[r + 1]; k++) {
            uint64_t at = next[m->col[k]]++;
            c->row[at] = (uint32_t)r;
            sp_scalar_from_fr(&c->s[at], &m->val[k]);
        }
    for (uint32_t s = 0; s < inputs; s++) {
        uint64_t at = next[s]++;
        c->row[at] = (uint32_t)(m->n_rows + s);
        memset(&c->s[at], 0, sizeof c->s[at]);
        c->s[at].l[0] = 1;
    }
    return SP_OK; /* next[w] ended at start[w + 1]: start is the prefix sum */
}

/* ---- the circuit hash, as zkey_new.js computes it ---- */

/* snarkjs' "U" form: big-endian canonical x | y (G2 coordinates c1 | c0),
 * infinity all zeros. */
static void g1_u(uint8_t *out, const sp_g1_affine *p)
{
    memset(out, 0, 2 * SP_FP_BYTES);
    if (sp_g1_affine_is_inf(p))
        return;
    sp_fp_to_bytes_be(out, &p->x);
    sp_fp_to_bytes_be(out + SP_FP_BYTES, &p->y);
}

static void g2_u(uint8_t *out, const sp_g2_affine *p)
{
    memset(out, 0, 4 * SP_FP_BYTES);
    if (sp_g2_affine_is_inf(p))
        return;
    sp_fp_to_bytes_be(out, &p->x.c1);
    sp_fp_to_bytes_be(out + SP_FP_BYTES, &p->x.c0);
    sp_fp_to_bytes_be(out + 2 * SP_FP_BYTES, &p->y.c1);
    sp_fp_to_bytes_be(out + 3 * SP_FP_BYTES, &p->y.c0);
}

static void hash_u32(sp_blake2b_ctx *h, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    sp_blake2b_update(h, b, 4);
}

static void hash_g1s(sp_blake2b_ctx *h, const sp_g1_affine *p, size_t n, int with_count)
{
    uint8_t b[2 * SP_FP_BYTES];
    if (with_count)
        hash_u32(h, (uint32_t)n);
    for (size_t i = 0; i < n; i++) {
        g1_u(b, &p[i]);
        sp_blake2b_update(h, b, sizeof b);
    }
}

static void hash_g2s(sp_blake2b_ctx *h, const sp_g2_affine *p, size_t n, int with_count)
{
    uint8_t b[4 * SP_FP_BYTES];
    if (with_count)
        hash_u32(h, (uint32_t)n);
    for (size_t i = 0; i < n; i++) {
        g2_u(b, &p[i]);
        sp_blake2b_update(h, b, sizeof b);
    }
}

/* ---- snarkjs' field arithmetic on unreduced values ----
 * The bytes past tauG1 that snarkjs hashes (SNARKJS_H_CHUNK) are no field
 * elements: its WebAssembly code (wasmcurves' f1m) takes them as they are,
 * below 2^(64 N) but not below q, and its results then depend on how each
 * operation reduces. These are those operations, word for word in effect:
 * add and sub wrap at 2^(64 N) and correct by q once, the Montgomery
 * product is exact and subtracts q once. */

typedef struct {
    uint64_t l[SP_FP_LIMBS];
} wfe;

/* r = a + b (sub = 0) or a - b (sub = 1) mod 2^(64 N); returns the carry / borrow. */
static uint64_t w_addsub(wfe *r, const wfe *a, const uint64_t *b, int sub)
{
    uint64_t c = 0;
    for (int i = 0; i < SP_FP_LIMBS; i++) {
        unsigned __int128 t = sub ? (unsigned __int128)a->l[i] - b[i] - c : (unsigned __int128)a->l[i] + b[i] + c;
        r->l[i] = (uint64_t)t;
        c = (uint64_t)(t >> 64) & 1;
    }
    return c;
}

static int w_ge_q(const wfe *a)
{
    for (int i = SP_FP_LIMBS - 1; i >= 0; i--)
        if (a->l[i] != SP_FP_MODULUS[i])
            return a->l[i] > SP_FP_MODULUS[i];
    return 1;
}

static void w_add(wfe *r, const wfe *a, const wfe *b)
{
    if (w_addsub(r, a, b->l, 0) || w_ge_q(r))
        w_addsub(r, r, SP_FP_MODULUS, 1);
}

static void w_sub(wfe *r, const wfe *a, const wfe *b)
{
    if (w_addsub(r, a, b->l, 1))
        w_addsub(r, r, SP_FP_MODULUS, 0);
}

/* (a b + m q) / 2^(64 N), m making it exact (CIOS), less q once when >= q. */
static void w_mul(wfe *r, const wfe *a, const wfe *b)
{
    enum { N = SP_FP_LIMBS };
    uint64_t t[N + 2] = {0}, n0 = 1, q0 = SP_FP_MODULUS[0];
    for (int k = 0; k < 6; k++) /* q0^-1 mod 2^64 by Newton's iteration */
        n0 *= 2 - q0 * n0;
    n0 = 0 - n0;
    for (int i = 0; i < N; i++) {
        unsigned __int128 c = 0;
        for (int j = 0; j < N; j++) {
            c += (unsigned __int128)a->l[j] * b->l[i] + t[j];
            t[j] = (uint64_t)c;
            c >>= 64;
        }
        c += t[N];
        t[N] = (uint64_t)c;
        t[N + 1] = (uint64_t)(c >> 64);
        uint64_t m = t[0] * n0;
        c = ((unsigned __int128)m * SP_FP_MODULUS[0] + t[0]) >> 64;
        for (int j = 1; j < N; j++) {
            c += (unsigned __int128)m * SP_FP_MODULUS[j] + t[j];
            t[j - 1] = (uint64_t)c;
            c >>= 64;
        }
        c += t[N];
        t[N - 1] = (uint64_t)c;
        t[N] = t[N + 1] + (uint64_t)(c >> 64);
    }
    memcpy(r->l, t, sizeof r->l);
    if (t[N] || w_ge_q(r))
        w_addsub(r, r, SP_FP_MODULUS, 1);
}

static void w_load(wfe *r, const uint8_t *le)
{
    memset(r, 0, sizeof *r);
    for (int i = 0; i < SP_FP_BYTES; i++)
        r->l[i / 8] |= (uint64_t)le[i] << (8 * (i % 8));
}

/* A value congruent to a as an sp_fp (both Montgomery form, R = 2^(64 N)). */
static void w_to_fp(sp_fp *r, wfe a)
{
    while (w_ge_q(&a))
        w_addsub(&a, &a, SP_FP_MODULUS, 1);
    memcpy(r->l, a.l, sizeof r->l);
}

/* out = g - t as snarkjs computes it (g1m_subAffine: g + (-t) by the
 * madd-2007-bl formulas of g1m_addAffine, then to affine), g the raw bytes
 * past tauG1 (raw[0..2 SP_FP_BYTES)). */
static sp_status beyond_point(sp_g1_affine *out, const uint8_t *raw, const sp_g1_affine *t)
{
    wfe x1, y1, x2, y2, zero = {{0}}, h, d, hh, i4, j, r, v, r2, v2, x3, y3, yj, z3;
    w_load(&x1, raw);
    w_load(&y1, raw + SP_FP_BYTES);
    memcpy(x2.l, t->x.l, sizeof x2.l);
    memcpy(y2.l, t->y.l, sizeof y2.l);
    w_sub(&y2, &zero, &y2); /* -t */
    if (!memcmp(&x1, &x2, sizeof x1))
        return SP_ERR_FORMAT; /* snarkjs would double: not a case of its files */
    w_sub(&h, &x2, &x1);
    w_sub(&d, &y2, &y1);
    w_mul(&hh, &h, &h);
    w_add(&i4, &hh, &hh);
    w_add(&i4, &i4, &i4);
    w_mul(&j, &h, &i4);
    w_add(&r, &d, &d);
    w_mul(&v, &x1, &i4);
    w_mul(&r2, &r, &r);
    w_add(&v2, &v, &v);
    w_sub(&x3, &r2, &j);
    w_sub(&x3, &x3, &v2);
    w_mul(&yj, &y1, &j);
    w_add(&yj, &yj, &yj);
    w_sub(&y3, &v, &x3);
    w_mul(&y3, &y3, &r);
    w_sub(&y3, &y3, &yj);
    w_add(&z3, &h, &h);
    sp_g1_jac p; /* from here on the values only need to be congruent */
    w_to_fp(&p.x, x3);
    w_to_fp(&p.y, y3);
    w_to_fp(&p.z, z3);
    if (sp_fp_is_zero(&p.z))
        return SP_ERR_FORMAT;
    sp_g1_jac_to_affine(out, &p);
    return SP_OK;
}

typedef struct {
    sp_g1_affine *out;
    const sp_g1_affine *tau;
    size_t n, m;
} hdiff_ctx;

/* out[i] = tau^(i+n) G1 - tau^i G1 = tau^i Z(tau) G1. */
static void hdiff_task(void *arg, int tid, size_t task)
{
    const hdiff_ctx *c = arg;
    size_t lo = task * HASH_CHUNK, hi = lo + HASH_CHUNK < c->m ? lo + HASH_CHUNK : c->m;
    sp_g1_jac j[HASH_CHUNK];
    for (size_t i = lo; i < hi; i++) {
        sp_g1_affine neg;
        sp_g1_affine_neg(&neg, &c->tau[i]);
        sp_g1_jac_from_affine(&j[i - lo], &c->tau[i + c->n]);
        sp_g1_jac_add_affine_var(&j[i - lo], &j[i - lo], &neg);
    }
    sp_g1_batch_to_affine(c->out + lo, j, hi - lo);
}

/* Hashes what snarkjs hashes for H: the count n - 1, then tau^i Z(tau) G1
 * for the i it visits (SNARKJS_H_CHUNK), from section 2. */
static sp_status hash_h(sp_blake2b_ctx *h, const sp_ptau *p, uint64_t n, int threads, char *err)
{
    uint64_t m = n <= SNARKJS_H_CHUNK ? n - 1 : n, have = sp_ptau_section_points(p, SP_PTAU_TAU_G1);
    uint64_t read = m + n < have ? m + n : have; /* tau^0 .. tau^(m+n-1), less what is not there */
    sp_g1_affine *tau = malloc(sizeof *tau * read), *d = malloc(sizeof *d * (m ? m : 1));
    sp_status st = tau && d ? sp_ptau_read_points(tau, p, SP_PTAU_TAU_G1, 0, read, 1, threads, err) : SP_ERR_NOMEM;
    if (st == SP_OK) {
        hdiff_ctx c = {d, tau, (size_t)n, (size_t)(read - n)};
        sp_par_tasks(threads, (c.m + HASH_CHUNK - 1) / HASH_CHUNK, hdiff_task, &c);
        if (read - n < m) { /* the one point past the section */
            uint64_t off = sp_ptau_point_offset(p, SP_PTAU_TAU_G1, read);
            if (off + 2 * SP_FP_BYTES > p->bf.len ||
                beyond_point(&d[m - 1], p->bf.data + off, &tau[m - 1]) != SP_OK) {
                sp_bin_errf(err, "ptau: the bytes after section 2, which snarkjs hashes for a domain of %" PRIu64
                            " = 2^power, are missing or degenerate", n);
                st = SP_ERR_FORMAT;
            }
        }
    } else if (st == SP_ERR_NOMEM) {
        sp_bin_errf(err, "out of memory for %" PRIu64 " powers of tau", read);
    }
    if (st == SP_OK) {
        hash_u32(h, (uint32_t)(n - 1));
        hash_g1s(h, d, m, 0);
    }
    free(tau), free(d);
    return st;
}

/* csHash over the key as zkey_new.js hashes it: the header points, then
 * IC, H (hash_h), C, A, B1, B2, each section with its count. */
static sp_status cs_hash(uint8_t out[64], const sp_g16_pk *pk, const sp_ptau *p, int threads, char *err)
{
    sp_blake2b_ctx h;
    sp_g1_affine g1;
    sp_g2_affine g2;
    sp_g1_generator(&g1);
    sp_g2_generator(&g2);
    sp_blake2b_init(&h, 64);
    hash_g1s(&h, &pk->vk.alpha1, 1, 0);
    hash_g1s(&h, &pk->vk.beta1, 1, 0);
    hash_g2s(&h, &pk->vk.beta2, 1, 0);
    hash_g2s(&h, &g2, 1, 0); /* gamma2 */
    hash_g1s(&h, &g1, 1, 0); /* delta1 */
    hash_g2s(&h, &g2, 1, 0); /* delta2 */
    hash_g1s(&h, pk->vk.ic, (size_t)pk->vk.n_public + 1, 1);
    sp_status st = hash_h(&h, p, pk->domain_size, threads, err);
    if (st != SP_OK)
        return st;
    hash_g1s(&h, pk->c, (size_t)pk->n_vars - pk->vk.n_public - 1, 1);
    hash_g1s(&h, pk->a, pk->n_vars, 1);
    hash_g1s(&h, pk->b1, pk->n_vars, 1);
    hash_g2s(&h, pk->b2, pk->n_vars, 1);
    sp_blake2b_final(out, &h);
    return SP_OK;
}

/* ---- the key ---- */

unsigned sp_g16_ptau_domain_log(const sp_r1cs_header *h)
{
    uint64_t rows = (uint64_t)h->n_constraints + sp_r1cs_n_public(h) + 1;
    unsigned k = 1;
    while (((uint64_t)1 << k) < rows)
        k++;
    return k;
}

/* The Lagrange points of block log n of sections 12..15. */
typedef struct {
    sp_g1_affine *tau, *alpha, *beta;
    sp_g2_affine *tau2;
} lagrange;

static void lag_free(lagrange *l)
{
    free(l->tau), free(l->alpha), free(l->beta), free(l->tau2);
    memset(l, 0, sizeof *l);
}

/* Lagrange points of a .ptau not prepared for phase 2, as `snarkjs
 * powersoftau prepare phase2` makes them: the inverse DFT of the first n
 * powers of each series; H from tau^i - tau^(i+n), i < n (tau^(2n-1) taken
 * as 0 when the file has none, as snarkjs does). */
static sp_status lag_compute(lagrange *l, sp_g16_pk *pk, const sp_ptau *p, sp_backend *be, int threads, char *err)
{
    size_t n = pk->domain_size;
    unsigned log_n = pk->log2_domain;
    uint64_t have = sp_ptau_section_points(p, SP_PTAU_TAU_G1), m = 2 * n < have ? 2 * n : have;
    sp_scalar *tw = malloc(sizeof *tw * (n / 2 + 1)), *pre = malloc(sizeof *pre * n);
    sp_g1_affine *t1 = malloc(sizeof *t1 * 2 * n), *d = malloc(sizeof *d * n);
    sp_status st = tw && pre && t1 && d ? SP_OK : SP_ERR_NOMEM;
    if (st == SP_OK && (st = sp_ptau_read_points(t1, p, SP_PTAU_TAU_G1, 0, m, 1, threads, err)) == SP_OK &&
        (st = sp_ptau_read_points(l->alpha, p, SP_PTAU_ALPHA_TAU_G1, 0, n, 1, threads, err)) == SP_OK &&
        (st = sp_ptau_read_points(l->beta, p, SP_PTAU_BETA_TAU_G1, 0, n, 1, threads, err)) == SP_OK &&
        (st = sp_ptau_read_points(l->tau2, p, SP_PTAU_TAU_G2, 0, n, 1, threads, err)) == SP_OK) {
        for (size_t i = 0; i < n; i++) { /* d[i] = tau^i - tau^(i+n) */
            sp_g1_jac j;
            sp_g1_affine neg;
            sp_g1_jac_from_affine(&j, &t1[i]);
            if (i + n < m) {
                sp_g1_affine_neg(&neg, &t1[i + n]);
                sp_g1_jac_add_affine_var(&j, &j, &neg);
            }
            sp_g1_jac_to_affine(&d[i], &j);
        }
        sp_progress_part("Lagrange points");
        if ((st = sp_ptau_intt_scalars(tw, pre, log_n, 1)) == SP_OK)
            st = sp_g1_ptau_intt_be(be, pk->h, d, log_n, tw, pre, threads, err);
        if (st == SP_OK && (st = sp_ptau_intt_scalars(tw, pre, log_n, 0)) == SP_OK &&
            (st = sp_g1_ptau_intt_be(be, l->tau, t1, log_n, tw, pre, threads, err)) == SP_OK &&
            (st = sp_g1_ptau_intt_be(be, l->alpha, l->alpha, log_n, tw, pre, threads, err)) == SP_OK &&
            (st = sp_g1_ptau_intt_be(be, l->beta, l->beta, log_n, tw, pre, threads, err)) == SP_OK)
            st = sp_g2_ptau_intt_be(be, l->tau2, l->tau2, log_n, tw, pre, threads, err);
        if (st != SP_OK && st != SP_ERR_GPU)
            sp_bin_errf(err, "setup: the Lagrange points: %s", sp_status_str(st));
    } else if (st == SP_ERR_NOMEM) {
        sp_bin_errf(err, "out of memory for the powers of a domain of %zu", n);
    }
    free(tw), free(pre), free(t1), free(d);
    return st;
}

static sp_status lag_read(lagrange *l, sp_g16_pk *pk, const sp_ptau *p, sp_backend *be, int threads, char *err)
{
    size_t n = pk->domain_size;
    memset(l, 0, sizeof *l);
    l->tau = malloc(sizeof *l->tau * n), l->alpha = malloc(sizeof *l->alpha * n);
    l->beta = malloc(sizeof *l->beta * n), l->tau2 = malloc(sizeof *l->tau2 * n);
    if (!l->tau || !l->alpha || !l->beta || !l->tau2) {
        sp_bin_errf(err, "out of memory for the Lagrange points of a domain of %zu", n);
        return SP_ERR_NOMEM;
    }
    sp_status st;
    if (!p->prepared) {
        if ((st = lag_compute(l, pk, p, be, threads, err)) != SP_OK ||
            (st = sp_ptau_read_points(&pk->vk.alpha1, p, SP_PTAU_ALPHA_TAU_G1, 0, 1, 1, 1, err)) != SP_OK ||
            (st = sp_ptau_read_points(&pk->vk.beta1, p, SP_PTAU_BETA_TAU_G1, 0, 1, 1, 1, err)) != SP_OK)
            return st;
        return sp_ptau_read_points(&pk->vk.beta2, p, SP_PTAU_BETA_G2, 0, 1, 1, 1, err);
    }
    if ((st = sp_ptau_read_points(l->tau, p, SP_PTAU_LAG_TAU_G1, n - 1, n, 1, threads, err)) != SP_OK ||
        (st = sp_ptau_read_points(l->tau2, p, SP_PTAU_LAG_TAU_G2, n - 1, n, 1, threads, err)) != SP_OK ||
        (st = sp_ptau_read_points(l->alpha, p, SP_PTAU_LAG_ALPHA_TAU_G1, n - 1, n, 1, threads, err)) != SP_OK ||
        (st = sp_ptau_read_points(l->beta, p, SP_PTAU_LAG_BETA_TAU_G1, n - 1, n, 1, threads, err)) != SP_OK)
        return st;
    /* H: the odd points of the next block (2n points at offset 2n - 1) */
    if ((st = sp_ptau_read_points(pk->h, p, SP_PTAU_LAG_TAU_G1, 2 * n, n, 2, threads, err)) != SP_OK ||
        (st = sp_ptau_read_points(&pk->vk.alpha1, p, SP_PTAU_ALPHA_TAU_G1, 0, 1, 1, 1, err)) != SP_OK ||
        (st = sp_ptau_read_points(&pk->vk.beta1, p, SP_PTAU_BETA_TAU_G1, 0, 1, 1, 1, err)) != SP_OK)
        return st;
    return sp_ptau_read_points(&pk->vk.beta2, p, SP_PTAU_BETA_G2, 0, 1, 1, 1, err);
}

/* A, B1, B2, IC and C from the Lagrange points; err filled on failure. */
static sp_status wire_points(sp_g16_pk *pk, const sp_r1cs *cs, const lagrange *l, sp_backend *be, int threads,
                             char *err)
{
    ptau_col a, b, c;
    uint32_t nv = pk->n_vars, npub = pk->vk.n_public;
    sp_status st = col_from_csr(&a, &cs->a, nv, npub + 1);
    if (st == SP_OK && (st = col_from_csr(&b, &cs->b, nv, 0)) != SP_OK)
        col_free(&a);
    if (st == SP_OK && (st = col_from_csr(&c, &cs->c, nv, 0)) != SP_OK)
        col_free(&a), col_free(&b);
    if (st != SP_OK) {
        sp_bin_errf(err, "setup: out of memory for the circuit's columns");
        return st;
    }
    size_t n = pk->domain_size;
    sp_ptau_sparse ta = term_of(&a, l->tau, n), tb1 = term_of(&b, l->tau, n), tb2 = term_of(&b, l->tau2, n);
    sp_ptau_sparse k[3] = {term_of(&a, l->beta, n), term_of(&b, l->alpha, n), term_of(&c, l->tau, n)};
    sp_g1_affine *kp = malloc(sizeof *kp * nv);
    sp_progress_part("A");
    st = kp ? sp_g1_ptau_comb_be(be, pk->a, nv, &ta, 1, threads, err) : SP_ERR_NOMEM;
    sp_progress_part("B");
    if (st == SP_OK && (st = sp_g1_ptau_comb_be(be, pk->b1, nv, &tb1, 1, threads, err)) == SP_OK)
        st = sp_g2_ptau_comb_be(be, pk->b2, nv, &tb2, 1, threads, err);
    sp_progress_part("C");
    if (st == SP_OK && (st = sp_g1_ptau_comb_be(be, kp, nv, k, 3, threads, err)) == SP_OK) {
        memcpy(pk->vk.ic, kp, sizeof *kp * (npub + 1));
        memcpy(pk->c, kp + npub + 1, sizeof *kp * (nv - npub - 1));
    }
    free(kp);
    col_free(&a), col_free(&b), col_free(&c);
    if (st != SP_OK && st != SP_ERR_GPU)
        sp_bin_errf(err, "setup: %s", sp_status_str(st));
    return st;
}

static sp_status check_fit(const sp_r1cs *cs, const sp_ptau *p, unsigned log_n, char *err)
{
    if (log_n > SP_NTT_MAX_LOG) {
        sp_bin_errf(err, "circuit needs a domain of 2^%u rows, the largest supported is 2^%d", log_n,
                    SP_NTT_MAX_LOG);
        return SP_ERR_INVALID_ARG;
    }
    if (log_n > p->power) {
        sp_bin_errf(err, "circuit needs a domain of 2^%u rows (%" PRIu32 " constraints + %" PRIu32
                    " public + 1) but the .ptau has power %" PRIu32 ": use a .ptau of power %u or more",
                    log_n, cs->h.n_constraints, sp_r1cs_n_public(&cs->h), p->power, log_n);
        return SP_ERR_UNSUPPORTED;
    }
    return SP_OK;
}

sp_status sp_g16_setup_ptau(sp_g16_pk *pk, const sp_r1cs *cs, const sp_ptau *ptau, int threads,
                            char err[SP_ERR_LEN])
{
    return sp_g16_setup_ptau_be(pk, cs, ptau, NULL, threads, err);
}

sp_status sp_g16_setup_ptau_be(sp_g16_pk *pk, const sp_r1cs *cs, const sp_ptau *ptau, sp_backend *be, int threads,
                               char err[SP_ERR_LEN])
{
    unsigned log_n = sp_g16_ptau_domain_log(&cs->h);
    memset(pk, 0, sizeof *pk);
    sp_status st = check_fit(cs, ptau, log_n, err);
    if (st != SP_OK)
        return st;
    lagrange l;
    memset(&l, 0, sizeof l);
    uint32_t npub = sp_r1cs_n_public(&cs->h);
    if ((st = sp_g16_pk_alloc(pk, cs->h.n_wires, npub, 1u << log_n, SP_G16_H_SNARKJS)) != SP_OK) {
        sp_bin_errf(err, "out of memory for a key of %" PRIu32 " wires and 2^%u rows", cs->h.n_wires, log_n);
        return st;
    }
    sp_progress_begin("setup", 0);
    sp_progress_part("read ptau");
    st = lag_read(&l, pk, ptau, be, threads, err);
    if (st == SP_OK)
        st = wire_points(pk, cs, &l, be, threads, err);
    lag_free(&l);
    sp_g1_generator(&pk->vk.delta1);
    sp_g2_generator(&pk->vk.gamma2);
    sp_g2_generator(&pk->vk.delta2);
    sp_progress_part("hash");
    if (st == SP_OK && !(pk->mpc = calloc(1, 64 + 4))) {
        sp_bin_errf(err, "out of memory");
        st = SP_ERR_NOMEM;
    }
    if (st == SP_OK) {
        pk->mpc_len = 64 + 4; /* csHash, then no contributions */
        st = cs_hash(pk->mpc, pk, ptau, threads, err);
    }
    if (st == SP_OK && (st = sp_g16_pk_fill_qap(pk, cs, threads)) != SP_OK)
        sp_bin_errf(err, "out of memory for the key's QAP matrices");
    sp_progress_end();
    if (st != SP_OK)
        sp_g16_pk_free(pk);
    return st;
}
