/*
 * The group side of the MSM, instantiated once per group by msm_g1.c and
 * msm_g2.c. The includer defines, before including:
 *   G          the group's short name (g1 or g2)
 *   FIELD      the coordinate field's short name (fp or fp2)
 *   MSM_GROUP  1 or 2 (selects the window table and glv.c's constants)
 *   ENDO       the endomorphism of the split: void ENDO(AFF *r, const AFF *p)
 *   COFACTOR_ONE  1 when the group is the whole curve (subgroup_tmpl.h)
 * Contracts are in msm.h; the plan, pool and scalar recoding in msm.c and
 * msm_internal.h. Everything here is variable time (public data).
 */
#include <stdlib.h>
#include <string.h>

#include "curve/curve.h"
#include "msm/msm_internal.h"
#include "util/hugemem.h"

#define CAT2_(a, b) a##b
#define CAT_(a, b) CAT2_(a, b)
#define CV(name) CAT_(CAT_(sp_, G), CAT_(_, name))
#define API(name) CAT_(CAT_(sp_msm_, G), CAT_(_, name))
#define FE CAT_(sp_, FIELD)
#define FEF(name) CAT_(CAT_(sp_, FIELD), CAT_(_, name))
#define AFF CAT_(CAT_(sp_, G), _affine)
#define JAC CAT_(CAT_(sp_, G), _jac)
#define XYZZ CAT_(CAT_(sp_, G), _xyzz)

/* ---- variable-time helpers (public data; elements are reduced, so
 * equal values have equal limbs) ---- */

static inline int fe_eq_var(const FE *a, const FE *b)
{
    const uint64_t *x = (const uint64_t *)(const void *)a, *y = (const uint64_t *)(const void *)b;
    for (size_t i = 0; i < sizeof *a / sizeof *x; i++)
        if (x[i] != y[i])
            return 0;
    return 1;
}

static inline int fe_is_zero_var(const FE *a)
{
    const uint64_t *x = (const uint64_t *)(const void *)a;
    uint64_t acc = 0;
    for (size_t i = 0; i < sizeof *a / sizeof *x; i++)
        acc |= x[i];
    return acc == 0;
}

/* 1 when p is (0, 0), the point at infinity. */
static inline int aff_is_inf_var(const AFF *p)
{
    const uint64_t *w = (const uint64_t *)(const void *)p;
    uint64_t acc = 0;
    for (size_t i = 0; i < sizeof *p / sizeof *w; i++)
        acc |= w[i];
    return acc == 0;
}

/* ---- buckets ---- */

enum { TOUCHED = 1, BUSY = 2, IN_XYZZ = 4 };

/*
 * One worker's buckets. In XYZZ mode a bucket is xb[b]. In affine mode it
 * is ab[b] + xb[b]: additions go to ab[b] through the batch queue, and
 * only those the batch cannot take go to xb[b] (same x: doubling or
 * cancellation; or the bucket already has one queued and the deferral
 * list is full, see add_affine). The all-zero XYZZ and affine values are
 * both infinity, so calloc'ed buckets start empty.
 */
typedef struct {
    XYZZ *xb;
    AFF *ab;
    uint8_t *flag;     /* TOUCHED: not known to be empty; BUSY: queued; IN_XYZZ: xb[b] used */
    uint32_t *touched; /* the buckets with TOUCHED set, ntouched of them */
    size_t ntouched;
    uint32_t *qb;      /* batch queue: bucket, point (an input base), its sign, */
    const AFF **qp;    /* x difference, prefix product */
    uint8_t *qn;
    FE *qd, *qt;
    size_t nq, qcap;
    const AFF **dp;    /* deferred additions (their bucket was BUSY): */
    uint32_t *db;      /* point, bucket, sign; at most qcap / 2 */
    uint8_t *dn;
    size_t nd;
    int affine;
    int any_xyzz; /* some bucket has an XYZZ part (IN_XYZZ) */
    void *vs;     /* the IFMA flush's scratch (NULL: the scalar flush) */
} ws_t;

static void ws_free(ws_t *w)
{
    free(w->xb);
    free(w->ab);
    free(w->flag);
    free(w->touched);
    free(w->qb);
    free(w->qp);
    free(w->qn);
    free(w->qd);
    free(w->qt);
    free(w->dp);
    free(w->db);
    free(w->dn);
    free(w->vs);
}

/* nb buckets; qcap (>= 2) queued additions per inversion (affine).
 * Returns 0 on allocation failure (then ws_free still applies). */
static int ws_init(ws_t *w, size_t nb, int affine, size_t qcap)
{
    memset(w, 0, sizeof *w);
    w->affine = affine;
    w->qcap = qcap;
    size_t dcap = qcap / 2;
    w->xb = calloc(nb, sizeof *w->xb);
    w->flag = calloc(nb, 1);
    w->touched = malloc(nb * sizeof *w->touched);
    int ok = w->xb && w->flag && w->touched;
    if (affine) {
        w->ab = calloc(nb, sizeof *w->ab);
        w->qb = malloc(qcap * sizeof *w->qb);
        w->qp = malloc(qcap * sizeof *w->qp);
        w->qn = malloc(qcap);
        w->qd = malloc(qcap * sizeof *w->qd);
        w->qt = malloc(qcap * sizeof *w->qt);
        w->dp = malloc(dcap * sizeof *w->dp);
        w->db = malloc(dcap * sizeof *w->db);
        w->dn = malloc(dcap);
        ok = ok && w->ab && w->qb && w->qp && w->qn && w->qd && w->qt && w->dp && w->db && w->dn;
#if SP_MSM_IFMA
        size_t vb = sp_msm_ifma_scratch_bytes(qcap);
        if (ok && sp_field_ifma_active() && (w->vs = aligned_alloc(64, (vb + 63) / 64 * 64)) == NULL)
            ok = 0;
#endif
    }
    return ok;
}

/* Empties the touched buckets (cost proportional to their number). */
static void ws_clear(ws_t *w)
{
    for (size_t i = 0; i < w->ntouched; i++) {
        uint32_t b = w->touched[i];
        if (w->flag[b] & IN_XYZZ) /* xb[b] is read only then (sgb_bit_sums clears its own) */
            memset(&w->xb[b], 0, sizeof w->xb[b]);
        if (w->affine)
            memset(&w->ab[b], 0, sizeof w->ab[b]);
        w->flag[b] = 0;
    }
    w->ntouched = 0;
    w->any_xyzz = 0;
}

static inline void mark(ws_t *w, uint32_t b)
{
    if (!(w->flag[b] & TOUCHED)) {
        w->flag[b] |= TOUCHED;
        w->touched[w->ntouched++] = b;
    }
}

/* xb[b] += (neg ? -p : p); p not infinity. */
static inline void add_xyzz(ws_t *w, uint32_t b, const AFF *p, int neg)
{
    AFF t;
    if (neg) {
        CV(affine_neg)(&t, p);
        p = &t;
    }
    mark(w, b);
    w->flag[b] |= IN_XYZZ;
    w->any_xyzz = 1;
    CV(xyzz_add_affine_var)(&w->xb[b], &w->xb[b], p);
}

/*
 * Runs the queued additions ab[qb[i]] += (qn[i] ? -1 : 1) qp[i] in affine
 * coordinates with one inversion for all (the queue guarantees x(ab) !=
 * x(qp) and distinct buckets): lambda = (y2 - y1) / (x2 - x1), x3 =
 * lambda^2 - x1 - x2, y3 = lambda (x1 - x3) - y1. A negated point (y2 =
 * -y) takes mu = -lambda = (y + y1) / (x2 - x1) and y3 = mu (x3 - x1) - y1:
 * no negation, no copy of the point.
 */
static void flush(ws_t *w)
{
    if (w->nq == 0)
        return;
#if SP_MSM_IFMA
    if (w->vs) {
        CAT_(CAT_(sp_msm_, G), _flush_ifma)(w->ab, w->qb, w->qp, w->qn, w->nq, w->vs);
        for (size_t i = 0; i < w->nq; i++)
            w->flag[w->qb[i]] &= (uint8_t)~BUSY;
        w->nq = 0;
        return;
    }
#endif
    FE acc, t, lam, x3;
    FEF(set_one)(&acc);
    for (size_t i = 0; i < w->nq; i++) {
        FEF(sub)(&w->qd[i], &w->qp[i]->x, &w->ab[w->qb[i]].x);
        w->qt[i] = acc;
        FEF(mul)(&acc, &acc, &w->qd[i]);
    }
    FEF(inv)(&acc, &acc);
    for (size_t i = w->nq; i-- > 0;) {
        AFF *a = &w->ab[w->qb[i]];
        const AFF *q = w->qp[i];
        FEF(mul)(&t, &acc, &w->qt[i]); /* 1/dx_i */
        FEF(mul)(&acc, &acc, &w->qd[i]);
        if (w->qn[i])
            FEF(add)(&lam, &q->y, &a->y);
        else
            FEF(sub)(&lam, &q->y, &a->y);
        FEF(mul)(&lam, &lam, &t);
        FEF(sqr)(&x3, &lam);
        FEF(sub)(&x3, &x3, &a->x);
        FEF(sub)(&x3, &x3, &q->x);
        if (w->qn[i])
            FEF(sub)(&t, &x3, &a->x);
        else
            FEF(sub)(&t, &a->x, &x3);
        FEF(mul)(&t, &t, &lam);
        FEF(sub)(&a->y, &t, &a->y);
        a->x = x3;
        w->flag[w->qb[i]] &= (uint8_t)~BUSY;
    }
    w->nq = 0;
}

static void add_affine(ws_t *w, uint32_t b, const AFF *p, int neg);

/*
 * Runs the full queue, then offers the deferred additions again. No bucket
 * is BUSY after a flush, so each deferred one enters the queue unless an
 * earlier one in the list took its bucket; those are deferred again, at an
 * index no later than their own, so the list is compacted in place. At
 * most qcap / 2 enter the queue, so nothing flushes recursively.
 */
static void drain(ws_t *w)
{
    flush(w);
    size_t k = w->nd;
    w->nd = 0;
    for (size_t i = 0; i < k; i++)
        add_affine(w, w->db[i], w->dp[i], w->dn[i]);
}

/*
 * Bucket b += (neg ? -p : p) in affine mode; p not infinity and valid
 * until finish() (it is a base of the input). An addition whose bucket
 * already has one queued waits for the next batch (up to qcap / 2 of
 * them); beyond that, as for doubling or cancellation, it goes to the
 * XYZZ part of the bucket. So skewed digits (few distinct buckets) cost
 * XYZZ additions, never an inversion per handful of additions.
 */
static void add_affine(ws_t *w, uint32_t b, const AFF *p, int neg)
{
    uint8_t f = w->flag[b];
    if (!(f & TOUCHED)) { /* empty: just place the point */
        w->flag[b] = TOUCHED;
        w->touched[w->ntouched++] = b;
        w->ab[b] = *p;
        if (neg)
            FEF(neg)(&w->ab[b].y, &w->ab[b].y);
        return;
    }
    if ((f & BUSY) && w->nd < w->qcap / 2) {
        w->dp[w->nd] = p;
        w->db[w->nd] = b;
        w->dn[w->nd] = (uint8_t)neg;
        w->nd++;
        return;
    }
    if ((f & BUSY) || fe_eq_var(&w->ab[b].x, &p->x)) {
        add_xyzz(w, b, p, neg);
        return;
    }
    w->qp[w->nq] = p;
    w->qn[w->nq] = (uint8_t)neg;
    w->qb[w->nq] = b;
    w->flag[b] = f | BUSY;
    if (++w->nq == w->qcap)
        drain(w);
}

/* Runs every queued and deferred addition (the last few the XYZZ way). */
static void finish(ws_t *w)
{
    if (!w->affine)
        return;
    drain(w);
    flush(w);
    for (size_t i = 0; i < w->nd; i++)
        add_xyzz(w, w->db[i], w->dp[i], w->dn[i]);
    w->nd = 0;
}

/* r = the whole of bucket b (no queued additions left). */
static void bucket_get(XYZZ *r, const ws_t *w, uint32_t b)
{
    if (w->flag[b] & IN_XYZZ)
        *r = w->xb[b];
    else
        CV(xyzz_set_inf)(r);
    if (w->affine)
        CV(xyzz_add_affine_var)(r, r, &w->ab[b]);
}

/* r = sum_b (b + 1) B_b over all nb buckets by the running sum:
 * T = B_{nb-1} + .. + B_b, S = T_{nb-1} + .. + T_0 (2 additions a bucket). */
static void reduce_dense(JAC *r, const ws_t *w, size_t nb)
{
    XYZZ t, s;
    CV(xyzz_set_inf)(&t);
    CV(xyzz_set_inf)(&s);
    for (size_t b = nb; b-- > 0;) {
        if (w->flag[b]) {
            if (w->affine)
                CV(xyzz_add_affine_var)(&t, &t, &w->ab[b]);
            if (w->flag[b] & IN_XYZZ)
                CV(xyzz_add_var)(&t, &t, &w->xb[b]);
        }
        CV(xyzz_add_var)(&s, &s, &t);
    }
    CV(xyzz_to_jac)(r, &s);
}

/* The same sum over the touched buckets only, each times (b + 1) by a
 * small scalar multiplication: cheaper when few buckets are in use. */
static void reduce_sparse(JAC *r, const ws_t *w)
{
    JAC acc, p, q;
    XYZZ bk;
    CV(jac_set_inf)(&acc);
    for (size_t i = 0; i < w->ntouched; i++) {
        uint32_t b = w->touched[i];
        uint64_t k = (uint64_t)b + 1;
        bucket_get(&bk, w, b);
        CV(xyzz_to_jac)(&p, &bk);
        CV(mul_var)(&q, &p, &k, 1);
        CV(jac_add_var)(&acc, &acc, &q);
    }
    *r = acc;
}

/*
 * acc[i] += *p[i] for i < k (distinct accumulators) in affine coordinates
 * with one inversion for all (flush's formulas). A pair with an infinite
 * side is a copy or nothing; one with equal x (doubling, cancellation) is
 * done on its own in XYZZ (rare). d, t: k elements of scratch.
 */
static void batch_add(AFF *acc, const AFF *const *p, size_t k, FE *d, FE *t)
{
    FE prod, inv, lam, x3, u;
    FEF(set_one)(&prod);
    for (size_t i = 0; i < k; i++) {
        t[i] = prod;
        if (aff_is_inf_var(p[i]) || aff_is_inf_var(&acc[i]) || fe_eq_var(&acc[i].x, &p[i]->x)) {
            FEF(set_zero)(&d[i]); /* marks the pair: an ordinary pair's x2 - x1 is not 0 */
            continue;
        }
        FEF(sub)(&d[i], &p[i]->x, &acc[i].x);
        FEF(mul)(&prod, &prod, &d[i]);
    }
    FEF(inv)(&inv, &prod);
    for (size_t i = k; i-- > 0;) {
        AFF *a = &acc[i];
        if (fe_is_zero_var(&d[i])) {
            if (aff_is_inf_var(a)) {
                *a = *p[i];
            } else if (!aff_is_inf_var(p[i])) { /* equal x: one inversion of its own */
                XYZZ x;
                CV(xyzz_from_affine)(&x, a);
                CV(xyzz_add_affine_var)(&x, &x, p[i]);
                CV(xyzz_to_affine)(a, &x);
            }
            continue;
        }
        FEF(mul)(&u, &inv, &t[i]); /* 1/dx_i */
        FEF(mul)(&inv, &inv, &d[i]);
        FEF(sub)(&lam, &p[i]->y, &a->y);
        FEF(mul)(&lam, &lam, &u);
        FEF(sqr)(&x3, &lam);
        FEF(sub)(&x3, &x3, &a->x);
        FEF(sub)(&x3, &x3, &p[i]->x);
        FEF(sub)(&u, &a->x, &x3);
        FEF(mul)(&u, &u, &lam);
        FEF(sub)(&a->y, &u, &a->y);
        a->x = x3;
    }
}

enum { CHAINS = 256 }; /* additions per batched inversion in the reduction */

/*
 * reduce_dense's sum for affine buckets (no XYZZ part): CHAINS running sums
 * side by side, chain k over buckets kL .. kL + L - 1 (L = nb / CHAINS),
 * from the top: t_k += B_b, s_k += t_k, each step one batch_add. Then t_k
 * is the sum of chain k's buckets and s_k = sum_j (j + 1) B_{kL + j}, so
 * r = sum_k s_k + L sum_k k t_k. About 2 affine additions a bucket instead
 * of 2 XYZZ ones. Returns 0 (r untouched) when scratch memory is missing.
 */
static int reduce_chains(JAC *r, const ws_t *w, size_t nb)
{
    size_t K = CHAINS, L = nb / K;
    AFF *t = calloc(2 * K, sizeof *t), *s = t + K;
    const AFF **pp = malloc(K * sizeof *pp);
    FE *d = malloc(2 * K * sizeof *d);
    int ok = t && pp && d;
    for (size_t j = L; ok && j-- > 0;) {
        for (size_t k = 0; k < K; k++)
            pp[k] = &w->ab[k * L + j];
        batch_add(t, pp, K, d, d + K);
        for (size_t k = 0; k < K; k++)
            pp[k] = &t[k];
        batch_add(s, pp, K, d, d + K);
    }
    if (ok) {
        XYZZ a, u, v;
        CV(xyzz_set_inf)(&a);
        CV(xyzz_set_inf)(&u);
        CV(xyzz_set_inf)(&v);
        for (size_t k = K; k-- > 0;) {
            CV(xyzz_add_affine_var)(&a, &a, &s[k]);
            if (k) { /* v = sum_k k t_k by the running sum u */
                CV(xyzz_add_affine_var)(&u, &u, &t[k]);
                CV(xyzz_add_var)(&v, &v, &u);
            }
        }
        for (size_t m = L; m > 1; m >>= 1)
            CV(xyzz_dbl)(&v, &v);
        CV(xyzz_add_var)(&a, &a, &v);
        CV(xyzz_to_jac)(r, &a);
    }
    free(t);
    free(pp);
    free(d);
    return ok;
}

static void reduce(JAC *r, const ws_t *w, unsigned c)
{
    size_t nb = (size_t)1 << (c - 1);
    if (w->ntouched * 2 * c < nb)
        reduce_sparse(r, w);
    else if (!w->affine || w->any_xyzz || nb < 2 * CHAINS || !reduce_chains(r, w, nb))
        reduce_dense(r, w, nb);
}

/* Allocates `count` workspaces. Returns NULL on allocation failure. */
static ws_t *ws_alloc(int count, size_t nb, int affine, size_t qcap)
{
    ws_t *ws = calloc((size_t)count, sizeof *ws);
    if (!ws)
        return NULL;
    int ok = 1;
    for (int t = 0; t < count; t++)
        ok &= ws_init(&ws[t], nb, affine, qcap);
    if (!ok) {
        for (int t = 0; t < count; t++)
            ws_free(&ws[t]);
        free(ws);
        return NULL;
    }
    return ws;
}

static void ws_release(ws_t *ws, int count)
{
    for (int t = 0; t < count; t++)
        ws_free(&ws[t]);
    free(ws);
}

/* ---- Pippenger ---- */

/*
 * The endomorphism split of the points (msm.h): for point i (bases[i], or
 * bases[idx[i]]), mag[2i] = |k1| and mag[2i + 1] = |k2| (two limbs each),
 * neg[i] = 1 when k1 < 0 (the base is added negated), and phi[i] =
 * ENDO(base), negated when k2 < 0. A base at infinity or a scalar 0 gets
 * magnitudes 0 (no digit).
 */
typedef struct {
    uint64_t (*mag)[2];
    uint8_t *neg;
    AFF *phi;
} endo_t;

typedef struct {
    const AFF *bases;
    const sp_scalar *scalars;
    const size_t *idx; /* NULL: point i is bases[i]; else bases[idx[i]] */
    size_t n;
    const sp_msm_plan *plan;
    ws_t *ws;
    JAC *part; /* one result per task: window j, chunk k at j * chunks + k */
    endo_t e;  /* mag NULL: no split */
    const sp_pause *pause;
} pip_ctx;

static void endo_part(sp_par *par, int tid, void *vctx)
{
    const pip_ctx *x = vctx;
    const sp_msm_glv *g = sp_msm_glv_of(MSM_GROUP);
    size_t lo, hi;
    sp_par_range(&lo, &hi, x->n, tid, par->nthreads);
    for (size_t i = lo; i < hi; i++) {
        if (((i - lo) & 4095) == 0)
            sp_pause_point(x->pause);
        size_t pi = x->idx ? x->idx[i] : i;
        const AFF *p = &x->bases[pi];
        uint64_t *m1 = x->e.mag[2 * i], *m2 = x->e.mag[2 * i + 1];
        if (aff_is_inf_var(p) || sp_msm_kind(&x->scalars[pi]) == 1) {
            m1[0] = m1[1] = m2[0] = m2[1] = 0;
            x->e.neg[i] = 0;
            continue;
        }
        int sg = sp_msm_glv_split(m1, m2, x->scalars[pi].l, g);
        x->e.neg[i] = (uint8_t)(sg & 1);
        ENDO(&x->e.phi[i], p);
        if (sg & 2)
            CV(affine_neg)(&x->e.phi[i], &x->e.phi[i]);
    }
}

/* Fills x->e for the n points (scratch freed by endo_free); 0 when out of
 * memory. The two large arrays are written whole once: huge pages. */
static int endo_make(pip_ctx *x, int threads)
{
    x->e.mag = sp_huge_alloc(2 * x->n * sizeof *x->e.mag);
    x->e.neg = malloc(x->n);
    x->e.phi = sp_huge_alloc(x->n * sizeof *x->e.phi);
    if (!x->e.mag || !x->e.neg || !x->e.phi)
        return 0;
    sp_par_run(sp_par_threads_for(threads, x->n, 2048), endo_part, x);
    return 1;
}

static void endo_free(endo_t *e)
{
    sp_huge_free(e->mag);
    free(e->neg);
    sp_huge_free(e->phi);
}

/* Adds point p times the digit d of window j (nothing for d = 0). */
static inline void pip_add(ws_t *w, const AFF *p, int d, int neg)
{
    if (d == 0)
        return;
    uint32_t b = (uint32_t)(d < 0 ? -d : d) - 1;
    neg ^= d < 0;
    if (w->affine)
        add_affine(w, b, p, neg);
    else
        add_xyzz(w, b, p, neg);
}

/* Task = (window j, point chunk k): fill the buckets, reduce, store. */
static void pip_task(void *vctx, int tid, size_t task)
{
    pip_ctx *x = vctx;
    const sp_msm_plan *pl = x->plan;
    ws_t *w = &x->ws[tid];
    unsigned j = (unsigned)(task / pl->chunks);
    size_t lo, hi;
    sp_msm_range(&lo, &hi, x->n, task % pl->chunks, pl->chunks);
    for (size_t i = lo; i < hi; i++) {
        if (((i - lo) & 4095) == 0)
            sp_pause_point(x->pause);
        const AFF *p = &x->bases[x->idx ? x->idx[i] : i];
        uint64_t s[4] = {0, 0, 0, 0};
        if (x->e.mag) { /* the split: the base by |k1|, its partner by |k2| */
            const uint64_t *m1 = x->e.mag[2 * i], *m2 = x->e.mag[2 * i + 1];
            s[0] = m1[0], s[1] = m1[1];
            pip_add(w, p, sp_msm_digit(s, pl->c, j), x->e.neg[i]);
            s[0] = m2[0], s[1] = m2[1];
            pip_add(w, &x->e.phi[i], sp_msm_digit(s, pl->c, j), 0);
            continue;
        }
        if (aff_is_inf_var(p))
            continue;
        int neg = sp_msm_recode(s, &x->scalars[x->idx ? x->idx[i] : i]);
        pip_add(w, p, sp_msm_digit(s, pl->c, j), neg);
    }
    finish(w);
    reduce(&x->part[task], w, pl->c);
    ws_clear(w);
}

/* Scratch bytes of the split per point: endo_make's three arrays. */
#define ENDO_PER_POINT (sizeof(AFF) + 2 * sizeof(uint64_t[2]) + 1)

/* Whether the n points take the endomorphism split (msm.h). */
static int use_endo(size_t n, const sp_msm_config *cfg)
{
    return !cfg->no_endo && n <= SP_MSM_ENDO_SCRATCH / ENDO_PER_POINT;
}

size_t API(endo_bytes)(size_t n)
{
    sp_msm_config def = sp_msm_config_default();
    return use_endo(n, &def) ? n * ENDO_PER_POINT : 0;
}

/* out = sum over the n points (through idx when not NULL); scalars < r
 * already checked, cfg valid. */
static sp_status pippenger(JAC *out, const AFF *bases, const sp_scalar *scalars,
                           const size_t *idx, size_t n, const sp_msm_config *cfg)
{
    if (n == 0) {
        CV(jac_set_inf)(out);
        return SP_OK;
    }
    int endo = use_endo(n, cfg);
    sp_msm_plan pl;
    sp_status st = sp_msm_make_plan(&pl, endo ? 2 * n : n, cfg, MSM_GROUP,
                                    sizeof(XYZZ) + sizeof(AFF) + 1 + sizeof(uint32_t),
                                    endo ? SP_MSM_GLV_BITS : 255);
    if (st != SP_OK)
        return st;
    size_t tasks = (size_t)pl.windows * pl.chunks;
    pip_ctx x = {bases, scalars, idx, n, &pl, NULL, malloc(tasks * sizeof(JAC)), {NULL, NULL, NULL}, cfg->pause};
    x.ws = ws_alloc(pl.threads, (size_t)1 << (pl.c - 1), pl.affine, pl.batch);
    if (!x.part || !x.ws || (endo && !endo_make(&x, sp_msm_threads(cfg)))) {
        st = SP_ERR_NOMEM;
        goto out;
    }
    sp_par_tasks(pl.threads, tasks, pip_task, &x);
    JAC acc;
    CV(jac_set_inf)(&acc);
    for (unsigned j = pl.windows; j-- > 0;) { /* Horner over the windows */
        for (unsigned i = 0; i < pl.c && !CV(jac_is_inf)(&acc); i++)
            CV(jac_dbl)(&acc, &acc);
        for (size_t k = 0; k < pl.chunks; k++)
            CV(jac_add_var)(&acc, &acc, &x.part[j * pl.chunks + k]);
    }
    *out = acc;
out:
    if (x.ws)
        ws_release(x.ws, pl.threads);
    endo_free(&x.e);
    free(x.part);
    return st;
}

/* ---- the sum of the points whose scalar is 1 ---- */

typedef struct {
    const AFF *bases;
    const size_t *idx;
    size_t n, parts;
    uint32_t acc_n; /* independent accumulators per part */
    ws_t *ws;
    JAC *part;
    const sp_pause *pause;
} ones_ctx;

/* Point t of a part goes to accumulator t mod acc_n: with acc_n queued
 * additions per inversion, every batch fills exactly once per round. */
static void ones_task(void *vctx, int tid, size_t k)
{
    ones_ctx *x = vctx;
    ws_t *w = &x->ws[tid];
    size_t lo, hi;
    uint32_t b = 0;
    sp_msm_range(&lo, &hi, x->n, k, x->parts);
    for (size_t i = lo; i < hi; i++) {
        if (((i - lo) & 4095) == 0)
            sp_pause_point(x->pause);
        const AFF *p = &x->bases[x->idx[i]];
        if (aff_is_inf_var(p))
            continue;
        if (w->affine)
            add_affine(w, b, p, 0);
        else
            add_xyzz(w, b, p, 0);
        if (++b == x->acc_n)
            b = 0;
    }
    finish(w);
    XYZZ s, bk;
    CV(xyzz_set_inf)(&s);
    for (size_t i = 0; i < w->ntouched; i++) {
        bucket_get(&bk, w, w->touched[i]);
        CV(xyzz_add_var)(&s, &s, &bk);
    }
    CV(xyzz_to_jac)(&x->part[k], &s);
    ws_clear(w);
}

static sp_status ones_sum(JAC *out, const AFF *bases, const size_t *idx, size_t n,
                          const sp_msm_config *cfg)
{
    CV(jac_set_inf)(out);
    if (n == 0)
        return SP_OK;
    int threads = sp_msm_threads(cfg);
    size_t parts = n / 4096 + 1;
    parts = parts < (size_t)threads * 4 ? parts : (size_t)threads * 4;
    size_t per = n / parts;
    /* Affine pays one inversion per acc_n additions and acc_n final
     * additions: worth it from a few thousand points a part. */
    int affine = cfg->accum ? cfg->accum == SP_MSM_ACCUM_AFFINE : per >= 4096;
    size_t acc_n = affine ? per / 16 : 1;
    acc_n = acc_n < 1 ? 1 : acc_n > 1024 ? 1024 : acc_n;
    int nthr = (size_t)threads < parts ? threads : (int)parts;
    JAC *part = malloc(parts * sizeof *part);
    ws_t *ws = ws_alloc(nthr, acc_n, affine, acc_n < 2 ? 2 : acc_n);
    if (!part || !ws) {
        free(part);
        if (ws)
            ws_release(ws, nthr);
        return SP_ERR_NOMEM;
    }
    ones_ctx x = {bases, idx, n, parts, (uint32_t)acc_n, ws, part, cfg->pause};
    sp_par_tasks(nthr, parts, ones_task, &x);
    for (size_t k = 0; k < parts; k++)
        CV(jac_add_var)(out, out, &part[k]);
    ws_release(ws, nthr);
    free(part);
    return SP_OK;
}

/* ---- API ---- */

static sp_status check_args(const JAC *out, const AFF *bases, const sp_scalar *scalars, size_t n,
                            const sp_msm_config *cfg)
{
    if (!out || (n && (!bases || !scalars)))
        return SP_ERR_INVALID_ARG;
    return sp_msm_config_ok(cfg) ? SP_OK : SP_ERR_INVALID_ARG;
}

sp_status API(var)(JAC *out, const AFF *bases, const sp_scalar *scalars, size_t n,
                   const sp_msm_config *cfg)
{
    sp_msm_config def = sp_msm_config_default();
    cfg = cfg ? cfg : &def;
    sp_status st = check_args(out, bases, scalars, n, cfg);
    if (st == SP_OK)
        st = sp_msm_check_scalars(scalars, n, sp_msm_threads(cfg));
    if (st == SP_OK)
        st = pippenger(out, bases, scalars, NULL, n, cfg);
    return st;
}

sp_status API(split_var)(JAC *out, const AFF *bases, const sp_scalar *scalars, size_t n,
                         const sp_msm_config *cfg)
{
    sp_msm_config def = sp_msm_config_default();
    cfg = cfg ? cfg : &def;
    sp_status st = check_args(out, bases, scalars, n, cfg);
    if (st != SP_OK)
        return st;
    size_t *ones, *others, n1, n2;
    st = sp_msm_split_index(&ones, &n1, &others, &n2, scalars, n, sp_msm_threads(cfg));
    if (st != SP_OK)
        return st;
    JAC a, b;
    st = ones_sum(&a, bases, ones, n1, cfg);
    if (st == SP_OK)
        st = pippenger(&b, bases, scalars, others, n2, cfg);
    if (st == SP_OK)
        CV(jac_add_var)(out, &a, &b);
    free(ones);
    free(others);
    return st;
}

#include "msm/subgroup_tmpl.h"

#undef CAT2_
#undef CAT_
#undef CV
#undef API
#undef FE
#undef FEF
#undef AFF
#undef JAC
#undef XYZZ
