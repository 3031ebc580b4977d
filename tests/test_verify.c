/*
 * The verifier (src/groth16/verify.h) and snarkjs' JSON files
 * (src/groth16/json_io.h).
 *
 * Known answers: proofs snarkjs made and verified (proof.json with random
 * r, s; proof_fixed_rs.json), its verification_key.json and public.json;
 * the writers must reproduce those files byte for byte (vk from the zkey,
 * vk_alphabeta_12 included). Negative cases: every proof coordinate
 * changed, other valid points substituted, A and C swapped, a wrong
 * public input, an input >= r, batches with one bad proof or two bad proofs
 * that cancel under equal weights; damaged JSON of every kind.
 */
#include <gmp.h>
#include <unistd.h>
#include "test.h"
#include "test_g16.h"
#include "groth16/json_io.h"
#include "groth16/verify.h"
#include "groth16/zkey.h"

static const char *names[] = {SP_TEST_VEC_DIR("multiplier"), SP_TEST_VEC_DIR("chain1021")};

/* The curve names of this build in snarkjs' JSON, and of the other curve. */
#define THIS_JSON "\"" SP_CURVE_SNARKJS "\""
#if SP_CURVE_BN254
#define OTHER_MSG "is for bls12-381 but this is the bn254 (bn128) prover"
#define OTHER_NAME "\"BLS12-381\""
#define THIS_SPELLED "\"alt_bn128\""
#else
#define OTHER_MSG "is for bn254 (bn128) but this is the bls12-381 prover"
#define OTHER_NAME "\"alt_bn128\""
#define THIS_SPELLED "\"BLS12-381\""
#endif

/* m (SP_FP_MODULUS or SP_FR_MODULUS) in decimal, for values >= p or r. */
static void modulus_dec(mpz_t out, const uint64_t *m, size_t limbs)
{
    mpz_init(out);
    mpz_import(out, limbs, -1, sizeof *m, 0, 0, m);
}

typedef struct {
    sp_g16_vk vk;
    sp_g16_pvk pvk;
    sp_g16_proof proof[2]; /* proof.json, proof_fixed_rs.json */
    sp_fr *pub;
    size_t n_pub;
} vec;

static char *vec_path(char *buf, size_t n, const char *name, const char *file)
{
    snprintf(buf, n, VEC "%s/%s", name, file);
    return buf;
}

static int load(vec *v, const char *name)
{
    char p[256], err[SP_ERR_LEN];
    size_t n2;
    sp_fr *pub2;
    sp_status st = sp_g16_vk_json_read(&v->vk, vec_path(p, sizeof p, name, "verification_key.json"), 0, err);
    CHECKF(st == SP_OK, "%s", err);
    st = st ? st : sp_g16_pvk_init(&v->pvk, &v->vk, err);
    st = st ? st : sp_g16_proof_json_read(&v->proof[0], vec_path(p, sizeof p, name, "proof.json"), 0, err);
    st = st ? st : sp_g16_proof_json_read(&v->proof[1], vec_path(p, sizeof p, name, "proof_fixed_rs.json"), 0, err);
    st = st ? st : sp_g16_public_json_read(&v->pub, &v->n_pub, vec_path(p, sizeof p, name, "public.json"), err);
    st = st ? st : sp_g16_public_json_read(&pub2, &n2, vec_path(p, sizeof p, name, "public_fixed_rs.json"), err);
    CHECKF(st == SP_OK, "%s: %s", name, err);
    if (st != SP_OK)
        return 0;
    CHECK(n2 == v->n_pub && !memcmp(pub2, v->pub, n2 * sizeof *pub2));
    free(pub2);
    return 1;
}

static void unload(vec *v)
{
    sp_g16_vk_free(&v->vk);
    sp_g16_pvk_free(&v->pvk);
    free(v->pub);
}

static int verify(const vec *v, const sp_g16_proof *p, const sp_fr *pub, size_t n_pub, sp_status *st)
{
    int ok = -1;
    char err[SP_ERR_LEN];
    *st = sp_g16_verify(&ok, &v->pvk, p, pub, n_pub, err);
    CHECK(*st == SP_OK || ok == 0);
    return ok;
}

/* ---- byte-exact writers ---- */

static void same_text(const char *path, sp_status st, char *text, size_t len)
{
    size_t flen;
    uint8_t *file = sp_test_slurp(path, &flen);
    CHECKF(st == SP_OK && file && flen == len && !memcmp(file, text, len), "%s: our text differs", path);
    free(file);
    free(text);
}

static void test_writers(const char *name, const vec *v)
{
    char p[256], err[SP_ERR_LEN], *t;
    size_t n;
    sp_g16_pk pk;
    sp_status st = sp_zkey_read(&pk, NULL, vec_path(p, sizeof p, name, "circuit_final.zkey"), 0, 2, err);
    CHECKF(st == SP_OK, "%s", err);
    if (st == SP_OK) {
        st = sp_g16_vk_json_encode(&t, &n, &pk.vk);
        same_text(vec_path(p, sizeof p, name, "verification_key.json"), st, t, n);
        sp_g16_pk_free(&pk);
    }
    st = sp_g16_proof_json_encode(&t, &n, &v->proof[0]);
    same_text(vec_path(p, sizeof p, name, "proof.json"), st, t, n);
    st = sp_g16_proof_json_encode(&t, &n, &v->proof[1]);
    same_text(vec_path(p, sizeof p, name, "proof_fixed_rs.json"), st, t, n);
    st = sp_g16_public_json_encode(&t, &n, v->pub, v->n_pub);
    same_text(vec_path(p, sizeof p, name, "public.json"), st, t, n);
    /* The file round trip through the path-taking functions. */
    char tmp[64];
    sp_g16_proof back;
    snprintf(tmp, sizeof tmp, "/tmp/sp_test_verify_%d.json", (int)getpid());
    CHECK(sp_g16_proof_json_write(tmp, &v->proof[1], err) == SP_OK);
    CHECK(sp_g16_proof_json_read(&back, tmp, 0, err) == SP_OK && !memcmp(&back, &v->proof[1], sizeof back));
    remove(tmp);
}

/* ---- tampering ---- */

static void add_gen_g1(sp_g1_affine *p)
{
    sp_g1_affine g;
    sp_g1_jac j;
    sp_g1_generator(&g);
    sp_g1_jac_from_affine(&j, p);
    sp_g1_jac_add_affine_var(&j, &j, &g);
    sp_g1_jac_to_affine(p, &j);
}

static void add_gen_g2(sp_g2_affine *p)
{
    sp_g2_affine g;
    sp_g2_jac j;
    sp_g2_generator(&g);
    sp_g2_jac_from_affine(&j, p);
    sp_g2_jac_add_affine_var(&j, &j, &g);
    sp_g2_jac_to_affine(p, &j);
}

static void test_tampered(const vec *v)
{
    sp_status st;
    for (int k = 0; k < 2; k++)
        CHECK(verify(v, &v->proof[k], v->pub, v->n_pub, &st) == 1 && st == SP_OK);
    /* Each coordinate changed: the point leaves the curve. */
    for (int c = 0; c < 8; c++) {
        sp_g16_proof p = v->proof[0];
        sp_fp *coord[8] = {&p.a.x, &p.a.y, &p.b.x.c0, &p.b.x.c1, &p.b.y.c0, &p.b.y.c1, &p.c.x, &p.c.y};
        sp_fp one;
        sp_fp_set_one(&one);
        sp_fp_add(coord[c], coord[c], &one);
        CHECKF(verify(v, &p, v->pub, v->n_pub, &st) == 0 && st == SP_ERR_NOT_ON_CURVE, "coordinate %d", c);
    }
    /* Other valid points. */
    for (int c = 0; c < 6; c++) {
        sp_g16_proof p = v->proof[1];
        if (c == 0)
            add_gen_g1(&p.a);
        if (c == 1)
            add_gen_g2(&p.b);
        if (c == 2)
            add_gen_g1(&p.c);
        if (c == 3) {
            p.a = v->proof[1].c;
            p.c = v->proof[1].a;
        }
        if (c == 4)
            sp_g1_affine_neg(&p.a, &p.a);
        if (c == 5) /* mix two valid proofs */
            p.c = v->proof[0].c;
        CHECKF(verify(v, &p, v->pub, v->n_pub, &st) == 0 && st == SP_OK, "substitution %d", c);
    }
    /* Public inputs: each changed by one; one too few. */
    sp_fr *pub = malloc((v->n_pub + 1) * sizeof *pub);
    for (size_t i = 0; i < v->n_pub; i++) {
        sp_fr one;
        memcpy(pub, v->pub, v->n_pub * sizeof *pub);
        sp_fr_set_one(&one);
        sp_fr_add(&pub[i], &pub[i], &one);
        CHECK(verify(v, &v->proof[0], pub, v->n_pub, &st) == 0 && st == SP_OK);
    }
    CHECK(verify(v, &v->proof[0], v->pub, v->n_pub - 1, &st) == 0 && st == SP_ERR_INVALID_ARG);
    free(pub);
    sp_g16_proof p = v->proof[0];
#if !SP_CURVE_BN254 /* BN254's G1 has cofactor 1: every curve point is in the group */
    tg_g1_outside_subgroup(&p.c);
    CHECK(verify(v, &p, v->pub, v->n_pub, &st) == 0 && st == SP_ERR_NOT_IN_SUBGROUP);
    p = v->proof[0];
#endif
    tg_g2_outside_subgroup(&p.b);
    CHECK(verify(v, &p, v->pub, v->n_pub, &st) == 0 && st == SP_ERR_NOT_IN_SUBGROUP);
}

/* Public input w + r in public.json: refused when read. */
static void test_public_plus_r(const vec *v)
{
    char dec[SP_FR_DEC_MAX], text[400], err[SP_ERR_LEN];
    mpz_t x, r;
    sp_fr_to_dec(dec, sizeof dec, &v->pub[0]);
    mpz_init_set_str(x, dec, 10);
    modulus_dec(r, SP_FR_MODULUS, SP_FR_LIMBS);
    mpz_add(x, x, r);
    gmp_snprintf(text, sizeof text, "[\n \"%Zd\"\n]", x);
    sp_fr *pub;
    size_t n;
    sp_status st = sp_g16_public_json_decode(&pub, &n, text, strlen(text), err);
    CHECKF(st == SP_ERR_NOT_CANONICAL && strstr(err, "[0] (byte 3): value >= r"), "%s", err);
    CHECK(pub == NULL && n == 0);
    mpz_clears(x, r, NULL);
}

/* A valid proof for the same statement: A/t, t B + t u delta2, C + u A. */
static void rerandomize(sp_g16_proof *out, const sp_g16_proof *in, const sp_g16_vk *vk, sp_rng *rng)
{
    sp_fr t, ti, u, tu;
    sp_g1_jac a, c, ua;
    sp_g2_jac b, d;
    sp_fr_random(&t, rng);
    sp_fr_random(&u, rng);
    sp_fr_inv(&ti, &t);
    sp_fr_mul(&tu, &t, &u);
    sp_g1_jac_from_affine(&a, &in->a);
    sp_g1_mul(&ua, &a, &u);
    sp_g1_mul(&a, &a, &ti);
    sp_g1_jac_from_affine(&c, &in->c);
    sp_g1_jac_add(&c, &c, &ua);
    sp_g2_jac_from_affine(&b, &in->b);
    sp_g2_mul(&b, &b, &t);
    sp_g2_jac_from_affine(&d, &vk->delta2);
    sp_g2_mul(&d, &d, &tu);
    sp_g2_jac_add(&b, &b, &d);
    sp_g1_jac_to_affine(&out->a, &a);
    sp_g2_jac_to_affine(&out->b, &b);
    sp_g1_jac_to_affine(&out->c, &c);
}

static void test_batch(const vec *v, sp_rng *rng)
{
    enum { N = 6 };
    sp_g16_proof p[N];
    sp_fr *pub = malloc(N * (v->n_pub + 1) * sizeof *pub);
    char err[SP_ERR_LEN];
    sp_status st;
    int ok;
    for (int k = 0; k < N; k++) {
        rerandomize(&p[k], &v->proof[k & 1], &v->vk, rng);
        memcpy(pub + k * v->n_pub, v->pub, v->n_pub * sizeof *pub);
        CHECK(verify(v, &p[k], v->pub, v->n_pub, &st) == 1);
    }
    CHECK(sp_g16_verify_batch(&ok, &v->pvk, p, N, pub, v->n_pub, err) == SP_OK && ok == 1);
    CHECK(sp_g16_verify_batch(&ok, &v->pvk, p, 0, pub, v->n_pub, err) == SP_OK && ok == 1);
    CHECK(sp_g16_verify_batch(&ok, &v->pvk, p, 1, pub, v->n_pub, err) == SP_OK && ok == 1);
    sp_g1_affine save = p[3].c;
    add_gen_g1(&p[3].c);
    CHECK(sp_g16_verify_batch(&ok, &v->pvk, p, N, pub, v->n_pub, err) == SP_OK && ok == 0);
    /* C_2 + G and C_3 - G cancel when both weights are equal: the random
     * weights must still catch them. */
    sp_g1_affine g;
    sp_g1_generator(&g);
    sp_g1_affine_neg(&g, &g);
    sp_g1_jac j;
    sp_g1_jac_from_affine(&j, &save);
    sp_g1_jac_add_affine_var(&j, &j, &g);
    sp_g1_jac_to_affine(&p[3].c, &j);
    add_gen_g1(&p[2].c);
    CHECK(sp_g16_verify_batch(&ok, &v->pvk, p, N, pub, v->n_pub, err) == SP_OK && ok == 0);
    p[3].c = save;
    sp_g1_affine_neg(&g, &g);
    sp_g1_jac_from_affine(&j, &p[2].c);
    sp_g1_affine_neg(&g, &g);
    sp_g1_jac_add_affine_var(&j, &j, &g);
    sp_g1_jac_to_affine(&p[2].c, &j);
    CHECK(sp_g16_verify_batch(&ok, &v->pvk, p, N, pub, v->n_pub, err) == SP_OK && ok == 1);
    /* A wrong public input in one row. */
    sp_fr one;
    sp_fr_set_one(&one);
    sp_fr_add(&pub[4 * v->n_pub], &pub[4 * v->n_pub], &one);
    CHECK(sp_g16_verify_batch(&ok, &v->pvk, p, N, pub, v->n_pub, err) == SP_OK && ok == 0);
    sp_fr_sub(&pub[4 * v->n_pub], &pub[4 * v->n_pub], &one);
    /* Malformed: a point off the curve, named by index. */
    sp_fp_add(&p[5].a.y, &p[5].a.y, (const sp_fp *)&p[5].a.x);
    st = sp_g16_verify_batch(&ok, &v->pvk, p, N, pub, v->n_pub, err);
    CHECKF(st == SP_ERR_NOT_ON_CURVE && ok == 0 && !strcmp(err, "proof 5: A: not on the curve"), "%s", err);
    CHECK(sp_g16_verify_batch(&ok, &v->pvk, p, N, pub, v->n_pub + 1, err) == SP_ERR_INVALID_ARG);
    free(pub);
}

/* ---- damaged JSON ---- */

/* text with the first occurrence of `from` replaced by `to` (caller frees). */
static char *replace(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    CHECKF(at != NULL, "test bug: \"%s\" not found", from);
    if (!at)
        return strdup(text);
    size_t n = strlen(text) - strlen(from) + strlen(to);
    char *o = malloc(n + 1);
    memcpy(o, text, (size_t)(at - text));
    strcpy(o + (at - text), to);
    strcat(o, at + strlen(from));
    return o;
}

static void expect_vk(char *text, unsigned flags, sp_status want, const char *msg)
{
    char err[SP_ERR_LEN] = "";
    sp_g16_vk vk;
    sp_status st = sp_g16_vk_json_decode(&vk, text, strlen(text), flags, err);
    CHECKF(st == want, "status %d (%s), want %d", st, err, want);
    if (msg)
        CHECKF(strstr(err, msg) != NULL, "message \"%s\" lacks \"%s\"", err, msg);
    CHECK(st == SP_OK || vk.ic == NULL);
    sp_g16_vk_free(&vk);
    free(text);
}

static void test_vk_json(const char *vk_text, sp_rng *rng)
{
    char dec[2][SP_FP_DEC_MAX], p_dec[SP_FP_DEC_MAX] = "", alpha_x[SP_FP_DEC_MAX + 2] = "", want[80];
    /* vk_alpha_1's array and its first coordinate, where the messages point */
    const char *arr = strchr(strstr(vk_text, "\"vk_alpha_1\""), '['), *q = strchr(arr, '"');
    size_t at_arr = (size_t)(arr - vk_text), at_x = (size_t)(q - vk_text);
    snprintf(alpha_x, sizeof alpha_x, "%.*s", (int)(strchr(q + 1, '"') - q + 1), q);
    expect_vk(strdup(vk_text), 0, SP_OK, NULL);
    expect_vk(replace(vk_text, THIS_JSON, THIS_SPELLED), 0, SP_OK, NULL);
    expect_vk(replace(vk_text, THIS_JSON, "\"bls12377\""), 0, SP_ERR_UNSUPPORTED, "unknown curve \"bls12377\"");
    expect_vk(replace(vk_text, THIS_JSON, OTHER_NAME), 0, SP_ERR_UNSUPPORTED, OTHER_MSG);
    expect_vk(replace(vk_text, "\"groth16\"", "\"plonk\""), 0, SP_ERR_UNSUPPORTED, "protocol \"plonk\" is not groth16");
    expect_vk(replace(vk_text, "\"protocol\"", "\"protocolx\""), 0, SP_ERR_BAD_ENCODING, "protocol missing");
    expect_vk(replace(vk_text, "\"nPublic\": 1", "\"nPublic\": 2"), 0, SP_ERR_BAD_ENCODING, "IC (byte ");
    expect_vk(replace(vk_text, "\"nPublic\": 1", "\"nPublic\": -1"), 0, SP_ERR_BAD_ENCODING, "nPublic (byte ");
    snprintf(want, sizeof want, "vk_alpha_1 (byte %zu): z must be 1", at_arr);
    expect_vk(replace(vk_text, "\"1\"\n ],\n \"vk_beta_2\"", "\"2\"\n ],\n \"vk_beta_2\""), 0, SP_ERR_BAD_ENCODING,
              want);
    /* x = p */
    mpz_t pm;
    modulus_dec(pm, SP_FP_MODULUS, SP_FP_LIMBS);
    gmp_snprintf(p_dec, sizeof p_dec, "\"%Zd\"", pm);
    mpz_clear(pm);
    snprintf(want, sizeof want, "vk_alpha_1[0] (byte %zu): value >= p", at_x);
    expect_vk(replace(vk_text, alpha_x, p_dec), 0, SP_ERR_NOT_CANONICAL, want);
    snprintf(want, sizeof want, "vk_alpha_1 (byte %zu): not on the curve", at_arr);
    expect_vk(replace(vk_text, alpha_x, "\"0x0d3c0b4e\""), 0, SP_ERR_NOT_ON_CURVE, want);
    expect_vk(replace(vk_text, alpha_x, "\"12x\""), 0, SP_ERR_BAD_ENCODING, "not a decimal or 0x-hex number");
    expect_vk(replace(vk_text, alpha_x, "12"), 0, SP_ERR_NOT_ON_CURVE, NULL); /* bare integers are numbers too */
    expect_vk(replace(vk_text, alpha_x, "1.5"), 0, SP_ERR_BAD_ENCODING, "expected a number string, found number");
#if !SP_CURVE_BN254 /* BN254's G1 has cofactor 1: every curve point is in the group */
    /* A point on the curve outside the subgroup, in IC[0]. */
    sp_g1_affine bad;
    tg_g1_outside_subgroup(&bad);
    sp_fp_to_dec(dec[0], sizeof dec[0], &bad.x);
    sp_fp_to_dec(dec[1], sizeof dec[1], &bad.y);
    const char *ic = strstr(vk_text, "\"IC\"");
    const char *q1 = strchr(strchr(ic, '[') + 1, '"'), *q2 = strchr(q1 + 1, '"');
    const char *q3 = strchr(q2 + 1, '"'), *q4 = strchr(q3 + 1, '"');
    char old[300], repl[300];
    snprintf(old, sizeof old, "%.*s", (int)(q4 - q1 + 1), q1);
    snprintf(repl, sizeof repl, "\"%s\",\n   \"%s\"", dec[0], dec[1]);
    expect_vk(replace(vk_text, old, repl), 0, SP_ERR_NOT_IN_SUBGROUP, "IC[0] (byte");
    expect_vk(replace(vk_text, old, repl), SP_G16_SKIP_SUBGROUP_CHECK, SP_OK, NULL);
#else
    (void)dec;
#endif
    /* Every truncation, and random flips: errors, never crashes. */
    size_t len = strlen(vk_text);
    char err[SP_ERR_LEN];
    for (size_t cut = 0; cut < len; cut += 1) {
        sp_g16_vk vk;
        CHECKF(sp_g16_vk_json_decode(&vk, vk_text, cut, SP_G16_SKIP_SUBGROUP_CHECK, err) != SP_OK, "cut %zu", cut);
    }
    char *m = strdup(vk_text);
    for (int it = 0; it < sp_test_iters(200); it++) {
        sp_g16_vk vk;
        strcpy(m, vk_text);
        m[sp_rng_u64(rng) % len] ^= (char)(1u << (sp_rng_u64(rng) % 7));
        if (sp_g16_vk_json_decode(&vk, m, len, 0, err) == SP_OK)
            sp_g16_vk_free(&vk);
    }
    free(m);
}

static void test_proof_and_public_json(const vec *v)
{
    char p[256], err[SP_ERR_LEN], *t;
    size_t n;
    sp_g16_proof proof;
    /* The other curve's files: refused, naming both curves. */
    sp_status st = sp_g16_proof_json_read(&proof, vec_path(p, sizeof p, SP_TEST_VEC_OTHER("multiplier"), "proof.json"),
                                          0, err);
    CHECKF(st == SP_ERR_UNSUPPORTED && strstr(err, "proof.json: proof " OTHER_MSG), "%s", err);
    sp_g16_vk vk;
    st = sp_g16_vk_json_read(&vk, vec_path(p, sizeof p, SP_TEST_VEC_OTHER("multiplier"), "verification_key.json"), 0,
                             err);
    CHECKF(st == SP_ERR_UNSUPPORTED && strstr(err, OTHER_MSG), "%s", err);
    CHECK(sp_g16_proof_json_read(&proof, "/nonexistent/proof.json", 0, err) == SP_ERR_IO);

    /* Infinity A, written and read the snarkjs way; the proof is then invalid. */
    sp_g16_proof inf = v->proof[0];
    sp_g1_affine_set_inf(&inf.a);
    CHECK(sp_g16_proof_json_encode(&t, &n, &inf) == SP_OK && strstr(t, "\"pi_a\": [\n  \"0\",\n  \"1\",\n  \"0\"\n ]"));
    CHECK(sp_g16_proof_json_decode(&proof, t, n, 0, err) == SP_OK && sp_g1_affine_is_inf(&proof.a));
    int ok = -1;
    CHECK(sp_g16_verify(&ok, &v->pvk, &proof, v->pub, v->n_pub, err) == SP_OK && ok == 0);
    for (size_t cut = 0; cut < n; cut++)
        CHECK(sp_g16_proof_json_decode(&proof, t, cut, 0, err) != SP_OK);
    free(t);

    sp_fr *pub;
    const char *good = "[\"0x21\", 5, \"0\"]";
    CHECK(sp_g16_public_json_decode(&pub, &n, good, strlen(good), err) == SP_OK && n == 3);
    if (n == 3) {
        sp_fr x;
        sp_fr_set_u64(&x, 33);
        CHECK(sp_fr_eq(&pub[0], &x));
        sp_fr_set_u64(&x, 5);
        CHECK(sp_fr_eq(&pub[1], &x) && sp_fr_is_zero(&pub[2]));
    }
    free(pub);
    static const struct { const char *text; const char *msg; } bad[] = {
        {"[[1]]", "public inputs: [0] (byte 1): expected a number string, found array"},
        {"{}", "public inputs: the file holds an object, expected an array"},
        {"[\"-1\"]", "public inputs: [0] (byte 1): not a decimal or 0x-hex number"},
        {"[\"1\",]", "public inputs: json: byte 5: expected a value, found ']'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        st = sp_g16_public_json_decode(&pub, &n, bad[i].text, strlen(bad[i].text), err);
        CHECKF(st != SP_OK && pub == NULL && !strcmp(err, bad[i].msg), "%s: \"%s\"", bad[i].text, err);
    }
    CHECK(sp_g16_public_json_decode(&pub, &n, "[]", 2, err) == SP_OK && pub && n == 0);
    free(pub);
    CHECK(sp_g16_public_json_encode(&t, &n, NULL, 0) == SP_OK && !strcmp(t, "[\n]"));
    free(t);
}

static void test_json_errors(const vec *v, sp_rng *rng)
{
    size_t len;
    char *vk_text = (char *)sp_test_slurp(VEC SP_TEST_VEC_DIR("multiplier") "/verification_key.json", &len);
    CHECK(vk_text != NULL);
    if (vk_text)
        test_vk_json(vk_text, rng);
    free(vk_text);
    test_proof_and_public_json(v);
    sp_g16_vk bad;
    sp_g16_pvk pvk;
    char err[SP_ERR_LEN];
    CHECK(sp_g16_vk_copy(&bad, &v->vk) == SP_OK);
    sp_fp_add(&bad.alpha1.y, &bad.alpha1.y, &bad.alpha1.x);
    CHECK(sp_g16_pvk_init(&pvk, &bad, err) == SP_ERR_NOT_ON_CURVE && strstr(err, "alpha1") && pvk.ic == NULL);
    sp_g16_vk_free(&bad);
}

int main(void)
{
    sp_rng rng;
    sp_test_begin("test_verify", &rng);
    for (size_t i = 0; i < 2; i++) {
        vec v;
        memset(&v, 0, sizeof v);
        if (!load(&v, names[i]))
            continue;
        test_writers(names[i], &v);
        test_tampered(&v);
        test_public_plus_r(&v);
        test_batch(&v, &rng);
        if (i == 0)
            test_json_errors(&v, &rng);
        unload(&v);
    }
    return sp_test_done();
}
