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
 * cubin).
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

namespace SP_CURVE_NS {

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

/* acc[k], acc[k + 1] += p(k + off) * m for k = 2, 4, ..., N - 2 (the
 * modulus' words from `off`, 0 or 1), continuing the chain in the flag. */
template <class D, int off>
static __device__ __forceinline__ void eo_mad_row_p_rest(uint32_t *acc, uint32_t m)
{
    constexpr int N = D::N;
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

/* p's 32-bit words 0 and 1 are 1 and 2^32 - 1 (BLS12-381's r; folded at
 * compile time): mont_eo_fr.cuh says why that matters. */
template <class D>
static __device__ __forceinline__ bool eo_low_words()
{
    return D::p(0) == 1u && D::p(1) == 0xffffffffu;
}

/* Reduction of one row: m = E[0] n0, E += m p_even, O += m p_odd; the
 * carry out of E goes to O's top word (word N of T). Afterwards E[0] = 0.
 * With X and eo_low_words, the products of m with p's words 0 and 1 are
 * additions: p(0) m = (m, 0), p(1) m = (-m, m - [m != 0]) (the
 * subtraction's borrow is [m != 0]). */
template <class D, bool X>
static __device__ __forceinline__ void eo_redc(uint32_t *ev, uint32_t *od)
{
    constexpr int N = D::N;
    const uint32_t m = ev[0] * D::n0();
    if (X && eo_low_words<D>()) {
        const uint32_t lo1 = sub_cc(0, m), hi1 = subc(m, 0);
        od[0] = add_cc(od[0], lo1);
        od[1] = addc_cc(od[1], hi1);
    } else {
        od[0] = mad_lo_cc(D::p(1), m, od[0]);
        od[1] = madc_hi_cc(D::p(1), m, od[1]);
    }
    eo_mad_row_p_rest<D, 1>(od, m);
    if (X && eo_low_words<D>()) {
        ev[0] = add_cc(ev[0], m);
        ev[1] = addc_cc(ev[1], 0);
    } else {
        ev[0] = mad_lo_cc(D::p(0), m, ev[0]);
        ev[1] = madc_hi_cc(D::p(0), m, ev[1]);
    }
    eo_mad_row_p_rest<D, 0>(ev, m);
    od[N - 1] = addc(od[N - 1], 0);
}

/* Row i > 0's product: ev (the previous odd accumulator, now
 * word-aligned) and od (the previous even one, E[0] = 0, now one word
 * higher after the shift) get a * b_i. */
template <int N>
static __device__ __forceinline__ void eo_row_mul(uint32_t *ev, uint32_t *od, const uint32_t *a,
                                                  uint32_t b)
{
    ev[0] = add_cc(ev[0], od[1]); /* word 0 of the shifted T */
    eo_mad_row_shift<N>(od, a + 1, b);
    eo_mad_row<N>(ev, a, b);
    od[N - 1] = addc(od[N - 1], 0);
}

/* A second product of the same row, c * d_i, into the aligned pair
 * (ev at word 0, od one word higher); the carry out of od is 0 by the
 * bound of mont_mul_eo_sum. */
template <int N>
static __device__ __forceinline__ void eo_row_mad(uint32_t *ev, uint32_t *od, const uint32_t *c,
                                                  uint32_t d)
{
    eo_mad_row<N>(ev, c, d);
    od[N - 1] = addc(od[N - 1], 0);
    eo_mad_row<N>(od, c + 1, d);
}

/* T / 2^32 = (y >> 32) + x after the last row (N - 1, odd: it left E in
 * y, y[0] = 0, and O in x), then the final subtraction. */
template <class D>
static __device__ __forceinline__ void eo_finish(uint32_t *r, const uint32_t *x, const uint32_t *y)
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

/* How eo_mul_run uses its second pair of operands (c, d): not at all, as
 * a second product summed into the first's, or as an independent
 * product whose rows alternate with the first's. */
enum { EO_ONE = 0, EO_SUM = 1, EO_PAIR = 2 };

/* Row i > 0 of each product (see eo_mul_run): ev, od the first's
 * accumulators, ev1, od1 the independent second's (EO_PAIR). */
template <class D, bool X, int MODE>
static __device__ __forceinline__ void eo_step(uint32_t *ev, uint32_t *od, const uint32_t *a, uint32_t b,
                                               const uint32_t *c, uint32_t d, uint32_t *ev1, uint32_t *od1)
{
    constexpr int N = D::N;
    eo_row_mul<N>(ev, od, a, b);
    if (MODE == EO_SUM)
        eo_row_mad<N>(ev, od, c, d);
    eo_redc<D, X>(ev, od);
    if (MODE == EO_PAIR) {
        eo_row_mul<N>(ev1, od1, c, d);
        eo_redc<D, X>(ev1, od1);
    }
}

/* r = a b / R mod p; with EO_SUM r = (a b + c d) / R, with EO_PAIR also
 * r1 = c d / R (mod p); X: eo_redc's additions for special low words.
 * Every output may alias any input. */
template <class D, bool X, int MODE>
static __device__ __forceinline__ void eo_mul_run(uint32_t *r, const uint32_t *a, const uint32_t *b,
                                                  const uint32_t *c, const uint32_t *d, uint32_t *r1)
{
    constexpr int N = D::N;
    static_assert(N % 2 == 0, "even word count");
    uint32_t x[N], y[N], x1[N], y1[N]; /* x1, y1: EO_PAIR's second product */
    eo_mul_row<N>(x, a, b[0]);
    if (MODE == EO_PAIR)
        eo_mul_row<N>(x1, c, d[0]);
    eo_mul_row<N>(y, a + 1, b[0]);
    if (MODE == EO_PAIR)
        eo_mul_row<N>(y1, c + 1, d[0]);
    if (MODE == EO_SUM)
        eo_row_mad<N>(x, y, c, d[0]);
    eo_redc<D, X>(x, y);
    if (MODE == EO_PAIR)
        eo_redc<D, X>(x1, y1);
#pragma unroll
    for (int i = 1; i < N; i += 2) { /* rows 1..N-1: odd rows align y, even rows x */
        eo_step<D, X, MODE>(y, x, a, b[i], c, d[i], y1, x1);
        if (i + 1 < N)
            eo_step<D, X, MODE>(x, y, a, b[i + 1], c, d[i + 1], x1, y1);
    }
    eo_finish<D>(r, x, y);
    if (MODE == EO_PAIR)
        eo_finish<D>(r1, x1, y1);
}

/* r = a * b / R mod p for a, b < p. r may alias a or b. */
template <class D>
static __device__ __forceinline__ void mont_mul_eo(uint32_t *r, const uint32_t *a,
                                                   const uint32_t *b)
{
    eo_mul_run<D, false, EO_ONE>(r, a, b, a, b, r);
}

/*
 * r = (a b + c d) / R mod p for a, b, c, d < p, one Montgomery reduction
 * for the two products (Fp2 multiplication, field.cuh). Needs two spare
 * bits, p < 2^(32N - 2): with T < 4p before a row, T + a b_i + c d_i + m p
 * < 4p + 3p 2^32 < 2^(32(N+1)), so no chain carries out of word N, and
 * after the row's shift T < 3p + 4p / 2^32 < 4p again. The result before the
 * final subtraction, (a b + c d + M p) / R with M < R, is below
 * 2p^2 / R + p < 2p (2p < R), so one subtraction reduces it.
 */
template <class D>
static __device__ __forceinline__ void mont_mul_eo_sum(uint32_t *r, const uint32_t *a,
                                                       const uint32_t *b, const uint32_t *c,
                                                       const uint32_t *d)
{
    eo_mul_run<D, false, EO_SUM>(r, a, b, c, d, r);
}

} // namespace SP_CURVE_NS

#endif
