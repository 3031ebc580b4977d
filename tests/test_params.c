/*
 * bellperson formats (src/groth16/params.h) and the zcash point codecs
 * under them (src/groth16/pointio.h).
 *
 * Known answers: @noble/curves' encodings of [k]G and its list of invalid
 * encodings (tests/vectors/noble_bls12381.txt), the file layout of
 * cuzk.md section 5 (checked by hand-parsing a written file), and the
 * densities of the circom multiplier circuit (its .r1cs against its
 * snarkjs zkey). The rest is round trips (proof, .vk, .params with dropped
 * points) and damaged files.
 */
#include <unistd.h>
#include "test.h"
#include "test_g16.h"
#include "groth16/params.h"
#include "groth16/pointio.h"
#include "groth16/zkey.h"

static int unhex(uint8_t *out, size_t cap, const char *hex)
{
    size_t n = strlen(hex);
    if (n % 2 || n / 2 > cap)
        return -1;
    for (size_t i = 0; i < n / 2; i++) {
        unsigned v;
        if (sscanf(hex + 2 * i, "%2x", &v) != 1)
            return -1;
        out[i] = (uint8_t)v;
    }
    return (int)(n / 2);
}

/* [k]G for a big-endian hex scalar. */
static void mul_gen(void *out, int g2, const char *khex)
{
    uint8_t kb[32];
    uint64_t k[4] = {0};
    unhex(kb, 32, khex);
    for (int i = 0; i < 32; i++)
        k[(31 - i) / 8] |= (uint64_t)kb[i] << (8 * ((31 - i) % 8));
    if (!g2) {
        sp_g1_affine g;
        sp_g1_jac j;
        sp_g1_generator(&g);
        sp_g1_jac_from_affine(&j, &g);
        sp_g1_mul_var(&j, &j, k, 4);
        sp_g1_jac_to_affine(out, &j);
    } else {
        sp_g2_affine g;
        sp_g2_jac j;
        sp_g2_generator(&g);
        sp_g2_jac_from_affine(&j, &g);
        sp_g2_mul_var(&j, &j, k, 4);
        sp_g2_jac_to_affine(out, &j);
    }
}

static int point_eq(const void *a, const void *b, int g2)
{
    return g2 ? sp_g2_affine_eq(a, b) : sp_g1_affine_eq(a, b);
}

/* Encodes p both ways and decodes comp / uncomp back. */
static void check_known(const char *line, const void *p, int g2, const char *comp, const char *uncomp)
{
    uint8_t want_c[96], want_u[192], got[192];
    sp_g2_affine back;
    int lc = unhex(want_c, sizeof want_c, comp), lu = unhex(want_u, sizeof want_u, uncomp);
    CHECKF(lc == (g2 ? 96 : 48) && lu == (g2 ? 192 : 96), "%s", line);
    sp_pt_encode(got, p, SP_PTF_ZCASH_C, g2);
    CHECKF(!memcmp(got, want_c, (size_t)lc), "compressed encoding: %.60s", line);
    sp_pt_encode(got, p, SP_PTF_ZCASH_U, g2);
    CHECKF(!memcmp(got, want_u, (size_t)lu), "uncompressed encoding: %.60s", line);
    CHECK(sp_pt_decode(&back, want_c, SP_PTF_ZCASH_C, g2, 1, 0) == SP_PT_OK && point_eq(&back, p, g2));
    CHECK(sp_pt_decode(&back, want_u, SP_PTF_ZCASH_U, g2, 1, 0) == SP_PT_OK && point_eq(&back, p, g2));
}

static sp_pt_err expected_err(const char *reason)
{
    static const struct { const char *r; sp_pt_err e; } map[] = {
        {"not_in_subgroup", SP_PT_SUBGROUP}, {"not_on_curve", SP_PT_OFF_CURVE}, {"no_sqrt", SP_PT_NO_SQRT},
        {"not_canonical", SP_PT_RANGE}, {"bad_flags", SP_PT_FLAGS}};
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (!strcmp(reason, map[i].r))
            return map[i].e;
    return SP_PT_OK;
}

static void check_invalid(int g2, const char *reason, const char *hex)
{
    uint8_t b[192];
    sp_g2_affine p;
    int n = unhex(b, sizeof b, hex);
    size_t c = sp_pt_size(SP_PTF_ZCASH_C, g2), u = sp_pt_size(SP_PTF_ZCASH_U, g2);
    if (n != (int)c && n != (int)u)
        return; /* bad_length: our decoders take a fixed size */
    sp_pt_format f = n == (int)c ? SP_PTF_ZCASH_C : SP_PTF_ZCASH_U;
    sp_pt_err want = expected_err(reason), got = sp_pt_decode(&p, b, f, g2, 1, 0);
    CHECKF(got == want, "g%d %s %s: got %s", g2 + 1, reason, f == SP_PTF_ZCASH_C ? "compressed" : "uncompressed",
           sp_pt_err_str(got));
    if (want == SP_PT_SUBGROUP)
        CHECK(sp_pt_decode(&p, b, f, g2, 1, SP_G16_SKIP_SUBGROUP_CHECK) == SP_PT_OK);
}

static void test_noble_encodings(void)
{
    size_t len;
    char *text = (char *)tg_slurp(VEC "noble_bls12381.txt", &len);
    CHECK(text != NULL);
    int known = 0, invalid = 0;
    for (char *line = text ? strtok(text, "\n") : NULL; line; line = strtok(NULL, "\n")) {
        char kind[32], a[400], b[400], c[400];
        int nf = sscanf(line, "%31s %399s %399s %399s", kind, a, b, c);
        int g2 = kind[1] == '2';
        sp_g2_affine p;
        if ((!strcmp(kind, "g1_gen") || !strcmp(kind, "g2_gen")) && nf == 3) {
            if (g2)
                sp_g2_generator(&p);
            else
                sp_g1_generator((sp_g1_affine *)&p);
            check_known(line, &p, g2, a, b);
            known++;
        } else if ((!strcmp(kind, "g1_inf") || !strcmp(kind, "g2_inf")) && nf == 3) {
            memset(&p, 0, sizeof p);
            check_known(line, &p, g2, a, b);
            known++;
        } else if ((!strcmp(kind, "g1_mul") || !strcmp(kind, "g2_mul")) && nf == 4) {
            mul_gen(&p, g2, a);
            check_known(line, &p, g2, b, c);
            known++;
        } else if ((!strcmp(kind, "g1_invalid") || !strcmp(kind, "g2_invalid")) && nf == 3) {
            check_invalid(g2, a, b);
            invalid++;
        }
    }
    CHECK(known >= 40 && invalid >= 40);
    free(text);
}

/* ---- the proof ---- */

static void random_g1(sp_g1_affine *p, sp_rng *rng)
{
    sp_g1_affine g;
    sp_g1_jac j;
    sp_fr k;
    sp_fr_random(&k, rng);
    sp_g1_generator(&g);
    sp_g1_jac_from_affine(&j, &g);
    sp_g1_mul(&j, &j, &k);
    sp_g1_jac_to_affine(p, &j);
}

static void random_g2(sp_g2_affine *p, sp_rng *rng)
{
    sp_g2_affine g;
    sp_g2_jac j;
    sp_fr k;
    sp_fr_random(&k, rng);
    sp_g2_generator(&g);
    sp_g2_jac_from_affine(&j, &g);
    sp_g2_mul(&j, &j, &k);
    sp_g2_jac_to_affine(p, &j);
}

static void test_proof_codec(sp_rng *rng)
{
    char err[SP_ERR_LEN];
    int iters = sp_test_iters(10);
    for (int it = 0; it < iters; it++) {
        sp_g16_proof p, q;
        uint8_t b[SP_BP_PROOF_BYTES];
        random_g1(&p.a, rng);
        random_g2(&p.b, rng);
        random_g1(&p.c, rng);
        if (it & 1)
            sp_g2_affine_neg(&p.b, &p.b); /* both y parities */
        sp_bp_proof_encode(b, &p);
        uint8_t want_a[48];
        sp_pt_encode(want_a, &p.a, SP_PTF_ZCASH_C, 0);
        CHECK(!memcmp(b, want_a, 48) && (b[0] & 0x80) && (b[48] & 0x80) && (b[144] & 0x80));
        CHECK(sp_bp_proof_decode(&q, b, 0, err) == SP_OK && !memcmp(&p, &q, sizeof p));
        /* Every single-bit flip: rejected, or (a flip inside x that lands on
         * another point) a different proof; never a crash. */
        int rejected = 0;
        for (int bit = 0; bit < SP_BP_PROOF_BYTES * 8; bit += it + 1) {
            b[bit / 8] ^= (uint8_t)(1u << (bit % 8));
            sp_status st = sp_bp_proof_decode(&q, b, 0, err);
            rejected += st != SP_OK;
            CHECK(st != SP_OK || memcmp(&p, &q, sizeof p) != 0);
            CHECK(st == SP_OK || !strncmp(err, "proof: ", 7));
            b[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        }
        CHECK(rejected > 0);
    }
    sp_g16_proof p;
    uint8_t b[SP_BP_PROOF_BYTES];
    memset(&p, 0, sizeof p);
    random_g2(&p.b, rng);
    random_g1(&p.c, rng);
    sp_bp_proof_encode(b, &p); /* A at infinity */
    CHECK(b[0] == 0xc0);
    CHECK(sp_bp_proof_decode(&p, b, 0, err) == SP_ERR_FORMAT && !strcmp(err, "proof: A: point at infinity not allowed here"));
}

#include "test_params_files.h"

int main(void)
{
    sp_rng rng;
    sp_test_begin("test_params", &rng);
    test_noble_encodings();
    test_proof_codec(&rng);
    test_files(&rng);
    return sp_test_done();
}
