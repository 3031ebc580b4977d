/*
 * The even/odd Montgomery product of field_eo.cuh with the reduction's
 * first two words done by additions when the modulus allows it, for the
 * NTT kernels (Fr only so far; the MSM keeps field_eo.cuh).
 *
 * Why: in SASS, the product of a variable word with a constant word of p
 * is an IMAD.X (low half) and an IMAD.HI.U32.X (high half), and both sit
 * on the multiply pipe, which is what bounds the product (the static
 * schedule of one Fr product is ~650 cycles for one warp, and the measured
 * throughput with every warp slot full is the same: bench/NOTES.md).
 * BLS12-381's r ends in the 32-bit words 1, 2^32 - 1 (so n0 = 2^32 - 1):
 * m * 1 is m, and m * (2^32 - 1) is (m - [m != 0]) 2^32 + (-m mod 2^32),
 * two values computed once per row with two additions. That removes 2 of
 * the 8 word products of every reduction row (16 of the product's 128),
 * the multiplications moved to the add pipe. Any other modulus (BN254's
 * r) takes the generic words: the same code as field_eo.cuh.
 *
 * mont_mul_eo2 runs two independent products with their rows alternating,
 * for the NTT's two butterflies of one stage. ptxas decides the final
 * order: the SASS of the pair is what bench/NOTES.md records.
 * tests/gpu compares both forms with the CPU on random inputs.
 */
#ifndef SP_GPU_FIELD_EO2_CUH
#define SP_GPU_FIELD_EO2_CUH

#include "field.cuh"

/* p's words 0 and 1 are 1 and 2^32 - 1 (folded at compile time). */
template <class D>
static __device__ __forceinline__ bool eox_low_words()
{
    return D::p(0) == 1u && D::p(1) == 0xffffffffu;
}

/* As eo_mad_row_p, with the first word product replaced by the addition
 * of (lo, hi) = p(off) * m when eox_low_words. */
template <class D, int off>
static __device__ __forceinline__ void eox_mad_row_p(uint32_t *acc, uint32_t m, uint32_t lo,
                                                     uint32_t hi)
{
    constexpr int N = D::N;
    if (eox_low_words<D>()) {
        acc[0] = add_cc(acc[0], lo);
        acc[1] = addc_cc(acc[1], hi);
    } else {
        acc[0] = mad_lo_cc(D::p(off), m, acc[0]);
        acc[1] = madc_hi_cc(D::p(off), m, acc[1]);
    }
#pragma unroll
    for (int k = 2; k < N; k += 2) {
        acc[k] = madc_lo_cc(D::p(k + off), m, acc[k]);
        acc[k + 1] = madc_hi_cc(D::p(k + off), m, acc[k + 1]);
    }
}

/* eo_redc with the special words: p(0) m = (m, 0), p(1) m = (-m, m -
 * [m != 0]); the subtraction's borrow is [m != 0]. */
template <class D>
static __device__ __forceinline__ void eox_redc(uint32_t *ev, uint32_t *od)
{
    constexpr int N = D::N;
    const uint32_t m = ev[0] * D::n0();
    uint32_t lo1 = 0, hi1 = 0;
    if (eox_low_words<D>()) {
        lo1 = sub_cc(0, m);
        hi1 = subc(m, 0);
    }
    eox_mad_row_p<D, 1>(od, m, lo1, hi1);
    eox_mad_row_p<D, 0>(ev, m, m, 0);
    od[N - 1] = addc(od[N - 1], 0);
}

/* eo_row with eox_redc. */
template <class D>
static __device__ __forceinline__ void eox_row(uint32_t *ev, uint32_t *od, const uint32_t *a,
                                               uint32_t b)
{
    constexpr int N = D::N;
    ev[0] = add_cc(ev[0], od[1]);
    eo_mad_row_shift<N>(od, a + 1, b);
    eo_mad_row<N>(ev, a, b);
    od[N - 1] = addc(od[N - 1], 0);
    eox_redc<D>(ev, od);
}

/* T / 2^32 = (y >> 32) + x after the last row, then the final subtraction
 * (the tail of mont_mul_eo). */
template <class D>
static __device__ __forceinline__ void eox_finish(uint32_t *r, const uint32_t *x, const uint32_t *y)
{
    constexpr int N = D::N;
    uint32_t t[N + 1];
    t[0] = add_cc(y[1], x[0]);
#pragma unroll
    for (int k = 1; k < N - 1; k++)
        t[k] = addc_cc(y[k + 1], x[k]);
    t[N - 1] = addc(x[N - 1], 0);
    t[N] = 0;
    mont_final_sub<D>(r, t);
}

/* r = a * b / R mod p for a, b < p; r may alias a or b. */
template <class D>
static __device__ __forceinline__ void mont_mul_eox(uint32_t *r, const uint32_t *a,
                                                    const uint32_t *b)
{
    constexpr int N = D::N;
    static_assert(N % 2 == 0, "even word count");
    uint32_t x[N], y[N];
    eo_mul_row<N>(x, a, b[0]);
    eo_mul_row<N>(y, a + 1, b[0]);
    eox_redc<D>(x, y);
#pragma unroll
    for (int i = 1; i < N; i += 2) {
        eox_row<D>(y, x, a, b[i]);
        if (i + 1 < N)
            eox_row<D>(x, y, a, b[i + 1]);
    }
    eox_finish<D>(r, x, y);
}

/* r0 = a0 * b0 / R, r1 = a1 * b1 / R mod p, the rows of the two products
 * alternating; every output may alias any input. */
template <class D>
static __device__ __forceinline__ void mont_mul_eox2(uint32_t *r0, const uint32_t *a0,
                                                     const uint32_t *b0, uint32_t *r1,
                                                     const uint32_t *a1, const uint32_t *b1)
{
    constexpr int N = D::N;
    static_assert(N % 2 == 0, "even word count");
    uint32_t x0[N], y0[N], x1[N], y1[N];
    eo_mul_row<N>(x0, a0, b0[0]);
    eo_mul_row<N>(x1, a1, b1[0]);
    eo_mul_row<N>(y0, a0 + 1, b0[0]);
    eo_mul_row<N>(y1, a1 + 1, b1[0]);
    eox_redc<D>(x0, y0);
    eox_redc<D>(x1, y1);
#pragma unroll
    for (int i = 1; i < N; i += 2) {
        eox_row<D>(y0, x0, a0, b0[i]);
        eox_row<D>(y1, x1, a1, b1[i]);
        if (i + 1 < N) {
            eox_row<D>(x0, y0, a0, b0[i + 1]);
            eox_row<D>(x1, y1, a1, b1[i + 1]);
        }
    }
    eox_finish<D>(r0, x0, y0);
    eox_finish<D>(r1, x1, y1);
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

#endif
