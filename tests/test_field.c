/*
 * Fp and Fr of the build's curve against GMP (the independent reference,
 * with the moduli written out from the curve's specification) on random and edge
 * inputs: arithmetic, pow/inv/sqrt, conversions, string and byte codecs;
 * field axioms; the assembly path against the portable path; rejection of
 * out-of-range and malformed input.
 *
 * Both fields run through the same code via a small table of wrappers
 * (struct field). Wrappers rotate the output between a fresh variable and
 * each input, so every GMP comparison also exercises aliasing.
 */
#include <gmp.h>
#include <string.h>
#include "field/field.h"
#include "field/fpv_ifma.h"
#include "test.h"

#define MAXN 6

/* A field element of either field: the first n limbs are used. */
typedef struct { uint64_t l[MAXN]; } el;

typedef struct {
    const char *name;
    int n;
    size_t dec_max;
    const uint64_t *mod;
    void (*add)(el *, const el *, const el *);
    void (*sub)(el *, const el *, const el *);
    void (*mul)(el *, const el *, const el *);
    void (*mul_portable)(el *, const el *, const el *);
    void (*neg)(el *, const el *);
    void (*dbl)(el *, const el *);
    void (*sqr)(el *, const el *);
    void (*sqr_portable)(el *, const el *);
    void (*inv)(el *, const el *);
    void (*pow)(el *, const el *, const uint64_t *, size_t);
    sp_status (*from_canonical)(el *, const uint64_t *);
    void (*to_canonical)(uint64_t *, const el *);
    sp_status (*from_be)(el *, const uint8_t *);
    sp_status (*from_le)(el *, const uint8_t *);
    void (*to_be)(uint8_t *, const el *);
    void (*to_le)(uint8_t *, const el *);
    sp_status (*from_str)(el *, const char *);
    sp_status (*to_dec)(char *, size_t, const el *);
    void (*random)(el *, sp_rng *);
    void (*set_u64)(el *, uint64_t);
    void (*set_one)(el *);
    int (*is_zero)(const el *);
    int (*is_one)(const el *);
    int (*eq)(const el *, const el *);
    void (*cmov)(el *, const el *, int);
} field;

static unsigned alias_turn; /* 0: fresh output, 1: output = a, 2: output = b */

/* Wrappers from el to sp_fp / sp_fr. T is the field type, F its prefix. */
#define WRAP_FIELD(F, T)                                                           \
    static void F##_in(T *x, const el *a) { memcpy(x->l, a->l, sizeof x->l); }   \
    static void F##_out(el *r, const T *x)                                        \
    {                                                                             \
        memset(r, 0, sizeof *r);                                                  \
        memcpy(r->l, x->l, sizeof x->l);                                          \
    }                                                                             \
    static void F##_bin(void (*op)(T *, const T *, const T *), el *r, const el *a,   \
                        const el *b)                                              \
    {                                                                             \
        T x, y, z;                                                                \
        F##_in(&x, a);                                                            \
        F##_in(&y, b);                                                            \
        switch (alias_turn++ % 3) {                                               \
        case 0: op(&z, &x, &y); break;                                            \
        case 1: op(&x, &x, &y); z = x; break;                                     \
        default: op(&y, &x, &y); z = y; break;                                    \
        }                                                                         \
        F##_out(r, &z);                                                           \
    }                                                                             \
    static void F##_un(void (*op)(T *, const T *), el *r, const el *a)            \
    {                                                                             \
        T x, z;                                                                   \
        F##_in(&x, a);                                                            \
        if (alias_turn++ % 2) {                                                   \
            op(&x, &x);                                                           \
            z = x;                                                                \
        } else {                                                                  \
            op(&z, &x);                                                           \
        }                                                                         \
        F##_out(r, &z);                                                           \
    }                                                                             \
    static void F##_add_w(el *r, const el *a, const el *b) { F##_bin(sp_##F##_add, r, a, b); } \
    static void F##_sub_w(el *r, const el *a, const el *b) { F##_bin(sp_##F##_sub, r, a, b); } \
    static void F##_mul_w(el *r, const el *a, const el *b) { F##_bin(sp_##F##_mul, r, a, b); } \
    static void F##_mulp_w(el *r, const el *a, const el *b)                       \
    {                                                                             \
        F##_bin(sp_##F##_mul_portable, r, a, b);                                  \
    }                                                                             \
    static void F##_neg_w(el *r, const el *a) { F##_un(sp_##F##_neg, r, a); }     \
    static void F##_dbl_w(el *r, const el *a) { F##_un(sp_##F##_dbl, r, a); }     \
    static void F##_sqr_w(el *r, const el *a) { F##_un(sp_##F##_sqr, r, a); }     \
    static void F##_sqrp_w(el *r, const el *a) { F##_un(sp_##F##_sqr_portable, r, a); } \
    static void F##_inv_w(el *r, const el *a) { F##_un(sp_##F##_inv, r, a); }     \
    static void F##_pow_w(el *r, const el *a, const uint64_t *e, size_t e_len)    \
    {                                                                             \
        T x;                                                                      \
        F##_in(&x, a);                                                            \
        sp_##F##_pow(&x, &x, e, e_len);                                           \
        F##_out(r, &x);                                                           \
    }                                                                             \
    static sp_status F##_fromc_w(el *r, const uint64_t *in)                       \
    {                                                                             \
        T x;                                                                      \
        F##_in(&x, r);                                                            \
        sp_status s = sp_##F##_from_canonical(&x, in);                            \
        F##_out(r, &x);                                                           \
        return s;                                                                 \
    }                                                                             \
    static void F##_toc_w(uint64_t *out, const el *a)                             \
    {                                                                             \
        T x;                                                                      \
        F##_in(&x, a);                                                            \
        sp_##F##_to_canonical(out, &x);                                           \
    }                                                                             \
    static sp_status F##_frombe_w(el *r, const uint8_t *in)                       \
    {                                                                             \
        T x;                                                                      \
        F##_in(&x, r);                                                            \
        sp_status s = sp_##F##_from_bytes_be(&x, in);                             \
        F##_out(r, &x);                                                           \
        return s;                                                                 \
    }                                                                             \
    static sp_status F##_fromle_w(el *r, const uint8_t *in)                       \
    {                                                                             \
        T x;                                                                      \
        F##_in(&x, r);                                                            \
        sp_status s = sp_##F##_from_bytes_le(&x, in);                             \
        F##_out(r, &x);                                                           \
        return s;                                                                 \
    }                                                                             \
    static void F##_tobe_w(uint8_t *out, const el *a)                             \
    {                                                                             \
        T x;                                                                      \
        F##_in(&x, a);                                                            \
        sp_##F##_to_bytes_be(out, &x);                                            \
    }                                                                             \
    static void F##_tole_w(uint8_t *out, const el *a)                             \
    {                                                                             \
        T x;                                                                      \
        F##_in(&x, a);                                                            \
        sp_##F##_to_bytes_le(out, &x);                                            \
    }                                                                             \
    static sp_status F##_fromstr_w(el *r, const char *s)                          \
    {                                                                             \
        T x;                                                                      \
        F##_in(&x, r);                                                            \
        sp_status st = sp_##F##_from_str(&x, s);                                  \
        F##_out(r, &x);                                                           \
        return st;                                                                \
    }                                                                             \
    static sp_status F##_todec_w(char *out, size_t len, const el *a)              \
    {                                                                             \
        T x;                                                                      \
        F##_in(&x, a);                                                            \
        return sp_##F##_to_dec(out, len, &x);                                     \
    }                                                                             \
    static void F##_random_w(el *r, sp_rng *rng)                                  \
    {                                                                             \
        T x;                                                                      \
        sp_##F##_random(&x, rng);                                                 \
        F##_out(r, &x);                                                           \
    }                                                                             \
    static void F##_setu64_w(el *r, uint64_t v)                                   \
    {                                                                             \
        T x;                                                                      \
        sp_##F##_set_u64(&x, v);                                                  \
        F##_out(r, &x);                                                           \
    }                                                                             \
    static void F##_setone_w(el *r)                                               \
    {                                                                             \
        T x;                                                                      \
        sp_##F##_set_one(&x);                                                     \
        F##_out(r, &x);                                                           \
    }                                                                             \
    static int F##_iszero_w(const el *a)                                          \
    {                                                                             \
        T x;                                                                      \
        F##_in(&x, a);                                                            \
        return sp_##F##_is_zero(&x);                                              \
    }                                                                             \
    static int F##_isone_w(const el *a)                                           \
    {                                                                             \
        T x;                                                                      \
        F##_in(&x, a);                                                            \
        return sp_##F##_is_one(&x);                                               \
    }                                                                             \
    static int F##_eq_w(const el *a, const el *b)                                 \
    {                                                                             \
        T x, y;                                                                   \
        F##_in(&x, a);                                                            \
        F##_in(&y, b);                                                            \
        return sp_##F##_eq(&x, &y);                                               \
    }                                                                             \
    static void F##_cmov_w(el *r, const el *a, int c)                             \
    {                                                                             \
        T x, y;                                                                   \
        F##_in(&x, r);                                                            \
        F##_in(&y, a);                                                            \
        sp_##F##_cmov(&x, &y, c);                                                 \
        F##_out(r, &x);                                                           \
    }

WRAP_FIELD(fp, sp_fp)
WRAP_FIELD(fr, sp_fr)

#define FIELD_ENTRY(F, N, DEC, MOD)                                                \
    {#F, N, DEC, MOD, F##_add_w, F##_sub_w, F##_mul_w, F##_mulp_w, F##_neg_w,       \
     F##_dbl_w, F##_sqr_w, F##_sqrp_w, F##_inv_w, F##_pow_w, F##_fromc_w, F##_toc_w, \
     F##_frombe_w, F##_fromle_w, F##_tobe_w, F##_tole_w, F##_fromstr_w, F##_todec_w, \
     F##_random_w, F##_setu64_w, F##_setone_w, F##_iszero_w, F##_isone_w, F##_eq_w, \
     F##_cmov_w}

static const field fields_[2] = {
    FIELD_ENTRY(fp, SP_FP_LIMBS, SP_FP_DEC_MAX, SP_FP_MODULUS),
    FIELD_ENTRY(fr, SP_FR_LIMBS, SP_FR_DEC_MAX, SP_FR_MODULUS),
};

/* The moduli of the build's curve, written out from its specification
 * (BN254: EIP-196; BLS12-381: the zcash/IETF draft). */
static const char *const MOD_HEX_[2] = {
#if SP_CURVE_BN254
    "30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47",
    "30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001",
#else
    "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab",
    "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001",
#endif
};
static mpz_t M_[2]; /* M_[k] is the modulus of fields_[k] */

/* ---- GMP bridges ----------------------------------------------------------- */

static void limbs_to_mpz(mpz_t out, const uint64_t *l, int n) { mpz_import(out, (size_t)n, -1, 8, 0, 0, l); }

static void mpz_to_limbs(uint64_t *l, int n, const mpz_t v)
{
    memset(l, 0, (size_t)n * 8);
    CHECK(mpz_sizeinbase(v, 2) <= (size_t)n * 64);
    mpz_export(l, NULL, -1, 8, 0, 0, v);
}

static void el_to_mpz(const field *f, mpz_t out, const el *a)
{
    uint64_t l[MAXN];
    f->to_canonical(l, a);
    limbs_to_mpz(out, l, f->n);
}

/* a = v (0 <= v < m) through the checked conversion. */
static void mpz_to_el(const field *f, el *a, const mpz_t v)
{
    uint64_t l[MAXN];
    mpz_to_limbs(l, f->n, v);
    memset(a, 0, sizeof *a);
    CHECK(f->from_canonical(a, l) == SP_OK);
}

static int el_is(const field *f, const el *a, const mpz_t v)
{
    mpz_t x;
    mpz_init(x);
    el_to_mpz(f, x, a);
    int ok = mpz_cmp(x, v) == 0;
    mpz_clear(x);
    return ok;
}

/* ---- inputs ---------------------------------------------------------------- */

#define NEDGE 22

/* Values that stress carries and reductions: small, near m, near m/2,
 * limb boundaries, R mod m and friends. Returns them in v[0..NEDGE). */
static void edge_values(mpz_t *v, const mpz_t m, int n)
{
    unsigned long bits = (unsigned long)mpz_sizeinbase(m, 2);
    mpz_t r;
    mpz_init(r);
    mpz_ui_pow_ui(r, 2, 64 * (unsigned long)n);
    for (unsigned s = 0; s < 4; s++)
        mpz_set_ui(v[s], s); /* 0, 1, 2, 3 */
    for (unsigned s = 1; s <= 3; s++)
        mpz_sub_ui(v[3 + s], m, s); /* m-1, m-2, m-3 */
    mpz_sub_ui(v[7], m, 1);
    mpz_fdiv_q_2exp(v[7], v[7], 1); /* (m-1)/2 */
    mpz_add_ui(v[8], v[7], 1);      /* (m+1)/2 */
    mpz_sub_ui(v[9], v[7], 1);      /* (m-3)/2 */
    mpz_ui_pow_ui(v[10], 2, 64);    /* 2^64 */
    mpz_sub_ui(v[11], v[10], 1);    /* 2^64 - 1 */
    mpz_sub(v[12], m, v[10]);       /* m - 2^64 */
    mpz_ui_pow_ui(v[13], 2, 64 * (unsigned long)(n - 1)); /* 2^(64(n-1)) */
    mpz_sub_ui(v[14], v[13], 1);
    mpz_sub(v[15], m, v[13]);
    mpz_ui_pow_ui(v[16], 2, bits - 1); /* the top bit of m's length */
    mpz_sub_ui(v[17], v[16], 1);       /* all ones below it */
    mpz_mod(v[18], r, m);              /* R mod m (Montgomery one) */
    mpz_powm_ui(v[19], r, 2, m);       /* R^2 mod m */
    mpz_invert(v[20], r, m);           /* R^-1 mod m */
    mpz_ui_pow_ui(v[21], 2, 128);
    mpz_sub_ui(v[21], v[21], 1);       /* 2^128 - 1 */
    for (int i = 0; i < NEDGE; i++)
        CHECK(mpz_sgn(v[i]) >= 0 && mpz_cmp(v[i], m) < 0);
    mpz_clear(r);
}

/* A random input: mostly uniform, sometimes an edge value or a value with
 * long runs of zero or all-ones limbs. */
static void pick(const field *f, const mpz_t m, mpz_t *edges, sp_rng *rng, el *a, mpz_t v)
{
    uint64_t r = sp_rng_u64(rng) % 16;
    if (r == 0) {
        mpz_set(v, edges[sp_rng_u64(rng) % NEDGE]);
    } else if (r == 1) {
        uint64_t l[MAXN];
        for (int i = 0; i < f->n; i++) {
            uint64_t c = sp_rng_u64(rng) % 3;
            l[i] = c == 0 ? 0 : c == 1 ? ~0ULL : sp_rng_u64(rng);
        }
        limbs_to_mpz(v, l, f->n);
        mpz_mod(v, v, m);
    } else {
        f->random(a, rng);
        el_to_mpz(f, v, a);
        return;
    }
    mpz_to_el(f, a, v);
}

/* ---- tests ----------------------------------------------------------------- */

static void test_arith_vs_gmp(const field *f, const mpz_t m, mpz_t *edges, sp_rng *rng)
{
    mpz_t x, y, w;
    mpz_inits(x, y, w, NULL);
    for (int i = 0; i < sp_test_iters(20000); i++) {
        el a, b, c;
        pick(f, m, edges, rng, &a, x);
        pick(f, m, edges, rng, &b, y);
        f->add(&c, &a, &b);
        mpz_add(w, x, y);
        mpz_mod(w, w, m);
        CHECKF(el_is(f, &c, w), "%s add", f->name);
        f->sub(&c, &a, &b);
        mpz_sub(w, x, y);
        mpz_mod(w, w, m);
        CHECKF(el_is(f, &c, w), "%s sub", f->name);
        f->mul(&c, &a, &b);
        mpz_mul(w, x, y);
        mpz_mod(w, w, m);
        CHECKF(el_is(f, &c, w), "%s mul", f->name);
        f->neg(&c, &a);
        mpz_neg(w, x);
        mpz_mod(w, w, m);
        CHECKF(el_is(f, &c, w), "%s neg", f->name);
        f->dbl(&c, &a);
        mpz_mul_2exp(w, x, 1);
        mpz_mod(w, w, m);
        CHECKF(el_is(f, &c, w), "%s dbl", f->name);
        f->sqr(&c, &a);
        mpz_mul(w, x, x);
        mpz_mod(w, w, m);
        CHECKF(el_is(f, &c, w), "%s sqr", f->name);
    }
    mpz_clears(x, y, w, NULL);
}

static void test_inv_pow_vs_gmp(const field *f, const mpz_t m, mpz_t *edges, sp_rng *rng)
{
    mpz_t x, e, w;
    mpz_inits(x, e, w, NULL);
    for (int i = 0; i < sp_test_iters(1000); i++) {
        el a, c;
        pick(f, m, edges, rng, &a, x);
        f->inv(&c, &a);
        if (mpz_sgn(x) == 0)
            mpz_set_ui(w, 0);
        else
            CHECK(mpz_invert(w, x, m) != 0);
        CHECKF(el_is(f, &c, w), "%s inv", f->name);

        uint64_t ex[5];
        size_t e_len = (size_t)(sp_rng_u64(rng) % 6); /* 0..5 limbs, 0 gives a^0 = 1 */
        for (size_t k = 0; k < e_len; k++)
            ex[k] = i % 7 == 0 ? ~0ULL : sp_rng_u64(rng);
        if (e_len && i % 5 == 0)
            ex[e_len - 1] &= 0xf; /* short exponents with leading zero windows */
        mpz_import(e, e_len, -1, 8, 0, 0, ex);
        f->pow(&c, &a, ex, e_len);
        mpz_powm(w, x, e, m);
        CHECKF(el_is(f, &c, w), "%s pow e_len=%zu", f->name, e_len);
    }
    /* inv(0) = 0 explicitly, and a^(m-1) = 1 for a != 0. */
    el z, c;
    memset(&z, 0, sizeof z);
    f->inv(&c, &z);
    CHECK(f->is_zero(&c));
    uint64_t mm1[MAXN];
    memcpy(mm1, f->mod, (size_t)f->n * 8);
    mm1[0] -= 1;
    for (int i = 0; i < NEDGE; i++) {
        el a;
        mpz_to_el(f, &a, edges[i]);
        f->pow(&c, &a, mm1, (size_t)f->n);
        CHECK(mpz_sgn(edges[i]) == 0 ? f->is_zero(&c) : f->is_one(&c));
    }
    mpz_clears(x, e, w, NULL);
}

static void test_sqrt_vs_gmp(const mpz_t p, mpz_t *edges, sp_rng *rng)
{
    const field *f = &fields_[0];
    mpz_t x, w;
    mpz_inits(x, w, NULL);
    int squares = 0, nonsquares = 0;
    for (int i = 0; i < sp_test_iters(1000); i++) {
        el a;
        sp_fp fa, s, s2, sq;
        pick(f, p, edges, rng, &a, x);
        memcpy(fa.l, a.l, sizeof fa.l);
        int is_sq = sp_fp_sqrt(&s, &fa);
        int leg = mpz_legendre(x, p);
        CHECKF(is_sq == (leg >= 0), "sqrt verdict %d vs legendre %d", is_sq, leg);
        if (is_sq) {
            sp_fp_sqr(&s2, &s);
            CHECK(sp_fp_eq(&s2, &fa));
        }
        squares += leg >= 0;
        nonsquares += leg < 0;
        /* A square always has a root that squares back. */
        sp_fp_sqr(&sq, &fa);
        CHECK(sp_fp_sqrt(&s, &sq) == 1);
        sp_fp_sqr(&s2, &s);
        CHECK(sp_fp_eq(&s2, &sq));
        /* -1 is a non-residue (p = 3 mod 4), so -a^2 is rejected unless a = 0. */
        sp_fp_neg(&sq, &sq);
        CHECK(sp_fp_sqrt(&s, &sq) == sp_fp_is_zero(&fa));
    }
    CHECK(squares > 0 && nonsquares > 0);
    mpz_clears(x, w, NULL);
}

static void test_lex_largest(const mpz_t p, mpz_t *edges, sp_rng *rng)
{
    const field *f = &fields_[0];
    mpz_t x, half;
    mpz_inits(x, half, NULL);
    mpz_sub_ui(half, p, 1);
    mpz_fdiv_q_2exp(half, half, 1);
    for (int i = 0; i < sp_test_iters(5000) + NEDGE; i++) {
        el a;
        if (i < NEDGE) {
            mpz_set(x, edges[i]);
            mpz_to_el(f, &a, x);
        } else {
            pick(f, p, edges, rng, &a, x);
        }
        sp_fp fa;
        memcpy(fa.l, a.l, sizeof fa.l);
        CHECKF(sp_fp_is_lexicographically_largest(&fa) == (mpz_cmp(x, half) > 0), "lex %d", i);
    }
    mpz_clears(x, half, NULL);
}

static void test_axioms(const field *f, const mpz_t m, mpz_t *edges, sp_rng *rng)
{
    mpz_t x;
    mpz_init(x);
    el one;
    f->set_one(&one);
    for (int i = 0; i < sp_test_iters(5000); i++) {
        el a, b, c, t, u, v;
        pick(f, m, edges, rng, &a, x);
        pick(f, m, edges, rng, &b, x);
        pick(f, m, edges, rng, &c, x);
        f->add(&t, &a, &b), f->add(&t, &t, &c);
        f->add(&u, &b, &c), f->add(&u, &a, &u);
        CHECK(f->eq(&t, &u)); /* (a+b)+c = a+(b+c) */
        f->mul(&t, &a, &b), f->mul(&t, &t, &c);
        f->mul(&u, &b, &c), f->mul(&u, &a, &u);
        CHECK(f->eq(&t, &u)); /* (ab)c = a(bc) */
        f->add(&t, &a, &b), f->add(&u, &b, &a);
        CHECK(f->eq(&t, &u));
        f->mul(&t, &a, &b), f->mul(&u, &b, &a);
        CHECK(f->eq(&t, &u));
        f->add(&t, &b, &c), f->mul(&t, &a, &t);
        f->mul(&u, &a, &b), f->mul(&v, &a, &c), f->add(&u, &u, &v);
        CHECK(f->eq(&t, &u)); /* a(b+c) = ab+ac */
        f->neg(&t, &a), f->add(&t, &t, &a);
        CHECK(f->is_zero(&t));
        f->neg(&t, &b), f->add(&t, &a, &t), f->sub(&u, &a, &b);
        CHECK(f->eq(&t, &u)); /* a + (-b) = a - b */
        f->sub(&t, &a, &b), f->add(&t, &t, &b);
        CHECK(f->eq(&t, &a));
        f->dbl(&t, &a), f->add(&u, &a, &a);
        CHECK(f->eq(&t, &u));
        f->sqr(&t, &a), f->mul(&u, &a, &a);
        CHECK(f->eq(&t, &u));
        f->mul(&t, &a, &one);
        CHECK(f->eq(&t, &a));
        if (i % 8 == 0) {
            f->inv(&t, &a), f->mul(&t, &t, &a);
            CHECK(f->is_zero(&a) ? f->is_zero(&t) : f->is_one(&t));
        }
    }
    mpz_clear(x);
}

/* Every operation with the assembly on and off gives the same limbs. */
static void test_asm_vs_portable(const field *f, const mpz_t m, mpz_t *edges, sp_rng *rng)
{
    int prev = sp_field_use_asm(1);
    if (!sp_field_asm_active()) {
        printf("%s: assembly path not available here; comparing portable with itself\n", f->name);
    }
    mpz_t x;
    mpz_init(x);
    int total = NEDGE * NEDGE + sp_test_iters(20000);
    for (int i = 0; i < total; i++) {
        el a, b, r1[7], r0[7];
        if (i < NEDGE * NEDGE) {
            mpz_to_el(f, &a, edges[i / NEDGE]);
            mpz_to_el(f, &b, edges[i % NEDGE]);
        } else {
            pick(f, m, edges, rng, &a, x);
            pick(f, m, edges, rng, &b, x);
        }
        for (int side = 1; side >= 0; side--) {
            el *r = side ? r1 : r0;
            sp_field_use_asm(side);
            f->add(&r[0], &a, &b);
            f->sub(&r[1], &a, &b);
            f->mul(&r[2], &a, &b);
            f->neg(&r[3], &a);
            f->dbl(&r[4], &a);
            f->sqr(&r[5], &a);
            f->sub(&r[6], &b, &a);
        }
        for (int k = 0; k < 7; k++)
            CHECKF(memcmp(r1[k].l, r0[k].l, (size_t)f->n * 8) == 0, "%s op %d input %d", f->name, k, i);
        /* The explicit portable entry points, whatever the switch says. */
        sp_field_use_asm(1);
        f->mul_portable(&r0[0], &a, &b);
        f->mul(&r1[0], &a, &b);
        f->sqr_portable(&r0[1], &a);
        f->sqr(&r1[1], &a);
        CHECK(memcmp(r1, r0, sizeof(el) * 2) == 0);
    }
    sp_field_use_asm(prev);
    mpz_clear(x);
}

#if SP_HAVE_FPV_IFMA
/* Lane k of *r = x[k] + (lazy bit k ? p : 0), from the raw limbs of the
 * elements (sp_fp's Montgomery form): the inputs cover [0, 2p). */
SP_IFMA static void fpv_pack(sp_fpv *r, const el x[8], unsigned lazy)
{
    uint64_t w[FPV_NW][8];
    for (int k = 0; k < 8; k++) {
        unsigned __int128 c = 0;
        for (int j = 0; j < FPV_NW; j++) {
            c += (unsigned __int128)x[k].l[j] + ((lazy >> k & 1) ? SP_FP_MODULUS[j] : 0);
            w[j][k] = (uint64_t)c;
            c >>= 64;
        }
    }
    __m512i v[FPV_NW];
    for (int j = 0; j < FPV_NW; j++)
        v[j] = _mm512_loadu_si512(w[j]);
    fpv_from_words(r, v);
}

/* The lanes' values as limbs, reduced (full) or as they are (below R). */
SP_IFMA static void fpv_unpack(el x[8], const sp_fpv *a, int full)
{
    sp_fpv t = *a;
    if (full)
        fpv_reduce(&t, a);
    __m512i v[FPV_NW];
    uint64_t w[FPV_NW][8];
    fpv_to_words(v, &t);
    for (int j = 0; j < FPV_NW; j++)
        _mm512_storeu_si512(w[j], v[j]);
    memset(x, 0, 8 * sizeof *x);
    for (int k = 0; k < 8; k++)
        for (int j = 0; j < FPV_NW; j++)
            x[k].l[j] = w[j][k];
}

SP_IFMA static void fpv_ops(el out[5][8], el lazy_out[5][8], const sp_fpv *a, const sp_fpv *b)
{
    sp_fpv r[5];
    fpv_mul(&r[0], a, b);
    fpv_add(&r[1], a, b);
    fpv_sub(&r[2], a, b);
    fpv_sub(&r[3], b, a);
    fpv_mul(&r[4], a, a);
    for (int i = 0; i < 5; i++) {
        fpv_unpack(out[i], &r[i], 1);
        fpv_unpack(lazy_out[i], &r[i], 0);
    }
}

/* The eight-lane IFMA Fp against the scalar Fp, which the tests
 * above check against GMP: the same limbs once reduced, for inputs anywhere
 * in [0, 2p) (edge values and their lazy forms included), and every result
 * below 2p as the lanes keep it. */
static void test_ifma_vs_scalar(const field *f, const mpz_t m, mpz_t *edges, sp_rng *rng)
{
    if (!sp_field_ifma_active()) {
        printf("test_field: this CPU has no AVX-512 IFMA: the eight-lane Fp path is not tested here\n");
        return;
    }
    mpz_t v, two_m;
    mpz_inits(v, two_m, NULL);
    mpz_mul_2exp(two_m, m, 1);
    int total = sp_test_iters(4000);
    for (int it = 0; it < total; it++) {
        el a[8], b[8], got[5][8], lazy[5][8];
        for (int k = 0; k < 8; k++) {
            pick(f, m, edges, rng, &a[k], v);
            pick(f, m, edges, rng, &b[k], v);
        }
        sp_fpv va, vb;
        fpv_pack(&va, a, (unsigned)sp_rng_u64(rng) & 0xff);
        fpv_pack(&vb, b, (unsigned)sp_rng_u64(rng) & 0xff);
        fpv_ops(got, lazy, &va, &vb);
        for (int k = 0; k < 8; k++) {
            sp_fp x, y, want[5];
            memcpy(x.l, a[k].l, sizeof x.l);
            memcpy(y.l, b[k].l, sizeof y.l);
            sp_fp_mul(&want[0], &x, &y);
            sp_fp_add(&want[1], &x, &y);
            sp_fp_sub(&want[2], &x, &y);
            sp_fp_sub(&want[3], &y, &x);
            sp_fp_sqr(&want[4], &x);
            for (int i = 0; i < 5; i++) {
                CHECKF(memcmp(got[i][k].l, want[i].l, sizeof want[i].l) == 0, "ifma op %d lane %d input %d", i, k, it);
                limbs_to_mpz(v, lazy[i][k].l, FPV_NW);
                CHECKF(mpz_cmp(v, two_m) < 0, "ifma op %d lane %d input %d: not below 2p", i, k, it);
            }
        }
    }
    mpz_clears(v, two_m, NULL);
}
#endif

/* Limbs of m + d (d >= 0 small) or all ones. */
static void bad_limbs(const field *f, uint64_t *l, int which)
{
    memcpy(l, f->mod, (size_t)f->n * 8);
    if (which == 1)
        l[0] += 1; /* m + 1: limb 0 of m is odd, no carry */
    if (which == 2)
        memset(l, 0xff, (size_t)f->n * 8);
}

static void test_conversions(const field *f, const mpz_t m, mpz_t *edges, sp_rng *rng)
{
    int nb = f->n * 8;
    mpz_t x, y;
    mpz_inits(x, y, NULL);
    for (int i = 0; i < sp_test_iters(3000) + NEDGE; i++) {
        el a, b;
        uint8_t be[48], le[48], gbe[48], gle[48];
        if (i < NEDGE) {
            mpz_set(x, edges[i]);
            mpz_to_el(f, &a, x);
        } else {
            pick(f, m, edges, rng, &a, x);
        }
        /* Canonical limbs round trip and agree with GMP. */
        uint64_t l[MAXN], l2[MAXN];
        f->to_canonical(l, &a);
        mpz_to_limbs(l2, f->n, x);
        CHECK(memcmp(l, l2, (size_t)f->n * 8) == 0);
        CHECK(f->from_canonical(&b, l) == SP_OK && f->eq(&a, &b));
        /* Bytes: compare with GMP's own export in both byte orders. */
        memset(gbe, 0, sizeof gbe);
        memset(gle, 0, sizeof gle);
        size_t cnt = 0;
        uint8_t tmp[48];
        mpz_export(tmp, &cnt, 1, 1, 1, 0, x); /* big-endian, minimal length */
        memcpy(gbe + nb - cnt, tmp, cnt);
        mpz_export(gle, NULL, -1, 1, -1, 0, x);
        f->to_be(be, &a);
        f->to_le(le, &a);
        CHECK(memcmp(be, gbe, (size_t)nb) == 0);
        CHECK(memcmp(le, gle, (size_t)nb) == 0);
        CHECK(f->from_be(&b, gbe) == SP_OK && f->eq(&a, &b));
        CHECK(f->from_le(&b, gle) == SP_OK && f->eq(&a, &b));
        /* Strings: decimal and hex from GMP in, decimal out equals GMP. */
        char s[200], d[200];
        mpz_get_str(s, 10, x);
        memset(&b, 0, sizeof b);
        CHECK(f->from_str(&b, s) == SP_OK && f->eq(&a, &b));
        CHECK(f->to_dec(d, sizeof d, &a) == SP_OK && strcmp(d, s) == 0);
        s[0] = '0', s[1] = i % 2 ? 'x' : 'X';
        mpz_get_str(s + 2, i % 4 < 2 ? 16 : -16, x); /* lower and upper case digits */
        CHECK(f->from_str(&b, s) == SP_OK && f->eq(&a, &b));
        /* set_u64 against GMP. */
        uint64_t v = i % 3 ? sp_rng_u64(rng) : (uint64_t)i;
        f->set_u64(&b, v);
        mpz_import(y, 1, -1, 8, 0, 0, &v);
        mpz_mod(y, y, m);
        CHECK(el_is(f, &b, y));
        /* random() stays below m: its limbs are a valid reduced encoding. */
        f->random(&b, rng);
        limbs_to_mpz(y, b.l, f->n);
        CHECK(mpz_cmp(y, m) < 0);
    }
    mpz_clears(x, y, NULL);
}

/* Values >= m and malformed text are refused and leave the output alone. */
static void test_rejections(const field *f, const mpz_t m)
{
    int nb = f->n * 8;
    el sentinel, r;
    f->set_u64(&sentinel, 12345);
    for (int which = 0; which < 3; which++) { /* m, m + 1, all ones */
        uint64_t l[MAXN];
        uint8_t be[48], le[48];
        bad_limbs(f, l, which);
        for (int i = 0; i < f->n; i++)
            for (int k = 0; k < 8; k++) {
                le[i * 8 + k] = (uint8_t)(l[i] >> (8 * k));
                be[nb - 1 - (i * 8 + k)] = (uint8_t)(l[i] >> (8 * k));
            }
        r = sentinel;
        CHECK(f->from_canonical(&r, l) == SP_ERR_NOT_CANONICAL && f->eq(&r, &sentinel));
        CHECK(f->from_be(&r, be) == SP_ERR_NOT_CANONICAL && f->eq(&r, &sentinel));
        CHECK(f->from_le(&r, le) == SP_ERR_NOT_CANONICAL && f->eq(&r, &sentinel));
        mpz_t v;
        mpz_init(v);
        limbs_to_mpz(v, l, f->n);
        char s[200];
        mpz_get_str(s, 10, v);
        CHECK(f->from_str(&r, s) == SP_ERR_NOT_CANONICAL && f->eq(&r, &sentinel));
        s[0] = '0', s[1] = 'x';
        mpz_get_str(s + 2, 16, v);
        CHECK(f->from_str(&r, s) == SP_ERR_NOT_CANONICAL && f->eq(&r, &sentinel));
        mpz_clear(v);
    }
    /* m - 1 is the largest accepted value, in every encoding. */
    mpz_t v;
    mpz_init(v);
    mpz_sub_ui(v, m, 1);
    char s[300];
    mpz_get_str(s, 10, v);
    CHECK(f->from_str(&r, s) == SP_OK && el_is(f, &r, v));
    /* Overlong inputs: many digits overflow, leading zeros do not. */
    memset(s, '9', 250);
    s[250] = '\0';
    r = sentinel;
    CHECK(f->from_str(&r, s) == SP_ERR_NOT_CANONICAL && f->eq(&r, &sentinel));
    memset(s, '0', 250);
    strcpy(s + 250, "42");
    CHECK(f->from_str(&r, s) == SP_OK);
    mpz_set_ui(v, 42);
    CHECK(el_is(f, &r, v));
    s[0] = '0', s[1] = 'x';
    memset(s + 2, 'f', 200);
    s[202] = '\0';
    r = sentinel;
    CHECK(f->from_str(&r, s) == SP_ERR_NOT_CANONICAL && f->eq(&r, &sentinel));
    /* Malformed text. */
    static const char *const bad[] = {"", "0x", "0X", "-1", "+1", " 1", "1 ", "12a", "0x1g",
                                      "1.5", "0b101", "x12", "0x-1", "1\n", "\xd9\xa3"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        r = sentinel;
        CHECKF(f->from_str(&r, bad[i]) == SP_ERR_BAD_ENCODING && f->eq(&r, &sentinel), "%s \"%s\"",
               f->name, bad[i]);
    }
    /* A bad character after a value already too large is still "malformed"
     * (found by the field_str fuzzer: 78 nines and an x). */
    memset(s, '9', 200);
    s[200] = 'x';
    s[201] = '\0';
    r = sentinel;
    CHECK(f->from_str(&r, s) == SP_ERR_BAD_ENCODING && f->eq(&r, &sentinel));
    /* Small exact cases. */
    CHECK(f->from_str(&r, "0") == SP_OK && f->is_zero(&r));
    CHECK(f->from_str(&r, "1") == SP_OK && f->is_one(&r));
    CHECK(f->from_str(&r, "0x0") == SP_OK && f->is_zero(&r));
    CHECK(f->from_str(&r, "0xff") == SP_OK);
    mpz_set_ui(v, 255);
    CHECK(el_is(f, &r, v));
    /* to_dec needs a full-size buffer and writes "0" for zero. */
    char d[200];
    memset(&r, 0, sizeof r);
    CHECK(f->to_dec(d, f->dec_max - 1, &r) == SP_ERR_INVALID_ARG);
    CHECK(f->to_dec(d, f->dec_max, &r) == SP_OK && strcmp(d, "0") == 0);
    mpz_clear(v);
}

static void test_predicates(const field *f, sp_rng *rng)
{
    el a, b, z, one;
    memset(&z, 0, sizeof z);
    f->set_one(&one);
    CHECK(f->is_zero(&z) && !f->is_one(&z));
    CHECK(f->is_one(&one) && !f->is_zero(&one));
    f->set_u64(&a, 1);
    CHECK(f->eq(&a, &one));
    f->set_u64(&a, 0);
    CHECK(f->is_zero(&a));
    for (int i = 0; i < 100; i++) {
        f->random(&a, rng);
        f->random(&b, rng);
        el r = a;
        f->cmov(&r, &b, 0);
        CHECK(f->eq(&r, &a));
        f->cmov(&r, &b, 1);
        CHECK(f->eq(&r, &b));
        CHECK(f->eq(&a, &b) == (memcmp(a.l, b.l, (size_t)f->n * 8) == 0));
    }
}

int main(void)
{
    sp_rng rng;
    sp_test_begin("test_field", &rng);
    for (int k = 0; k < 2; k++) {
        const field *f = &fields_[k];
        mpz_init_set_str(M_[k], MOD_HEX_[k], 16);
        uint64_t l[MAXN];
        mpz_to_limbs(l, f->n, M_[k]); /* the library's modulus is the spec's */
        CHECK(memcmp(l, f->mod, (size_t)f->n * 8) == 0);
        mpz_t edges[NEDGE];
        for (int i = 0; i < NEDGE; i++)
            mpz_init(edges[i]);
        edge_values(edges, M_[k], f->n);
        test_arith_vs_gmp(f, M_[k], edges, &rng);
        test_inv_pow_vs_gmp(f, M_[k], edges, &rng);
        test_axioms(f, M_[k], edges, &rng);
        test_asm_vs_portable(f, M_[k], edges, &rng);
        test_conversions(f, M_[k], edges, &rng);
        test_rejections(f, M_[k]);
        test_predicates(f, &rng);
        if (k == 0) {
            test_sqrt_vs_gmp(M_[k], edges, &rng);
            test_lex_largest(M_[k], edges, &rng);
#if SP_HAVE_FPV_IFMA
            test_ifma_vs_scalar(f, M_[k], edges, &rng);
#endif
        }
        for (int i = 0; i < NEDGE; i++)
            mpz_clear(edges[i]);
        mpz_clear(M_[k]);
    }
    return sp_test_done();
}
