/* Sparse matrix-vector products for synthesis; contracts in synth.h. */
#include "synth/synth.h"

#include <inttypes.h>
#include <string.h>
#include "ntt/ntt.h"
#include "util/par.h"

#define SP_SYNTH_GRAIN 4096 /* rows per thread below which threads do not pay */

sp_status sp_synth_domain_log(unsigned *log_n, const sp_r1cs_header *h, char err[SP_ERR_LEN])
{
    uint64_t rows = (uint64_t)h->n_constraints + sp_r1cs_n_public(h) + 1;
    unsigned k = 0;
    while (((uint64_t)1 << k) < rows)
        k++;
    if (k > SP_NTT_MAX_LOG) {
        sp_bin_errf(err, "circuit needs a domain of 2^%u rows (%" PRIu64 " constraints and input rows); the limit is "
                         "2^%d", k, rows, SP_NTT_MAX_LOG);
        return SP_ERR_UNSUPPORTED;
    }
    *log_n = k;
    return SP_OK;
}

/* Coefficients 1 and -1 dominate circom output; they are public, so
 * branching on them leaks nothing about the witness. */
static sp_fr one_, minus_one_;
static pthread_once_t consts_once = PTHREAD_ONCE_INIT;

static void init_consts(void)
{
    sp_fr_set_one(&one_);
    sp_fr_neg(&minus_one_, &one_);
}

/* Equality of public constants: early exit is fine here. */
static inline int same(const sp_fr *a, const sp_fr *b)
{
    return a->l[0] == b->l[0] && a->l[1] == b->l[1] && a->l[2] == b->l[2] && a->l[3] == b->l[3];
}

void sp_synth_row_dot(sp_fr *out, const sp_csr *m, size_t i, const sp_fr *w)
{
    pthread_once(&consts_once, init_consts);
    sp_fr acc, t;
    sp_fr_set_zero(&acc);
    for (uint64_t k = m->row[i]; k < m->row[i + 1]; k++) {
        const sp_fr *v = &m->val[k], *x = &w[m->col[k]];
        if (same(v, &one_)) {
            sp_fr_add(&acc, &acc, x);
        } else if (same(v, &minus_one_)) {
            sp_fr_sub(&acc, &acc, x);
        } else {
            sp_fr_mul(&t, v, x);
            sp_fr_add(&acc, &acc, &t);
        }
    }
    *out = acc;
}

typedef struct {
    sp_fr *a, *b, *c; /* NULL in check-only mode */
    size_t n;
    const sp_r1cs *cs;
    const sp_fr *w;
    int check;
    size_t bad[256]; /* per thread: first failing row, or SIZE_MAX */
} synth_job;

static void synth_worker(sp_par *par, int tid, void *ctx)
{
    synth_job *job = ctx;
    const sp_r1cs *cs = job->cs;
    size_t nc = cs->h.n_constraints, lo, hi;
    sp_par_range(&lo, &hi, nc, tid, par->nthreads);
    for (size_t i = lo; i < hi; i++) {
        sp_fr x, y, z, xy;
        sp_synth_row_dot(&x, &cs->a, i, job->w);
        sp_synth_row_dot(&y, &cs->b, i, job->w);
        sp_fr_mul(&xy, &x, &y);
        if (job->check) {
            sp_synth_row_dot(&z, &cs->c, i, job->w);
            if (!sp_fr_eq(&xy, &z) && job->bad[tid] == SIZE_MAX)
                job->bad[tid] = i;
        } else {
            z = xy;
        }
        if (job->a) {
            job->a[i] = x;
            job->b[i] = y;
            job->c[i] = z;
        }
    }
    if (!job->a)
        return;
    /* input rows, then zero padding: split the tail between threads too */
    size_t npub = (size_t)sp_r1cs_n_public(&cs->h) + 1;
    sp_par_range(&lo, &hi, job->n - nc, tid, par->nthreads);
    for (size_t r = nc + lo; r < nc + hi; r++) {
        if (r - nc < npub)
            job->a[r] = job->w[r - nc];
        else
            sp_fr_set_zero(&job->a[r]);
        sp_fr_set_zero(&job->b[r]);
        sp_fr_set_zero(&job->c[r]);
    }
}

static sp_status run(synth_job *job, int nthreads, size_t w_len, size_t *bad_row, char *err)
{
    const sp_r1cs *cs = job->cs;
    sp_status st = sp_wtns_check_circuit(w_len, &cs->h, err);
    if (st != SP_OK)
        return SP_ERR_INVALID_ARG;
    size_t rows = (size_t)cs->h.n_constraints + sp_r1cs_n_public(&cs->h) + 1;
    if (job->a && job->n < rows) {
        sp_bin_errf(err, "synth: domain of %zu rows is smaller than the %zu the circuit needs", job->n, rows);
        return SP_ERR_INVALID_ARG;
    }
    if (nthreads > 256)
        nthreads = 256;
    for (int t = 0; t < 256; t++)
        job->bad[t] = SIZE_MAX;
    size_t work = job->n > cs->h.n_constraints ? job->n : cs->h.n_constraints;
    sp_par_run(sp_par_threads_for(nthreads, work, SP_SYNTH_GRAIN), synth_worker, job);
    if (!job->check)
        return SP_OK;
    size_t first = SIZE_MAX;
    for (int t = 0; t < 256; t++)
        if (job->bad[t] < first)
            first = job->bad[t];
    if (first == SIZE_MAX)
        return SP_OK;
    if (bad_row)
        *bad_row = first;
    sp_bin_errf(err, "constraint %zu is not satisfied: <A,w> * <B,w> != <C,w>", first);
    return SP_ERR_UNSATISFIED;
}

sp_status sp_synth_abc(sp_fr *a, sp_fr *b, sp_fr *c, size_t n, const sp_r1cs *cs, const sp_fr *w, size_t w_len,
                       int check, int nthreads, size_t *bad_row, char err[SP_ERR_LEN])
{
    synth_job job = {.a = a, .b = b, .c = c, .n = n, .cs = cs, .w = w, .check = check};
    return run(&job, nthreads, w_len, bad_row, err);
}

sp_status sp_synth_check(const sp_r1cs *cs, const sp_fr *w, size_t w_len, int nthreads, size_t *bad_row,
                         char err[SP_ERR_LEN])
{
    synth_job job = {.cs = cs, .w = w, .check = 1};
    return run(&job, nthreads, w_len, bad_row, err);
}
