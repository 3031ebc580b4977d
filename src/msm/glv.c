/*
 * The GLV/GLS scalar split of the MSM (msm_internal.h): k = k1 + k2 lambda
 * mod r with |k1|, |k2| < 2^128, lambda the eigenvalue of the group's
 * cheap endomorphism (G1: phi(x, y) = (beta x, y), curve.h's sp_g1_endo;
 * G2: psi on BN254, psi^2 on BLS12-381). Gallant, Lambert, Vanstone,
 * "Faster point multiplication on elliptic curves with efficient
 * endomorphisms" (CRYPTO 2001), section 4: with a short basis v1 = (a1,
 * b1), v2 = (a2, b2) of {(a, b): a + b lambda = 0 mod r}, c1 = round(k b2
 * / det), c2 = round(-k b1 / det), k1 = k - c1 a1 - c2 a2, k2 = -c1 b1 -
 * c2 b2. Here c_i = round(k g_i / 2^256) with g_i = round(|b2 / det|
 * 2^256) (resp. |b1 / det|) and the quotient's sign: off from the exact
 * quotient by at most 1/2 + k / 2^257 < 3/4 (k < 2^255), so |k1| <= 3/4
 * (|a1| + |a2|) and |k2| <= 3/4 (|b1| + |b2|), below 2^128 for all four
 * bases (tools/gen_glv.py prints the constants and checks that bound).
 * Everything after the products is computed mod 2^192, which holds the
 * signed results exactly. Variable time (public data, as the MSM).
 */
#include <assert.h>
#include "msm/msm_internal.h"

typedef struct {
    uint64_t v[2];
    int neg;
} s128;

struct sp_msm_glv {
    uint64_t lambda[4]; /* the eigenvalue, for the tests */
    uint64_t g1[3], g2[3];
    int neg_g1, neg_g2; /* signs of b2 / det and -b1 / det */
    s128 a1, b1, a2, b2;
};

/* tools/gen_glv.py bn254 / bls12-381 */
#if SP_CURVE_BN254
static const sp_msm_glv glv_g1 = /* phi, lambda a cube root of unity mod r */
{{0xb8ca0b2d36636f23ULL, 0xcc37a73fec2bc5e9ULL, 0x048b6e193fd84104ULL, 0x30644e72e131a029ULL},
 {0x5398fd0300ff6565ULL, 0x4ccef014a773d2d2ULL, 0x0000000000000002ULL},
 {0xd91d232ec7e0b3d7ULL, 0x0000000000000002ULL, 0x0000000000000000ULL}, 0, 0,
 {{0x8211bbeb7d4f1128ULL, 0x6f4d8248eeb859fcULL}, 0},
 {{0x89d3256894d213e3ULL, 0x0000000000000000ULL}, 1},
 {{0x89d3256894d213e3ULL, 0x0000000000000000ULL}, 0},
 {{0x0be4e1541221250bULL, 0x6f4d8248eeb859fdULL}, 0},
};
static const sp_msm_glv glv_g2 = /* psi, lambda = p mod r = 6x^2 */
{{0xf83e9682e87cfd46ULL, 0x6f4d8248eeb859fbULL, 0x0000000000000000ULL, 0x0000000000000000ULL},
 {0x2cb62031c8e01942ULL, 0x4ccef014a773d2d5ULL, 0x0000000000000002ULL},
 {0x0000000000000005ULL, 0x0000000000000000ULL, 0x0000000000000000ULL}, 0, 0,
 {{0xf83e9682e87cfd46ULL, 0x6f4d8248eeb859fbULL}, 0},
 {{0x0000000000000001ULL, 0x0000000000000000ULL}, 1},
 {{0x9d797039be763ba7ULL, 0x0000000000000001ULL}, 0},
 {{0x95b806bca6f338efULL, 0x6f4d8248eeb859fdULL}, 0},
};
#else
static const sp_msm_glv glv_g1 = /* phi = sigma of g1.c, lambda = -z^2 mod r */
{{0xfffffffe00000001ULL, 0xa7780001fffcb7fcULL, 0x3339d80809a1d804ULL, 0x73eda753299d7d48ULL},
 {0x0000000000000002ULL, 0x0000000000000000ULL, 0x0000000000000000ULL},
 {0x63f6e522f6cfee2eULL, 0x7c6becf1e01faaddULL, 0x0000000000000001ULL}, 0, 0,
 {{0x0000000000000001ULL, 0x0000000000000000ULL}, 0},
 {{0x00000000ffffffffULL, 0xac45a4010001a402ULL}, 1},
 {{0x0000000100000000ULL, 0xac45a4010001a402ULL}, 0},
 {{0x0000000000000001ULL, 0x0000000000000000ULL}, 0},
};
static const sp_msm_glv glv_g2 = /* psi^2, lambda = p^2 mod r = z^2 */
{{0x0000000100000000ULL, 0xac45a4010001a402ULL, 0x0000000000000000ULL, 0x0000000000000000ULL},
 {0x0000000000000002ULL, 0x0000000000000000ULL, 0x0000000000000000ULL},
 {0x63f6e522f6cfee2eULL, 0x7c6becf1e01faaddULL, 0x0000000000000001ULL}, 0, 0,
 {{0x0000000000000001ULL, 0x0000000000000000ULL}, 0},
 {{0x00000000ffffffffULL, 0xac45a4010001a402ULL}, 0},
 {{0x0000000100000000ULL, 0xac45a4010001a402ULL}, 0},
 {{0x0000000000000001ULL, 0x0000000000000000ULL}, 1},
};
#endif

const sp_msm_glv *sp_msm_glv_of(int g) { return g == 2 ? &glv_g2 : &glv_g1; }

const uint64_t *sp_msm_glv_lambda(const sp_msm_glv *g) { return g->lambda; }

/* x = a b mod 2^192 (a, b < 2^128). */
static void mul2(uint64_t x[3], const uint64_t a[2], const uint64_t b[2])
{
    sp_msm_u128 p00 = (sp_msm_u128)a[0] * b[0], p01 = (sp_msm_u128)a[0] * b[1];
    sp_msm_u128 p10 = (sp_msm_u128)a[1] * b[0], p11 = (sp_msm_u128)a[1] * b[1];
    sp_msm_u128 mid = (p00 >> 64) + (uint64_t)p01 + (uint64_t)p10;
    x[0] = (uint64_t)p00;
    x[1] = (uint64_t)mid;
    x[2] = (uint64_t)(mid >> 64) + (uint64_t)(p01 >> 64) + (uint64_t)(p10 >> 64) + (uint64_t)p11;
}

/* x = x - y mod 2^192 when sub, else x + y. */
static void addsub3(uint64_t x[3], const uint64_t y[3], int sub)
{
    unsigned char c = 0;
    for (int i = 0; i < 3; i++) {
        sp_msm_u128 t = sub ? (sp_msm_u128)x[i] - y[i] - c : (sp_msm_u128)x[i] + y[i] + c;
        x[i] = (uint64_t)t;
        c = (unsigned char)((t >> 64) != 0);
    }
}

/* c = round(k g / 2^256) for k < 2^255 (4 limbs), g < 2^192: below 2^128. */
static void round_mul(uint64_t c[2], const uint64_t k[4], const uint64_t g[3])
{
    uint64_t t[7] = {0};
    for (int i = 0; i < 4; i++) {
        uint64_t carry = 0;
        for (int j = 0; j < 3; j++) {
            sp_msm_u128 p = (sp_msm_u128)k[i] * g[j] + t[i + j] + carry;
            t[i + j] = (uint64_t)p;
            carry = (uint64_t)(p >> 64);
        }
        t[i + 3] = carry;
    }
    sp_msm_u128 s = (sp_msm_u128)t[3] + (1ULL << 63); /* + 2^255: rounding */
    t[3] = (uint64_t)s;
    s = (sp_msm_u128)t[4] + (uint64_t)(s >> 64);
    c[0] = (uint64_t)s;
    c[1] = t[5] + (uint64_t)(s >> 64);
    assert(t[6] == 0 && c[1] >= t[5]);
}

/* x = (x - (-1)^neg c |v|) mod 2^192: the term c v with c's sign neg_c. */
static void sub_term(uint64_t x[3], const uint64_t c[2], int neg_c, const s128 *v)
{
    uint64_t t[3];
    mul2(t, c, v->v);
    addsub3(x, t, !(neg_c ^ v->neg));
}

/* m = |x| for x a signed value mod 2^192 of magnitude < 2^128; returns its sign. */
static int abs128(uint64_t m[2], const uint64_t x[3])
{
    int neg = (int)(x[2] >> 63);
    uint64_t t[3] = {x[0], x[1], x[2]};
    if (neg) {
        uint64_t z[3] = {0, 0, 0};
        addsub3(z, t, 1);
        t[0] = z[0], t[1] = z[1], t[2] = z[2];
    }
    assert(t[2] == 0);
    m[0] = t[0];
    m[1] = t[1];
    return neg;
}

int sp_msm_glv_split(uint64_t m1[2], uint64_t m2[2], const uint64_t k[4], const sp_msm_glv *g)
{
    uint64_t c1[2], c2[2];
    round_mul(c1, k, g->g1);
    round_mul(c2, k, g->g2);
    uint64_t x[3] = {k[0], k[1], k[2]}, y[3] = {0, 0, 0};
    sub_term(x, c1, g->neg_g1, &g->a1);
    sub_term(x, c2, g->neg_g2, &g->a2);
    sub_term(y, c1, g->neg_g1, &g->b1);
    sub_term(y, c2, g->neg_g2, &g->b2);
    return abs128(m1, x) | abs128(m2, y) << 1;
}
