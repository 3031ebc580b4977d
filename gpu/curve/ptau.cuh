/*
 * The setup from a .ptau on the device (sp_cuda_backend.h): the sparse
 * combinations of Lagrange points per wire and the inverse DFT over
 * points of src/groth16/ptau_comb.h, the same points as the CPU's (an
 * affine point has one form: the sums are exact, so the bytes agree).
 *
 * Scalar multiplication: double-and-add over the shorter of k and r - k
 * (the base negated for the latter: circom's coefficients are mostly
 * small either side of r, the twiddles are not), in XYZZ.
 *
 * Sums, per term (one matrix over one base array), on the context's
 * stream:
 *   1. pt_pieces: each column cut into pieces of at most PT_PIECE
 *      entries (by the host); one thread per piece sums [s_k] base_row_k
 *      over its entries, so that a long column (circom's constant wire 0)
 *      is spread over many threads;
 *   2. pt_wires: one thread per wire adds its pieces into its sum
 *      (the first term sets it).
 * Then xyzz_to_affine_runs (to_affine.cuh) and the copy back.
 *
 * Inverse DFT: pt_load scales each point by pre[i] into bit-reversed
 * order, then one pt_stage launch per radix-2 stage (one thread per
 * butterfly: (u, v) -> (u + [w]v, u - [w]v)), then to affine.
 *
 * The field arithmetic is the 64-bit multiplication, called rather than
 * inlined (SP_MUL_CALL).
 *
 * The templates below are instantiated once per group, in ptau_g1.cu and
 * ptau_g2.cu: two translation units that a parallel build compiles at
 * once (the G2 one is among the longest of the backend).
 */
#ifndef SP_GPU_CURVE_PTAU_CUH
#define SP_GPU_CURVE_PTAU_CUH
#include <stdlib.h>
#include <string.h>
#include "gpu/core/context.cuh"
#include "xyzz.cuh"
#include "xyzz_add_flat.cuh"
#include "to_affine.cuh"
#include "gpu/sp_cuda_backend.h"

namespace SP_CURVE_NS {

typedef fp_tm<SP_MUL_CALL> pt_fp;
typedef fp2_tm<SP_MUL_CALL> pt_fp2;
static_assert(sizeof(affine_t<pt_fp>) == sizeof(sp_g1_affine), "G1 affine layout");
static_assert(sizeof(affine_t<pt_fp2>) == sizeof(sp_g2_affine), "G2 affine layout");
static_assert(sizeof(sp_scalar) == 32, "scalar layout");

#define PT_THREADS 128
#define PT_RUN 16   /* points per inversion of the conversion to affine */
#define PT_PIECE 16 /* entries of a column one thread sums */
#define PT_MAX ((size_t)1 << 31)

/* The group operations, each compiled once per group: inlined at every
 * call site they multiplied this file's device code and made its
 * compilation take many minutes, for no speed a setup would notice. */
template <class F> static __device__ __noinline__ void pt_dbl(xyzz_t<F> &r)
{
    xyzz_dbl(r, r);
}
template <class F> static __device__ __noinline__ void pt_add(xyzz_t<F> &r, const xyzz_t<F> &q)
{
    xyzz_add_flat(r, q);
}
template <class F> static __device__ __noinline__ void pt_add_affine(xyzz_t<F> &r, const affine_t<F> &q)
{
    xyzz_add_affine(r, q);
}

/* ---- device ---- */

static __device__ __forceinline__ int pt_bits(const uint32_t w[8])
{
    int b = 0;
#pragma unroll
    for (int j = 0; j < 8; j++)
        b = w[j] ? 32 * j + 32 - __clz(w[j]) : b;
    return b;
}

/* e = k or r - k (then neg), whichever has fewer bits; returns their
 * count (0 for k = 0). k: a canonical scalar's 8 words. */
static __device__ __forceinline__ int pt_short(uint32_t e[8], bool &neg, const uint32_t *k)
{
    uint32_t kk[8], d[8], borrow = 0;
#pragma unroll
    for (int j = 0; j < 8; j++) {
        kk[j] = k[j];
        uint64_t t = (uint64_t)fr_desc::p(j) - kk[j] - borrow;
        d[j] = (uint32_t)t;
        borrow = (uint32_t)(t >> 63);
    }
    int bk = pt_bits(kk), bd = pt_bits(d);
    neg = bk && bd < bk;
#pragma unroll
    for (int j = 0; j < 8; j++)
        e[j] = neg ? d[j] : kk[j];
    return neg ? bd : bk;
}

static __device__ __forceinline__ bool pt_bit(const uint32_t e[8], int i)
{
    return (words_at<8>(e, i >> 5) >> (i & 31)) & 1;
}

/* acc += [k] b, b affine (infinity as (0, 0)). */
template <class F>
static __device__ __forceinline__ void pt_madd_affine(xyzz_t<F> &acc, const affine_t<F> &b, const uint32_t *k)
{
    uint32_t e[8];
    bool neg;
    int bits = pt_short(e, neg, k);
    if (!bits || aff_is_inf(b))
        return;
    affine_t<F> q = b;
    if (neg)
        f_neg(q.y, q.y);
    if (bits == 1) { /* +-1: the common case of circom's coefficients */
        pt_add_affine(acc, q);
        return;
    }
    xyzz_t<F> m;
    m.x = q.x;
    m.y = q.y;
    f_set_one(m.zz);
    f_set_one(m.zzz);
#pragma unroll 1
    for (int i = bits - 2; i >= 0; i--) {
        pt_dbl(m);
        if (pt_bit(e, i))
            pt_add_affine(m, q);
    }
    pt_add(acc, m);
}

/* r = [k] p, p XYZZ. */
template <class F>
static __device__ __forceinline__ void pt_mul_xyzz(xyzz_t<F> &r, const xyzz_t<F> &p, const uint32_t *k)
{
    uint32_t e[8];
    bool neg;
    int bits = pt_short(e, neg, k);
    if (!bits || xyzz_is_inf(p)) {
        xyzz_set_inf(r);
        return;
    }
    xyzz_t<F> q = p;
    if (neg)
        f_neg(q.y, q.y);
    r = q;
#pragma unroll 1
    for (int i = bits - 2; i >= 0; i--) {
        pt_dbl(r);
        if (pt_bit(e, i))
            pt_add(r, q);
    }
}

/* piece[j] = sum of [s_k] bases[row_k] over entries lo[j] .. lo[j+1]-1. */
template <class F>
__global__ void __launch_bounds__(PT_THREADS)
pt_pieces(xyzz_t<F> *piece, const affine_t<F> *bases, const uint32_t *row, const uint32_t *s, const uint64_t *lo,
          size_t n_pieces)
{
    size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= n_pieces)
        return;
    xyzz_t<F> acc;
    xyzz_set_inf(acc);
    for (uint64_t k = lo[j]; k < lo[j + 1]; k++)
        pt_madd_affine(acc, bases[row[k]], s + 8 * k);
    piece[j] = acc;
}

/* acc[w] (set when first) += the pieces wp[w] .. wp[w+1]-1. */
template <class F>
__global__ void __launch_bounds__(PT_THREADS)
pt_wires(xyzz_t<F> *acc, const xyzz_t<F> *piece, const uint64_t *wp, size_t n, int first)
{
    size_t w = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (w >= n)
        return;
    xyzz_t<F> a;
    if (first)
        xyzz_set_inf(a);
    else
        a = acc[w];
    for (uint64_t j = wp[w]; j < wp[w + 1]; j++)
        pt_add(a, piece[j]);
    acc[w] = a;
}

/* a[rev(i)] = [pre_i] in[i]. */
template <class F>
__global__ void __launch_bounds__(PT_THREADS)
pt_load(xyzz_t<F> *a, const affine_t<F> *in, const uint32_t *pre, size_t n, unsigned log_n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    size_t r = log_n ? (size_t)(__brevll((unsigned long long)i) >> (64 - log_n)) : 0;
    xyzz_t<F> p;
    xyzz_set_inf(p);
    pt_madd_affine(p, in[i], pre + 8 * i);
    a[r] = p;
}

/* One radix-2 stage over blocks of 2 half: the b-th butterfly pairs
 * i0 = its block's start + j and i0 + half (j = b mod half) with the
 * twiddle tw[j step]. */
template <class F>
__global__ void __launch_bounds__(PT_THREADS)
pt_stage(xyzz_t<F> *a, const uint32_t *tw, size_t n, size_t half, size_t step)
{
    size_t b = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= n / 2)
        return;
    size_t j = b & (half - 1), i0 = (b - j) * 2 + j, i1 = i0 + half;
    xyzz_t<F> u = a[i0], t;
    if (j)
        pt_mul_xyzz(t, a[i1], tw + 8 * (j * step));
    else
        t = a[i1];
    xyzz_t<F> d = u;
    pt_add(u, t);
    f_neg(t.y, t.y);
    pt_add(d, t);
    a[i0] = u;
    a[i1] = d;
}

/* ---- host ---- */

/* Device buffers of one call, freed together. */
typedef struct {
    void *p[8];
    int n;
} pt_bufs;

static sp_status pt_alloc(sp_cuda *ctx, pt_bufs *b, void **dev, size_t bytes)
{
    *dev = NULL;
    SP_TRY(sp_cuda_try_malloc(ctx, dev, bytes ? bytes : 1));
    b->p[b->n++] = *dev;
    return SP_OK;
}

static void pt_free(sp_cuda *ctx, pt_bufs *b)
{
    if (cudaStreamSynchronize(ctx->stream) != cudaSuccess)
        cudaGetLastError();
    while (b->n)
        cudaFree(b->p[--b->n]);
}

/* The pieces of t's columns w < n: wp[w] .. wp[w+1]-1 those of column w,
 * lo[j] the first entry of piece j (from t->start[0]), lo[n_pieces] the
 * end. Host arrays (malloc); NULL when out of memory. */
static uint64_t *pt_plan(uint64_t **wp_out, size_t *n_pieces, const sp_ptau_sparse *t, size_t n)
{
    uint64_t *wp = (uint64_t *)malloc((n + 1) * sizeof *wp), np = 0, base = t->start[0];
    if (!wp)
        return NULL;
    for (size_t w = 0; w < n; w++) {
        wp[w] = np;
        np += (t->start[w + 1] - t->start[w] + PT_PIECE - 1) / PT_PIECE;
    }
    wp[n] = np;
    uint64_t *lo = (uint64_t *)malloc((np + 1) * sizeof *lo);
    if (!lo) {
        free(wp);
        return NULL;
    }
    for (size_t w = 0; w < n; w++)
        for (uint64_t j = wp[w], k = t->start[w]; j < wp[w + 1]; j++, k += PT_PIECE)
            lo[j] = k - base;
    lo[np] = t->start[n] - base;
    *wp_out = wp;
    *n_pieces = np;
    return lo;
}

/* acc (device, n XYZZ) = (first) or += the sums of term t. */
template <class F, class HA>
static sp_status pt_term(sp_cuda *ctx, xyzz_t<F> *acc, size_t n, const sp_ptau_sparse *t, int first)
{
    size_t nnz = t->start[n] - t->start[0], np = 0;
    if (nnz >= PT_MAX || t->n_bases >= PT_MAX)
        return SP_ERR_INVALID_ARG;
    uint64_t *wp = NULL, *lo = pt_plan(&wp, &np, t, n);
    if (!lo)
        return SP_ERR_NOMEM;
    pt_bufs b = {{0}, 0};
    void *dbases, *drow, *ds, *dlo, *dwp, *dpiece;
    sp_status st = SP_OK;
    if ((st = pt_alloc(ctx, &b, &dbases, t->n_bases * sizeof(HA))) == SP_OK &&
        (st = pt_alloc(ctx, &b, &drow, nnz * sizeof(uint32_t))) == SP_OK &&
        (st = pt_alloc(ctx, &b, &ds, nnz * sizeof(sp_scalar))) == SP_OK &&
        (st = pt_alloc(ctx, &b, &dlo, (np + 1) * sizeof(uint64_t))) == SP_OK &&
        (st = pt_alloc(ctx, &b, &dwp, (n + 1) * sizeof(uint64_t))) == SP_OK &&
        (st = pt_alloc(ctx, &b, &dpiece, np * sizeof(xyzz_t<F>))) == SP_OK &&
        (st = sp_cuda_copy(ctx, dbases, t->bases, t->n_bases * sizeof(HA))) == SP_OK &&
        (st = sp_cuda_copy(ctx, drow, t->row + t->start[0], nnz * sizeof(uint32_t))) == SP_OK &&
        (st = sp_cuda_copy(ctx, ds, t->s + t->start[0], nnz * sizeof(sp_scalar))) == SP_OK &&
        (st = sp_cuda_copy(ctx, dlo, lo, (np + 1) * sizeof(uint64_t))) == SP_OK &&
        (st = sp_cuda_copy(ctx, dwp, wp, (n + 1) * sizeof(uint64_t))) == SP_OK) {
        if (np)
            pt_pieces<F><<<sp_cu_blocks(np, PT_THREADS), PT_THREADS, 0, ctx->stream>>>(
                (xyzz_t<F> *)dpiece, (const affine_t<F> *)dbases, (const uint32_t *)drow, (const uint32_t *)ds,
                (const uint64_t *)dlo, np);
        pt_wires<F><<<sp_cu_blocks(n, PT_THREADS), PT_THREADS, 0, ctx->stream>>>(
            acc, (const xyzz_t<F> *)dpiece, (const uint64_t *)dwp, n, first);
        cudaError_t e = cudaGetLastError();
        if (e == cudaSuccess)
            e = cudaStreamSynchronize(ctx->stream);
        if (e != cudaSuccess) {
            sp_cu_record(ctx, "pt_pieces / pt_wires", __FILE__, __LINE__, e);
            st = SP_ERR_GPU;
        }
    }
    pt_free(ctx, &b);
    free(lo);
    free(wp);
    return st;
}

/* acc (device, n XYZZ points) to affine, then to out (host). */
template <class F, class HA>
static sp_status pt_out(sp_cuda *ctx, HA *out, affine_t<F> *daff, const xyzz_t<F> *acc, size_t n)
{
    xyzz_to_affine_runs<F, PT_RUN><<<sp_cu_blocks((n + PT_RUN - 1) / PT_RUN, SP_CB_THREADS), SP_CB_THREADS, 0,
                                     ctx->stream>>>(daff, acc, n);
    SP_CU_LAUNCHED(ctx, "xyzz_to_affine_runs");
    return sp_cuda_copy(ctx, out, daff, n * sizeof(HA));
}

template <class F, class HA>
static sp_status pt_comb(sp_cuda *ctx, HA *out, size_t n, const sp_ptau_sparse *t, int nt)
{
    if (n == 0)
        return SP_OK;
    if (n >= PT_MAX)
        return SP_ERR_INVALID_ARG;
    if (nt == 0) { /* no term: every sum is infinity, (0, 0) */
        memset(out, 0, n * sizeof(HA));
        return SP_OK;
    }
    pt_bufs b = {{0}, 0};
    void *acc, *daff;
    sp_status st = pt_alloc(ctx, &b, &acc, n * sizeof(xyzz_t<F>));
    for (int i = 0; st == SP_OK && i < nt; i++)
        st = pt_term<F, HA>(ctx, (xyzz_t<F> *)acc, n, &t[i], i == 0);
    if (st == SP_OK && (st = pt_alloc(ctx, &b, &daff, n * sizeof(HA))) == SP_OK)
        st = pt_out<F, HA>(ctx, out, (affine_t<F> *)daff, (const xyzz_t<F> *)acc, n);
    pt_free(ctx, &b);
    return st;
}

template <class F, class HA>
static sp_status pt_intt(sp_cuda *ctx, HA *out, const HA *in, unsigned log_n, const sp_scalar *tw,
                         const sp_scalar *pre)
{
    if (log_n >= 31)
        return SP_ERR_INVALID_ARG;
    size_t n = (size_t)1 << log_n, ntw = n / 2 ? n / 2 : 1;
    pt_bufs b = {{0}, 0};
    void *din, *a, *dtw, *dpre;
    sp_status st = SP_OK;
    if ((st = pt_alloc(ctx, &b, &din, n * sizeof(HA))) == SP_OK &&
        (st = pt_alloc(ctx, &b, &a, n * sizeof(xyzz_t<F>))) == SP_OK &&
        (st = pt_alloc(ctx, &b, &dtw, ntw * sizeof(sp_scalar))) == SP_OK &&
        (st = pt_alloc(ctx, &b, &dpre, n * sizeof(sp_scalar))) == SP_OK &&
        (st = sp_cuda_copy(ctx, din, in, n * sizeof(HA))) == SP_OK &&
        (st = sp_cuda_copy(ctx, dtw, tw, ntw * sizeof(sp_scalar))) == SP_OK &&
        (st = sp_cuda_copy(ctx, dpre, pre, n * sizeof(sp_scalar))) == SP_OK) {
        xyzz_t<F> *pa = (xyzz_t<F> *)a;
        pt_load<F><<<sp_cu_blocks(n, PT_THREADS), PT_THREADS, 0, ctx->stream>>>(
            pa, (const affine_t<F> *)din, (const uint32_t *)dpre, n, log_n);
        for (size_t half = 1; half < n; half *= 2)
            pt_stage<F><<<sp_cu_blocks(n / 2, PT_THREADS), PT_THREADS, 0, ctx->stream>>>(
                pa, (const uint32_t *)dtw, n, half, n / (2 * half));
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess) {
            sp_cu_record(ctx, "pt_load / pt_stage", __FILE__, __LINE__, e);
            st = SP_ERR_GPU;
        } else {
            st = pt_out<F, HA>(ctx, out, (affine_t<F> *)din, pa, n);
        }
    }
    pt_free(ctx, &b);
    return st;
}

} // namespace SP_CURVE_NS

#endif
