/*
 * Sparse combinations of points and the inverse DFT over points for one
 * group (ptau_comb.h), instantiated by ptau_comb.c for g1 and g2 (the
 * includer defines G). For every wire w < n:
 *     out[w] = sum over the terms t, over the entries k of column w of t:
 *              [t->s[k]] t->bases[t->row[k]]
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
    const sp_ptau_sparse *t;
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
            const sp_ptau_sparse *m = &c->t[i];
            const PAFF *bases = m->bases;
            for (uint64_t k = m->start[w]; k < m->start[w + 1]; k++)
                PLOCAL(add_entry)(&c->acc[w], &bases[m->row[k]], &m->s[k]);
        }
    }
}

/* A long column: one MSM per term, the bases gathered. */
static sp_status PLOCAL(comb_big)(PJAC *acc, const sp_ptau_sparse *t, int nt, size_t w, int threads)
{
    sp_msm_config cfg = sp_msm_config_default();
    cfg.threads = threads;
    PF(jac_set_inf)(acc);
    for (int i = 0; i < nt; i++) {
        const sp_ptau_sparse *m = &t[i];
        const PAFF *bases = m->bases;
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
sp_status PF(ptau_comb)(PAFF *out, size_t n, const sp_ptau_sparse *t, int nt, int threads)
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

/* ---- Lagrange points from the powers (a .ptau not prepared for phase 2) ---- */

/* r = [k] p; p Jacobian. */
static void PLOCAL(gmul)(PJAC *r, const PJAC *p, const sp_scalar *k)
{
    uint64_t e[4];
    PJAC q = *p;
    int len = scalar_short(e, k);
    if (len < 0) {
        PF(jac_neg)(&q, p);
        len = -len;
    }
    if (len == 1 && e[0] == 1)
        *r = q;
    else
        PF(mul_var)(r, &q, e, (size_t)len);
}

typedef struct {
    PJAC *a;
    const sp_scalar *k; /* per point (scaling) or per twiddle index */
    size_t n, half, step;
} PLOCAL(ntt_ctx);

static void PLOCAL(scale_task)(void *arg, int tid, size_t task)
{
    const PLOCAL(ntt_ctx) *c = arg;
    size_t lo = task * NTT_TASK, hi = lo + NTT_TASK < c->n ? lo + NTT_TASK : c->n;
    for (size_t i = lo; i < hi; i++)
        PLOCAL(gmul)(&c->a[i], &c->a[i], &c->k[i]);
}

/* One radix-2 stage over blocks of 2 half: (u, v) -> (u + w v, u - w v),
 * w = k[j step] for the j-th butterfly of a block. */
static void PLOCAL(stage_task)(void *arg, int tid, size_t task)
{
    const PLOCAL(ntt_ctx) *c = arg;
    size_t lo = task * NTT_TASK, hi = lo + NTT_TASK < c->n / 2 ? lo + NTT_TASK : c->n / 2;
    for (size_t b = lo; b < hi; b++) {
        size_t j = b % c->half, i0 = (b / c->half) * 2 * c->half + j, i1 = i0 + c->half;
        PJAC t = c->a[i1], nt;
        if (j)
            PLOCAL(gmul)(&t, &c->a[i1], &c->k[j * c->step]);
        PF(jac_neg)(&nt, &t);
        PF(jac_add_var)(&c->a[i1], &c->a[i0], &nt);
        PF(jac_add_var)(&c->a[i0], &c->a[i0], &t);
    }
}

/*
 * out[j] = sum_i [pre[i] / n omega^(-ij)] in[i] for j < n = 2^log_n: the
 * inverse DFT of the points (in[i] = tau^i G gives L_j(tau) G). tw[j] =
 * omega^(-j) for j < n / 2 and pre[i] (pre_i / n folded in) are canonical
 * scalars. In place over a Jacobian copy, radix 2, the butterflies of a
 * stage on all threads.
 */
sp_status PF(ptau_intt)(PAFF *out, const PAFF *in, unsigned log_n, const sp_scalar *tw, const sp_scalar *pre,
                               int threads)
{
    size_t n = (size_t)1 << log_n;
    PJAC *a = malloc(sizeof *a * n), *b = malloc(sizeof *b * n);
    if (!a || !b) {
        free(a), free(b);
        return SP_ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++)
        PF(jac_from_affine)(&b[i], &in[i]);
    PLOCAL(ntt_ctx) c = {b, pre, n, 0, 0};
    sp_par_tasks(threads, (n + NTT_TASK - 1) / NTT_TASK, PLOCAL(scale_task), &c);
    for (size_t i = 0; i < n; i++) /* bit-reversed order in, natural order out */
        a[bit_reverse(i, log_n)] = b[i];
    c.a = a;
    c.k = tw;
    for (size_t half = 1; half < n; half *= 2) {
        c.half = half;
        c.step = n / (2 * half);
        sp_par_tasks(threads, (n / 2 + NTT_TASK - 1) / NTT_TASK, PLOCAL(stage_task), &c);
    }
    PLOCAL(aff_ctx) ac = {out, a, n};
    sp_par_tasks(threads, (n + COMB_TASK - 1) / COMB_TASK, PLOCAL(aff_task), &ac);
    free(a), free(b);
    return SP_OK;
}

#undef PC_CAT2
#undef PC_CAT
#undef PF
#undef PAFF
#undef PJAC
#undef PLOCAL
