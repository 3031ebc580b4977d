/*
 * Fp2 over two lanes: of a pair of neighbouring lanes (2j, 2j + 1) of a
 * warp, the even one holds c0 and the odd one c1 of every Fp2 element
 * they work on together, so each holds 12 words (BLS12-381) where one
 * lane would hold 24: the registers a G2 kernel needs halve, and twice
 * the warps fit on an SM (msm_ba2.cu's G2 sums, SP_BA_APPLY_LANES).
 *
 * A product exchanges both operands' halves with the other lane (shuffles)
 * and each lane makes one sum of two products with one reduction
 * (mont_mul_eo_sum, field_eo.cuh): the even lane c0 = a0 b0 + a1 (-b1),
 * the odd one c1 = a0 b1 + a1 b0, the Fp2 sums' work split evenly. A
 * square: the even lane (a0 + a1)(a0 - a1), the odd one a0 (2 a1). Sums,
 * differences and negations are each lane's own.
 *
 * mask: the pair's two bits (l2_mask); both lanes must make every call.
 */
#ifndef SP_GPU_FIELD_LANES_CUH
#define SP_GPU_FIELD_LANES_CUH

#include "field.cuh"
#include "field_eo.cuh"

/* The pair of the calling lane: its shuffle mask and its half (0: c0). */
static __device__ __forceinline__ unsigned l2_mask() { return 3u << (threadIdx.x & 30); }
static __device__ __forceinline__ unsigned l2_half() { return threadIdx.x & 1; }

/* o = the other lane's a. */
template <int M>
static __device__ __forceinline__ void l2_other(fp_tm<M> &o, const fp_tm<M> &a, unsigned mask)
{
#pragma unroll
    for (int j = 0; j < 2 * SP_FP_LIMBS; j++)
        o.w[j] = __shfl_xor_sync(mask, a.w[j], 1);
}

/* This lane's half of r = a b (a, b: this lane's halves). r may alias a or b. */
template <int M>
static __device__ __forceinline__ void l2_mul(fp_tm<M> &r, const fp_tm<M> &a, const fp_tm<M> &b,
                                              unsigned mask, unsigned half)
{
    fp_tm<M> ao, bo, y, w;
    l2_other(ao, a, mask);
    l2_other(bo, b, mask);
    /* even: a b + ao (-bo) = a0 b0 - a1 b1; odd: a bo + ao b = a1 b0 + a0 b1 */
    if (half) {
        y = bo;
        w = b;
    } else {
        y = b;
        f_neg(w, bo);
    }
    mont_mul_eo_sum<fp_desc>(r.w, a.w, y.w, ao.w, w.w);
}

/* This lane's half of r = a^2. r may alias a. */
template <int M>
static __device__ __forceinline__ void l2_sqr(fp_tm<M> &r, const fp_tm<M> &a, unsigned mask,
                                              unsigned half)
{
    fp_tm<M> ao, x, y;
    l2_other(ao, a, mask);
    if (half) { /* a0 (2 a1) */
        x = ao;
        f_add(y, a, a);
    } else { /* (a0 + a1)(a0 - a1) */
        f_add(x, a, ao);
        f_sub(y, a, ao);
    }
    mont_mul_eo<fp_desc>(r.w, x.w, y.w);
}

/* This lane's half of the Fp2 element at p (h = its half). */
template <int M>
static __device__ __forceinline__ const fp_tm<M> *l2_at(const fp2_tm<M> *p, unsigned h)
{
    return h ? &p->c1 : &p->c0;
}
template <int M> static __device__ __forceinline__ fp_tm<M> *l2_at(fp2_tm<M> *p, unsigned h)
{
    return h ? &p->c1 : &p->c0;
}

/* The whole element from both lanes' halves. */
template <int M>
static __device__ __forceinline__ void l2_join(fp2_tm<M> &r, const fp_tm<M> &a, unsigned mask,
                                               unsigned half)
{
    fp_tm<M> o;
    l2_other(o, a, mask);
    r.c0 = half ? o : a;
    r.c1 = half ? a : o;
}

#endif
