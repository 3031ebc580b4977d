/* Groth16 prover core (see prove.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "groth16/prove.h"
#include "msm/msm.h"
#include "ntt/hstep.h"

sp_g16_prove_opts sp_g16_prove_opts_default(void)
{
    sp_g16_prove_opts o = {0, 1, NULL, NULL};
    return o;
}

sp_ntt_roots sp_g16_roots_for(const sp_g16_pk *pk)
{
    return pk->h_kind == SP_G16_H_SNARKJS ? SP_NTT_ROOTS_SNARKJS : SP_NTT_ROOTS_ZKCRYPTO;
}

sp_status sp_fr_random_os(sp_fr *r)
{
    /* Rejection sampling on 255 bits: uniform, about two draws on average. */
    for (;;) {
        uint8_t buf[SP_FR_BYTES];
        if (sp_os_random(buf, sizeof buf) != SP_OK)
            return SP_ERR_IO;
        buf[SP_FR_BYTES - 1] &= 0x7f;
        sp_fr t;
        if (sp_fr_from_bytes_le(&t, buf) == SP_OK && !sp_fr_is_zero(&t)) {
            *r = t;
            memset(buf, 0, sizeof buf);
            return SP_OK;
        }
    }
}

/* The five MSMs of one proof, in Jacobian form. */
typedef struct {
    sp_g1_jac a, b1, c, h;
    sp_g2_jac b2;
} msm_results;

static sp_status run_msms(msm_results *m, const sp_g16_pk *pk, const sp_scalar *ws, const sp_scalar *hs,
                          const sp_g16_prove_opts *o)
{
    sp_msm_config cfg = sp_msm_config_default();
    cfg.threads = o->threads;
    size_t nv = pk->n_vars, npub = pk->vk.n_public;
    sp_status (*g1)(sp_g1_jac *, const sp_g1_affine *, const sp_scalar *, size_t, const sp_msm_config *) =
        o->split_msm ? sp_msm_g1_split_var : sp_msm_g1_var;
    sp_status (*g2)(sp_g2_jac *, const sp_g2_affine *, const sp_scalar *, size_t, const sp_msm_config *) =
        o->split_msm ? sp_msm_g2_split_var : sp_msm_g2_var;
    sp_status st;
    if ((st = g1(&m->a, pk->a, ws, nv, &cfg)) != SP_OK || (st = g1(&m->b1, pk->b1, ws, nv, &cfg)) != SP_OK ||
        (st = g2(&m->b2, pk->b2, ws, nv, &cfg)) != SP_OK ||
        (st = g1(&m->c, pk->c, ws + npub + 1, nv - npub - 1, &cfg)) != SP_OK)
        return st;
    return sp_msm_g1_var(&m->h, pk->h, hs, pk->n_h, &cfg);
}

static void add_affine_g1(sp_g1_jac *r, const sp_g1_affine *p) { sp_g1_jac_add_affine_var(r, r, p); }

static void mul_affine_g1(sp_g1_jac *r, const sp_g1_affine *p, const sp_fr *k)
{
    sp_g1_jac t;
    sp_g1_jac_from_affine(&t, p);
    sp_g1_mul(r, &t, k);
}

/* Blinding and assembly: the second half of the recipe in prove.h. */
static void assemble(sp_g16_proof *proof, const sp_g16_pk *pk, msm_results *m, const sp_fr *r, const sp_fr *s)
{
    const sp_g16_vk *vk = &pk->vk;
    sp_g1_jac t, a, b1, c;
    sp_g2_jac t2, b2;

    a = m->a; /* A = alpha1 + A' + r delta1 */
    add_affine_g1(&a, &vk->alpha1);
    mul_affine_g1(&t, &vk->delta1, r);
    sp_g1_jac_add(&a, &a, &t);

    b1 = m->b1; /* B1 = beta1 + B1' + s delta1 */
    add_affine_g1(&b1, &vk->beta1);
    mul_affine_g1(&t, &vk->delta1, s);
    sp_g1_jac_add(&b1, &b1, &t);

    b2 = m->b2; /* B = beta2 + B2' + s delta2 */
    sp_g2_jac_add_affine_var(&b2, &b2, &vk->beta2);
    sp_g2_jac_from_affine(&t2, &vk->delta2);
    sp_g2_mul(&t2, &t2, s);
    sp_g2_jac_add(&b2, &b2, &t2);

    sp_fr rs; /* C = C' + H' + s A + r B1 - r s delta1 */
    sp_g1_jac_add(&c, &m->c, &m->h);
    sp_g1_mul(&t, &a, s);
    sp_g1_jac_add(&c, &c, &t);
    sp_g1_mul(&t, &b1, r);
    sp_g1_jac_add(&c, &c, &t);
    sp_fr_mul(&rs, r, s);
    sp_fr_neg(&rs, &rs);
    mul_affine_g1(&t, &vk->delta1, &rs);
    sp_g1_jac_add(&c, &c, &t);

    sp_g1_jac_to_affine(&proof->a, &a);
    sp_g2_jac_to_affine(&proof->b, &b2);
    sp_g1_jac_to_affine(&proof->c, &c);
    memset(&rs, 0, sizeof rs);
}

static sp_status check_sizes(const sp_g16_pk *pk, size_t w_len, const sp_ntt_domain *d, char err[SP_ERR_LEN])
{
    if (w_len != pk->n_vars) {
        snprintf(err, SP_ERR_LEN, "witness has %zu values, the key expects %u", w_len, pk->n_vars);
        return SP_ERR_INVALID_ARG;
    }
    if (d->n != pk->domain_size || d->roots != sp_g16_roots_for(pk)) {
        snprintf(err, SP_ERR_LEN, "domain of size %zu (roots %d) does not match the key (size %u, roots %d)", d->n,
                 (int)d->roots, pk->domain_size, (int)sp_g16_roots_for(pk));
        return SP_ERR_INVALID_ARG;
    }
    return SP_OK;
}

sp_status sp_g16_prove(sp_g16_proof *proof, const sp_g16_pk *pk, const sp_fr *w, size_t w_len, sp_fr *a, sp_fr *b,
                       sp_fr *c, const sp_ntt_domain *d, const sp_g16_prove_opts *opts, char err[SP_ERR_LEN])
{
    sp_g16_prove_opts o = opts ? *opts : sp_g16_prove_opts_default();
    sp_status st = check_sizes(pk, w_len, d, err);
    if (st != SP_OK)
        return st;
    sp_fr r, s;
    if (o.insecure_fixed_r && o.insecure_fixed_s) {
        r = *o.insecure_fixed_r;
        s = *o.insecure_fixed_s;
    } else if (sp_fr_random_os(&r) != SP_OK || sp_fr_random_os(&s) != SP_OK) {
        snprintf(err, SP_ERR_LEN, "no randomness from the operating system (getrandom failed)");
        return SP_ERR_IO;
    }
    int nt = o.threads > 0 ? o.threads : (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (pk->h_kind == SP_G16_H_SNARKJS)
        sp_h_snarkjs(a, a, b, c, d, nt);
    else
        sp_h_bellperson(a, a, b, c, d, nt);

    sp_scalar *ws = malloc(sizeof(sp_scalar) * w_len), *hs = malloc(sizeof(sp_scalar) * pk->n_h);
    msm_results m;
    if (!ws || !hs) {
        st = SP_ERR_NOMEM;
        snprintf(err, SP_ERR_LEN, "out of memory for %zu MSM scalars", w_len + pk->n_h);
    } else {
        sp_msm_scalars_from_fr(ws, w, w_len);
        sp_msm_scalars_from_fr(hs, a, pk->n_h);
        st = run_msms(&m, pk, ws, hs, &o);
        if (st != SP_OK)
            snprintf(err, SP_ERR_LEN, "MSM failed: %s", sp_status_str(st));
        else
            assemble(proof, pk, &m, &r, &s);
    }
    free(ws);
    free(hs);
    memset(&r, 0, sizeof r);
    memset(&s, 0, sizeof s);
    return st;
}
