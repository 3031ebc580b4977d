/*
 * Known-answer checker (kat.h) for the build's curve. The line format is
 * defined in tools/noble/gen.mjs; in short: "<kind> <field> ...", one space
 * between fields, '#' comment lines, fp/fr values as fixed-width big-endian
 * hex, points in the curve's two byte forms (BLS12-381: zcash compressed
 * and uncompressed; BN254: arkworks compressed and the EVM form), scalars
 * as 64 hex digits, pairing values as 12 fp in the order c0.c0.c0 c0.c0.c1
 * c0.c1.c0 c0.c1.c1 c0.c2.c0 c0.c2.c1 c1.c0.c0 ... c1.c2.c1 (Fp12 = c0 + c1 w,
 * Fp6 = c0 + c1 v + c2 v^2, Fp2 = c0 + c1 u: the tower of fp12.h, so values
 * compare directly; both sides raise the Miller loop value to the same
 * power, see pairing.h).
 *
 * Each handler parses its fields first (any malformed value: KAT_BAD),
 * then recomputes and compares (KAT_PASS or KAT_FAIL). Where our API has
 * several routes to one answer (constant-time and variable-time scalar
 * multiplication, four additions, encode and decode) every route is
 * compared with the same answer.
 */
#include <string.h>
#include "cli/kat.h"
#include "curve/curve.h"
#include "curve/encode.h"
#include "field/fp12.h"
#include "pairing/pairing.h"

enum { KAT_FAIL = 0, KAT_PASS = 1, KAT_BAD = -1 };
#define KAT_MAX_FIELDS 16

/* ---- parsing helpers ---------------------------------------------------- */

static int hex_nibble(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1; /* the format is lowercase only */
}

/* Decodes hex s into out[0..*len), at most cap bytes; "-" is the empty
 * string. Returns 1, or 0 for odd length, bad digits or overflow. */
static int hex_decode(uint8_t *out, size_t cap, size_t *len, const char *s)
{
    if (strcmp(s, "-") == 0) {
        *len = 0;
        return 1;
    }
    size_t n = strlen(s);
    if (n % 2 || n / 2 > cap)
        return 0;
    for (size_t i = 0; i < n / 2; i++) {
        int hi = hex_nibble(s[2 * i]), lo = hex_nibble(s[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return 0;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    *len = n / 2;
    return 1;
}

/* Exactly n bytes of hex. */
static int hex_exact(uint8_t *out, size_t n, const char *s)
{
    size_t len;
    return hex_decode(out, n, &len, s) && len == n;
}

static int parse_fp(sp_fp *r, const char *s)
{
    uint8_t b[SP_FP_BYTES];
    return hex_exact(b, sizeof b, s) && sp_fp_from_bytes_be(r, b) == SP_OK;
}

static int parse_fr(sp_fr *r, const char *s)
{
    uint8_t b[SP_FR_BYTES];
    return hex_exact(b, sizeof b, s) && sp_fr_from_bytes_be(r, b) == SP_OK;
}

static int parse_fp2(sp_fp2 *r, const char *s0, const char *s1)
{
    return parse_fp(&r->c0, s0) && parse_fp(&r->c1, s1);
}

/* A scalar 0 < k < r, as 4 little-endian limbs and as an Fr element. */
static int parse_scalar(uint64_t k[4], sp_fr *kf, const char *s)
{
    uint8_t b[32];
    if (!hex_exact(b, sizeof b, s))
        return 0;
    for (int i = 0; i < 4; i++) {
        k[i] = 0;
        for (int j = 0; j < 8; j++)
            k[i] |= (uint64_t)b[31 - 8 * i - j] << (8 * j);
    }
    return sp_fr_from_bytes_be(kf, b) == SP_OK && !sp_fr_is_zero(kf);
}

static int fp_eq_bytes(const sp_fp *a, const sp_fp *b)
{
    uint8_t x[SP_FP_BYTES], y[SP_FP_BYTES];
    sp_fp_to_bytes_be(x, a);
    sp_fp_to_bytes_be(y, b);
    return memcmp(x, y, sizeof x) == 0;
}

static int fr_eq_bytes(const sp_fr *a, const sp_fr *b)
{
    uint8_t x[SP_FR_BYTES], y[SP_FR_BYTES];
    sp_fr_to_bytes_be(x, a);
    sp_fr_to_bytes_be(y, b);
    return memcmp(x, y, sizeof x) == 0;
}

static int fp2_eq_bytes(const sp_fp2 *a, const sp_fp2 *b)
{
    return fp_eq_bytes(&a->c0, &b->c0) && fp_eq_bytes(&a->c1, &b->c1);
}

/* ---- fields --------------------------------------------------------------- */

typedef void (*fp_op2)(sp_fp *, const sp_fp *, const sp_fp *);
typedef void (*fr_op2)(sp_fr *, const sp_fr *, const sp_fr *);

/* f = kind a b want */
static int fp_binary(char **f, fp_op2 op)
{
    sp_fp a, b, want, got;
    if (!parse_fp(&a, f[1]) || !parse_fp(&b, f[2]) || !parse_fp(&want, f[3]))
        return KAT_BAD;
    op(&got, &a, &b);
    return fp_eq_bytes(&got, &want);
}

static int fr_binary(char **f, fr_op2 op)
{
    sp_fr a, b, want, got;
    if (!parse_fr(&a, f[1]) || !parse_fr(&b, f[2]) || !parse_fr(&want, f[3]))
        return KAT_BAD;
    op(&got, &a, &b);
    return fr_eq_bytes(&got, &want);
}

static int kat_fp_add(char **f) { return fp_binary(f, sp_fp_add); }
static int kat_fp_sub(char **f) { return fp_binary(f, sp_fp_sub); }
static int kat_fp_mul(char **f) { return fp_binary(f, sp_fp_mul); }
static int kat_fr_add(char **f) { return fr_binary(f, sp_fr_add); }
static int kat_fr_sub(char **f) { return fr_binary(f, sp_fr_sub); }
static int kat_fr_mul(char **f) { return fr_binary(f, sp_fr_mul); }

static int kat_fp_inv(char **f)
{
    sp_fp a, want, got;
    if (!parse_fp(&a, f[1]) || !parse_fp(&want, f[2]))
        return KAT_BAD;
    sp_fp_inv(&got, &a);
    return fp_eq_bytes(&got, &want);
}

static int kat_fr_inv(char **f)
{
    sp_fr a, want, got;
    if (!parse_fr(&a, f[1]) || !parse_fr(&want, f[2]))
        return KAT_BAD;
    sp_fr_inv(&got, &a);
    return fr_eq_bytes(&got, &want);
}

/* Which of the two roots is returned is a convention (encoders fix the sign
 * with a flag bit), so either noble's root or its negation passes. */
static int kat_fp_sqrt(char **f)
{
    sp_fp a, want, neg, got;
    if (!parse_fp(&a, f[1]) || !parse_fp(&want, f[2]))
        return KAT_BAD;
    sp_fp_neg(&neg, &want);
    return sp_fp_sqrt(&got, &a) && (fp_eq_bytes(&got, &want) || fp_eq_bytes(&got, &neg));
}

static int kat_fp_nosqrt(char **f)
{
    sp_fp a, got;
    if (!parse_fp(&a, f[1]))
        return KAT_BAD;
    return sp_fp_sqrt(&got, &a) == 0;
}

static int kat_fp2_mul(char **f)
{
    sp_fp2 a, b, want, got;
    if (!parse_fp2(&a, f[1], f[2]) || !parse_fp2(&b, f[3], f[4]) || !parse_fp2(&want, f[5], f[6]))
        return KAT_BAD;
    sp_fp2_mul(&got, &a, &b);
    return fp2_eq_bytes(&got, &want);
}

static int kat_fp2_inv(char **f)
{
    sp_fp2 a, want, got;
    if (!parse_fp2(&a, f[1], f[2]) || !parse_fp2(&want, f[3], f[4]))
        return KAT_BAD;
    sp_fp2_inv(&got, &a);
    return fp2_eq_bytes(&got, &want);
}

static int kat_fp2_sqrt(char **f)
{
    sp_fp2 a, want, neg, got;
    if (!parse_fp2(&a, f[1], f[2]) || !parse_fp2(&want, f[3], f[4]))
        return KAT_BAD;
    sp_fp2_neg(&neg, &want);
    return sp_fp2_sqrt(&got, &a) && (fp2_eq_bytes(&got, &want) || fp2_eq_bytes(&got, &neg));
}

/* ---- groups --------------------------------------------------------------- */

/* Expected status of each invalid-encoding reason. */
static int invalid_reason(sp_status *st, const char *reason)
{
    static const struct { const char *name; sp_status st; } map[] = {
        {"not_in_subgroup", SP_ERR_NOT_IN_SUBGROUP}, {"not_on_curve", SP_ERR_NOT_ON_CURVE},
        {"no_sqrt", SP_ERR_NO_SQRT},                 {"not_canonical", SP_ERR_NOT_CANONICAL},
        {"bad_flags", SP_ERR_BAD_ENCODING},          {"bad_length", SP_ERR_BAD_ENCODING},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(reason, map[i].name) == 0) {
            *st = map[i].st;
            return 1;
        }
    return 0;
}

/*
 * The file's two point forms, "compressed" (CB bytes) and "uncompressed"
 * (UB bytes): G_enc_c, G_enc_u and G_dec, which picks the form by length
 * (any other length: SP_ERR_BAD_ENCODING).
 */
#if SP_CURVE_BN254
#define KAT_FORMS(G, CB, UB)                                                              \
    static void G##_enc_c(uint8_t *out, const sp_##G##_affine *p) { sp_##G##_to_ark_compressed(out, p); } \
    static void G##_enc_u(uint8_t *out, const sp_##G##_affine *p) { sp_##G##_to_evm(out, p); } \
    static sp_status G##_dec(sp_##G##_affine *r, const uint8_t *in, size_t len, int chk)  \
    {                                                                                     \
        if (len == CB)                                                                    \
            return sp_##G##_from_ark_compressed(r, in, chk);                              \
        return len == UB ? sp_##G##_from_evm(r, in, chk) : SP_ERR_BAD_ENCODING;           \
    }
KAT_FORMS(g1, SP_G1_ARK_COMPRESSED_BYTES, SP_G1_EVM_BYTES)
KAT_FORMS(g2, SP_G2_ARK_COMPRESSED_BYTES, SP_G2_EVM_BYTES)
#define KAT_G1_CB SP_G1_ARK_COMPRESSED_BYTES
#define KAT_G1_UB SP_G1_EVM_BYTES
#define KAT_G2_CB SP_G2_ARK_COMPRESSED_BYTES
#define KAT_G2_UB SP_G2_EVM_BYTES
#else
#define KAT_FORMS(G)                                                                      \
    static void G##_enc_c(uint8_t *out, const sp_##G##_affine *p) { sp_##G##_to_bytes_compressed(out, p); } \
    static void G##_enc_u(uint8_t *out, const sp_##G##_affine *p) { sp_##G##_to_bytes_uncompressed(out, p); } \
    static sp_status G##_dec(sp_##G##_affine *r, const uint8_t *in, size_t len, int chk)  \
    {                                                                                     \
        return sp_##G##_from_bytes(r, in, len, chk);                                      \
    }
KAT_FORMS(g1)
KAT_FORMS(g2)
#define KAT_G1_CB SP_G1_COMPRESSED_BYTES
#define KAT_G1_UB SP_G1_UNCOMPRESSED_BYTES
#define KAT_G2_CB SP_G2_COMPRESSED_BYTES
#define KAT_G2_UB SP_G2_UNCOMPRESSED_BYTES
#endif

/*
 * The group handlers, the same for G1 and G2 (G = g1 or g2; CB and UB the
 * compressed and uncompressed encoding lengths).
 *   G_gen c u        the generator encodes to c and u, which decode to it
 *   G_inf c u        the same for infinity
 *   G_mul k c u      [k]G by mul_var and by the constant-time mul
 *   G_add a b c      [a]G + [b]G by jac_add, jac_add_var, jac_add_affine_var
 *                    and xyzz_add_var
 *   G_invalid why h  h is rejected with the status of why; a
 *                    not_in_subgroup point is accepted without the subgroup
 *                    check, fails both membership tests and re-encodes to h
 */
#define KAT_DEFINE_GROUP(G, CB, UB)                                                       \
    static void G##_to_jac_gen(sp_##G##_jac *r)                                           \
    {                                                                                     \
        sp_##G##_affine g;                                                                \
        sp_##G##_generator(&g);                                                           \
        sp_##G##_jac_from_affine(r, &g);                                                  \
    }                                                                                     \
    /* r = [k]G (k as 4 limbs) by the variable-time multiplication. */                    \
    static void G##_multiple(sp_##G##_affine *r, const uint64_t k[4])                     \
    {                                                                                     \
        sp_##G##_jac g, t;                                                                \
        G##_to_jac_gen(&g);                                                               \
        sp_##G##_mul_var(&t, &g, k, 4);                                                   \
        sp_##G##_jac_to_affine(r, &t);                                                    \
    }                                                                                     \
    /* 1 when p encodes to c and u and both decode (subgroup checked) to p. */            \
    static int G##_encodings_match(const sp_##G##_affine *p, const uint8_t *c,            \
                                   const uint8_t *u)                                      \
    {                                                                                     \
        uint8_t bc[CB], bu[UB];                                                           \
        sp_##G##_affine dc, du;                                                           \
        G##_enc_c(bc, p);                                                                 \
        G##_enc_u(bu, p);                                                                 \
        return memcmp(bc, c, CB) == 0 && memcmp(bu, u, UB) == 0 &&                        \
               G##_dec(&dc, c, CB, 1) == SP_OK && sp_##G##_affine_eq(&dc, p) &&           \
               G##_dec(&du, u, UB, 1) == SP_OK && sp_##G##_affine_eq(&du, p);             \
    }                                                                                     \
    static int kat_##G##_gen(char **f)                                                    \
    {                                                                                     \
        uint8_t c[CB], u[UB];                                                             \
        sp_##G##_affine p;                                                                \
        if (!hex_exact(c, CB, f[1]) || !hex_exact(u, UB, f[2]))                           \
            return KAT_BAD;                                                               \
        sp_##G##_generator(&p);                                                           \
        return G##_encodings_match(&p, c, u);                                             \
    }                                                                                     \
    static int kat_##G##_inf(char **f)                                                    \
    {                                                                                     \
        uint8_t c[CB], u[UB];                                                             \
        sp_##G##_affine p;                                                                \
        if (!hex_exact(c, CB, f[1]) || !hex_exact(u, UB, f[2]))                           \
            return KAT_BAD;                                                               \
        sp_##G##_affine_set_inf(&p);                                                      \
        return G##_encodings_match(&p, c, u);                                             \
    }                                                                                     \
    static int kat_##G##_mul(char **f)                                                    \
    {                                                                                     \
        uint64_t k[4];                                                                    \
        sp_fr kf;                                                                         \
        uint8_t c[CB], u[UB];                                                             \
        if (!parse_scalar(k, &kf, f[1]) || !hex_exact(c, CB, f[2]) || !hex_exact(u, UB, f[3])) \
            return KAT_BAD;                                                               \
        sp_##G##_affine p, pc;                                                            \
        sp_##G##_jac g, t;                                                                \
        G##_multiple(&p, k);                                                              \
        G##_to_jac_gen(&g);                                                               \
        sp_##G##_mul(&t, &g, &kf);                                                        \
        sp_##G##_jac_to_affine(&pc, &t);                                                  \
        return sp_##G##_affine_eq(&pc, &p) && G##_encodings_match(&p, c, u);              \
    }                                                                                     \
    static int G##_compressed_is(const sp_##G##_jac *s, const uint8_t *want)              \
    {                                                                                     \
        sp_##G##_affine a;                                                                \
        uint8_t b[CB];                                                                    \
        sp_##G##_jac_to_affine(&a, s);                                                    \
        G##_enc_c(b, &a);                                                                 \
        return memcmp(b, want, CB) == 0;                                                  \
    }                                                                                     \
    static int kat_##G##_add(char **f)                                                    \
    {                                                                                     \
        uint64_t a[4], b[4];                                                              \
        sp_fr af, bf;                                                                     \
        uint8_t c[CB];                                                                    \
        if (!parse_scalar(a, &af, f[1]) || !parse_scalar(b, &bf, f[2]) || !hex_exact(c, CB, f[3])) \
            return KAT_BAD;                                                               \
        sp_##G##_affine pa, pb;                                                           \
        sp_##G##_jac ja, jb, s;                                                           \
        sp_##G##_xyzz xa, xb, xs;                                                         \
        G##_multiple(&pa, a);                                                             \
        G##_multiple(&pb, b);                                                             \
        sp_##G##_jac_from_affine(&ja, &pa);                                               \
        sp_##G##_jac_from_affine(&jb, &pb);                                               \
        int ok = 1;                                                                       \
        sp_##G##_jac_add(&s, &ja, &jb);                                                   \
        ok &= G##_compressed_is(&s, c);                                                   \
        sp_##G##_jac_add_var(&s, &ja, &jb);                                               \
        ok &= G##_compressed_is(&s, c);                                                   \
        sp_##G##_jac_add_affine_var(&s, &ja, &pb);                                        \
        ok &= G##_compressed_is(&s, c);                                                   \
        sp_##G##_xyzz_from_affine(&xa, &pa);                                              \
        sp_##G##_xyzz_from_affine(&xb, &pb);                                              \
        sp_##G##_xyzz_add_var(&xs, &xa, &xb);                                             \
        sp_##G##_xyzz_to_jac(&s, &xs);                                                    \
        return ok & G##_compressed_is(&s, c);                                             \
    }                                                                                     \
    static int kat_##G##_invalid(char **f)                                                \
    {                                                                                     \
        sp_status want;                                                                   \
        uint8_t in[UB + 1], back[UB];                                                     \
        size_t len;                                                                       \
        sp_##G##_affine p;                                                                \
        if (!invalid_reason(&want, f[1]) || !hex_decode(in, sizeof in, &len, f[2]))       \
            return KAT_BAD;                                                               \
        int ok = G##_dec(&p, in, len, 1) == want;                                         \
        if (want != SP_ERR_NOT_IN_SUBGROUP)                                               \
            return ok;                                                                    \
        if (G##_dec(&p, in, len, 0) != SP_OK || (len != CB && len != UB))                 \
            return KAT_FAIL;                                                              \
        if (len == CB)                                                                    \
            G##_enc_c(back, &p);                                                          \
        else                                                                              \
            G##_enc_u(back, &p);                                                          \
        return ok && memcmp(back, in, len) == 0 && sp_##G##_affine_is_on_curve(&p) &&     \
               !sp_##G##_in_subgroup(&p) && !sp_##G##_in_subgroup_slow(&p);               \
    }

KAT_DEFINE_GROUP(g1, KAT_G1_CB, KAT_G1_UB)
KAT_DEFINE_GROUP(g2, KAT_G2_CB, KAT_G2_UB)

/* Checks one decimal string both ways: parse and compare, print and compare. */
static int dec_matches(const sp_fp *v, const char *s)
{
    sp_fp want;
    char buf[SP_FP_DEC_MAX];
    if (sp_fp_from_str(&want, s) != SP_OK)
        return KAT_BAD;
    return sp_fp_to_dec(buf, sizeof buf, v) == SP_OK && strcmp(buf, s) == 0 && sp_fp_eq(v, &want);
}

static void g1_coords(const sp_fp *c[2], const sp_g1_affine *p)
{
    c[0] = &p->x;
    c[1] = &p->y;
}

static void g2_coords(const sp_fp *c[4], const sp_g2_affine *p)
{
    c[0] = &p->x.c0;
    c[1] = &p->x.c1;
    c[2] = &p->y.c0;
    c[3] = &p->y.c1;
}

/*
 * f = G_dec k <coordinates>: the affine coordinates of [k]G in decimal
 * (x y for g1; x.c0 x.c1 y.c0 y.c1 for g2). Checked coordinate by
 * coordinate, then through the snarkjs JSON form (the same strings with
 * z = 1, or z = 1 + 0u) in both directions. NC coordinates, NJ JSON strings.
 */
#define KAT_DEFINE_DEC(G, NC, NJ)                                                         \
    static int kat_##G##_dec(char **f)                                                    \
    {                                                                                     \
        uint64_t k[4];                                                                    \
        sp_fr kf;                                                                         \
        sp_##G##_affine p, q;                                                             \
        if (!parse_scalar(k, &kf, f[1]))                                                  \
            return KAT_BAD;                                                               \
        G##_multiple(&p, k);                                                              \
        const sp_fp *c[NC];                                                               \
        G##_coords(c, &p);                                                                \
        int ok = 1;                                                                       \
        for (int i = 0; i < NC; i++) {                                                    \
            int m = dec_matches(c[i], f[2 + i]);                                          \
            if (m == KAT_BAD)                                                             \
                return KAT_BAD;                                                           \
            ok &= m;                                                                      \
        }                                                                                 \
        const char *json[NJ];                                                             \
        char out[NJ][SP_FP_DEC_MAX];                                                      \
        for (int i = 0; i < NJ; i++)                                                      \
            json[i] = i < NC ? f[2 + i] : i == NC ? "1" : "0";                            \
        sp_##G##_to_dec(out, &p);                                                         \
        for (int i = 0; i < NJ; i++)                                                      \
            ok &= strcmp(out[i], json[i]) == 0;                                           \
        return ok && sp_##G##_from_dec(&q, json, 1) == SP_OK && sp_##G##_affine_eq(&q, &p); \
    }

KAT_DEFINE_DEC(g1, 2, SP_G1_DEC_STRS)
KAT_DEFINE_DEC(g2, 4, SP_G2_DEC_STRS)

/* ---- pairing -------------------------------------------------------------- */

/* The 12 Fp coordinates of x in the file's order. */
static void fp12_coords(const sp_fp *out[12], const sp_fp12 *x)
{
    const sp_fp6 *h[2] = {&x->c0, &x->c1};
    for (int i = 0; i < 2; i++) {
        const sp_fp2 *c[3] = {&h[i]->c0, &h[i]->c1, &h[i]->c2};
        for (int j = 0; j < 3; j++) {
            out[6 * i + 2 * j] = &c[j]->c0;
            out[6 * i + 2 * j + 1] = &c[j]->c1;
        }
    }
}

/* f = pairing a b <12 fp>: e([a]G1, [b]G2). */
static int kat_pairing(char **f)
{
    uint64_t a[4], b[4];
    sp_fr af, bf;
    sp_fp want[12];
    if (!parse_scalar(a, &af, f[1]) || !parse_scalar(b, &bf, f[2]))
        return KAT_BAD;
    for (int i = 0; i < 12; i++)
        if (!parse_fp(&want[i], f[3 + i]))
            return KAT_BAD;
    sp_g1_affine p;
    sp_g2_affine q;
    sp_fp12 e;
    g1_multiple(&p, a);
    g2_multiple(&q, b);
    sp_pairing(&e, &p, &q);
    const sp_fp *got[12];
    fp12_coords(got, &e);
    int ok = 1;
    for (int i = 0; i < 12; i++)
        ok &= fp_eq_bytes(got[i], &want[i]);
    return ok;
}

/* ---- driver --------------------------------------------------------------- */

static const struct {
    const char *name;
    int fields; /* after the kind */
    int (*fn)(char **f);
} kinds_[] = {
    {"fp_add", 3, kat_fp_add},     {"fp_sub", 3, kat_fp_sub},       {"fp_mul", 3, kat_fp_mul},
    {"fp_inv", 2, kat_fp_inv},     {"fp_sqrt", 2, kat_fp_sqrt},     {"fp_nosqrt", 1, kat_fp_nosqrt},
    {"fr_add", 3, kat_fr_add},     {"fr_sub", 3, kat_fr_sub},       {"fr_mul", 3, kat_fr_mul},
    {"fr_inv", 2, kat_fr_inv},     {"fp2_mul", 6, kat_fp2_mul},     {"fp2_inv", 4, kat_fp2_inv},
    {"fp2_sqrt", 4, kat_fp2_sqrt}, {"g1_gen", 2, kat_g1_gen},       {"g1_inf", 2, kat_g1_inf},
    {"g1_mul", 3, kat_g1_mul},     {"g1_add", 3, kat_g1_add},       {"g1_dec", 3, kat_g1_dec},
    {"g1_invalid", 2, kat_g1_invalid}, {"g2_gen", 2, kat_g2_gen},   {"g2_inf", 2, kat_g2_inf},
    {"g2_mul", 3, kat_g2_mul},     {"g2_add", 3, kat_g2_add},       {"g2_dec", 5, kat_g2_dec},
    {"g2_invalid", 2, kat_g2_invalid}, {"pairing", 14, kat_pairing},
};
_Static_assert(sizeof kinds_ / sizeof kinds_[0] == SP_KAT_KINDS, "SP_KAT_KINDS is the table size");

const char *sp_kat_kind_name(int i)
{
    return i >= 0 && i < SP_KAT_KINDS ? kinds_[i].name : "?";
}

/* Splits line on single spaces into f[]; returns the field count, or -1
 * when there are more than KAT_MAX_FIELDS or an empty field. */
static int split_fields(char **f, char *line)
{
    int n = 0;
    for (char *s = line;;) {
        char *sp = strchr(s, ' ');
        if (n == KAT_MAX_FIELDS || (sp ? sp == s : *s == '\0'))
            return -1;
        f[n++] = s;
        if (!sp)
            return n;
        *sp = '\0';
        s = sp + 1;
    }
}

/* Returns KAT_PASS / KAT_FAIL / KAT_BAD for one line (no newline), and the
 * kind index in *kind (-1 when unknown). */
static int check_line(int *kind, char *line)
{
    char *f[KAT_MAX_FIELDS];
    *kind = -1;
    int n = split_fields(f, line);
    if (n < 1)
        return KAT_BAD;
    for (int i = 0; i < SP_KAT_KINDS; i++)
        if (strcmp(f[0], kinds_[i].name) == 0) {
            *kind = i;
            if (n != kinds_[i].fields + 1)
                return KAT_BAD;
            return kinds_[i].fn(f);
        }
    return KAT_BAD;
}

unsigned long sp_kat_check_file(sp_kat_report *rep, FILE *f, const char *name, FILE *log)
{
    char line[SP_KAT_LINE_MAX];
    memset(rep, 0, sizeof *rep);
    while (fgets(line, sizeof line, f)) {
        rep->lines++;
        size_t len = strlen(line);
        int complete = len > 0 && line[len - 1] == '\n';
        if (!complete && !feof(f)) { /* longer than any valid line */
            rep->bad_lines++;
            if (log)
                fprintf(log, "%s:%lu: line too long\n", name, rep->lines);
            int c;
            while ((c = fgetc(f)) != EOF && c != '\n')
                ;
            continue;
        }
        if (complete)
            line[--len] = '\0';
        if (line[0] == '#')
            continue;
        int kind, r = check_line(&kind, line);
        if (kind >= 0 && r != KAT_BAD) {
            rep->checked[kind]++;
            rep->failed[kind] += r == KAT_FAIL;
        } else {
            rep->bad_lines++;
        }
        if (r != KAT_PASS && log)
            fprintf(log, "%s:%lu: %s: %s\n", name, rep->lines, kind >= 0 ? kinds_[kind].name : "?",
                    r == KAT_FAIL ? "wrong answer" : "unknown kind or malformed line");
    }
    if (ferror(f)) {
        rep->bad_lines++;
        if (log)
            fprintf(log, "%s: read error\n", name);
    }
    unsigned long bad = rep->bad_lines;
    for (int i = 0; i < SP_KAT_KINDS; i++)
        bad += rep->failed[i];
    return bad;
}
