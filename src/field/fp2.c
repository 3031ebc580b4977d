/* Fp2 arithmetic (see fp2.h). Karatsuba multiplication, complex squaring. */
#include "field/fp2.h"

void sp_fp2_add(sp_fp2 *r, const sp_fp2 *a, const sp_fp2 *b)
{
    sp_fp_add(&r->c0, &a->c0, &b->c0);
    sp_fp_add(&r->c1, &a->c1, &b->c1);
}

void sp_fp2_sub(sp_fp2 *r, const sp_fp2 *a, const sp_fp2 *b)
{
    sp_fp_sub(&r->c0, &a->c0, &b->c0);
    sp_fp_sub(&r->c1, &a->c1, &b->c1);
}

void sp_fp2_neg(sp_fp2 *r, const sp_fp2 *a)
{
    sp_fp_neg(&r->c0, &a->c0);
    sp_fp_neg(&r->c1, &a->c1);
}

void sp_fp2_dbl(sp_fp2 *r, const sp_fp2 *a)
{
    sp_fp_dbl(&r->c0, &a->c0);
    sp_fp_dbl(&r->c1, &a->c1);
}

void sp_fp2_mul(sp_fp2 *r, const sp_fp2 *a, const sp_fp2 *b)
{
    /* (a0 + a1 u)(b0 + b1 u) = (a0b0 - a1b1) + ((a0+a1)(b0+b1) - a0b0 - a1b1) u */
    sp_fp t0, t1, s0, s1;
    sp_fp_mul(&t0, &a->c0, &b->c0);
    sp_fp_mul(&t1, &a->c1, &b->c1);
    sp_fp_add(&s0, &a->c0, &a->c1);
    sp_fp_add(&s1, &b->c0, &b->c1);
    sp_fp_mul(&s0, &s0, &s1);
    sp_fp_sub(&s0, &s0, &t0);
    sp_fp_sub(&r->c1, &s0, &t1);
    sp_fp_sub(&r->c0, &t0, &t1);
}

void sp_fp2_sqr(sp_fp2 *r, const sp_fp2 *a)
{
    /* (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u */
    sp_fp s, d, m;
    sp_fp_add(&s, &a->c0, &a->c1);
    sp_fp_sub(&d, &a->c0, &a->c1);
    sp_fp_mul(&m, &a->c0, &a->c1);
    sp_fp_mul(&r->c0, &s, &d);
    sp_fp_dbl(&r->c1, &m);
}

void sp_fp2_mul_fp(sp_fp2 *r, const sp_fp2 *a, const sp_fp *b)
{
    sp_fp_mul(&r->c0, &a->c0, b);
    sp_fp_mul(&r->c1, &a->c1, b);
}

#if SP_CURVE_BN254
void sp_fp2_mul_by_nonresidue(sp_fp2 *r, const sp_fp2 *a)
{
    /* (a0 + a1 u)(9 + u) = (9 a0 - a1) + (a0 + 9 a1) u, 9a = 8a + a */
    sp_fp t0, t1;
    sp_fp_dbl(&t0, &a->c0);
    sp_fp_dbl(&t0, &t0);
    sp_fp_dbl(&t0, &t0);
    sp_fp_add(&t0, &t0, &a->c0);
    sp_fp_dbl(&t1, &a->c1);
    sp_fp_dbl(&t1, &t1);
    sp_fp_dbl(&t1, &t1);
    sp_fp_add(&t1, &t1, &a->c1);
    sp_fp_sub(&t0, &t0, &a->c1);
    sp_fp_add(&r->c1, &t1, &a->c0);
    r->c0 = t0;
}
#else
void sp_fp2_mul_by_nonresidue(sp_fp2 *r, const sp_fp2 *a)
{
    /* (a0 + a1 u)(1 + u) = (a0 - a1) + (a0 + a1) u */
    sp_fp t;
    sp_fp_sub(&t, &a->c0, &a->c1);
    sp_fp_add(&r->c1, &a->c0, &a->c1);
    r->c0 = t;
}
#endif

void sp_fp2_conj(sp_fp2 *r, const sp_fp2 *a)
{
    r->c0 = a->c0;
    sp_fp_neg(&r->c1, &a->c1);
}

void sp_fp2_inv(sp_fp2 *r, const sp_fp2 *a)
{
    /* 1/(a0 + a1 u) = (a0 - a1 u) / (a0^2 + a1^2) */
    sp_fp t0, t1;
    sp_fp_sqr(&t0, &a->c0);
    sp_fp_sqr(&t1, &a->c1);
    sp_fp_add(&t0, &t0, &t1);
    sp_fp_inv(&t0, &t0);
    sp_fp_mul(&r->c0, &a->c0, &t0);
    sp_fp_mul(&t1, &a->c1, &t0);
    sp_fp_neg(&r->c1, &t1);
}

void sp_fp2_pow(sp_fp2 *r, const sp_fp2 *a, const uint64_t *e, size_t e_len)
{
    sp_fp2 acc, t, base = *a;
    sp_fp2_set_one(&acc);
    for (size_t i = e_len; i-- > 0;)
        for (int b = 63; b >= 0; b--) {
            sp_fp2_sqr(&acc, &acc);
            sp_fp2_mul(&t, &acc, &base);
            sp_fp2_cmov(&acc, &t, (int)((e[i] >> b) & 1));
        }
    *r = acc;
}

int sp_fp2_sqrt(sp_fp2 *r, const sp_fp2 *a)
{
    /* Algorithm 9 of Adj & Rodriguez-Henriquez, "Square root computation
     * over even extension fields" (p = 3 mod 4, both curves). Branch-free;
     * the result is checked by squaring, so a non-square is reported
     * whatever the candidate is. */
    uint64_t e1[SP_FP_LIMBS], e2[SP_FP_LIMBS];
    sp_fp_exp_from_p(e1, -3, 2); /* (p - 3) / 4 */
    sp_fp_exp_from_p(e2, -1, 1); /* (p - 1) / 2 */
    sp_fp2 a1, alpha, x0, x, b, minus_one, check;
    sp_fp2_pow(&a1, a, e1, SP_FP_LIMBS);
    sp_fp2_sqr(&alpha, &a1);
    sp_fp2_mul(&alpha, &alpha, a); /* alpha = a^((p-1)/2) */
    sp_fp2_mul(&x0, &a1, a);       /* x0 = a^((p+1)/4) */

    /* alpha = -1: sqrt = u * x0 */
    sp_fp2_set_one(&minus_one);
    sp_fp2_neg(&minus_one, &minus_one);
    int alpha_is_m1 = sp_fp2_eq(&alpha, &minus_one);
    sp_fp_neg(&x.c0, &x0.c1);
    x.c1 = x0.c0;

    /* otherwise: sqrt = (1 + alpha)^((p-1)/2) * x0 */
    sp_fp2 one;
    sp_fp2_set_one(&one);
    sp_fp2_add(&b, &alpha, &one);
    sp_fp2_pow(&b, &b, e2, SP_FP_LIMBS);
    sp_fp2_mul(&b, &b, &x0);
    sp_fp2_cmov(&x, &b, 1 - alpha_is_m1);

    sp_fp2_sqr(&check, &x);
    *r = x;
    return sp_fp2_eq(&check, a);
}

int sp_fp2_is_zero(const sp_fp2 *a) { return sp_fp_is_zero(&a->c0) & sp_fp_is_zero(&a->c1); }
int sp_fp2_is_one(const sp_fp2 *a) { return sp_fp_is_one(&a->c0) & sp_fp_is_zero(&a->c1); }
int sp_fp2_eq(const sp_fp2 *a, const sp_fp2 *b) { return sp_fp_eq(&a->c0, &b->c0) & sp_fp_eq(&a->c1, &b->c1); }
void sp_fp2_set_zero(sp_fp2 *r) { sp_fp_set_zero(&r->c0); sp_fp_set_zero(&r->c1); }
void sp_fp2_set_one(sp_fp2 *r) { sp_fp_set_one(&r->c0); sp_fp_set_zero(&r->c1); }

void sp_fp2_cmov(sp_fp2 *r, const sp_fp2 *a, int c)
{
    sp_fp_cmov(&r->c0, &a->c0, c);
    sp_fp_cmov(&r->c1, &a->c1, c);
}

void sp_fp2_random(sp_fp2 *r, sp_rng *rng)
{
    sp_fp_random(&r->c0, rng);
    sp_fp_random(&r->c1, rng);
}

int sp_fp2_is_lexicographically_largest(const sp_fp2 *a)
{
    if (!sp_fp_is_zero(&a->c1))
        return sp_fp_is_lexicographically_largest(&a->c1);
    return sp_fp_is_lexicographically_largest(&a->c0);
}
