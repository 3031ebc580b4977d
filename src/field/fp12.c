/* Fp12 arithmetic (see fp12.h): Karatsuba multiplication, complex squaring,
 * Granger-Scott cyclotomic squaring. */
#include "field/fp12.h"

/* Frobenius constants of the build's curve, printed by
 * tools/gen_frobenius.py [bls12-381|bn254] (Montgomery form):
 * FROB12_W[k-1] = xi^((p^k-1)/6), so that w^(p^k) = FROB12_W[k-1] w. */
#if SP_CURVE_BN254
static const sp_fp2 FROB12_W[3] = {
    /* k = 1 */
    {{{0xaf9ba69633144907ULL, 0xca6b1d7387afb78aULL, 0x11bded5ef08a2087ULL, 0x02f34d751a1f3a7cULL}},
     {{0xa222ae234c492d72ULL, 0xd00f02a4565de15bULL, 0xdc2ff3a253dfc926ULL, 0x10a75716b3899551ULL}}},
    /* k = 2 */
    {{{0xca8d800500fa1bf2ULL, 0xf0c5d61468b39769ULL, 0x0e201271ad0d4418ULL, 0x04290f65bad856e6ULL}},
     {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}}},
    /* k = 3 */
    {{{0x365316184e46d97dULL, 0x0af7129ed4c96d9fULL, 0x659da72fca1009b5ULL, 0x08116d8983a20d23ULL}},
     {{0xb1df4af7c39c1939ULL, 0x3d9f02878a73bf7fULL, 0x9b2220928caf0ae0ULL, 0x26684515eff054a6ULL}}},
};
#else
static const sp_fp2 FROB12_W[3] = {
    /* k = 1 */
    {{{0x07089552b319d465ULL, 0xc6695f92b50a8313ULL, 0x97e83cccd117228fULL, 0xa35baecab2dc29eeULL, 0x1ce393ea5daace4dULL, 0x08f2220fb0fb66ebULL}},
     {{0xb2f66aad4ce5d646ULL, 0x5842a06bfc497cecULL, 0xcf4895d42599d394ULL, 0xc11b9cba40a8e8d0ULL, 0x2e3813cbe5a0de89ULL, 0x110eefda88847fafULL}}},
    /* k = 2 */
    {{{0xecfb361b798dba3aULL, 0xc100ddb891865a2cULL, 0x0ec08ff1232bda8eULL, 0xd5c13cc6f1ca4721ULL, 0x47222a47bf7b5c04ULL, 0x0110f184e51c5f59ULL}},
     {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}}},
    /* k = 3 */
    {{{0x3e2f585da55c9ad1ULL, 0x4294213d86c18183ULL, 0x382844c88b623732ULL, 0x92ad2afd19103e18ULL, 0x1d794e4fac7cf0b9ULL, 0x0bd592fc7d825ec8ULL}},
     {{0x7bcfa7a25aa30fdaULL, 0xdc17dec12a927e7cULL, 0x2f088dd86b4ebef1ULL, 0xd1ca2087da74d4a7ULL, 0x2da2596696cebc1dULL, 0x0e2b7eedbbfd87d2ULL}}},
};
#endif

void sp_fp12_add(sp_fp12 *r, const sp_fp12 *a, const sp_fp12 *b)
{
    sp_fp6_add(&r->c0, &a->c0, &b->c0);
    sp_fp6_add(&r->c1, &a->c1, &b->c1);
}

void sp_fp12_sub(sp_fp12 *r, const sp_fp12 *a, const sp_fp12 *b)
{
    sp_fp6_sub(&r->c0, &a->c0, &b->c0);
    sp_fp6_sub(&r->c1, &a->c1, &b->c1);
}

void sp_fp12_neg(sp_fp12 *r, const sp_fp12 *a)
{
    sp_fp6_neg(&r->c0, &a->c0);
    sp_fp6_neg(&r->c1, &a->c1);
}

void sp_fp12_mul(sp_fp12 *r, const sp_fp12 *a, const sp_fp12 *b)
{
    /* Karatsuba: c0 = a0b0 + v a1b1, c1 = (a0+a1)(b0+b1) - a0b0 - a1b1 */
    sp_fp6 t0, t1, s, u;
    sp_fp6_mul(&t0, &a->c0, &b->c0);
    sp_fp6_mul(&t1, &a->c1, &b->c1);
    sp_fp6_add(&s, &a->c0, &a->c1);
    sp_fp6_add(&u, &b->c0, &b->c1);
    sp_fp6_mul(&s, &s, &u);
    sp_fp6_sub(&s, &s, &t0);
    sp_fp6_sub(&r->c1, &s, &t1);
    sp_fp6_mul_by_nonresidue(&t1, &t1);
    sp_fp6_add(&r->c0, &t0, &t1);
}

void sp_fp12_sqr(sp_fp12 *r, const sp_fp12 *a)
{
    /* Complex squaring: with t = a0a1,
     * c0 = (a0 + a1)(a0 + v a1) - t - v t, c1 = 2t. */
    sp_fp6 t, s, u;
    sp_fp6_mul(&t, &a->c0, &a->c1);
    sp_fp6_add(&s, &a->c0, &a->c1);
    sp_fp6_mul_by_nonresidue(&u, &a->c1);
    sp_fp6_add(&u, &u, &a->c0);
    sp_fp6_mul(&s, &s, &u);
    sp_fp6_sub(&s, &s, &t);
    sp_fp6_mul_by_nonresidue(&u, &t);
    sp_fp6_sub(&r->c0, &s, &u);
    sp_fp6_dbl(&r->c1, &t);
}

void sp_fp12_inv(sp_fp12 *r, const sp_fp12 *a)
{
    /* 1/(a0 + a1 w) = (a0 - a1 w) / (a0^2 - v a1^2) */
    sp_fp6 t0, t1;
    sp_fp6_sqr(&t0, &a->c0);
    sp_fp6_sqr(&t1, &a->c1);
    sp_fp6_mul_by_nonresidue(&t1, &t1);
    sp_fp6_sub(&t0, &t0, &t1);
    sp_fp6_inv(&t0, &t0);
    sp_fp6_mul(&r->c0, &a->c0, &t0);
    sp_fp6_mul(&t1, &a->c1, &t0);
    sp_fp6_neg(&r->c1, &t1);
}

void sp_fp12_conj(sp_fp12 *r, const sp_fp12 *a)
{
    r->c0 = a->c0;
    sp_fp6_neg(&r->c1, &a->c1);
}

/* One application of x -> x^(p^k), k in {1, 2, 3}. */
static void frobenius_step(sp_fp12 *r, const sp_fp12 *a, unsigned k)
{
    sp_fp6_frobenius(&r->c0, &a->c0, k);
    sp_fp6_frobenius(&r->c1, &a->c1, k);
    sp_fp6_mul_fp2(&r->c1, &r->c1, &FROB12_W[k - 1]);
}

void sp_fp12_frobenius(sp_fp12 *r, const sp_fp12 *a, unsigned k)
{
    k %= 12;
    *r = *a;
    while (k > 0) {
        unsigned s = k > 3 ? 3 : k;
        frobenius_step(r, r, s);
        k -= s;
    }
}

void sp_fp12_mul_by_014(sp_fp12 *r, const sp_fp12 *a, const sp_fp2 *b0, const sp_fp2 *b1,
                        const sp_fp2 *b4)
{
    /* b = (b0 + b1 v) + (b4 v) w; Karatsuba over Fp6 with sparse factors:
     * 13 Fp2 products instead of 18. */
    sp_fp6 t0, t1, s;
    sp_fp2 b14;
    sp_fp6_mul_by_01(&t0, &a->c0, b0, b1);
    sp_fp6_mul_by_1(&t1, &a->c1, b4);
    sp_fp2_add(&b14, b1, b4);
    sp_fp6_add(&s, &a->c0, &a->c1);
    sp_fp6_mul_by_01(&s, &s, b0, &b14);
    sp_fp6_sub(&s, &s, &t0);
    sp_fp6_sub(&r->c1, &s, &t1);
    sp_fp6_mul_by_nonresidue(&t1, &t1);
    sp_fp6_add(&r->c0, &t0, &t1);
}

void sp_fp12_mul_by_034(sp_fp12 *r, const sp_fp12 *a, const sp_fp2 *b0, const sp_fp2 *b3,
                        const sp_fp2 *b4)
{
    /* b = b0 + (b3 + b4 v) w; Karatsuba over Fp6 with sparse factors:
     * 13 Fp2 products instead of 18. */
    sp_fp6 t0, t1, s;
    sp_fp2 b03;
    sp_fp6_mul_fp2(&t0, &a->c0, b0);
    sp_fp6_mul_by_01(&t1, &a->c1, b3, b4);
    sp_fp2_add(&b03, b0, b3);
    sp_fp6_add(&s, &a->c0, &a->c1);
    sp_fp6_mul_by_01(&s, &s, &b03, b4);
    sp_fp6_sub(&s, &s, &t0);
    sp_fp6_sub(&r->c1, &s, &t1);
    sp_fp6_mul_by_nonresidue(&t1, &t1);
    sp_fp6_add(&r->c0, &t0, &t1);
}

/* (a + b s)^2 in Fp4 = Fp2[s]/(s^2 - xi): (a^2 + xi b^2) + ((a+b)^2 - a^2 - b^2) s */
static void fp4_sqr(sp_fp2 *r0, sp_fp2 *r1, const sp_fp2 *a, const sp_fp2 *b)
{
    sp_fp2 t0, t1, t;
    sp_fp2_sqr(&t0, a);
    sp_fp2_sqr(&t1, b);
    sp_fp2_add(&t, a, b);
    sp_fp2_sqr(&t, &t);
    sp_fp2_sub(&t, &t, &t0);
    sp_fp2_sub(r1, &t, &t1);
    sp_fp2_mul_by_nonresidue(&t1, &t1);
    sp_fp2_add(r0, &t1, &t0);
}

/* r = 3 t - 2 z (sign = -1) or 3 t + 2 z (sign = +1) */
static void three_t_two_z(sp_fp2 *r, const sp_fp2 *t, const sp_fp2 *z, int sign)
{
    sp_fp2 s;
    if (sign < 0)
        sp_fp2_sub(&s, t, z);
    else
        sp_fp2_add(&s, t, z);
    sp_fp2_dbl(&s, &s);
    sp_fp2_add(r, &s, t);
}

void sp_fp12_cyclotomic_sqr(sp_fp12 *r, const sp_fp12 *a)
{
    /* Granger & Scott, "Faster squaring in the cyclotomic subgroup of sixth
     * degree extensions". View Fp12 as Fp4[w]/(w^3 - s), s = w^3, and
     * a = A + B w + C w^2 with A = (g0, h1), B = (h0, g2), C = (g1, h2),
     * where g = a.c0 and h = a.c1. Then, with bar the conjugation of Fp4:
     *   A' = 3A^2 - 2 bar(A), B' = 3 s C^2 + 2 bar(B), C' = 3B^2 - 2 bar(C). */
    sp_fp2 a0, a1, b0, b1, c0, c1;
    fp4_sqr(&a0, &a1, &a->c0.c0, &a->c1.c1); /* A^2 */
    fp4_sqr(&b0, &b1, &a->c1.c0, &a->c0.c2); /* B^2 */
    fp4_sqr(&c0, &c1, &a->c0.c1, &a->c1.c2); /* C^2 */
    sp_fp2_mul_by_nonresidue(&c1, &c1);       /* s C^2 = (xi C^2_1, C^2_0) */

    three_t_two_z(&r->c0.c0, &a0, &a->c0.c0, -1);
    three_t_two_z(&r->c1.c1, &a1, &a->c1.c1, +1);
    three_t_two_z(&r->c1.c0, &c1, &a->c1.c0, +1);
    three_t_two_z(&r->c0.c2, &c0, &a->c0.c2, -1);
    three_t_two_z(&r->c0.c1, &b0, &a->c0.c1, -1);
    three_t_two_z(&r->c1.c2, &b1, &a->c1.c2, +1);
}

void sp_fp12_pow_var(sp_fp12 *r, const sp_fp12 *a, const uint64_t *e, size_t e_len)
{
    sp_fp12 acc, base = *a;
    sp_fp12_set_one(&acc);
    for (size_t i = e_len; i-- > 0;)
        for (int b = 63; b >= 0; b--) {
            sp_fp12_sqr(&acc, &acc);
            if ((e[i] >> b) & 1)
                sp_fp12_mul(&acc, &acc, &base);
        }
    *r = acc;
}

int sp_fp12_is_zero(const sp_fp12 *a) { return sp_fp6_is_zero(&a->c0) & sp_fp6_is_zero(&a->c1); }
int sp_fp12_is_one(const sp_fp12 *a) { return sp_fp6_is_one(&a->c0) & sp_fp6_is_zero(&a->c1); }
int sp_fp12_eq(const sp_fp12 *a, const sp_fp12 *b) { return sp_fp6_eq(&a->c0, &b->c0) & sp_fp6_eq(&a->c1, &b->c1); }
void sp_fp12_set_zero(sp_fp12 *r) { sp_fp6_set_zero(&r->c0); sp_fp6_set_zero(&r->c1); }
void sp_fp12_set_one(sp_fp12 *r) { sp_fp6_set_one(&r->c0); sp_fp6_set_zero(&r->c1); }

void sp_fp12_cmov(sp_fp12 *r, const sp_fp12 *a, int c)
{
    sp_fp6_cmov(&r->c0, &a->c0, c);
    sp_fp6_cmov(&r->c1, &a->c1, c);
}

void sp_fp12_random(sp_fp12 *r, sp_rng *rng)
{
    sp_fp6_random(&r->c0, rng);
    sp_fp6_random(&r->c1, rng);
}
