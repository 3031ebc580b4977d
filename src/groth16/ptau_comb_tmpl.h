/*
 * Sparse combinations of points for one group, instantiated by
 * ptau_setup.c for g1 and g2 (the includer defines G and the types
 * ptau_col and ptau_term). For every wire w < n:
 *     out[w] = sum over the terms t, over the entries k of column w of t->m:
 *              [t->m->s[k]] t->bases[t->m->row[k]]
 * A column with at least BIG_COLUMN entries is one Pippenger MSM on all
 * threads (circom's constant wire 0 holds a coefficient in most rows);
 * the rest, a few entries each, are summed entry by entry on all threads,
 * with the cheap cases (coefficients 1 and -1, short scalars either side
 * of r) taken first: circom's coefficients are mostly +-1 and small.
 */
#include "msm/msm.h"

#define PC_CAT2(a, b) a##b
#define PC_CAT(a, b) PC_CAT2(a, b)
#define PF(name) PC_CAT(PC_CAT(sp_, G), PC_CAT(_, name))
#define PAFF PC_CAT(PC_CAT(sp_, G), _affine)
#define PJAC PC_CAT(PC_CAT(sp_, G), _jac)
#define PLOCAL(name) PC_CAT(PC_CAT(G, _), name)

typedef struct {
    const ptau_term *t;
    int nt;
    PJAC *acc;
    size_t n;
} PLOCAL(comb_ctx);

/* acc += [s] b for one entry. */
static void PLOCAL(add_entry)(PJAC *acc, const PAFF *b, const sp_scalar *s)
{
    uint64_t e[4];
    PAFF nb;
    const PAFF *base = b;
    int len = scalar_short(e, s); /* e = s or r - s, the shorter; len < 0: r - s */
    if (len < 0) {
        PF(affine_neg)(&nb, b);
        base = &nb;
        len = -len;
    }
    if (len == 0)
        return;
    if (len == 1 && e[0] == 1) {
        PF(jac_add_affine_var)(acc, acc, base);
        return;
    }
    PJAC pj, m;
    PF(jac_from_affine)(&pj, base);
    PF(mul_var)(&m, &pj, e, (size_t)len);
    PF(jac_add_var)(acc, acc, &m);
}

static void PLOCAL(comb_task)(void *arg, int tid, size_t task)
{
    const PLOCAL(comb_ctx) *c = arg;
    size_t lo = task * COMB_TASK, hi = lo + COMB_TASK < c->n ? lo + COMB_TASK : c->n;
    for (size_t w = lo; w < hi; w++) {
        if (column_len(c->t, c->nt, w) >= BIG_COLUMN)
            continue; /* done by the MSM */
        PF(jac_set_inf)(&c->acc[w]);
        for (int i = 0; i < c->nt; i++) {
            const ptau_col *m = c->t[i].m;
            const PAFF *bases = c->t[i].bases;
            for (uint64_t k = m->start[w]; k < m->start[w + 1]; k++)
                PLOCAL(add_entry)(&c->acc[w], &bases[m->row[k]], &m->s[k]);
        }
    }
}

/* A long column: one MSM per term, the bases gathered. */
static sp_status PLOCAL(comb_big)(PJAC *acc, const ptau_term *t, int nt, size_t w, int threads)
{
    sp_msm_config cfg = sp_msm_config_default();
    cfg.threads = threads;
    PF(jac_set_inf)(acc);
    for (int i = 0; i < nt; i++) {
        const ptau_col *m = t[i].m;
        const PAFF *bases = t[i].bases;
        uint64_t k0 = m->start[w], len = m->start[w + 1] - k0;
        if (!len)
            continue;
        PAFF *g = malloc(sizeof *g * len);
        if (!g)
            return SP_ERR_NOMEM;
        for (uint64_t k = 0; k < len; k++)
            g[k] = bases[m->row[k0 + k]];
        PJAC part;
        sp_status st = PC_CAT(PC_CAT(sp_msm_, G), _var)(&part, g, m->s + k0, len, &cfg);
        free(g);
        if (st != SP_OK)
            return st;
        PF(jac_add_var)(acc, acc, &part);
    }
    return SP_OK;
}

typedef struct {
    PAFF *out;
    const PJAC *in;
    size_t n;
} PLOCAL(aff_ctx);

static void PLOCAL(aff_task)(void *arg, int tid, size_t task)
{
    const PLOCAL(aff_ctx) *c = arg;
    size_t lo = task * COMB_TASK, hi = lo + COMB_TASK < c->n ? lo + COMB_TASK : c->n;
    PF(batch_to_affine)(c->out + lo, c->in + lo, hi - lo);
}

/* out[w] for w < n, as the comment at the top says. */
static sp_status PF(ptau_comb)(PAFF *out, size_t n, const ptau_term *t, int nt, int threads)
{
    PJAC *acc = malloc(sizeof *acc * (n ? n : 1));
    if (!acc)
        return SP_ERR_NOMEM;
    sp_status st = SP_OK;
    for (size_t w = 0; w < n && st == SP_OK; w++)
        if (column_len(t, nt, w) >= BIG_COLUMN)
            st = PLOCAL(comb_big)(&acc[w], t, nt, w, threads);
    size_t ntasks = (n + COMB_TASK - 1) / COMB_TASK;
    if (st == SP_OK) {
        PLOCAL(comb_ctx) c = {t, nt, acc, n};
        sp_par_tasks(threads, ntasks, PLOCAL(comb_task), &c);
        PLOCAL(aff_ctx) a = {out, acc, n};
        sp_par_tasks(threads, ntasks, PLOCAL(aff_task), &a);
    }
    free(acc);
    return st;
}

#undef PC_CAT2
#undef PC_CAT
#undef PF
#undef PAFF
#undef PJAC
#undef PLOCAL
