/*
 * Precomputed window tables of resident bases (sp_cuda.h,
 * sp_cuda_msm_table_add; table.cuh): their build on the device, the
 * context's registry, their sizes. The MSM over a table is
 * batch_affine.cu's (sp_cu_msm_g1_table), reached from sp_cuda_msm_g1/_g2
 * (pippenger.cu).
 *
 * Build (once per key attach, so plain and simple): row 0 is a copy of
 * the bases; row w is row w-1 doubled off[w] - off[w-1] times (c or c-1,
 * the window layout of pippenger.cu), per chunk of TB_CHUNK points:
 *   tab_dbl              a thread per point: from the affine point of row
 *                        w-1, the doublings in XYZZ (9 products each),
 *                        into a chunk of XYZZ scratch;
 *   xyzz_to_affine_runs  (curve/to_affine.cuh) runs of TB_RUN points sharing
 *                        one inversion, into row w.
 * So a table of W rows costs (W-1) n (c 9 + ~25) products: at 2^24 points
 * and c = 22 about 4e10, seconds on a large device.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gpu/curve/to_affine.cuh"
#include "table.cuh"
#include "gpu/sp_cuda_backend.h"
#include "gpu/sp_cuda_tune.h"

namespace SP_CURVE_NS {

typedef fp_tm<SP_MUL_EO> tb_fp;
typedef fp2_tm<SP_MUL_EO> tb_fp2;
static_assert(sizeof(affine_t<tb_fp>) == sizeof(sp_g1_affine), "G1 affine layout");
static_assert(sizeof(affine_t<tb_fp2>) == sizeof(sp_g2_affine), "G2 affine layout");

#define TB_THREADS 128
#define TB_RUN 32                      /* points per inversion: ~18 products each */
#define TB_CHUNK ((size_t)1 << 22)     /* points per step: 768 MiB of G1 XYZZ scratch */
#define TB_CHUNK_MIN ((size_t)1 << 14) /* smallest chunk tried when memory is short */

/* ---- build ---- */

/* out[i] = [2^k] in[i] (k >= 1), XYZZ; infinity stays infinity. */
template <class F>
__global__ void __launch_bounds__(TB_THREADS)
tab_dbl(xyzz_t<F> *out, const affine_t<F> *in, size_t m, unsigned k)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m)
        return;
    const affine_t<F> p = in[i];
    xyzz_t<F> r;
    if (aff_is_inf(p)) {
        xyzz_set_inf(r);
    } else {
        xyzz_dbl_affine(r, p);
        for (unsigned j = 1; j < k; j++)
            xyzz_dbl(r, r);
    }
    out[i] = r;
}

static double tb_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* Rows 1.. of t from row 0, in chunks of `chunk` points through tmp. */
template <class F>
static sp_status tab_rows(sp_cuda *ctx, const sp_cu_table *t, xyzz_t<F> *tmp, size_t chunk)
{
    affine_t<F> *q = (affine_t<F> *)t->q;
    const size_t n = t->n;
    for (unsigned w = 1; w < t->nwin; w++) {
        const unsigned k = t->lay.off[w] - t->lay.off[w - 1];
        for (size_t lo = 0; lo < n; lo += chunk) {
            const size_t m = n - lo < chunk ? n - lo : chunk;
            tab_dbl<F><<<sp_cu_blocks(m, TB_THREADS), TB_THREADS, 0, ctx->stream>>>(
                tmp, q + (size_t)(w - 1) * n + lo, m, k);
            SP_CU_LAUNCHED(ctx, "tab_dbl");
            xyzz_to_affine_runs<F, TB_RUN>
                <<<sp_cu_blocks((m + TB_RUN - 1) / TB_RUN, SP_CB_THREADS), SP_CB_THREADS, 0,
                   ctx->stream>>>(q + (size_t)w * n + lo, tmp, m);
            SP_CU_LAUNCHED(ctx, "xyzz_to_affine_runs");
        }
    }
    return SP_OK;
}

/* Device memory for t's rows (t->bytes) and the XYZZ scratch of a chunk
 * (halved while short); the context's scratch is released first when the
 * rows do not fit beside it. SP_ERR_NOMEM when they do not fit at all. */
static sp_status tab_alloc(sp_cuda *ctx, sp_cu_table *t, size_t xyzz, void **tmp, size_t *chunk)
{
    sp_status st = sp_cuda_try_malloc(ctx, &t->q, t->bytes);
    if (st == SP_ERR_NOMEM && sp_cuda_scratch_bytes(ctx)) {
        SP_TRY(sp_cuda_scratch_trim(ctx));
        st = sp_cuda_try_malloc(ctx, &t->q, t->bytes);
    }
    SP_TRY(st);
    *chunk = t->n < TB_CHUNK ? t->n : TB_CHUNK;
    while ((st = sp_cuda_try_malloc(ctx, tmp, *chunk * xyzz)) == SP_ERR_NOMEM &&
           *chunk > TB_CHUNK_MIN)
        *chunk /= 2;
    if (st != SP_OK) {
        sp_cuda_dev_free(ctx, t->q);
        t->q = NULL;
    }
    return st;
}

/* Makes t's rows (t->q NULL on failure). */
static sp_status tab_build(sp_cuda *ctx, sp_cu_table *t)
{
    const size_t aff = t->group == 1 ? sizeof(sp_g1_affine) : sizeof(sp_g2_affine);
    const size_t xyzz = t->group == 1 ? sizeof(sp_g1_xyzz) : sizeof(sp_g2_xyzz);
    void *tmp = NULL;
    size_t chunk = 0;
    SP_TRY(tab_alloc(ctx, t, xyzz, &tmp, &chunk));
    sp_status st = SP_OK;
    cudaError_t e = cudaMemcpyAsync(t->q, t->bases, t->n * aff, cudaMemcpyDeviceToDevice,
                                    ctx->stream);
    if (e != cudaSuccess) {
        sp_cu_record(ctx, "cudaMemcpyAsync(table row 0)", __FILE__, __LINE__, e);
        st = SP_ERR_GPU;
    } else if (t->group == 1) {
        st = tab_rows<tb_fp>(ctx, t, (xyzz_t<tb_fp> *)tmp, chunk);
    } else {
        st = tab_rows<tb_fp2>(ctx, t, (xyzz_t<tb_fp2> *)tmp, chunk);
    }
    e = cudaStreamSynchronize(ctx->stream); /* before tmp goes */
    if (e != cudaSuccess && st == SP_OK) {
        sp_cu_record(ctx, "cudaStreamSynchronize(table build)", __FILE__, __LINE__, e);
        st = SP_ERR_GPU;
    }
    sp_cuda_dev_free(ctx, tmp);
    if (st != SP_OK) {
        sp_cuda_dev_free(ctx, t->q);
        t->q = NULL;
    }
    return st;
}

/* ---- sizes ---- */

extern "C" unsigned sp_cuda_msm_table_window(size_t n, int group)
{
    (void)group; /* G2's costs scale alike (pippenger.cu) */
    unsigned best = 8;
    for (unsigned c = 9; c <= 24; c++)
        if (sp_cu_table_cost(n, c) < sp_cu_table_cost(n, best))
            best = c;
    msm_windows win;
    unsigned nwin;
    return sp_cu_msm_layout(best, &win, &nwin);
}

/* The layout of a table for n points (window as for the add call). */
static unsigned tab_layout(size_t n, int group, unsigned window, msm_windows *lay, unsigned *nwin)
{
    return sp_cu_msm_layout(window ? window : sp_cuda_msm_table_window(n, group), lay, nwin);
}

extern "C" size_t sp_cuda_msm_table_bytes(int group, size_t n, unsigned window)
{
    msm_windows lay;
    unsigned nwin;
    tab_layout(n, group, window, &lay, &nwin);
    return (size_t)nwin * n * (group == 2 ? sizeof(sp_g2_affine) : sizeof(sp_g1_affine));
}

/*
 * Follows the allocations of b2_table_run (batch_affine.cu): the sort and its
 * 2^c ranges (sp_cu_msm_sort_model), the 2^(c-1)
 * affine bucket sums and two side slots per group of records (at most W
 * groups), the reduction's scratch (segment sums, or the split's parts:
 * the larger), and the batch-affine rounds over
 * one group of n records (b2_alloc: the two point lists, 3/4 of a point
 * per record, their bucket words, the per-thread products, the per-bucket
 * lists).
 */
extern "C" size_t sp_cuda_msm_table_scratch(int group, size_t n, unsigned window)
{
    msm_windows lay;
    unsigned nwin;
    const unsigned c = tab_layout(n, group, window, &lay, &nwin);
    const double aff = group == 2 ? sizeof(sp_g2_affine) : sizeof(sp_g1_affine);
    const double xyzz = group == 2 ? sizeof(sp_g2_xyzz) : sizeof(sp_g1_xyzz);
    const double recs = (double)nwin * n, nb = (double)((size_t)1 << (c - 1)), r = (double)n;
    double b = sp_cu_msm_sort_model(recs, 2 * nb);
    const double segs = 65536.0 + 16 + 256, split = (double)msm_split_plan(c, 1).total;
    b += (nb + 2.0 * nwin) * aff + 8.0 * nwin + (segs > split ? segs : split) * xyzz + 16384;
    b += (0.75 * r + 1.25 * nb + 2) * aff + (r + nb + 2) * 4 + (r / 32 + (1 << 20)) * aff / 2 +
         4 * nb * 4 + (1 << 20);
    return (size_t)(b * 1.125) + ((size_t)8 << 20); /* as sp_cuda_msm_stream_bytes */
}

/* ---- the registry ---- */

const sp_cu_table *sp_cu_table_find(const sp_cuda *ctx, int group, const void *bases, size_t n)
{
    if (ctx->msm_table_off)
        return NULL;
    for (int i = 0; i < ctx->n_tabs; i++) {
        const sp_cu_table *t = &ctx->tabs[i];
        if (t->bases == bases && t->n == n && t->group == group)
            return t;
    }
    return NULL;
}

/* Removes entry i (its rows freed). */
static void tab_remove(sp_cuda *ctx, int i)
{
    sp_cuda_dev_free(ctx, ctx->tabs[i].q);
    ctx->tabs[i] = ctx->tabs[--ctx->n_tabs];
}

extern "C" sp_status sp_cuda_msm_table_add(sp_cuda *ctx, int group, const void *bases, size_t n,
                                           unsigned window, double *build_ms)
{
    if ((group != 1 && group != 2) || n == 0 || (window && (window < 8 || window > 24)) ||
        !bases || !sp_cu_is_device_ptr(bases))
        return SP_ERR_INVALID_ARG;
    sp_cu_table t;
    memset(&t, 0, sizeof t);
    t.group = group;
    t.bases = bases;
    t.n = n;
    t.c = tab_layout(n, group, window, &t.lay, &t.nwin);
    if ((size_t)t.nwin * n >= ((size_t)1 << 31)) /* record values hold w n + i in 31 bits */
        return SP_ERR_INVALID_ARG;
    t.bytes = sp_cuda_msm_table_bytes(group, n, t.c);
    for (int i = 0; i < ctx->n_tabs; i++) /* the old one first: its memory may be needed */
        if (ctx->tabs[i].bases == bases && ctx->tabs[i].n == n && ctx->tabs[i].group == group)
            tab_remove(ctx, i--);
    if (ctx->n_tabs == ctx->cap_tabs) {
        int cap = ctx->cap_tabs ? 2 * ctx->cap_tabs : 8;
        sp_cu_table *p = (sp_cu_table *)realloc(ctx->tabs, cap * sizeof *p);
        if (!p)
            return SP_ERR_NOMEM;
        ctx->tabs = p;
        ctx->cap_tabs = cap;
    }
    const double t0 = tb_now_ms();
    SP_TRY(tab_build(ctx, &t));
    if (build_ms)
        *build_ms = tb_now_ms() - t0;
    ctx->tabs[ctx->n_tabs++] = t;
    return SP_OK;
}

extern "C" void sp_cuda_msm_table_drop(sp_cuda *ctx, const void *bases)
{
    if (ctx->n_tabs && cudaStreamSynchronize(ctx->stream) != cudaSuccess)
        cudaGetLastError(); /* no MSM may still read a table */
    for (int i = 0; i < ctx->n_tabs; i++)
        if (ctx->tabs[i].bases == bases)
            tab_remove(ctx, i--);
}

extern "C" size_t sp_cuda_msm_tables_bytes(const sp_cuda *ctx)
{
    size_t b = 0;
    for (int i = 0; i < ctx->n_tabs; i++)
        b += ctx->tabs[i].bytes;
    return b;
}

extern "C" int sp_cuda_set_msm_table(sp_cuda *ctx, int on)
{
    int old = !ctx->msm_table_off;
    if (on == 0 || on == 1)
        ctx->msm_table_off = !on;
    return old;
}

void sp_cu_table_release(sp_cuda *ctx)
{
    while (ctx->n_tabs)
        tab_remove(ctx, ctx->n_tabs - 1);
    free(ctx->tabs);
    ctx->tabs = NULL;
    ctx->cap_tabs = 0;
}

} // namespace SP_CURVE_NS
