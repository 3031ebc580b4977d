/*
 * The CPU prover on the snarkjs vectors: with r = 12345 and s = 67890 our
 * proof must equal snarkjs' proof_fixed_rs.json digit for digit, and the
 * public signals public_fixed_rs.json. Also: split and plain MSMs, and
 * synthesis from the key's QAP or from the .r1cs, and a second backend
 * implementing the per-proof call its own way, all give the same proof; a
 * witness that breaks a constraint is refused in check mode.
 */
#include <stdlib.h>
#include <string.h>
#include "groth16/backend.h"
#include "groth16/verify.h"
#include "groth16/zkey.h"
#include "synth/prover.h"
#include "util/json.h"
#include "test.h"


/* 1 when the JSON string v holds the decimal form of x. */
static int dec_eq(const sp_json_val *v, const sp_fp *x)
{
    char buf[SP_FP_DEC_MAX];
    return v && v->text && sp_fp_to_dec(buf, sizeof buf, x) == SP_OK && strcmp(buf, v->text) == 0;
}

static int proof_matches(const sp_g16_proof *p, const sp_json_val *root)
{
    const sp_json_val *pa = sp_json_get(root, "pi_a"), *pb = sp_json_get(root, "pi_b"),
                      *pc = sp_json_get(root, "pi_c");
    return dec_eq(sp_json_at(pa, 0), &p->a.x) && dec_eq(sp_json_at(pa, 1), &p->a.y) &&
           dec_eq(sp_json_at(sp_json_at(pb, 0), 0), &p->b.x.c0) && dec_eq(sp_json_at(sp_json_at(pb, 0), 1), &p->b.x.c1) &&
           dec_eq(sp_json_at(sp_json_at(pb, 1), 0), &p->b.y.c0) && dec_eq(sp_json_at(sp_json_at(pb, 1), 1), &p->b.y.c1) &&
           dec_eq(sp_json_at(pc, 0), &p->c.x) && dec_eq(sp_json_at(pc, 1), &p->c.y);
}

static int public_matches(const sp_fr *pub, size_t n, const sp_json_val *root)
{
    if (!root || root->n != n)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char buf[SP_FR_DEC_MAX];
        const sp_json_val *v = sp_json_at(root, i);
        if (sp_fr_to_dec(buf, sizeof buf, &pub[i]) != SP_OK || !v->text || strcmp(buf, v->text) != 0)
            return 0;
    }
    return 1;
}

static const sp_json_val *load_json(sp_json_doc **doc, const char *dir, const char *name)
{
    char path[256];
    size_t len;
    snprintf(path, sizeof path, "tests/vectors/%s/%s", dir, name);
    char *text = (char *)sp_test_slurp(path, &len);
    *doc = NULL;
    if (!text || sp_json_parse(doc, text, len, NULL, NULL, 0) != SP_OK) {
        free(text);
        return NULL;
    }
    free(text);
    return sp_json_root(*doc);
}

/* A second backend that implements prove its own way (the H step and each
 * MSM through the CPU pieces, the witness scalars converted one by one,
 * every witness MSM with the opposite split setting) and counts its calls:
 * the prover must make exactly one per proof and get the same proof. */
static int other_calls;
static sp_status other_prove(sp_backend *be, sp_backend_msms *out, const sp_backend_proof *in, char err[SP_ERR_LEN])
{
    const sp_g16_pk *pk = in->pk;
    size_t nv = pk->n_vars, skip = (size_t)pk->vk.n_public + 1;
    const sp_ntt_domain *d;
    sp_status st = sp_backend_fill(be, in, &d, err);
    other_calls++;
    if (st != SP_OK)
        return st;
    sp_scalar *ws = malloc(nv * sizeof *ws), *hs = malloc(pk->n_h * sizeof *hs);
    st = ws && hs ? SP_OK : SP_ERR_NOMEM;
    for (size_t i = 0; st == SP_OK && i < nv; i++)
        sp_fr_to_canonical(ws[i].l, &in->w[i]);
    if (st == SP_OK)
        st = sp_cpu_h_scalars(be, hs, in->a, in->b, in->c, pk, d, err);
    if (st == SP_OK)
        st = sp_cpu_msm_g1(be, &out->h, pk->h, hs, pk->n_h, 1, NULL, err);
    if (st == SP_OK)
        st = sp_cpu_msm_g1(be, &out->a, pk->a, ws, nv, !in->split, NULL, err);
    if (st == SP_OK)
        st = sp_cpu_msm_g1(be, &out->b1, pk->b1, ws, nv, !in->split, NULL, err);
    if (st == SP_OK)
        st = sp_cpu_msm_g1(be, &out->c, pk->c, ws + skip, nv - skip, !in->split, NULL, err);
    if (st == SP_OK && in->g2)
        st = sp_cpu_msm_g2(be, &out->b2, pk->b2, ws, nv, !in->split, NULL, err);
    free(ws);
    free(hs);
    return st;
}

static void check_other_backend(const char *dir, const sp_g16_proof *want, const sp_g16_pk *pk, const sp_fr *w,
                                size_t wn, sp_g16_prove_opts o)
{
    char err[SP_ERR_LEN] = "";
    sp_backend *be = NULL;
    CHECKF(sp_backend_cpu_open(&be, 2) == SP_OK, "%s", dir);
    if (!be)
        return;
    be->prove = other_prove;
    o.backend = be;
    for (int g2 = 0; g2 < 2; g2++) {
        sp_g16_proof p;
        o.g2_on_backend = g2;
        other_calls = 0;
        CHECKF(sp_synth_prove(&p, NULL, pk, NULL, w, wn, 0, &o, err) == SP_OK, "%s: other backend: %s", dir, err);
        CHECKF(memcmp(&p, want, sizeof p) == 0, "%s: proof with the other backend (g2 %d) differs", dir, g2);
        CHECKF(other_calls == 1, "%s: %d prove calls for one proof (want 1)", dir, other_calls);
    }
    sp_backend_close(be);
}

static void check_vector(const char *dir)
{
    char path[256], err[SP_ERR_LEN] = "";
    sp_g16_pk pk;
    sp_r1cs cs;
    sp_fr *w = NULL;
    size_t wn = 0;
    snprintf(path, sizeof path, "tests/vectors/%s/circuit_final.zkey", dir);
    CHECKF(sp_zkey_read(&pk, NULL, path, 0, 2, err) == SP_OK, "%s: %s", dir, err);
    snprintf(path, sizeof path, "tests/vectors/%s/circuit.r1cs", dir);
    CHECKF(sp_r1cs_read(&cs, path, err) == SP_OK, "%s: %s", dir, err);
    snprintf(path, sizeof path, "tests/vectors/%s/witness.wtns", dir);
    CHECKF(sp_wtns_read(&w, &wn, path, err) == SP_OK, "%s: %s", dir, err);

    sp_fr r, s;
    sp_fr_set_u64(&r, 12345);
    sp_fr_set_u64(&s, 67890);
    sp_g16_prove_opts o = sp_g16_prove_opts_default();
    o.threads = 2;
    o.insecure_fixed_r = &r;
    o.insecure_fixed_s = &s;
    sp_g16_proof p[5];
    sp_fr *pub = calloc(pk.vk.n_public + 1, sizeof(sp_fr));
    CHECKF(sp_synth_prove(&p[0], pub, &pk, NULL, w, wn, 0, &o, err) == SP_OK, "%s: %s", dir, err);
    o.split_msm = 0;
    CHECKF(sp_synth_prove(&p[1], NULL, &pk, NULL, w, wn, 0, &o, err) == SP_OK, "%s: %s", dir, err);
    o.split_msm = 1;
    o.threads = 1;
    CHECKF(sp_synth_prove(&p[2], NULL, &pk, &cs, w, wn, 1, &o, err) == SP_OK, "%s: %s", dir, err);
    o.g2_on_backend = 0; /* the engine's way: G2 MSM deferred to the finish phase */
    CHECKF(sp_synth_prove(&p[4], NULL, &pk, NULL, w, wn, 0, &o, err) == SP_OK, "%s: %s", dir, err);
    CHECKF(memcmp(&p[0], &p[4], sizeof p[0]) == 0, "%s: deferred-G2 proof differs", dir);
    o.g2_on_backend = 1;
    check_other_backend(dir, &p[0], &pk, w, wn, o);

    /* Fresh r and s: a different proof every time, and it verifies. */
    sp_g16_prove_opts fresh = sp_g16_prove_opts_default();
    sp_g16_proof q[2];
    sp_g16_pvk pvk;
    int valid = 0;
    CHECKF(sp_g16_pvk_init(&pvk, &pk.vk, err) == SP_OK, "%s: %s", dir, err);
    for (int i = 0; i < 2; i++) {
        CHECKF(sp_synth_prove(&q[i], NULL, &pk, NULL, w, wn, 0, &fresh, err) == SP_OK, "%s: %s", dir, err);
        CHECKF(sp_g16_verify(&valid, &pvk, &q[i], pub, pk.vk.n_public, err) == SP_OK && valid,
               "%s: fresh proof %d does not verify (%s)", dir, i, err);
    }
    CHECKF(memcmp(&q[0], &q[1], sizeof q[0]) != 0, "%s: two proofs with fresh r, s are equal", dir);
    CHECK(sp_g16_verify(&valid, &pvk, &p[0], pub, pk.vk.n_public, err) == SP_OK && valid);
    sp_g16_pvk_free(&pvk);

    sp_json_doc *pd, *ud;
    const sp_json_val *proof_json = load_json(&pd, dir, "proof_fixed_rs.json");
    const sp_json_val *pub_json = load_json(&ud, dir, "public_fixed_rs.json");
    CHECKF(proof_json && proof_matches(&p[0], proof_json), "%s: proof differs from snarkjs' proof_fixed_rs.json", dir);
    CHECKF(pub_json && public_matches(pub, pk.vk.n_public, pub_json), "%s: public signals differ", dir);
    CHECKF(memcmp(&p[0], &p[1], sizeof p[0]) == 0, "%s: split and plain MSM proofs differ", dir);
    CHECKF(memcmp(&p[0], &p[2], sizeof p[0]) == 0, "%s: key-QAP and r1cs synthesis proofs differ", dir);

    /* A broken witness: check mode names the constraint, and refuses. */
    sp_fr one;
    sp_fr_set_one(&one);
    sp_fr_add(&w[wn - 1], &w[wn - 1], &one);
    err[0] = 0;
    CHECK(sp_synth_prove(&p[3], NULL, &pk, &cs, w, wn, 1, &o, err) == SP_ERR_UNSATISFIED);
    CHECKF(strstr(err, "constraint") != NULL, "%s: unhelpful message '%s'", dir, err);
    /* Wrong witness length. */
    CHECK(sp_synth_prove(&p[3], NULL, &pk, NULL, w, wn - 1, 0, &o, err) == SP_ERR_INVALID_ARG);
    /* A circuit that does not fit the key: wires, then rows beyond the
     * domain; a key without its QAP and no circuit. */
    cs.h.n_wires++;
    CHECKF(sp_synth_prove(&p[3], NULL, &pk, &cs, w, wn, 0, &o, err) == SP_ERR_INVALID_ARG &&
           strstr(err, "does not match the key"), "%s: a circuit with one wire too many: '%s'", dir, err);
    cs.h.n_wires--;
    uint32_t constraints = cs.h.n_constraints;
    cs.h.n_constraints = pk.domain_size - sp_r1cs_n_public(&cs.h);
    CHECKF(sp_synth_prove(&p[3], NULL, &pk, &cs, w, wn, 0, &o, err) == SP_ERR_INVALID_ARG &&
           strstr(err, "rows") && strstr(err, "domain"), "%s: rows beyond the domain: '%s'", dir, err);
    cs.h.n_constraints = constraints;
    pk.has_qap = 0;
    CHECKF(sp_synth_prove(&p[3], NULL, &pk, NULL, w, wn, 0, &o, err) == SP_ERR_INVALID_ARG &&
           strstr(err, "QAP"), "%s: no QAP and no circuit: '%s'", dir, err);
    pk.has_qap = 1;
    CHECKF(sp_synth_prove(&p[3], NULL, &pk, &cs, w, wn, 0, &o, err) == SP_OK, "%s: after the checks: %s", dir, err);

    sp_json_free(pd);
    sp_json_free(ud);
    free(pub);
    free(w);
    sp_r1cs_free(&cs);
    sp_g16_pk_free(&pk);
}

/* Backend providers: names go to the provider of their prefix, "auto" tries
 * the first provider's auto_name and falls back to cpu. */
static char opened_[32];
static int fake_fails_;

static sp_status fake_open(sp_backend **be, const char *name, int threads, char err[SP_ERR_LEN])
{
    snprintf(opened_, sizeof opened_, "%s", name);
    if (fake_fails_) {
        *be = NULL;
        snprintf(err, SP_ERR_LEN, "%s: no such device", name);
        return SP_ERR_GPU;
    }
    return sp_backend_cpu_open(be, threads);
}

static int fake_count(void) { return 3; }

static void check_providers(void)
{
    static const sp_backend_provider fake = {"fake", "fake:0", fake_open, fake_count};
    static const sp_backend_provider dup = {"fake", "fake:9", NULL, NULL};
    char err[SP_ERR_LEN] = "";
    sp_backend *be = NULL;
    CHECK(sp_backend_open(&be, "fake:1", 1, err) == SP_ERR_UNSUPPORTED && be == NULL && strstr(err, "fake:1"));
    CHECK(sp_backend_open(&be, "cuda:3", 1, err) == SP_ERR_UNSUPPORTED && strstr(err, "no CUDA backend"));
    sp_backend_register(&fake);
    sp_backend_register(&dup); /* the first of a prefix wins */
    CHECK(sp_backend_open(&be, "fake:3", 1, err) == SP_OK && be && !strcmp(opened_, "fake:3"));
    sp_backend_close(be);
    CHECK(sp_backend_open(&be, "fake", 1, err) == SP_OK && !strcmp(opened_, "fake"));
    sp_backend_close(be);
    CHECK(sp_backend_open(&be, "fakes", 1, err) == SP_ERR_UNSUPPORTED && strstr(err, "unknown backend 'fakes'"));
    opened_[0] = 0;
    CHECK(sp_backend_open(&be, "auto", 1, err) == SP_OK && !strcmp(opened_, "fake:0"));
    sp_backend_close(be);
    fake_fails_ = 1; /* auto falls back to cpu; a named one reports */
    CHECK(sp_backend_open(&be, "auto", 1, err) == SP_OK && be && !strcmp(be->name, "cpu"));
    sp_backend_close(be);
    CHECK(sp_backend_open(&be, "fake:2", 1, err) == SP_ERR_GPU && be == NULL && strstr(err, "no such device"));
    CHECK(sp_backend_open(&be, "cpu", 1, err) == SP_OK && !strcmp(be->name, "cpu"));
    sp_backend_close(be);
    /* named CPU instances (several CPU devices in one engine) */
    CHECK(sp_backend_open(&be, "cpu:7", 1, err) == SP_OK && !strcmp(be->name, "cpu:7"));
    sp_backend_close(be);
    static const char *const bad[] = {"cpu:", "cpu:-1", "cpu:256", "cpu:07", "cpu:1x", "cpux", "cpu:1234"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECKF(sp_backend_open(&be, bad[i], 1, err) == SP_ERR_UNSUPPORTED && be == NULL, "%s", bad[i]);
    /* what prefix:all expands to */
    CHECK(sp_backend_count("fake") == 3 && sp_backend_count("cpu") == 1 && sp_backend_count("nope") == -1);
}

int main(void)
{
    sp_test_begin("test_prove", NULL);
    check_providers();
    check_vector(SP_TEST_VEC_DIR("multiplier"));
    check_vector(SP_TEST_VEC_DIR("chain1021"));
    return sp_test_done();
}
