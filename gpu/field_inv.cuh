/*
 * Inversion in Fp and Fp2 by Fermat's little theorem, for the places that
 * invert once for a whole batch (Montgomery's trick) and so need no faster
 * method: the runs of XYZZ points made affine (curve_batch.cuh: the
 * fixed-base multiplication, the MSM tables) and the rounds of the
 * batch-affine MSM accumulations (msm_ba.cu, msm_ba2.cu).
 */
#ifndef SP_GPU_FIELD_INV_CUH
#define SP_GPU_FIELD_INV_CUH

#include "field.cuh"

/* r = a^(p-2) = 1/a in Fp (0 for a = 0): square and multiply over the bits
 * of p - 2, most significant first. r may alias a. */
template <int M>
static __device__ __noinline__ void f_inv_fermat(fp_tm<M> &r, const fp_tm<M> &a)
{
    constexpr uint64_t p[SP_FP_LIMBS] = SP_FP_MODULUS_INIT;
    fp_tm<M> x;
    f_set_one(x);
#pragma unroll 1
    for (int l = SP_FP_LIMBS - 1; l >= 0; l--) {
        const uint64_t e = l == 0 ? p[0] - 2 : p[l]; /* p[0] > 2: no borrow */
#pragma unroll 1
        for (int b = 63; b >= 0; b--) {
            f_sqr(x, x);
            if ((e >> b) & 1)
                f_mul(x, x, a);
        }
    }
    r = x;
}

/* 1/(c0 + c1 u) = (c0 - c1 u) / (c0^2 + c1^2), as u^2 = -1 (0 for 0).
 * r may alias a. */
template <int M>
static __device__ __noinline__ void f_inv_fermat(fp2_tm<M> &r, const fp2_tm<M> &a)
{
    fp_tm<M> n, t;
    f_sqr(n, a.c0);
    f_sqr(t, a.c1);
    f_add(n, n, t);
    f_inv_fermat(n, n);
    f_mul(r.c0, a.c0, n);
    f_mul(t, a.c1, n);
    f_neg(r.c1, t);
}

#endif
