/* Benchmark circuit generator; the shape is described in gen.h. */
#include "synth/gen.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include "util/progress.h"

#define GEN_WINDOW 4096 /* operands come from the latest this many wires of each kind */
#define GEN_PRIVATE 2   /* private inputs: the first full-valued operands */

/* The latest wires of one kind with their values, as a ring. */
typedef struct {
    uint32_t idx[GEN_WINDOW];
    sp_fr val[GEN_WINDOW];
    size_t count, next;
} ring;

static void ring_push(ring *r, uint32_t idx, const sp_fr *v)
{
    r->idx[r->next] = idx;
    r->val[r->next] = *v;
    r->next = (r->next + 1) % GEN_WINDOW;
    if (r->count < GEN_WINDOW)
        r->count++;
}

static size_t ring_pick(const ring *r, sp_rng *rng)
{
    return (size_t)(sp_rng_u64(rng) % r->count);
}

typedef struct {
    sp_r1cs_writer *rw;
    sp_wtns_writer *ww;
    sp_rng rng;
    ring *full, *bits;
    sp_fr one, minus_one, k[8];
    uint64_t bool_threshold; /* a constraint is a bit when rng < this */
    int always_bit;
    sp_gen_stats st;
} gen_state;

static sp_status put_value(gen_state *g, const sp_fr *v, char *err)
{
    if (sp_fr_is_zero(v) || sp_fr_is_one(v))
        g->st.n_bool_values++;
    return sp_wtns_writer_put(g->ww, v, 1, err);
}

static sp_status add(gen_state *g, const sp_r1cs_lc *a, const sp_r1cs_lc *b, const sp_r1cs_lc *c, char *err)
{
    g->st.nnz[0] += a->n;
    g->st.nnz[1] += b->n;
    g->st.nnz[2] += c->n;
    return sp_r1cs_writer_add(g->rw, a, b, c, err);
}

static sp_status bit_gate(gen_state *g, uint32_t wire, char *err)
{
    sp_fr v;
    if (sp_rng_u64(&g->rng) & 1)
        sp_fr_set_one(&v);
    else
        sp_fr_set_zero(&v);
    uint32_t wa[1] = {wire}, wb[2] = {wire, 0};
    sp_fr cb[2] = {g->one, g->minus_one};
    sp_r1cs_lc a = {1, wa, &g->one}, b = {2, wb, cb}, c = {0, NULL, NULL};
    sp_status s = add(g, &a, &b, &c, err);
    if (s == SP_OK)
        s = put_value(g, &v, err);
    ring_push(g->bits, wire, &v);
    return s;
}

/* z = (x [+ k*x2]) * y + b */
static sp_status mul_gate(gen_state *g, uint32_t wire, char *err)
{
    size_t ix = ring_pick(g->full, &g->rng), iy = ring_pick(g->full, &g->rng);
    uint32_t wa[2] = {g->full->idx[ix], 0}, wb[1] = {g->full->idx[iy]}, wc[2] = {wire, 0};
    sp_fr ca[2] = {g->one, g->one}, cc[2] = {g->one, g->minus_one}, x = g->full->val[ix], z;
    sp_r1cs_lc a = {1, wa, ca}, b = {1, wb, &g->one}, c = {1, wc, cc};
    uint64_t r = sp_rng_u64(&g->rng);
    if ((r & 3) == 0) {
        size_t ix2 = ring_pick(g->full, &g->rng);
        sp_fr t;
        wa[1] = g->full->idx[ix2];
        ca[1] = g->k[(r >> 2) & 7];
        sp_fr_mul(&t, &ca[1], &g->full->val[ix2]);
        sp_fr_add(&x, &x, &t);
        a.n = 2;
    }
    sp_fr_mul(&z, &x, &g->full->val[iy]);
    if (g->bits->count) {
        size_t ib = ring_pick(g->bits, &g->rng);
        wc[1] = g->bits->idx[ib];
        sp_fr_add(&z, &z, &g->bits->val[ib]);
        c.n = 2;
    }
    sp_status s = add(g, &a, &b, &c, err);
    if (s == SP_OK)
        s = put_value(g, &z, err);
    ring_push(g->full, wire, &z);
    return s;
}

static sp_status check_params(const sp_gen_params *p, char *err)
{
    if (p->n_constraints < 1 || p->n_constraints + p->n_public + 1 + GEN_PRIVATE > UINT32_MAX) {
        sp_bin_errf(err, "gen-circuit: %" PRIu64 " constraints and %" PRIu32 " public inputs do not fit 2^32 wires",
                    p->n_constraints, p->n_public);
        return SP_ERR_INVALID_ARG;
    }
    if (!(p->bool_fraction >= 0.0 && p->bool_fraction <= 1.0)) {
        sp_bin_errf(err, "gen-circuit: bool fraction %g is outside [0, 1]", p->bool_fraction);
        return SP_ERR_INVALID_ARG;
    }
    return SP_OK;
}

static sp_status gen_inputs(gen_state *g, uint32_t n_public, char *err)
{
    sp_status s = put_value(g, &g->one, err); /* w[0] */
    for (uint32_t i = 0; i < n_public + GEN_PRIVATE && s == SP_OK; i++) {
        sp_fr v;
        sp_fr_random(&v, &g->rng);
        s = put_value(g, &v, err);
        ring_push(g->full, 1 + i, &v);
    }
    return s;
}

static sp_status gen_body(gen_state *g, const sp_gen_params *p, char *err)
{
    sp_status s = gen_inputs(g, p->n_public, err);
    uint32_t wire = 1 + p->n_public + GEN_PRIVATE;
    for (uint64_t i = 0; i < p->n_constraints && s == SP_OK; i++, wire++) {
        int bit = g->always_bit || sp_rng_u64(&g->rng) < g->bool_threshold;
        s = bit ? bit_gate(g, wire, err) : mul_gate(g, wire, err);
        if (i % 1024 == 1023)
            sp_progress_add(1024);
    }
    return s;
}

sp_status sp_gen_circuit(const char *r1cs_path, const char *wtns_path, const sp_gen_params *p, sp_gen_stats *stats,
                         char err[SP_ERR_LEN])
{
    sp_status s = check_params(p, err);
    if (s != SP_OK)
        return s;
    gen_state *g = calloc(1, sizeof *g);
    ring *rings = calloc(2, sizeof *rings);
    if (!g || !rings) {
        free(g);
        free(rings);
        sp_bin_errf(err, "gen-circuit: out of memory");
        return SP_ERR_NOMEM;
    }
    g->full = &rings[0];
    g->bits = &rings[1];
    sp_rng_seed(&g->rng, p->seed);
    sp_fr_set_one(&g->one);
    sp_fr_neg(&g->minus_one, &g->one);
    for (int i = 0; i < 8; i++)
        sp_fr_random(&g->k[i], &g->rng);
    g->always_bit = p->bool_fraction >= 1.0;
    g->bool_threshold = (uint64_t)ldexp(p->bool_fraction, 64);
    if (g->always_bit)
        g->bool_threshold = UINT64_MAX;
    uint64_t n_wires = p->n_constraints + p->n_public + 1 + GEN_PRIVATE;
    sp_r1cs_header h = {.n_wires = (uint32_t)n_wires, .n_pub_inputs = p->n_public, .n_prv_inputs = GEN_PRIVATE,
                        .n_labels = n_wires, .n_constraints = (uint32_t)p->n_constraints};
    s = sp_r1cs_writer_open(&g->rw, r1cs_path, &h, err);
    if (s == SP_OK)
        s = sp_wtns_writer_open(&g->ww, wtns_path, n_wires, err);
    if (s == SP_OK) {
        sp_progress_begin("gen-circuit: constraints", p->n_constraints); /* a unit a constraint */
        s = gen_body(g, p, err);
        sp_progress_end();
    }
    if (s == SP_OK) {
        s = sp_r1cs_writer_close(g->rw, err);
        g->rw = NULL;
    }
    if (s == SP_OK) {
        s = sp_wtns_writer_close(g->ww, err);
        g->ww = NULL;
    }
    sp_r1cs_writer_abort(g->rw);
    sp_wtns_writer_abort(g->ww);
    g->st.n_wires = n_wires;
    if (s == SP_OK && stats)
        *stats = g->st;
    free(rings);
    free(g);
    return s;
}
