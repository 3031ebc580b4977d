/*
 * The extension tower Fp2 -> Fp6 -> Fp12 of the build's curve: Fp2 square
 * roots against the norm criterion (GMP Legendre symbol), the defining
 * relations v^3 = xi (1 + u for BLS12-381, 9 + u for BN254) and w^2 = v,
 * ring axioms on random inputs, the sparse products against full
 * products, inverses, Frobenius maps against plain exponentiation by p^k
 * (exponents computed with GMP), and cyclotomic squaring against plain
 * squaring on elements of the cyclotomic subgroup.
 */
#include <gmp.h>
#include <string.h>
#include "field/fp12.h"
#include "test.h"

static mpz_t P;

/* The curve's p and xi = XI0 + u, written out from the curves' specifications. */
#if SP_CURVE_BN254
#define P_HEX "30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47"
#define XI0 9
#else
#define P_HEX "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab"
#define XI0 1
#endif

static void set_xi(sp_fp2 *xi)
{
    sp_fp_set_u64(&xi->c0, XI0);
    sp_fp_set_one(&xi->c1);
}

/* out[0..cap) = z as little-endian 64-bit limbs; returns the limb count. */
static size_t mpz_to_limbs(uint64_t *out, size_t cap, const mpz_t z)
{
    size_t n = 0;
    memset(out, 0, cap * sizeof *out);
    if (mpz_sizeinbase(z, 2) > 64 * cap)
        abort();
    mpz_export(out, &n, -1, 8, 0, 0, z);
    return n;
}

static void fp_to_mpz(mpz_t out, const sp_fp *a)
{
    uint64_t l[SP_FP_LIMBS];
    sp_fp_to_canonical(l, a);
    mpz_import(out, SP_FP_LIMBS, -1, 8, 0, 0, l);
}

/* a in Fp2 is a square iff its norm a0^2 + a1^2 is a square in Fp. */
static int fp2_is_square_ref(const sp_fp2 *a)
{
    mpz_t x, y;
    mpz_inits(x, y, NULL);
    fp_to_mpz(x, &a->c0);
    fp_to_mpz(y, &a->c1);
    mpz_mul(x, x, x);
    mpz_mul(y, y, y);
    mpz_add(x, x, y);
    mpz_mod(x, x, P);
    int sq = mpz_legendre(x, P) >= 0;
    mpz_clears(x, y, NULL);
    return sq;
}

static void test_fp2_sqrt(sp_rng *rng)
{
    sp_fp2 a, s, t, xi;
    int squares = 0;
    for (int i = 0; i < sp_test_iters(200); i++) {
        sp_fp2_random(&a, rng);
        int ok = sp_fp2_sqrt(&s, &a);
        int expect = fp2_is_square_ref(&a);
        CHECKF(ok == expect, "iteration %d", i);
        if (ok) {
            sp_fp2_sqr(&t, &s);
            CHECK(sp_fp2_eq(&t, &a));
            squares++;
        }
        /* a^2 always has a root, +-a */
        sp_fp2 na;
        sp_fp2_sqr(&t, &a);
        sp_fp2_neg(&na, &a);
        CHECK(sp_fp2_sqrt(&s, &t));
        CHECK(sp_fp2_eq(&s, &a) || sp_fp2_eq(&s, &na));
        /* xi is a non-square (the tower depends on it); so is xi t */
        set_xi(&xi);
        sp_fp2_mul(&t, &t, &xi);
        CHECK(!sp_fp2_sqrt(&s, &t));
    }
    CHECK(squares > 0); /* about half of random elements are squares */
    /* elements with c1 = 0 or c0 = 0 take the alpha = -1 branch sometimes */
    for (int i = 0; i < sp_test_iters(20); i++) {
        sp_fp2_random(&a, rng);
        sp_fp_set_zero(i & 1 ? &a.c0 : &a.c1);
        int ok = sp_fp2_sqrt(&s, &a);
        CHECK(ok == fp2_is_square_ref(&a));
        if (ok) {
            sp_fp2_sqr(&t, &s);
            CHECK(sp_fp2_eq(&t, &a));
        }
    }
    sp_fp2_set_zero(&a);
    CHECK(sp_fp2_sqrt(&s, &a) && sp_fp2_is_zero(&s));
    sp_fp2_set_one(&a);
    sp_fp2_neg(&a, &a); /* -1 = u^2 */
    CHECK(sp_fp2_sqrt(&s, &a));
    sp_fp2_sqr(&t, &s);
    CHECK(sp_fp2_eq(&t, &a));
}

/* v^3 = xi in Fp6, w^2 = v in Fp12, and the _by_nonresidue maps are products by them. */
static void test_relations(sp_rng *rng)
{
    sp_fp6 v, t, a, b;
    sp_fp2 xi0;
    set_xi(&xi0);
    sp_fp6_set_zero(&v);
    sp_fp_set_one(&v.c1.c0);
    sp_fp6_mul(&t, &v, &v);
    sp_fp6_mul(&t, &t, &v);
    CHECK(sp_fp2_eq(&t.c0, &xi0));
    CHECK(sp_fp2_is_zero(&t.c1) && sp_fp2_is_zero(&t.c2));
    /* xi has no cube root and no square root in Fp2: v^3 - xi and
     * w^6 - xi are irreducible. xi^((p^2-1)/3) != 1 and xi^((p^2-1)/2) != 1. */
    {
        mpz_t q;
        uint64_t e[12];
        mpz_init(q);
        mpz_mul(q, P, P);
        mpz_sub_ui(q, q, 1);
        mpz_divexact_ui(q, q, 3);
        size_t n = mpz_to_limbs(e, 12, q);
        sp_fp2 c;
        sp_fp2_pow(&c, &xi0, e, n);
        CHECK(!sp_fp2_is_one(&c));
        mpz_mul_ui(q, q, 3);
        mpz_divexact_ui(q, q, 2);
        n = mpz_to_limbs(e, 12, q);
        sp_fp2_pow(&c, &xi0, e, n);
        CHECK(!sp_fp2_is_one(&c));
        mpz_clear(q);
    }

    sp_fp12 w, w2;
    sp_fp12_set_zero(&w);
    sp_fp_set_one(&w.c1.c0.c0);
    sp_fp12_mul(&w2, &w, &w);
    CHECK(sp_fp6_eq(&w2.c0, &v) && sp_fp6_is_zero(&w2.c1));
    sp_fp12_sqr(&w2, &w);
    CHECK(sp_fp6_eq(&w2.c0, &v) && sp_fp6_is_zero(&w2.c1));

    for (int i = 0; i < sp_test_iters(20); i++) {
        sp_fp6_random(&a, rng);
        sp_fp6_mul(&t, &a, &v);
        sp_fp6_mul_by_nonresidue(&b, &a);
        CHECK(sp_fp6_eq(&t, &b));
        sp_fp2 x, xi;
        sp_fp2_random(&x, rng);
        set_xi(&xi);
        sp_fp2 y, z;
        sp_fp2_mul(&y, &x, &xi);
        sp_fp2_mul_by_nonresidue(&z, &x);
        CHECK(sp_fp2_eq(&y, &z));
    }
}

static void test_fp6_axioms(sp_rng *rng)
{
    for (int i = 0; i < sp_test_iters(200); i++) {
        sp_fp6 a, b, c, x, y, z;
        sp_fp6_random(&a, rng);
        sp_fp6_random(&b, rng);
        sp_fp6_random(&c, rng);
        sp_fp6_mul(&x, &a, &b);
        sp_fp6_mul(&y, &b, &a);
        CHECK(sp_fp6_eq(&x, &y));
        sp_fp6_mul(&x, &x, &c);
        sp_fp6_mul(&y, &b, &c);
        sp_fp6_mul(&y, &a, &y);
        CHECK(sp_fp6_eq(&x, &y));
        sp_fp6_add(&x, &b, &c);
        sp_fp6_mul(&x, &a, &x);
        sp_fp6_mul(&y, &a, &b);
        sp_fp6_mul(&z, &a, &c);
        sp_fp6_add(&y, &y, &z);
        CHECK(sp_fp6_eq(&x, &y));
        sp_fp6_sqr(&x, &a);
        sp_fp6_mul(&y, &a, &a);
        CHECK(sp_fp6_eq(&x, &y));
        sp_fp6_inv(&x, &a);
        sp_fp6_mul(&y, &x, &a);
        CHECK(sp_fp6_is_one(&y));
        /* sparse products against the full product */
        sp_fp6 s;
        sp_fp6_set_zero(&s);
        s.c0 = b.c0;
        s.c1 = b.c1;
        sp_fp6_mul(&x, &a, &s);
        sp_fp6_mul_by_01(&y, &a, &b.c0, &b.c1);
        CHECK(sp_fp6_eq(&x, &y));
        sp_fp2_set_zero(&s.c0);
        sp_fp6_mul(&x, &a, &s);
        sp_fp6_mul_by_1(&y, &a, &b.c1);
        CHECK(sp_fp6_eq(&x, &y));
        sp_fp6_set_zero(&s);
        s.c0 = b.c0;
        sp_fp6_mul(&x, &a, &s);
        sp_fp6_mul_fp2(&y, &a, &b.c0);
        CHECK(sp_fp6_eq(&x, &y));
        /* aliasing */
        x = a;
        sp_fp6_mul(&x, &x, &x);
        sp_fp6_sqr(&y, &a);
        CHECK(sp_fp6_eq(&x, &y));
    }
    sp_fp6 z, zi;
    sp_fp6_set_zero(&z);
    sp_fp6_inv(&zi, &z);
    CHECK(sp_fp6_is_zero(&zi));
}

static void test_fp12_axioms(sp_rng *rng)
{
    for (int i = 0; i < sp_test_iters(100); i++) {
        sp_fp12 a, b, c, x, y, z;
        sp_fp12_random(&a, rng);
        sp_fp12_random(&b, rng);
        sp_fp12_random(&c, rng);
        sp_fp12_mul(&x, &a, &b);
        sp_fp12_mul(&y, &b, &a);
        CHECK(sp_fp12_eq(&x, &y));
        sp_fp12_mul(&x, &x, &c);
        sp_fp12_mul(&y, &b, &c);
        sp_fp12_mul(&y, &a, &y);
        CHECK(sp_fp12_eq(&x, &y));
        sp_fp12_add(&x, &b, &c);
        sp_fp12_mul(&x, &a, &x);
        sp_fp12_mul(&y, &a, &b);
        sp_fp12_mul(&z, &a, &c);
        sp_fp12_add(&y, &y, &z);
        CHECK(sp_fp12_eq(&x, &y));
        sp_fp12_sub(&y, &y, &z);
        sp_fp12_mul(&x, &a, &b);
        CHECK(sp_fp12_eq(&x, &y));
        sp_fp12_neg(&y, &y);
        sp_fp12_add(&y, &y, &x);
        CHECK(sp_fp12_is_zero(&y));
        sp_fp12_sqr(&x, &a);
        sp_fp12_mul(&y, &a, &a);
        CHECK(sp_fp12_eq(&x, &y));
        sp_fp12_inv(&x, &a);
        sp_fp12_mul(&y, &x, &a);
        CHECK(sp_fp12_is_one(&y));
        /* line-shaped sparse product */
        sp_fp12 s;
        sp_fp12_set_zero(&s);
        s.c0.c0 = b.c0.c0;
        s.c0.c1 = b.c0.c1;
        s.c1.c1 = b.c1.c1;
        sp_fp12_mul(&x, &a, &s);
        sp_fp12_mul_by_014(&y, &a, &b.c0.c0, &b.c0.c1, &b.c1.c1);
        CHECK(sp_fp12_eq(&x, &y));
        sp_fp12_mul_by_014(&c, &a, &b.c0.c0, &b.c0.c1, &b.c1.c1);
        sp_fp12_mul_by_014(&c, &c, &b.c0.c0, &b.c0.c1, &b.c1.c1); /* aliasing */
        sp_fp12_mul(&x, &y, &s);
        CHECK(sp_fp12_eq(&c, &x));
        /* the D-twist shape: positions 0, 3, 4 */
        sp_fp12_set_zero(&s);
        s.c0.c0 = b.c0.c0;
        s.c1.c0 = b.c1.c0;
        s.c1.c1 = b.c1.c1;
        sp_fp12_mul(&x, &a, &s);
        sp_fp12_mul_by_034(&y, &a, &b.c0.c0, &b.c1.c0, &b.c1.c1);
        CHECK(sp_fp12_eq(&x, &y));
        sp_fp12_mul_by_034(&a, &a, &b.c0.c0, &b.c1.c0, &b.c1.c1); /* aliasing */
        CHECK(sp_fp12_eq(&a, &y));
    }
    sp_fp12 z, zi, one;
    sp_fp12_set_zero(&z);
    sp_fp12_inv(&zi, &z);
    CHECK(sp_fp12_is_zero(&zi));
    sp_fp12_set_one(&one);
    CHECK(sp_fp12_is_one(&one) && !sp_fp12_is_zero(&one));
}

/* pow_var against repeated multiplication on small exponents. */
static void test_pow(sp_rng *rng)
{
    sp_fp12 a, x, y;
    sp_fp12_random(&a, rng);
    sp_fp12_set_one(&y);
    for (uint64_t e = 0; e < 40; e++) {
        sp_fp12_pow_var(&x, &a, &e, 1);
        CHECK(sp_fp12_eq(&x, &y));
        sp_fp12_mul(&y, &y, &a);
    }
    /* a^(p^12 - 1) = 1: the multiplicative group of Fp12 has that order */
    uint64_t e[80];
    mpz_t q;
    mpz_init(q);
    mpz_pow_ui(q, P, 12);
    mpz_sub_ui(q, q, 1);
    size_t n = mpz_to_limbs(e, 80, q);
    sp_fp12_pow_var(&x, &a, e, n);
    CHECK(sp_fp12_is_one(&x));
    mpz_clear(q);
}

static void test_frobenius(sp_rng *rng)
{
    uint64_t e[20];
    mpz_t q;
    mpz_init(q);
    for (unsigned k = 1; k <= 3; k++) {
        mpz_pow_ui(q, P, k);
        size_t n = mpz_to_limbs(e, 20, q);
        for (int i = 0; i < sp_test_iters(3); i++) {
            sp_fp12 a, x, y;
            sp_fp12_random(&a, rng);
            if (i == 1)
                sp_fp6_set_zero(&a.c1); /* an Fp6 element: checks sp_fp6_frobenius alone */
            sp_fp12_frobenius(&x, &a, k);
            sp_fp12_pow_var(&y, &a, e, n);
            CHECKF(sp_fp12_eq(&x, &y), "k = %u", k);
            if (i == 1) {
                sp_fp6 z;
                sp_fp6_frobenius(&z, &a.c0, k);
                CHECK(sp_fp6_eq(&z, &x.c0));
            }
        }
    }
    mpz_clear(q);
    /* higher powers are compositions of the first; p^6 is conjugation */
    sp_fp12 a, x, y, c;
    sp_fp12_random(&a, rng);
    y = a;
    for (unsigned k = 0; k <= 13; k++) {
        sp_fp12_frobenius(&x, &a, k);
        CHECKF(sp_fp12_eq(&x, &y), "k = %u", k);
        sp_fp12_frobenius(&y, &y, 1);
    }
    sp_fp12_frobenius(&x, &a, 6);
    sp_fp12_conj(&c, &a);
    CHECK(sp_fp12_eq(&x, &c));
    sp_fp6 b, b6;
    sp_fp6_random(&b, rng);
    sp_fp6_frobenius(&b6, &b, 6);
    CHECK(sp_fp6_eq(&b6, &b));
}

static void test_cyclotomic(sp_rng *rng)
{
    /* g = f^((p^6-1)(p^2+1)), computed as conj(f)/f then g^(p^2) g */
    uint64_t e[30];
    mpz_t q, t;
    mpz_inits(q, t, NULL);
    mpz_pow_ui(q, P, 4); /* Phi_12(p) = p^4 - p^2 + 1 */
    mpz_pow_ui(t, P, 2);
    mpz_sub(q, q, t);
    mpz_add_ui(q, q, 1);
    size_t n = mpz_to_limbs(e, 30, q);
    for (int i = 0; i < sp_test_iters(4); i++) {
        sp_fp12 f, g, h, x, y;
        sp_fp12_random(&f, rng);
        sp_fp12_inv(&h, &f);
        sp_fp12_conj(&g, &f);
        sp_fp12_mul(&g, &g, &h);
        sp_fp12_frobenius(&h, &g, 2);
        sp_fp12_mul(&g, &g, &h);
        /* independent membership check: g^Phi_12(p) = 1, and conj = inverse */
        sp_fp12_pow_var(&x, &g, e, n);
        CHECK(sp_fp12_is_one(&x));
        sp_fp12_conj(&x, &g);
        sp_fp12_mul(&x, &x, &g);
        CHECK(sp_fp12_is_one(&x));
        for (int j = 0; j < 8; j++) {
            sp_fp12_cyclotomic_sqr(&x, &g);
            sp_fp12_sqr(&y, &g);
            CHECK(sp_fp12_eq(&x, &y));
            sp_fp12_cyclotomic_sqr(&g, &g); /* aliasing, and a new point */
            CHECK(sp_fp12_eq(&g, &y));
        }
    }
    mpz_clears(q, t, NULL);
}

int main(void)
{
    sp_rng rng;
    sp_test_begin("test_tower", &rng);
    mpz_init_set_str(P, P_HEX, 16);
    uint64_t pl[SP_FP_LIMBS];
    mpz_to_limbs(pl, SP_FP_LIMBS, P);
    CHECK(memcmp(pl, SP_FP_MODULUS, sizeof pl) == 0); /* the library's p is the spec's */
    test_fp2_sqrt(&rng);
    test_relations(&rng);
    test_fp6_axioms(&rng);
    test_fp12_axioms(&rng);
    test_pow(&rng);
    test_frobenius(&rng);
    test_cyclotomic(&rng);
    mpz_clear(P);
    return sp_test_done();
}
