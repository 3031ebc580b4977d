/* Groth16 prover core (see prove.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "groth16/prove.h"
#include "util/hugemem.h"
#include "util/progress.h"

/* The progress units of one backend call (backend.h) and of the whole
 * start + finish. */
static uint64_t device_units(const sp_g16_pk *pk, int g2)
{
    uint64_t nv = pk->n_vars, nc = nv - pk->vk.n_public - 1;
    return pk->domain_size / 2 + pk->n_h + 2 * nv + nc + (g2 ? SP_G16_PROGRESS_G2 * nv : 0);
}

uint64_t sp_g16_prove_progress_units(const sp_g16_pk *pk) { return device_units(pk, 1); }

sp_g16_prove_opts sp_g16_prove_opts_default(void)
{
    sp_g16_prove_opts o = {0, 1, NULL, 1, NULL, NULL, NULL, NULL, NULL};
    return o;
}

static void add_affine_g1(sp_g1_jac *r, const sp_g1_affine *p) { sp_g1_jac_add_affine_var(r, r, p); }

static void mul_affine_g1(sp_g1_jac *r, const sp_g1_affine *p, const sp_fr *k)
{
    sp_g1_jac t;
    sp_g1_jac_from_affine(&t, p);
    sp_g1_mul(r, &t, k);
}

/* Blinding and assembly: the second half of the recipe in prove.h. */
static void assemble(sp_g16_proof *proof, const sp_g16_pk *pk, const sp_g16_partial *m, const sp_fr *r,
                     const sp_fr *s)
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

/* The witness's length here; the domain by the backend (sp_backend_fill),
 * after a fill has made it. */
static sp_status check_sizes(const sp_g16_pk *pk, size_t w_len, char err[SP_ERR_LEN])
{
    if (w_len != pk->n_vars) {
        snprintf(err, SP_ERR_LEN, "witness has %zu values, the key expects %u", w_len, pk->n_vars);
        return SP_ERR_INVALID_ARG;
    }
    return SP_OK;
}

/* The backend call of the start phase on be (a, b, c consumed). */
static sp_status device_on(sp_g16_partial *part, const sp_g16_pk *pk, const sp_fr *w, sp_fr *a, sp_fr *b, sp_fr *c,
                           const sp_ntt_domain *d, sp_backend *be, const sp_g16_prove_opts *o, char err[SP_ERR_LEN])
{
    const sp_backend_proof in = {pk, o->fill ? NULL : d, w, a, b, c, o->split_msm, o->g2_on_backend, o->fill,
                                 o->fill_ctx, o->pause};
    sp_backend_msms m;
    uint64_t before = sp_progress_done(), units = device_units(pk, in.g2);
    sp_progress_part("device call");
    sp_status st = be->prove(be, &m, &in, err);
    if (st != SP_OK)
        return st;
    uint64_t counted = sp_progress_done() - before;
    if (counted < units) /* what the backend did not count itself */
        sp_progress_add(units - counted);
    part->a = m.a;
    part->b1 = m.b1;
    part->c = m.c;
    part->h = m.h;
    part->b2 = m.b2;
    part->have_b2 = in.g2;
    return SP_OK;
}

sp_status sp_g16_prove_device(sp_g16_partial *part, const sp_g16_pk *pk, const sp_fr *w, size_t w_len, sp_fr *a,
                              sp_fr *b, sp_fr *c, const sp_ntt_domain *d, const sp_g16_prove_opts *opts,
                              char err[SP_ERR_LEN])
{
    sp_g16_prove_opts o = opts ? *opts : sp_g16_prove_opts_default();
    memset(part, 0, sizeof *part);
    sp_status st = check_sizes(pk, w_len, err);
    if (st != SP_OK)
        return st;
    sp_backend *be = o.backend, *own = NULL;
    if (!be) {
        if ((st = sp_backend_cpu_open(&own, o.threads)) != SP_OK) {
            snprintf(err, SP_ERR_LEN, "out of memory for the CPU backend");
            return st;
        }
        be = own;
    }
    st = device_on(part, pk, w, a, b, c, d, be, &o, err);
    sp_backend_close(own);
    if (st != SP_OK)
        sp_g16_partial_free(part);
    return st;
}

sp_status sp_g16_prove_keep_scalars(sp_g16_partial *part, const sp_fr *w, size_t w_len, const sp_g16_prove_opts *opts,
                                    char err[SP_ERR_LEN])
{
    if (part->have_b2 || part->ws)
        return SP_OK;
    if (!(part->ws = sp_huge_alloc(sizeof(sp_scalar) * w_len))) {
        snprintf(err, SP_ERR_LEN, "out of memory for %zu witness scalars", w_len);
        return SP_ERR_NOMEM;
    }
    sp_msm_scalars_from_fr_par(part->ws, w, w_len, opts ? opts->threads : 0);
    part->n_ws = w_len;
    return SP_OK;
}

sp_status sp_g16_prove_start(sp_g16_partial *part, const sp_g16_pk *pk, const sp_fr *w, size_t w_len, sp_fr *a,
                             sp_fr *b, sp_fr *c, const sp_ntt_domain *d, const sp_g16_prove_opts *opts,
                             char err[SP_ERR_LEN])
{
    sp_status st = sp_g16_prove_device(part, pk, w, w_len, a, b, c, d, opts, err);
    if (st == SP_OK && (st = sp_g16_prove_keep_scalars(part, w, w_len, opts, err)) != SP_OK)
        sp_g16_partial_free(part);
    return st;
}

void sp_g16_partial_free(sp_g16_partial *part)
{
    sp_huge_free(part->ws);
    memset(part, 0, sizeof *part);
}

sp_status sp_g16_prove_finish(sp_g16_proof *proof, sp_g16_partial *part, const sp_g16_pk *pk,
                              const sp_g16_prove_opts *opts, char err[SP_ERR_LEN])
{
    sp_g16_prove_opts o = opts ? *opts : sp_g16_prove_opts_default();
    sp_status st = SP_OK;
    if (!part->have_b2) {
        sp_backend cpu = {0};
        cpu.threads = o.threads;
        sp_progress_part("MSM B2 (G2)");
        st = sp_cpu_msm_g2(&cpu, &part->b2, pk->b2, part->ws, part->n_ws, o.split_msm, o.pause, err);
        sp_progress_add(SP_G16_PROGRESS_G2 * (uint64_t)pk->n_vars);
    }
    sp_fr r, s;
    if (st == SP_OK) {
        if (o.insecure_fixed_r && o.insecure_fixed_s) {
            r = *o.insecure_fixed_r;
            s = *o.insecure_fixed_s;
        } else if (sp_fr_random_os(&r) != SP_OK || sp_fr_random_os(&s) != SP_OK) {
            snprintf(err, SP_ERR_LEN, "no randomness from the operating system (getrandom failed)");
            st = SP_ERR_IO;
        }
    }
    if (st == SP_OK)
        assemble(proof, pk, part, &r, &s);
    memset(&r, 0, sizeof r);
    memset(&s, 0, sizeof s);
    sp_g16_partial_free(part);
    return st;
}

sp_status sp_g16_prove(sp_g16_proof *proof, const sp_g16_pk *pk, const sp_fr *w, size_t w_len, sp_fr *a, sp_fr *b,
                       sp_fr *c, const sp_ntt_domain *d, const sp_g16_prove_opts *opts, char err[SP_ERR_LEN])
{
    sp_g16_partial part;
    sp_status st = sp_g16_prove_start(&part, pk, w, w_len, a, b, c, d, opts, err);
    return st != SP_OK ? st : sp_g16_prove_finish(proof, &part, pk, opts, err);
}
