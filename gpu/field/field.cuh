/*
 * Device arithmetic in Fp, Fr and Fp2 of the build's curve: Fp in
 * 2 * SP_FP_LIMBS 32-bit words (12 on BLS12-381, 8 on BN254), Fr in
 * 2 * SP_FR_LIMBS (8 on both).
 *
 * Same representation as the CPU (src/field/field.h): Montgomery form with
 * R = 2^(64 SP_FP_LIMBS) / 2^(64 SP_FR_LIMBS), always fully reduced, little-endian words, so an
 * sp_fp in memory is an fp_t. Constants come from src/field/consts.h.
 *
 * Multiplication is CIOS Montgomery: for each word b_i, the row a * b_i
 * and then m * p are added with PTX carry chains (mad.lo.cc / madc.hi.cc),
 * low halves in one chain and high halves in the next, so each chain is an
 * uninterrupted add-with-carry sequence (the thread has one carry flag; no
 * other carry-using instruction may come between, which is why each chain
 * is a run of volatile asm statements with nothing in between).
 */
#ifndef SP_GPU_FIELD_CUH
#define SP_GPU_FIELD_CUH

#include <stdint.h>
#include "field/consts.h"

namespace SP_CURVE_NS {

/* ---- PTX carry-chain primitives ---- */

#define SP_PTX3(name, op)                                                          \
    static __device__ __forceinline__ uint32_t name(uint32_t a, uint32_t b, uint32_t c) \
    {                                                                              \
        uint32_t r;                                                                \
        asm volatile(op " %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));    \
        return r;                                                                  \
    }
#define SP_PTX2(name, op)                                                          \
    static __device__ __forceinline__ uint32_t name(uint32_t a, uint32_t b)        \
    {                                                                              \
        uint32_t r;                                                                \
        asm volatile(op " %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));                \
        return r;                                                                  \
    }
SP_PTX3(mad_lo_cc, "mad.lo.cc.u32")
SP_PTX3(madc_lo_cc, "madc.lo.cc.u32")
SP_PTX3(mad_hi_cc, "mad.hi.cc.u32")
SP_PTX3(madc_hi_cc, "madc.hi.cc.u32")
SP_PTX3(madc_hi, "madc.hi.u32")
SP_PTX2(add_cc, "add.cc.u32")
SP_PTX2(addc_cc, "addc.cc.u32")
SP_PTX2(addc, "addc.u32")
SP_PTX2(sub_cc, "sub.cc.u32")
SP_PTX2(subc_cc, "subc.cc.u32")
SP_PTX2(subc, "subc.u32")
#undef SP_PTX2
#undef SP_PTX3

/* ---- field descriptions: word j of the constants, folded at compile time ---- */

struct fp_desc {
    enum { N = 2 * SP_FP_LIMBS };
    static __device__ __forceinline__ uint32_t p(int j)
    {
        constexpr uint64_t m[SP_FP_LIMBS] = SP_FP_MODULUS_INIT;
        return (uint32_t)(m[j >> 1] >> (32 * (j & 1)));
    }
    static __device__ __forceinline__ uint32_t one(int j)
    {
        constexpr uint64_t m[SP_FP_LIMBS] = SP_FP_MONT_ONE_INIT;
        return (uint32_t)(m[j >> 1] >> (32 * (j & 1)));
    }
    static __device__ __forceinline__ uint32_t n0() { return (uint32_t)SP_FP_N0; }
};

struct fr_desc {
    enum { N = 2 * SP_FR_LIMBS };
    static __device__ __forceinline__ uint32_t p(int j)
    {
        constexpr uint64_t m[SP_FR_LIMBS] = SP_FR_MODULUS_INIT;
        return (uint32_t)(m[j >> 1] >> (32 * (j & 1)));
    }
    static __device__ __forceinline__ uint32_t one(int j)
    {
        constexpr uint64_t m[SP_FR_LIMBS] = SP_FR_MONT_ONE_INIT;
        return (uint32_t)(m[j >> 1] >> (32 * (j & 1)));
    }
    static __device__ __forceinline__ uint32_t n0() { return (uint32_t)SP_FR_N0; }
};

/* mont_add and mont_eo.cuh need a spare bit (p < 2^(32N - 1)). */
struct sp_spare_bit_check {
    static constexpr uint64_t fp[SP_FP_LIMBS] = SP_FP_MODULUS_INIT;
    static constexpr uint64_t fr[SP_FR_LIMBS] = SP_FR_MODULUS_INIT;
};
static_assert(sp_spare_bit_check::fp[SP_FP_LIMBS - 1] >> 63 == 0, "Fp needs a spare bit");
static_assert(sp_spare_bit_check::fr[SP_FR_LIMBS - 1] >> 63 == 0, "Fr needs a spare bit");

/* ---- generic N-word Montgomery arithmetic ---- */

/* r = t mod p for t = t[0..N] < 2p (t[N] is 0 or 1). */
template <class D>
static __device__ __forceinline__ void mont_final_sub(uint32_t *r, const uint32_t *t)
{
    constexpr int N = D::N;
    uint32_t s[N];
    s[0] = sub_cc(t[0], D::p(0));
#pragma unroll
    for (int j = 1; j < N; j++)
        s[j] = subc_cc(t[j], D::p(j));
    uint32_t borrow = subc(t[N], 0); /* all ones when t < p */
#pragma unroll
    for (int j = 0; j < N; j++)
        r[j] = borrow ? t[j] : s[j];
}

/* t[0..N+1] += x * y[0..N-1] (x one word), as two carry chains. */
template <int N>
static __device__ __forceinline__ void mont_row(uint32_t *t, uint32_t x, const uint32_t *y)
{
    t[0] = mad_lo_cc(x, y[0], t[0]);
#pragma unroll
    for (int j = 1; j < N; j++)
        t[j] = madc_lo_cc(x, y[j], t[j]);
    t[N] = addc_cc(t[N], 0);
    t[N + 1] = addc(t[N + 1], 0);
    t[1] = mad_hi_cc(x, y[0], t[1]);
#pragma unroll
    for (int j = 1; j < N; j++)
        t[j + 1] = madc_hi_cc(x, y[j], t[j + 1]);
    t[N + 1] = addc(t[N + 1], 0);
}

/* t[0..N+1] += m * p. */
template <class D>
static __device__ __forceinline__ void mont_row_p(uint32_t *t, uint32_t m)
{
    constexpr int N = D::N;
    t[0] = mad_lo_cc(m, D::p(0), t[0]);
#pragma unroll
    for (int j = 1; j < N; j++)
        t[j] = madc_lo_cc(m, D::p(j), t[j]);
    t[N] = addc_cc(t[N], 0);
    t[N + 1] = addc(t[N + 1], 0);
    t[1] = mad_hi_cc(m, D::p(0), t[1]);
#pragma unroll
    for (int j = 1; j < N; j++)
        t[j + 1] = madc_hi_cc(m, D::p(j), t[j + 1]);
    t[N + 1] = addc(t[N + 1], 0);
}

/* r = a * b / R mod p (CIOS). r may alias a or b. */
template <class D>
static __device__ __forceinline__ void mont_mul(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    constexpr int N = D::N;
    uint32_t t[N + 2];
#pragma unroll
    for (int j = 0; j < N + 2; j++)
        t[j] = 0;
#pragma unroll
    for (int i = 0; i < N; i++) {
        mont_row<N>(t, b[i], a);
        uint32_t m = t[0] * D::n0();
        mont_row_p<D>(t, m);
        /* t[0] is now 0: shift one word down */
#pragma unroll
        for (int j = 0; j < N + 1; j++)
            t[j] = t[j + 1];
        t[N + 1] = 0;
    }
    mont_final_sub<D>(r, t);
}

/*
 * The same CIOS product written with 64-bit arithmetic in plain C++ (no
 * asm): each partial product is one IMAD.WIDE whose 64-bit addend is the
 * accumulator word, plus a 64-bit carry add. The compiler may interleave
 * independent multiplications, which volatile asm forbids. The PTX form
 * compiles to IMAD + IMAD.HI + 2 IADD3.X per partial product (measured,
 * cuobjdump on sm_90).
 */
template <class D>
static __device__ __forceinline__ void mont_mul_wide(uint32_t *r, const uint32_t *a,
                                                     const uint32_t *b)
{
    constexpr int N = D::N;
    uint32_t t[N + 2];
#pragma unroll
    for (int j = 0; j < N + 2; j++)
        t[j] = 0;
#pragma unroll
    for (int i = 0; i < N; i++) {
        uint64_t c = 0; /* carry < 2^32, so c + a*b + t < 2^64 */
#pragma unroll
        for (int j = 0; j < N; j++) {
            c += (uint64_t)a[j] * b[i] + t[j];
            t[j] = (uint32_t)c;
            c >>= 32;
        }
        c += t[N];
        t[N] = (uint32_t)c;
        t[N + 1] = (uint32_t)(c >> 32);
        uint32_t m = t[0] * D::n0();
        c = ((uint64_t)m * D::p(0) + t[0]) >> 32; /* low word becomes 0 */
#pragma unroll
        for (int j = 1; j < N; j++) {
            c += (uint64_t)m * D::p(j) + t[j];
            t[j - 1] = (uint32_t)c;
            c >>= 32;
        }
        c += t[N];
        t[N - 1] = (uint32_t)c;
        t[N] = t[N + 1] + (uint32_t)(c >> 32);
        t[N + 1] = 0;
    }
    mont_final_sub<D>(r, t);
}

/* mont_eo.cuh uses the primitives above and opens the namespace itself */
} // namespace SP_CURVE_NS
#include "mont_eo.cuh"
namespace SP_CURVE_NS {

/* Multiplication algorithm, a template parameter of the field types, each
 * where it is fastest: SP_MUL_PTX (the NTT's twiddle tables), SP_MUL_WIDE
 * (the H step, the fixed-base multiplication, the split MSM's tree of
 * ones: bulk element-wise work), SP_MUL_EO (mont_eo.cuh: the MSMs and the
 * NTT passes), SP_MUL_EO_SUM (the same Fp product, and Fp2 products as two
 * sums of two products, one reduction each, f_mul below: the G2
 * batch-affine rounds), SP_MUL_CALL (SP_MUL_WIDE's product as a call:
 * the .ptau setup, where inlining every product made the group
 * operations so large that their compilation took many minutes, for a
 * one-off computation). */
enum { SP_MUL_PTX = 0, SP_MUL_WIDE = 1, SP_MUL_EO = 2, SP_MUL_EO_SUM = 3, SP_MUL_CALL = 4 };

/* mont_mul_wide out of line: one copy per field in a program. */
template <class D>
static __device__ __noinline__ void mont_mul_call(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    mont_mul_wide<D>(r, a, b);
}

template <class D, int M>
static __device__ __forceinline__ void mont_mul_sel(uint32_t *r, const uint32_t *a,
                                                    const uint32_t *b)
{
    if (M == SP_MUL_EO || M == SP_MUL_EO_SUM)
        mont_mul_eo<D>(r, a, b);
    else if (M == SP_MUL_WIDE)
        mont_mul_wide<D>(r, a, b);
    else if (M == SP_MUL_CALL)
        mont_mul_call<D>(r, a, b);
    else
        mont_mul<D>(r, a, b);
}

/* r = a + b mod p (a + b fits in N words: every field here has a spare bit,
 * p < 2^(32N - 1); checked by static_assert below). */
template <class D>
static __device__ __forceinline__ void mont_add(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    constexpr int N = D::N;
    uint32_t t[N + 1];
    t[0] = add_cc(a[0], b[0]);
#pragma unroll
    for (int j = 1; j < N - 1; j++)
        t[j] = addc_cc(a[j], b[j]);
    t[N - 1] = addc(a[N - 1], b[N - 1]);
    t[N] = 0;
    mont_final_sub<D>(r, t);
}

/* r = a - b mod p. */
template <class D>
static __device__ __forceinline__ void mont_sub(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    constexpr int N = D::N;
    uint32_t t[N];
    t[0] = sub_cc(a[0], b[0]);
#pragma unroll
    for (int j = 1; j < N; j++)
        t[j] = subc_cc(a[j], b[j]);
    uint32_t mask = subc(0, 0); /* all ones when a < b */
    r[0] = add_cc(t[0], D::p(0) & mask);
#pragma unroll
    for (int j = 1; j < N - 1; j++)
        r[j] = addc_cc(t[j], D::p(j) & mask);
    r[N - 1] = addc(t[N - 1], D::p(N - 1) & mask);
}

/* Word i < N of w, by selects (a register array indexed at run time would
 * live in local memory). */
template <int N>
static __device__ __forceinline__ uint32_t words_at(const uint32_t *w, int i)
{
    uint32_t r = w[N - 1];
#pragma unroll
    for (int j = N - 2; j >= 0; j--)
        r = i == j ? w[j] : r;
    return r;
}

template <int N>
static __device__ __forceinline__ bool words_zero(const uint32_t *a)
{
    uint32_t x = a[0];
#pragma unroll
    for (int j = 1; j < N; j++)
        x |= a[j];
    return x == 0;
}

/* ---- the three field types (M: the multiplication algorithm) ---- */

/* 16-byte alignment (sizes are multiples of 16) lets loads be 128-bit. */
template <int M> struct __align__(16) fp_tm { uint32_t w[2 * SP_FP_LIMBS]; };
template <int M> struct __align__(16) fr_tm { uint32_t w[2 * SP_FR_LIMBS]; };
template <int M> struct fp2_tm { fp_tm<M> c0, c1; };
typedef fp_tm<SP_MUL_PTX> fp_t;
typedef fr_tm<SP_MUL_PTX> fr_t;
typedef fp2_tm<SP_MUL_PTX> fp2_t;

#define SP_FIELD_OPS(T, D, NW)                                                              \
    template <int M> static __device__ __forceinline__ void f_mul(T<M> &r, const T<M> &a,   \
                                                                  const T<M> &b)           \
    {                                                                                       \
        mont_mul_sel<D, M>(r.w, a.w, b.w);                                                  \
    }                                                                                       \
    template <int M> static __device__ __forceinline__ void f_sqr(T<M> &r, const T<M> &a)  \
    {                                                                                       \
        mont_mul_sel<D, M>(r.w, a.w, a.w);                                                  \
    }                                                                                       \
    template <int M> static __device__ __forceinline__ void f_add(T<M> &r, const T<M> &a,   \
                                                                  const T<M> &b)           \
    {                                                                                       \
        mont_add<D>(r.w, a.w, b.w);                                                         \
    }                                                                                       \
    template <int M> static __device__ __forceinline__ void f_sub(T<M> &r, const T<M> &a,   \
                                                                  const T<M> &b)           \
    {                                                                                       \
        mont_sub<D>(r.w, a.w, b.w);                                                         \
    }                                                                                       \
    template <int M> static __device__ __forceinline__ bool f_is_zero(const T<M> &a)       \
    {                                                                                       \
        return words_zero<NW>(a.w);                                                         \
    }                                                                                       \
    template <int M> static __device__ __forceinline__ void f_set_one(T<M> &r)             \
    {                                                                                       \
        _Pragma("unroll") for (int j = 0; j < NW; j++) r.w[j] = D::one(j);                 \
    }                                                                                       \
    template <int M> static __device__ __forceinline__ void f_set_zero(T<M> &r)            \
    {                                                                                       \
        _Pragma("unroll") for (int j = 0; j < NW; j++) r.w[j] = 0;                         \
    }                                                                                       \
    template <int M> static __device__ __forceinline__ void f_neg(T<M> &r, const T<M> &a)  \
    {                                                                                       \
        T<M> z;                                                                             \
        f_set_zero(z);                                                                      \
        f_sub(r, z, a);                                                                     \
    }
SP_FIELD_OPS(fp_tm, fp_desc, 2 * SP_FP_LIMBS)
SP_FIELD_OPS(fr_tm, fr_desc, 2 * SP_FR_LIMBS)
#undef SP_FIELD_OPS

/* mont_mul_eo_sum's bound (a b + c d < 2p^2 in an N-word CIOS) */
static_assert(sp_spare_bit_check::fp[SP_FP_LIMBS - 1] >> 62 == 0, "Fp2 sums need two spare bits");

/*
 * Fp2 = Fp[u]/(u^2 + 1). Multiplication: with SP_MUL_EO_SUM, c0 = a0 b0 +
 * a1 (-b1) and c1 = a0 b1 + a1 b0, each one CIOS pass over both products
 * with one reduction (mont_mul_eo_sum): the word products of Karatsuba's
 * three Montgomery products (6 N^2), without its 5 additions and
 * subtractions and one of its three final subtractions; otherwise
 * Karatsuba. Squaring: 2 multiplications.
 */
template <int M>
static __device__ __forceinline__ void f_mul(fp2_tm<M> &r, const fp2_tm<M> &a, const fp2_tm<M> &b)
{
    if (M == SP_MUL_EO_SUM) {
        fp_tm<M> nb1, c0; /* c0 apart: r may alias a or b */
        f_neg(nb1, b.c1);
        mont_mul_eo_sum<fp_desc>(c0.w, a.c0.w, b.c0.w, a.c1.w, nb1.w);
        mont_mul_eo_sum<fp_desc>(r.c1.w, a.c0.w, b.c1.w, a.c1.w, b.c0.w);
        r.c0 = c0;
        return;
    }
    fp_tm<M> t0, t1, s, u;
    f_mul(t0, a.c0, b.c0);
    f_mul(t1, a.c1, b.c1);
    f_add(s, a.c0, a.c1);
    f_add(u, b.c0, b.c1);
    f_mul(s, s, u);
    f_sub(r.c0, t0, t1);
    f_sub(s, s, t0);
    f_sub(r.c1, s, t1);
}
template <int M>
static __device__ __forceinline__ void f_sqr(fp2_tm<M> &r, const fp2_tm<M> &a)
{
    /* (c0 + c1 u)^2 = (c0 + c1)(c0 - c1) + 2 c0 c1 u */
    fp_tm<M> s, d, m;
    f_add(s, a.c0, a.c1);
    f_sub(d, a.c0, a.c1);
    f_mul(m, a.c0, a.c1);
    f_mul(r.c0, s, d);
    f_add(r.c1, m, m);
}
template <int M>
static __device__ __forceinline__ void f_add(fp2_tm<M> &r, const fp2_tm<M> &a, const fp2_tm<M> &b)
{
    f_add(r.c0, a.c0, b.c0);
    f_add(r.c1, a.c1, b.c1);
}
template <int M>
static __device__ __forceinline__ void f_sub(fp2_tm<M> &r, const fp2_tm<M> &a, const fp2_tm<M> &b)
{
    f_sub(r.c0, a.c0, b.c0);
    f_sub(r.c1, a.c1, b.c1);
}
template <int M>
static __device__ __forceinline__ bool f_is_zero(const fp2_tm<M> &a)
{
    return f_is_zero(a.c0) && f_is_zero(a.c1);
}
template <int M> static __device__ __forceinline__ void f_set_one(fp2_tm<M> &r)
{
    f_set_one(r.c0);
    f_set_zero(r.c1);
}
template <int M> static __device__ __forceinline__ void f_set_zero(fp2_tm<M> &r)
{
    f_set_zero(r.c0);
    f_set_zero(r.c1);
}
template <int M> static __device__ __forceinline__ void f_neg(fp2_tm<M> &r, const fp2_tm<M> &a)
{
    f_neg(r.c0, a.c0);
    f_neg(r.c1, a.c1);
}

} // namespace SP_CURVE_NS

#endif
