/*
 * bellperson formats (src/groth16/params.h) and the zcash point codecs
 * under them (src/groth16/pointio.h).
 *
 * Known answers: @noble/curves' encodings of [k]G and its list of invalid
 * encodings (tests/vectors/noble_bls12381.txt), the file layout of
 * docs/formats.md §6 (checked by hand-parsing a written file), and the
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
    /* A non-canonical value v + p may spill into the flag bits, so the
     * decoder may see bad flags or a different x first: any refusal will do. */
    if (want == SP_PT_RANGE && got != SP_PT_OK)
        got = want;
    CHECKF(got == want, "g%d %s %s: got %s", g2 + 1, reason, f == SP_PTF_ZCASH_C ? "compressed" : "uncompressed",
           sp_pt_err_str(got));
    if (want == SP_PT_SUBGROUP)
        CHECK(sp_pt_decode(&p, b, f, g2, 1, SP_G16_SKIP_SUBGROUP_CHECK) == SP_PT_OK);
}

static void test_noble_encodings(void)
{
    size_t len;
    char *text = (char *)sp_test_slurp(VEC "noble_bls12381.txt", &len);
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

/* ---- .params and .vk files ---- */

/* A bellperson-convention key with random points; an aux wire keeps its A
 * point with probability 2/3, any wire its B points with 1/2. */
static void make_pk(sp_g16_pk *pk, uint32_t n_vars, uint32_t n_public, uint32_t n, int dense, sp_rng *rng)
{
    CHECK(sp_g16_pk_alloc(pk, n_vars, n_public, n, SP_G16_H_BELLPERSON) == SP_OK);
    random_g1(&pk->vk.alpha1, rng);
    random_g1(&pk->vk.beta1, rng);
    random_g1(&pk->vk.delta1, rng);
    random_g2(&pk->vk.beta2, rng);
    sp_g2_generator(&pk->vk.gamma2);
    random_g2(&pk->vk.delta2, rng);
    for (size_t i = 0; i <= n_public; i++)
        random_g1(&pk->vk.ic[i], rng);
    for (size_t i = 0; i < pk->n_h; i++)
        random_g1(&pk->h[i], rng);
    for (size_t i = 0; i < n_vars - n_public - 1u; i++)
        random_g1(&pk->c[i], rng);
    for (size_t i = 0; i < n_vars; i++) {
        if (dense || i <= n_public || sp_rng_u64(rng) % 3)
            random_g1(&pk->a[i], rng);
        if (dense || sp_rng_u64(rng) % 2) {
            random_g1(&pk->b1[i], rng);
            random_g2(&pk->b2[i], rng);
        }
    }
}

static char tmp_path[64];

static uint8_t *write_params(size_t *len, const sp_g16_pk *pk)
{
    char err[SP_ERR_LEN];
    sp_status st = sp_bp_params_write(tmp_path, pk, err);
    CHECKF(st == SP_OK, "%s", err);
    uint8_t *d = sp_test_slurp(tmp_path, len);
    unlink(tmp_path);
    return d;
}

static uint32_t rd_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Walks a written file with the layout of docs/formats.md §6 and checks
 * the counts and a few points against the key. Returns 1 when it fits. */
static int check_layout(const uint8_t *d, size_t len, const sp_g16_pk *pk)
{
    uint8_t enc[192];
    size_t pos = 0, cnt[6];
    const void *vk_pts[6] = {&pk->vk.alpha1, &pk->vk.beta1, &pk->vk.beta2, &pk->vk.gamma2, &pk->vk.delta1, &pk->vk.delta2};
    static const int vk_g2[6] = {0, 0, 1, 1, 0, 1};
    int ok = 1;
    for (int i = 0; i < 6; i++) {
        size_t sz = vk_g2[i] ? 192 : 96;
        sp_pt_encode(enc, vk_pts[i], SP_PTF_ZCASH_U, vk_g2[i]);
        ok &= pos + sz <= len && !memcmp(d + pos, enc, sz);
        pos += sz;
    }
    ok &= pos == 864;
    static const size_t psz[6] = {96, 96, 96, 96, 96, 192};
    for (int v = 0; v < 6 && ok; v++) {
        ok &= pos + 4 <= len;
        cnt[v] = ok ? rd_be32(d + pos) : 0;
        pos += 4 + cnt[v] * psz[v];
        ok &= pos <= len;
    }
    ok &= pos == len;
    size_t a_expect = 0, b_expect = 0;
    for (size_t i = 0; i < pk->n_vars; i++) {
        a_expect += !sp_g1_affine_is_inf(&pk->a[i]);
        b_expect += !sp_g1_affine_is_inf(&pk->b1[i]);
    }
    ok &= cnt[0] == pk->vk.n_public + 1u && cnt[1] == pk->domain_size - 1u &&
          cnt[2] == pk->n_vars - pk->vk.n_public - 1u && cnt[3] == a_expect && cnt[4] == b_expect && cnt[5] == b_expect;
    /* The first l point sits right after h. */
    size_t l0 = 864 + 4 + cnt[0] * 96 + 4 + cnt[1] * 96 + 4;
    sp_pt_encode(enc, &pk->c[0], SP_PTF_ZCASH_U, 0);
    ok &= l0 + 96 <= len && !memcmp(d + l0, enc, 96);
    return ok;
}

static void test_round_trips(sp_rng *rng)
{
    char err[SP_ERR_LEN];
    for (int dense = 0; dense < 2; dense++) {
        sp_g16_pk pk, back;
        sp_g16_density d;
        size_t len;
        make_pk(&pk, 20, 2, 32, dense, rng);
        uint8_t *f = write_params(&len, &pk);
        CHECK(f && check_layout(f, len, &pk));
        CHECK(sp_g16_density_from_pk(&d, &pk) == SP_OK);
        sp_status st = sp_bp_params_parse(&back, f, len, &d, 0, 2, err);
        CHECKF(st == SP_OK, "%s", err);
        CHECK(st == SP_OK && tg_pk_equal(&pk, &back));
        sp_g16_pk_free(&back);
        st = sp_bp_params_parse(&back, f, len, NULL, 0, 1, err);
        CHECKF(dense ? st == SP_OK : (st == SP_ERR_FORMAT && strstr(err, "density is needed")), "%s", err);
        CHECK(!dense || tg_pk_equal(&pk, &back));
        sp_g16_pk_free(&back);

        /* The .vk file is the prefix of the .params file up to ic. */
        sp_g16_vk vk;
        size_t vlen;
        CHECK(sp_bp_vk_write(tmp_path, &pk.vk, err) == SP_OK);
        uint8_t *v = sp_test_slurp(tmp_path, &vlen);
        CHECK(v && vlen == 864 + 4 + 96 * (pk.vk.n_public + 1u) && !memcmp(v, f, vlen));
        st = sp_bp_vk_read(&vk, tmp_path, 0, err);
        CHECKF(st == SP_OK, "%s", err);
        CHECK(st == SP_OK && vk.n_public == pk.vk.n_public &&
              !memcmp(&vk.alpha1, &pk.vk.alpha1, offsetof(sp_g16_vk, n_public)) &&
              !memcmp(vk.ic, pk.vk.ic, (vk.n_public + 1u) * sizeof *vk.ic));
        sp_g16_vk_free(&vk);
        CHECK(sp_bp_vk_parse(&vk, f, len, 0, err) == SP_ERR_FORMAT && strstr(err, "unexpected bytes"));
        unlink(tmp_path);
        free(v);
        free(f);
        sp_g16_density_free(&d);
        sp_g16_pk_free(&pk);
    }
}

/* The multiplier circuit: r1cs densities = the snarkjs key's, and its
 * A/B/C points (with bellperson-style H) survive a .params round trip. */
static void test_real_densities(sp_rng *rng)
{
    char err[SP_ERR_LEN];
    sp_g16_pk zk, pk, back;
    sp_r1cs cs;
    sp_g16_density dz, dr;
    CHECK(sp_zkey_read(&zk, NULL, VEC "multiplier_bls12381/circuit_final.zkey", 0, 1, err) == SP_OK);
    CHECK(sp_r1cs_read(&cs, VEC "multiplier_bls12381/circuit.r1cs", err) == SP_OK);
    CHECK(sp_g16_density_from_pk(&dz, &zk) == SP_OK && sp_g16_density_from_r1cs(&dr, &cs) == SP_OK);
    CHECK(dz.n_vars == 4 && dr.n_vars == 4 && dz.n_public == 1 && dr.n_public == 1);
    CHECK(dz.a[0] == dr.a[0] && dz.b[0] == dr.b[0]);
    CHECK(sp_g16_density_count(dr.a, 4) == 3 && sp_g16_density_count(dr.b, 4) == 1); /* inspect.json */
    CHECK(sp_g16_pk_alloc(&pk, zk.n_vars, zk.vk.n_public, zk.domain_size, SP_G16_H_BELLPERSON) == SP_OK);
    sp_g1_affine *keep_ic = pk.vk.ic;
    pk.vk = zk.vk;
    pk.vk.ic = keep_ic;
    memcpy(pk.vk.ic, zk.vk.ic, 2 * sizeof *pk.vk.ic);
    memcpy(pk.a, zk.a, 4 * sizeof *pk.a);
    memcpy(pk.b1, zk.b1, 4 * sizeof *pk.b1);
    memcpy(pk.b2, zk.b2, 4 * sizeof *pk.b2);
    memcpy(pk.c, zk.c, 2 * sizeof *pk.c);
    for (size_t i = 0; i < pk.n_h; i++)
        random_g1(&pk.h[i], rng);
    size_t len;
    uint8_t *f = write_params(&len, &pk);
    sp_status st = sp_bp_params_parse(&back, f, len, &dr, 0, 1, err);
    CHECKF(st == SP_OK, "%s", err);
    CHECK(st == SP_OK && tg_pk_equal(&pk, &back));
    sp_g16_pk_free(&back);
    free(f);
    sp_g16_pk_free(&pk);
    sp_g16_pk_free(&zk);
    sp_r1cs_free(&cs);
    sp_g16_density_free(&dz);
    sp_g16_density_free(&dr);
}

/* Parses a copy of f with bytes [at, at + n) replaced (n = 0: untouched)
 * and the length changed by dlen; checks status and message prefix. */
static void expect(const uint8_t *f, size_t len, const sp_g16_density *d, size_t at, const uint8_t *repl, size_t n,
                   long dlen, unsigned flags, sp_status want, const char *msg)
{
    char err[SP_ERR_LEN] = "";
    size_t nl = (size_t)((long)len + dlen);
    uint8_t *m = calloc(nl > len ? nl : len, 1);
    memcpy(m, f, len < nl ? len : nl);
    if (n)
        memcpy(m + at, repl, n);
    sp_g16_pk pk, zero;
    memset(&zero, 0, sizeof zero);
    sp_status st = sp_bp_params_parse(&pk, m, nl, d, flags, 1, err);
    CHECKF(st == want, "status %d (%s), want %d", st, err, want);
    if (msg)
        CHECKF(!strncmp(err, msg, strlen(msg)), "message \"%s\", want \"%s...\"", err, msg);
    if (st != SP_OK)
        CHECK(!memcmp(&pk, &zero, sizeof pk));
    sp_g16_pk_free(&pk);
    free(m);
}

static void test_damaged_params(sp_rng *rng)
{
    sp_g16_pk pk;
    sp_g16_density d;
    size_t len;
    char err[SP_ERR_LEN];
    make_pk(&pk, 20, 2, 32, 0, rng);
    uint8_t *f = write_params(&len, &pk);
    CHECK(sp_g16_density_from_pk(&d, &pk) == SP_OK);
    size_t ic = 864 + 4, h = ic + 3 * 96 + 4, l = h + 31 * 96 + 4, a = l + 17 * 96 + 4;
    size_t na = rd_be32(f + a - 4), bg1 = a + na * 96 + 4, nb = rd_be32(f + bg1 - 4), bg2 = bg1 + nb * 96 + 4;
    for (size_t cut = 0; cut < len; cut++) {
        sp_g16_pk t;
        CHECKF(sp_bp_params_parse(&t, f, cut, &d, 0, 1, err) != SP_OK, "prefix %zu accepted", cut);
    }
    uint8_t big[4] = {0xff, 0xff, 0xff, 0xff}, one[4] = {0, 0, 0, 31}, x[96], inf[96] = {0x40};
    expect(f, len, &d, h - 4, big, 4, 0, 0, SP_ERR_TRUNCATED, "params: h claims more points than the rest of the file holds");
    expect(f, len, &d, 0, NULL, 0, 1, 0, SP_ERR_FORMAT, "params: unexpected bytes after the last vector");
    expect(f, len, &d, bg2 - 4, one, 4, 0, 0, SP_ERR_TRUNCATED, NULL);
    memcpy(x, f + h, 96);
    x[0] |= 0x80;
    expect(f, len, &d, h, x, 96, 0, 0, SP_ERR_BAD_ENCODING, "params: h point 0: bad flag bits");
    expect(f, len, &d, h + 3 * 96, inf, 96, 0, 0, SP_ERR_FORMAT, "params: h point 3: point at infinity not allowed");
    memcpy(x, f + l + 2 * 96, 96);
    x[95] ^= 1;
    expect(f, len, &d, l + 2 * 96, x, 96, 0, 0, SP_ERR_NOT_ON_CURVE, "params: l point 2: not on the curve");
    memcpy(x, f + a + 96, 96);
    memset(x, 0xff, 48);
    x[0] = 0x1f; /* x > p, flags clear */
    expect(f, len, &d, a + 96, x, 96, 0, 0, SP_ERR_NOT_CANONICAL, "params: a point 1: coordinate >= p");
    memcpy(x, f, 96);
    x[60] ^= 2;
    expect(f, len, &d, 0, x, 96, 0, 0, SP_ERR_NOT_ON_CURVE, "params: alpha_g1: not on the curve");
    uint8_t g2[192];
    sp_g2_affine bad2;
    tg_g2_outside_subgroup(&bad2);
    sp_pt_encode(g2, &bad2, SP_PTF_ZCASH_U, 1);
    expect(f, len, &d, bg2, g2, 192, 0, 0, SP_ERR_NOT_IN_SUBGROUP, "params: b_g2 point 0: not in the prime-order");
    expect(f, len, &d, bg2, g2, 192, 0, SP_G16_SKIP_SUBGROUP_CHECK, SP_OK, NULL);
    /* Densities that do not fit. */
    sp_g16_density d2;
    CHECK(sp_g16_density_from_pk(&d2, &pk) == SP_OK);
    d2.b[0] ^= 1;
    expect(f, len, &d2, 0, NULL, 0, 0, 0, SP_ERR_FORMAT, "params: a or b does not hold as many points");
    d2.b[0] ^= 1;
    d2.n_public = 1;
    expect(f, len, &d2, 0, NULL, 0, 0, 0, SP_ERR_FORMAT, "params: the density's wires or public inputs are not the file's");
    sp_g16_density_free(&d2);
    /* h one point short: the domain is no power of two. */
    uint8_t *g = malloc(len);
    memcpy(g, f, h);
    memcpy(g + h, f + h + 96, len - h - 96);
    g[h - 1] = 30;
    expect(g, len - 96, &d, 0, NULL, 0, 0, 0, SP_ERR_FORMAT, "params: h must hold n - 1 points");
    free(g);
    int iters = sp_test_iters(300), accepted = 0;
    uint8_t *m = malloc(len);
    for (int it = 0; it < iters; it++) {
        sp_g16_pk t;
        memcpy(m, f, len);
        m[sp_rng_u64(rng) % len] ^= (uint8_t)(1u << (sp_rng_u64(rng) % 8));
        sp_status st = sp_bp_params_parse(&t, m, len, &d, it & 1 ? SP_G16_SKIP_SUBGROUP_CHECK : 0, 1, err);
        accepted += st == SP_OK;
        sp_g16_pk_free(&t);
    }
    printf("params: %d of %d flipped files accepted\n", accepted, iters);
    free(m);
    free(f);
    sp_g16_density_free(&d);
    sp_g16_pk_free(&pk);
}

static void test_writer_refusals(sp_rng *rng)
{
    char err[SP_ERR_LEN];
    sp_g16_pk pk;
    make_pk(&pk, 8, 1, 8, 1, rng);
    sp_g1_affine save = pk.a[1];
    sp_g1_affine_set_inf(&pk.a[1]);
    CHECK(sp_bp_params_write(tmp_path, &pk, err) == SP_ERR_FORMAT && strstr(err, "input wire 1"));
    pk.a[1] = save;
    sp_g1_affine_set_inf(&pk.b1[5]);
    CHECK(sp_bp_params_write(tmp_path, &pk, err) == SP_ERR_FORMAT && strstr(err, "wire 5 has B"));
    sp_g2_affine_set_inf(&pk.b2[5]);
    sp_g1_affine_set_inf(&pk.c[0]);
    CHECK(sp_bp_params_write(tmp_path, &pk, err) == SP_ERR_FORMAT && strstr(err, "private wire 2"));
    random_g1(&pk.c[0], rng);
    sp_g1_affine_set_inf(&pk.vk.ic[1]);
    CHECK(sp_bp_params_write(tmp_path, &pk, err) == SP_ERR_FORMAT && strstr(err, "ic point 1"));
    CHECK(sp_bp_vk_write(tmp_path, &pk.vk, err) == SP_ERR_FORMAT);
    CHECK(access(tmp_path, F_OK) != 0);
    sp_g16_pk_free(&pk);
    CHECK(sp_g16_pk_alloc(&pk, 8, 1, 8, SP_G16_H_SNARKJS) == SP_OK);
    CHECK(sp_bp_params_write(tmp_path, &pk, err) == SP_ERR_UNSUPPORTED && strstr(err, "odd-coset"));
    sp_g16_pk_free(&pk);
    CHECK(sp_bp_params_write("/nonexistent-dir/x.params", &pk, err) != SP_OK);
}

/* ---- point arrays (sp_pt_decode_array) ---- */

/* n subgroup points: one random multiple of G, then its running sums. */
static void array_points(void *out, size_t n, int g2, sp_rng *rng)
{
    sp_g1_affine *p1 = out;
    sp_g2_affine *p2 = out;
    sp_g1_jac j1;
    sp_g2_jac j2;
    if (g2)
        random_g2(&p2[0], rng);
    else
        random_g1(&p1[0], rng);
    sp_g1_jac_from_affine(&j1, &p1[0]);
    sp_g2_jac_from_affine(&j2, &p2[0]);
    for (size_t i = 1; i < n; i++) {
        if (g2) {
            sp_g2_jac_add_affine_var(&j2, &j2, &p2[0]);
            sp_g2_jac_to_affine(&p2[i], &j2);
        } else {
            sp_g1_jac_add_affine_var(&j1, &j1, &p1[0]);
            sp_g1_jac_to_affine(&p1[i], &j1);
        }
    }
}

/* Arrays above the size where the subgroup check goes batched (msm.h):
 * subgroup points pass and decode to themselves; one point outside the
 * subgroup and one refused by the decoder (infinity where it is not
 * allowed): the lower index is reported, with its reason. */
static void test_decode_array(sp_rng *rng)
{
    enum { N = 300 };
    static const sp_pt_format fmts[] = {SP_PTF_LEM, SP_PTF_ZCASH_U, SP_PTF_ZCASH_C};
    sp_g2_affine *pts = malloc(N * sizeof *pts), *back = malloc(N * sizeof *back), inf;
    uint8_t *enc = malloc(N * 192);
    sp_g2_affine_set_inf(&inf);
    for (int g2 = 0; g2 < 2; g2++) {
        size_t psz = g2 ? sizeof(sp_g2_affine) : sizeof(sp_g1_affine);
        sp_g2_affine outside; /* big enough for either */
        if (g2)
            tg_g2_outside_subgroup(&outside);
        else
            tg_g1_outside_subgroup((sp_g1_affine *)&outside);
        array_points(pts, N, g2, rng);
        for (size_t fi = 0; fi < 3; fi++) {
            sp_pt_format f = fmts[fi];
            size_t sz = sp_pt_size(f, g2), bad = 0, i1 = sp_rng_u64(rng) % N, i2 = sp_rng_u64(rng) % N;
            sp_pt_encode_array(enc, pts, N, f, g2);
            for (int t = 1; t <= 3; t += 2) {
                CHECK(sp_pt_decode_array(back, &bad, enc, N, f, g2, 0, 0, t) == SP_PT_OK);
                CHECK(!memcmp(back, pts, N * psz));
            }
            sp_pt_encode(enc + i1 * sz, &outside, f, g2);
            CHECK(sp_pt_decode_array(back, &bad, enc, N, f, g2, 0, 0, 3) == SP_PT_SUBGROUP && bad == i1);
            CHECK(sp_pt_decode_array(back, &bad, enc, N, f, g2, 0, SP_G16_SKIP_SUBGROUP_CHECK, 3) == SP_PT_OK);
            if (i2 == i1)
                continue;
            sp_pt_encode(enc + i2 * sz, &inf, f, g2);
            sp_pt_err e = sp_pt_decode_array(back, &bad, enc, N, f, g2, 0, 0, 2);
            CHECKF(i1 < i2 ? e == SP_PT_SUBGROUP && bad == i1 : e == SP_PT_INFINITY && bad == i2,
                   "g2 %d format %zu: %s at %zu (outside %zu, infinity %zu)", g2, fi, sp_pt_err_str(e), bad, i1, i2);
            CHECK(sp_pt_decode_array(back, &bad, enc, N, f, g2, 1, 0, 2) == SP_PT_SUBGROUP && bad == i1);
        }
    }
    free(pts);
    free(back);
    free(enc);
}

static void test_files(sp_rng *rng)
{
    snprintf(tmp_path, sizeof tmp_path, "/tmp/sp_test_params_%d", (int)getpid());
    test_round_trips(rng);
    test_real_densities(rng);
    test_damaged_params(rng);
    test_writer_refusals(rng);
}

int main(void)
{
    sp_rng rng;
    sp_test_begin("test_params", &rng);
    test_noble_encodings();
    test_proof_codec(&rng);
    test_decode_array(&rng);
    test_files(&rng);
    return sp_test_done();
}
