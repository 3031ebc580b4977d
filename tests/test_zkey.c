/*
 * The snarkjs .zkey reader and writer (src/groth16/zkey.h).
 *
 * Known answers are snarkjs' own files: inspect.json (header values
 * parsed by the reference harness), verification_key.json (snarkjs' export
 * of the same key), circom's .r1cs (the QAP rows must be its A and B rows
 * plus the input rows) and qap_a_eval.bin / qap_b_eval.bin (snarkjs'
 * a = A.w, b = B.w over the domain). Then: write -> read equality,
 * byte-identical rewrite of an id-ordered file, section-by-section
 * identical rewrite of a setup-ordered one, and damaged files (every
 * truncation, random flips, targeted lies), which must fail cleanly.
 */
#include <unistd.h>
#include "test.h"
#include "test_g16.h"
#include "groth16/zkey.h"
#include "r1cs/r1cs.h"
#include "synth/synth.h"

static const char *names[] = {SP_TEST_VEC_DIR("multiplier"), SP_TEST_VEC_DIR("chain1021")};

/* Sizes in a zkey of this build's curve: a base-field element, G1 and G2
 * points (x | y), the primes at the start of section 2 (n8q | q | n8r | r). */
#define FPB SP_FP_BYTES
#define G1B (2 * FPB)
#define G2B (4 * FPB)
#define PRIMES (4 + FPB + 4 + 32)

static sp_status read_zkey(sp_g16_pk *pk, sp_zkey_info *info, const char *name, const char *file)
{
    char path[256], err[SP_ERR_LEN];
    snprintf(path, sizeof path, VEC "%s/%s", name, file);
    sp_status st = sp_zkey_read(pk, info, path, 0, 2, err);
    CHECKF(st == SP_OK, "%s: %s", path, err);
    return st;
}

static int count_inf_g1(const sp_g1_affine *p, size_t n)
{
    int k = 0;
    for (size_t i = 0; i < n; i++)
        k += sp_g1_affine_is_inf(&p[i]);
    return k;
}

static int count_inf_g2(const sp_g2_affine *p, size_t n)
{
    int k = 0;
    for (size_t i = 0; i < n; i++)
        k += sp_g2_affine_is_inf(&p[i]);
    return k;
}

static uint64_t jnum(const sp_json_val *v)
{
    uint64_t x = UINT64_MAX;
    if (!sp_json_u64(&x, v))
        CHECKF(0, "not a number in inspect.json");
    return x;
}

/* Header values and infinity counts against the harness' inspect.json. */
static void check_inspect(const char *name, const sp_g16_pk *pk, const sp_zkey_info *info, int final)
{
    char path[256];
    snprintf(path, sizeof path, VEC "%s/inspect.json", name);
    sp_json_doc *doc = tg_json_file(path);
    CHECKF(doc != NULL, "%s", path);
    if (!doc)
        return;
    const sp_json_val *z = sp_json_get(sp_json_root(doc), "zkey");
    CHECK(info->n_vars == jnum(sp_json_get(z, "nVars")) && pk->n_vars == info->n_vars);
    CHECK(info->n_public == jnum(sp_json_get(z, "nPublic")) && pk->vk.n_public == info->n_public);
    CHECK(info->domain_size == jnum(sp_json_get(z, "domainSize")) && pk->domain_size == info->domain_size);
    CHECK((1u << pk->log2_domain) == pk->domain_size);
    CHECK(info->n_coefs == jnum(sp_json_get(z, "nCoefs")));
    const sp_json_val *bym = sp_json_get(z, "coefsByMatrix");
    CHECK(pk->qap_a.nnz == jnum(sp_json_at(bym, 0)) && pk->qap_b.nnz == jnum(sp_json_at(bym, 1)));
    CHECK(info->n_coefs_b == pk->qap_b.nnz);
    static const uint32_t setup_order[] = {1, 2, 4, 3, 9, 8, 5, 6, 7, 10};
    const sp_json_val *order = sp_json_get(z, "sectionOrder");
    CHECK(info->n_sections == 10 && order && order->n == 10);
    for (uint32_t i = 0; i < 10 && order; i++)
        CHECK(info->section_order[i] == (final ? jnum(sp_json_at(order, i)) : setup_order[i]));
    const sp_json_val *pts = sp_json_get(z, "points");
    int inf[6] = {count_inf_g1(pk->vk.ic, pk->vk.n_public + 1u), count_inf_g1(pk->a, pk->n_vars),
                  count_inf_g1(pk->b1, pk->n_vars), count_inf_g2(pk->b2, pk->n_vars),
                  count_inf_g1(pk->c, pk->n_vars - pk->vk.n_public - 1u), count_inf_g1(pk->h, pk->n_h)};
    static const char *sec[6] = {"IC", "A", "B1", "B2", "C", "H"};
    for (int i = 0; i < 6; i++)
        CHECKF(jnum(sp_json_get(sp_json_get(pts, sec[i]), "infinity")) == (uint64_t)inf[i], "%s %s", name, sec[i]);
    if (final) {
        const sp_json_val *h = sp_json_get(z, "csHash");
        char hex[129];
        for (int i = 0; i < 64; i++)
            snprintf(hex + 2 * i, 3, "%02x", info->cs_hash[i]);
        CHECK(info->has_mpc && h && strcmp(h->text, hex) == 0);
        CHECK(info->n_contributions == jnum(sp_json_get(z, "nContributions")));
    } else {
        CHECK(info->has_mpc && info->n_contributions == 0);
    }
    sp_json_free(doc);
}

/* The vk points against snarkjs' verification_key.json (decimal). */
static void check_vk_json(const char *name, const sp_g16_vk *vk, int final)
{
    char path[256];
    snprintf(path, sizeof path, VEC "%s/verification_key.json", name);
    sp_json_doc *doc = tg_json_file(path);
    CHECK(doc != NULL);
    if (!doc)
        return;
    const sp_json_val *r = sp_json_root(doc);
    sp_g1_affine g1;
    sp_g2_affine g2;
    CHECK(tg_g1(&g1, sp_json_get(r, "vk_alpha_1")) && sp_g1_affine_eq(&g1, &vk->alpha1));
    CHECK(tg_g2(&g2, sp_json_get(r, "vk_beta_2")) && sp_g2_affine_eq(&g2, &vk->beta2));
    CHECK(tg_g2(&g2, sp_json_get(r, "vk_gamma_2")) && sp_g2_affine_eq(&g2, &vk->gamma2));
    /* Only the contributed key has the exported delta. */
    CHECK(tg_g2(&g2, sp_json_get(r, "vk_delta_2")) && sp_g2_affine_eq(&g2, &vk->delta2) == final);
    const sp_json_val *ic = sp_json_get(r, "IC");
    CHECK(ic && ic->n == vk->n_public + 1u);
    for (size_t i = 0; ic && i < ic->n; i++)
        CHECK(tg_g1(&g1, sp_json_at(ic, i)) && sp_g1_affine_eq(&g1, &vk->ic[i]));
    sp_g2_affine gen;
    sp_g2_generator(&gen);
    CHECK(sp_g2_affine_eq(&gen, &vk->gamma2));
    sp_json_free(doc);
}

/* QAP rows = circom's A and B rows, then A[nC + s] = 1 * w_s. */
static void check_qap_vs_r1cs(const char *name, const sp_g16_pk *pk)
{
    char path[256], err[SP_ERR_LEN];
    sp_r1cs cs;
    snprintf(path, sizeof path, VEC "%s/circuit.r1cs", name);
    sp_status st = sp_r1cs_read(&cs, path, err);
    CHECKF(st == SP_OK, "%s", err);
    if (st != SP_OK)
        return;
    const sp_csr *q[2] = {&pk->qap_a, &pk->qap_b}, *r[2] = {&cs.a, &cs.b};
    size_t nc = cs.h.n_constraints, bad = 0;
    for (int m = 0; m < 2; m++) {
        for (size_t row = 0; row < pk->domain_size; row++) {
            uint64_t qs = q[m]->row[row], qn = q[m]->row[row + 1] - qs;
            if (row < nc) {
                uint64_t rs = r[m]->row[row], rn = r[m]->row[row + 1] - rs;
                bad += qn != rn;
                for (uint64_t k = 0; qn == rn && k < qn; k++)
                    bad += q[m]->col[qs + k] != r[m]->col[rs + k] ||
                           !sp_fr_eq(&q[m]->val[qs + k], &r[m]->val[rs + k]);
            } else if (m == 0 && row <= nc + pk->vk.n_public) {
                bad += qn != 1 || q[m]->col[qs] != row - nc || !sp_fr_is_one(&q[m]->val[qs]);
            } else {
                bad += qn != 0;
            }
        }
    }
    CHECKF(bad == 0, "%s: %zu QAP rows differ from the r1cs", name, bad);
    sp_r1cs_free(&cs);
}

/* a = A.w and b = B.w over the domain against snarkjs' qap_*_eval.bin. */
static void check_qap_evals(const char *name, const sp_g16_pk *pk)
{
    char path[256], err[SP_ERR_LEN];
    sp_fr *w = NULL;
    size_t nw = 0, len[2] = {0, 0};
    snprintf(path, sizeof path, VEC "%s/witness.wtns", name);
    sp_status st = sp_wtns_read(&w, &nw, path, err);
    CHECKF(st == SP_OK && nw == pk->n_vars, "%s", err);
    uint8_t *ev[2];
    snprintf(path, sizeof path, VEC "%s/qap_a_eval.bin", name);
    ev[0] = sp_test_slurp(path, &len[0]);
    snprintf(path, sizeof path, VEC "%s/qap_b_eval.bin", name);
    ev[1] = sp_test_slurp(path, &len[1]);
    const sp_csr *q[2] = {&pk->qap_a, &pk->qap_b};
    for (int m = 0; m < 2 && st == SP_OK; m++) {
        CHECK(ev[m] && len[m] == 32u * pk->domain_size);
        size_t bad = 0;
        for (size_t row = 0; ev[m] && row < pk->domain_size; row++) {
            sp_fr got, want;
            sp_synth_row_dot(&got, q[m], row, w);
            bad += sp_fr_from_bytes_le(&want, ev[m] + 32 * row) != SP_OK || !sp_fr_eq(&got, &want);
        }
        CHECKF(bad == 0, "%s matrix %d: %zu evaluations differ from snarkjs", name, m, bad);
    }
    free(ev[0]);
    free(ev[1]);
    free(w);
}

/* Write -> read equality; byte or section identity with the original. */
static void check_rewrite(const char *name, const char *file, const sp_g16_pk *pk, int final)
{
    char src[256], tmp[64], err[SP_ERR_LEN];
    snprintf(src, sizeof src, VEC "%s/%s", name, file);
    snprintf(tmp, sizeof tmp, "/tmp/sp_test_zkey_%d.zkey", (int)getpid());
    sp_status st = sp_zkey_write(tmp, pk, err);
    CHECKF(st == SP_OK, "write: %s", err);
    sp_g16_pk back;
    st = sp_zkey_read(&back, NULL, tmp, 0, 1, err);
    CHECKF(st == SP_OK, "read back: %s", err);
    CHECK(st == SP_OK && tg_pk_equal(pk, &back));
    sp_g16_pk_free(&back);
    size_t la = 0, lb = 0;
    uint8_t *a = sp_test_slurp(src, &la), *b = sp_test_slurp(tmp, &lb);
    CHECK(a && b && la == lb);
    if (final) {
        CHECKF(a && b && la == lb && !memcmp(a, b, la), "%s: rewrite not byte-identical", src);
    } else if (a && b) {
        /* snarkjs' setup writes sections in the order 1,2,4,3,9,8,5,6,7,10;
         * we write 1..10, so compare payloads section by section. */
        tg_section sa[16], sb[16];
        int na = tg_sections(sa, 16, a, la), nb = tg_sections(sb, 16, b, lb);
        CHECK(na == 10 && nb == 10 && !memcmp(a, b, 12));
        for (int i = 0; i < na; i++) {
            const tg_section *t = tg_find(sb, nb, sa[i].id);
            CHECKF(t && t->size == sa[i].size && !memcmp(a + sa[i].off, b + t->off, t->size),
                   "%s: section %u differs", src, sa[i].id);
        }
    }
    free(a);
    free(b);
    unlink(tmp);
}

static void check_read_vk(const char *name, const char *file, const sp_g16_pk *pk)
{
    char path[256], err[SP_ERR_LEN];
    snprintf(path, sizeof path, VEC "%s/%s", name, file);
    sp_g16_vk vk;
    sp_zkey_info info;
    sp_status st = sp_zkey_read_vk(&vk, &info, path, 0, err);
    CHECKF(st == SP_OK, "%s", err);
    if (st != SP_OK)
        return;
    CHECK(!memcmp(&vk.alpha1, &pk->vk.alpha1, offsetof(sp_g16_vk, n_public)));
    CHECK(vk.n_public == pk->vk.n_public && !memcmp(vk.ic, pk->vk.ic, (vk.n_public + 1u) * sizeof *vk.ic));
    CHECK(info.n_vars == pk->n_vars && info.domain_size == pk->domain_size);
    sp_g16_vk_free(&vk);
}

static void test_vectors(void)
{
    for (size_t v = 0; v < 2; v++) {
        for (int final = 0; final < 2; final++) {
            const char *file = final ? "circuit_final.zkey" : "circuit_0000.zkey";
            sp_g16_pk pk;
            sp_zkey_info info;
            if (read_zkey(&pk, &info, names[v], file) != SP_OK)
                continue;
            CHECK(pk.h_kind == SP_G16_H_SNARKJS && pk.n_h == pk.domain_size && pk.has_qap);
            check_inspect(names[v], &pk, &info, final);
            check_vk_json(names[v], &pk.vk, final);
            check_qap_vs_r1cs(names[v], &pk);
            check_qap_evals(names[v], &pk);
            check_rewrite(names[v], file, &pk, final);
            check_read_vk(names[v], file, &pk);
            sp_g16_pk_free(&pk);
        }
    }
}

/* ---- damaged files ---- */

/* Parses d as a zkey; a failure must leave a message and a zeroed key. */
static sp_status parse_mem(const uint8_t *d, size_t len, unsigned flags, char *err)
{
    sp_g16_pk pk, zero;
    memset(&zero, 0, sizeof zero);
    err[0] = 0;
    sp_status st = sp_zkey_parse(&pk, NULL, d, len, flags, 1, err);
    if (st != SP_OK)
        CHECKF(err[0] && !memcmp(&pk, &zero, sizeof pk), "failure without message or with a non-zero key");
    sp_g16_pk_free(&pk);
    return st;
}

typedef struct {
    uint8_t *d;
    size_t len;
    tg_section s[16];
    int n;
} zfile;

static const uint8_t *payload(const zfile *z, uint32_t id, size_t *len)
{
    const tg_section *t = tg_find(z->s, z->n, id);
    *len = t ? t->size : 0;
    return t ? z->d + t->off : NULL;
}

/* Parses a copy of z with section id's payload replaced; checks the status
 * and that the message starts with want (when not NULL). */
static void expect_section(const zfile *z, uint32_t id, const uint8_t *repl, size_t repl_len, unsigned flags,
                          sp_status want_st, const char *want)
{
    size_t len = 0;
    char err[SP_ERR_LEN];
    uint8_t *m = tg_replace_section(&len, z->d, z->len, id, repl, repl_len);
    CHECK(m != NULL);
    sp_status st = parse_mem(m, len, flags, err);
    CHECKF(st == want_st, "section %u: status %d (%s), want %d", id, st, err, want_st);
    if (want)
        CHECKF(strncmp(err, want, strlen(want)) == 0, "message \"%s\", want \"%s...\"", err, want);
    free(m);
}

/* A copy of section id's payload for editing. */
static uint8_t *edit(const zfile *z, uint32_t id, size_t *len)
{
    *len = 0;
    const uint8_t *p = payload(z, id, len);
    uint8_t *c = malloc(*len + 200);
    memcpy(c, p, *len);
    return c;
}

static void test_truncations(const zfile *z)
{
    char err[SP_ERR_LEN];
    int ok = 1;
    for (size_t cut = 0; cut < z->len; cut++) {
        sp_status st = parse_mem(z->d, cut, 0, err);
        if (st == SP_OK) {
            CHECKF(0, "a prefix of %zu bytes was accepted", cut);
            ok = 0;
        }
    }
    CHECK(ok);
}

static void test_flips(const zfile *z, sp_rng *rng)
{
    char err[SP_ERR_LEN];
    uint8_t *m = malloc(z->len);
    int iters = sp_test_iters(600), accepted = 0;
    for (int it = 0; it < iters; it++) {
        memcpy(m, z->d, z->len);
        int flips = 1 + (int)(sp_rng_u64(rng) % 3);
        for (int k = 0; k < flips; k++)
            m[sp_rng_u64(rng) % z->len] ^= (uint8_t)(1u << (sp_rng_u64(rng) % 8));
        accepted += parse_mem(m, z->len, it & 1 ? SP_G16_SKIP_SUBGROUP_CHECK : 0, err) == SP_OK;
    }
    /* Flips in section 10's points, in coefficient values that stay < r or
     * in unused bits of a section-4 word may be harmless; most are not. */
    printf("zkey: %d of %d flipped files accepted\n", accepted, iters);
    CHECK(accepted < iters / 2);
    free(m);
}

/* Offset in section id of its first point that is not at infinity. */
static size_t first_finite(const zfile *z, uint32_t id, size_t psize)
{
    size_t len;
    const uint8_t *p = payload(z, id, &len);
    for (size_t off = 0; off + psize <= len; off += psize) {
        for (size_t i = 0; i < psize; i++)
            if (p[off + i])
                return off;
    }
    return 0;
}

/* sp_fp limbs are the LEM bytes on a little-endian machine. */
static void put_fp_lem(uint8_t *out, const sp_fp *a)
{
    for (int i = 0; i < SP_FP_LIMBS; i++)
        for (int j = 0; j < 8; j++)
            out[8 * i + j] = (uint8_t)(a->l[i] >> (8 * j));
}

static void test_points(const zfile *z)
{
    size_t len, off = first_finite(z, 5, G1B);
    uint8_t *a = edit(z, 5, &len);
    char want[80];
    snprintf(want, sizeof want, "zkey section 5 (A): point %zu: not on the curve", off / G1B);
    a[off + FPB] ^= 1; /* y changes, x stays: off the curve */
    expect_section(z, 5, a, len, 0, SP_ERR_NOT_ON_CURVE, want);
    a[off + FPB] ^= 1;
    sp_fp p = {{0}};
    memcpy(p.l, SP_FP_MODULUS, sizeof p.l);
    put_fp_lem(a + off, &p); /* x = p: not reduced */
    snprintf(want, sizeof want, "zkey section 5 (A): point %zu: coordinate >= p", off / G1B);
    expect_section(z, 5, a, len, SP_G16_SKIP_SUBGROUP_CHECK, SP_ERR_NOT_CANONICAL, want);
#if !SP_CURVE_BN254 /* BN254's G1 is the whole curve (cofactor 1): no point outside the subgroup */
    sp_g1_affine bad1;
    tg_g1_outside_subgroup(&bad1);
    put_fp_lem(a + off, &bad1.x);
    put_fp_lem(a + off + FPB, &bad1.y);
    snprintf(want, sizeof want, "zkey section 5 (A): point %zu: not in the prime-order subgroup", off / G1B);
    expect_section(z, 5, a, len, 0, SP_ERR_NOT_IN_SUBGROUP, want);
    expect_section(z, 5, a, len, SP_G16_SKIP_SUBGROUP_CHECK, SP_OK, NULL);
#endif
    free(a);

    uint8_t *b2 = edit(z, 7, &len);
    sp_g2_affine bad2;
    tg_g2_outside_subgroup(&bad2);
    put_fp_lem(b2 + G2B, &bad2.x.c0); /* point 1 */
    put_fp_lem(b2 + G2B + FPB, &bad2.x.c1);
    put_fp_lem(b2 + G2B + 2 * FPB, &bad2.y.c0);
    put_fp_lem(b2 + G2B + 3 * FPB, &bad2.y.c1);
    expect_section(z, 7, b2, len, 0, SP_ERR_NOT_IN_SUBGROUP, "zkey section 7 (B2): point 1: not in the prime");
    expect_section(z, 7, b2, len, SP_G16_SKIP_SUBGROUP_CHECK, SP_OK, NULL);
    free(b2);

    uint8_t *h = edit(z, 9, &len);
    memset(h + G1B, 0, G1B);
    expect_section(z, 9, h, len, 0, SP_ERR_FORMAT, "zkey section 9 (H): point 1: point at infinity not allowed");
    snprintf(want, sizeof want, "zkey section 9 (H): not the size of the points the header calls for");
    expect_section(z, 9, h, len - G1B, 0, SP_ERR_FORMAT, want);
    free(h);
    uint8_t *ic = edit(z, 3, &len);
    memset(ic, 0, G1B);
    expect_section(z, 3, ic, len, 0, SP_ERR_FORMAT, "zkey section 3 (IC): point 0: point at infinity");
    free(ic);
}

static void test_header(const zfile *z)
{
    size_t len;
    char want[80];
    uint8_t *h = edit(z, 2, &len);
    tg_put32(h + PRIMES + 4, tg_le32(h + PRIMES)); /* nPublic = nVars */
    expect_section(z, 2, h, len, 0, SP_ERR_FORMAT, "zkey section 2 (header): nPublic");
    tg_put32(h + PRIMES + 4, 1);
    tg_put32(h + PRIMES + 8, 6); /* domain 6 */
    expect_section(z, 2, h, len, 0, SP_ERR_FORMAT, "zkey section 2 (header): the domain size is not a power of two");
    tg_put32(h + PRIMES + 8, 4);
    h[PRIMES + 12 + FPB] ^= 4; /* alpha1.y */
    expect_section(z, 2, h, len, 0, SP_ERR_NOT_ON_CURVE, "zkey section 2 (header): alpha1: not on the curve");
    h[PRIMES + 12 + FPB] ^= 4;
    snprintf(want, sizeof want, "zkey section 2 (header): not the %zu bytes of a", len);
    expect_section(z, 2, h, len + 1, 0, SP_ERR_FORMAT, want);
    h[4] ^= 1; /* q changes */
    expect_section(z, 2, h, len, 0, SP_ERR_UNSUPPORTED, "zkey: base field");
    free(h);
    uint8_t proto[4] = {2, 0, 0, 0};
    expect_section(z, 1, proto, 4, 0, SP_ERR_UNSUPPORTED, "zkey: protocol PLONK");

    /* The other curve's key: refused, naming both curves. */
    size_t bl;
    char err[SP_ERR_LEN];
    uint8_t *other = sp_test_slurp(VEC SP_TEST_VEC_OTHER("multiplier") "/circuit_final.zkey", &bl);
#if SP_CURVE_BN254
    const char *other_msg = "zkey is for bls12-381 but this is the bn254 (bn128) prover";
#else
    const char *other_msg = "zkey is for bn254 (bn128) but this is the bls12-381 prover";
#endif
    CHECK(other && parse_mem(other, bl, 0, err) == SP_ERR_UNSUPPORTED);
    CHECKF(strcmp(err, other_msg) == 0, "%s", err);
    free(other);
    uint8_t *m = malloc(z->len);
    memcpy(m, z->d, z->len);
    m[3] = 'z';
    CHECK(parse_mem(m, z->len, 0, err) == SP_ERR_FORMAT && strstr(err, "magic"));
    free(m);
}

static void test_coefs(const zfile *z)
{
    size_t len;
    uint8_t *c = edit(z, 4, &len);
    uint8_t *e = c + 4 + 44; /* entry 1 */
    uint8_t save[44];
    memcpy(save, e, 44);
    tg_put32(e, 2);
    expect_section(z, 4, c, len, 0, SP_ERR_FORMAT, "zkey section 4 (coefficients): entry 1: the matrix is neither");
    memcpy(e, save, 44);
    tg_put32(e + 4, 4); /* row = domain size */
    expect_section(z, 4, c, len, 0, SP_ERR_FORMAT, "zkey section 4 (coefficients): entry 1: row or wire outside");
    memcpy(e, save, 44);
    tg_put32(e + 8, 4); /* wire = nVars */
    expect_section(z, 4, c, len, 0, SP_ERR_FORMAT, "zkey section 4 (coefficients): entry 1: row");
    memcpy(e, save, 44);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++)
            e[12 + 8 * i + j] = (uint8_t)(SP_FR_MODULUS[i] >> (8 * j));
    expect_section(z, 4, c, len, 0, SP_ERR_NOT_CANONICAL, "zkey section 4 (coefficients): entry 1: value >= r");
    memcpy(e, save, 44);
    tg_put32(c, tg_le32(c) + 1);
    expect_section(z, 4, c, len, 0, SP_ERR_FORMAT, "zkey section 4 (coefficients): not the size its count");
    free(c);
}

static void test_container(const zfile *z)
{
    size_t len = 0;
    uint8_t *m = edit(z, 10, &len);
    tg_put32(m + 64, 2);
    expect_section(z, 10, m, len, 0, SP_ERR_TRUNCATED, "zkey section 10 (MPC parameters): ends inside");
    tg_put32(m + 64, 1);
    expect_section(z, 10, m, len + 1, 0, SP_ERR_FORMAT, "zkey section 10 (MPC parameters): bytes after the last");
    tg_put32(m + 64 + 4 + 3 * G1B + G2B + 64 + 4, 100); /* paramsLen */
    expect_section(z, 10, m, len, 0, SP_ERR_TRUNCATED, "zkey section 10 (MPC parameters): contribution 1");
    free(m);

    tg_part parts[11];
    for (int i = 0; i < z->n; i++)
        parts[i] = (tg_part){z->s[i].id, z->d + z->s[i].off, z->s[i].size};
    char err[SP_ERR_LEN];
    size_t bl;
    uint8_t *b = tg_build(&bl, "zkey", 1, parts, 10); /* same file, rebuilt */
    CHECK(b && bl == z->len && !memcmp(b, z->d, bl));
    free(b);
    parts[10] = parts[2]; /* section 3 twice */
    b = tg_build(&bl, "zkey", 1, parts, 11);
    CHECK(parse_mem(b, bl, 0, err) == SP_ERR_FORMAT);
    free(b);
    parts[8] = parts[9]; /* section 9 gone */
    b = tg_build(&bl, "zkey", 1, parts, 9);
    CHECK(parse_mem(b, bl, 0, err) == SP_ERR_FORMAT && strstr(err, "9"));
    free(b);
    for (int i = 0; i < 10; i++)
        parts[i] = (tg_part){z->s[i].id, z->d + z->s[i].off, z->s[i].size};
    sp_g16_pk pk;
    b = tg_build(&bl, "zkey", 2, parts, 9); /* version 2, section 10 (optional) dropped */
    CHECK(sp_zkey_parse(&pk, NULL, b, bl, 0, 1, err) == SP_OK && pk.mpc == NULL);
    sp_g16_pk_free(&pk);
    free(b);
    b = tg_build(&bl, "zkey", 3, parts, 10);
    CHECK(parse_mem(b, bl, 0, err) == SP_ERR_FORMAT && strstr(err, "version"));
    free(b);
}

static void test_damaged(sp_rng *rng)
{
    zfile z;
    z.d = sp_test_slurp(VEC SP_TEST_VEC_DIR("multiplier") "/circuit_final.zkey", &z.len);
    CHECK(z.d != NULL);
    if (!z.d)
        return;
    z.n = tg_sections(z.s, 16, z.d, z.len);
    CHECK(z.n == 10);
    test_truncations(&z);
    test_flips(&z, rng);
    test_points(&z);
    test_header(&z);
    test_coefs(&z);
    test_container(&z);
    free(z.d);
}

static void test_writer_refusals(void)
{
    sp_g16_pk pk;
    char err[SP_ERR_LEN];
    CHECK(sp_g16_pk_alloc(&pk, 4, 1, 4, SP_G16_H_BELLPERSON) == SP_OK);
    CHECK(sp_zkey_write("/tmp/sp_never_written.zkey", &pk, err) == SP_ERR_UNSUPPORTED && strstr(err, "bellperson"));
    sp_g16_pk_free(&pk);
    CHECK(sp_g16_pk_alloc(&pk, 4, 1, 4, SP_G16_H_SNARKJS) == SP_OK);
    CHECK(sp_zkey_write("/tmp/sp_never_written.zkey", &pk, err) == SP_ERR_UNSUPPORTED && strstr(err, "QAP"));
    sp_g16_pk_free(&pk);
    CHECK(access("/tmp/sp_never_written.zkey", F_OK) != 0);
    CHECK(sp_g16_pk_alloc(&pk, 4, 4, 4, SP_G16_H_SNARKJS) == SP_ERR_INVALID_ARG);
    CHECK(sp_g16_pk_alloc(&pk, 4, 1, 6, SP_G16_H_SNARKJS) == SP_ERR_INVALID_ARG);
    CHECK(sp_g16_pk_alloc(&pk, 4, 1, 1, SP_G16_H_SNARKJS) == SP_ERR_INVALID_ARG);
}

/* sp_g16_pk_arrays names each point array of a key, where it starts and
 * its size, for both H kinds; the arrays do not overlap. */
static void test_pk_arrays(void)
{
    static const char *const order[SP_G16_PK_ARRAYS] = {"h", "a", "b1", "c", "b2"};
    for (int kind = 0; kind < 2; kind++) {
        sp_g16_pk pk;
        CHECK(sp_g16_pk_alloc(&pk, 10, 2, 16, kind ? SP_G16_H_BELLPERSON : SP_G16_H_SNARKJS) == SP_OK);
        sp_g16_pk_array arr[SP_G16_PK_ARRAYS];
        sp_g16_pk_arrays(&pk, arr);
        const void *p[SP_G16_PK_ARRAYS] = {pk.h, pk.a, pk.b1, pk.c, pk.b2};
        size_t g1 = sizeof(sp_g1_affine), bytes[SP_G16_PK_ARRAYS] = {(kind ? 15 : 16) * g1, 10 * g1, 10 * g1, 7 * g1,
                                                                     10 * sizeof(sp_g2_affine)};
        for (int i = 0; i < SP_G16_PK_ARRAYS; i++) {
            CHECKF(!strcmp(arr[i].name, order[i]) && arr[i].p == p[i] && arr[i].bytes == bytes[i],
                   "array %d: %s at %p, %zu bytes", i, arr[i].name, arr[i].p, arr[i].bytes);
            for (int j = 0; j < i; j++) {
                const char *x = arr[i].p, *y = arr[j].p;
                CHECKF(x + arr[i].bytes <= y || y + arr[j].bytes <= x, "arrays %s and %s overlap", arr[i].name,
                       arr[j].name);
            }
        }
        sp_g16_pk_free(&pk);
    }
}

int main(void)
{
    sp_rng rng;
    sp_test_begin("test_zkey", &rng);
    test_vectors();
    test_damaged(&rng);
    test_writer_refusals();
    test_pk_arrays();
    return sp_test_done();
}
