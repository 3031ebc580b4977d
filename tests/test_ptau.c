/*
 * The .ptau reader and the setup from it (groth16/ptau.h, ptau_setup.h),
 * against a slow obvious reference: a .ptau is built here from random
 * tau, alpha, beta (fresh seed) by scalar arithmetic and fixed-base
 * multiplication, its Lagrange sections by an inverse NTT of the powers;
 * the setup's every point must equal [A_i(tau)] G etc. computed from the
 * scalars by the QAP code (another route to L_j(tau)), and the setup from
 * the same file without its Lagrange sections (which it then makes by an
 * inverse DFT over the points) must be the same key; the key must read
 * back from its .zkey (in snarkjs' setup section order) and prove, and
 * every proof is verified. snarkjs' own files (tests/vectors/ptau: a
 * power-2 ceremony, prepared and not, and its `groth16 setup` of the
 * multiplier): read as they are, the setup from either equal to snarkjs'
 * byte for byte. `ptau-prepare`'s file from the unprepared .ptau equals
 * the reference's prepared one byte for byte. Then damaged files: each is refused with the status and message
 * of its fault. BLAKE2b against known answers.
 * (`snarkjs zkey verify` and byte equality with snarkjs' own setup are
 * checked by tests/test_ptau.sh.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "groth16/fixed_base.h"
#include "groth16/pointio.h"
#include "groth16/prove.h"
#include "groth16/ptau_prepare.h"
#include "groth16/ptau_setup.h"
#include "groth16/qap.h"
#include "groth16/verify.h"
#include "groth16/zkey.h"
#include "ntt/ntt.h"
#include "synth/prover.h"
#include "util/blake2b.h"
#include "util/curves.h"
#include "test.h"
#include "test_g16.h"

#define G1B (2 * SP_FP_BYTES)
#define G2B (4 * SP_FP_BYTES)
#define CONTRIB_FIXED (9 * G1B + 5 * G2B + 216 + 64 + 4 + 4)

/* ---- BLAKE2b ---- */

static void hex(char *out, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        snprintf(out + 2 * i, 3, "%02x", b[i]);
}

static void check_blake2b(sp_rng *rng)
{
    static const struct {
        size_t len, out; /* message: (i * 7) mod 256, or "abc" when len is 0 and out 32 / 64 with abc set */
        int abc;
        const char *want;
    } kat[] = { /* from Python's hashlib.blake2b */
        {0, 64, 0, "786a02f742015903c6c6fd852552d272912f4740e15847618a86e217f71f5419d25e1031afee585313896444934eb04b"
                   "903a685b1448b755d56f701afe9be2ce"},
        {3, 64, 1, "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d17d87c5392aab792dc252d5de4533cc"
                   "9518d38aa8dbf1925ab92386edd4009923"},
        {3, 32, 1, "bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319"},
        {256, 64, 0, "f8517f3d1accbf944ef17fc76662f7d91e6bbff44a7c5a0ed63bc52d177810f5dee0881ae4541269f230ae91b0c4"
                     "f8d8c9fa1fd094280e5ed38bc7da95427820"},
        {1000, 64, 0, "b49dc7bf928d7dee879fafc64c1c93088810acc1f4a02264c4c09809c0f3dbc771e25e2dedce3dbbc0640da14af9"
                      "fe42fb42b02c9fdff701b817f22192b7b2db"},
    };
    uint8_t msg[1000], out[64], part[64];
    char h[129];
    for (size_t k = 0; k < sizeof kat / sizeof kat[0]; k++) {
        for (size_t i = 0; i < kat[k].len; i++)
            msg[i] = kat[k].abc ? (uint8_t)"abc"[i] : (uint8_t)(i * 7);
        sp_blake2b(out, kat[k].out, msg, kat[k].len);
        hex(h, out, kat[k].out);
        CHECKF(!strcmp(h, kat[k].want), "blake2b known answer %zu: %s", k, h);
        /* the same bytes fed in random pieces */
        sp_blake2b_ctx c;
        sp_blake2b_init(&c, kat[k].out);
        for (size_t i = 0; i < kat[k].len;) {
            size_t step = 1 + sp_rng_u64(rng) % 300;
            step = step < kat[k].len - i ? step : kat[k].len - i;
            sp_blake2b_update(&c, msg + i, step);
            i += step;
        }
        sp_blake2b_final(part, &c);
        CHECKF(!memcmp(part, out, kat[k].out), "blake2b in pieces %zu", k);
    }
}

/* ---- a .ptau from known toxic waste ---- */

typedef struct {
    sp_fr tau, alpha, beta;
    unsigned power;
} toxic;

static void g1_lem(uint8_t *out, const sp_fr *k, size_t n)
{
    sp_g1_affine g, *p = malloc(sizeof *p * n);
    sp_g1_generator(&g);
    CHECK(p && sp_g1_fixed_base_mul_var(p, &g, k, n, 2) == SP_OK);
    sp_pt_encode_array(out, p, n, SP_PTF_LEM, 0);
    free(p);
}

static void g2_lem(uint8_t *out, const sp_fr *k, size_t n)
{
    sp_g2_affine g, *p = malloc(sizeof *p * n);
    sp_g2_generator(&g);
    CHECK(p && sp_g2_fixed_base_mul_var(p, &g, k, n, 2) == SP_OK);
    sp_pt_encode_array(out, p, n, SP_PTF_LEM, 1);
    free(p);
}

/* L^(2^k)_j(tau), j < 2^k: the inverse NTT of tau^0 .. tau^(2^k - 1) (the
 * last taken as 0 with zero_last, as snarkjs does for block power + 1). */
static void lagrange_block(sp_fr *out, const sp_fr *pw, unsigned k, int zero_last)
{
    size_t n = (size_t)1 << k;
    memcpy(out, pw, sizeof *out * n);
    if (zero_last)
        memset(&out[n - 1], 0, sizeof out[0]);
    if (k == 0)
        return;
    sp_ntt_domain *d;
    CHECK(sp_ntt_domain_create(&d, k, SP_NTT_ROOTS_SNARKJS, 1) == SP_OK);
    sp_ntt_inverse(d, out, 1);
    sp_ntt_domain_free(d);
}

/* Section 12..15's blocks 0..last for the series f * tau^i. */
static uint8_t *lagrange_section(size_t *len, const sp_fr *pw, const sp_fr *f, unsigned last, unsigned power, int g2)
{
    size_t total = ((size_t)2 << last) - 1, psz = g2 ? G2B : G1B;
    sp_fr *s = malloc(sizeof *s * total);
    uint8_t *out = malloc(total * psz);
    for (unsigned k = 0; k <= last; k++) {
        sp_fr *b = s + ((size_t)1 << k) - 1;
        lagrange_block(b, pw, k, k == power + 1);
        for (size_t j = 0; j < (size_t)1 << k && f; j++)
            sp_fr_mul(&b[j], &b[j], f);
    }
    (g2 ? g2_lem : g1_lem)(out, s, total);
    free(s);
    *len = total * psz;
    return out;
}

static uint8_t *series(size_t *len, const sp_fr *pw, const sp_fr *f, size_t n, int g2)
{
    sp_fr *s = malloc(sizeof *s * n);
    uint8_t *out = malloc(n * (g2 ? G2B : G1B));
    for (size_t i = 0; i < n; i++)
        if (f)
            sp_fr_mul(&s[i], &pw[i], f);
        else
            s[i] = pw[i];
    (g2 ? g2_lem : g1_lem)(out, s, n);
    free(s);
    *len = n * (g2 ? G2B : G1B);
    return out;
}

/* A .ptau of t->power (sections 1..7, and 12..15 when prepared) with one
 * contribution record (points not decoded by the reader: zeros) named "test". */
static uint8_t *make_ptau(size_t *len, const toxic *t, int prepared)
{
    size_t n = (size_t)1 << t->power, nl[11] = {0};
    sp_fr *pw = malloc(sizeof *pw * 2 * n);
    sp_fr_set_one(&pw[0]);
    for (size_t i = 1; i < 2 * n; i++)
        sp_fr_mul(&pw[i], &pw[i - 1], &t->tau);
    uint8_t hdr[4 + SP_FP_BYTES + 8], *contrib = calloc(1, 4 + CONTRIB_FIXED + 6), *sec[11] = {0};
    tg_put32(hdr, SP_FP_BYTES);
    for (int i = 0; i < SP_FP_BYTES; i++)
        hdr[4 + i] = (uint8_t)(SP_FP_MODULUS[i / 8] >> (8 * (i % 8)));
    tg_put32(hdr + 4 + SP_FP_BYTES, t->power);
    tg_put32(hdr + 8 + SP_FP_BYTES, t->power);
    tg_put32(contrib, 1);
    tg_put32(contrib + CONTRIB_FIXED, 6);
    memcpy(contrib + 4 + CONTRIB_FIXED, "\x01\x04test", 6);
    sec[0] = series(&nl[0], pw, NULL, 2 * n - 1, 0);
    sec[1] = series(&nl[1], pw, NULL, n, 1);
    sec[2] = series(&nl[2], pw, &t->alpha, n, 0);
    sec[3] = series(&nl[3], pw, &t->beta, n, 0);
    sec[4] = series(&nl[4], pw, &t->beta, 1, 1);
    if (prepared) {
        sec[5] = lagrange_section(&nl[5], pw, NULL, t->power + 1, t->power, 0);
        sec[6] = lagrange_section(&nl[6], pw, NULL, t->power, t->power, 1);
        sec[7] = lagrange_section(&nl[7], pw, &t->alpha, t->power, t->power, 0);
        sec[8] = lagrange_section(&nl[8], pw, &t->beta, t->power, t->power, 0);
    }
    tg_part parts[11] = {{1, hdr, sizeof hdr},        {2, sec[0], nl[0]}, {3, sec[1], nl[1]},
                         {4, sec[2], nl[2]},          {5, sec[3], nl[3]}, {6, sec[4], nl[4]},
                         {7, contrib, 4 + CONTRIB_FIXED + 6}, {12, sec[5], nl[5]}, {13, sec[6], nl[6]},
                         {14, sec[7], nl[7]},         {15, sec[8], nl[8]}};
    uint8_t *f = tg_build(len, "ptau", 1, parts, prepared ? 11 : 7);
    for (int i = 0; i < 11; i++)
        free(sec[i]);
    free(contrib), free(pw);
    return f;
}

/* ---- the setup against the reference ---- */

/* p[i] == [k[i]] G for i < n. */
static int g1_are(const sp_g1_affine *p, const sp_fr *k, size_t n)
{
    sp_g1_affine g, *want = malloc(sizeof *want * n);
    sp_g1_generator(&g);
    int ok = want && sp_g1_fixed_base_mul_var(want, &g, k, n, 2) == SP_OK;
    for (size_t i = 0; i < n && ok; i++)
        ok = sp_g1_affine_eq(&p[i], &want[i]);
    free(want);
    return ok;
}

static int g2_are(const sp_g2_affine *p, const sp_fr *k, size_t n)
{
    sp_g2_affine g, *want = malloc(sizeof *want * n);
    sp_g2_generator(&g);
    int ok = want && sp_g2_fixed_base_mul_var(want, &g, k, n, 2) == SP_OK;
    for (size_t i = 0; i < n && ok; i++)
        ok = sp_g2_affine_eq(&p[i], &want[i]);
    free(want);
    return ok;
}

/* The H points: the odd points of block log n + 1 (which has tau^(2n-1)
 * taken as 0 when n is 2^power). */
static void check_h(const char *what, const sp_g16_pk *pk, const toxic *t, const sp_ntt_domain *d)
{
    size_t n = pk->domain_size;
    int odd = 1;
    sp_fr *h = malloc(sizeof *h * 2 * n);
    if (n < (size_t)1 << t->power) { /* the exact basis: out[j] = L^(2n)_(2j+1)(tau) */
        CHECK(sp_qap_odd_lagrange_at(h, d, &t->tau, 1) == SP_OK);
        odd = 0;
    } else {
        sp_fr *pw = malloc(sizeof *pw * 2 * n);
        sp_fr_set_one(&pw[0]);
        for (size_t i = 1; i < 2 * n; i++)
            sp_fr_mul(&pw[i], &pw[i - 1], &t->tau);
        lagrange_block(h, pw, pk->log2_domain + 1, 1);
        free(pw);
    }
    for (size_t j = 0; j < n && odd; j++)
        h[j] = h[2 * j + 1];
    CHECKF(g1_are(pk->h, h, n), "%s: H points", what);
    free(h);
}

/* Every point of pk from the scalars A_i(tau), B_i(tau), C_i(tau). */
static void check_points(const char *what, const sp_g16_pk *pk, const sp_r1cs *cs, const toxic *t)
{
    size_t nv = pk->n_vars, npub = pk->vk.n_public;
    sp_ntt_domain *d;
    CHECK(sp_ntt_domain_create(&d, pk->log2_domain, SP_NTT_ROOTS_SNARKJS, 1) == SP_OK);
    sp_fr *lag = malloc(sizeof *lag * pk->domain_size), *a = malloc(sizeof *a * nv), *b = malloc(sizeof *b * nv),
          *c = malloc(sizeof *c * nv);
    CHECK(sp_qap_lagrange_at(lag, d, &t->tau, 1) == SP_OK && sp_qap_wires_at(a, b, c, cs, lag, 1) == SP_OK);
    for (size_t i = 0; i < nv; i++) { /* c[i] = beta A_i + alpha B_i + C_i */
        sp_fr u;
        sp_fr_mul(&u, &t->alpha, &b[i]);
        sp_fr_add(&c[i], &c[i], &u);
        sp_fr_mul(&u, &t->beta, &a[i]);
        sp_fr_add(&c[i], &c[i], &u);
    }
    int ok_a = g1_are(pk->a, a, nv), ok_b1 = g1_are(pk->b1, b, nv), ok_b2 = g2_are(pk->b2, b, nv);
    int ok_k = g1_are(pk->vk.ic, c, npub + 1) && g1_are(pk->c, c + npub + 1, nv - npub - 1);
    CHECKF(ok_a && ok_b1 && ok_b2 && ok_k, "%s: A %d, B1 %d, B2 %d, IC/C %d", what, ok_a, ok_b1, ok_b2, ok_k);
    sp_fr one, ab[2] = {t->alpha, t->beta};
    sp_fr_set_one(&one);
    sp_g1_affine hv1[2] = {pk->vk.alpha1, pk->vk.beta1};
    sp_g2_affine hv2[2] = {pk->vk.gamma2, pk->vk.delta2};
    CHECKF(g1_are(hv1, ab, 2) && g2_are(&pk->vk.beta2, &t->beta, 1) && g2_are(&hv2[0], &one, 1) &&
               g2_are(&hv2[1], &one, 1) && g1_are(&pk->vk.delta1, &one, 1),
           "%s: verifying key header", what);
    check_h(what, pk, t, d);
    free(lag), free(a), free(b), free(c);
    sp_ntt_domain_free(d);
}

static int verifies(const sp_g16_vk *vk, const sp_g16_proof *p, const sp_fr *pub)
{
    char err[SP_ERR_LEN];
    sp_g16_pvk pvk;
    int valid = 0;
    if (sp_g16_pvk_init(&pvk, vk, err) != SP_OK)
        return -1;
    sp_status st = sp_g16_verify(&valid, &pvk, p, pub, vk->n_public, err);
    sp_g16_pvk_free(&pvk);
    return st == SP_OK ? valid : -1;
}

/* Writes pk in setup order, reads it back (every check of the reader),
 * and proves with the key read when a witness is given. */
static void check_file(const char *what, const sp_g16_pk *pk, const sp_r1cs *cs, const sp_fr *w, size_t wn)
{
    char err[SP_ERR_LEN] = "", path[] = "/tmp/sp_test_ptau_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    sp_g16_pk back;
    sp_zkey_info zi;
    CHECKF(sp_zkey_write_setup(path, pk, err) == SP_OK, "%s: %s", what, err);
    CHECKF(sp_zkey_read(&back, &zi, path, 0, 2, err) == SP_OK, "%s: read back: %s", what, err);
    static const uint32_t order[10] = {1, 2, 4, 3, 9, 8, 5, 6, 7, 10};
    CHECKF(zi.n_sections == 10 && !memcmp(zi.section_order, order, sizeof order), "%s: section order", what);
    CHECKF(tg_pk_equal(&back, pk), "%s: key read back differs", what);
    CHECKF(zi.n_contributions == 0 && !memcmp(zi.cs_hash, pk->mpc, 64), "%s: section 10", what);
    if (w) {
        sp_g16_proof p;
        sp_fr *pub = calloc(pk->vk.n_public + 1, sizeof *pub);
        sp_g16_prove_opts o = sp_g16_prove_opts_default();
        o.threads = 2;
        CHECKF(sp_synth_prove(&p, pub, &back, cs, w, wn, 1, &o, err) == SP_OK, "%s: prove: %s", what, err);
        CHECKF(verifies(&back.vk, &p, pub) == 1, "%s: the proof does not verify", what);
        sp_g1_affine_neg(&p.a, &p.a);
        CHECKF(verifies(&back.vk, &p, pub) == 0, "%s: a negated A verifies", what);
        free(pub);
    }
    sp_g16_pk_free(&back);
    unlink(path);
}

/* The setups of cs from two files agree (points and circuit hash). */
static void check_same(const char *what, const sp_r1cs *cs, const uint8_t *f1, size_t l1, const uint8_t *f2,
                       size_t l2)
{
    char err[SP_ERR_LEN] = "";
    sp_ptau p1, p2;
    sp_g16_pk k1, k2;
    CHECK(sp_ptau_parse(&p1, f1, l1, err) == SP_OK && sp_ptau_parse(&p2, f2, l2, err) == SP_OK);
    CHECKF(sp_g16_setup_ptau(&k1, cs, &p1, 2, err) == SP_OK, "%s: %s", what, err);
    CHECKF(sp_g16_setup_ptau(&k2, cs, &p2, 3, err) == SP_OK, "%s: %s", what, err);
    CHECKF(tg_pk_equal(&k1, &k2), "%s: the keys from the prepared and unprepared files differ", what);
    sp_g16_pk_free(&k1), sp_g16_pk_free(&k2);
    sp_ptau_close(&p1), sp_ptau_close(&p2);
}

static void check_circuit(const char *what, const sp_r1cs *cs, const uint8_t *file, size_t len, const toxic *t,
                          const sp_fr *w, size_t wn)
{
    char err[SP_ERR_LEN] = "";
    sp_ptau p;
    sp_g16_pk pk;
    CHECKF(sp_ptau_parse(&p, file, len, err) == SP_OK, "%s: %s", what, err);
    CHECK(p.power == t->power && p.prepared && p.n_contributions == 1);
    sp_status st = sp_g16_setup_ptau(&pk, cs, &p, 3, err);
    CHECKF(st == SP_OK, "%s: setup: %s", what, err);
    if (st == SP_OK) {
        CHECK(pk.domain_size == 1u << sp_g16_ptau_domain_log(&cs->h) && pk.has_qap && pk.mpc_len == 68);
        CHECK(pk.qap_a.nnz == cs->a.nnz + pk.vk.n_public + 1 && pk.qap_b.nnz == cs->b.nnz);
        check_points(what, &pk, cs, t);
        check_file(what, &pk, cs, w, wn);
        /* the same key whatever the thread count */
        sp_g16_pk one;
        CHECK(sp_g16_setup_ptau(&one, cs, &p, 1, err) == SP_OK && tg_pk_equal(&one, &pk) &&
              !memcmp(one.mpc, pk.mpc, 68));
        sp_g16_pk_free(&one);
        sp_g16_pk_free(&pk);
    }
    sp_ptau_close(&p);
}

/* A random circuit: coefficients +-1, small either side of r and full
 * width, wire 0 in most rows of A (a column long enough for the MSM). */
static void random_circuit(sp_r1cs *cs, sp_rng *rng, uint32_t n_wires, uint32_t n_rows)
{
    memset(cs, 0, sizeof *cs);
    cs->h.n_wires = n_wires;
    cs->h.n_outputs = 1;
    cs->h.n_pub_inputs = 2;
    cs->h.n_prv_inputs = 3;
    cs->h.n_labels = n_wires;
    cs->h.n_constraints = n_rows;
    sp_csr *m[3] = {&cs->a, &cs->b, &cs->c};
    for (int k = 0; k < 3; k++) {
        m[k]->n_rows = n_rows;
        m[k]->row = calloc(n_rows + 1, sizeof *m[k]->row);
        m[k]->col = malloc(sizeof *m[k]->col * 4 * n_rows);
        m[k]->val = malloc(sizeof *m[k]->val * 4 * n_rows);
        uint64_t nnz = 0;
        for (uint32_t r = 0; r < n_rows; r++) {
            uint32_t per = (uint32_t)(sp_rng_u64(rng) % 4), first = 1 + (uint32_t)(sp_rng_u64(rng) % (n_wires - 4));
            if (k == 0 && sp_rng_u64(rng) % 4) /* wire 0 in three rows of four */
                m[k]->col[nnz] = 0, sp_fr_random(&m[k]->val[nnz], rng), nnz++;
            for (uint32_t e = 0; e < per; e++) {
                sp_fr *v = &m[k]->val[nnz];
                m[k]->col[nnz++] = first + e; /* distinct wires within the row */
                switch (sp_rng_u64(rng) % 5) {
                case 0: sp_fr_set_one(v); break;
                case 1: sp_fr_set_one(v), sp_fr_neg(v, v); break;
                case 2: sp_fr_set_u64(v, sp_rng_u64(rng) >> (sp_rng_u64(rng) % 64)); break;
                case 3: sp_fr_set_u64(v, sp_rng_u64(rng)), sp_fr_neg(v, v); break;
                default: sp_fr_random(v, rng); break;
                }
            }
            m[k]->row[r + 1] = nnz;
        }
        m[k]->nnz = nnz;
    }
}

static sp_r1cs load_r1cs(const char *path)
{
    char err[SP_ERR_LEN] = "";
    sp_r1cs cs;
    if (sp_r1cs_read(&cs, path, err) != SP_OK) {
        fprintf(stderr, "%s: %s\n", path, err);
        exit(1);
    }
    return cs;
}

static void check_setups(sp_rng *rng)
{
    toxic t = {.power = 10};
    sp_fr_random(&t.tau, rng);
    sp_fr_random(&t.alpha, rng);
    sp_fr_random(&t.beta, rng);
    size_t len, wn;
    size_t rlen;
    uint8_t *file = make_ptau(&len, &t, 1), *raw = make_ptau(&rlen, &t, 0);
    char err[SP_ERR_LEN] = "";
    static const char *circuits[] = {"multiplier", "chain1021"}; /* domains 4 < 2^power, 1024 = 2^power */
    for (int k = 0; k < 2; k++) {
        char path[256];
        snprintf(path, sizeof path, "tests/vectors/%s_%s/circuit.r1cs", circuits[k], SP_CURVE_SNARKJS);
        sp_r1cs cs = load_r1cs(path);
        snprintf(path, sizeof path, "tests/vectors/%s_%s/witness.wtns", circuits[k], SP_CURVE_SNARKJS);
        sp_fr *w = NULL;
        CHECKF(sp_wtns_read(&w, &wn, path, err) == SP_OK, "%s: %s", path, err);
        check_circuit(circuits[k], &cs, file, len, &t, w, wn);
        check_same(circuits[k], &cs, file, len, raw, rlen);
        free(w);
        sp_r1cs_free(&cs);
    }
    sp_r1cs rc;
    random_circuit(&rc, rng, 300, 200);
    check_circuit("random circuit", &rc, file, len, &t, NULL, 0);
    check_same("random circuit", &rc, file, len, raw, rlen);
    sp_r1cs_free(&rc);
    free(file), free(raw);
}

/* ---- snarkjs' powersoftau prepare phase2 ---- */

/* The prepared file written from the unprepared one (its Lagrange points
 * by inverse DFTs over points) is the reference's (the same points from
 * scalars), byte for byte, at a power whose tauG1 block power + 1 takes
 * the missing point as infinity; and from the prepared file itself. */
static void check_prepare(sp_rng *rng)
{
    toxic t = {.power = 6};
    sp_fr_random(&t.tau, rng);
    sp_fr_random(&t.alpha, rng);
    sp_fr_random(&t.beta, rng);
    size_t len, rlen;
    uint8_t *want = make_ptau(&len, &t, 1), *raw = make_ptau(&rlen, &t, 0);
    char err[SP_ERR_LEN] = "", path[] = "/tmp/sp_test_ptau_prep_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd >= 0)
        close(fd);
    const uint8_t *from[2] = {raw, want};
    size_t from_len[2] = {rlen, len};
    for (int k = 0; k < 2 && fd >= 0; k++) {
        sp_ptau p;
        CHECKF(sp_ptau_parse(&p, from[k], from_len[k], err) == SP_OK, "prepare: parse: %s", err);
        CHECKF(sp_ptau_prepare_write(path, &p, NULL, 1 + k, err) == SP_OK, "prepare: %s", err);
        sp_ptau_close(&p);
        FILE *f = fopen(path, "rb");
        uint8_t *got = malloc(len + 1);
        size_t n = f && got ? fread(got, 1, len + 1, f) : 0;
        CHECKF(n == len && !memcmp(got, want, len), "prepared from the %s file: %zu bytes, %s the reference's %zu",
               k ? "prepared" : "unprepared", n, n == len && !memcmp(got, want, len) ? "as" : "not", len);
        if (f)
            fclose(f);
        free(got);
    }
    if (fd >= 0)
        unlink(path);
    free(want), free(raw);
}

/* ---- snarkjs' files ---- */

static void check_snarkjs_files(void)
{
    char err[SP_ERR_LEN] = "", path[] = "/tmp/sp_test_ptau_XXXXXX";
    sp_ptau p[2];
    sp_g16_pk pk;
    CHECKF(sp_ptau_open(&p[0], "tests/vectors/ptau/pot2_" SP_CURVE_SNARKJS ".ptau", err) == SP_OK, "%s", err);
    CHECK(p[0].power == 2 && p[0].ceremony_power == 2 && p[0].n_contributions == 1 && p[0].prepared);
    CHECKF(sp_ptau_open(&p[1], "tests/vectors/ptau/pot2_" SP_CURVE_SNARKJS "_raw.ptau", err) == SP_OK, "%s", err);
    CHECK(p[1].power == 2 && p[1].n_contributions == 1 && !p[1].prepared);
    sp_r1cs cs = load_r1cs("tests/vectors/multiplier_" SP_CURVE_SNARKJS "/circuit.r1cs");
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    size_t want_len;
    uint8_t *want = sp_test_load("tests/vectors/ptau/multiplier_" SP_CURVE_SNARKJS "_0000.zkey", &want_len);
    for (int k = 0; k < 2; k++) { /* from the prepared file, then from the one before `prepare phase2` */
        size_t mine_len = 0;
        CHECKF(sp_g16_setup_ptau(&pk, &cs, &p[k], 2, err) == SP_OK, "setup from snarkjs' ptau %d: %s", k, err);
        CHECKF(sp_zkey_write_setup(path, &pk, err) == SP_OK, "%s", err);
        uint8_t *mine = sp_test_load(path, &mine_len);
        CHECKF(mine_len == want_len && !memcmp(mine, want, want_len),
               "not snarkjs' groth16 setup byte for byte (from the %s file)", k ? "unprepared" : "prepared");
        free(mine);
        sp_g16_pk_free(&pk);
    }
    free(want);
    unlink(path);
    sp_r1cs_free(&cs);
    sp_ptau_close(&p[0]), sp_ptau_close(&p[1]);
}

/* ---- damaged files ---- */

static void expect_parse(const char *what, const uint8_t *f, size_t len, sp_status want, const char *msg)
{
    char err[SP_ERR_LEN] = "";
    sp_ptau p;
    sp_status st = sp_ptau_parse(&p, f, len, err);
    CHECKF(st == want && (!msg || strstr(err, msg)), "%s: status %s, \"%s\"", what, sp_status_str(st), err);
    if (st == SP_OK)
        sp_ptau_close(&p);
}

/* A copy of f with section id's payload replaced. */
static void expect_section(const char *what, const uint8_t *f, size_t len, uint32_t id, const uint8_t *p,
                           size_t plen, sp_status want, const char *msg)
{
    size_t nl;
    uint8_t *g = tg_replace_section(&nl, f, len, id, p, plen);
    expect_parse(what, g, nl, want, msg);
    free(g);
}

/* The setup of circuit cs from f (which opens) fails with want and msg. */
static void expect_setup(const char *what, const uint8_t *f, size_t len, const sp_r1cs *cs, sp_status want,
                         const char *msg)
{
    char err[SP_ERR_LEN] = "";
    sp_ptau p;
    sp_g16_pk pk;
    CHECKF(sp_ptau_parse(&p, f, len, err) == SP_OK, "%s: %s", what, err);
    sp_status st = sp_g16_setup_ptau(&pk, cs, &p, 2, err);
    CHECKF(st == want && strstr(err, msg), "%s: status %s, \"%s\"", what, sp_status_str(st), err);
    if (st == SP_OK)
        sp_g16_pk_free(&pk);
    sp_ptau_close(&p);
}

/* f with point `index` of section id overwritten by pt (psz bytes). */
static uint8_t *with_point(const uint8_t *f, size_t len, uint32_t id, size_t index, const uint8_t *pt, size_t psz)
{
    tg_section s[16];
    int n = tg_sections(s, 16, f, len);
    const tg_section *sec = tg_find(s, n, id);
    uint8_t *g = malloc(len);
    memcpy(g, f, len);
    memcpy(g + sec->off + index * psz, pt, psz);
    return g;
}

static void put_fp_lem(uint8_t *out, const sp_fp *a)
{
    for (int i = 0; i < SP_FP_BYTES; i++)
        out[i] = (uint8_t)(a->l[i / 8] >> (8 * (i % 8)));
}

static void check_points_refused(const uint8_t *f, size_t len, const sp_r1cs *cs)
{
    tg_section s[16];
    int n = tg_sections(s, 16, f, len);
    const tg_section *s12 = tg_find(s, n, 12);
    /* block 2 (4 points at offset 3) is the multiplier's domain */
    uint8_t pt[G2B];
    memcpy(pt, f + s12->off + 4 * G1B, G1B);
    pt[SP_FP_BYTES] ^= 1; /* y changes, x stays: off the curve */
    uint8_t *g = with_point(f, len, 12, 4, pt, G1B);
    expect_setup("off-curve point", g, len, cs, SP_ERR_NOT_ON_CURVE, "section 12 (Lagrange tauG1): point 4: not on");
    free(g);
    sp_fp p = {{0}};
    memcpy(p.l, SP_FP_MODULUS, sizeof p.l);
    memcpy(pt, f + s12->off + 4 * G1B, G1B);
    put_fp_lem(pt, &p); /* x = p */
    g = with_point(f, len, 12, 4, pt, G1B);
    expect_setup("coordinate p", g, len, cs, SP_ERR_NOT_CANONICAL, "point 4: coordinate >= p");
    free(g);
    memset(pt, 0, G1B);
    g = with_point(f, len, 14, 3, pt, G1B);
    expect_setup("infinity", g, len, cs, SP_ERR_FORMAT, "section 14 (Lagrange alphaTauG1): point 3: point at");
    free(g);
    sp_g2_affine bad2;
    tg_g2_outside_subgroup(&bad2);
    put_fp_lem(pt, &bad2.x.c0);
    put_fp_lem(pt + SP_FP_BYTES, &bad2.x.c1);
    put_fp_lem(pt + 2 * SP_FP_BYTES, &bad2.y.c0);
    put_fp_lem(pt + 3 * SP_FP_BYTES, &bad2.y.c1);
    g = with_point(f, len, 13, 5, pt, G2B);
    expect_setup("G2 outside the subgroup", g, len, cs, SP_ERR_NOT_IN_SUBGROUP,
                 "section 13 (Lagrange tauG2): point 5: not in the prime-order subgroup");
    free(g);
#if !SP_CURVE_BN254 /* BN254's G1 is the whole curve */
    sp_g1_affine bad1;
    tg_g1_outside_subgroup(&bad1);
    put_fp_lem(pt, &bad1.x);
    put_fp_lem(pt + SP_FP_BYTES, &bad1.y);
    g = with_point(f, len, 2, 1, pt, G1B); /* tauG1, read for the circuit hash */
    expect_setup("G1 outside the subgroup", g, len, cs, SP_ERR_NOT_IN_SUBGROUP, "section 2 (tauG1): point 1: not in");
    free(g);
#endif
}

static void check_damaged(sp_rng *rng)
{
    toxic t = {.power = 3};
    sp_fr_random(&t.tau, rng);
    sp_fr_random(&t.alpha, rng);
    sp_fr_random(&t.beta, rng);
    size_t len, ulen;
    uint8_t *f = make_ptau(&len, &t, 1), *u = make_ptau(&ulen, &t, 0);
    expect_parse("whole", f, len, SP_OK, NULL);
    expect_parse("unprepared", u, ulen, SP_OK, NULL);
    expect_parse("truncated", f, len - 1, SP_ERR_TRUNCATED, NULL);
    uint8_t *g = malloc(len);
    memcpy(g, f, len);
    memcpy(g, "zkey", 4);
    expect_parse("magic", g, len, SP_ERR_FORMAT, NULL);
    free(g);

    tg_section s[16];
    int n = tg_sections(s, 16, f, len);
    const tg_section *hdr = tg_find(s, n, 1), *s3 = tg_find(s, n, 3), *s7 = tg_find(s, n, 7);
    expect_section("tauG2 short", f, len, 3, f + s3->off, s3->size - G2B, SP_ERR_FORMAT,
                   "ptau section 3 (tauG2): its size is not that of 2^power G2 points");
    uint8_t h[4 + SP_FP_BYTES + 8];
    memcpy(h, f + hdr->off, sizeof h);
    tg_put32(h + 4 + SP_FP_BYTES, 0);
    expect_section("power 0", f, len, 1, h, sizeof h, SP_ERR_UNSUPPORTED, "power outside 1..28");
    tg_put32(h + 4 + SP_FP_BYTES, 29);
    expect_section("power 29", f, len, 1, h, sizeof h, SP_ERR_UNSUPPORTED, "power outside 1..28");
    tg_put32(h + 4 + SP_FP_BYTES, 3);
    tg_put32(h + 8 + SP_FP_BYTES, 2);
    expect_section("ceremony power", f, len, 1, h, sizeof h, SP_ERR_FORMAT, "ceremony power below power");
    expect_section("header long", f, len, 1, h, sizeof h - 1, SP_ERR_FORMAT, "section 1 (header)");
    /* the other curve's base field, from its zkey (section 2 starts n8q | q) */
    size_t zlen;
    uint8_t *z = sp_test_load("tests/vectors/" SP_TEST_VEC_OTHER("multiplier") "/circuit_0000.zkey", &zlen), oh[64];
    tg_section zs[16];
    const tg_section *z2 = tg_find(zs, tg_sections(zs, 16, z, zlen), 2);
    uint32_t ob = tg_le32(z + z2->off);
    memcpy(oh, z + z2->off, 4 + ob);
    tg_put32(oh + 4 + ob, 3);
    tg_put32(oh + 8 + ob, 3);
    expect_section("other curve", f, len, 1, oh, 12 + ob, SP_ERR_UNSUPPORTED, "ptau is for");
    free(z);

    uint8_t *c = malloc(s7->size);
    memcpy(c, f + s7->off, s7->size);
    tg_put32(c, 2);
    expect_section("contributions counted 2, 1 there", f, len, 7, c, s7->size, SP_ERR_FORMAT,
                   "does not hold exactly the records");
    tg_put32(c, 1);
    memcpy(c + 4 + CONTRIB_FIXED, "\x03\x01x\x01\x00", 5); /* beacon hash, then a name: not sorted */
    tg_put32(c + CONTRIB_FIXED, 5);
    expect_section("parameters unsorted", f, len, 7, c, s7->size - 1, SP_ERR_FORMAT, "parameter list is malformed");
    free(c);

    tg_part some[13];
    for (int i = 0; i < n; i++)
        some[i] = (tg_part){s[i].id, f + s[i].off, s[i].size};
    size_t nl;
    g = tg_build(&nl, "ptau", 1, some, n - 3); /* 12 without 13..15 */
    expect_parse("one Lagrange section", g, nl, SP_ERR_FORMAT, "Lagrange sections (12..15) are missing");
    free(g);
    some[n] = some[1]; /* tauG1 twice */
    g = tg_build(&nl, "ptau", 1, some, n + 1);
    expect_parse("section twice", g, nl, SP_ERR_FORMAT, NULL);
    free(g);

    char err[SP_ERR_LEN] = "";
    sp_r1cs mul = load_r1cs("tests/vectors/multiplier_" SP_CURVE_SNARKJS "/circuit.r1cs");
    sp_r1cs chain = load_r1cs("tests/vectors/chain1021_" SP_CURVE_SNARKJS "/circuit.r1cs");
    check_same("unprepared, power 3", &mul, f, len, u, ulen);
    expect_setup("too small", f, len, &chain, SP_ERR_UNSUPPORTED, "use a .ptau of power 10 or more");
    check_points_refused(f, len, &mul);
    sp_ptau p;
    sp_g1_affine pts[2];
    CHECK(sp_ptau_parse(&p, f, len, err) == SP_OK);
    CHECK(sp_ptau_read_points(pts, &p, SP_PTAU_TAU_G1, 14, 2, 1, 1, err) == SP_ERR_INVALID_ARG);
    CHECK(sp_ptau_read_points(pts, &p, SP_PTAU_TAU_G1, 13, 2, 1, 1, err) == SP_OK); /* the last two */
    sp_ptau_close(&p);
    sp_r1cs_free(&mul);
    sp_r1cs_free(&chain);
    free(f), free(u);
}

int main(void)
{
    sp_rng rng;
    sp_test_begin("test_ptau", &rng);
    check_blake2b(&rng);
    check_snarkjs_files();
    check_damaged(&rng);
    check_setups(&rng);
    check_prepare(&rng);
    return sp_test_done();
}
