/* Development setup (see setup.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "groth16/fixed_base.h"
#include "groth16/prove.h"
#include "groth16/qap.h"
#include "groth16/setup.h"

typedef struct {
    sp_fr tau, alpha, beta, gamma, delta;
} toxic_waste;

/* Scalars of every G1 point of the key, laid out in one array so one
 * fixed-base call (one table, all threads) makes them all. */
typedef struct {
    size_t a, b1, ic, c, h, vk, total; /* offsets; vk = alpha, beta, delta */
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

/* The scalars for A, B, IC, C from the per-wire QAP values at tau. */
static void wire_scalars(sp_fr *s, const g1_layout *l, const sp_g16_pk *pk, const sp_fr *at, const sp_fr *bt,
                         const sp_fr *ct, const toxic_waste *t)
{
    sp_fr ginv, dinv;
    sp_fr_inv(&ginv, &t->gamma);
    sp_fr_inv(&dinv, &t->delta);
    for (uint32_t i = 0; i < pk->n_vars; i++) {
        sp_fr v, u;
        s[l->a + i] = at[i];
        s[l->b1 + i] = bt[i];
        sp_fr_mul(&v, &t->beta, &at[i]); /* beta A + alpha B + C */
        sp_fr_mul(&u, &t->alpha, &bt[i]);
        sp_fr_add(&v, &v, &u);
        sp_fr_add(&v, &v, &ct[i]);
        if (i <= pk->vk.n_public)
            sp_fr_mul(&s[l->ic + i], &v, &ginv);
        else
            sp_fr_mul(&s[l->c + i - pk->vk.n_public - 1], &v, &dinv);
    }
    s[l->vk + 0] = t->alpha;
    s[l->vk + 1] = t->beta;
    s[l->vk + 2] = t->delta;
}

/* The H scalars: odd 2n-point Lagrange basis / delta (snarkjs) or
 * tau^i Z(tau) / delta (bellperson). */
static sp_status h_scalars(sp_fr *h, const sp_g16_pk *pk, const sp_ntt_domain *d, const toxic_waste *t)
{
    sp_fr dinv;
    sp_fr_inv(&dinv, &t->delta);
    if (pk->h_kind == SP_G16_H_SNARKJS) {
        sp_status st = sp_qap_odd_lagrange_at(h, d, &t->tau);
        for (size_t j = 0; st == SP_OK && j < pk->n_h; j++)
            sp_fr_mul(&h[j], &h[j], &dinv);
        return st;
    }
    sp_fr z, one; /* Z(tau) / delta, then times tau^i */
    uint64_t e = d->n;
    sp_fr_pow(&z, &t->tau, &e, 1);
    sp_fr_set_one(&one);
    sp_fr_sub(&z, &z, &one);
    sp_fr_mul(&z, &z, &dinv);
    for (size_t i = 0; i < pk->n_h; i++) {
        h[i] = z;
        sp_fr_mul(&z, &z, &t->tau);
    }
    return SP_OK;
}

/* Copies the circuit's A and B into the key's whole-domain QAP matrices,
 * adding the input-consistency rows to A. */
static sp_status fill_qap(sp_g16_pk *pk, const sp_r1cs *cs)
{
    uint32_t npub = pk->vk.n_public, nc = cs->h.n_constraints;
    sp_status st = sp_g16_pk_alloc_qap(pk, cs->a.nnz + npub + 1, cs->b.nnz);
    if (st != SP_OK)
        return st;
    const sp_csr *src[2] = {&cs->a, &cs->b};
    sp_csr *dst[2] = {&pk->qap_a, &pk->qap_b};
    for (int m = 0; m < 2; m++) {
        memcpy(dst[m]->row, src[m]->row, sizeof(uint64_t) * (nc + 1));
        memcpy(dst[m]->col, src[m]->col, sizeof(uint32_t) * src[m]->nnz);
        memcpy(dst[m]->val, src[m]->val, sizeof(sp_fr) * src[m]->nnz);
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

static unsigned domain_log_for(const sp_r1cs *cs)
{
    uint64_t rows = (uint64_t)cs->h.n_constraints + sp_r1cs_n_public(&cs->h) + 1;
    unsigned k = 1;
    while ((1ULL << k) < rows)
        k++;
    return k;
}

/* Turns the scalars into the key's points. */
static sp_status make_points(sp_g16_pk *pk, const sp_fr *s, const g1_layout *l, const toxic_waste *t,
                             int threads)
{
    sp_g1_affine g1, *pts = malloc(sizeof(sp_g1_affine) * l->total);
    sp_g2_affine g2, *pts2 = malloc(sizeof(sp_g2_affine) * (pk->n_vars + 3));
    sp_fr *s2 = malloc(sizeof(sp_fr) * (pk->n_vars + 3));
    sp_status st = SP_ERR_NOMEM;
    if (!pts || !pts2 || !s2)
        goto out;
    sp_g1_generator(&g1);
    sp_g2_generator(&g2);
    memcpy(s2, s + l->b1, sizeof(sp_fr) * pk->n_vars); /* B2 = B(tau) G2, then beta, gamma, delta */
    s2[pk->n_vars] = t->beta;
    s2[pk->n_vars + 1] = t->gamma;
    s2[pk->n_vars + 2] = t->delta;
    if ((st = sp_g1_fixed_base_mul_var(pts, &g1, s, l->total, threads)) != SP_OK ||
        (st = sp_g2_fixed_base_mul_var(pts2, &g2, s2, pk->n_vars + 3, threads)) != SP_OK)
        goto out;
    memcpy(pk->a, pts + l->a, sizeof(sp_g1_affine) * pk->n_vars);
    memcpy(pk->b1, pts + l->b1, sizeof(sp_g1_affine) * pk->n_vars);
    memcpy(pk->vk.ic, pts + l->ic, sizeof(sp_g1_affine) * (pk->vk.n_public + 1));
    memcpy(pk->c, pts + l->c, sizeof(sp_g1_affine) * (pk->n_vars - pk->vk.n_public - 1));
    memcpy(pk->h, pts + l->h, sizeof(sp_g1_affine) * pk->n_h);
    memcpy(pk->b2, pts2, sizeof(sp_g2_affine) * pk->n_vars);
    pk->vk.alpha1 = pts[l->vk + 0];
    pk->vk.beta1 = pts[l->vk + 1];
    pk->vk.delta1 = pts[l->vk + 2];
    pk->vk.beta2 = pts2[pk->n_vars];
    pk->vk.delta2 = pts2[pk->n_vars + 2];
    pk->vk.gamma2 = pts2[pk->n_vars + 1];
out:
    free(pts), free(pts2);
    if (s2)
        memset(s2, 0, sizeof(sp_fr) * (pk->n_vars + 3));
    free(s2);
    return st;
}

/* Every scalar derived from the toxic waste, for make_points. */
static sp_status all_scalars(sp_fr *s, const g1_layout *l, const sp_g16_pk *pk, const sp_r1cs *cs,
                             const sp_ntt_domain *d, const toxic_waste *t)
{
    size_t nv = pk->n_vars;
    sp_fr *lag = malloc(sizeof(sp_fr) * d->n), *wt = malloc(sizeof(sp_fr) * 3 * nv);
    sp_status st = SP_ERR_NOMEM;
    if (lag && wt && (st = sp_qap_lagrange_at(lag, d, &t->tau)) == SP_OK) {
        sp_qap_wires_at(wt, wt + nv, wt + 2 * nv, cs, lag);
        wire_scalars(s, l, pk, wt, wt + nv, wt + 2 * nv, t);
        st = h_scalars(s + l->h, pk, d, t);
    }
    if (lag)
        memset(lag, 0, sizeof(sp_fr) * d->n);
    if (wt)
        memset(wt, 0, sizeof(sp_fr) * 3 * nv);
    free(lag), free(wt);
    return st;
}

sp_status sp_g16_setup(sp_g16_pk *pk, const sp_r1cs *cs, sp_g16_h_kind kind, int threads, char err[SP_ERR_LEN])
{
    unsigned log_n = domain_log_for(cs);
    memset(pk, 0, sizeof *pk);
    if (log_n > SP_NTT_MAX_LOG) {
        snprintf(err, SP_ERR_LEN, "circuit needs a domain of 2^%u rows, the largest supported is 2^%d", log_n,
                 SP_NTT_MAX_LOG);
        return SP_ERR_INVALID_ARG;
    }
    sp_ntt_domain *d = NULL;
    sp_fr *s = NULL;
    toxic_waste t;
    sp_status st = sp_g16_pk_alloc(pk, cs->h.n_wires, sp_r1cs_n_public(&cs->h), 1u << log_n, kind);
    if (st == SP_OK)
        st = sp_ntt_domain_create(&d, log_n, sp_g16_roots_for(pk), threads);
    g1_layout l = layout_of(pk);
    if (st == SP_OK && !(s = malloc(sizeof(sp_fr) * l.total)))
        st = SP_ERR_NOMEM;
    if (st == SP_OK)
        st = fill_qap(pk, cs);
    if (st != SP_OK) {
        snprintf(err, SP_ERR_LEN, "out of memory for a key of %u wires and 2^%u rows", cs->h.n_wires, log_n);
        goto out;
    }
    /* tau on the domain (or its odd coset) has probability ~2^-220; draw again. */
    do {
        if ((st = draw_toxic(&t, kind)) != SP_OK) {
            snprintf(err, SP_ERR_LEN, "no randomness from the operating system (getrandom failed)");
            goto out;
        }
        st = all_scalars(s, &l, pk, cs, d, &t);
    } while (st == SP_ERR_INVALID_ARG);
    if (st == SP_OK)
        st = make_points(pk, s, &l, &t, threads);
    if (st != SP_OK)
        snprintf(err, SP_ERR_LEN, "setup failed: %s", sp_status_str(st));
out:
    memset(&t, 0, sizeof t);
    if (s)
        memset(s, 0, sizeof(sp_fr) * l.total);
    free(s);
    sp_ntt_domain_free(d);
    if (st != SP_OK)
        sp_g16_pk_free(pk);
    return st;
}
