/*
 * Optimal ate pairing of the build's curve (see pairing.h). The Miller
 * loop, its line functions and the API are shared; what differs per curve
 * is in the two blocks marked BLS12-381 and BN254: the loop's digits, the
 * twist (where a line's coefficients go in Fp12), the steps after the loop
 * and the hard part of the final exponentiation.
 */
#include "pairing/pairing.h"

/* Pairs whose T points the unprepared multi Miller loop keeps on the stack. */
#define MILLER_CHUNK 8

/* Homogeneous projective point on the twist: x = X/Z, y = Y/Z. */
typedef struct { sp_fp2 x, y, z; } g2_proj;

static int g1_is_inf(const sp_g1_affine *p) { return sp_fp_is_zero(&p->x) & sp_fp_is_zero(&p->y); }
static int g2_is_inf(const sp_g2_affine *q) { return sp_fp2_is_zero(&q->x) & sp_fp2_is_zero(&q->y); }

#if SP_CURVE_BN254
/* ---- BN254 ------------------------------------------------------------------
 * Loop over 6x + 2 = 29793968203157093288 (x = 4965661367192848881 > 0) in
 * non-adjacent form, least significant digit first; the top digit (2^65) is
 * 1 and starts the loop (tools/gen_frobenius.py bn254 prints the digits):
 * 65 doublings and 21 additions, then the two steps with psi(Q) and
 * -psi^2(Q). D-type twist y^2 = x^3 + b/xi. */
#define LOOP_STEPS 65
static const int8_t ATE_NAF[LOOP_STEPS + 1] = {
    0, 0, 0, 1, 0, 1, 0, -1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, -1, 0, 0, 0, 1, 0, -1, 0, 0, 0, 0, -1, 0, 0,
    1, 0, -1, 0, 0, 1, 0, 0, 0, 0, 0, -1, 0, 0, -1, 0, 1, 0, -1, 0, 0, 0, -1, 0, -1, 0, 0, 0, 1, 0, -1, 0, 1};
static int loop_digit(int i) { return ATE_NAF[i]; }

/* 3 b' = 9 / (9 + u), Montgomery form (tools/gen_frobenius.py bn254). */
static const sp_fp2 THREE_B_TWIST = {
    {{0x3baa927cb62e0d6aULL, 0xd71e7c52d1b664fdULL, 0x03873e63d95d4664ULL, 0x0e75b5b1082ab8f4ULL}},
    {{0xaab7c6667596fe35ULL, 0x31d21a78bb6a27baULL, 0x85dd7297680401ffULL, 0x03c52d6adf39a7e9ULL}}};

static void three_b_times(sp_fp2 *r, const sp_fp2 *c) { sp_fp2_mul(r, c, &THREE_B_TWIST); }

/* f = f * line(P): on the D-type twist the line is (ell2 yP) + (ell1 xP) w
 * + ell0 v w (positions 0, 3, 4). */
static void mul_line(sp_fp12 *f, const sp_fp2 ell[3], const sp_g1_affine *p)
{
    sp_fp2 l1, l2;
    sp_fp2_mul_fp(&l1, &ell[1], &p->x);
    sp_fp2_mul_fp(&l2, &ell[2], &p->y);
    sp_fp12_mul_by_034(f, f, &l2, &l1, &ell[0]);
}
#else
/* ---- BLS12-381 --------------------------------------------------------------
 * Loop over the bits of |x|, x = -0xd201000000010000 (SP_BLS_Z in
 * curve.h), 62..0 below the top one: 63 doublings and 5 additions, then a
 * conjugation for x < 0. M-type twist y^2 = x^3 + 4 xi. */
#define LOOP_STEPS 63
static int loop_digit(int i) { return (int)((SP_BLS_Z >> i) & 1); }

/* c * 3 b' = c * 12 xi */
static void three_b_times(sp_fp2 *r, const sp_fp2 *c)
{
    sp_fp2 s;
    sp_fp2_mul_by_nonresidue(r, c);
    sp_fp2_dbl(r, r);
    sp_fp2_dbl(r, r);
    sp_fp2_add(&s, r, r);
    sp_fp2_add(r, &s, r);
}

/* f = f * line(P): on the M-type twist the line is ell0 + (ell1 xP) v +
 * (ell2 yP) v w (positions 0, 1, 4). */
static void mul_line(sp_fp12 *f, const sp_fp2 ell[3], const sp_g1_affine *p)
{
    sp_fp2 l1, l2;
    sp_fp2_mul_fp(&l1, &ell[1], &p->x);
    sp_fp2_mul_fp(&l2, &ell[2], &p->y);
    sp_fp12_mul_by_014(f, f, &ell[0], &l1, &l2);
}
#endif

/*
 * T = 2T and the tangent line at T (Costello-Lange-Naehrig 2010, scaled to
 * avoid halvings: every output coordinate carries an extra factor 4).
 * With B = Y^2, C = Z^2, E = 3 b' C (b' the twist's b), F = 3E, H = 2YZ:
 *   X' = 2XY (B - F), Y' = (B + F)^2 - 12 E^2, Z' = 4 B H,
 *   ell = (E - B, 3 X^2, -H): the line is ell0 + ell1 xP + ell2 yP times
 *   powers of w that depend on the twist (mul_line).
 * The line is the tangent times factors in Fp2 and powers of w, which the
 * final exponentiation removes.
 */
static void dbl_step(sp_fp2 ell[3], g2_proj *t)
{
    sp_fp2 a, b, c, e, f, h, s;
    sp_fp2_mul(&a, &t->x, &t->y);
    sp_fp2_sqr(&b, &t->y);
    sp_fp2_sqr(&c, &t->z);
    three_b_times(&e, &c);
    sp_fp2_add(&f, &e, &e); /* f = 3e */
    sp_fp2_add(&f, &f, &e);
    sp_fp2_add(&h, &t->y, &t->z);
    sp_fp2_sqr(&h, &h);
    sp_fp2_sub(&h, &h, &b);
    sp_fp2_sub(&h, &h, &c);

    sp_fp2_sub(&ell[0], &e, &b);
    sp_fp2_sqr(&s, &t->x);
    sp_fp2_add(&ell[1], &s, &s);
    sp_fp2_add(&ell[1], &ell[1], &s);
    sp_fp2_neg(&ell[2], &h);

    sp_fp2_sub(&s, &b, &f);
    sp_fp2_mul(&t->x, &a, &s);
    sp_fp2_dbl(&t->x, &t->x);
    sp_fp2_add(&s, &b, &f);
    sp_fp2_sqr(&s, &s);
    sp_fp2_sqr(&e, &e);
    sp_fp2_dbl(&e, &e);
    sp_fp2_dbl(&e, &e);
    sp_fp2_sub(&s, &s, &e);
    sp_fp2_dbl(&e, &e);
    sp_fp2_sub(&t->y, &s, &e); /* (B+F)^2 - 12 E^2 */
    sp_fp2_mul(&t->z, &b, &h);
    sp_fp2_dbl(&t->z, &t->z);
    sp_fp2_dbl(&t->z, &t->z);
}

/*
 * T = T + Q (Q affine) and the line through them. With
 * theta = Y - yQ Z, lambda = X - xQ Z (slope theta/lambda):
 *   C = theta^2, D = lambda^2, E = lambda D, F = Z C, G = X D,
 *   H = E + F - 2G, X' = lambda H, Y' = theta (G - H) - E Y, Z' = Z E,
 *   ell = (theta xQ - lambda yQ, -theta, lambda), placed as in dbl_step.
 */
static void add_step(sp_fp2 ell[3], g2_proj *t, const sp_g2_affine *q)
{
    sp_fp2 theta, lambda, c, d, e, f, g, h, s;
    sp_fp2_mul(&s, &q->y, &t->z);
    sp_fp2_sub(&theta, &t->y, &s);
    sp_fp2_mul(&s, &q->x, &t->z);
    sp_fp2_sub(&lambda, &t->x, &s);
    sp_fp2_sqr(&c, &theta);
    sp_fp2_sqr(&d, &lambda);
    sp_fp2_mul(&e, &lambda, &d);
    sp_fp2_mul(&f, &t->z, &c);
    sp_fp2_mul(&g, &t->x, &d);
    sp_fp2_add(&h, &e, &f);
    sp_fp2_sub(&h, &h, &g);
    sp_fp2_sub(&h, &h, &g);

    sp_fp2_mul(&t->x, &lambda, &h);
    sp_fp2_sub(&s, &g, &h);
    sp_fp2_mul(&s, &s, &theta);
    sp_fp2_mul(&t->y, &e, &t->y);
    sp_fp2_sub(&t->y, &s, &t->y);
    sp_fp2_mul(&t->z, &t->z, &e);

    sp_fp2_mul(&ell[0], &theta, &q->x);
    sp_fp2_mul(&s, &lambda, &q->y);
    sp_fp2_sub(&ell[0], &ell[0], &s);
    sp_fp2_neg(&ell[1], &theta);
    ell[2] = lambda;
}

static void proj_from_affine(g2_proj *t, const sp_g2_affine *q)
{
    t->x = q->x;
    t->y = q->y;
    sp_fp2_set_one(&t->z);
}

/* The point added for a loop digit d = +1 or -1: Q or -Q. */
static void digit_point(sp_g2_affine *r, const sp_g2_affine *q, int d)
{
    *r = *q;
    if (d < 0)
        sp_fp2_neg(&r->y, &r->y);
}

#if SP_CURVE_BN254
/* The points of the two steps after the loop: psi(Q) and -psi^2(Q). */
static void final_points(sp_g2_affine r[2], const sp_g2_affine *q)
{
    sp_g2_psi(&r[0], q);
    sp_g2_psi(&r[1], &r[0]);
    sp_fp2_neg(&r[1].y, &r[1].y);
}
#endif

void sp_g2_prepare(sp_g2_prepared *r, const sp_g2_affine *q)
{
    g2_proj t;
    sp_g2_affine qd;
    int k = 0;
    r->is_inf = g2_is_inf(q);
    if (r->is_inf)
        return;
    proj_from_affine(&t, q);
    for (int i = LOOP_STEPS - 1; i >= 0; i--) {
        dbl_step(r->ell[k++], &t);
        if (loop_digit(i)) {
            digit_point(&qd, q, loop_digit(i));
            add_step(r->ell[k++], &t, &qd);
        }
    }
#if SP_CURVE_BN254
    sp_g2_affine fq[2];
    final_points(fq, q);
    add_step(r->ell[k++], &t, &fq[0]);
    add_step(r->ell[k++], &t, &fq[1]);
#endif
}

/* Miller loop over at most MILLER_CHUNK pairs, T points on the stack. */
static void miller_chunk(sp_fp12 *r, const sp_g1_affine *p, const sp_g2_affine *q, size_t n)
{
    g2_proj t[MILLER_CHUNK];
    size_t idx[MILLER_CHUNK], m = 0;
    sp_fp2 ell[3];
    sp_g2_affine qd;
    for (size_t j = 0; j < n; j++)
        if (!g1_is_inf(&p[j]) && !g2_is_inf(&q[j])) {
            idx[m] = j;
            proj_from_affine(&t[m++], &q[j]);
        }
    sp_fp12_set_one(r);
    for (int i = LOOP_STEPS - 1; i >= 0; i--) {
        if (i != LOOP_STEPS - 1) /* f = 1 before the first step */
            sp_fp12_sqr(r, r);
        int d = loop_digit(i);
        for (size_t j = 0; j < m; j++) {
            dbl_step(ell, &t[j]);
            mul_line(r, ell, &p[idx[j]]);
            if (d) {
                digit_point(&qd, &q[idx[j]], d);
                add_step(ell, &t[j], &qd);
                mul_line(r, ell, &p[idx[j]]);
            }
        }
    }
#if SP_CURVE_BN254
    for (size_t j = 0; j < m; j++) {
        sp_g2_affine fq[2];
        final_points(fq, &q[idx[j]]);
        for (int s = 0; s < 2; s++) {
            add_step(ell, &t[j], &fq[s]);
            mul_line(r, ell, &p[idx[j]]);
        }
    }
#else
    sp_fp12_conj(r, r); /* x < 0: f_{x,Q} = 1 / f_{|x|,Q} up to factors the final exp removes */
#endif
}

void sp_multi_miller_loop(sp_fp12 *r, const sp_g1_affine *p, const sp_g2_affine *q, size_t n)
{
    sp_fp12 acc, f;
    sp_fp12_set_one(&acc);
    for (size_t j = 0; j < n; j += MILLER_CHUNK) {
        size_t len = n - j < MILLER_CHUNK ? n - j : MILLER_CHUNK;
        miller_chunk(&f, p + j, q + j, len);
        sp_fp12_mul(&acc, &acc, &f);
    }
    *r = acc;
}

void sp_miller_loop(sp_fp12 *r, const sp_g1_affine *p, const sp_g2_affine *q)
{
    miller_chunk(r, p, q, 1);
}

void sp_multi_miller_loop_prepared(sp_fp12 *r, const sp_g1_affine *p, const sp_g2_prepared *q,
                                   size_t n)
{
    sp_fp12 f;
    int k = 0;
    sp_fp12_set_one(&f);
    for (int i = LOOP_STEPS - 1; i >= 0; i--) {
        if (i != LOOP_STEPS - 1)
            sp_fp12_sqr(&f, &f);
        int steps = 1 + (loop_digit(i) != 0);
        for (size_t j = 0; j < n; j++) {
            if (q[j].is_inf || g1_is_inf(&p[j]))
                continue;
            for (int s = 0; s < steps; s++)
                mul_line(&f, q[j].ell[k + s], &p[j]);
        }
        k += steps;
    }
#if SP_CURVE_BN254
    for (size_t j = 0; j < n; j++)
        if (!q[j].is_inf && !g1_is_inf(&p[j]))
            for (int s = 0; s < 2; s++)
                mul_line(&f, q[j].ell[k + s], &p[j]);
    *r = f;
#else
    sp_fp12_conj(r, &f);
#endif
}

/* m = f^((p^6 - 1)(p^2 + 1)), the easy part: afterwards m is in the
 * cyclotomic subgroup, where conjugation is the inverse. */
static void final_exp_easy(sp_fp12 *m, const sp_fp12 *f)
{
    sp_fp12 t;
    sp_fp12_inv(&t, f);
    sp_fp12_conj(m, f);
    sp_fp12_mul(m, m, &t);
    sp_fp12_frobenius(&t, m, 2);
    sp_fp12_mul(m, m, &t);
}

#if SP_CURVE_BN254
/* r = a^x for a in the cyclotomic subgroup (x > 0, top bit 62). */
static void cyclotomic_exp_by_x(sp_fp12 *r, const sp_fp12 *a)
{
    sp_fp12 acc = *a;
    for (int i = 61; i >= 0; i--) {
        sp_fp12_cyclotomic_sqr(&acc, &acc);
        if ((SP_BN_X >> i) & 1)
            sp_fp12_mul(&acc, &acc, a);
    }
    *r = acc;
}

void sp_final_exp(sp_fp12 *r, const sp_fp12 *f)
{
    /* hard part: m^lambda with lambda = 2x (6x^2 + 3x + 1) Phi_12(p) / r
     * = l0 + l1 p + l2 p^2 + l3 p^3 (Fuentes-Castaneda, Knapp and
     * Rodriguez-Henriquez, "Faster hashing to G2", 2011), where
     *   l0 = 12x^3 + 12x^2 + 6x + 1, l1 = 12x^3 + 6x^2 + 4x,
     *   l2 = 12x^3 + 6x^2 + 6x,      l3 = 12x^3 + 6x^2 + 4x - 1.
     * gcd(2x (6x^2 + 3x + 1), r) = 1, so this is a bijective power of the
     * reduced pairing: every equation between pairings is unchanged. */
    sp_fp12 m, a, a2, a6, b, c, A, B, t;
    final_exp_easy(&m, f);
    cyclotomic_exp_by_x(&a, &m);       /* m^x */
    sp_fp12_cyclotomic_sqr(&a2, &a);   /* m^2x */
    sp_fp12_cyclotomic_sqr(&a6, &a2);
    sp_fp12_mul(&a6, &a6, &a2);        /* m^6x */
    cyclotomic_exp_by_x(&b, &a6);      /* m^6x^2 */
    sp_fp12_cyclotomic_sqr(&c, &b);
    cyclotomic_exp_by_x(&c, &c);       /* m^12x^3 */
    sp_fp12_mul(&A, &c, &b);
    sp_fp12_mul(&A, &A, &a6);          /* A = m^l2 */
    sp_fp12_conj(&t, &a2);
    sp_fp12_mul(&B, &A, &t);           /* B = m^l1 */
    sp_fp12_mul(&t, &A, &b);
    sp_fp12_mul(&t, &t, &m);           /* m^l0 */
    sp_fp12_frobenius(&a, &B, 1);
    sp_fp12_mul(&t, &t, &a);
    sp_fp12_frobenius(&a, &A, 2);
    sp_fp12_mul(&t, &t, &a);
    sp_fp12_conj(&a, &m);
    sp_fp12_mul(&a, &a, &B);           /* m^l3 */
    sp_fp12_frobenius(&a, &a, 3);
    sp_fp12_mul(r, &t, &a);
}
#else
/* r = a^x for a in the cyclotomic subgroup (x < 0: the conjugate of a^|x|). */
static void cyclotomic_exp_by_x(sp_fp12 *r, const sp_fp12 *a)
{
    sp_fp12 acc = *a;
    for (int i = LOOP_STEPS - 1; i >= 0; i--) {
        sp_fp12_cyclotomic_sqr(&acc, &acc);
        if (loop_digit(i))
            sp_fp12_mul(&acc, &acc, a);
    }
    sp_fp12_conj(r, &acc);
}

void sp_final_exp(sp_fp12 *r, const sp_fp12 *f)
{
    sp_fp12 m, t, y0, y1, y2, y3;
    final_exp_easy(&m, f);

    /* hard part: m^((x-1)^2 (x+p) (x^2+p^2-1) + 3); conj is the inverse here */
    cyclotomic_exp_by_x(&y0, &m);
    sp_fp12_conj(&t, &m);
    sp_fp12_mul(&y0, &y0, &t); /* m^(x-1) */
    cyclotomic_exp_by_x(&y1, &y0);
    sp_fp12_conj(&t, &y0);
    sp_fp12_mul(&y1, &y1, &t); /* m^((x-1)^2) */
    cyclotomic_exp_by_x(&y2, &y1);
    sp_fp12_frobenius(&t, &y1, 1);
    sp_fp12_mul(&y2, &y2, &t); /* m^((x-1)^2 (x+p)) */
    cyclotomic_exp_by_x(&y3, &y2);
    cyclotomic_exp_by_x(&y3, &y3);
    sp_fp12_frobenius(&t, &y2, 2);
    sp_fp12_mul(&y3, &y3, &t);
    sp_fp12_conj(&t, &y2);
    sp_fp12_mul(&y3, &y3, &t); /* ... (x^2 + p^2 - 1) */
    sp_fp12_cyclotomic_sqr(&t, &m);
    sp_fp12_mul(&t, &t, &m);
    sp_fp12_mul(r, &y3, &t); /* ... + 3 */
}
#endif

void sp_pairing(sp_fp12 *r, const sp_g1_affine *p, const sp_g2_affine *q)
{
    sp_fp12 f;
    sp_miller_loop(&f, p, q);
    sp_final_exp(r, &f);
}

int sp_pairing_product_is_one(const sp_g1_affine *p, const sp_g2_affine *q, size_t n)
{
    sp_fp12 f;
    sp_multi_miller_loop(&f, p, q, n);
    sp_final_exp(&f, &f);
    return sp_fp12_is_one(&f);
}

int sp_pairing_product_is_one_prepared(const sp_g1_affine *p, const sp_g2_prepared *q, size_t n)
{
    sp_fp12 f;
    sp_multi_miller_loop_prepared(&f, p, q, n);
    sp_final_exp(&f, &f);
    return sp_fp12_is_one(&f);
}
