/*
 * The H step, both conventions (contracts in hstep.h). snarkjs: three
 * evaluation-to-coset transforms and a pointwise a*b - c. bellperson: the
 * same on the generator coset, the division by the constant Z(g*omega^j) =
 * g^n - 1, and a coset inverse transform back to coefficients.
 */
#include "ntt/hstep.h"

#include "util/par.h"

#define SP_H_GRAIN 4096

typedef struct {
    sp_fr *h;
    const sp_fr *a, *b, *c;
    size_t n;
    const sp_fr *scale; /* NULL, or a factor applied after the subtraction */
} pointwise_job;

/* h[i] = (a[i] * b[i] - c[i]) * scale */
static void pointwise_worker(sp_par *par, int tid, void *ctx)
{
    const pointwise_job *job = ctx;
    size_t lo, hi;
    sp_par_range(&lo, &hi, job->n, tid, par->nthreads);
    for (size_t i = lo; i < hi; i++) {
        sp_fr t;
        sp_fr_mul(&t, &job->a[i], &job->b[i]);
        sp_fr_sub(&t, &t, &job->c[i]);
        if (job->scale)
            sp_fr_mul(&t, &t, job->scale);
        job->h[i] = t;
    }
}

static void pointwise(sp_fr *h, const sp_fr *a, const sp_fr *b, const sp_fr *c, size_t n, const sp_fr *scale,
                      int nthreads)
{
    pointwise_job job = {h, a, b, c, n, scale};
    sp_par_run(sp_par_threads_for(nthreads, n, SP_H_GRAIN), pointwise_worker, &job);
}

/* a, b, c to the coset g, with a pause point before each */
static void to_coset(sp_fr *a, sp_fr *b, sp_fr *c, const sp_ntt_domain *d, const sp_fr *g, int nthreads,
                     const sp_pause *pause)
{
    sp_fr *v[3] = {a, b, c};
    for (int k = 0; k < 3; k++) {
        sp_pause_point(pause);
        sp_ntt_evals_to_coset(d, v[k], g, nthreads);
    }
    sp_pause_point(pause);
}

void sp_h_snarkjs(sp_fr *h, sp_fr *a, sp_fr *b, sp_fr *c, const sp_ntt_domain *d, int nthreads,
                  const sp_pause *pause)
{
    to_coset(a, b, c, d, &d->omega_2n, nthreads, pause);
    pointwise(h, a, b, c, d->n, NULL, nthreads);
}

void sp_h_bellperson(sp_fr *h, sp_fr *a, sp_fr *b, sp_fr *c, const sp_ntt_domain *d, int nthreads,
                     const sp_pause *pause)
{
    const sp_fr *g = &d->gen;
    to_coset(a, b, c, d, g, nthreads, pause);
    /* Z(g * omega^j) = g^n * omega^(jn) - 1 = g^n - 1 for every j */
    sp_fr z_inv, one;
    uint64_t e = d->n;
    sp_fr_pow(&z_inv, g, &e, 1);
    sp_fr_set_one(&one);
    sp_fr_sub(&z_inv, &z_inv, &one);
    sp_fr_inv(&z_inv, &z_inv);
    pointwise(h, a, b, c, d->n, &z_inv, nthreads);
    sp_pause_point(pause);
    sp_ntt_coset_inverse(d, h, g, nthreads);
}
