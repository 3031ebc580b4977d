/* Fp6 arithmetic (see fp6.h): Karatsuba multiplication, CH-SQR2 squaring. */
#include "field/fp6.h"

/* Frobenius constants of the build's curve, printed by
 * tools/gen_frobenius.py [bls12-381|bn254] (Montgomery form):
 * FROB6_V[k-1] = xi^((p^k-1)/3), FROB6_V2[k-1] = xi^(2(p^k-1)/3). */
#if SP_CURVE_BN254
static const sp_fp2 FROB6_V[3] = {
    /* k = 1 */
    {{{0xb5773b104563ab30ULL, 0x347f91c8a9aa6454ULL, 0x7a007127242e0991ULL, 0x1956bcd8118214ecULL}},
     {{0x6e849f1ea0aa4757ULL, 0xaa1c7b6d89f89141ULL, 0xb6e713cdfae0ca3aULL, 0x26694fbb4e82ebc3ULL}}},
    /* k = 2 */
    {{{0x3350c88e13e80b9cULL, 0x7dce557cdb5e56b9ULL, 0x6001b4b8b615564aULL, 0x2682e617020217e0ULL}},
     {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}}},
    /* k = 3 */
    {{{0xc9af22f716ad6badULL, 0xb311782a4aa662b2ULL, 0x19eeaf64e248c7f4ULL, 0x20273e77e3439f82ULL}},
     {{0xacc02860f7ce93acULL, 0x3933d5817ba76b4cULL, 0x69e6188b446c8467ULL, 0x0a46036d4417cc55ULL}}},
};
static const sp_fp2 FROB6_V2[3] = {
    /* k = 1 */
    {{{0x7361d77f843abe92ULL, 0xa5bb2bd3273411fbULL, 0x9c941f314b3e2399ULL, 0x15df9cddbb9fd3ecULL}},
     {{0x5dddfd154bd8c949ULL, 0x62cb29a5a4445b60ULL, 0x37bc870a0c7dd2b9ULL, 0x24830a9d3171f0fdULL}}},
    /* k = 2 */
    {{{0x71930c11d782e155ULL, 0xa6bb947cffbe3323ULL, 0xaa303344d4741444ULL, 0x2c3b3f0d26594943ULL}},
     {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}}},
    /* k = 3 */
    {{{0x448a93a57b6762dfULL, 0xbfd62df528fdeadfULL, 0xd858f5d00e9bd47aULL, 0x06b03d4d3476ec58ULL}},
     {{0x2b19daf4bcc936d1ULL, 0xa1a54e7a56f4299fULL, 0xb533eee05adeaef1ULL, 0x170c812b84dda0b2ULL}}},
};
#else
static const sp_fp2 FROB6_V[3] = {
    /* k = 1 */
    {{{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}},
     {{0xcd03c9e48671f071ULL, 0x5dab22461fcda5d2ULL, 0x587042afd3851b95ULL, 0x8eb60ebe01bacb9eULL, 0x03f97d6e83d050d2ULL, 0x18f0206554638741ULL}}},
    /* k = 2 */
    {{{0x30f1361b798a64e8ULL, 0xf3b8ddab7ece5a2aULL, 0x16a8ca3ac61577f7ULL, 0xc26a2ff874fd029bULL, 0x3636b76660701c6eULL, 0x051ba4ab241b6160ULL}},
     {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}}},
    /* k = 3 */
    {{{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}},
     {{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL, 0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}}},
};
static const sp_fp2 FROB6_V2[3] = {
    /* k = 1 */
    {{{0x890dc9e4867545c3ULL, 0x2af322533285a5d5ULL, 0x50880866309b7e2cULL, 0xa20d1b8c7e881024ULL, 0x14e4f04fe2db9068ULL, 0x14e56d3f1564853aULL}},
     {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}}},
    /* k = 2 */
    {{{0xcd03c9e48671f071ULL, 0x5dab22461fcda5d2ULL, 0x587042afd3851b95ULL, 0x8eb60ebe01bacb9eULL, 0x03f97d6e83d050d2ULL, 0x18f0206554638741ULL}},
     {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}}},
    /* k = 3 */
    {{{0x43f5fffffffcaaaeULL, 0x32b7fff2ed47fffdULL, 0x07e83a49a2e99d69ULL, 0xeca8f3318332bb7aULL, 0xef148d1ea0f4c069ULL, 0x040ab3263eff0206ULL}},
     {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}}},
};
#endif

void sp_fp6_add(sp_fp6 *r, const sp_fp6 *a, const sp_fp6 *b)
{
    sp_fp2_add(&r->c0, &a->c0, &b->c0);
    sp_fp2_add(&r->c1, &a->c1, &b->c1);
    sp_fp2_add(&r->c2, &a->c2, &b->c2);
}

void sp_fp6_sub(sp_fp6 *r, const sp_fp6 *a, const sp_fp6 *b)
{
    sp_fp2_sub(&r->c0, &a->c0, &b->c0);
    sp_fp2_sub(&r->c1, &a->c1, &b->c1);
    sp_fp2_sub(&r->c2, &a->c2, &b->c2);
}

void sp_fp6_neg(sp_fp6 *r, const sp_fp6 *a)
{
    sp_fp2_neg(&r->c0, &a->c0);
    sp_fp2_neg(&r->c1, &a->c1);
    sp_fp2_neg(&r->c2, &a->c2);
}

void sp_fp6_dbl(sp_fp6 *r, const sp_fp6 *a)
{
    sp_fp2_dbl(&r->c0, &a->c0);
    sp_fp2_dbl(&r->c1, &a->c1);
    sp_fp2_dbl(&r->c2, &a->c2);
}

void sp_fp6_mul(sp_fp6 *r, const sp_fp6 *a, const sp_fp6 *b)
{
    /* Karatsuba, 6 Fp2 products:
     *   c0 = a0b0 + xi((a1+a2)(b1+b2) - a1b1 - a2b2)
     *   c1 = (a0+a1)(b0+b1) - a0b0 - a1b1 + xi a2b2
     *   c2 = (a0+a2)(b0+b2) - a0b0 - a2b2 + a1b1 */
    sp_fp2 t0, t1, t2, s, u, c0, c1, c2;
    sp_fp2_mul(&t0, &a->c0, &b->c0);
    sp_fp2_mul(&t1, &a->c1, &b->c1);
    sp_fp2_mul(&t2, &a->c2, &b->c2);

    sp_fp2_add(&s, &a->c1, &a->c2);
    sp_fp2_add(&u, &b->c1, &b->c2);
    sp_fp2_mul(&c0, &s, &u);
    sp_fp2_sub(&c0, &c0, &t1);
    sp_fp2_sub(&c0, &c0, &t2);
    sp_fp2_mul_by_nonresidue(&c0, &c0);
    sp_fp2_add(&c0, &c0, &t0);

    sp_fp2_add(&s, &a->c0, &a->c1);
    sp_fp2_add(&u, &b->c0, &b->c1);
    sp_fp2_mul(&c1, &s, &u);
    sp_fp2_sub(&c1, &c1, &t0);
    sp_fp2_sub(&c1, &c1, &t1);
    sp_fp2_mul_by_nonresidue(&s, &t2);
    sp_fp2_add(&c1, &c1, &s);

    sp_fp2_add(&s, &a->c0, &a->c2);
    sp_fp2_add(&u, &b->c0, &b->c2);
    sp_fp2_mul(&c2, &s, &u);
    sp_fp2_sub(&c2, &c2, &t0);
    sp_fp2_sub(&c2, &c2, &t2);
    sp_fp2_add(&c2, &c2, &t1);

    r->c0 = c0;
    r->c1 = c1;
    r->c2 = c2;
}

void sp_fp6_sqr(sp_fp6 *r, const sp_fp6 *a)
{
    /* CH-SQR2 (Chung & Hasan): s0 = a0^2, s1 = 2a0a1, s2 = (a0-a1+a2)^2,
     * s3 = 2a1a2, s4 = a2^2;
     * c0 = s0 + xi s3, c1 = s1 + xi s4, c2 = s1 + s2 + s3 - s0 - s4. */
    sp_fp2 s0, s1, s2, s3, s4, t;
    sp_fp2_sqr(&s0, &a->c0);
    sp_fp2_mul(&s1, &a->c0, &a->c1);
    sp_fp2_dbl(&s1, &s1);
    sp_fp2_sub(&s2, &a->c0, &a->c1);
    sp_fp2_add(&s2, &s2, &a->c2);
    sp_fp2_sqr(&s2, &s2);
    sp_fp2_mul(&s3, &a->c1, &a->c2);
    sp_fp2_dbl(&s3, &s3);
    sp_fp2_sqr(&s4, &a->c2);

    sp_fp2_add(&t, &s1, &s2);
    sp_fp2_add(&t, &t, &s3);
    sp_fp2_sub(&t, &t, &s0);
    sp_fp2_sub(&r->c2, &t, &s4);
    sp_fp2_mul_by_nonresidue(&t, &s3);
    sp_fp2_add(&r->c0, &s0, &t);
    sp_fp2_mul_by_nonresidue(&t, &s4);
    sp_fp2_add(&r->c1, &s1, &t);
}

void sp_fp6_inv(sp_fp6 *r, const sp_fp6 *a)
{
    /* a^-1 = (t0 + t1 v + t2 v^2) / d with
     *   t0 = a0^2 - xi a1a2, t1 = xi a2^2 - a0a1, t2 = a1^2 - a0a2,
     *   d = a0 t0 + xi (a2 t1 + a1 t2)  (the norm to Fp2). */
    sp_fp2 t0, t1, t2, s, d;
    sp_fp2_sqr(&t0, &a->c0);
    sp_fp2_mul(&s, &a->c1, &a->c2);
    sp_fp2_mul_by_nonresidue(&s, &s);
    sp_fp2_sub(&t0, &t0, &s);

    sp_fp2_sqr(&t1, &a->c2);
    sp_fp2_mul_by_nonresidue(&t1, &t1);
    sp_fp2_mul(&s, &a->c0, &a->c1);
    sp_fp2_sub(&t1, &t1, &s);

    sp_fp2_sqr(&t2, &a->c1);
    sp_fp2_mul(&s, &a->c0, &a->c2);
    sp_fp2_sub(&t2, &t2, &s);

    sp_fp2_mul(&d, &a->c2, &t1);
    sp_fp2_mul(&s, &a->c1, &t2);
    sp_fp2_add(&d, &d, &s);
    sp_fp2_mul_by_nonresidue(&d, &d);
    sp_fp2_mul(&s, &a->c0, &t0);
    sp_fp2_add(&d, &d, &s);
    sp_fp2_inv(&d, &d);

    sp_fp2_mul(&r->c0, &t0, &d);
    sp_fp2_mul(&r->c1, &t1, &d);
    sp_fp2_mul(&r->c2, &t2, &d);
}

void sp_fp6_mul_by_nonresidue(sp_fp6 *r, const sp_fp6 *a)
{
    /* (a0 + a1 v + a2 v^2) v = xi a2 + a0 v + a1 v^2 */
    sp_fp2 t;
    sp_fp2_mul_by_nonresidue(&t, &a->c2);
    r->c2 = a->c1;
    r->c1 = a->c0;
    r->c0 = t;
}

void sp_fp6_mul_fp2(sp_fp6 *r, const sp_fp6 *a, const sp_fp2 *b)
{
    sp_fp2_mul(&r->c0, &a->c0, b);
    sp_fp2_mul(&r->c1, &a->c1, b);
    sp_fp2_mul(&r->c2, &a->c2, b);
}

void sp_fp6_mul_by_01(sp_fp6 *r, const sp_fp6 *a, const sp_fp2 *b0, const sp_fp2 *b1)
{
    /* 5 Fp2 products: c0 = a0b0 + xi a2b1, c1 = a0b1 + a1b0, c2 = a1b1 + a2b0 */
    sp_fp2 t0, t1, s, u, c0, c1, c2;
    sp_fp2_mul(&t0, &a->c0, b0);
    sp_fp2_mul(&t1, &a->c1, b1);

    sp_fp2_add(&s, &a->c1, &a->c2);
    sp_fp2_mul(&c0, &s, b1);
    sp_fp2_sub(&c0, &c0, &t1);
    sp_fp2_mul_by_nonresidue(&c0, &c0);
    sp_fp2_add(&c0, &c0, &t0);

    sp_fp2_add(&s, &a->c0, &a->c1);
    sp_fp2_add(&u, b0, b1);
    sp_fp2_mul(&c1, &s, &u);
    sp_fp2_sub(&c1, &c1, &t0);
    sp_fp2_sub(&c1, &c1, &t1);

    sp_fp2_add(&s, &a->c0, &a->c2);
    sp_fp2_mul(&c2, &s, b0);
    sp_fp2_sub(&c2, &c2, &t0);
    sp_fp2_add(&c2, &c2, &t1);

    r->c0 = c0;
    r->c1 = c1;
    r->c2 = c2;
}

void sp_fp6_mul_by_1(sp_fp6 *r, const sp_fp6 *a, const sp_fp2 *b1)
{
    /* (a0 + a1 v + a2 v^2) b1 v = xi a2b1 + a0b1 v + a1b1 v^2 */
    sp_fp2 c0, c1;
    sp_fp2_mul(&c0, &a->c2, b1);
    sp_fp2_mul_by_nonresidue(&c0, &c0);
    sp_fp2_mul(&c1, &a->c0, b1);
    sp_fp2_mul(&r->c2, &a->c1, b1);
    r->c0 = c0;
    r->c1 = c1;
}

/* One application of x -> x^(p^k), k in {1, 2, 3}. */
static void frobenius_step(sp_fp6 *r, const sp_fp6 *a, unsigned k)
{
    sp_fp6 t = *a;
    if (k & 1) { /* the Fp2 coefficients: conjugation for odd k */
        sp_fp2_conj(&t.c0, &t.c0);
        sp_fp2_conj(&t.c1, &t.c1);
        sp_fp2_conj(&t.c2, &t.c2);
    }
    sp_fp2_mul(&t.c1, &t.c1, &FROB6_V[k - 1]);
    sp_fp2_mul(&t.c2, &t.c2, &FROB6_V2[k - 1]);
    *r = t;
}

void sp_fp6_frobenius(sp_fp6 *r, const sp_fp6 *a, unsigned k)
{
    k %= 6;
    *r = *a;
    while (k > 0) {
        unsigned s = k > 3 ? 3 : k;
        frobenius_step(r, r, s);
        k -= s;
    }
}

int sp_fp6_is_zero(const sp_fp6 *a)
{
    return sp_fp2_is_zero(&a->c0) & sp_fp2_is_zero(&a->c1) & sp_fp2_is_zero(&a->c2);
}

int sp_fp6_is_one(const sp_fp6 *a)
{
    return sp_fp2_is_one(&a->c0) & sp_fp2_is_zero(&a->c1) & sp_fp2_is_zero(&a->c2);
}

int sp_fp6_eq(const sp_fp6 *a, const sp_fp6 *b)
{
    return sp_fp2_eq(&a->c0, &b->c0) & sp_fp2_eq(&a->c1, &b->c1) & sp_fp2_eq(&a->c2, &b->c2);
}

void sp_fp6_set_zero(sp_fp6 *r)
{
    sp_fp2_set_zero(&r->c0);
    sp_fp2_set_zero(&r->c1);
    sp_fp2_set_zero(&r->c2);
}

void sp_fp6_set_one(sp_fp6 *r)
{
    sp_fp2_set_one(&r->c0);
    sp_fp2_set_zero(&r->c1);
    sp_fp2_set_zero(&r->c2);
}

void sp_fp6_cmov(sp_fp6 *r, const sp_fp6 *a, int c)
{
    sp_fp2_cmov(&r->c0, &a->c0, c);
    sp_fp2_cmov(&r->c1, &a->c1, c);
    sp_fp2_cmov(&r->c2, &a->c2, c);
}

void sp_fp6_random(sp_fp6 *r, sp_rng *rng)
{
    sp_fp2_random(&r->c0, rng);
    sp_fp2_random(&r->c1, rng);
    sp_fp2_random(&r->c2, rng);
}
