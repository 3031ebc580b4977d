/* QAP evaluation at tau (see qap.h). */
#include <stdatomic.h>
#include <stdlib.h>
#include "groth16/qap.h"
#include "util/par.h"

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

/* ---- Lagrange bases ---- */

#define LAG_RUN 1024   /* points per inversion (Montgomery's trick on the stack) */
#define LAG_GRAIN 256  /* fewest points worth a thread (tests reach several threads) */

/*
 * out[j] = zt * x_j / (tau - x_j) for the points x_j = first * step^j,
 * j < count: with zt = (tau^m - 1) / m and x^m = 1 on the m points of a
 * subgroup (or coset), the Lagrange basis of that m-point domain.
 */
typedef struct {
    sp_fr *out;
    size_t count;
    sp_fr first, step, tau, zt;
    atomic_int on_domain; /* set when tau is one of the points */
} lag_ctx;

/* One run [lo, hi), hi - lo <= LAG_RUN; *x is x_lo on input, x_hi on output. */
static int lag_run(lag_ctx *c, size_t lo, size_t hi, sp_fr *x)
{
    sp_fr pre[LAG_RUN], acc, den;
    sp_fr_set_one(&acc);
    for (size_t j = lo; j < hi; j++) {
        c->out[j] = *x;
        sp_fr_sub(&den, &c->tau, x);
        pre[j - lo] = acc; /* product of the denominators before j */
        sp_fr_mul(&acc, &acc, &den);
        sp_fr_mul(x, x, &c->step);
    }
    if (sp_fr_is_zero(&acc))
        return 1;
    sp_fr_inv(&acc, &acc);
    sp_fr_mul(&acc, &acc, &c->zt); /* zt / (all denominators) */
    for (size_t j = hi; j-- > lo;) {
        sp_fr inv;
        sp_fr_mul(&inv, &acc, &pre[j - lo]); /* zt / den_j */
        sp_fr_sub(&den, &c->tau, &c->out[j]);
        sp_fr_mul(&acc, &acc, &den);
        sp_fr_mul(&c->out[j], &c->out[j], &inv);
    }
    return 0;
}

static void lag_worker(sp_par *par, int tid, void *arg)
{
    lag_ctx *c = arg;
    size_t lo, hi;
    sp_par_range(&lo, &hi, c->count, tid, par->nthreads);
    sp_fr x;
    uint64_t e = lo;
    sp_fr_pow(&x, &c->step, &e, 1);
    sp_fr_mul(&x, &x, &c->first);
    for (size_t s = lo; s < hi; s += LAG_RUN) {
        if (lag_run(c, s, hi - s < LAG_RUN ? hi : s + LAG_RUN, &x)) {
            atomic_store(&c->on_domain, 1);
            return;
        }
    }
}

static sp_status lagrange_points(sp_fr *out, size_t count, size_t m, const sp_fr *first, const sp_fr *step,
                                 const sp_fr *tau, int threads)
{
    lag_ctx c = {.out = out, .count = count, .first = *first, .step = *step, .tau = *tau};
    atomic_init(&c.on_domain, 0);
    sp_fr mm, one;
    uint64_t e = m;
    sp_fr_pow(&c.zt, tau, &e, 1);
    sp_fr_set_one(&one);
    sp_fr_sub(&c.zt, &c.zt, &one);
    sp_fr_set_u64(&mm, m);
    sp_fr_inv(&mm, &mm);
    sp_fr_mul(&c.zt, &c.zt, &mm);
    sp_par_run(sp_par_threads_for(threads, count, LAG_GRAIN), lag_worker, &c);
    return atomic_load(&c.on_domain) ? SP_ERR_INVALID_ARG : SP_OK; /* tau is a domain point */
}

sp_status sp_qap_lagrange_at(sp_fr *lag, const sp_ntt_domain *d, const sp_fr *tau, int threads)
{
    sp_fr one;
    sp_fr_set_one(&one);
    return lagrange_points(lag, d->n, d->n, &one, &d->omega, tau, threads);
}

sp_status sp_qap_odd_lagrange_at(sp_fr *out, const sp_ntt_domain *d, const sp_fr *tau, int threads)
{
    /* Odd points of the 2n-point domain: omega_2n * omega^j, j < n. */
    sp_status st = lagrange_points(out, d->n, 2 * d->n, &d->omega_2n, &d->omega, tau, threads);
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

/* ---- per-wire sums ---- */

/*
 * acc[col] += val * lag[row] over a matrix, in slices of WIRES_SLICE
 * entries: the threads first multiply a slice's entries (an equal share
 * each, whatever the rows look like), then each adds the products of its
 * own range of wires. So a wire used by many rows (wire 0 in every
 * boolean constraint) costs additions, not one thread's multiplications,
 * and every sum is taken in entry order: the result is the serial one.
 */
#define WIRES_SLICE ((uint64_t)1 << 19)
#define WIRES_GRAIN 256

typedef struct {
    const sp_qap_matrix *m;
    sp_fr *const *acc;
    const sp_fr *lag;
    sp_fr *prod; /* WIRES_SLICE products */
    size_t n_wires;
} wires_ctx;

/* The row holding entry k: the last r with row[r] <= k. */
static size_t row_of(const sp_qap_matrix *m, uint64_t k)
{
    size_t lo = 0, hi = m->n_rows; /* row[lo] <= k < row[hi] */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->row[mid] <= k)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static void wires_matrix(sp_par *par, int tid, const wires_ctx *c, const sp_qap_matrix *m, sp_fr *acc)
{
    size_t wlo, whi;
    sp_par_range(&wlo, &whi, c->n_wires, tid, par->nthreads);
    for (size_t i = wlo; i < whi; i++)
        sp_fr_set_zero(&acc[i]);
    for (uint64_t e0 = 0; e0 < m->nnz; e0 += WIRES_SLICE) {
        uint64_t e1 = m->nnz - e0 < WIRES_SLICE ? m->nnz : e0 + WIRES_SLICE;
        size_t lo, hi;
        sp_par_range(&lo, &hi, (size_t)(e1 - e0), tid, par->nthreads);
        if (lo < hi) {
            size_t row = row_of(m, e0 + lo);
            for (uint64_t k = e0 + lo; k < e0 + hi; k++) {
                while (m->row[row + 1] <= k)
                    row++;
                sp_fr_mul(&c->prod[k - e0], m->val ? &m->val[k] : &m->coef[m->kid[k]], &c->lag[row]);
            }
        }
        sp_par_sync(par);
        for (uint64_t k = e0; k < e1; k++) {
            uint32_t w = m->col[k];
            if (w >= wlo && w < whi)
                sp_fr_add(&acc[w], &acc[w], &c->prod[k - e0]);
        }
        sp_par_sync(par); /* the products are overwritten next */
    }
}

static void wires_worker(sp_par *par, int tid, void *arg)
{
    wires_ctx *c = arg;
    for (int i = 0; i < 3; i++)
        wires_matrix(par, tid, c, &c->m[i], c->acc[i]);
}

sp_status sp_qap_matrices_at(sp_fr *const acc[3], const sp_qap_matrix m[3], size_t n_wires, uint64_t n_rows,
                            uint32_t n_public, const sp_fr *lag, int threads)
{
    uint64_t most = m[0].nnz > m[1].nnz ? m[0].nnz : m[1].nnz;
    most = most > m[2].nnz ? most : m[2].nnz;
    wires_ctx w = {m, acc, lag, NULL, n_wires};
    w.prod = malloc(sizeof(sp_fr) * (size_t)(most < WIRES_SLICE ? (most ? most : 1) : WIRES_SLICE));
    if (!w.prod)
        return SP_ERR_NOMEM;
    int nt = sp_par_threads_for(threads, most > n_wires ? most : n_wires, WIRES_GRAIN);
    sp_par_run(nt, wires_worker, &w);
    free(w.prod);
    for (uint32_t s = 0; s <= n_public; s++) /* input-consistency rows */
        sp_fr_add(&acc[0][s], &acc[0][s], &lag[n_rows + s]);
    return SP_OK;
}

sp_status sp_qap_wires_at(sp_fr *a, sp_fr *b, sp_fr *c, const sp_r1cs *cs, const sp_fr *lag, int threads)
{
    const sp_csr *src[3] = {&cs->a, &cs->b, &cs->c};
    sp_qap_matrix m[3];
    for (int i = 0; i < 3; i++)
        m[i] = (sp_qap_matrix){src[i]->row, src[i]->n_rows, src[i]->nnz, src[i]->col, src[i]->val, NULL, NULL};
    sp_fr *const acc[3] = {a, b, c};
    return sp_qap_matrices_at(acc, m, cs->h.n_wires, cs->h.n_constraints, sp_r1cs_n_public(&cs->h), lag, threads);
}
