/*
 * Point encodings (src/curve/encode.h) of the build's curve.
 *
 * Known answers: for BLS12-381 the zcash serializations of the generators
 * (published in the zcash / IETF pairing-friendly-curves specifications),
 * for BN254 the EVM encodings of the generators (EIP-196, EIP-197); the
 * snarkjs key multiplier_<curve>/circuit_final.zkey against the decimal
 * verification_key.json that snarkjs exported from it, and proof.json.
 * Then: round trips of random points in every form of the curve, every
 * malformed case with its status, non-squares checked by GMP's Legendre
 * symbol, and random bit flips (a decoder that accepts must have been
 * given the canonical encoding of what it returned).
 *
 * Like test_curve.c, this file includes itself once per group; BN254's G1
 * has cofactor 1 (no point outside the group: COFACTOR_ONE).
 */
#ifndef ENCODE_TEST_GROUP
#include <gmp.h>
#include <string.h>
#include "curve/encode.h"
#include "curve/names.h"
#include "test.h"
#include "test_g16.h" /* file, container and JSON helpers */

#if SP_CURVE_BN254
#define MUL VEC "multiplier_bn128/"
#define P_HEX "30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47"
#else
#define MUL VEC "multiplier_bls12381/"
#define P_HEX "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab"
#endif

static mpz_t P;

static size_t hex_to_bytes(uint8_t *out, size_t max, const char *hex)
{
    size_t n = strlen(hex) / 2;
    for (size_t i = 0; i < n && i < max; i++) {
        unsigned v;
        sscanf(hex + 2 * i, "%2x", &v);
        out[i] = (uint8_t)v;
    }
    return n;
}

/* 1 when the Fp element a is a square (a = 0 included), by GMP. */
static int gmp_fp_is_square(const sp_fp *a)
{
    uint64_t l[SP_FP_LIMBS];
    mpz_t v;
    mpz_init(v);
    sp_fp_to_canonical(l, a);
    mpz_import(v, SP_FP_LIMBS, -1, 8, 0, 0, l);
    int sq = mpz_legendre(v, P) >= 0;
    mpz_clear(v);
    return sq;
}

/* a in Fp2 is a square iff its norm a0^2 + a1^2 is a square in Fp. */
static int gmp_fp2_is_square(const sp_fp2 *a)
{
    sp_fp n, t;
    sp_fp_sqr(&n, &a->c0);
    sp_fp_sqr(&t, &a->c1);
    sp_fp_add(&n, &n, &t);
    return gmp_fp_is_square(&n);
}

/* The NS decimal strings of a snarkjs JSON point (G1 [x, y, z], G2
 * [[x.c0, x.c1], [y.c0, y.c1], [z.c0, z.c1]]) in our order. Returns 1 when
 * v has that shape. */
static int json_point(const char **out, const sp_json_val *v, int nc)
{
    if (!v || v->type != SP_JSON_ARRAY || v->n != 3)
        return 0;
    for (size_t i = 0; i < 3; i++) {
        const sp_json_val *c = sp_json_at(v, i);
        for (int j = 0; j < nc; j++) {
            const sp_json_val *e = nc == 1 ? c : sp_json_at(c, (size_t)j);
            if (!e || e->type != SP_JSON_STRING)
                return 0;
            out[nc * (int)i + j] = e->text;
        }
    }
    return 1;
}

#define ENCODE_TEST_GROUP
#define G g1
#define FIELD fp
#define NC 1
#if SP_CURVE_BN254
#define COFACTOR_ONE 1
#define GEN_EVM                                                                           \
    "0000000000000000000000000000000000000000000000000000000000000001"                  \
    "0000000000000000000000000000000000000000000000000000000000000002"
#else
#define COFACTOR_ONE 0
#define GEN_COMPRESSED                                                                    \
    "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb"
#define GEN_UNCOMPRESSED                                                                  \
    "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb" \
    "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1"
#endif
#include "test_encode.c"
#undef G
#undef FIELD
#undef NC
#undef COFACTOR_ONE
#undef GEN_COMPRESSED
#undef GEN_UNCOMPRESSED
#undef GEN_EVM
#define G g2
#define FIELD fp2
#define NC 2
#define COFACTOR_ONE 0
#if SP_CURVE_BN254
/* x.c1 | x.c0 | y.c1 | y.c0, EIP-197's generator */
#define GEN_EVM                                                                           \
    "198e9393920d483a7260bfb731fb5d25f1aa493335a9e71297e485b7aef312c2"                  \
    "1800deef121f1e76426a00665e5c4479674322d4f75edadd46debd5cd992f6ed"                  \
    "090689d0585ff075ec9e99ad690c3395bc4b313370b38ef355acdadcd122975b"                  \
    "12c85ea5db8c6deb4aab71808dcb408fe3d1e7690c43d37b4ce6cc0166fa7daa"
#else
#define GEN_COMPRESSED                                                                    \
    "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e" \
    "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"
#define GEN_UNCOMPRESSED                                                                  \
    "13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e" \
    "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8" \
    "0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be" \
    "0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801"
#endif
#include "test_encode.c"

/*
 * The zkey header points against verification_key.json: iden3 binfile
 * ("zkey", version, section count, then (u32 id, u64 size, payload)),
 * section 2 = n8q, q, n8r, r, nVars, nPublic, domainSize, alpha1, beta1,
 * beta2, gamma2, delta1, delta2; section 3 = IC.
 */
static void test_zkey_vk(void)
{
    size_t zlen = 0;
    uint8_t *z = sp_test_slurp(MUL "circuit_final.zkey", &zlen);
    sp_json_doc *vkd = tg_json_file(MUL "verification_key.json");
    sp_json_doc *prd = tg_json_file(MUL "proof.json");
    CHECKF(z && vkd && prd, "cannot read %s (run from the repository root)", MUL);
    if (!z || !vkd || !prd)
        goto out;
    const sp_json_val *vk = sp_json_root(vkd), *proof = sp_json_root(prd);
    tg_section sec[16];
    int nsec = tg_sections(sec, 16, z, zlen);
    const tg_section *s2 = tg_find(sec, nsec, 2), *s3 = tg_find(sec, nsec, 3);
    const size_t g1b = SP_G1_SNARKJS_BYTES, g2b = SP_G2_SNARKJS_BYTES;
    const size_t hdr_bytes = 4 + SP_FP_BYTES + 4 + 32 + 12 + 3 * g1b + 3 * g2b; /* 964 BLS, 660 BN */
    CHECK(memcmp(z, "zkey", 4) == 0 && s2 && s3 && s2->size == hdr_bytes);
    if (!s2 || !s3 || s2->size != hdr_bytes)
        goto out;
    const uint8_t *hdr = z + s2->off, *ic = z + s3->off;
    uint8_t q[SP_FP_BYTES];
    for (int i = 0; i < SP_FP_BYTES; i++)
        q[i] = (uint8_t)(SP_FP_MODULUS[i / 8] >> (8 * (i % 8)));
    const uint8_t *h = hdr + 4 + SP_FP_BYTES; /* n8r */
    CHECK(tg_le32(hdr) == SP_FP_BYTES && memcmp(hdr + 4, q, SP_FP_BYTES) == 0 && tg_le32(h) == 32);
    uint32_t npub = tg_le32(h + 40);
    const uint8_t *pts = h + 48; /* alpha1 */
    test_vk_g1(pts, sp_json_get(vk, "vk_alpha_1"));
    test_vk_g1(pts + g1b, NULL); /* beta1: not in the JSON; valid */
    test_vk_g2(pts + 2 * g1b, sp_json_get(vk, "vk_beta_2"));
    test_vk_g2(pts + 2 * g1b + g2b, sp_json_get(vk, "vk_gamma_2"));
    test_vk_g1(pts + 2 * g1b + 2 * g2b, NULL); /* delta1 */
    test_vk_g2(pts + 3 * g1b + 2 * g2b, sp_json_get(vk, "vk_delta_2"));
    /* gamma2 is the generator (snarkjs uses gamma = 1). */
    sp_g2_affine g, gamma;
    sp_g2_generator(&g);
    CHECK(sp_g2_from_snarkjs(&gamma, pts + 2 * g1b + g2b, 1) == SP_OK && sp_g2_affine_eq(&gamma, &g));
    /* IC: npub + 1 points. */
    const sp_json_val *icj = sp_json_get(vk, "IC");
    CHECK(npub == 1 && icj && icj->n == npub + 1 && s3->size == g1b * (npub + 1));
    for (uint32_t i = 0; icj && i < icj->n && g1b * (i + 1) <= s3->size; i++)
        test_vk_g1(ic + g1b * i, sp_json_at(icj, i));
    /* The proof: three valid points. */
    test_proof_g1(sp_json_get(proof, "pi_a"));
    test_proof_g2(sp_json_get(proof, "pi_b"));
    test_proof_g1(sp_json_get(proof, "pi_c"));
out:
    free(z);
    if (vkd)
        sp_json_free(vkd);
    if (prd)
        sp_json_free(prd);
}

int main(void)
{
    sp_rng rng;
    sp_test_begin("test_encode", &rng);
    mpz_init_set_str(P, P_HEX, 16);
    test_group_g1(&rng);
    test_group_g2(&rng);
    test_zkey_vk();
    mpz_clear(P);
    return sp_test_done();
}

#else /* ---- per-group tests ---- */

#define TN(name) SP_CAT(name, SP_CAT(_, G)) /* test function names */
#define CB (NC * SP_FP_BYTES) /* one coordinate */
#define NS (3 * NC)           /* decimal strings per point */

static int TN(is_square)(const FE *a)
{
#if NC == 1
    return gmp_fp_is_square(a);
#else
    return gmp_fp2_is_square(a);
#endif
}

static void TN(random_sub)(AFF *r, sp_rng *rng)
{
    uint64_t k[SP_FR_LIMBS];
    sp_fr s;
    JAC t;
    sp_fr_random(&s, rng);
    sp_fr_to_canonical(k, &s);
    FN(generator)(r);
    FN(jac_from_affine)(&t, r);
    FN(mul_var)(&t, &t, k, SP_FR_LIMBS);
    FN(jac_to_affine)(r, &t);
}

#if !COFACTOR_ONE
/* A random curve point outside the subgroup: random x until x^3 + b has a
 * root, either root, until the point is outside. */
static void TN(random_outside)(AFF *r, sp_rng *rng)
{
    for (;;) {
        FE rhs;
        FEF(random)(&r->x, rng);
        FN(curve_rhs)(&rhs, &r->x);
        if (!FEF(sqrt)(&r->y, &rhs))
            continue;
        if (sp_rng_u64(rng) & 1)
            FEF(neg)(&r->y, &r->y);
        if (!FN(in_subgroup_slow)(r))
            return;
    }
}
#endif

/* Writes l (canonical limbs) big-endian at out. */
static void TN(put_be)(uint8_t *out, const uint64_t *l)
{
    for (int i = 0; i < SP_FP_LIMBS; i++)
        for (int k = 0; k < 8; k++)
            out[(SP_FP_LIMBS - 1 - i) * 8 + k] = (uint8_t)(l[i] >> (56 - 8 * k));
}

#if SP_CURVE_BN254
/* ---- BN254: the EVM and arkworks forms ---- */

/* Writes l (canonical limbs) little-endian at out. */
static void TN(put_le)(uint8_t *out, const uint64_t *l)
{
    for (int i = 0; i < SP_FP_LIMBS; i++)
        for (int k = 0; k < 8; k++)
            out[8 * i + k] = (uint8_t)(l[i] >> (8 * k));
}

static void TN(test_known)(void)
{
    uint8_t want[2 * CB], got[2 * CB];
    AFF g, d, inf;
    FN(generator)(&g);
    CHECK(hex_to_bytes(want, sizeof want, GEN_EVM) == 2 * CB);
    FN(to_evm)(got, &g);
    CHECK(memcmp(got, want, 2 * CB) == 0);
    CHECK(FN(from_evm)(&d, want, 1) == SP_OK && FN(affine_eq)(&d, &g));
    /* arkworks: x little-endian (c0 then c1), the y flag in the last byte. */
    uint8_t ark[CB];
    for (int j = 0; j < NC; j++) /* component j of x: EVM bytes [CB - 32 (j + 1), CB - 32 j), reversed */
        for (int k = 0; k < SP_FP_BYTES; k++)
            ark[SP_FP_BYTES * j + k] = want[CB - SP_FP_BYTES * j - 1 - k];
    if (FEF(is_lexicographically_largest)(&g.y))
        ark[CB - 1] |= 0x80;
    FN(to_ark_compressed)(got, &g);
    CHECK(memcmp(got, ark, CB) == 0);
    CHECK(FN(from_ark_compressed)(&d, got, 1) == SP_OK && FN(affine_eq)(&d, &g));
    /* -G: the other y flag, the same x */
    uint8_t gn[CB];
    FN(affine_neg)(&g, &g);
    FN(to_ark_compressed)(gn, &g);
    CHECK((gn[CB - 1] ^ got[CB - 1]) == 0x80 && memcmp(gn, got, CB - 1) == 0);
    CHECK(FN(from_ark_compressed)(&d, gn, 1) == SP_OK && FN(affine_eq)(&d, &g));
    /* Infinity: all zero in EVM form; 0x40 in the last byte for arkworks. */
    FN(affine_set_inf)(&inf);
    memset(want, 0, sizeof want);
    FN(to_evm)(got, &inf);
    CHECK(memcmp(got, want, 2 * CB) == 0);
    CHECK(FN(from_evm)(&d, want, 1) == SP_OK && FN(affine_is_inf)(&d));
    want[CB - 1] = 0x40;
    FN(to_ark_compressed)(got, &inf);
    CHECK(memcmp(got, want, CB) == 0);
    CHECK(FN(from_ark_compressed)(&d, want, 1) == SP_OK && FN(affine_is_inf)(&d));
}

static void TN(check_bytes_round_trip)(const AFF *p, sp_status want_sub)
{
    uint8_t b[2 * CB];
    AFF d;
    FN(to_evm)(b, p);
    CHECK(FN(from_evm)(&d, b, 0) == SP_OK && FN(affine_eq)(&d, p));
    CHECK(FN(from_evm)(&d, b, 1) == want_sub);
    FN(to_ark_compressed)(b, p);
    CHECK(FN(from_ark_compressed)(&d, b, 0) == SP_OK && FN(affine_eq)(&d, p));
    CHECK(FN(from_ark_compressed)(&d, b, 1) == want_sub);
}

static void TN(test_malformed_bytes)(sp_rng *rng)
{
    uint8_t c[CB], u[2 * CB], x[2 * CB];
    AFF p, d, orig;
    TN(random_sub)(&p, rng);
    FN(to_ark_compressed)(c, &p);
    FN(to_evm)(u, &p);
    orig = d = p;
    /* arkworks flags: both set; infinity with other bits. */
    memcpy(x, c, CB);
    x[CB - 1] |= 0xc0;
    CHECK(FN(from_ark_compressed)(&d, x, 1) == SP_ERR_BAD_ENCODING);
    memset(x, 0, CB);
    x[CB - 1] = 0xc0;
    CHECK(FN(from_ark_compressed)(&d, x, 1) == SP_ERR_BAD_ENCODING);
    x[CB - 1] = 0x41;
    CHECK(FN(from_ark_compressed)(&d, x, 1) == SP_ERR_BAD_ENCODING);
    x[CB - 1] = 0x40;
    x[0] = 1;
    CHECK(FN(from_ark_compressed)(&d, x, 1) == SP_ERR_BAD_ENCODING);
    /* EVM: not all zero and off the curve; (0, 0) itself is inf. */
    memcpy(x, u, 2 * CB);
    x[2 * CB - 1] ^= 1;
    CHECK(FN(from_evm)(&d, x, 1) == SP_ERR_NOT_ON_CURVE);
    memset(x, 0, 2 * CB);
    x[2 * CB - 1] = 1; /* (0, 1) */
    CHECK(FN(from_evm)(&d, x, 1) == SP_ERR_NOT_ON_CURVE);
    CHECK(FN(affine_eq)(&d, &orig)); /* errors leave r alone */
    /* Coordinates >= p: every component in both forms (the arkworks one
     * with and without the y flag, whose bits are not part of x). */
    for (int j = 0; j < NC; j++) {
        for (int k = 0; k < 2; k++) {
            memcpy(x, u, 2 * CB);
            TN(put_be)(x + CB * k + SP_FP_BYTES * j, SP_FP_MODULUS);
            CHECK(FN(from_evm)(&d, x, 1) == SP_ERR_NOT_CANONICAL);
            memset(x + CB * k + SP_FP_BYTES * j, 0xff, SP_FP_BYTES);
            CHECK(FN(from_evm)(&d, x, 1) == SP_ERR_NOT_CANONICAL);
        }
        for (int flag = 0; flag < 2; flag++) {
            memcpy(x, c, CB);
            TN(put_le)(x + SP_FP_BYTES * j, SP_FP_MODULUS);
            x[CB - 1] |= flag ? 0x80 : 0;
            CHECK(FN(from_ark_compressed)(&d, x, 1) == SP_ERR_NOT_CANONICAL);
            memset(x + SP_FP_BYTES * j, 0xff, SP_FP_BYTES);
            if (j == NC - 1)
                x[CB - 1] = flag ? 0xbf : 0x3f; /* 2^254 - 1 under the flags */
            CHECK(FN(from_ark_compressed)(&d, x, 1) == SP_ERR_NOT_CANONICAL);
        }
    }
    /* No square root: x^3 + b a non-square by GMP's Legendre symbol. */
    int seen = 0;
    for (int it = 0; it < 40 && seen < 4; it++) {
        FE xx, rhs;
        FEF(random)(&xx, rng);
        FN(curve_rhs)(&rhs, &xx);
        AFF t;
        t.x = xx;
        FEF(set_one)(&t.y); /* the flag of y = 1: y is not the largest */
        FN(to_ark_compressed)(x, &t);
        sp_status st = FN(from_ark_compressed)(&d, x, 0);
        int sq = TN(is_square)(&rhs);
        CHECKF(sq ? st == SP_OK : st == SP_ERR_NO_SQRT, "square %d status %d", sq, (int)st);
        seen += !sq;
    }
    CHECK(seen > 0);
#if !COFACTOR_ONE
    /* Outside the subgroup: only with the check. */
    TN(random_outside)(&p, rng);
    FN(to_ark_compressed)(c, &p);
    CHECK(FN(from_ark_compressed)(&d, c, 1) == SP_ERR_NOT_IN_SUBGROUP);
    CHECK(FN(from_ark_compressed)(&d, c, 0) == SP_OK && FN(affine_eq)(&d, &p));
    FN(to_evm)(u, &p);
    CHECK(FN(from_evm)(&d, u, 1) == SP_ERR_NOT_IN_SUBGROUP);
    CHECK(FN(from_evm)(&d, u, 0) == SP_OK && FN(affine_eq)(&d, &p));
#endif
}

/* Random bit flips of valid encodings never crash, and whatever decodes
 * re-encodes to the same bytes (encodings are canonical). */
static void TN(test_flips)(sp_rng *rng)
{
    AFF p, d;
    uint8_t b[2 * CB], e[2 * CB];
    int ok = 0;
    for (int it = 0; it < sp_test_iters(60); it++) {
        int ark = it & 1;
        size_t len = ark ? CB : 2 * CB;
        TN(random_sub)(&p, rng);
        if (it % 7 == 0)
            FN(affine_set_inf)(&p);
        if (ark)
            FN(to_ark_compressed)(b, &p);
        else
            FN(to_evm)(b, &p);
        int flips = 1 + (int)(sp_rng_u64(rng) % 3);
        for (int f = 0; f < flips; f++) {
            uint64_t r = sp_rng_u64(rng);
            size_t pos = (r & 1) ? (ark ? CB - 1 : 0) : (size_t)((r >> 8) % len); /* favour the flags */
            b[pos] ^= (uint8_t)(1u << ((r >> 4) & 7));
        }
        sp_status st = ark ? FN(from_ark_compressed)(&d, b, it & 2) : FN(from_evm)(&d, b, it & 2);
        if (st != SP_OK)
            continue;
        ok++;
        if (ark)
            FN(to_ark_compressed)(e, &d);
        else
            FN(to_evm)(e, &d);
        CHECK(memcmp(e, b, len) == 0);
        CHECK(FN(affine_is_on_curve)(&d));
    }
    CHECK(ok < sp_test_iters(60)); /* the flips did break encodings */
}

#else
/* ---- BLS12-381: the zcash form ---- */

static void TN(test_known)(void)
{
    uint8_t want[2 * CB], got[2 * CB];
    AFF g, d, inf;
    FN(generator)(&g);
    CHECK(hex_to_bytes(want, sizeof want, GEN_COMPRESSED) == CB);
    FN(to_bytes_compressed)(got, &g);
    CHECK(memcmp(got, want, CB) == 0);
    CHECK(FN(from_bytes)(&d, want, CB, 1) == SP_OK && FN(affine_eq)(&d, &g));
    CHECK(hex_to_bytes(want, sizeof want, GEN_UNCOMPRESSED) == 2 * CB);
    FN(to_bytes_uncompressed)(got, &g);
    CHECK(memcmp(got, want, 2 * CB) == 0);
    CHECK(FN(from_bytes)(&d, want, 2 * CB, 1) == SP_OK && FN(affine_eq)(&d, &g));
    /* -G: the same x with the sign flag (the generator's y is the smaller root). */
    FN(affine_neg)(&g, &g);
    FN(to_bytes_compressed)(got, &g);
    hex_to_bytes(want, sizeof want, GEN_COMPRESSED);
    CHECK(got[0] == (want[0] | 0x20) && memcmp(got + 1, want + 1, CB - 1) == 0);
    CHECK(FN(from_bytes)(&d, got, CB, 1) == SP_OK && FN(affine_eq)(&d, &g));
    /* Infinity: 0xc0 / 0x40 then zeros. */
    FN(affine_set_inf)(&inf);
    memset(want, 0, sizeof want);
    want[0] = 0xc0;
    FN(to_bytes_compressed)(got, &inf);
    CHECK(memcmp(got, want, CB) == 0);
    CHECK(FN(from_bytes)(&d, want, CB, 1) == SP_OK && FN(affine_is_inf)(&d));
    want[0] = 0x40;
    FN(to_bytes_uncompressed)(got, &inf);
    CHECK(memcmp(got, want, 2 * CB) == 0);
    CHECK(FN(from_bytes)(&d, want, 2 * CB, 1) == SP_OK && FN(affine_is_inf)(&d));
}

static void TN(check_bytes_round_trip)(const AFF *p, sp_status want_sub)
{
    uint8_t b[2 * CB];
    AFF d;
    FN(to_bytes_compressed)(b, p);
    CHECK(FN(from_bytes)(&d, b, CB, 0) == SP_OK && FN(affine_eq)(&d, p));
    CHECK(FN(from_bytes)(&d, b, CB, 1) == want_sub);
    FN(to_bytes_uncompressed)(b, p);
    CHECK(FN(from_bytes)(&d, b, 2 * CB, 0) == SP_OK && FN(affine_eq)(&d, p));
    CHECK(FN(from_bytes)(&d, b, 2 * CB, 1) == want_sub);
}

static void TN(test_malformed_bytes)(sp_rng *rng)
{
    uint8_t c[CB], u[2 * CB], t[3 * CB];
    AFF p, d, orig;
    TN(random_sub)(&p, rng);
    FN(to_bytes_compressed)(c, &p);
    FN(to_bytes_uncompressed)(u, &p);
    memset(t, 0, sizeof t);
    memcpy(t, u, sizeof u);
    orig = d = p;
    /* Lengths. */
    static const size_t lens[] = {0, 1, CB - 1, CB + 1, 2 * CB - 1, 2 * CB + 1, 3 * CB};
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++)
        CHECK(FN(from_bytes)(&d, t, lens[i], 1) == SP_ERR_BAD_ENCODING);
    /* Flags. */
    uint8_t x[2 * CB];
    memcpy(x, c, CB);
    x[0] &= 0x7f; /* compressed length without the compression flag */
    CHECK(FN(from_bytes)(&d, x, CB, 1) == SP_ERR_BAD_ENCODING);
    memcpy(x, u, 2 * CB);
    x[0] |= 0x80; /* uncompressed length with it */
    CHECK(FN(from_bytes)(&d, x, 2 * CB, 1) == SP_ERR_BAD_ENCODING);
    memcpy(x, u, 2 * CB);
    x[0] |= 0x20; /* sign flag on an uncompressed point */
    CHECK(FN(from_bytes)(&d, x, 2 * CB, 1) == SP_ERR_BAD_ENCODING);
    memset(x, 0, sizeof x);
    x[0] = 0xe0; /* infinity with the sign flag */
    CHECK(FN(from_bytes)(&d, x, CB, 1) == SP_ERR_BAD_ENCODING);
    x[0] = 0xc1; /* infinity with other bits */
    CHECK(FN(from_bytes)(&d, x, CB, 1) == SP_ERR_BAD_ENCODING);
    x[0] = 0xc0;
    x[CB - 1] = 1;
    CHECK(FN(from_bytes)(&d, x, CB, 1) == SP_ERR_BAD_ENCODING);
    x[0] = 0x40;
    x[CB - 1] = 0;
    x[2 * CB - 1] = 1;
    CHECK(FN(from_bytes)(&d, x, 2 * CB, 1) == SP_ERR_BAD_ENCODING);
    x[0] = 0x60; /* uncompressed infinity with the sign flag */
    x[2 * CB - 1] = 0;
    CHECK(FN(from_bytes)(&d, x, 2 * CB, 1) == SP_ERR_BAD_ENCODING);
    memset(x, 0, sizeof x); /* (0, 0) without the infinity flag */
    CHECK(FN(from_bytes)(&d, x, 2 * CB, 1) == SP_ERR_NOT_ON_CURVE);
    CHECK(FN(affine_eq)(&d, &orig)); /* errors leave r alone */
    /* Coordinates >= p, in each component of x, and in y. */
    for (int j = 0; j < NC; j++) {
        memcpy(x, c, CB);
        TN(put_be)(x + SP_FP_BYTES * j, SP_FP_MODULUS);
        x[0] |= 0x80;
        CHECK(FN(from_bytes)(&d, x, CB, 1) == SP_ERR_NOT_CANONICAL);
        memcpy(x, c, CB);
        memset(x + SP_FP_BYTES * j, 0xff, SP_FP_BYTES);
        x[SP_FP_BYTES * j] = 0x1f; /* 2^381 - 1 under the flags */
        x[0] |= 0x80;
        CHECK(FN(from_bytes)(&d, x, CB, 1) == SP_ERR_NOT_CANONICAL);
        memcpy(x, u, 2 * CB);
        TN(put_be)(x + CB + SP_FP_BYTES * j, SP_FP_MODULUS);
        CHECK(FN(from_bytes)(&d, x, 2 * CB, 1) == SP_ERR_NOT_CANONICAL);
    }
    /* Off the curve. */
    memcpy(x, u, 2 * CB);
    x[2 * CB - 1] ^= 1;
    CHECK(FN(from_bytes)(&d, x, 2 * CB, 1) == SP_ERR_NOT_ON_CURVE);
    /* No square root: x^3 + b a non-square by GMP's Legendre symbol. */
    int seen = 0;
    for (int it = 0; it < 40 && seen < 4; it++) {
        sp_rng_bytes(rng, x, CB);
        for (int j = 1; j < NC; j++)
            x[SP_FP_BYTES * j] &= 0x0f; /* every component < 2^380 < p */
        x[0] = (uint8_t)(0x80 | (x[0] & 0x2f));
        FE xx, rhs;
        memcpy(t, x, CB);
        t[0] &= 0x1f;
        sp_status st = FN(from_bytes)(&d, x, CB, 0);
        for (int j = 0; j < NC; j++) /* the same x, independently: c1 | c0 */
            sp_fp_from_bytes_be((j == 0) ? (sp_fp *)&xx + (NC - 1) : (sp_fp *)&xx, t + SP_FP_BYTES * j);
        FN(curve_rhs)(&rhs, &xx);
        int sq = TN(is_square)(&rhs);
        CHECKF(sq ? st == SP_OK : st == SP_ERR_NO_SQRT, "square %d status %d", sq, (int)st);
        seen += !sq;
    }
    CHECK(seen > 0);
    /* Outside the subgroup: only with the check. */
    TN(random_outside)(&p, rng);
    FN(to_bytes_compressed)(c, &p);
    CHECK(FN(from_bytes)(&d, c, CB, 1) == SP_ERR_NOT_IN_SUBGROUP);
    CHECK(FN(from_bytes)(&d, c, CB, 0) == SP_OK && FN(affine_eq)(&d, &p));
}

/* Random bit flips of valid encodings never crash, and whatever decodes
 * re-encodes to the same bytes (encodings are canonical). */
static void TN(test_flips)(sp_rng *rng)
{
    AFF p, d;
    uint8_t b[2 * CB], e[2 * CB];
    int ok = 0;
    for (int it = 0; it < sp_test_iters(60); it++) {
        size_t len = (it & 1) ? CB : 2 * CB;
        TN(random_sub)(&p, rng);
        if (it % 7 == 0)
            FN(affine_set_inf)(&p);
        if (len == CB)
            FN(to_bytes_compressed)(b, &p);
        else
            FN(to_bytes_uncompressed)(b, &p);
        int flips = 1 + (int)(sp_rng_u64(rng) % 3);
        for (int f = 0; f < flips; f++) {
            uint64_t r = sp_rng_u64(rng);
            size_t pos = (r & 1) ? 0 : (size_t)((r >> 8) % len); /* favour the flag byte */
            b[pos] ^= (uint8_t)(1u << ((r >> 4) & 7));
        }
        sp_status st = FN(from_bytes)(&d, b, len, it & 2);
        if (st != SP_OK)
            continue;
        ok++;
        if (len == CB)
            FN(to_bytes_compressed)(e, &d);
        else
            FN(to_bytes_uncompressed)(e, &d);
        CHECK(memcmp(e, b, len) == 0);
        CHECK(FN(affine_is_on_curve)(&d));
    }
    CHECK(ok < sp_test_iters(60)); /* the flips did break encodings */
}

#endif

/* p through every form and back. */
static void TN(check_round_trip)(const AFF *p, int in_sub)
{
    uint8_t b[2 * CB], b2[2 * CB];
    char dec[NS][SP_FP_DEC_MAX];
    const char *in[NS];
    AFF d;
    sp_status want_sub = in_sub ? SP_OK : SP_ERR_NOT_IN_SUBGROUP;
    TN(check_bytes_round_trip)(p, want_sub);
    FN(to_snarkjs)(b, p);
    CHECK(FN(from_snarkjs)(&d, b, 0) == SP_OK && FN(affine_eq)(&d, p));
    CHECK(FN(from_snarkjs)(&d, b, 1) == want_sub);
    FN(to_snarkjs)(b2, &d);
    CHECK(memcmp(b, b2, 2 * CB) == 0);
    FN(to_dec)(dec, p);
    for (int i = 0; i < NS; i++)
        in[i] = dec[i];
    CHECK(FN(from_dec)(&d, in, 0) == SP_OK && FN(affine_eq)(&d, p));
    CHECK(FN(from_dec)(&d, in, 1) == want_sub);
}

static void TN(test_round_trips)(sp_rng *rng)
{
    AFF p;
    for (int it = 0; it < sp_test_iters(6); it++) {
        TN(random_sub)(&p, rng);
        TN(check_round_trip)(&p, 1);
        FN(affine_neg)(&p, &p);
        TN(check_round_trip)(&p, 1);
#if !COFACTOR_ONE
        TN(random_outside)(&p, rng);
        TN(check_round_trip)(&p, 0);
#endif
    }
    FN(affine_set_inf)(&p);
    TN(check_round_trip)(&p, 1);
    uint8_t b[2 * CB];
    char dec[NS][SP_FP_DEC_MAX];
    FN(to_snarkjs)(b, &p);
    int zero = 1;
    for (int i = 0; i < 2 * CB; i++)
        zero &= b[i] == 0;
    CHECK(zero);
    FN(to_dec)(dec, &p); /* "0", "1", "0" with NC components each */
    for (int i = 0; i < NS; i++)
        CHECK(strcmp(dec[i], i == NC ? "1" : "0") == 0);
}

static void TN(test_malformed_other)(sp_rng *rng)
{
    AFF p, d;
    uint8_t b[2 * CB], x[2 * CB];
    TN(random_sub)(&p, rng);
    FN(to_snarkjs)(b, &p);
    /* snarkjs: a stored value >= p in each component; off the curve. */
    for (int j = 0; j < 2 * NC; j++) {
        memcpy(x, b, sizeof x);
        for (int i = 0; i < SP_FP_LIMBS; i++)
            for (int k = 0; k < 8; k++)
                x[SP_FP_BYTES * j + 8 * i + k] = (uint8_t)(SP_FP_MODULUS[i] >> (8 * k));
        CHECK(FN(from_snarkjs)(&d, x, 1) == SP_ERR_NOT_CANONICAL);
    }
    memcpy(x, b, sizeof x);
    x[CB] ^= 1;
    CHECK(FN(from_snarkjs)(&d, x, 1) == SP_ERR_NOT_ON_CURVE);
    memset(x + CB, 0, CB); /* y = 0 with x != 0 */
    CHECK(FN(from_snarkjs)(&d, x, 0) == SP_ERR_NOT_ON_CURVE);
#if !COFACTOR_ONE
    TN(random_outside)(&p, rng);
    FN(to_snarkjs)(b, &p);
    CHECK(FN(from_snarkjs)(&d, b, 1) == SP_ERR_NOT_IN_SUBGROUP);
#endif
    /* Decimal strings. */
    char dec[NS][SP_FP_DEC_MAX];
    const char *in[NS];
    FN(generator)(&p);
    FN(to_dec)(dec, &p);
    for (int i = 0; i < NS; i++)
        in[i] = dec[i];
    CHECK(FN(from_dec)(&d, in, 1) == SP_OK && FN(affine_eq)(&d, &p));
    static const char *bad_chars[] = {"", "12a", "-1", " 1", "0x"};
    for (size_t i = 0; i < sizeof bad_chars / sizeof bad_chars[0]; i++) {
        in[0] = bad_chars[i];
        CHECK(FN(from_dec)(&d, in, 1) == SP_ERR_BAD_ENCODING);
    }
    char pdec[SP_FP_DEC_MAX];
    mpz_get_str(pdec, 10, P);
    in[0] = pdec;
    CHECK(FN(from_dec)(&d, in, 1) == SP_ERR_NOT_CANONICAL);
    in[0] = dec[0];
    in[2 * NC] = "2"; /* z must be 1 (or 0 for inf) */
    CHECK(FN(from_dec)(&d, in, 1) == SP_ERR_BAD_ENCODING);
    in[2 * NC] = "0"; /* z = 0 but x, y are not (0, 1) */
    CHECK(FN(from_dec)(&d, in, 1) == SP_ERR_BAD_ENCODING);
    in[2 * NC] = dec[2 * NC];
    in[NC] = "5"; /* y changed */
    CHECK(FN(from_dec)(&d, in, 1) == SP_ERR_NOT_ON_CURVE);
    for (int i = 0; i < 2 * NC; i++) /* (0, 0, 1) is not inf */
        in[i] = "0";
    CHECK(FN(from_dec)(&d, in, 0) == SP_ERR_NOT_ON_CURVE);
#if !COFACTOR_ONE
    TN(random_outside)(&p, rng);
    FN(to_dec)(dec, &p);
    for (int i = 0; i < NS; i++)
        in[i] = dec[i];
    CHECK(FN(from_dec)(&d, in, 1) == SP_ERR_NOT_IN_SUBGROUP);
    CHECK(FN(from_dec)(&d, in, 0) == SP_OK && FN(affine_eq)(&d, &p));
#endif
}

/* One zkey point: valid, equal to the JSON point v (when given), printed
 * back to the same decimals, and re-encoded to the same bytes. */
static void TN(test_vk)(const uint8_t *bin, const sp_json_val *v)
{
    AFF a, b;
    uint8_t e[2 * CB];
    CHECK(FN(from_snarkjs)(&a, bin, 1) == SP_OK && !FN(affine_is_inf)(&a));
    FN(to_snarkjs)(e, &a);
    CHECK(memcmp(e, bin, 2 * CB) == 0);
    if (!v)
        return;
    const char *in[NS];
    char back[NS][SP_FP_DEC_MAX];
    CHECK(json_point(in, v, NC));
    if (!json_point(in, v, NC))
        return;
    CHECK(FN(from_dec)(&b, in, 1) == SP_OK && FN(affine_eq)(&a, &b));
    FN(to_dec)(back, &a);
    for (int i = 0; i < NS; i++)
        CHECKF(strcmp(back[i], in[i]) == 0, "string %d: %s / %s", i, back[i], in[i]);
}

static void TN(test_proof)(const sp_json_val *v)
{
    const char *in[NS];
    AFF a;
    int ok = json_point(in, v, NC);
    CHECK(ok && FN(from_dec)(&a, in, 1) == SP_OK);
}

static void TN(test_group)(sp_rng *rng)
{
    TN(test_known)();
    TN(test_round_trips)(rng);
    TN(test_malformed_bytes)(rng);
    TN(test_malformed_other)(rng);
    TN(test_flips)(rng);
}

#undef TN
#undef CB
#undef NS
#endif
