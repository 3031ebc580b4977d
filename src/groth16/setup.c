/* Development setup (see setup.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "groth16/fixed_base.h"
#include "groth16/prove.h"
#include "groth16/qap.h"
#include "groth16/setup.h"
#include "util/par.h"
#include "util/progress.h"

/* Progress units (util/progress.h): a G1 point 1, a G2 point
 * SP_FB_G2_UNITS (the fixed-base code counts them as it goes), the scalars
 * an eighth of the G1 points: about what each costs on the CPU. */
#define G2_UNITS SP_FB_G2_UNITS

typedef struct {
    sp_fr tau, alpha, beta, gamma, delta;
} toxic_waste;

/* Scalars of every G1 point of the key, in one array: a, b1 (also the
 * scalars of b2), ic, c, h, then alpha, beta, delta for the vk. */
typedef struct {
    size_t a, b1, ic, c, h, vk, total; /* offsets */
} g1_layout;

static g1_layout layout_of(const sp_g16_pk *pk)
{
    g1_layout l;
    l.a = 0;
    l.b1 = l.a + pk->n_vars;
    l.ic = l.b1 + pk->n_vars;
    l.c = l.ic + pk->vk.n_public + 1;
    l.h = l.c + (pk->n_vars - pk->vk.n_public - 1);
    l.vk = l.h + pk->n_h;
    l.total = l.vk + 3;
    return l;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static void stage(sp_backend *be, const char *name, double t0)
{
    if (be && be->stage_hook)
        be->stage_hook(be->stage_ctx, name, now_ms() - t0);
}

static sp_status draw_toxic(toxic_waste *t, sp_g16_h_kind kind)
{
    if (sp_fr_random_os(&t->tau) != SP_OK || sp_fr_random_os(&t->alpha) != SP_OK ||
        sp_fr_random_os(&t->beta) != SP_OK || sp_fr_random_os(&t->delta) != SP_OK ||
        sp_fr_random_os(&t->gamma) != SP_OK)
        return SP_ERR_IO;
    if (kind == SP_G16_H_SNARKJS)
        sp_fr_set_one(&t->gamma); /* snarkjs fixes gamma = 1 (gamma2 = generator) */
    return SP_OK;
}

/* ---- scalars, on `threads` threads ---- */

/* What the parallel scalar loops read; each worker takes a range. */
typedef struct {
    sp_fr *s;
    const sp_fr *ct;
    const g1_layout *l;
    const sp_g16_pk *pk;
    sp_fr f0, f1, f2, f3; /* loop constants (see the workers) */
    size_t n;
} scal_ctx;

/* IC and C scalars (beta A + alpha B + C) / gamma or / delta, from A and B
 * in s and C in ct. f0 = 1/gamma, f1 = 1/delta, f2 = alpha, f3 = beta. */
static void wire_worker(sp_par *par, int tid, void *arg)
{
    const scal_ctx *c = arg;
    const g1_layout *l = c->l;
    uint32_t npub = c->pk->vk.n_public;
    size_t lo, hi;
    sp_par_range(&lo, &hi, c->n, tid, par->nthreads);
    for (size_t i = lo; i < hi; i++) {
        sp_fr v, u;
        sp_fr_mul(&v, &c->f3, &c->s[l->a + i]);
        sp_fr_mul(&u, &c->f2, &c->s[l->b1 + i]);
        sp_fr_add(&v, &v, &u);
        sp_fr_add(&v, &v, &c->ct[i]);
        if (i <= npub)
            sp_fr_mul(&c->s[l->ic + i], &v, &c->f0);
        else
            sp_fr_mul(&c->s[l->c + i - npub - 1], &v, &c->f1);
    }
}

/* H scalars: h[i] *= f0 (snarkjs), or h[i] = f0 * f1^i (bellperson, f0 =
 * Z(tau) / delta, f1 = tau). */
static void h_worker(sp_par *par, int tid, void *arg)
{
    const scal_ctx *c = arg;
    sp_fr *h = c->s + c->l->h, z;
    size_t lo, hi;
    sp_par_range(&lo, &hi, c->n, tid, par->nthreads);
    if (c->pk->h_kind == SP_G16_H_SNARKJS) {
        for (size_t i = lo; i < hi; i++)
            sp_fr_mul(&h[i], &h[i], &c->f0);
        return;
    }
    uint64_t e = lo;
    sp_fr_pow(&z, &c->f1, &e, 1);
    sp_fr_mul(&z, &z, &c->f0);
    for (size_t i = lo; i < hi; i++) {
        h[i] = z;
        sp_fr_mul(&z, &z, &c->f1);
    }
}

/* The H scalars: odd 2n-point Lagrange basis / delta (snarkjs) or
 * tau^i Z(tau) / delta (bellperson). */
static sp_status h_scalars(sp_fr *s, const g1_layout *l, const sp_g16_pk *pk, const sp_ntt_domain *d,
                           const toxic_waste *t, int threads)
{
    scal_ctx c = {.s = s, .l = l, .pk = pk, .n = pk->n_h};
    sp_fr_inv(&c.f0, &t->delta);
    if (pk->h_kind == SP_G16_H_SNARKJS) {
        sp_status st = sp_qap_odd_lagrange_at(s + l->h, d, &t->tau, threads);
        if (st != SP_OK)
            return st;
    } else {
        sp_fr z, one; /* Z(tau) = tau^n - 1 */
        uint64_t e = d->n;
        sp_fr_pow(&z, &t->tau, &e, 1);
        sp_fr_set_one(&one);
        sp_fr_sub(&z, &z, &one);
        sp_fr_mul(&c.f0, &c.f0, &z);
        c.f1 = t->tau;
    }
    sp_par_run(sp_par_threads_for(threads, c.n, 4096), h_worker, &c);
    return SP_OK;
}

/* Every scalar derived from the toxic waste, laid out as l says. */
static sp_status all_scalars(sp_fr *s, const g1_layout *l, const sp_g16_pk *pk, const sp_g16_circuit *cc,
                             const sp_ntt_domain *d, const toxic_waste *t, int threads)
{
    size_t nv = pk->n_vars;
    sp_fr *lag = malloc(sizeof(sp_fr) * d->n), *ct = malloc(sizeof(sp_fr) * nv);
    sp_status st = SP_ERR_NOMEM;
    if (lag && ct && (st = sp_qap_lagrange_at(lag, d, &t->tau, threads)) == SP_OK)
        st = cc->wires_at(cc->ctx, s + l->a, s + l->b1, ct, lag, threads);
    if (st == SP_OK) {
        scal_ctx c = {.s = s, .ct = ct, .l = l, .pk = pk, .f2 = t->alpha, .f3 = t->beta, .n = nv};
        sp_fr_inv(&c.f0, &t->gamma);
        sp_fr_inv(&c.f1, &t->delta);
        sp_par_run(sp_par_threads_for(threads, nv, 4096), wire_worker, &c);
        s[l->vk + 0] = t->alpha;
        s[l->vk + 1] = t->beta;
        s[l->vk + 2] = t->delta;
    }
    if (lag)
        memset(lag, 0, sizeof(sp_fr) * d->n);
    if (ct)
        memset(ct, 0, sizeof(sp_fr) * nv);
    free(lag), free(ct);
    return st == SP_OK ? h_scalars(s, l, pk, d, t, threads) : st;
}

/* ---- points ---- */

static sp_status g1_points(sp_backend *be, sp_g1_affine *out, const sp_fr *k, size_t n, int threads,
                           char err[SP_ERR_LEN])
{
    sp_g1_affine g;
    sp_g1_generator(&g);
    if (be && be->fixed_base_g1) {
        sp_status st = be->fixed_base_g1(be, out, &g, k, n, err);
        sp_progress_add(n);
        return st;
    }
    sp_status st = sp_g1_fixed_base_mul_var(out, &g, k, n, threads);
    if (st != SP_OK)
        snprintf(err, SP_ERR_LEN, "setup: G1 points: %s", sp_status_str(st));
    return st;
}

static sp_status g2_points(sp_backend *be, sp_g2_affine *out, const sp_fr *k, size_t n, int threads,
                           char err[SP_ERR_LEN])
{
    sp_g2_affine g;
    sp_g2_generator(&g);
    if (be && be->fixed_base_g2) {
        sp_status st = be->fixed_base_g2(be, out, &g, k, n, err);
        sp_progress_add(G2_UNITS * n);
        return st;
    }
    sp_status st = sp_g2_fixed_base_mul_var(out, &g, k, n, threads);
    if (st != SP_OK)
        snprintf(err, SP_ERR_LEN, "setup: G2 points: %s", sp_status_str(st));
    return st;
}

/* Turns the scalars into the key's points, written straight into the key's
 * arrays (one fixed-base call per array; a table costs milliseconds). */
static sp_status make_points(sp_g16_pk *pk, const sp_fr *s, const g1_layout *l, const toxic_waste *t,
                             sp_backend *be, int threads, char err[SP_ERR_LEN])
{
    size_t nv = pk->n_vars, npub = pk->vk.n_public;
    sp_g1_affine vk1[3];
    sp_g2_affine vk2[3];
    sp_fr s2[3] = {t->beta, t->gamma, t->delta};
    double t0 = now_ms();
    sp_status st;
    sp_progress_part("G1 points");
    if ((st = g1_points(be, pk->a, s + l->a, nv, threads, err)) != SP_OK ||
        (st = g1_points(be, pk->b1, s + l->b1, nv, threads, err)) != SP_OK ||
        (st = g1_points(be, pk->vk.ic, s + l->ic, npub + 1, threads, err)) != SP_OK ||
        (st = g1_points(be, pk->c, s + l->c, nv - npub - 1, threads, err)) != SP_OK ||
        (st = g1_points(be, pk->h, s + l->h, pk->n_h, threads, err)) != SP_OK ||
        (st = g1_points(be, vk1, s + l->vk, 3, threads, err)) != SP_OK)
        goto out;
    stage(be, "setup_g1", t0);
    sp_progress_part("G2 points");
    t0 = now_ms();
    if ((st = g2_points(be, pk->b2, s + l->b1, nv, threads, err)) != SP_OK ||
        (st = g2_points(be, vk2, s2, 3, threads, err)) != SP_OK)
        goto out;
    stage(be, "setup_g2", t0);
    pk->vk.alpha1 = vk1[0];
    pk->vk.beta1 = vk1[1];
    pk->vk.delta1 = vk1[2];
    pk->vk.beta2 = vk2[0];
    pk->vk.gamma2 = vk2[1];
    pk->vk.delta2 = vk2[2];
out:
    memset(s2, 0, sizeof s2);
    return st;
}

/* ---- the key ---- */

/* memcpy on up to `threads` threads (first touches of fresh pages, mostly). */
typedef struct {
    char *dst;
    const char *src;
    size_t bytes;
} copy_ctx;

static void copy_worker(sp_par *par, int tid, void *arg)
{
    const copy_ctx *c = arg;
    size_t lo, hi;
    sp_par_range(&lo, &hi, c->bytes, tid, par->nthreads);
    memcpy(c->dst + lo, c->src + lo, hi - lo);
}

static void par_copy(void *dst, const void *src, size_t bytes, int threads)
{
    copy_ctx c = {dst, src, bytes};
    sp_par_run(sp_par_threads_for(threads, bytes, (size_t)1 << 22), copy_worker, &c);
}

sp_status sp_g16_pk_fill_qap(sp_g16_pk *pk, const sp_r1cs *cs, int threads)
{
    uint32_t npub = pk->vk.n_public, nc = cs->h.n_constraints;
    sp_status st = sp_g16_pk_alloc_qap(pk, cs->a.nnz + npub + 1, cs->b.nnz);
    if (st != SP_OK)
        return st;
    const sp_csr *src[2] = {&cs->a, &cs->b};
    sp_csr *dst[2] = {&pk->qap_a, &pk->qap_b};
    for (int m = 0; m < 2; m++) {
        par_copy(dst[m]->row, src[m]->row, sizeof(uint64_t) * (nc + 1), threads);
        par_copy(dst[m]->col, src[m]->col, sizeof(uint32_t) * src[m]->nnz, threads);
        par_copy(dst[m]->val, src[m]->val, sizeof(sp_fr) * src[m]->nnz, threads);
        uint64_t k = src[m]->nnz;
        for (size_t row = nc; row < pk->domain_size; row++) {
            if (m == 0 && row - nc <= npub) {
                dst[m]->col[k] = (uint32_t)(row - nc);
                sp_fr_set_one(&dst[m]->val[k]);
                k++;
            }
            dst[m]->row[row + 1] = k;
        }
    }
    return SP_OK;
}

static unsigned domain_log_for(const sp_g16_circuit *c)
{
    uint64_t rows = c->n_rows + c->n_public + 1;
    unsigned k = 1;
    while ((1ULL << k) < rows)
        k++;
    return k;
}

/* The key's arrays, the domain and the scalar array. */
static sp_status prepare(sp_g16_pk *pk, sp_ntt_domain **d, sp_fr **s, const sp_g16_circuit *c, unsigned log_n,
                         sp_g16_h_kind kind, int threads, char err[SP_ERR_LEN])
{
    sp_status st = sp_g16_pk_alloc(pk, c->n_wires, c->n_public, 1u << log_n, kind);
    if (st == SP_OK)
        st = sp_ntt_domain_create(d, log_n, sp_g16_roots_for(pk), threads);
    if (st == SP_OK && !(*s = malloc(sizeof(sp_fr) * layout_of(pk).total)))
        st = SP_ERR_NOMEM;
    if (st != SP_OK)
        snprintf(err, SP_ERR_LEN, "out of memory for a key of %u wires and 2^%u rows", c->n_wires, log_n);
    return st;
}

sp_status sp_g16_setup_circuit(sp_g16_pk *pk, const sp_g16_circuit *c, sp_g16_h_kind kind, sp_backend *be,
                               int threads, char err[SP_ERR_LEN])
{
    unsigned log_n = domain_log_for(c);
    memset(pk, 0, sizeof *pk);
    if (log_n > SP_NTT_MAX_LOG) {
        snprintf(err, SP_ERR_LEN, "circuit needs a domain of 2^%u rows, the largest supported is 2^%d", log_n,
                 SP_NTT_MAX_LOG);
        return SP_ERR_INVALID_ARG;
    }
    sp_ntt_domain *d = NULL;
    sp_fr *s = NULL;
    toxic_waste t;
    double t0 = now_ms();
    int begun = 0;
    sp_status st = prepare(pk, &d, &s, c, log_n, kind, threads, err);
    g1_layout l = layout_of(pk);
    if (st != SP_OK)
        goto out;
    sp_progress_begin("setup", l.total + l.total / 8 + G2_UNITS * ((size_t)pk->n_vars + 3));
    begun = 1;
    sp_progress_part("scalars");
    /* tau on the domain (or its odd coset) has probability ~2^-220; draw again. */
    do {
        if ((st = draw_toxic(&t, kind)) != SP_OK) {
            snprintf(err, SP_ERR_LEN, "no randomness from the operating system (getrandom failed)");
            goto out;
        }
        st = all_scalars(s, &l, pk, c, d, &t, threads);
    } while (st == SP_ERR_INVALID_ARG);
    if (st != SP_OK) {
        snprintf(err, SP_ERR_LEN, "setup failed: %s", sp_status_str(st));
        goto out;
    }
    if (c->done)
        c->done(c->ctx);
    stage(be, "setup_scalars", t0);
    sp_progress_add(l.total / 8);
    st = make_points(pk, s, &l, &t, be, threads, err);
out:
    if (begun)
        sp_progress_end();
    memset(&t, 0, sizeof t);
    if (s)
        memset(s, 0, sizeof(sp_fr) * l.total);
    free(s);
    sp_ntt_domain_free(d);
    if (st != SP_OK)
        sp_g16_pk_free(pk);
    return st;
}

static sp_status r1cs_wires_at(void *ctx, sp_fr *a, sp_fr *b, sp_fr *c, const sp_fr *lag, int threads)
{
    return sp_qap_wires_at(a, b, c, ctx, lag, threads);
}

sp_status sp_g16_setup_be(sp_g16_pk *pk, const sp_r1cs *cs, sp_g16_h_kind kind, sp_backend *be, int threads,
                          char err[SP_ERR_LEN])
{
    sp_g16_circuit c = {cs->h.n_wires, sp_r1cs_n_public(&cs->h), cs->h.n_constraints, r1cs_wires_at, NULL,
                        (void *)cs};
    sp_status st = sp_g16_setup_circuit(pk, &c, kind, be, threads, err);
    if (st == SP_OK && (st = sp_g16_pk_fill_qap(pk, cs, threads)) != SP_OK) {
        snprintf(err, SP_ERR_LEN, "out of memory for the key's QAP matrices");
        sp_g16_pk_free(pk);
    }
    return st;
}

sp_status sp_g16_setup(sp_g16_pk *pk, const sp_r1cs *cs, sp_g16_h_kind kind, int threads, char err[SP_ERR_LEN])
{
    return sp_g16_setup_be(pk, cs, kind, NULL, threads, err);
}
