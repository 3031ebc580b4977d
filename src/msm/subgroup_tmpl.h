/*
 * Subgroup membership of many points (msm.h, sp_msm_G_in_subgroup_var),
 * included by msm_tmpl.h after its bucket code, whose workspaces (ws_t,
 * XYZZ or batched affine additions) it reuses.
 *
 * The random-subset test: round i draws a uniform random bit b_{i,k} for
 * every point P_k and checks S_i = sum_k b_{i,k} P_k with the exact test
 * sp_G_in_subgroup. Points of the subgroup give sums in it, so the test
 * never rejects good points. When some P_t is outside, let q be the
 * quotient map onto E/G (G the order-r subgroup): q(S_i) = b_{i,t} q(P_t)
 * + (terms without b_{i,t}), and q(P_t) != 0, so q(S_i) = 0 for at most one
 * of the two values of b_{i,t}: the round passes with probability <= 1/2
 * whatever the other bits are. The rounds use independent bits, so R rounds
 * all pass with probability <= 2^-R. The bits come from getrandom(2) once
 * the points are fixed, so the bound holds for every input, however it was
 * made.
 *
 * Cost: rounds come in blocks of c: each point goes, by its c bits of the
 * block, into one of 2^c buckets (one bucket addition), and round i of the
 * block is the sum of the buckets whose index has bit i set. With c ~ 10
 * that is ~R / 10 additions a point instead of ~R / 2 for separate sums,
 * and each is far cheaper than a scalar multiplication by z.
 */
#include "util/progress.h"
#include "util/rng.h"

typedef struct {
    const AFF *p;
    size_t n, chunks;
    unsigned c;
    ws_t *ws;
    XYZZ *sums;    /* c per task: task = block * chunks + chunk */
    uint8_t *fail; /* per task: getrandom failed */
    size_t blocks;
} sgb_ctx;

/* sums[i] = the sum of the buckets whose index has bit i set (i < c), by
 * folding the upper half of the index range onto the lower half, one bit
 * at a time (two additions a bucket). Leaves every bucket empty. */
static void sgb_bit_sums(XYZZ *sums, ws_t *w, unsigned c)
{
    XYZZ *a = w->xb;
    if (w->affine) {
        for (size_t i = 0; i < w->ntouched; i++) {
            uint32_t b = w->touched[i];
            CV(xyzz_add_affine_var)(&a[b], &a[b], &w->ab[b]);
        }
    }
    for (unsigned j = c; j-- > 0;) {
        size_t half = (size_t)1 << j;
        CV(xyzz_set_inf)(&sums[j]);
        for (size_t i = half; i < 2 * half; i++) {
            CV(xyzz_add_var)(&sums[j], &sums[j], &a[i]);
            if (j)
                CV(xyzz_add_var)(&a[i - half], &a[i - half], &a[i]);
        }
    }
    ws_clear(w);
    memset(a, 0, ((size_t)1 << c) * sizeof *a); /* folding wrote untouched buckets */
}

/* Task: one block of c rounds over one chunk of points. */
static void sgb_task(void *vctx, int tid, size_t task)
{
    enum { SLICE = 1024 };
    sgb_ctx *x = vctx;
    ws_t *w = &x->ws[tid];
    uint16_t bits[SLICE];
    uint32_t mask = ((uint32_t)1 << x->c) - 1;
    size_t lo, hi;
    sp_msm_range(&lo, &hi, x->n, task % x->chunks, x->chunks);
    for (size_t i = lo; i < hi; i += SLICE) {
        size_t m = hi - i < SLICE ? hi - i : SLICE;
        if (sp_os_random((uint8_t *)bits, m * sizeof *bits) != SP_OK) {
            x->fail[task] = 1;
            break;
        }
        for (size_t k = 0; k < m; k++) {
            uint32_t b = bits[k] & mask; /* bit j: the point is in round j of the block */
            const AFF *q = &x->p[i + k];
            if (b == 0 || aff_is_inf_var(q))
                continue;
            if (w->affine)
                add_affine(w, b, q, 0);
            else
                add_xyzz(w, b, q, 0);
        }
    }
    finish(w);
    sgb_bit_sums(&x->sums[task * x->c], w, x->c);
    sp_progress_add((hi - lo) / x->blocks); /* n units over the whole array */
}

typedef struct {
    const AFF *p;
    uint8_t *in; /* per point: 1 when in the subgroup */
} sgb_exact_ctx;

static void sgb_exact_task(void *vctx, int tid, size_t i)
{
    sgb_exact_ctx *x = vctx;
    x->in[i] = (uint8_t)CV(in_subgroup)(&x->p[i]);
}

/* The R = blocks * c round sums from the per-task ones, tested exactly.
 * Returns 1 when all are in the subgroup, 0 when not, -1 without memory. */
static int sgb_check_sums(const XYZZ *sums, size_t blocks, size_t chunks, unsigned c, int threads)
{
    size_t rounds = blocks * c;
    JAC *tot = malloc(rounds * sizeof *tot);
    AFF *aff = malloc(rounds * sizeof *aff);
    uint8_t *in = malloc(rounds);
    int ok = -1;
    if (tot && aff && in) {
        for (size_t j = 0; j < blocks; j++) {
            for (unsigned i = 0; i < c; i++) {
                XYZZ s;
                CV(xyzz_set_inf)(&s);
                for (size_t k = 0; k < chunks; k++)
                    CV(xyzz_add_var)(&s, &s, &sums[(j * chunks + k) * c + i]);
                CV(xyzz_to_jac)(&tot[j * c + i], &s);
            }
        }
        CV(batch_to_affine)(aff, tot, rounds);
        sgb_exact_ctx x = {aff, in};
        sp_par_tasks(threads, rounds, sgb_exact_task, &x);
        ok = 1;
        for (size_t i = 0; i < rounds; i++)
            ok &= in[i];
    }
    free(tot);
    free(aff);
    free(in);
    return ok;
}

int API(subgroup_batch_var)(const AFF *p, size_t n, int threads, unsigned rounds)
{
    unsigned c;
    size_t chunks;
    int affine;
    threads = threads < 1 ? 1 : threads > SP_MSM_MAX_THREADS ? SP_MSM_MAX_THREADS : threads;
    sp_msm_subgroup_plan(&c, &chunks, &affine, n, threads, rounds, MSM_GROUP);
    size_t blocks = (rounds + c - 1) / c, tasks = blocks * chunks, nb = (size_t)1 << c;
    int nthr = (size_t)threads < tasks ? threads : (int)tasks;
    size_t qcap = nb / 2 < 1024 ? (nb / 2 > 2 ? nb / 2 : 2) : 1024;
    XYZZ *sums = malloc(tasks * c * sizeof *sums);
    uint8_t *fail = calloc(tasks, 1);
    ws_t *ws = ws_alloc(nthr, nb, affine, qcap);
    int ok = -1;
    if (sums && fail && ws) {
        sgb_ctx x = {p, n, chunks, c, ws, sums, fail, blocks};
        sp_par_tasks(nthr, tasks, sgb_task, &x);
        ok = memchr(fail, 1, tasks) ? -1 : sgb_check_sums(sums, blocks, chunks, c, threads);
    }
    if (ws)
        ws_release(ws, nthr);
    free(sums);
    free(fail);
    return ok;
}

typedef struct {
    const AFF *p;
    size_t n;
    size_t bad[SP_MSM_MAX_THREADS]; /* per worker: its lowest bad index, or n */
} sgx_ctx;

static void sgx_worker(sp_par *par, int tid, void *vctx)
{
    sgx_ctx *x = vctx;
    size_t lo, hi;
    sp_par_range(&lo, &hi, x->n, tid, par->nthreads);
    for (size_t i = lo; i < hi; i++) {
        if (!CV(in_subgroup)(&x->p[i])) {
            x->bad[tid] = i;
            return;
        }
    }
}

/* *bad = the lowest index outside the subgroup (n: none), point by point. */
static void sgb_scan_exact(size_t *bad, const AFF *p, size_t n, int threads)
{
    sgx_ctx x = {.p = p, .n = n};
    int nt = sp_par_threads_for(threads, n, 16);
    for (int t = 0; t < nt; t++) /* workers that cannot start leave theirs at n */
        x.bad[t] = n;
    sp_par_run(nt, sgx_worker, &x);
    *bad = n;
    for (int t = 0; t < nt; t++)
        *bad = x.bad[t] < *bad ? x.bad[t] : *bad;
}

void API(in_subgroup_var)(size_t *bad, const AFF *p, size_t n, int threads)
{
    if (COFACTOR_ONE) { /* the group is the whole curve, and p is on it (the contract) */
        *bad = n;
        sp_progress_add(n); /* the units the batch test would have counted */
        return;
    }
    threads = threads < 1 ? 1 : threads > SP_MSM_MAX_THREADS ? SP_MSM_MAX_THREADS : threads;
    if (n >= SP_MSM_SUBGROUP_BATCH_MIN &&
        API(subgroup_batch_var)(p, n, threads, SP_MSM_SUBGROUP_ROUNDS) == 1) {
        *bad = n;
        return;
    }
    /* Small, rejected (find the point), or no memory or randomness. */
    sgb_scan_exact(bad, p, n, threads);
}
