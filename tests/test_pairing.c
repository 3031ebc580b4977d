/*
 * The pairing of the build's curve: known answer e(G1, G2) (BLS12-381:
 * published by zkcrypto bls12_381 and blst; BN254: computed by
 * @noble/curves, tests/vectors/noble_bn254.txt), the final exponentiation
 * against plain exponentiation by c (p^12 - 1) / r (GMP exponent; c = 3 for
 * BLS12-381, 2x (6x^2 + 3x + 1) for BN254), bilinearity on random scalars,
 * e^r = 1, non-degeneracy, infinity inputs, product checks, and the multi
 * and prepared Miller loops against single ones.
 *
 * Points are made with a deliberately naive affine double-and-add local to
 * this file (one inversion per step), independent of src/curve.
 */
#include <gmp.h>
#include <string.h>
#include "pairing/pairing.h"
#include "test.h"

static mpz_t P, R;

/* The curve's constants, written out from its specification: p, r, the
 * generators (BN254: EIP-197; BLS12-381: the zcash / IETF draft) and b. */
#if SP_CURVE_BN254
#define P_HEX "30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47"
#define R_HEX "30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001"
#define G1_X "0x1"
#define G1_Y "0x2"
#define G2_X0 "0x1800deef121f1e76426a00665e5c4479674322d4f75edadd46debd5cd992f6ed"
#define G2_X1 "0x198e9393920d483a7260bfb731fb5d25f1aa493335a9e71297e485b7aef312c2"
#define G2_Y0 "0x12c85ea5db8c6deb4aab71808dcb408fe3d1e7690c43d37b4ce6cc0166fa7daa"
#define G2_Y1 "0x090689d0585ff075ec9e99ad690c3395bc4b313370b38ef355acdadcd122975b"
#else
#define P_HEX "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab"
#define R_HEX "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001"
#define G1_X "0x17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb"
#define G1_Y "0x08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1"
#define G2_X0 "0x024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"
#define G2_X1 "0x13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
#define G2_Y0 "0x0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801"
#define G2_Y1 "0x0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be"
#endif

/* b of G1 and b' of G2: BN254 3 and 3 / (9 + u), BLS12-381 4 and 4 (1 + u). */
static void curve_bs(sp_fp *b1, sp_fp2 *b2)
{
#if SP_CURVE_BN254
    sp_fp2 xi;
    sp_fp_set_u64(b1, 3);
    sp_fp_set_u64(&xi.c0, 9);
    sp_fp_set_one(&xi.c1);
    sp_fp2_inv(&xi, &xi);
    sp_fp2_mul_fp(b2, &xi, b1);
#else
    sp_fp_set_u64(b1, 4);
    b2->c0 = *b1;
    b2->c1 = *b1;
#endif
}

/* ---- naive affine curve arithmetic, the test's own reference ---- */

static sp_fp fp_const(const char *hex)
{
    sp_fp r;
    if (sp_fp_from_str(&r, hex) != SP_OK)
        abort();
    return r;
}

static void g1_gen(sp_g1_affine *g)
{
    g->x = fp_const(G1_X);
    g->y = fp_const(G1_Y);
}

static void g2_gen(sp_g2_affine *g)
{
    g->x.c0 = fp_const(G2_X0);
    g->x.c1 = fp_const(G2_X1);
    g->y.c0 = fp_const(G2_Y0);
    g->y.c1 = fp_const(G2_Y1);
}

static int g1_inf(const sp_g1_affine *a) { return sp_fp_is_zero(&a->x) && sp_fp_is_zero(&a->y); }
static int g2_inf(const sp_g2_affine *a) { return sp_fp2_is_zero(&a->x) && sp_fp2_is_zero(&a->y); }

static int g1_on_curve(const sp_g1_affine *a)
{
    sp_fp l, r, b;
    sp_fp2 b2;
    curve_bs(&b, &b2);
    sp_fp_sqr(&l, &a->y);
    sp_fp_sqr(&r, &a->x);
    sp_fp_mul(&r, &r, &a->x);
    sp_fp_add(&r, &r, &b);
    return sp_fp_eq(&l, &r);
}

static int g2_on_curve(const sp_g2_affine *a)
{
    sp_fp2 l, r, b;
    sp_fp b1;
    curve_bs(&b1, &b);
    sp_fp2_sqr(&l, &a->y);
    sp_fp2_sqr(&r, &a->x);
    sp_fp2_mul(&r, &r, &a->x);
    sp_fp2_add(&r, &r, &b);
    return sp_fp2_eq(&l, &r);
}

/* r = a + b, chord and tangent, all cases */
static void g1_add(sp_g1_affine *r, const sp_g1_affine *a, const sp_g1_affine *b)
{
    sp_fp lam, t, x3, y3;
    if (g1_inf(a)) { *r = *b; return; }
    if (g1_inf(b)) { *r = *a; return; }
    if (sp_fp_eq(&a->x, &b->x)) {
        sp_fp_add(&t, &a->y, &b->y);
        if (sp_fp_is_zero(&t)) { memset(r, 0, sizeof *r); return; }
        sp_fp_sqr(&lam, &a->x); /* 3x^2 / 2y */
        sp_fp_add(&t, &lam, &lam);
        sp_fp_add(&lam, &t, &lam);
        sp_fp_dbl(&t, &a->y);
    } else {
        sp_fp_sub(&lam, &b->y, &a->y);
        sp_fp_sub(&t, &b->x, &a->x);
    }
    sp_fp_inv(&t, &t);
    sp_fp_mul(&lam, &lam, &t);
    sp_fp_sqr(&x3, &lam);
    sp_fp_sub(&x3, &x3, &a->x);
    sp_fp_sub(&x3, &x3, &b->x);
    sp_fp_sub(&t, &a->x, &x3);
    sp_fp_mul(&y3, &lam, &t);
    sp_fp_sub(&y3, &y3, &a->y);
    r->x = x3;
    r->y = y3;
}

static void g2_add(sp_g2_affine *r, const sp_g2_affine *a, const sp_g2_affine *b)
{
    sp_fp2 lam, t, x3, y3;
    if (g2_inf(a)) { *r = *b; return; }
    if (g2_inf(b)) { *r = *a; return; }
    if (sp_fp2_eq(&a->x, &b->x)) {
        sp_fp2_add(&t, &a->y, &b->y);
        if (sp_fp2_is_zero(&t)) { memset(r, 0, sizeof *r); return; }
        sp_fp2_sqr(&lam, &a->x);
        sp_fp2_add(&t, &lam, &lam);
        sp_fp2_add(&lam, &t, &lam);
        sp_fp2_dbl(&t, &a->y);
    } else {
        sp_fp2_sub(&lam, &b->y, &a->y);
        sp_fp2_sub(&t, &b->x, &a->x);
    }
    sp_fp2_inv(&t, &t);
    sp_fp2_mul(&lam, &lam, &t);
    sp_fp2_sqr(&x3, &lam);
    sp_fp2_sub(&x3, &x3, &a->x);
    sp_fp2_sub(&x3, &x3, &b->x);
    sp_fp2_sub(&t, &a->x, &x3);
    sp_fp2_mul(&y3, &lam, &t);
    sp_fp2_sub(&y3, &y3, &a->y);
    r->x = x3;
    r->y = y3;
}

static void g1_mul(sp_g1_affine *r, const sp_g1_affine *a, const uint64_t *k, size_t n)
{
    sp_g1_affine acc;
    memset(&acc, 0, sizeof acc);
    for (size_t i = n; i-- > 0;)
        for (int b = 63; b >= 0; b--) {
            g1_add(&acc, &acc, &acc);
            if ((k[i] >> b) & 1)
                g1_add(&acc, &acc, a);
        }
    *r = acc;
}

static void g2_mul(sp_g2_affine *r, const sp_g2_affine *a, const uint64_t *k, size_t n)
{
    sp_g2_affine acc;
    memset(&acc, 0, sizeof acc);
    for (size_t i = n; i-- > 0;)
        for (int b = 63; b >= 0; b--) {
            g2_add(&acc, &acc, &acc);
            if ((k[i] >> b) & 1)
                g2_add(&acc, &acc, a);
        }
    *r = acc;
}

/* ---- helpers ---- */

static void fr_limbs(uint64_t out[SP_FR_LIMBS], const sp_fr *a) { sp_fr_to_canonical(out, a); }

static size_t mpz_to_limbs(uint64_t *out, size_t cap, const mpz_t z)
{
    size_t n = 0;
    memset(out, 0, cap * sizeof *out);
    if (mpz_sizeinbase(z, 2) > 64 * cap)
        abort();
    mpz_export(out, &n, -1, 8, 0, 0, z);
    return n;
}

static void random_points(sp_g1_affine *p, sp_g2_affine *q, sp_rng *rng)
{
    sp_g1_affine g1;
    sp_g2_affine g2;
    sp_fr a;
    uint64_t k[SP_FR_LIMBS];
    g1_gen(&g1);
    g2_gen(&g2);
    sp_fr_random(&a, rng);
    fr_limbs(k, &a);
    g1_mul(p, &g1, k, SP_FR_LIMBS);
    sp_fr_random(&a, rng);
    fr_limbs(k, &a);
    g2_mul(q, &g2, k, SP_FR_LIMBS);
}

/* ---- tests ---- */

#if SP_CURVE_BN254
/* e(G1, G2) as @noble/curves 2.4.0 computes it (the "pairing 1 1" line of
 * tests/vectors/noble_bn254.txt), canonical, in the order c0.c0.c0,
 * c0.c0.c1, c0.c1.c0, ..., c1.c2.c1. */
static const char *const GT_GEN_HEX[12] = {
    "0x262b253feda94cfe0da01bde280a3ed6f87e5feb898578b55e1f63739d870e95",
    "0x02e02d2cc795a2000a1b1f823879abbd397c4dea0918ed66b49d34b48efb8a4a",
    "0x13a9f2d6e29b128da5b1ad44b31977935fd2957387ecb1fc4e135402fdbd1de0",
    "0x040ba9fa500f1a5c4b31984a74e68659c4b420bd699ce630b130b08a6ea1162b",
    "0x0afc2f3fd870678fbe359d7f9873f052478f590b211ce30bf5e3eeaef89eafdb",
    "0x1c54a530398c9064bdc662d929e645cadda9a712cc5a8243f9cddbd2d98dd1f0",
    "0x095c0fbf5d5a1ac023794a0d856f92591ba990ecfd4b7aef5c0d58c5dc2429fe",
    "0x14d3d6ca72d8a950a31dc10f7b4053c9e9ad9ebb590cb4a60f8215d4b99f2b4a",
    "0x1dc0e7bbc3d70e6689dc206b4b91c85759dc1a23043c585fdfaf545838ca7429",
    "0x0b53320e5a6488cb98a855ffc837d2a75ab90d61ac16cc1b7ab2cd3ed5e22b97",
    "0x13a8afd3085dae4c6c91476ef36cd1d318ce07bac42a9c0f9bd7fddaf5ebd723",
    "0x00f97b5221474526b601f3730a3afa965ceee1b343940c383e5314859e762c97",
};

static void gt_gen_published(sp_fp12 *r)
{
    sp_fp *slots[12] = {&r->c0.c0.c0, &r->c0.c0.c1, &r->c0.c1.c0, &r->c0.c1.c1, &r->c0.c2.c0, &r->c0.c2.c1,
                        &r->c1.c0.c0, &r->c1.c0.c1, &r->c1.c1.c0, &r->c1.c1.c1, &r->c1.c2.c0, &r->c1.c2.c1};
    for (int i = 0; i < 12; i++)
        *slots[i] = fp_const(GT_GEN_HEX[i]);
}
#else
/* e(G1, G2) as published (zkcrypto bls12_381 pairings.rs Gt::generator, the
 * same limbs in blst's Rust bindings): Montgomery limbs with R = 2^384, in
 * the order c0.c0.c0, c0.c0.c1, c0.c1.c0, ..., c1.c2.c1. */
static const uint64_t GT_GEN_MONT[12][6] = {
    {0x1972e433a01f85c5, 0x97d32b76fd772538, 0xc8ce546fc96bcdf9, 0xcef63e7366d40614, 0xa611342781843780, 0x13f3448a3fc6d825},
    {0xd26331b02e9d6995, 0x9d68a482f7797e7d, 0x9c9b29248d39ea92, 0xf4801ca2e13107aa, 0xa16c0732bdbcb066, 0x083ca4afba360478},
    {0x59e261db0916b641, 0x2716b6f4b23e960d, 0xc8e55b10a0bd9c45, 0x0bdb0bd99c4deda8, 0x8cf89ebf57fdaac5, 0x12d6b7929e777a5e},
    {0x5fc85188b0e15f35, 0x34a06e3a8f096365, 0xdb3126a6e02ad62c, 0xfc6f5aa97d9a990b, 0xa12f55f5eb89c210, 0x1723703a926f8889},
    {0x93588f2971828778, 0x43f65b8611ab7585, 0x3183aaf5ec279fdf, 0xfa73d7e18ac99df6, 0x64e176a6a64c99b0, 0x179fa78c58388f1f},
    {0x672a0a11ca2aef12, 0x0d11b9b52aa3f16b, 0xa44412d0699d056e, 0xc01d0177221a5ba5, 0x66e0cede6c735529, 0x05f5a71e9fddc339},
    {0xd30a88a1b062c679, 0x5ac56a5d35fc8304, 0xd0c834a6a81f290d, 0xcd5430c2da3707c7, 0xf0c27ff780500af0, 0x09245da6e2d72eae},
    {0x9f2e0676791b5156, 0xe2d1c8234918fe13, 0x4c9e459f3c561bf4, 0xa3e85e53b9d3e3c1, 0x820a121e21a70020, 0x15af618341c59acc},
    {0x7c95658c24993ab1, 0x73eb38721ca886b9, 0x5256d749477434bc, 0x8ba41902ea504a8b, 0x04a3d3f80c86ce6d, 0x18a64a87fb686eaa},
    {0xbb83e71bb920cf26, 0x2a5277ac92a73945, 0xfc0ee59f94f046a0, 0x7158cdf3786058f7, 0x7cc1061b82f945f6, 0x03f847aa9fdbe567},
    {0x8078dba56134e657, 0x1cd7ec9a43998a6e, 0xb1aa599a1a993766, 0xc9a0f62f0842ee44, 0x8e159be3b605dffa, 0x0c86ba0d4af13fc2},
    {0xe80ff2a06a52ffb1, 0x7694ca48721a906c, 0x7583183e03b08514, 0xf567afdd40cee4e2, 0x9a6d96d2e526a5fc, 0x197e9f49861f2242},
};

static void gt_gen_published(sp_fp12 *r)
{
    sp_fp *slots[12] = {&r->c0.c0.c0, &r->c0.c0.c1, &r->c0.c1.c0, &r->c0.c1.c1, &r->c0.c2.c0, &r->c0.c2.c1,
                        &r->c1.c0.c0, &r->c1.c0.c1, &r->c1.c1.c0, &r->c1.c1.c1, &r->c1.c2.c0, &r->c1.c2.c1};
    mpz_t x, rinv;
    mpz_inits(x, rinv, NULL);
    mpz_set_ui(rinv, 1);
    mpz_mul_2exp(rinv, rinv, 384);
    mpz_invert(rinv, rinv, P);
    for (int i = 0; i < 12; i++) {
        uint64_t l[SP_FP_LIMBS];
        mpz_import(x, 6, -1, 8, 0, 0, GT_GEN_MONT[i]);
        mpz_mul(x, x, rinv); /* Montgomery -> canonical */
        mpz_mod(x, x, P);
        mpz_to_limbs(l, SP_FP_LIMBS, x);
        if (sp_fp_from_canonical(slots[i], l) != SP_OK)
            abort();
    }
    mpz_clears(x, rinv, NULL);
}
#endif

static void test_known_answer(void)
{
    sp_g1_affine g1;
    sp_g2_affine g2;
    sp_fp12 e, want;
    g1_gen(&g1);
    g2_gen(&g2);
    CHECK(g1_on_curve(&g1) && g2_on_curve(&g2));
    gt_gen_published(&want);
    sp_pairing(&e, &g1, &g2);
    CHECK(sp_fp12_eq(&e, &want));
    CHECK(!sp_fp12_is_one(&e)); /* non-degenerate */
}

/* final_exp(f) = f^(c (p^12 - 1) / r) */
static void test_final_exp(sp_rng *rng)
{
    static uint64_t e[80];
    mpz_t q, c;
    mpz_inits(q, c, NULL);
#if SP_CURVE_BN254
    mpz_set_str(c, "4965661367192848881", 10); /* c = 2x (6x^2 + 3x + 1) */
    mpz_mul(q, c, c);
    mpz_mul_ui(q, q, 6);
    mpz_addmul_ui(q, c, 3);
    mpz_add_ui(q, q, 1);
    mpz_mul(c, c, q);
    mpz_mul_2exp(c, c, 1);
#else
    mpz_set_ui(c, 3);
#endif
    mpz_pow_ui(q, P, 12);
    mpz_sub_ui(q, q, 1);
    mpz_divexact(q, q, R);
    mpz_mul(q, q, c);
    size_t n = mpz_to_limbs(e, 80, q);
    mpz_clears(q, c, NULL);
    for (int i = 0; i < sp_test_iters(2); i++) {
        sp_fp12 f, x, y;
        sp_fp12_random(&f, rng);
        sp_final_exp(&x, &f);
        sp_fp12_pow_var(&y, &f, e, n);
        CHECK(sp_fp12_eq(&x, &y));
    }
}

static void test_bilinearity(sp_rng *rng)
{
    sp_g1_affine g1, ap;
    sp_g2_affine g2, bq, aq;
    uint64_t ka[SP_FR_LIMBS], kb[SP_FR_LIMBS], kab[SP_FR_LIMBS], kr[SP_FR_LIMBS];
    sp_fp12 e, e1, e2, ex;
    g1_gen(&g1);
    g2_gen(&g2);
    sp_pairing(&e, &g1, &g2);
    for (int i = 0; i < sp_test_iters(2); i++) {
        sp_fr a, b, ab;
        sp_fr_random(&a, rng);
        sp_fr_random(&b, rng);
        sp_fr_mul(&ab, &a, &b);
        fr_limbs(ka, &a);
        fr_limbs(kb, &b);
        fr_limbs(kab, &ab);
        g1_mul(&ap, &g1, ka, SP_FR_LIMBS);
        g2_mul(&bq, &g2, kb, SP_FR_LIMBS);
        g2_mul(&aq, &g2, ka, SP_FR_LIMBS);
        sp_pairing(&e1, &ap, &bq);
        sp_fp12_pow_var(&ex, &e, kab, SP_FR_LIMBS);
        CHECK(sp_fp12_eq(&e1, &ex)); /* e(aP, bQ) = e(P, Q)^(ab) */
        sp_pairing(&e1, &ap, &g2);
        sp_pairing(&e2, &g1, &aq);
        CHECK(sp_fp12_eq(&e1, &e2)); /* e(aP, Q) = e(P, aQ) */
        /* e(P, Q1 + Q2) = e(P, Q1) e(P, Q2) */
        sp_g2_affine s;
        g2_add(&s, &aq, &bq);
        sp_pairing(&e1, &ap, &s);
        sp_pairing(&e2, &ap, &aq);
        sp_pairing(&ex, &ap, &bq);
        sp_fp12_mul(&e2, &e2, &ex);
        CHECK(sp_fp12_eq(&e1, &e2));
    }
    /* order r: e^r = 1, and [r]G = inf for the generators */
    mpz_to_limbs(kr, SP_FR_LIMBS, R);
    sp_fp12_pow_var(&ex, &e, kr, SP_FR_LIMBS);
    CHECK(sp_fp12_is_one(&ex));
    g1_mul(&ap, &g1, kr, SP_FR_LIMBS);
    g2_mul(&bq, &g2, kr, SP_FR_LIMBS);
    CHECK(g1_inf(&ap) && g2_inf(&bq));
}

static void test_infinity_and_products(sp_rng *rng)
{
    sp_g1_affine p[3], inf1;
    sp_g2_affine q[3], inf2;
    sp_fp12 e;
    memset(&inf1, 0, sizeof inf1);
    memset(&inf2, 0, sizeof inf2);
    random_points(&p[0], &q[0], rng);
    sp_pairing(&e, &inf1, &q[0]);
    CHECK(sp_fp12_is_one(&e));
    sp_pairing(&e, &p[0], &inf2);
    CHECK(sp_fp12_is_one(&e));
    sp_miller_loop(&e, &inf1, &inf2);
    CHECK(sp_fp12_is_one(&e));
    CHECK(sp_pairing_product_is_one(p, q, 0));
    CHECK(!sp_pairing_product_is_one(p, q, 1));

    /* e(P, Q) e(-P, Q) = 1, plus an infinite pair in the middle */
    p[2] = p[0];
    q[2] = q[0];
    sp_fp_neg(&p[2].y, &p[2].y);
    p[1] = inf1;
    q[1] = q[0];
    CHECK(sp_pairing_product_is_one(p, q, 3));
    sp_g2_prepared pq[3];
    for (int i = 0; i < 3; i++)
        sp_g2_prepare(&pq[i], &q[i]);
    CHECK(sp_pairing_product_is_one_prepared(p, pq, 3));
    q[1] = inf2;
    p[1] = p[0];
    sp_g2_prepare(&pq[1], &q[1]);
    CHECK(pq[1].is_inf);
    CHECK(sp_pairing_product_is_one(p, q, 3));
    CHECK(sp_pairing_product_is_one_prepared(p, pq, 3));
    /* e(P, Q) e(P, -Q) = 1; e(P, Q) e(P, Q) != 1 */
    q[2] = q[0];
    sp_fp2_neg(&q[2].y, &q[2].y);
    p[2] = p[0];
    CHECK(sp_pairing_product_is_one(p, q, 3));
    q[2] = q[0];
    CHECK(!sp_pairing_product_is_one(p, q, 3));
    sp_g2_prepare(&pq[2], &q[2]);
    CHECK(!sp_pairing_product_is_one_prepared(p, pq, 3));

    /* Groth16 shape: e(aP, bQ) e(-abP, Q) = 1 */
    sp_fr a, b, ab;
    uint64_t k[SP_FR_LIMBS];
    sp_fr_random(&a, rng);
    sp_fr_random(&b, rng);
    sp_fr_mul(&ab, &a, &b);
    fr_limbs(k, &a);
    g1_mul(&p[1], &p[0], k, SP_FR_LIMBS);
    fr_limbs(k, &b);
    g2_mul(&q[1], &q[0], k, SP_FR_LIMBS);
    fr_limbs(k, &ab);
    g1_mul(&p[2], &p[0], k, SP_FR_LIMBS);
    sp_fp_neg(&p[2].y, &p[2].y);
    q[2] = q[0];
    CHECK(sp_pairing_product_is_one(p + 1, q + 1, 2));
    sp_fp_add(&p[2].y, &p[2].y, &p[2].y); /* off the curve: must not verify */
    CHECK(!sp_pairing_product_is_one(p + 1, q + 1, 2));
}

/* multi Miller loop = product of single Miller loops (exactly, before the
 * final exponentiation), across the internal chunk size; prepared = plain. */
static void test_multi(sp_rng *rng)
{
    enum { N = 11 };
    sp_g1_affine p[N];
    sp_g2_affine q[N];
    static sp_g2_prepared pq[N];
    for (int i = 0; i < N; i++) {
        if (i < 3)
            random_points(&p[i], &q[i], rng);
        else { /* cheap variety: sums of the first ones */
            g1_add(&p[i], &p[i - 1], &p[i - 2]);
            g2_add(&q[i], &q[i - 3], &q[i - 1]);
        }
        sp_g2_prepare(&pq[i], &q[i]);
    }
    memset(&p[5], 0, sizeof p[5]);  /* infinities contribute 1 */
    memset(&q[7], 0, sizeof q[7]);
    sp_g2_prepare(&pq[7], &q[7]);
    for (size_t n = 0; n <= N; n += (n < 3 ? 1 : 4)) {
        sp_fp12 prod, f, m, mp;
        sp_fp12_set_one(&prod);
        for (size_t i = 0; i < n; i++) {
            sp_miller_loop(&f, &p[i], &q[i]);
            sp_fp12_mul(&prod, &prod, &f);
        }
        sp_multi_miller_loop(&m, p, q, n);
        sp_multi_miller_loop_prepared(&mp, p, pq, n);
        CHECKF(sp_fp12_eq(&m, &prod), "n = %zu", n);
        CHECKF(sp_fp12_eq(&mp, &prod), "n = %zu", n);
    }
    /* product of pairings after final exponentiation */
    sp_fp12 prod, e, m;
    sp_fp12_set_one(&prod);
    for (int i = 0; i < 3; i++) {
        sp_pairing(&e, &p[i], &q[i]);
        sp_fp12_mul(&prod, &prod, &e);
    }
    sp_multi_miller_loop(&m, p, q, 3);
    sp_final_exp(&m, &m);
    CHECK(sp_fp12_eq(&m, &prod));
}

int main(void)
{
    sp_rng rng;
    sp_test_begin("test_pairing", &rng);
    mpz_init_set_str(P, P_HEX, 16);
    mpz_init_set_str(R, R_HEX, 16);
    test_known_answer();
    test_final_exp(&rng);
    test_bilinearity(&rng);
    test_infinity_and_products(&rng);
    test_multi(&rng);
    mpz_clears(P, R, NULL);
    return sp_test_done();
}
