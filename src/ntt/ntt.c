/*
 * Radix-2 NTT: bit-reversal permutation, then iterative decimation-in-time
 * butterflies. The first log2(block) stages run block by block so that a
 * block stays in cache across those stages; each later stage is one pass
 * over the array, split between threads by butterfly index, with a barrier
 * between stages. The inverse is the forward transform followed by the
 * index reversal j -> -j mod n and the scaling by 1/n (and by a coset
 * factor when asked), fused into one pass. Contracts in ntt.h.
 */
#include "ntt/ntt.h"

#include <stdlib.h>
#include <string.h>
#include "util/hugemem.h"
#include "util/par.h"

#define SP_NTT_LOG_BLOCK 12 /* 4096 elements = 128 KiB: fits any L2 */
#define SP_NTT_GRAIN 2048   /* fewest elements per thread worth a thread */

static void fr_pow_u64(sp_fr *r, const sp_fr *a, uint64_t e)
{
    sp_fr_pow(r, a, &e, 1);
}

sp_status sp_ntt_root_of_unity(sp_fr *out, unsigned log_n, sp_ntt_roots roots)
{
    if (log_n > SP_NTT_TWO_ADICITY || (roots != SP_NTT_ROOTS_SNARKJS && roots != SP_NTT_ROOTS_ZKCRYPTO))
        return SP_ERR_INVALID_ARG;
    /* t = (r - 1) / 2^S: r - 1 differs from r in limb 0 only (r is odd). */
    uint64_t t[SP_FR_LIMBS];
    for (int i = 0; i < SP_FR_LIMBS; i++) {
        uint64_t lo = (i == 0 ? SP_FR_MODULUS[0] - 1 : SP_FR_MODULUS[i]) >> SP_NTT_TWO_ADICITY;
        uint64_t hi = i + 1 < SP_FR_LIMBS ? SP_FR_MODULUS[i + 1] << (64 - SP_NTT_TWO_ADICITY) : 0;
        t[i] = lo | hi;
    }
    sp_fr g, w;
    sp_fr_set_u64(&g, (uint64_t)roots);
    sp_fr_pow(&w, &g, t, SP_FR_LIMBS);
    for (unsigned k = SP_NTT_TWO_ADICITY; k > log_n; k--)
        sp_fr_sqr(&w, &w);
    *out = w;
    return SP_OK;
}

static inline uint64_t bitrev64(uint64_t x)
{
    x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
    x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
    x = ((x >> 4) & 0x0f0f0f0f0f0f0f0fULL) | ((x & 0x0f0f0f0f0f0f0f0fULL) << 4);
    return __builtin_bswap64(x);
}

static inline size_t bitrev(size_t i, unsigned bits)
{
    return bits ? (size_t)(bitrev64(i) >> (64 - bits)) : 0;
}

/* Fills out[lo..hi) with base^i (i = lo..hi): one pow, then products. */
static void powers(sp_fr *out, const sp_fr *base, size_t lo, size_t hi)
{
    if (lo >= hi)
        return;
    sp_fr p;
    fr_pow_u64(&p, base, lo);
    for (size_t i = lo; i < hi; i++) {
        out[i] = p;
        sp_fr_mul(&p, &p, base);
    }
}

typedef struct {
    sp_ntt_domain *d;
} tw_job;

/* The last stage's twiddles omega^j (j < n/2) go to tw[n/2 ..); every
 * earlier stage's are every other entry of the next one. */
static void tw_worker(sp_par *par, int tid, void *ctx)
{
    sp_ntt_domain *d = ((tw_job *)ctx)->d;
    size_t lo, hi, half = d->n / 2;
    sp_par_range(&lo, &hi, half, tid, par->nthreads);
    powers(d->tw + half, &d->omega, lo, hi);
    for (size_t m = half / 2; m >= 1; m /= 2) {
        sp_par_sync(par);
        sp_par_range(&lo, &hi, m, tid, par->nthreads);
        for (size_t j = lo; j < hi; j++)
            d->tw[m + j] = d->tw[2 * m + 2 * j];
    }
}

sp_status sp_ntt_domain_create(sp_ntt_domain **out, unsigned log_n, sp_ntt_roots roots, int nthreads)
{
    return sp_ntt_domain_create_blocked(out, log_n, roots, SP_NTT_LOG_BLOCK, nthreads);
}

sp_status sp_ntt_domain_create_blocked(sp_ntt_domain **out, unsigned log_n, sp_ntt_roots roots,
                                       unsigned log_block, int nthreads)
{
    *out = NULL;
    if (log_n > SP_NTT_MAX_LOG)
        return SP_ERR_INVALID_ARG;
    sp_ntt_domain *d = calloc(1, sizeof *d);
    if (!d)
        return SP_ERR_NOMEM;
    d->log_n = log_n;
    d->n = (size_t)1 << log_n;
    d->roots = roots;
    sp_status st = sp_ntt_root_of_unity(&d->omega, log_n, roots);
    if (st == SP_OK)
        st = sp_ntt_root_of_unity(&d->omega_2n, log_n + 1, roots);
    if (st != SP_OK) {
        free(d);
        return st;
    }
    sp_fr_inv(&d->omega_inv, &d->omega);
    sp_fr_set_u64(&d->n_inv, (uint64_t)d->n);
    sp_fr_inv(&d->n_inv, &d->n_inv);
    sp_fr_set_u64(&d->gen, (uint64_t)roots);
    d->block = log_block >= log_n ? d->n : ((size_t)1 << log_block);
    if (d->n > 1) {
        d->tw = sp_huge_alloc(d->n * sizeof(sp_fr));
        if (!d->tw) {
            sp_ntt_domain_free(d);
            return SP_ERR_NOMEM;
        }
        memset(&d->tw[0], 0, sizeof(sp_fr)); /* unused */
        tw_job job = {d};
        sp_par_run(sp_par_threads_for(nthreads, d->n / 2, SP_NTT_GRAIN), tw_worker, &job);
    }
    *out = d;
    return SP_OK;
}

void sp_ntt_domain_free(sp_ntt_domain *d)
{
    if (!d)
        return;
    sp_huge_free(d->tw);
    free(d);
}

/* ---- the transform ---- */

typedef struct {
    const sp_ntt_domain *d;
    sp_fr *a;
    const sp_fr *pre;  /* when set: a[i] *= pre^i before the transform */
    int inverse;       /* reverse and scale by 1/n after the transform */
    const sp_fr *post; /* with inverse, when set: also a[i] *= post^i */
    sp_fr post_inv;    /* post^-1 */
} ntt_job;

static inline void bfly(sp_fr *x, sp_fr *y, const sp_fr *w)
{
    sp_fr t;
    sp_fr_mul(&t, y, w);
    sp_fr_sub(y, x, &t);
    sp_fr_add(x, x, &t);
}

/* The butterfly with w = 1 (tw[m] = omega^0 begins every stage's twiddles). */
static inline void bfly1(sp_fr *x, sp_fr *y)
{
    sp_fr t = *y;
    sp_fr_sub(y, x, &t);
    sp_fr_add(x, x, &t);
}

static void pre_scale(const ntt_job *job, size_t lo, size_t hi)
{
    if (lo >= hi)
        return;
    sp_fr p;
    fr_pow_u64(&p, job->pre, lo);
    for (size_t i = lo; i < hi; i++) {
        sp_fr_mul(&job->a[i], &job->a[i], &p);
        sp_fr_mul(&p, &p, job->pre);
    }
}

static void bit_reverse(const ntt_job *job, size_t lo, size_t hi)
{
    sp_fr *a = job->a;
    for (size_t i = lo; i < hi; i++) {
        size_t j = bitrev(i, job->d->log_n);
        if (i < j) {
            sp_fr t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
    }
}

/* All stages with butterfly span <= block, on one block at p. */
static void small_stages(const sp_ntt_domain *d, sp_fr *p)
{
    size_t b = d->block;
    for (size_t m = 1; m < b; m <<= 1) {
        const sp_fr *w = d->tw + m;
        for (size_t g = 0; g < b; g += 2 * m) {
            sp_fr *x = p + g;
            bfly1(&x[0], &x[m]);
            for (size_t j = 1; j < m; j++)
                bfly(&x[j], &x[j + m], &w[j]);
        }
    }
}

/* Butterflies lo..hi (of n/2) of the stage with half-span m = 2^s. */
static void large_stage(const sp_ntt_domain *d, sp_fr *a, unsigned s, size_t lo, size_t hi)
{
    size_t m = (size_t)1 << s, k = lo;
    const sp_fr *w = d->tw + m;
    while (k < hi) {
        size_t g = k >> s, j = k & (m - 1);
        size_t end = j + (hi - k) < m ? j + (hi - k) : m;
        sp_fr *x = a + (g << (s + 1));
        size_t jj = j;
        if (jj == 0 && jj < end) {
            bfly1(&x[0], &x[m]);
            jj++;
        }
        for (; jj < end; jj++)
            bfly(&x[jj], &x[jj + m], &w[jj]);
        k += end - j;
    }
}

/* out[j] = x[-j mod n] * (1/n) * post^j, for the pairs j, n - j owned here. */
static void post_scale(const ntt_job *job, size_t lo, size_t hi)
{
    const sp_ntt_domain *d = job->d;
    sp_fr *a = job->a;
    size_t n = d->n;
    sp_fr plo = d->n_inv, phi = d->n_inv, t;
    if (job->post && lo < hi) { /* plo = post^lo / n, phi = post^(n-lo) / n */
        fr_pow_u64(&t, job->post, lo);
        sp_fr_mul(&plo, &plo, &t);
        fr_pow_u64(&t, job->post, n - lo);
        sp_fr_mul(&phi, &phi, &t);
    }
    for (size_t j = lo; j < hi; j++) {
        if (j == 0 || 2 * j == n) {
            sp_fr_mul(&a[j], &a[j], &plo);
        } else {
            sp_fr x = a[j];
            sp_fr_mul(&a[j], &a[n - j], &plo);
            sp_fr_mul(&a[n - j], &x, &phi);
        }
        if (job->post) {
            sp_fr_mul(&plo, &plo, job->post);
            sp_fr_mul(&phi, &phi, &job->post_inv);
        }
    }
}

static void ntt_worker(sp_par *par, int tid, void *ctx)
{
    const ntt_job *job = ctx;
    const sp_ntt_domain *d = job->d;
    int nt = par->nthreads;
    size_t lo, hi;
    sp_par_range(&lo, &hi, d->n, tid, nt);
    if (job->pre)
        pre_scale(job, lo, hi);
    sp_par_sync(par); /* bit reversal reads entries other threads scaled */
    bit_reverse(job, lo, hi);
    sp_par_sync(par);
    sp_par_range(&lo, &hi, d->n / d->block, tid, nt);
    for (size_t blk = lo; blk < hi; blk++)
        small_stages(d, job->a + blk * d->block);
    unsigned s0 = 0;
    while (((size_t)1 << s0) < d->block)
        s0++;
    sp_par_range(&lo, &hi, d->n / 2, tid, nt);
    for (unsigned s = s0; s < d->log_n; s++) {
        sp_par_sync(par);
        large_stage(d, job->a, s, lo, hi);
    }
    if (job->inverse) {
        sp_par_sync(par);
        sp_par_range(&lo, &hi, d->n / 2 + 1, tid, nt);
        post_scale(job, lo, hi);
    }
}

static void ntt_run(const sp_ntt_domain *d, sp_fr *a, const sp_fr *pre, int inverse, const sp_fr *post,
                    int nthreads)
{
    if (d->n == 1)
        return; /* every transform of size 1 is the identity */
    ntt_job job = {.d = d, .a = a, .pre = pre, .inverse = inverse, .post = post};
    if (post)
        sp_fr_inv(&job.post_inv, post);
    sp_par_run(sp_par_threads_for(nthreads, d->n, SP_NTT_GRAIN), ntt_worker, &job);
}

void sp_ntt_forward(const sp_ntt_domain *d, sp_fr *a, int nthreads)
{
    ntt_run(d, a, NULL, 0, NULL, nthreads);
}

void sp_ntt_inverse(const sp_ntt_domain *d, sp_fr *a, int nthreads)
{
    ntt_run(d, a, NULL, 1, NULL, nthreads);
}

void sp_ntt_coset_forward(const sp_ntt_domain *d, sp_fr *a, const sp_fr *shift, int nthreads)
{
    ntt_run(d, a, shift, 0, NULL, nthreads);
}

void sp_ntt_coset_inverse(const sp_ntt_domain *d, sp_fr *a, const sp_fr *shift, int nthreads)
{
    sp_fr sinv;
    sp_fr_inv(&sinv, shift);
    ntt_run(d, a, NULL, 1, &sinv, nthreads);
}

void sp_ntt_evals_to_coset(const sp_ntt_domain *d, sp_fr *a, const sp_fr *shift, int nthreads)
{
    ntt_run(d, a, NULL, 1, shift, nthreads);
    ntt_run(d, a, NULL, 0, NULL, nthreads);
}
