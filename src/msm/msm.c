/*
 * The group-independent part of the MSM: configuration and plan (window
 * table), the task pool, the scalar scan behind the split MSM, and the
 * scalar conversions. The group law side is msm_tmpl.h.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msm/msm_internal.h"

/* (r - 1) / 2 of the build's curve (r is in field/consts.h). */
#if SP_CURVE_BN254
const uint64_t SP_MSM_HALF_R[4] = {0xa1f0fac9f8000000ULL, 0x9419f4243cdcb848ULL,
                                   0xdc2822db40c0ac2eULL, 0x183227397098d014ULL};
#else
const uint64_t SP_MSM_HALF_R[4] = {0x7fffffff80000000ULL, 0xa9ded2017fff2dffULL,
                                   0x199cec0404d0ec02ULL, 0x39f6d3a994cebea4ULL};
#endif

/* ---- configuration and plan ---- */

sp_msm_config sp_msm_config_default(void)
{
    sp_msm_config c = {0, 0, SP_MSM_ACCUM_AUTO, 0, NULL};
    return c;
}

/*
 * Window size c and accumulation method (A = affine with batched
 * inversion, X = XYZZ) by L = ceil(log2 n). Measured here (2-core AMD
 * Zen 5 KVM guest, GCC 12 -O2, x86-64 adx field path, 2026-11-30) with
 * `bench_msm sweep`: one thread, process CPU time, uniform random scalars,
 * every c from L-7 to L-1 (clamped to 1..18) in both methods at n = 2^L;
 * the fastest pair is listed. Entries past the last measured size (G1
 * 2^20, G2 2^18) are extrapolated: one more bit per doubling of n or two,
 * up to 18 at 2^24 (`bench_msm sweep` measures them).
 */
typedef struct {
    uint8_t c, affine;
} window_choice;

#define X_(c) {c, 0}
#define A_(c) {c, 1}
static const window_choice win_g1[] = {
    X_(1), X_(1), X_(1), X_(2), X_(3), X_(4), X_(5), X_(6),       /* L = 0..7 */
    X_(6), X_(7), X_(8), A_(10), A_(10), A_(11), A_(12), A_(12),  /* 8..15 */
    A_(13), A_(13), A_(15), A_(15), A_(16),                       /* 16..20 */
    A_(16), A_(17), A_(17), A_(18),                               /* 21..24, extrapolated */
};
static const window_choice win_g2[] = {
    X_(1), X_(1), X_(1), X_(2), X_(3), X_(4), X_(5), X_(5),       /* L = 0..7 */
    X_(6), A_(8), A_(8), A_(9), A_(10), A_(10), A_(11), A_(12),   /* 8..15 */
    A_(13), A_(13), A_(15),                                       /* 16..18 */
    A_(15), A_(16), A_(16), A_(17), A_(17), A_(18),               /* 19..24, extrapolated */
};
#undef X_
#undef A_

static unsigned log2_ceil(size_t n)
{
    unsigned l = 0;
    while (l < 63 && ((size_t)1 << l) < n)
        l++;
    return l;
}

static window_choice auto_choice(size_t n, int group)
{
    const window_choice *t = group == 2 ? win_g2 : win_g1;
    size_t len = group == 2 ? sizeof win_g2 / sizeof win_g2[0] : sizeof win_g1 / sizeof win_g1[0];
    unsigned l = log2_ceil(n);
    return t[l < len ? l : len - 1];
}

int sp_msm_auto_window(size_t n, int group) { return auto_choice(n, group).c; }

int sp_msm_auto_accum(size_t n, int group)
{
    return auto_choice(n, group).affine ? SP_MSM_ACCUM_AFFINE : SP_MSM_ACCUM_XYZZ;
}

int sp_msm_threads(const sp_msm_config *cfg)
{
    long t = cfg->threads;
    if (t <= 0) {
        t = sysconf(_SC_NPROCESSORS_ONLN);
        if (t < 1)
            t = 1;
    }
    return t > SP_MSM_MAX_THREADS ? SP_MSM_MAX_THREADS : (int)t;
}

int sp_msm_config_ok(const sp_msm_config *cfg)
{
    return cfg->window_bits >= 0 && cfg->window_bits <= SP_MSM_MAX_WINDOW && cfg->threads >= 0 &&
           cfg->accum >= SP_MSM_ACCUM_AUTO && cfg->accum <= SP_MSM_ACCUM_AFFINE &&
           (cfg->no_endo == 0 || cfg->no_endo == 1);
}

/* The most bucket memory an automatic window may take over all threads. */
#define SCRATCH_BUDGET ((size_t)1 << 30)

/* Work on the busiest of t threads for n points at window c (windows
 * handed out whole): its windows times (points + 2^c reduction steps). */
static double busiest_work(size_t n, unsigned bits, unsigned c, int t)
{
    size_t w = (bits + c - 1) / c, rounds = (w + (size_t)t - 1) / (size_t)t;
    return (double)rounds * ((double)n + (double)((size_t)1 << c));
}

sp_status sp_msm_make_plan(sp_msm_plan *p, size_t n, const sp_msm_config *cfg, int g,
                           size_t bucket_bytes, unsigned bits)
{
    if (!sp_msm_config_ok(cfg))
        return SP_ERR_INVALID_ARG;
    int t = sp_msm_threads(cfg);
    unsigned c = cfg->window_bits ? (unsigned)cfg->window_bits : (unsigned)sp_msm_auto_window(n, g);
    unsigned w = (bits + c - 1) / c;
    /* Too few windows for the threads: cut the points into chunks as well
     * (each chunk pays its own bucket reduction, so keep chunks large). */
    size_t k = 1, per = n;
    if ((size_t)t * 2 > w) {
        k = ((size_t)t * 2 + w - 1) / w;
        size_t kmax = n / 4096 ? n / 4096 : 1;
        k = k < kmax ? k : kmax;
        per = (n + k - 1) / k;
        if (!cfg->window_bits) {
            c = (unsigned)sp_msm_auto_window(per, g);
            w = (bits + c - 1) / c;
        }
    }
    /* An automatic window whose windows do not share out evenly over the
     * threads (11 windows on 2 threads: one thread does 6, the other 5 and
     * then waits) may lose to the next smaller one (12 windows, 6 each):
     * take c - 1 when the busiest thread's work is clearly less, a window's
     * work counted as its points plus its 2^c reduction steps. Never a
     * larger c: the engine budgets buckets by the table's window. Small
     * G1 MSMs on two threads are where this wins. */
    if (!cfg->window_bits && t > 1 && k == 1 && c > 2 &&
        busiest_work(per, bits, c - 1, t) < 0.97 * busiest_work(per, bits, c, t)) {
        c--;
        w = (bits + c - 1) / c;
    }
    /* Many threads at a large automatic window: shrink it to the budget. */
    while (!cfg->window_bits && c > 8 &&
           (size_t)t * ((size_t)1 << (c - 1)) * bucket_bytes > SCRATCH_BUDGET) {
        c--;
        w = (bits + c - 1) / c;
    }
    p->c = c;
    p->windows = w;
    p->chunks = k;
    size_t tasks = (size_t)w * k;
    p->threads = (size_t)t < tasks ? t : (int)tasks;
    /* Automatic method: the table's for an automatic window; for a given
     * window, affine from the smallest c at which the table uses it (a
     * batch cannot be larger than the 2^(c-1) buckets). */
    int accum = cfg->accum;
    if (accum == SP_MSM_ACCUM_AUTO && !cfg->window_bits)
        accum = sp_msm_auto_accum(per, g);
    else if (accum == SP_MSM_ACCUM_AUTO)
        accum = c >= (g == 2 ? 8u : 10u) ? SP_MSM_ACCUM_AFFINE : SP_MSM_ACCUM_XYZZ;
    p->affine = accum == SP_MSM_ACCUM_AFFINE;
    size_t nb = (size_t)1 << (c - 1);
    /* Additions per batched inversion (~500 multiplications): a few hundred
     * share it well. A bucket takes at most one addition per batch (the
     * others are deferred, msm_tmpl.h). Measured here at 2^16 points, c 12
     * to 14: nb / 2 up to 1024 is 3-5% faster than nb / 4 or nb / 8 and
     * within noise of 2048. At least 2. */
    p->batch = nb / 2 < 1024 ? (nb / 2 > 2 ? nb / 2 : 2) : 1024;
    return SP_OK;
}

/* ---- scalar scan ---- */

typedef struct {
    const sp_scalar *s;
    size_t n, parts;
    size_t *cnt;      /* per part: ones, others */
    size_t *ones, *others; /* the fill pass writes here */
    int fill;         /* 0: counting pass, 1: fill pass */
    atomic_int bad;
} scan_ctx;

static int scalar_lt_r(const sp_scalar *s)
{
    for (int i = 3; i >= 0; i--)
        if (s->l[i] != SP_FR_MODULUS[i])
            return s->l[i] < SP_FR_MODULUS[i];
    return 0;
}

static void scan_task(void *vctx, int tid, size_t k)
{
    (void)tid;
    scan_ctx *c = vctx;
    size_t lo, hi, n1 = 0, n2 = 0;
    sp_msm_range(&lo, &hi, c->n, k, c->parts);
    if (c->fill) { /* a list is NULL only when its count is 0 */
        size_t *o1 = c->ones ? c->ones + c->cnt[2 * k] : NULL;
        size_t *o2 = c->others ? c->others + c->cnt[2 * k + 1] : NULL;
        for (size_t i = lo; i < hi; i++) {
            int kind = sp_msm_kind(&c->s[i]);
            if (kind == 2)
                o1[n1++] = i;
            else if (kind == 0)
                o2[n2++] = i;
        }
        return;
    }
    int bad = 0;
    for (size_t i = lo; i < hi; i++) {
        int kind = sp_msm_kind(&c->s[i]);
        n1 += kind == 2;
        n2 += kind == 0;
        bad |= kind == 0 && !scalar_lt_r(&c->s[i]);
    }
    if (bad)
        atomic_store(&c->bad, 1);
    c->cnt[2 * k] = n1;
    c->cnt[2 * k + 1] = n2;
}

/* Counting pass: cnt[2k], cnt[2k+1] = ones, others of part k. */
static sp_status scan_count(scan_ctx *c, int threads)
{
    c->parts = c->n / 16384 + 1;
    if (c->parts > (size_t)threads * 4)
        c->parts = (size_t)threads * 4;
    c->cnt = malloc(2 * c->parts * sizeof *c->cnt);
    if (!c->cnt)
        return SP_ERR_NOMEM;
    atomic_init(&c->bad, 0);
    sp_par_tasks(threads, c->parts, scan_task, c);
    if (atomic_load(&c->bad)) {
        free(c->cnt);
        return SP_ERR_NOT_CANONICAL;
    }
    return SP_OK;
}

sp_status sp_msm_check_scalars(const sp_scalar *scalars, size_t n, int threads)
{
    scan_ctx c = {.s = scalars, .n = n};
    sp_status st = scan_count(&c, threads);
    if (st == SP_OK)
        free(c.cnt);
    return st;
}

sp_status sp_msm_split_index(size_t **ones, size_t *n_ones, size_t **others, size_t *n_others,
                             const sp_scalar *scalars, size_t n, int threads)
{
    scan_ctx c = {.s = scalars, .n = n};
    sp_status st = scan_count(&c, threads);
    if (st != SP_OK)
        return st;
    size_t t1 = 0, t2 = 0;
    for (size_t k = 0; k < c.parts; k++) { /* counts -> offsets */
        size_t a = c.cnt[2 * k], b = c.cnt[2 * k + 1];
        c.cnt[2 * k] = t1;
        c.cnt[2 * k + 1] = t2;
        t1 += a;
        t2 += b;
    }
    c.ones = t1 ? malloc(t1 * sizeof *c.ones) : NULL;
    c.others = t2 ? malloc(t2 * sizeof *c.others) : NULL;
    if ((t1 && !c.ones) || (t2 && !c.others)) {
        free(c.ones);
        free(c.others);
        free(c.cnt);
        return SP_ERR_NOMEM;
    }
    c.fill = 1;
    if (t1 || t2)
        sp_par_tasks(threads, c.parts, scan_task, &c);
    free(c.cnt);
    *ones = c.ones;
    *n_ones = t1;
    *others = c.others;
    *n_others = t2;
    return SP_OK;
}

sp_status sp_msm_split_count(sp_msm_split_stats *st, const sp_scalar *scalars, size_t n)
{
    if (!st || (n && !scalars))
        return SP_ERR_INVALID_ARG;
    sp_msm_config cfg = sp_msm_config_default();
    scan_ctx c = {.s = scalars, .n = n};
    sp_status s = scan_count(&c, sp_msm_threads(&cfg));
    if (s != SP_OK)
        return s;
    st->ones = st->others = 0;
    for (size_t k = 0; k < c.parts; k++) {
        st->ones += c.cnt[2 * k];
        st->others += c.cnt[2 * k + 1];
    }
    st->zeros = n - st->ones - st->others;
    free(c.cnt);
    return SP_OK;
}

/* ---- conversions ---- */

void sp_scalar_from_fr(sp_scalar *r, const sp_fr *a) { sp_fr_to_canonical(r->l, a); }

sp_status sp_scalar_to_fr(sp_fr *r, const sp_scalar *s) { return sp_fr_from_canonical(r, s->l); }

void sp_msm_scalars_from_fr(sp_scalar *out, const sp_fr *in, size_t n)
{
    for (size_t i = 0; i < n; i++)
        sp_fr_to_canonical(out[i].l, &in[i]);
}

typedef struct {
    sp_scalar *out;
    const sp_fr *in;
    size_t n;
} from_fr_job;

static void from_fr_part(sp_par *par, int tid, void *ctx)
{
    const from_fr_job *j = ctx;
    size_t lo, hi;
    sp_par_range(&lo, &hi, j->n, tid, par->nthreads);
    sp_msm_scalars_from_fr(j->out + lo, j->in + lo, hi - lo);
}

void sp_msm_scalars_from_fr_par(sp_scalar *out, const sp_fr *in, size_t n, int threads)
{
    if (threads < 1)
        threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
    from_fr_job j = {out, in, n};
    sp_par_run(sp_par_threads_for(threads, n, (size_t)1 << 14), from_fr_part, &j);
}

/* ---- the random-subset subgroup test's shape (subgroup_tmpl.h) ---- */

void sp_msm_subgroup_plan(unsigned *c_out, size_t *chunks_out, int *affine, size_t n, int threads,
                          unsigned rounds, int g)
{
    /* Work in bucket additions: blocks * (n + chunks * 4 * 2^c), the bit
     * sums costing two XYZZ additions a bucket, about four affine ones.
     * Chunks: enough tasks for two per thread, but ~256 points each at
     * least. Buckets of all threads within 256 MiB. */
    size_t bucket_bytes = g == 2 ? 600 : 300, best = SIZE_MAX;
    size_t max_chunks = n / 256 ? n / 256 : 1;
    *c_out = 1;
    *chunks_out = 1;
    for (unsigned c = 1; c <= 16 && c <= rounds; c++) {
        size_t blocks = (rounds + c - 1) / c;
        size_t chunks = ((size_t)threads * 2 + blocks - 1) / blocks;
        chunks = chunks < max_chunks ? chunks : max_chunks;
        size_t busy = blocks * chunks < (size_t)threads ? blocks * chunks : (size_t)threads;
        if (c > 1 && busy * ((size_t)1 << c) * bucket_bytes > ((size_t)256 << 20))
            break;
        size_t work = blocks * (n + chunks * 4 * ((size_t)1 << c));
        if (work < best) {
            best = work;
            *c_out = c;
            *chunks_out = chunks;
        }
    }
    /* Affine buckets pay off once a bucket gets a few additions a task and
     * the batches (2^(c-1) additions) share the inversion well (measured). */
    *affine = n / *chunks_out >= ((size_t)4 << *c_out) && *c_out >= (g == 2 ? 7u : 9u);
}

void sp_msm_random_scalars(sp_scalar *s, size_t n, double bool_fraction, sp_rng *rng)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t u = sp_rng_u64(rng);
        if ((double)(u >> 11) * 0x1p-53 < bool_fraction) {
            memset(&s[i], 0, sizeof s[i]);
            s[i].l[0] = sp_rng_u64(rng) & 1;
        } else {
            sp_fr f;
            sp_fr_random(&f, rng);
            sp_scalar_from_fr(&s[i], &f);
        }
    }
}
