/* Optimal ate pairing on BLS12-381 (see pairing.h). */
#include "pairing/pairing.h"

/* |x| for the BLS parameter x = -0xd201000000010000 (the same value as
 * SP_BLS_Z in curve.h); the loop walks bits 62..0 below the top one. */
#define BLS_X_ABS 0xd201000000010000ULL
#define LOOP_TOP_BIT 62
/* Pairs whose T points the unprepared multi Miller loop keeps on the stack. */
#define MILLER_CHUNK 8

/* Homogeneous projective point on the twist: x = X/Z, y = Y/Z. */
typedef struct { sp_fp2 x, y, z; } g2_proj;

static int loop_bit(int i) { return (int)((BLS_X_ABS >> i) & 1); }

static int g1_is_inf(const sp_g1_affine *p) { return sp_fp_is_zero(&p->x) & sp_fp_is_zero(&p->y); }
static int g2_is_inf(const sp_g2_affine *q) { return sp_fp2_is_zero(&q->x) & sp_fp2_is_zero(&q->y); }

/*
 * T = 2T and the tangent line at T (Costello-Lange-Naehrig 2010, scaled to
 * avoid halvings: every output coordinate carries an extra factor 4).
 * With B = Y^2, C = Z^2, E = 3 b' C (b' = 4 xi), F = 3E, H = 2YZ:
 *   X' = 2XY (B - F), Y' = (B + F)^2 - 12 E^2, Z' = 4 B H,
 *   line = (E - B) + (3 X^2 xP) v + (-H yP) vw.
 * The line is the tangent times factors in Fp2 and w^3, which the final
 * exponentiation removes.
 */
static void dbl_step(sp_fp2 ell[3], g2_proj *t)
{
    sp_fp2 a, b, c, e, f, h, s;
    sp_fp2_mul(&a, &t->x, &t->y);
    sp_fp2_sqr(&b, &t->y);
    sp_fp2_sqr(&c, &t->z);
    sp_fp2_mul_by_nonresidue(&e, &c); /* e = 12 xi c */
    sp_fp2_dbl(&e, &e);
    sp_fp2_dbl(&e, &e);
    sp_fp2_add(&s, &e, &e);
    sp_fp2_add(&e, &s, &e);
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
 *   line = (theta xQ - lambda yQ) + (-theta xP) v + (lambda yP) vw.
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

/* f = f * line(P) */
static void mul_line(sp_fp12 *f, const sp_fp2 ell[3], const sp_g1_affine *p)
{
    sp_fp2 l1, l2;
    sp_fp2_mul_fp(&l1, &ell[1], &p->x);
    sp_fp2_mul_fp(&l2, &ell[2], &p->y);
    sp_fp12_mul_by_014(f, f, &ell[0], &l1, &l2);
}

static void proj_from_affine(g2_proj *t, const sp_g2_affine *q)
{
    t->x = q->x;
    t->y = q->y;
    sp_fp2_set_one(&t->z);
}

void sp_g2_prepare(sp_g2_prepared *r, const sp_g2_affine *q)
{
    g2_proj t;
    int k = 0;
    r->is_inf = g2_is_inf(q);
    if (r->is_inf)
        return;
    proj_from_affine(&t, q);
    for (int i = LOOP_TOP_BIT; i >= 0; i--) {
        dbl_step(r->ell[k++], &t);
        if (loop_bit(i))
            add_step(r->ell[k++], &t, q);
    }
}

/* Miller loop over at most MILLER_CHUNK pairs, T points on the stack. */
static void miller_chunk(sp_fp12 *r, const sp_g1_affine *p, const sp_g2_affine *q, size_t n)
{
    g2_proj t[MILLER_CHUNK];
    size_t idx[MILLER_CHUNK], m = 0;
    sp_fp2 ell[3];
    for (size_t j = 0; j < n; j++)
        if (!g1_is_inf(&p[j]) && !g2_is_inf(&q[j])) {
            idx[m] = j;
            proj_from_affine(&t[m++], &q[j]);
        }
    sp_fp12_set_one(r);
    for (int i = LOOP_TOP_BIT; i >= 0; i--) {
        if (i != LOOP_TOP_BIT) /* f = 1 before the first step */
            sp_fp12_sqr(r, r);
        for (size_t j = 0; j < m; j++) {
            dbl_step(ell, &t[j]);
            mul_line(r, ell, &p[idx[j]]);
            if (loop_bit(i)) {
                add_step(ell, &t[j], &q[idx[j]]);
                mul_line(r, ell, &p[idx[j]]);
            }
        }
    }
    sp_fp12_conj(r, r); /* x < 0: f_{x,Q} = 1 / f_{|x|,Q} up to factors the final exp removes */
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
    for (int i = LOOP_TOP_BIT; i >= 0; i--) {
        if (i != LOOP_TOP_BIT)
            sp_fp12_sqr(&f, &f);
        int steps = 1 + loop_bit(i);
        for (size_t j = 0; j < n; j++) {
            if (q[j].is_inf || g1_is_inf(&p[j]))
                continue;
            for (int s = 0; s < steps; s++)
                mul_line(&f, q[j].ell[k + s], &p[j]);
        }
        k += steps;
    }
    sp_fp12_conj(r, &f);
}

/* r = a^x for a in the cyclotomic subgroup (x < 0: the conjugate of a^|x|). */
static void cyclotomic_exp_by_x(sp_fp12 *r, const sp_fp12 *a)
{
    sp_fp12 acc = *a;
    for (int i = LOOP_TOP_BIT; i >= 0; i--) {
        sp_fp12_cyclotomic_sqr(&acc, &acc);
        if (loop_bit(i))
            sp_fp12_mul(&acc, &acc, a);
    }
    sp_fp12_conj(r, &acc);
}

void sp_final_exp(sp_fp12 *r, const sp_fp12 *f)
{
    sp_fp12 m, t, y0, y1, y2, y3;
    /* easy part: m = f^((p^6 - 1)(p^2 + 1)), now in the cyclotomic subgroup */
    sp_fp12_inv(&t, f);
    sp_fp12_conj(&m, f);
    sp_fp12_mul(&m, &m, &t);
    sp_fp12_frobenius(&t, &m, 2);
    sp_fp12_mul(&m, &m, &t);

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
