/*
 * Montgomery multiplication with even/odd carry chains (SP_MUL_EO), for
 * N-word fields (N even) with at least one spare bit (p < 2^(32N - 1)): on
 * BLS12-381 Fp (N = 12, 3 spare bits) and Fr (N = 8, 1 spare bit), on
 * BN254 Fp and Fr (N = 8, 2 spare bits each). Included by field.cuh, which
 * defines the carry-chain primitives, fp_desc/fr_desc and mont_final_sub.
 *
 * Why: the product a_j * b_i has its low half at word j and its high half
 * at word j + 1. In field.cuh's CIOS the low halves of a row form one
 * carry chain and the high halves the next, so ptxas emits IMAD, IMAD.HI
 * and two IADD3.X per partial product (~1150 instructions per Fp
 * product). Here the products of the even words a_0, a_2, ... go into one
 * accumulator E (low, high, low, high: one chain) and those of the odd
 * words into a second accumulator O that sits one word higher; then the
 * low and high halves of each product are adjacent in one chain and ptxas
 * fuses each pair into one IMAD.WIDE.U32 with carry in and out (~400
 * instructions per Fp product, 288 of them the products; measured in the
 * cubin, see bench/NOTES.md).
 *
 * The running value of CIOS is T = E + 2^32 O. After the reduction step
 * of row i, E[0] = 0 and the one-word shift T / 2^32 = (E >> 32) + O is
 * free: O becomes the word-aligned accumulator of the next row, and E,
 * read two words further on, its one-word-higher partner (the add of E[1]
 * into the new word 0 starts the chain). The roles swap every row.
 *
 * Dropped carries: T + a b_i + m p < 2p + 2^33 p <= 2^(32(N+1)) whenever
 * p < 2^(32N - 1), and the accumulators hold non-negative parts of that
 * sum, so no chain can carry out of word N (the chains whose carry is not
 * consumed end there). The result T < 2p < 2^(32N) is reduced by one
 * conditional subtraction, as in field.cuh.
 */
#ifndef SP_GPU_FIELD_EO_CUH
#define SP_GPU_FIELD_EO_CUH

/* acc[2k], acc[2k+1] = the product y[2k] * x, k < N/2 (no carries: the
 * products occupy disjoint words). */
template <int N>
static __device__ __forceinline__ void eo_mul_row(uint32_t *acc, const uint32_t *y, uint32_t x)
{
#pragma unroll
    for (int k = 0; k < N; k += 2) {
        uint64_t p = (uint64_t)y[k] * x;
        acc[k] = (uint32_t)p;
        acc[k + 1] = (uint32_t)(p >> 32);
    }
}

/* acc[0..N) += sum_k y[2k] * x 2^(64k), one carry chain started here;
 * the carry out of acc[N-1] is left in the flag for the caller. */
template <int N>
static __device__ __forceinline__ void eo_mad_row(uint32_t *acc, const uint32_t *y, uint32_t x)
{
    acc[0] = mad_lo_cc(y[0], x, acc[0]);
    acc[1] = madc_hi_cc(y[0], x, acc[1]);
#pragma unroll
    for (int k = 2; k < N; k += 2) {
        acc[k] = madc_lo_cc(y[k], x, acc[k]);
        acc[k + 1] = madc_hi_cc(y[k], x, acc[k + 1]);
    }
}

/* The same with the words of the modulus starting at word `off` (0 or 1). */
template <class D, int off>
static __device__ __forceinline__ void eo_mad_row_p(uint32_t *acc, uint32_t m)
{
    constexpr int N = D::N;
    acc[0] = mad_lo_cc(D::p(off), m, acc[0]);
    acc[1] = madc_hi_cc(D::p(off), m, acc[1]);
#pragma unroll
    for (int k = 2; k < N; k += 2) {
        acc[k] = madc_lo_cc(D::p(k + off), m, acc[k]);
        acc[k + 1] = madc_hi_cc(D::p(k + off), m, acc[k + 1]);
    }
}

/* acc[j] = acc[j + 2] + (sum_k y[2k] * x 2^(64k))_j for j < N, words past
 * N read as 0: the one-word shift of the lagging accumulator and its new
 * products in one chain, continuing the carry already in the flag. */
template <int N>
static __device__ __forceinline__ void eo_mad_row_shift(uint32_t *acc, const uint32_t *y,
                                                        uint32_t x)
{
#pragma unroll
    for (int k = 0; k < N - 2; k += 2) {
        acc[k] = madc_lo_cc(y[k], x, acc[k + 2]);
        acc[k + 1] = madc_hi_cc(y[k], x, acc[k + 3]);
    }
    acc[N - 2] = madc_lo_cc(y[N - 2], x, 0);
    acc[N - 1] = madc_hi(y[N - 2], x, 0); /* hi < 2^32 - 1: no carry out */
}

/* Reduction of one row: m = E[0] n0, E += m p_even, O += m p_odd; the
 * carry out of E goes to O's top word (word N of T). Afterwards E[0] = 0. */
template <class D>
static __device__ __forceinline__ void eo_redc(uint32_t *ev, uint32_t *od)
{
    constexpr int N = D::N;
    uint32_t m = ev[0] * D::n0();
    eo_mad_row_p<D, 1>(od, m);
    eo_mad_row_p<D, 0>(ev, m);
    od[N - 1] = addc(od[N - 1], 0);
}

/* Row i > 0: ev (the previous odd accumulator, now word-aligned) and od
 * (the previous even one, E[0] = 0, now one word higher after the shift)
 * get a * b_i, then the reduction. */
template <class D>
static __device__ __forceinline__ void eo_row(uint32_t *ev, uint32_t *od, const uint32_t *a,
                                              uint32_t b)
{
    constexpr int N = D::N;
    ev[0] = add_cc(ev[0], od[1]); /* word 0 of the shifted T */
    eo_mad_row_shift<N>(od, a + 1, b);
    eo_mad_row<N>(ev, a, b);
    od[N - 1] = addc(od[N - 1], 0);
    eo_redc<D>(ev, od);
}

/* r = a * b / R mod p for a, b < p. r may alias a or b. */
template <class D>
static __device__ __forceinline__ void mont_mul_eo(uint32_t *r, const uint32_t *a,
                                                   const uint32_t *b)
{
    constexpr int N = D::N;
    static_assert(N % 2 == 0, "even word count");
    uint32_t x[N], y[N], t[N + 1];
    eo_mul_row<N>(x, a, b[0]);
    eo_mul_row<N>(y, a + 1, b[0]);
    eo_redc<D>(x, y);
#pragma unroll
    for (int i = 1; i < N; i += 2) { /* rows 1..N-1: odd rows align y, even rows x */
        eo_row<D>(y, x, a, b[i]);
        if (i + 1 < N)
            eo_row<D>(x, y, a, b[i + 1]);
    }
    /* the last row (N - 1, odd) left E in y (y[0] = 0) and O in x:
     * T / 2^32 = (y >> 32) + x */
    t[0] = add_cc(y[1], x[0]);
#pragma unroll
    for (int k = 1; k < N - 1; k++)
        t[k] = addc_cc(y[k + 1], x[k]);
    t[N - 1] = addc(x[N - 1], 0);
    t[N] = 0;
    mont_final_sub<D>(r, t);
}

#endif
