/*
 * Fixture shared by the engine tests: a small generated circuit
 * (sp_gen_circuit) with a development setup, fresh satisfying witnesses
 * for it, and an independent verification of each proof.
 *
 * Witnesses: sp_gen_circuit's shape (synth/gen.h) adds one new wire per
 * constraint, in order, so any choice of the inputs (wires 1 .. K + 2)
 * extends to a satisfying witness: a bit constraint b * (b - 1) = 0 takes
 * a random bit, a gate (x [+ k x2]) * y = z - b is solved for z. So every
 * partition of a test job gets its own public inputs, and a proof
 * returned for the wrong partition would not verify.
 */
#ifndef SP_TESTS_TEST_ENGINE_H
#define SP_TESTS_TEST_ENGINE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "engine/engine.h"
#include "groth16/setup.h"
#include "groth16/verify.h"
#include "synth/gen.h"
#include "synth/synth.h"
#include "test.h"

typedef struct {
    sp_r1cs cs;
    sp_g16_pk pk;
    sp_g16_pvk pvk;
} fx_circuit;

/* Generates and sets up a circuit of n constraints and K public inputs. */
static inline void fx_make(fx_circuit *c, uint64_t n, uint32_t k, sp_g16_h_kind kind, uint64_t seed)
{
    char r1cs[] = "/tmp/sp_test_engine_XXXXXX", wtns[64], err[SP_ERR_LEN] = "";
    int fd = mkstemp(r1cs);
    CHECK(fd >= 0);
    close(fd);
    snprintf(wtns, sizeof wtns, "%s.wtns", r1cs);
    sp_gen_params p = {n, k, 0.5, seed};
    CHECKF(sp_gen_circuit(r1cs, wtns, &p, NULL, err) == SP_OK, "%s", err);
    CHECKF(sp_r1cs_read(&c->cs, r1cs, err) == SP_OK, "%s", err);
    unlink(r1cs);
    unlink(wtns);
    CHECKF(sp_g16_setup(&c->pk, &c->cs, kind, 2, err) == SP_OK, "%s", err);
    CHECKF(sp_g16_pvk_init(&c->pvk, &c->pk.vk, err) == SP_OK, "%s", err);
}

static inline void fx_free(fx_circuit *c)
{
    sp_g16_pvk_free(&c->pvk);
    sp_g16_pk_free(&c->pk);
    sp_r1cs_free(&c->cs);
}

/* Solves constraint i for its new wire (the largest wire of the row). */
static inline void fx_solve_row(const sp_r1cs *cs, size_t i, sp_fr *w, sp_rng *rng)
{
    uint32_t nw = 0;
    const sp_csr *m[3] = {&cs->a, &cs->b, &cs->c};
    for (int k = 0; k < 3; k++)
        for (uint64_t e = m[k]->row[i]; e < m[k]->row[i + 1]; e++)
            nw = m[k]->col[e] > nw ? m[k]->col[e] : nw;
    if (cs->a.row[i + 1] - cs->a.row[i] == 1 && cs->a.col[cs->a.row[i]] == nw) { /* a bit */
        if (sp_rng_u64(rng) & 1)
            sp_fr_set_one(&w[nw]);
        else
            sp_fr_set_zero(&w[nw]);
        return;
    }
    sp_fr x, y, z, coef;
    sp_fr_set_zero(&w[nw]);
    sp_synth_row_dot(&x, &cs->a, i, w);
    sp_synth_row_dot(&y, &cs->b, i, w);
    sp_synth_row_dot(&z, &cs->c, i, w); /* C without the new wire */
    sp_fr_set_zero(&coef);
    for (uint64_t e = cs->c.row[i]; e < cs->c.row[i + 1]; e++)
        if (cs->c.col[e] == nw)
            sp_fr_add(&coef, &coef, &cs->c.val[e]);
    sp_fr_mul(&x, &x, &y); /* coef * w_new = x y - z */
    sp_fr_sub(&x, &x, &z);
    sp_fr_inv(&coef, &coef);
    sp_fr_mul(&w[nw], &x, &coef);
}

/* A fresh satisfying witness (malloc'd, n_wires values). */
static inline sp_fr *fx_witness(const fx_circuit *c, sp_rng *rng)
{
    const sp_r1cs *cs = &c->cs;
    size_t n = cs->h.n_wires, inputs = 1 + (size_t)sp_r1cs_n_public(&cs->h) + cs->h.n_prv_inputs;
    sp_fr *w = calloc(n, sizeof *w);
    sp_fr_set_one(&w[0]);
    for (size_t i = 1; i < inputs; i++)
        sp_fr_random(&w[i], rng);
    for (size_t i = 0; i < cs->h.n_constraints; i++)
        fx_solve_row(cs, i, w, rng);
    char err[SP_ERR_LEN];
    size_t bad;
    CHECKF(sp_synth_check(cs, w, n, 1, &bad, err) == SP_OK, "fixture witness: %s", err);
    return w;
}

/* A copy of w with one wire changed so that a constraint fails. */
static inline sp_fr *fx_bad_witness(const fx_circuit *c, const sp_fr *w)
{
    size_t n = c->cs.h.n_wires, bad;
    sp_fr *b = malloc(n * sizeof *b), one;
    memcpy(b, w, n * sizeof *b);
    sp_fr_set_one(&one);
    sp_fr_add(&one, &one, &one);
    sp_fr_add(&b[n / 2], &b[n / 2], &one); /* + 2: a bit stops being one, a gate output is off */
    char err[SP_ERR_LEN];
    CHECK(sp_synth_check(&c->cs, b, n, 1, &bad, err) == SP_ERR_UNSATISFIED);
    return b;
}

/* 1 when proof verifies with the public signals of witness w. */
static inline int fx_verifies(const fx_circuit *c, const sp_g16_proof *p, const sp_fr *w)
{
    int valid = 0;
    char err[SP_ERR_LEN];
    if (sp_g16_verify(&valid, &c->pvk, p, w + 1, c->pk.vk.n_public, err) != SP_OK)
        return 0;
    return valid;
}

/* A config for this 2-core test machine: small thread counts. */
static inline sp_engine_config fx_config(void)
{
    sp_engine_config cfg = sp_engine_config_default();
    cfg.budget_bytes = (size_t)256 << 20;
    cfg.synth_threads = 1;
    cfg.finish_threads = 1;
    cfg.backend_threads = 1;
    return cfg;
}

#endif
