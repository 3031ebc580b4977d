/* QAP evaluation at tau (see qap.h). */
#include <stdlib.h>
#include "groth16/qap.h"

void sp_fr_batch_inv(sp_fr *r, const sp_fr *a, sp_fr *scratch, size_t n)
{
    if (n == 0)
        return;
    sp_fr acc;
    sp_fr_set_one(&acc);
    for (size_t i = 0; i < n; i++) {
        scratch[i] = acc; /* product of a[0..i) */
        sp_fr_mul(&acc, &acc, &a[i]);
    }
    sp_fr_inv(&acc, &acc);
    for (size_t i = n; i-- > 0;) {
        sp_fr t;
        sp_fr_mul(&t, &acc, &scratch[i]);
        sp_fr_mul(&acc, &acc, &a[i]);
        r[i] = t;
    }
}

/*
 * out[j] = (tau^m - 1) / m * x_j / (tau - x_j) for the m points
 * x_j = first * step^j of a subgroup (or coset) where x^m = 1: the Lagrange
 * basis of the m-point domain, read at stride `stride` from x_0 = first.
 */
static sp_status lagrange_points(sp_fr *out, size_t count, size_t m, const sp_fr *first, const sp_fr *step,
                                 const sp_fr *tau)
{
    sp_fr *den = calloc(count, sizeof(sp_fr)), *scratch = malloc(sizeof(sp_fr) * count);
    sp_fr *x = malloc(sizeof(sp_fr) * count);
    if (!den || !scratch || !x) {
        free(den), free(scratch), free(x);
        return SP_ERR_NOMEM;
    }
    sp_fr xi = *first;
    for (size_t j = 0; j < count; j++) {
        x[j] = xi;
        sp_fr_sub(&den[j], tau, &xi);
        if (sp_fr_is_zero(&den[j])) {
            free(den), free(scratch), free(x);
            return SP_ERR_INVALID_ARG; /* tau is a domain point */
        }
        sp_fr_mul(&xi, &xi, step);
    }
    sp_fr_batch_inv(den, den, scratch, count);
    sp_fr zt, mm, one; /* (tau^m - 1) / m */
    uint64_t e = m;
    sp_fr_pow(&zt, tau, &e, 1);
    sp_fr_set_one(&one);
    sp_fr_sub(&zt, &zt, &one);
    sp_fr_set_u64(&mm, m);
    sp_fr_inv(&mm, &mm);
    sp_fr_mul(&zt, &zt, &mm);
    for (size_t j = 0; j < count; j++) {
        sp_fr_mul(&out[j], &x[j], &den[j]);
        sp_fr_mul(&out[j], &out[j], &zt);
    }
    free(den), free(scratch), free(x);
    return SP_OK;
}

sp_status sp_qap_lagrange_at(sp_fr *lag, const sp_ntt_domain *d, const sp_fr *tau)
{
    sp_fr one;
    sp_fr_set_one(&one);
    return lagrange_points(lag, d->n, d->n, &one, &d->omega, tau);
}

sp_status sp_qap_odd_lagrange_at(sp_fr *out, const sp_ntt_domain *d, const sp_fr *tau)
{
    /* Odd points of the 2n-point domain: omega_2n * omega^j, j < n. */
    sp_status st = lagrange_points(out, d->n, 2 * d->n, &d->omega_2n, &d->omega, tau);
    if (st != SP_OK)
        return st;
    /* tau must also avoid the even points, where the 2n-point basis would
     * divide by zero for the terms we dropped. */
    sp_fr t, one;
    uint64_t e = d->n;
    sp_fr_pow(&t, tau, &e, 1);
    sp_fr_set_one(&one);
    return sp_fr_eq(&t, &one) ? SP_ERR_INVALID_ARG : SP_OK;
}

static void accumulate(sp_fr *acc, const sp_csr *m, const sp_fr *lag)
{
    for (size_t row = 0; row < m->n_rows; row++)
        for (uint64_t k = m->row[row]; k < m->row[row + 1]; k++) {
            sp_fr t;
            sp_fr_mul(&t, &m->val[k], &lag[row]);
            sp_fr_add(&acc[m->col[k]], &acc[m->col[k]], &t);
        }
}

void sp_qap_wires_at(sp_fr *a, sp_fr *b, sp_fr *c, const sp_r1cs *cs, const sp_fr *lag)
{
    for (uint32_t i = 0; i < cs->h.n_wires; i++) {
        sp_fr_set_zero(&a[i]);
        sp_fr_set_zero(&b[i]);
        sp_fr_set_zero(&c[i]);
    }
    accumulate(a, &cs->a, lag);
    accumulate(b, &cs->b, lag);
    accumulate(c, &cs->c, lag);
    uint32_t n_pub = sp_r1cs_n_public(&cs->h);
    for (uint32_t s = 0; s <= n_pub; s++) /* input-consistency rows */
        sp_fr_add(&a[s], &a[s], &lag[cs->h.n_constraints + s]);
}
