/*
 * G1 and G2 group law, scalar multiplication and subgroup tests, for the
 * build's curve.
 *
 * The reference is affine arithmetic written here from the chord-and-tangent
 * definition (one inversion per step), which shares no formula with the
 * library. Points come in three kinds: random subgroup points [k]G, random
 * points of the whole curve (x by try-and-increment, which are almost never
 * in the subgroup) and points of small order [h r / l]C. BN254's G1 has
 * cofactor 1 (the whole curve is the group: every curve point must pass the
 * subgroup tests, and there is no small order), which the per-group pass
 * is told by COFACTOR_ONE.
 *
 * This file includes itself once per group: the first pass (without
 * CURVE_TEST_GROUP) holds the shared code and main(), the second and third
 * passes the per-group tests, with G and FIELD naming the group and field.
 */
#ifndef CURVE_TEST_GROUP
#include <gmp.h>
#include <string.h>
#include "curve/curve.h"
#include "curve/names.h"
#include "test.h"


/* out = v as little-endian limbs (at most n; the rest zero). Returns the limb count. */
static size_t mpz_to_limbs(uint64_t *out, size_t n, const mpz_t v)
{
    size_t cnt = 0;
    memset(out, 0, n * sizeof *out);
    mpz_export(out, &cnt, -1, 8, 0, 0, v);
    return cnt;
}

/* The cofactors from the family polynomials, and r. */
static mpz_t H1, H2, RMOD;

#if SP_CURVE_BN254
static void init_constants(void)
{
    /* BN: p = 36x^4 + 36x^3 + 24x^2 + 6x + 1, r = 36x^4 + 36x^3 + 18x^2 +
     * 6x + 1, #E(Fp) = r (h1 = 1), #E'(Fp2) = (2p - r) r. */
    static const long pc[5] = {36, 36, 24, 6, 1}, rc[5] = {36, 36, 18, 6, 1};
    mpz_t x, p;
    mpz_inits(x, p, H1, H2, RMOD, NULL);
    mpz_set_str(x, "4965661367192848881", 10);
    mpz_set_ui(p, 0);
    for (int i = 0; i < 5; i++) {
        mpz_mul(p, p, x);
        mpz_add_ui(p, p, (unsigned long)pc[i]);
        mpz_mul(RMOD, RMOD, x);
        mpz_add_ui(RMOD, RMOD, (unsigned long)rc[i]);
    }
    uint64_t l[SP_FP_LIMBS];
    mpz_to_limbs(l, SP_FP_LIMBS, p);
    CHECK(memcmp(l, SP_FP_MODULUS, sizeof l) == 0);
    mpz_set_ui(H1, 1);
    mpz_mul_2exp(H2, p, 1);
    mpz_sub(H2, H2, RMOD);
    mpz_clears(x, p, NULL);
}
#else
static void init_constants(void)
{
    mpz_t x, t;
    mpz_inits(x, t, H1, H2, RMOD, NULL);
    mpz_set_str(RMOD, "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", 16);
    mpz_set_str(x, "-d201000000010000", 16);
    mpz_sub_ui(t, x, 1); /* h1 = (x - 1)^2 / 3 */
    mpz_mul(H1, t, t);
    mpz_divexact_ui(H1, H1, 3);
    /* h2 = (x^8 - 4x^7 + 5x^6 - 4x^4 + 6x^3 - 4x^2 - 4x + 13) / 9, by Horner */
    static const long c[9] = {1, -4, 5, 0, -4, 6, -4, -4, 13};
    mpz_set_si(H2, c[0]);
    for (int i = 1; i < 9; i++) {
        mpz_mul(H2, H2, x);
        if (c[i] >= 0)
            mpz_add_ui(H2, H2, (unsigned long)c[i]);
        else
            mpz_sub_ui(H2, H2, (unsigned long)-c[i]);
    }
    mpz_divexact_ui(H2, H2, 9);
    mpz_clears(x, t, NULL);
}
#endif

/* Smallest prime factor of h below 100000 (h has one for every group
 * whose h is not 1). */
static unsigned long small_factor(const mpz_t h)
{
    for (unsigned long l = 2; l < 100000; l++)
        if (mpz_divisible_ui_p(h, l))
            return l;
    return 0;
}

#define CURVE_TEST_GROUP
#define G g1
#define FIELD fp
#define COFACTOR H1
#define COFACTOR_ONE SP_CURVE_BN254
#include "test_curve.c"
#undef G
#undef FIELD
#undef COFACTOR
#undef COFACTOR_ONE
#define COFACTOR_ONE 0
#define G g2
#define FIELD fp2
#define COFACTOR H2
#include "test_curve.c"

/* psi on E'(Fp2): psi^2 - t psi + p = 0 on random curve points (t the
 * trace of Frobenius of E over Fp: t = p + 1 - h1 r), psi is additive,
 * and on G2 it is [p mod r]. */
static void test_psi(sp_rng *rng)
{
    mpz_t p, t, pr;
    uint64_t kp[8], kt[8], kpr[8];
    mpz_inits(p, t, pr, NULL);
    uint64_t l[SP_FP_LIMBS];
    memcpy(l, SP_FP_MODULUS, sizeof l);
    mpz_import(p, SP_FP_LIMBS, -1, 8, 0, 0, l);
    mpz_add_ui(t, p, 1);
    mpz_submul(t, H1, RMOD);
    int t_neg = mpz_sgn(t) < 0; /* BLS12-381: t = x + 1 < 0 */
    mpz_abs(t, t);
    mpz_mod(pr, p, RMOD);
    size_t np = mpz_to_limbs(kp, 8, p), nt = mpz_to_limbs(kt, 8, t), npr = mpz_to_limbs(kpr, 8, pr);
    for (int i = 0; i < sp_test_iters(4); i++) {
        sp_g2_affine a, b, pa, pb, ppa, s;
        sp_g2_jac x, y, z;
        random_curve_g2(&a, rng);
        random_curve_g2(&b, rng);
        sp_g2_psi(&pa, &a);
        sp_g2_psi(&ppa, &pa);
        CHECK(sp_g2_affine_is_on_curve(&pa));
        /* psi^2(a) + [p]a = [t] psi(a) */
        sp_g2_jac_from_affine(&x, &a);
        sp_g2_mul_var(&x, &x, kp, np);
        sp_g2_jac_add_affine_var(&x, &x, &ppa);
        sp_g2_jac_from_affine(&y, &pa);
        sp_g2_mul_var(&y, &y, kt, nt);
        if (t_neg)
            sp_g2_jac_neg(&y, &y);
        CHECK(sp_g2_jac_eq(&x, &y));
        /* psi(a + b) = psi(a) + psi(b) */
        ref_add_g2(&s, &a, &b);
        sp_g2_psi(&s, &s);
        sp_g2_psi(&pb, &b);
        ref_add_g2(&pb, &pa, &pb);
        CHECK(sp_g2_affine_eq(&s, &pb));
        /* on G2: psi = [p mod r] */
        random_sub_g2(&a, rng);
        sp_g2_psi(&pa, &a);
        sp_g2_jac_from_affine(&z, &a);
        sp_g2_mul_var(&z, &z, kpr, npr);
        sp_g2_jac_from_affine(&x, &pa);
        CHECK(sp_g2_jac_eq(&x, &z));
    }
    sp_g2_affine inf, pi;
    sp_g2_affine_set_inf(&inf);
    sp_g2_psi(&pi, &inf);
    CHECK(sp_g2_affine_is_inf(&pi));
    mpz_clears(p, t, pr, NULL);
}

int main(void)
{
    sp_rng rng;
    sp_test_begin("test_curve", &rng);
    init_constants();
    test_group_g1(&rng);
    test_group_g2(&rng);
    test_psi(&rng);
    mpz_clears(H1, H2, RMOD, NULL);
    return sp_test_done();
}

#else /* ---- per-group tests ---- */

#define TN(name) SP_CAT(name, SP_CAT(_, G)) /* test function names */

/* Reference addition in affine coordinates, from the definition. */
static void TN(ref_add)(AFF *r, const AFF *p, const AFF *q)
{
    if (FN(affine_is_inf)(p)) {
        *r = *q;
        return;
    }
    if (FN(affine_is_inf)(q)) {
        *r = *p;
        return;
    }
    FE num, den, lam, x3, y3;
    if (FEF(eq)(&p->x, &q->x)) {
        if (!FEF(eq)(&p->y, &q->y) || FEF(is_zero)(&p->y)) {
            FN(affine_set_inf)(r);
            return;
        }
        FEF(sqr)(&num, &p->x); /* tangent: 3x^2 / 2y */
        FEF(add)(&lam, &num, &num);
        FEF(add)(&num, &num, &lam);
        FEF(add)(&den, &p->y, &p->y);
    } else {
        FEF(sub)(&num, &q->y, &p->y); /* chord */
        FEF(sub)(&den, &q->x, &p->x);
    }
    FEF(inv)(&den, &den);
    FEF(mul)(&lam, &num, &den);
    FEF(sqr)(&x3, &lam);
    FEF(sub)(&x3, &x3, &p->x);
    FEF(sub)(&x3, &x3, &q->x);
    FEF(sub)(&y3, &p->x, &x3);
    FEF(mul)(&y3, &y3, &lam);
    FEF(sub)(&y3, &y3, &p->y);
    r->x = x3;
    r->y = y3;
}

/* Reference scalar multiplication: plain double-and-add on ref_add. */
static void TN(ref_mul)(AFF *r, const AFF *p, const uint64_t *k, size_t k_len)
{
    AFF acc;
    FN(affine_set_inf)(&acc);
    for (size_t i = k_len; i-- > 0;)
        for (int b = 63; b >= 0; b--) {
            TN(ref_add)(&acc, &acc, &acc);
            if ((k[i] >> b) & 1)
                TN(ref_add)(&acc, &acc, p);
        }
    *r = acc;
}

static void TN(to_aff)(AFF *r, const JAC *p) { FN(jac_to_affine)(r, p); }

static void TN(random_nonzero)(FE *r, sp_rng *rng)
{
    do
        FEF(random)(r, rng);
    while (FEF(is_zero)(r));
}

/* A random point of the subgroup: [k]G, k uniform in [0, r). */
static void TN(random_sub)(AFF *r, sp_rng *rng)
{
    sp_fr k;
    uint64_t l[SP_FR_LIMBS];
    JAC g;
    AFF ga;
    sp_fr_random(&k, rng);
    sp_fr_to_canonical(l, &k);
    FN(generator)(&ga);
    FN(jac_from_affine)(&g, &ga);
    FN(mul_var)(&g, &g, l, SP_FR_LIMBS);
    TN(to_aff)(r, &g);
}

/* A random point of the whole curve: try-and-increment on x. */
static void TN(random_curve)(AFF *r, sp_rng *rng)
{
    FE x, rhs, y, one;
    FEF(set_one)(&one);
    FEF(random)(&x, rng);
    for (;;) {
        FN(curve_rhs)(&rhs, &x);
        if (FEF(sqrt)(&y, &rhs))
            break;
        FEF(add)(&x, &x, &one);
    }
    if (sp_rng_u64(rng) & 1)
        FEF(neg)(&y, &y);
    r->x = x;
    r->y = y;
}

/* One of: a subgroup point, a curve point, a point of small order, inf. */
static void TN(random_any)(AFF *r, sp_rng *rng, const AFF *small)
{
    switch (sp_rng_u64(rng) % 8) {
    case 0: FN(affine_set_inf)(r); break;
    case 1: *r = *small; break;
    case 2: case 3: case 4: TN(random_curve)(r, rng); break;
    default: TN(random_sub)(r, rng); break;
    }
}

/* The same point with a random Z (X = x l^2, Y = y l^3, Z = l). */
static void TN(rand_jac)(JAC *r, const AFF *p, sp_rng *rng)
{
    FE l, l2, l3;
    TN(random_nonzero)(&l, rng);
    FEF(sqr)(&l2, &l);
    FEF(mul)(&l3, &l2, &l);
    if (FN(affine_is_inf)(p)) { /* any (X, Y, 0) is inf */
        r->x = l2;
        r->y = l3;
        FEF(set_zero)(&r->z);
        return;
    }
    FEF(mul)(&r->x, &p->x, &l2);
    FEF(mul)(&r->y, &p->y, &l3);
    r->z = l;
}

static void TN(rand_xyzz)(XYZZ *r, const AFF *p, sp_rng *rng)
{
    JAC j;
    TN(rand_jac)(&j, p, rng);
    r->x = j.x;
    r->y = j.y;
    FEF(sqr)(&r->zz, &j.z);
    FEF(mul)(&r->zzz, &r->zz, &j.z);
}

#if !COFACTOR_ONE
/* A point of prime order l | h: with n = h r = l^e m (l not dividing m),
 * [m]C has order l^i for a random curve point C; multiply by l until the
 * next step would give inf. (The l-part may be non-cyclic, so [n/l]C can be
 * inf for every C.) */
static void TN(small_order_point)(AFF *r, unsigned long *order, sp_rng *rng)
{
    mpz_t m;
    uint64_t k[16], lk;
    mpz_init(m);
    *order = lk = small_factor(COFACTOR);
    mpz_mul(m, COFACTOR, RMOD);
    while (mpz_divisible_ui_p(m, lk))
        mpz_divexact_ui(m, m, lk);
    size_t len = mpz_to_limbs(k, 16, m);
    JAC t, next;
    for (int tries = 0; tries < 50; tries++) { /* 1/l of the tries give inf */
        AFF c;
        TN(random_curve)(&c, rng);
        FN(jac_from_affine)(&t, &c);
        FN(mul_var)(&t, &t, k, len);
        if (!FN(jac_is_inf)(&t))
            break;
    }
    for (int i = 0; i < 8; i++) { /* the l-part of h is at most l^2 here */
        FN(mul_var)(&next, &t, &lk, 1);
        if (FN(jac_is_inf)(&next))
            break;
        t = next;
    }
    TN(to_aff)(r, &t);
    mpz_clear(m);
}
#endif

/* The group order: [h r]C = inf for points C of the whole curve (which
 * also checks that the twist is the right one of the sextic twists). */
static void TN(test_order)(sp_rng *rng)
{
    mpz_t n;
    uint64_t k[16];
    mpz_init(n);
    mpz_mul(n, COFACTOR, RMOD);
    size_t len = mpz_to_limbs(k, 16, n);
    for (int i = 0; i < 3; i++) {
        AFF c;
        JAC t;
        TN(random_curve)(&c, rng);
        FN(jac_from_affine)(&t, &c);
        FN(mul_var)(&t, &t, k, len);
        CHECK(FN(jac_is_inf)(&t));
    }
    mpz_clear(n);
}

/* Generator, basic predicates, equality across representations. */
static void TN(test_basics)(sp_rng *rng)
{
    AFF g, inf, p, q;
    JAC a, b;
    FN(generator)(&g);
    FN(affine_set_inf)(&inf);
    CHECK(FN(affine_is_on_curve)(&g));
    CHECK(FN(in_subgroup)(&g) && FN(in_subgroup_slow)(&g));
    CHECK(FN(affine_is_inf)(&inf) && FN(affine_is_on_curve)(&inf));
    CHECK(!FN(affine_is_inf)(&g));
    q = g;
    FEF(add)(&q.y, &q.y, &q.x); /* almost surely off the curve */
    CHECK(!FN(affine_is_on_curve)(&q));
    for (int i = 0; i < 10; i++) {
        TN(random_curve)(&p, rng);
        CHECK(FN(affine_is_on_curve)(&p));
        TN(rand_jac)(&a, &p, rng);
        TN(rand_jac)(&b, &p, rng);
        CHECK(FN(jac_eq)(&a, &b));
        TN(rand_jac)(&b, &g, rng);
        CHECK(!FN(jac_eq)(&a, &b));
        FN(jac_neg)(&b, &a);
        CHECK(!FN(jac_eq)(&a, &b));
        TN(rand_jac)(&b, &inf, rng);
        CHECK(!FN(jac_eq)(&a, &b) && !FN(jac_eq)(&b, &a));
        TN(rand_jac)(&a, &inf, rng);
        CHECK(FN(jac_eq)(&a, &b) && FN(jac_is_inf)(&a));
        TN(rand_jac)(&a, &p, rng);
        TN(to_aff)(&q, &a);
        CHECK(FN(affine_eq)(&q, &p));
        FN(jac_from_affine)(&a, &p);
        TN(to_aff)(&q, &a);
        CHECK(FN(affine_eq)(&q, &p));
    }
    FN(jac_set_inf)(&a);
    TN(to_aff)(&q, &a);
    CHECK(FN(affine_is_inf)(&q));
    FN(jac_from_affine)(&a, &inf);
    CHECK(FN(jac_is_inf)(&a));
}

/* Every addition flavour on p + q against the reference. */
static void TN(check_add)(const AFF *p, const AFF *q, sp_rng *rng)
{
    AFF want, got;
    JAC pj, qj, rj;
    XYZZ px, qx, rx;
    TN(ref_add)(&want, p, q);
    TN(rand_jac)(&pj, p, rng);
    TN(rand_jac)(&qj, q, rng);
    TN(rand_xyzz)(&px, p, rng);
    TN(rand_xyzz)(&qx, q, rng);
    FN(jac_add_var)(&rj, &pj, &qj);
    TN(to_aff)(&got, &rj);
    CHECK(FN(affine_eq)(&got, &want));
    FN(jac_add)(&rj, &pj, &qj);
    TN(to_aff)(&got, &rj);
    CHECK(FN(affine_eq)(&got, &want));
    FN(jac_add_affine_var)(&rj, &pj, q);
    TN(to_aff)(&got, &rj);
    CHECK(FN(affine_eq)(&got, &want));
    FN(xyzz_add_var)(&rx, &px, &qx);
    FN(xyzz_to_affine)(&got, &rx);
    CHECK(FN(affine_eq)(&got, &want));
    FN(xyzz_to_jac)(&rj, &rx);
    TN(to_aff)(&got, &rj);
    CHECK(FN(affine_eq)(&got, &want));
    FN(xyzz_add_affine_var)(&rx, &px, q);
    FN(xyzz_to_affine)(&got, &rx);
    CHECK(FN(affine_eq)(&got, &want));
    /* In place (r aliases p). */
    FN(jac_add_affine_var)(&pj, &pj, q);
    TN(to_aff)(&got, &pj);
    CHECK(FN(affine_eq)(&got, &want));
    FN(xyzz_add_affine_var)(&px, &px, q);
    FN(xyzz_to_affine)(&got, &px);
    CHECK(FN(affine_eq)(&got, &want));
}

static void TN(check_dbl)(const AFF *p, sp_rng *rng)
{
    AFF want, got;
    JAC pj;
    XYZZ px;
    TN(ref_add)(&want, p, p);
    TN(rand_jac)(&pj, p, rng);
    TN(rand_xyzz)(&px, p, rng);
    FN(jac_dbl)(&pj, &pj);
    TN(to_aff)(&got, &pj);
    CHECK(FN(affine_eq)(&got, &want));
    FN(xyzz_dbl)(&px, &px);
    FN(xyzz_to_affine)(&got, &px);
    CHECK(FN(affine_eq)(&got, &want));
}

static void TN(test_group_law)(sp_rng *rng, const AFF *small)
{
    for (int it = 0; it < sp_test_iters(12); it++) {
        AFF p, q, s, np, t1, t2, t3;
        TN(random_any)(&p, rng, small);
        TN(random_any)(&q, rng, small);
        TN(random_any)(&s, rng, small);
        FN(affine_neg)(&np, &p);
        CHECK(FN(affine_is_on_curve)(&np));
        /* Generic sums and every special case: inf, P + P, P + (-P). */
        TN(check_add)(&p, &q, rng);
        TN(check_add)(&p, &p, rng);
        TN(check_add)(&p, &np, rng);
        TN(check_add)(&np, &p, rng);
        FN(affine_set_inf)(&t1);
        TN(check_add)(&p, &t1, rng);
        TN(check_add)(&t1, &p, rng);
        TN(check_add)(&t1, &t1, rng);
        TN(check_dbl)(&p, rng);
        TN(check_dbl)(&t1, rng);
        /* Laws on the reference itself and the Jacobian path. */
        TN(ref_add)(&t1, &p, &np);
        CHECK(FN(affine_is_inf)(&t1));
        TN(ref_add)(&t1, &p, &q);
        TN(ref_add)(&t2, &q, &p);
        CHECK(FN(affine_eq)(&t1, &t2) && FN(affine_is_on_curve)(&t1));
        JAC pj, qj, sj, a, b;
        TN(rand_jac)(&pj, &p, rng);
        TN(rand_jac)(&qj, &q, rng);
        TN(rand_jac)(&sj, &s, rng);
        FN(jac_add_var)(&a, &pj, &qj); /* (p + q) + s */
        FN(jac_add_var)(&a, &a, &sj);
        FN(jac_add)(&b, &qj, &sj);     /* p + (q + s) */
        FN(jac_add)(&b, &pj, &b);
        CHECK(FN(jac_eq)(&a, &b));
        TN(ref_add)(&t2, &t1, &s);
        TN(to_aff)(&t3, &a);
        CHECK(FN(affine_eq)(&t2, &t3));
    }
}

static void TN(test_batch)(sp_rng *rng, const AFF *small)
{
    enum { N = 9 };
    AFF pts[N], out[N], one;
    JAC j[N];
    XYZZ x[N];
    for (int i = 0; i < N; i++) {
        TN(random_any)(&pts[i], rng, small);
        if (i == 0 || i == 4 || i == N - 1)
            FN(affine_set_inf)(&pts[i]);
        TN(rand_jac)(&j[i], &pts[i], rng);
        TN(rand_xyzz)(&x[i], &pts[i], rng);
    }
    FN(batch_to_affine)(out, j, N);
    for (int i = 0; i < N; i++) {
        TN(to_aff)(&one, &j[i]);
        CHECK(FN(affine_eq)(&out[i], &one) && FN(affine_eq)(&out[i], &pts[i]));
    }
    FN(xyzz_batch_to_affine)(out, x, N);
    for (int i = 0; i < N; i++) {
        FN(xyzz_to_affine)(&one, &x[i]);
        CHECK(FN(affine_eq)(&out[i], &one) && FN(affine_eq)(&out[i], &pts[i]));
    }
    FN(batch_to_affine)(out, j, 1);
    CHECK(FN(affine_eq)(&out[0], &pts[0]));
    FN(batch_to_affine)(out, j, 0); /* no-op */
}

/* mul_var, mul (constant time) and the reference agree on [k]p. */
static void TN(check_mul)(const AFF *p, const sp_fr *k, sp_rng *rng)
{
    uint64_t l[SP_FR_LIMBS];
    AFF want, got;
    JAC pj, r;
    sp_fr_to_canonical(l, k);
    TN(ref_mul)(&want, p, l, SP_FR_LIMBS);
    TN(rand_jac)(&pj, p, rng);
    FN(mul_var)(&r, &pj, l, SP_FR_LIMBS);
    TN(to_aff)(&got, &r);
    CHECK(FN(affine_eq)(&got, &want));
    FN(mul)(&r, &pj, k);
    TN(to_aff)(&got, &r);
    CHECK(FN(affine_eq)(&got, &want));
}

static void TN(test_mul)(sp_rng *rng, const AFF *small, unsigned long order)
{
    AFF g, p, got, want;
    JAC gj, a, b;
    sp_fr k, k2, kk;
    uint64_t l[SP_FR_LIMBS], l2[SP_FR_LIMBS];
    FN(generator)(&g);
    FN(jac_from_affine)(&gj, &g);
    for (int it = 0; it < sp_test_iters(4); it++) {
        TN(random_any)(&p, rng, small);
        sp_fr_random(&k, rng);
        TN(check_mul)(&p, &k, rng);
    }
    /* Edge scalars: 0, 1, 2, 15, 16, 17, r - 1 (also r, r + 1 via mul_var). */
    static const uint64_t edges[] = {0, 1, 2, 15, 16, 17};
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
        sp_fr_set_u64(&k, edges[i]);
        TN(check_mul)(&g, &k, rng);
        TN(check_mul)(small, &k, rng);
    }
    sp_fr_set_one(&k);
    sp_fr_neg(&k, &k);
    TN(check_mul)(&g, &k, rng);
    FN(mul)(&a, &gj, &k);
    TN(to_aff)(&got, &a);
    FN(affine_neg)(&want, &g);
    CHECK(FN(affine_eq)(&got, &want));
    FN(mul_var)(&a, &gj, SP_FR_MODULUS, SP_FR_LIMBS);
    CHECK(FN(jac_is_inf)(&a));
    memcpy(l, SP_FR_MODULUS, sizeof l);
    l[0] += 1;
    FN(mul_var)(&a, &gj, l, SP_FR_LIMBS);
    CHECK(FN(jac_eq)(&a, &gj));
#if !COFACTOR_ONE
    /* Small order: [order]S = inf, and every k below 2 order + 2. */
    uint64_t o = order;
    JAC sj;
    FN(jac_from_affine)(&sj, small);
    FN(mul_var)(&a, &sj, &o, 1);
    CHECK(FN(jac_is_inf)(&a) && !FN(affine_is_inf)(small));
    for (uint64_t i = 0; i < 2 * order + 2 && i < 40; i++) {
        sp_fr_set_u64(&k, i);
        TN(check_mul)(small, &k, rng);
    }
#endif
    /* [a]([b]G) = [ab]G. */
    for (int it = 0; it < sp_test_iters(3); it++) {
        sp_fr_random(&k, rng);
        sp_fr_random(&k2, rng);
        sp_fr_mul(&kk, &k, &k2);
        sp_fr_to_canonical(l, &k);
        sp_fr_to_canonical(l2, &k2);
        FN(mul_var)(&a, &gj, l2, SP_FR_LIMBS);
        FN(mul)(&a, &a, &k);
        FN(mul)(&b, &gj, &kk);
        CHECK(FN(jac_eq)(&a, &b));
        FN(mul_var)(&a, &gj, l, SP_FR_LIMBS);
        FN(mul_var)(&a, &a, l2, SP_FR_LIMBS);
        CHECK(FN(jac_eq)(&a, &b));
    }
    /* Scalars longer than one wNAF chunk, on a point outside the subgroup. */
    uint64_t lk[11];
    for (int i = 0; i < 11; i++)
        lk[i] = sp_rng_u64(rng);
    TN(random_curve)(&p, rng);
    TN(ref_mul)(&want, &p, lk, 11);
    FN(jac_from_affine)(&a, &p);
    FN(mul_var)(&a, &a, lk, 11);
    TN(to_aff)(&got, &a);
    CHECK(FN(affine_eq)(&got, &want));
    FN(mul_var)(&a, &gj, lk, 0);
    CHECK(FN(jac_is_inf)(&a));
    /* Runs of ones: the negative wNAF digits carry across limbs. */
    static const uint64_t ones[][3] = {{~0ULL, ~0ULL, ~0ULL}, {~0ULL, 0, ~0ULL}, {~0ULL, ~0ULL, 1}};
    for (int i = 0; i < 3; i++) {
        TN(ref_mul)(&want, &g, ones[i], 3);
        FN(mul_var)(&a, &gj, ones[i], 3);
        TN(to_aff)(&got, &a);
        CHECK(FN(affine_eq)(&got, &want));
    }
}

#if COFACTOR_ONE
/* Cofactor 1: every point of the curve is in the group. */
static void TN(test_subgroup)(sp_rng *rng, const AFF *small)
{
    AFF p, q;
    for (int it = 0; it < sp_test_iters(6); it++) {
        TN(random_curve)(&p, rng);
        CHECK(FN(in_subgroup)(&p) == 1 && FN(in_subgroup_slow)(&p) == 1);
        TN(random_sub)(&q, rng);
        TN(ref_add)(&q, &q, &p);
        CHECK(FN(in_subgroup)(&q) == 1 && FN(in_subgroup_slow)(&q) == 1);
    }
    CHECK(FN(in_subgroup)(small) == 1);
    FN(affine_set_inf)(&p);
    CHECK(FN(in_subgroup)(&p) == 1 && FN(in_subgroup_slow)(&p) == 1);
}
#else
static void TN(test_subgroup)(sp_rng *rng, const AFF *small)
{
    AFF p, q;
    int outside = 0;
    for (int it = 0; it < sp_test_iters(6); it++) {
        TN(random_sub)(&p, rng);
        CHECK(FN(in_subgroup)(&p) == 1 && FN(in_subgroup_slow)(&p) == 1);
        TN(random_curve)(&p, rng);
        int fast = FN(in_subgroup)(&p), slow = FN(in_subgroup_slow)(&p);
        CHECKF(fast == slow, "fast %d slow %d", fast, slow);
        outside += !slow;
        TN(random_sub)(&q, rng); /* subgroup point plus a small-order one */
        TN(ref_add)(&q, &q, small);
        CHECK(FN(in_subgroup)(&q) == 0 && FN(in_subgroup_slow)(&q) == 0);
    }
    CHECK(outside > 0); /* the whole-curve points do exercise the "no" case */
    CHECK(FN(in_subgroup)(small) == 0 && FN(in_subgroup_slow)(small) == 0);
    FN(affine_set_inf)(&p);
    CHECK(FN(in_subgroup)(&p) == 1 && FN(in_subgroup_slow)(&p) == 1);
}
#endif

static void TN(test_group)(sp_rng *rng)
{
    AFF small;
    unsigned long order;
#if COFACTOR_ONE
    /* No point of small order exists: a random curve point (in the group)
     * stands in where the tests mix one in. */
    TN(random_curve)(&small, rng);
    order = 0;
#else
    TN(small_order_point)(&small, &order, rng);
#endif
    CHECK(FN(affine_is_on_curve)(&small));
    TN(test_order)(rng);
    TN(test_basics)(rng);
    TN(test_group_law)(rng, &small);
    TN(test_batch)(rng, &small);
    TN(test_mul)(rng, &small, order);
    TN(test_subgroup)(rng, &small);
}

#undef TN
#endif
