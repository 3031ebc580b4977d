/*
 * The affine arithmetic of the batch-affine rounds (batch_affine.cu): how
 * the affine sum of a pair is made, and the block-wide products and the
 * one inversion of a round (ba_top).
 */
#ifndef SP_GPU_MSM_BA_CUH
#define SP_GPU_MSM_BA_CUH

#include <stdint.h>
#include "gpu/curve/xyzz.cuh"
#include "gpu/field/inverse.cuh"

namespace SP_CURVE_NS {

/* How p + q is made: copied, infinity, or lambda = num / den. */
enum { BA_COPY_P, BA_COPY_Q, BA_INF, BA_ADD };
template <class F>
static __device__ __forceinline__ int ba_classify(const affine_t<F> &p, const affine_t<F> &q, F &num,
                                                  F &den)
{
    if (aff_is_inf(q))
        return BA_COPY_P;
    if (aff_is_inf(p))
        return BA_COPY_Q;
    f_sub(den, q.x, p.x);
    f_sub(num, q.y, p.y);
    if (!f_is_zero(den))
        return BA_ADD;
    if (!f_is_zero(num) || f_is_zero(p.y))
        return BA_INF; /* q = -p (or a point of order 2) */
    F t;               /* q = p: lambda = 3x^2 / 2y */
    f_add(den, p.y, p.y);
    f_sqr(num, p.x);
    f_add(t, num, num);
    f_add(num, t, num);
    return BA_ADD;
}

/* r = p + q made as ba_classify said (how, num); an addition takes id =
 * 1/den. */
template <class F>
static __device__ __forceinline__ void ba_sum(affine_t<F> &r, int how, const affine_t<F> &p,
                                              const affine_t<F> &q, const F &num, const F &id)
{
    if (how == BA_COPY_P) {
        r = p;
    } else if (how == BA_COPY_Q) {
        r = q;
    } else if (how == BA_INF) {
        f_set_zero(r.x);
        f_set_zero(r.y);
    } else {
        F lam, u;
        f_mul(lam, num, id);
        f_sqr(r.x, lam);
        f_sub(r.x, r.x, p.x);
        f_sub(r.x, r.x, q.x); /* x3 = lambda^2 - x1 - x2 */
        f_sub(u, p.x, r.x);
        f_mul(u, lam, u);
        f_sub(r.y, u, p.y); /* y3 = lambda (x1 - x3) - y1 */
    }
}

/* Inclusive product scan over the block, thread at position p (a
 * permutation of the threads) holding v: afterwards sh[p] = the product of
 * the values at positions 0..p. One scan at a time keeps two field
 * elements live (the dens kernel runs at 64 registers). */
template <class F>
static __device__ void ba_scan(F *sh, const F &v, unsigned p)
{
    sh[p] = v;
    __syncthreads();
    F a = v;
    for (unsigned d = 1; d < blockDim.x; d <<= 1) {
        F x;
        if (p >= d)
            x = sh[p - d];
        __syncthreads();
        if (p >= d) {
            f_mul(a, a, x);
            sh[p] = a;
        }
        __syncthreads();
    }
}

/*
 * For v (one value per thread of the block, T = blockDim.x threads):
 * *others = the product of the other threads' values, *total = all of
 * them. sp and ss: T elements of shared memory each.
 */
template <class F>
static __device__ void ba_block_others(const F &v, F *sp, F *ss, F *others, F *total)
{
    const unsigned tid = threadIdx.x, T = blockDim.x;
    ba_scan(sp, v, tid);         /* prefixes */
    ba_scan(ss, v, T - 1 - tid); /* suffixes, as prefixes of the reversed order */
    F pre, suf;
    f_set_one(pre);
    f_set_one(suf);
    if (tid > 0)
        pre = sp[tid - 1];
    if (tid + 1 < T)
        suf = ss[T - 2 - tid];
    f_mul(*others, pre, suf);
    *total = sp[T - 1];
}

/* One block of THREADS threads: ibt[i] = 1 / bt[i] for the nb block
 * products, with one inversion by binary extended Euclid (f_inv_var:
 * one thread's latency is the whole device's wait). A thread takes a run
 * of consecutive products; dynamic shared memory: 2 T field elements + 1. */
template <class F, unsigned THREADS>
static __global__ void __launch_bounds__(THREADS) ba_top(const F *bt, F *ibt, uint32_t nb)
{
    extern __shared__ __align__(16) unsigned char ba_smem[];
    F *sp = (F *)ba_smem, *ss = sp + blockDim.x, *inv = ss + blockDim.x;
    const uint32_t per = (nb + blockDim.x - 1) / blockDim.x;
    const uint32_t lo = min(threadIdx.x * per, nb), hi = min(lo + per, nb);
    F run;
    f_set_one(run);
    for (uint32_t i = hi; i-- > lo;) { /* ibt[i] = product of bt[i+1 .. hi) for now */
        ibt[i] = run;
        f_mul(run, run, bt[i]);
    }
    F others, total;
    ba_block_others(run, sp, ss, &others, &total);
    if (threadIdx.x == 0)
        f_inv_var(*inv, total);
    __syncthreads();
    F r; /* 1 / (product of bt[lo..hi)) times the product of bt[lo..i) */
    f_mul(r, *inv, others);
    for (uint32_t i = lo; i < hi; i++) {
        F suf = ibt[i];
        f_mul(ibt[i], r, suf);
        f_mul(r, r, bt[i]);
    }
}

} // namespace SP_CURVE_NS

#endif
