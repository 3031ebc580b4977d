/*
 * Development setup end to end, in both conventions: setup -> write the
 * key (.zkey / .params) -> read it back -> prove with fresh r, s ->
 * verify. Tampered proofs and public inputs are rejected; proofs from the
 * key before and after the file round trip are interchangeable.
 * sp_g16_setup_be: with the CPU backend (no fixed-base members: the CPU
 * functions), with a backend whose fixed-base members compute every point
 * on its own by plain scalar multiplication (the keys must still prove and
 * verify, so every array reached the right place), its stage reports,
 * and a failing backend's error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "groth16/backend.h"
#include "groth16/params.h"
#include "groth16/setup.h"
#include "groth16/verify.h"
#include "groth16/zkey.h"
#include "synth/prover.h"
#include "test.h"

static int verifies(const sp_g16_vk *vk, const sp_g16_proof *p, const sp_fr *pub, size_t n_pub)
{
    char err[SP_ERR_LEN];
    sp_g16_pvk pvk;
    int valid = 0;
    if (sp_g16_pvk_init(&pvk, vk, err) != SP_OK)
        return -1;
    sp_status st = sp_g16_verify(&valid, &pvk, p, pub, n_pub, err);
    sp_g16_pvk_free(&pvk);
    return st == SP_OK ? valid : -1;
}

/* Proves with pk (and cs when given), checks the proof and tampered copies. */
static void prove_and_check(const char *what, const sp_g16_pk *pk, const sp_r1cs *cs, const sp_fr *w, size_t wn)
{
    char err[SP_ERR_LEN] = "";
    sp_g16_proof p;
    sp_fr *pub = calloc(pk->vk.n_public + 1, sizeof(sp_fr));
    sp_g16_prove_opts o = sp_g16_prove_opts_default();
    o.threads = 2;
    CHECKF(sp_synth_prove(&p, pub, pk, cs, w, wn, cs != NULL, &o, err) == SP_OK, "%s: %s", what, err);
    CHECKF(verifies(&pk->vk, &p, pub, pk->vk.n_public) == 1, "%s: proof does not verify", what);
    sp_g16_proof t = p;
    sp_g1_affine_neg(&t.a, &t.a);
    CHECKF(verifies(&pk->vk, &t, pub, pk->vk.n_public) == 0, "%s: negated A accepted", what);
    t = p;
    t.c = p.a;
    CHECKF(verifies(&pk->vk, &t, pub, pk->vk.n_public) == 0, "%s: C replaced by A accepted", what);
    if (pk->vk.n_public > 0) {
        sp_fr one;
        sp_fr_set_one(&one);
        sp_fr_add(&pub[0], &pub[0], &one);
        CHECKF(verifies(&pk->vk, &p, pub, pk->vk.n_public) == 0, "%s: wrong public input accepted", what);
    }
    free(pub);
}

static void check_kind(const char *dir, sp_g16_h_kind kind)
{
    char path[256], tmp[] = "/tmp/sp_test_setup_XXXXXX", err[SP_ERR_LEN] = "";
    sp_r1cs cs;
    sp_fr *w = NULL;
    size_t wn = 0;
    snprintf(path, sizeof path, "tests/vectors/%s/circuit.r1cs", dir);
    CHECKF(sp_r1cs_read(&cs, path, err) == SP_OK, "%s", err);
    snprintf(path, sizeof path, "tests/vectors/%s/witness.wtns", dir);
    CHECKF(sp_wtns_read(&w, &wn, path, err) == SP_OK, "%s", err);

    sp_g16_pk pk, back;
    CHECKF(sp_g16_setup(&pk, &cs, kind, 2, err) == SP_OK, "%s: setup: %s", dir, err);
    CHECK(pk.vk.n_public == sp_r1cs_n_public(&cs.h) && pk.n_vars == cs.h.n_wires);
    prove_and_check(dir, &pk, NULL, w, wn);

    int fd = mkstemp(tmp);
    CHECK(fd >= 0);
    close(fd);
    int have_back = 1;
    if (kind == SP_G16_H_SNARKJS) {
        CHECKF(sp_zkey_write(tmp, &pk, err) == SP_OK, "%s: %s", dir, err);
        CHECKF(sp_zkey_read(&back, NULL, tmp, 0, 2, err) == SP_OK, "%s: %s", dir, err);
        prove_and_check("zkey round trip", &back, NULL, w, wn);
    } else if (sp_bp_curve_check(err) != SP_OK) {
        /* bellperson's files are BLS12-381's: the key stays in memory, the writer refuses */
        CHECKF(sp_bp_params_write(tmp, &pk, err) == SP_ERR_UNSUPPORTED && strstr(err, "bls12-381's"), "%s", err);
        have_back = 0;
    } else {
        sp_g16_density den;
        CHECK(sp_g16_density_from_r1cs(&den, &cs) == SP_OK);
        CHECKF(sp_bp_params_write(tmp, &pk, err) == SP_OK, "%s: %s", dir, err);
        CHECKF(sp_bp_params_read(&back, tmp, &den, 0, 2, err) == SP_OK, "%s: %s", dir, err);
        prove_and_check("params round trip", &back, &cs, w, wn);
        sp_g16_density_free(&den);
    }
    if (have_back) {
        CHECKF(memcmp(back.a, pk.a, sizeof(sp_g1_affine) * pk.n_vars) == 0, "%s: A differs after round trip", dir);
        CHECKF(memcmp(back.h, pk.h, sizeof(sp_g1_affine) * pk.n_h) == 0, "%s: H differs after round trip", dir);
        sp_g16_pk_free(&back);
    }
    unlink(tmp);
    sp_g16_pk_free(&pk);
    free(w);
    sp_r1cs_free(&cs);
}

/* ---- sp_g16_setup_be ---- */

typedef struct {
    size_t calls[2], points[2]; /* per group */
    int stages[3];              /* setup_scalars, setup_g1, setup_g2 */
    int fail_g2;                /* fixed_base_g2 fails */
} ref_state;

#define REF_FB(G, IDX)                                                                                  \
    static sp_status ref_fb_##G(sp_backend *be, sp_##G##_affine *out, const sp_##G##_affine *base,      \
                                const sp_fr *k, size_t n, char err[SP_ERR_LEN])                         \
    {                                                                                                   \
        ref_state *r = be->impl;                                                                        \
        r->calls[IDX]++;                                                                                \
        r->points[IDX] += n;                                                                            \
        if (IDX == 1 && r->fail_g2) {                                                                   \
            snprintf(err, SP_ERR_LEN, "test backend: G2 refused");                                      \
            return SP_ERR_GPU;                                                                          \
        }                                                                                               \
        sp_##G##_jac bj, p;                                                                             \
        sp_##G##_jac_from_affine(&bj, base);                                                            \
        for (size_t i = 0; i < n; i++) {                                                                \
            uint64_t l[4];                                                                              \
            sp_fr_to_canonical(l, &k[i]);                                                               \
            sp_##G##_mul_var(&p, &bj, l, 4);                                                            \
            sp_##G##_jac_to_affine(&out[i], &p);                                                        \
        }                                                                                               \
        return SP_OK;                                                                                   \
    }
REF_FB(g1, 0)
REF_FB(g2, 1)

static void ref_stage(void *ctx, const char *stage, double ms)
{
    ref_state *r = ctx;
    static const char *names[3] = {"setup_scalars", "setup_g1", "setup_g2"};
    for (int i = 0; i < 3; i++)
        if (!strcmp(stage, names[i]) && ms >= 0)
            r->stages[i]++;
}

static void check_backend(const char *dir, sp_g16_h_kind kind)
{
    char path[256], err[SP_ERR_LEN] = "";
    sp_r1cs cs;
    sp_fr *w = NULL;
    size_t wn = 0;
    snprintf(path, sizeof path, "tests/vectors/%s/circuit.r1cs", dir);
    CHECKF(sp_r1cs_read(&cs, path, err) == SP_OK, "%s", err);
    snprintf(path, sizeof path, "tests/vectors/%s/witness.wtns", dir);
    CHECKF(sp_wtns_read(&w, &wn, path, err) == SP_OK, "%s", err);
    sp_g16_pk pk;
    sp_backend *cpu;
    CHECK(sp_backend_cpu_open(&cpu, 2) == SP_OK);
    CHECKF(sp_g16_setup_be(&pk, &cs, kind, cpu, 3, err) == SP_OK, "%s: setup on the CPU backend: %s", dir, err);
    prove_and_check("CPU backend", &pk, kind == SP_G16_H_SNARKJS ? NULL : &cs, w, wn);
    sp_g16_pk_free(&pk);

    ref_state r;
    memset(&r, 0, sizeof r);
    cpu->impl = &r;
    cpu->fixed_base_g1 = ref_fb_g1;
    cpu->fixed_base_g2 = ref_fb_g2;
    cpu->stage_hook = ref_stage;
    cpu->stage_ctx = &r;
    CHECKF(sp_g16_setup_be(&pk, &cs, kind, cpu, 1, err) == SP_OK, "%s: setup on the test backend: %s", dir, err);
    prove_and_check("per-point backend", &pk, kind == SP_G16_H_SNARKJS ? NULL : &cs, w, wn);
    /* every G1 array (a, b1, ic, c, h, vk) and G2 (b2, vk) went through the backend */
    CHECK(r.calls[0] == 6 && r.points[0] == 3 * (size_t)pk.n_vars + pk.n_h + 3);
    CHECK(r.calls[1] == 2 && r.points[1] == pk.n_vars + 3u);
    CHECK(r.stages[0] == 1 && r.stages[1] == 1 && r.stages[2] == 1);
    sp_g16_pk_free(&pk);

    r.fail_g2 = 1;
    err[0] = 0;
    CHECK(sp_g16_setup_be(&pk, &cs, kind, cpu, 1, err) == SP_ERR_GPU);
    CHECKF(strstr(err, "G2 refused") != NULL, "%s: the backend's message is kept (got '%s')", dir, err);
    CHECK(pk.a == NULL && pk.h == NULL && pk.n_vars == 0); /* zeroed on failure */
    sp_backend_close(cpu);
    free(w);
    sp_r1cs_free(&cs);
}

int main(void)
{
    sp_test_begin("test_setup", NULL);
    check_kind(SP_TEST_VEC_DIR("multiplier"), SP_G16_H_SNARKJS);
    check_kind(SP_TEST_VEC_DIR("chain1021"), SP_G16_H_SNARKJS);
    check_kind(SP_TEST_VEC_DIR("multiplier"), SP_G16_H_BELLPERSON);
    check_kind(SP_TEST_VEC_DIR("chain1021"), SP_G16_H_BELLPERSON);
    check_backend(SP_TEST_VEC_DIR("chain1021"), SP_G16_H_SNARKJS);
    check_backend(SP_TEST_VEC_DIR("multiplier"), SP_G16_H_BELLPERSON);
    return sp_test_done();
}
