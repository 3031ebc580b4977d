/* Groth16 verification: single proofs and random-linear-combination batches. */
#include "groth16/verify.h"

#include <stdlib.h>
#include <string.h>
#include "util/rng.h"

static sp_status check_g1(const sp_g1_affine *p, const char *what, char *err)
{
    if (!sp_g1_affine_is_on_curve(p)) {
        sp_bin_errf(err, "%s: not on the curve", what);
        return SP_ERR_NOT_ON_CURVE;
    }
    if (!sp_g1_in_subgroup(p)) {
        sp_bin_errf(err, "%s: not in the prime-order subgroup", what);
        return SP_ERR_NOT_IN_SUBGROUP;
    }
    return SP_OK;
}

static sp_status check_g2(const sp_g2_affine *p, const char *what, char *err)
{
    if (!sp_g2_affine_is_on_curve(p)) {
        sp_bin_errf(err, "%s: not on the curve", what);
        return SP_ERR_NOT_ON_CURVE;
    }
    if (!sp_g2_in_subgroup(p)) {
        sp_bin_errf(err, "%s: not in the prime-order subgroup", what);
        return SP_ERR_NOT_IN_SUBGROUP;
    }
    return SP_OK;
}

static sp_status check_vk(const sp_g16_vk *vk, char *err)
{
    char what[48];
    sp_status st;
    if (sp_g1_affine_is_inf(&vk->alpha1) || sp_g2_affine_is_inf(&vk->beta2) || sp_g2_affine_is_inf(&vk->gamma2) ||
        sp_g2_affine_is_inf(&vk->delta2)) {
        sp_bin_errf(err, "verifying key: alpha1, beta2, gamma2 or delta2 is the point at infinity");
        return SP_ERR_FORMAT;
    }
    if ((st = check_g1(&vk->alpha1, "verifying key: alpha1", err)) != SP_OK ||
        (st = check_g2(&vk->beta2, "verifying key: beta2", err)) != SP_OK ||
        (st = check_g2(&vk->gamma2, "verifying key: gamma2", err)) != SP_OK ||
        (st = check_g2(&vk->delta2, "verifying key: delta2", err)) != SP_OK)
        return st;
    for (size_t i = 0; i <= vk->n_public; i++) {
        snprintf(what, sizeof what, "verifying key: IC[%zu]", i);
        if ((st = check_g1(&vk->ic[i], what, err)) != SP_OK)
            return st;
    }
    return SP_OK;
}

sp_status sp_g16_pvk_init(sp_g16_pvk *pvk, const sp_g16_vk *vk, char err[SP_ERR_LEN])
{
    memset(pvk, 0, sizeof *pvk);
    sp_status st = check_vk(vk, err);
    if (st != SP_OK)
        return st;
    pvk->lines = malloc(2 * sizeof *pvk->lines);
    pvk->ic = malloc(((size_t)vk->n_public + 1) * sizeof *pvk->ic);
    if (!pvk->lines || !pvk->ic) {
        sp_g16_pvk_free(pvk);
        sp_bin_errf(err, "verifying key: out of memory");
        return SP_ERR_NOMEM;
    }
    memcpy(pvk->ic, vk->ic, ((size_t)vk->n_public + 1) * sizeof *pvk->ic);
    pvk->n_public = vk->n_public;
    sp_g2_prepare(&pvk->lines[0], &vk->gamma2);
    sp_g2_prepare(&pvk->lines[1], &vk->delta2);
    sp_pairing(&pvk->alphabeta, &vk->alpha1, &vk->beta2);
    return SP_OK;
}

void sp_g16_pvk_free(sp_g16_pvk *pvk)
{
    free(pvk->lines);
    free(pvk->ic);
    memset(pvk, 0, sizeof *pvk);
}

static sp_status check_proof(const sp_g16_proof *p, size_t index, int batch, char *err)
{
    char what[3][40];
    static const char *names[3] = {"A", "B", "C"};
    for (int i = 0; i < 3; i++) {
        if (batch)
            snprintf(what[i], sizeof what[i], "proof %zu: %s", index, names[i]);
        else
            snprintf(what[i], sizeof what[i], "proof: %s", names[i]);
    }
    sp_status st;
    if ((st = check_g1(&p->a, what[0], err)) != SP_OK || (st = check_g2(&p->b, what[1], err)) != SP_OK ||
        (st = check_g1(&p->c, what[2], err)) != SP_OK)
        return st;
    return SP_OK;
}

static void add_mul(sp_g1_jac *acc, const sp_g1_affine *p, const sp_fr *k)
{
    uint64_t e[SP_FR_LIMBS];
    sp_g1_jac t;
    sp_fr_to_canonical(e, k);
    sp_g1_jac_from_affine(&t, p);
    sp_g1_mul_var(&t, &t, e, SP_FR_LIMBS);
    sp_g1_jac_add_var(acc, acc, &t);
}

/* out = -(s_0 IC_0 + sum_i s_i IC_i) with s given for i = 0..n_public. */
static void neg_ic_combination(sp_g1_affine *out, const sp_g16_pvk *pvk, const sp_fr *s)
{
    sp_g1_jac acc;
    sp_g1_jac_set_inf(&acc);
    for (size_t i = 0; i <= pvk->n_public; i++)
        if (!sp_fr_is_zero(&s[i]))
            add_mul(&acc, &pvk->ic[i], &s[i]);
    sp_g1_jac_neg(&acc, &acc);
    sp_g1_jac_to_affine(out, &acc);
}

sp_status sp_g16_verify(int *valid, const sp_g16_pvk *pvk, const sp_g16_proof *proof, const sp_fr *pub,
                        size_t n_pub, char err[SP_ERR_LEN])
{
    *valid = 0;
    if (n_pub != pvk->n_public) {
        sp_bin_errf(err, "the key expects %u public inputs, %zu given", pvk->n_public, n_pub);
        return SP_ERR_INVALID_ARG;
    }
    sp_status st = check_proof(proof, 0, 0, err);
    if (st != SP_OK)
        return st;
    sp_fr *s = malloc(((size_t)n_pub + 1) * sizeof *s);
    sp_g2_prepared *q = malloc(3 * sizeof *q); /* B, gamma2, delta2 */
    if (!s || !q) {
        free(s);
        free(q);
        sp_bin_errf(err, "verify: out of memory");
        return SP_ERR_NOMEM;
    }
    sp_fr_set_one(&s[0]);
    memcpy(s + 1, pub, n_pub * sizeof *s);
    sp_g1_affine p[3];
    p[0] = proof->a;
    neg_ic_combination(&p[1], pvk, s);
    sp_g1_affine_neg(&p[2], &proof->c);
    sp_g2_prepare(&q[0], &proof->b);
    memcpy(&q[1], pvk->lines, 2 * sizeof *q);
    sp_fp12 f;
    sp_multi_miller_loop_prepared(&f, p, q, 3);
    sp_final_exp(&f, &f);
    *valid = sp_fp12_eq(&f, &pvk->alphabeta);
    free(s);
    free(q);
    return SP_OK;
}

/* ---- batches ---- */

typedef struct {
    sp_fr *z;         /* n coefficients */
    sp_fr *s;         /* n_public + 1 sums: s_0 = sum z_k, s_i = sum z_k x_{k,i} */
    sp_g1_affine *p;  /* n + 2 G1 points of the loop */
    sp_g2_affine *q;  /* n G2 points (the B_k) */
} batch_mem;

static void batch_free(batch_mem *m)
{
    free(m->z);
    free(m->s);
    free(m->p);
    free(m->q);
}

/* z_k: 128 random bits, the lowest forced to 1 so that no z_k is zero. */
static sp_status draw_coefficients(sp_fr *z, size_t n, char *err)
{
    for (size_t k = 0; k < n; k++) {
        uint8_t b[16];
        uint64_t l[SP_FR_LIMBS] = {0, 0, 0, 0};
        if (sp_os_random(b, sizeof b) != SP_OK) {
            sp_bin_errf(err, "verify: the OS random number generator failed");
            return SP_ERR_IO;
        }
        for (int i = 0; i < 16; i++)
            l[i / 8] |= (uint64_t)b[i] << (8 * (i % 8));
        l[0] |= 1;
        sp_fr_from_canonical(&z[k], l); /* < 2^128 < r: always accepted */
    }
    return SP_OK;
}

/* The G1 side: p[k] = z_k A_k, p[n] = -(sum z_k cpub_k), p[n+1] = -(sum z_k C_k). */
static void batch_g1(batch_mem *m, const sp_g16_pvk *pvk, const sp_g16_proof *proofs, size_t n, const sp_fr *pub)
{
    size_t np = pvk->n_public;
    sp_g1_jac c_acc;
    sp_g1_jac_set_inf(&c_acc);
    for (size_t i = 0; i <= np; i++)
        sp_fr_set_zero(&m->s[i]);
    for (size_t k = 0; k < n; k++) {
        uint64_t e[SP_FR_LIMBS];
        sp_g1_jac t;
        sp_fr_to_canonical(e, &m->z[k]);
        sp_g1_jac_from_affine(&t, &proofs[k].a);
        sp_g1_mul_var(&t, &t, e, 2); /* z_k < 2^128 */
        sp_g1_jac_to_affine(&m->p[k], &t);
        sp_g1_jac_from_affine(&t, &proofs[k].c);
        sp_g1_mul_var(&t, &t, e, 2);
        sp_g1_jac_add_var(&c_acc, &c_acc, &t);
        sp_fr_add(&m->s[0], &m->s[0], &m->z[k]);
        for (size_t i = 0; i < np; i++) {
            sp_fr zx;
            sp_fr_mul(&zx, &m->z[k], &pub[k * np + i]);
            sp_fr_add(&m->s[i + 1], &m->s[i + 1], &zx);
        }
        m->q[k] = proofs[k].b;
    }
    neg_ic_combination(&m->p[n], pvk, m->s);
    sp_g1_jac_neg(&c_acc, &c_acc);
    sp_g1_jac_to_affine(&m->p[n + 1], &c_acc);
}

static sp_status batch_check(int *valid, const sp_g16_pvk *pvk, const sp_g16_proof *proofs, size_t n,
                             const sp_fr *pub, batch_mem *m, char *err)
{
    sp_status st = draw_coefficients(m->z, n, err);
    if (st != SP_OK)
        return st;
    batch_g1(m, pvk, proofs, n, pub);
    sp_fp12 f, g, target;
    sp_multi_miller_loop(&f, m->p, m->q, n);
    sp_multi_miller_loop_prepared(&g, m->p + n, pvk->lines, 2);
    sp_fp12_mul(&f, &f, &g);
    sp_final_exp(&f, &f);
    uint64_t e[SP_FR_LIMBS];
    sp_fr_to_canonical(e, &m->s[0]);
    sp_fp12_pow_var(&target, &pvk->alphabeta, e, SP_FR_LIMBS);
    *valid = sp_fp12_eq(&f, &target);
    return SP_OK;
}

sp_status sp_g16_verify_batch(int *valid, const sp_g16_pvk *pvk, const sp_g16_proof *proofs, size_t n_proofs,
                              const sp_fr *pub, size_t n_pub, char err[SP_ERR_LEN])
{
    *valid = 0;
    if (n_pub != pvk->n_public) {
        sp_bin_errf(err, "the key expects %u public inputs, %zu given per proof", pvk->n_public, n_pub);
        return SP_ERR_INVALID_ARG;
    }
    for (size_t k = 0; k < n_proofs; k++) {
        sp_status st = check_proof(&proofs[k], k, 1, err);
        if (st != SP_OK)
            return st;
    }
    if (n_proofs == 0) {
        *valid = 1;
        return SP_OK;
    }
    batch_mem m;
    m.z = malloc(n_proofs * sizeof *m.z);
    m.s = malloc(((size_t)n_pub + 1) * sizeof *m.s);
    m.p = malloc((n_proofs + 2) * sizeof *m.p);
    m.q = malloc(n_proofs * sizeof *m.q);
    sp_status st = SP_ERR_NOMEM;
    if (m.z && m.s && m.p && m.q)
        st = batch_check(valid, pvk, proofs, n_proofs, pub, &m, err);
    else
        sp_bin_errf(err, "verify: out of memory for a batch of %zu", n_proofs);
    batch_free(&m);
    return st;
}
