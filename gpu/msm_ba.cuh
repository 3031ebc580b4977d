/*
 * What the two batch-affine bucket accumulations (msm_ba.cu, acc = 1, and
 * msm_ba2.cu, acc = 2) share: how the affine sum of a pair is made, and the
 * halving of the buckets' list lengths between rounds.
 */
#ifndef SP_GPU_MSM_BA_CUH
#define SP_GPU_MSM_BA_CUH

#include <stdint.h>
#include "curve.cuh"

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

/* nlen = ceil(len / 2); *maxlen = the largest. */
static __global__ void ba_halve(uint32_t *nlen, const uint32_t *len, uint32_t nb, unsigned *maxlen)
{
    const uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t l = 0;
    if (b < nb) {
        l = (len[b] + 1) / 2;
        nlen[b] = l;
    }
    l = __reduce_max_sync(0xffffffffu, l); /* one atomic per warp */
    if ((threadIdx.x & 31) == 0 && l > 1)
        atomicMax(maxlen, l);
}

#endif
