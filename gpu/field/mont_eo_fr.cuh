/*
 * The even/odd Montgomery product of mont_eo.cuh with the reduction's
 * first two words done by additions when the modulus allows it, for the
 * NTT kernels (Fr; the MSM keeps mont_eo.cuh).
 *
 * Why: in SASS, the product of a variable word with a constant word of p
 * is an IMAD.X (low half) and an IMAD.HI.U32.X (high half), and both sit
 * on the multiply pipe, which is what bounds the product (the static
 * schedule of one Fr product is ~650 cycles for one warp, and the
 * throughput with every warp slot full is the same).
 * BLS12-381's r ends in the 32-bit words 1, 2^32 - 1 (so n0 = 2^32 - 1):
 * m * 1 is m, and m * (2^32 - 1) is (m - [m != 0]) 2^32 + (-m mod 2^32),
 * two values computed once per row with two additions. That removes 2 of
 * the 8 word products of every reduction row (16 of the product's 128),
 * the multiplications moved to the add pipe (mont_eo.cuh's eo_redc with
 * X = true). Any other modulus (BN254's r) takes the generic words: the
 * same code as mont_mul_eo.
 *
 * mont_mul_eo2 runs two independent products with their rows alternating,
 * for two butterflies at once. ptxas decides the final order.
 * tests/gpu compares both forms with the CPU on random inputs.
 */
#ifndef SP_GPU_FIELD_EO2_CUH
#define SP_GPU_FIELD_EO2_CUH

#include "field.cuh"

namespace SP_CURVE_NS {

/* r = a * b / R mod p for a, b < p; r may alias a or b. */
template <class D>
static __device__ __forceinline__ void mont_mul_eox(uint32_t *r, const uint32_t *a,
                                                    const uint32_t *b)
{
    eo_mul_run<D, true, EO_ONE>(r, a, b, a, b, r);
}

/* r0 = a0 * b0 / R, r1 = a1 * b1 / R mod p, the rows of the two products
 * alternating; every output may alias any input. */
template <class D>
static __device__ __forceinline__ void mont_mul_eox2(uint32_t *r0, const uint32_t *a0,
                                                     const uint32_t *b0, uint32_t *r1,
                                                     const uint32_t *a1, const uint32_t *b1)
{
    eo_mul_run<D, true, EO_PAIR>(r0, a0, b0, a1, b1, r1);
}

/* Field-type forms for Fr. The even/odd type takes these products; the
 * PTX and 64-bit types (which the NTT kernels are built for too) their
 * own single product. */
template <int M>
static __device__ __forceinline__ void fx_mul(fr_tm<M> &r, const fr_tm<M> &a, const fr_tm<M> &b)
{
    if (M == SP_MUL_EO)
        mont_mul_eox<fr_desc>(r.w, a.w, b.w);
    else
        f_mul(r, a, b);
}

template <int M>
static __device__ __forceinline__ void fx_mul2(fr_tm<M> &r0, const fr_tm<M> &a0, const fr_tm<M> &b0,
                                               fr_tm<M> &r1, const fr_tm<M> &a1, const fr_tm<M> &b1)
{
    if (M == SP_MUL_EO) {
        mont_mul_eox2<fr_desc>(r0.w, a0.w, b0.w, r1.w, a1.w, b1.w);
    } else {
        f_mul(r0, a0, b0);
        f_mul(r1, a1, b1);
    }
}

} // namespace SP_CURVE_NS

#endif
