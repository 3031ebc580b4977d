/*
 * MSM on the GPU against two independent references:
 *   - the discrete-log oracle: every base is built as P_i = [e_i]G with
 *     e_i known, so sum s_i P_i = [sum s_i e_i mod r] G, one Fr dot
 *     product and one scalar multiplication on the CPU (any size);
 *   - the naive sum of sp_gX_mul_var(P_i, s_i) (small sizes).
 * Bases for large sizes are an arithmetic progression of logs
 * e_i = b0 + i*d (distinct points, cheap to make), random b0 and d.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

typedef struct {
    const char *name;
    size_t aff_sz, jac_sz;
    /* aff[i - lo] = [b0 + i*d]G for i in [lo, hi) */
    void (*progression)(void *aff, size_t lo, size_t hi, const sp_fr *b0, const sp_fr *d);
    void (*from_log)(void *aff, const sp_fr *e); /* [e]G, (0, 0) for e = 0 */
    void (*mul_gen)(void *jac, const sp_fr *e);  /* [e]G */
    void (*naive)(void *jac, const void *aff, const uint64_t *sc, size_t n);
    int (*eq)(const void *a, const void *b);
    int (*is_inf)(const void *jac);
    sp_status (*msm)(sp_cuda *cu, void *jac, const void *aff, const uint64_t *sc, size_t n,
                     unsigned window);
    sp_status (*msm_split)(sp_cuda *cu, void *jac, const void *aff, const uint64_t *sc, size_t n,
                           unsigned window);
    sp_status (*cpu_msm)(void *jac, const void *aff, const uint64_t *sc, size_t n);
} grp;

#define DEFINE_GRP(G)                                                                   \
    static void G##_progression(void *out, size_t lo, size_t hi, const sp_fr *b0,     \
                                const sp_fr *d)                                        \
    {                                                                                  \
        enum { CH = 1024 };                                                            \
        sp_##G##_jac *buf = malloc(CH * sizeof *buf);                                  \
        sp_##G##_affine g, da;                                                         \
        sp_##G##_jac gj, cur, dj;                                                      \
        sp_fr k, t;                                                                    \
        uint64_t kl[4];                                                                \
        sp_##G##_generator(&g);                                                        \
        sp_##G##_jac_from_affine(&gj, &g);                                             \
        sp_fr_set_u64(&t, lo);                                                         \
        sp_fr_mul(&t, &t, d);                                                          \
        sp_fr_add(&k, b0, &t);                                                         \
        sp_fr_to_canonical(kl, &k);                                                    \
        sp_##G##_mul_var(&cur, &gj, kl, 4);                                            \
        sp_fr_to_canonical(kl, d);                                                     \
        sp_##G##_mul_var(&dj, &gj, kl, 4);                                             \
        sp_##G##_jac_to_affine(&da, &dj);                                              \
        for (size_t i = lo; i < hi; i += CH) {                                         \
            size_t m = hi - i < CH ? hi - i : CH;                                      \
            for (size_t j = 0; j < m; j++) {                                           \
                buf[j] = cur;                                                          \
                sp_##G##_jac_add_affine_var(&cur, &cur, &da);                          \
            }                                                                          \
            sp_##G##_batch_to_affine((sp_##G##_affine *)out + (i - lo), buf, m);       \
        }                                                                              \
        free(buf);                                                                     \
    }                                                                                  \
    static void G##_mul_gen(void *r, const sp_fr *e)                                   \
    {                                                                                  \
        sp_##G##_affine g;                                                             \
        sp_##G##_jac gj;                                                               \
        uint64_t kl[4];                                                                \
        sp_##G##_generator(&g);                                                        \
        sp_##G##_jac_from_affine(&gj, &g);                                             \
        sp_fr_to_canonical(kl, e);                                                     \
        sp_##G##_mul_var(r, &gj, kl, 4);                                               \
    }                                                                                  \
    static void G##_from_log(void *aff, const sp_fr *e)                                \
    {                                                                                  \
        sp_##G##_jac j;                                                                \
        G##_mul_gen(&j, e);                                                            \
        if (sp_fr_is_zero(e))                                                          \
            sp_##G##_affine_set_inf(aff);                                              \
        else                                                                           \
            sp_##G##_jac_to_affine(aff, &j);                                           \
    }                                                                                  \
    static void G##_naive(void *r, const void *aff, const uint64_t *sc, size_t n)      \
    {                                                                                  \
        sp_##G##_jac acc, p;                                                           \
        sp_##G##_jac_set_inf(&acc);                                                    \
        for (size_t i = 0; i < n; i++) {                                               \
            sp_##G##_jac_from_affine(&p, (const sp_##G##_affine *)aff + i);            \
            if (sp_##G##_affine_is_inf((const sp_##G##_affine *)aff + i))              \
                continue;                                                              \
            sp_##G##_mul_var(&p, &p, sc + 4 * i, 4);                                   \
            sp_##G##_jac_add_var(&acc, &acc, &p);                                      \
        }                                                                              \
        *(sp_##G##_jac *)r = acc;                                                      \
    }                                                                                  \
    static int G##_eq(const void *a, const void *b) { return sp_##G##_jac_eq(a, b); }  \
    static int G##_is_inf(const void *a) { return sp_##G##_jac_is_inf(a); }           \
    static sp_status G##_msm(sp_cuda *cu, void *r, const void *aff, const uint64_t *sc, \
                             size_t n, unsigned w)                                     \
    {                                                                                  \
        return sp_cuda_msm_##G(cu, r, aff, (const sp_scalar *)sc, n, w);               \
    }                                                                                  \
    static sp_status G##_msm_split(sp_cuda *cu, void *r, const void *aff,              \
                                   const uint64_t *sc, size_t n, unsigned w)           \
    {                                                                                  \
        return sp_cuda_msm_##G##_split(cu, r, aff, (const sp_scalar *)sc, n, w);       \
    }                                                                                  \
    static sp_status G##_cpu_msm(void *r, const void *aff, const uint64_t *sc, size_t n) \
    {                                                                                  \
        return sp_msm_##G##_var(r, aff, (const sp_scalar *)sc, n, NULL);               \
    }                                                                                  \
    static const grp grp_##G = {#G, sizeof(sp_##G##_affine), sizeof(sp_##G##_jac),     \
                                G##_progression, G##_from_log, G##_mul_gen, G##_naive, \
                                G##_eq, G##_is_inf, G##_msm, G##_msm_split,           \
                                G##_cpu_msm};

DEFINE_GRP(g1)
DEFINE_GRP(g2)

/* ---- parallel helpers ---- */

typedef struct {
    const grp *g;
    void *aff;
    sp_fr b0, d;
} prog_job;

static void prog_range(void *arg, size_t lo, size_t hi)
{
    prog_job *j = arg;
    j->g->progression((char *)j->aff + lo * j->g->aff_sz, lo, hi, &j->b0, &j->d);
}

typedef struct {
    const uint64_t *sc;
    const sp_fr *logs; /* explicit logs, or NULL for the progression */
    sp_fr b0, d;
    size_t period;
    sp_fr sum;
    pthread_mutex_t lock;
} dot_job;

static void dot_range(void *arg, size_t lo, size_t hi)
{
    dot_job *j = arg;
    sp_fr acc, s, e, t;
    sp_fr_set_zero(&acc);
    for (size_t i = lo; i < hi; i++) {
        if (j->logs) {
            e = j->logs[i];
        } else {
            sp_fr_set_u64(&t, i % j->period);
            sp_fr_mul(&t, &t, &j->d);
            sp_fr_add(&e, &j->b0, &t);
        }
        if (sp_fr_from_canonical(&s, j->sc + 4 * i) != SP_OK)
            continue; /* the callers only pass canonical scalars here */
        sp_fr_mul(&t, &s, &e);
        sp_fr_add(&acc, &acc, &t);
    }
    pthread_mutex_lock(&j->lock);
    sp_fr_add(&j->sum, &j->sum, &acc);
    pthread_mutex_unlock(&j->lock);
}

/* [sum s_i e_i]G, e_i from logs or the progression (b0, d, period). */
static void oracle(chk_env *env, const grp *g, void *jac, const uint64_t *sc, size_t n,
                   const sp_fr *logs, const sp_fr *b0, const sp_fr *d, size_t period)
{
    dot_job j;
    memset(&j, 0, sizeof j);
    j.sc = sc;
    j.logs = logs;
    if (b0)
        j.b0 = *b0, j.d = *d;
    j.period = period ? period : 1;
    sp_fr_set_zero(&j.sum);
    pthread_mutex_init(&j.lock, NULL);
    chk_parallel(n, env->threads, dot_range, &j);
    pthread_mutex_destroy(&j.lock);
    g->mul_gen(jac, &j.sum);
}

typedef struct {
    uint64_t *sc;
    uint64_t seed;
} scal_job;

static void scal_range(void *arg, size_t lo, size_t hi)
{
    scal_job *j = arg;
    sp_rng rng;
    sp_rng_seed(&rng, j->seed ^ (lo * 0x9e3779b97f4a7c15ULL));
    for (size_t i = lo; i < hi; i++)
        chk_random_scalar(j->sc + 4 * i, &rng);
}

static void random_scalars(chk_env *env, uint64_t *sc, size_t n)
{
    scal_job j = {sc, sp_rng_u64(&env->rng)};
    chk_parallel(n, env->threads, scal_range, &j);
}

/* ---- the checks ---- */

/* Runs the GPU MSM with poisoned output and compares with want. */
static void run_cmp_split(chk_env *env, const grp *g, int split, const void *want, const void *aff,
                          const uint64_t *sc, size_t n, unsigned window, const char *what)
{
    unsigned char got[sizeof(sp_g2_jac)];
    memset(got, 0xa5, sizeof got);
    sp_status st = (split ? g->msm_split : g->msm)(env->cu, got, aff, sc, n, window);
    char w[160];
    snprintf(w, sizeof w, "%s %s n=%zu window=%u (%s)", g->name, split ? "split msm" : "msm", n,
             window, what);
    if (!chk_ok(env, st, w))
        return;
    CHECKF(g->eq(got, want), "%s: GPU result differs from the reference", w);
}

static void run_cmp(chk_env *env, const grp *g, const void *want, const void *aff,
                    const uint64_t *sc, size_t n, unsigned window, const char *what)
{
    run_cmp_split(env, g, 0, want, aff, sc, n, window, what);
}

typedef enum { LOGS_RANDOM, LOGS_SAME, LOGS_SOME_INF, LOGS_PLUS_MINUS } logs_kind;
typedef enum { SC_RANDOM, SC_ZERO, SC_ONE, SC_MIXED, SC_SMALL } scal_kind;

static void make_logs(chk_env *env, sp_fr *e, size_t n, logs_kind k)
{
    for (size_t i = 0; i < n; i++) {
        sp_fr_random(&e[i], &env->rng);
        if (k == LOGS_SAME && i)
            e[i] = e[0];
        if (k == LOGS_SOME_INF && i % 7 == 3)
            sp_fr_set_zero(&e[i]);
        if (k == LOGS_PLUS_MINUS && (i & 1))
            sp_fr_neg(&e[i], &e[i - 1]);
    }
}

static void make_scalars(chk_env *env, uint64_t *sc, size_t n, scal_kind k, logs_kind lk)
{
    static const uint64_t r_minus_1[4] = {0xffffffff00000000ULL, 0x53bda402fffe5bfeULL,
                                          0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};
    for (size_t i = 0; i < n; i++) {
        uint64_t *s = sc + 4 * i;
        chk_random_scalar(s, &env->rng);
        if (k == SC_ZERO || k == SC_ONE || k == SC_SMALL || (k == SC_MIXED && i % 5 < 3))
            s[1] = s[2] = s[3] = 0;
        if (k == SC_ZERO || (k == SC_MIXED && i % 5 == 0))
            s[0] = 0;
        if (k == SC_ONE || (k == SC_MIXED && i % 5 == 1))
            s[0] = 1;
        if (k == SC_SMALL || (k == SC_MIXED && i % 5 == 2))
            s[0] &= 0xffff;
        if (k == SC_MIXED && i % 10 == 3)
            memcpy(s, r_minus_1, sizeof r_minus_1);
        if (k == SC_MIXED && i % 10 == 8) /* a single bit, 2^(i mod 255) */
            memset(s, 0, 32), s[(i % 255) / 64] = 1ULL << ((i % 255) % 64);
        if (lk == LOGS_PLUS_MINUS && (i & 1))
            memcpy(s, s - 4, 32); /* P and -P with one scalar: buckets hit P + (-P) */
    }
}

/* Small-n cases: explicit logs, both references. */
static void check_case(chk_env *env, const grp *g, size_t n, logs_kind lk, scal_kind sk,
                       const unsigned *windows, int nwin, int naive)
{
    sp_fr *e = malloc((n ? n : 1) * sizeof *e);
    uint64_t *sc = malloc((n ? n : 1) * 32);
    unsigned char *aff = malloc((n ? n : 1) * g->aff_sz);
    unsigned char want[sizeof(sp_g2_jac)], want2[sizeof(sp_g2_jac)];
    make_logs(env, e, n, lk);
    make_scalars(env, sc, n, sk, lk);
    for (size_t i = 0; i < n; i++)
        g->from_log(aff + i * g->aff_sz, &e[i]);
    oracle(env, g, want, sc, n, e, NULL, NULL, 0);
    if (naive) {
        g->naive(want2, aff, sc, n);
        CHECKF(g->eq(want, want2), "%s n=%zu: the naive sum and the oracle disagree", g->name, n);
    }
    if (g->cpu_msm(want2, aff, sc, n) == SP_OK)
        CHECKF(g->eq(want, want2), "%s n=%zu: CPU MSM and the oracle disagree", g->name, n);
    else
        CHECKF(0, "%s n=%zu: CPU MSM failed", g->name, n);
    if (sk == SC_ZERO || n == 0)
        CHECKF(g->is_inf(want), "%s: zero scalars must give infinity", g->name);
    char what[64];
    snprintf(what, sizeof what, "logs %d scalars %d", (int)lk, (int)sk);
    for (int w = 0; w < nwin; w++)
        run_cmp(env, g, want, aff, sc, n, windows[w], what);
    free(e), free(sc), free(aff);
}

/* Bad inputs are refused with a status and leave the output alone. */
static void check_refusals(chk_env *env, const grp *g)
{
    uint64_t sc[8] = {0};
    static const uint64_t r[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                  0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};
    unsigned char aff[2 * sizeof(sp_g2_affine)], got[sizeof(sp_g2_jac)], poison[sizeof got];
    sp_fr e;
    sp_fr_set_u64(&e, 5);
    g->from_log(aff, &e);
    g->from_log(aff + g->aff_sz, &e);
    memcpy(sc + 4, r, sizeof r); /* second scalar = r: not canonical */
    sc[0] = 3;
    memset(got, 0xa5, sizeof got);
    memcpy(poison, got, sizeof got);
    CHECK(g->msm(env->cu, got, aff, sc, 2, 0) == SP_ERR_NOT_CANONICAL);
    CHECK(memcmp(got, poison, sizeof got) == 0);
    CHECK(g->msm(env->cu, got, aff, sc, 1, 7) == SP_ERR_INVALID_ARG);
    CHECK(g->msm(env->cu, got, aff, sc, 1, 25) == SP_ERR_INVALID_ARG);
    CHECK(g->msm(env->cu, got, aff, sc, (size_t)1 << 31, 0) == SP_ERR_INVALID_ARG);
}

/* 2^k points of a progression, random scalars, host and device inputs. */
static void check_pow2(chk_env *env, const grp *g, unsigned k, int device_too)
{
    size_t n = (size_t)1 << k;
    prog_job pj = {g, malloc(n * g->aff_sz), {{0}}, {{0}}};
    uint64_t *sc = malloc(n * 32);
    unsigned char want[sizeof(sp_g2_jac)];
    sp_fr_random(&pj.b0, &env->rng);
    sp_fr_random(&pj.d, &env->rng);
    chk_parallel(n, env->threads, prog_range, &pj);
    random_scalars(env, sc, n);
    oracle(env, g, want, sc, n, NULL, &pj.b0, &pj.d, n);
    if (k <= 16) { /* src/msm, the CPU Pippenger, as a third opinion */
        unsigned char cpu[sizeof(sp_g2_jac)];
        CHECKF(g->cpu_msm(cpu, pj.aff, sc, n) == SP_OK && g->eq(cpu, want),
               "%s 2^%u: CPU MSM and the oracle disagree", g->name, k);
    }
    run_cmp(env, g, want, pj.aff, sc, n, 0, "random, host inputs");
    if (device_too) {
        void *db = NULL, *ds = NULL;
        if (chk_ok(env, sp_cuda_malloc(env->cu, &db, n * g->aff_sz), "malloc") &&
            chk_ok(env, sp_cuda_malloc(env->cu, &ds, n * 32), "malloc") &&
            chk_ok(env, sp_cuda_copy(env->cu, db, pj.aff, n * g->aff_sz), "copy") &&
            chk_ok(env, sp_cuda_copy(env->cu, ds, sc, n * 32), "copy"))
            run_cmp(env, g, want, db, ds, n, 0, "random, device inputs");
        sp_cuda_dev_free(env->cu, db);
        sp_cuda_dev_free(env->cu, ds);
    }
    free(pj.aff), free(sc);
}

static void check_group(chk_env *env, const grp *g, unsigned max_log)
{
    static const unsigned auto_w[1] = {0}, many_w[6] = {0, 8, 9, 11, 13, 16};
    unsigned long before = sp_test_failures;
    static const size_t small[5] = {0, 1, 2, 3, 1000};
    for (int i = 0; i < 5; i++)
        check_case(env, g, small[i], LOGS_RANDOM, SC_RANDOM, many_w, 6, 1);
    check_case(env, g, 1000, LOGS_RANDOM, SC_ZERO, auto_w, 1, 0);
    check_case(env, g, 1000, LOGS_RANDOM, SC_ONE, many_w, 3, 1);
    check_case(env, g, 1000, LOGS_RANDOM, SC_MIXED, many_w, 6, 1);
    check_case(env, g, 1000, LOGS_SAME, SC_RANDOM, many_w, 3, 0);
    check_case(env, g, 1000, LOGS_SAME, SC_MIXED, many_w, 3, 0);
    check_case(env, g, 1000, LOGS_SOME_INF, SC_MIXED, many_w, 3, 1);
    check_case(env, g, 1000, LOGS_PLUS_MINUS, SC_RANDOM, many_w, 3, 0);
    check_case(env, g, 1000, LOGS_PLUS_MINUS, SC_SMALL, many_w, 3, 0);
    check_case(env, g, 5000, LOGS_RANDOM, SC_SMALL, many_w, 6, 0);
    check_refusals(env, g);
    printf("  %s msm sizes 0,1,2,3,1000 and special cases equal to the CPU references: %s\n",
           g->name, sp_test_failures == before ? "yes" : "NO");
    before = sp_test_failures;
    for (unsigned k = 10; k <= max_log; k++)
        check_pow2(env, g, k, k == 12 || k == max_log);
    printf("  %s msm 2^10..2^%u random equal to the oracle (and to src/msm up to 2^16): %s\n",
           g->name, max_log,
           sp_test_failures == before ? "yes" : "NO");
    fflush(stdout);
}

void chk_msm(chk_env *env)
{
    int dflt = sp_cuda_set_mul_impl(env->cu, 1); /* the default: 64-bit products */
    check_group(env, &grp_g1, env->quick ? 14 : 20);
    check_group(env, &grp_g2, env->quick ? 12 : 16);
    printf("  (again with the PTX multiplication)\n");
    sp_cuda_set_mul_impl(env->cu, 0);
    check_group(env, &grp_g1, env->quick ? 12 : 16);
    check_group(env, &grp_g2, env->quick ? 11 : 13);
    sp_cuda_set_mul_impl(env->cu, dflt);
    chk_tally();
}

/* ---- the split MSM: witness-like scalar distributions ---- */

typedef enum { W_RANDOM, W_HALF, W_NINETY, W_ALL01, W_WITNESS, W_EQUAL, W_ONES, W_ZEROS,
               W_KINDS } wit_kind;
static const char *const wit_name[W_KINDS] = {"0% 0/1", "50% 0/1", "90% 0/1", "100% 0/1",
                                              "70% 0/1", "all equal", "all 1", "all 0"};
static const unsigned wit_permille[W_KINDS] = {0, 500, 900, 1000, 700, 0, 0, 0};

typedef struct {
    uint64_t *sc;
    uint64_t seed, equal[4];
    wit_kind kind;
} wit_job;

/* Per scalar: with probability permille/1000 a 0 or a 1 (half each), else
 * a uniformly random scalar; or the constant of W_EQUAL, W_ONES, W_ZEROS. */
static void wit_range(void *arg, size_t lo, size_t hi)
{
    wit_job *j = arg;
    sp_rng rng;
    sp_rng_seed(&rng, j->seed ^ (lo * 0x9e3779b97f4a7c15ULL));
    for (size_t i = lo; i < hi; i++) {
        uint64_t *s = j->sc + 4 * i;
        unsigned u = (unsigned)(sp_rng_u64(&rng) % 1000), p = wit_permille[j->kind];
        memset(s, 0, 32);
        if (j->kind == W_EQUAL)
            memcpy(s, j->equal, 32);
        else if (j->kind == W_ONES || (j->kind < W_EQUAL && u >= p / 2 && u < p))
            s[0] = 1;
        else if (j->kind < W_EQUAL && u >= p)
            chk_random_scalar(s, &rng);
    }
}

static void witness_scalars(chk_env *env, uint64_t *sc, size_t n, wit_kind kind)
{
    wit_job j = {sc, sp_rng_u64(&env->rng), {0}, kind};
    chk_random_scalar(j.equal, &env->rng);
    chk_parallel(n, env->threads, wit_range, &j);
}

static sp_status cpu_split(const grp *g, void *r, const void *aff, const uint64_t *sc, size_t n)
{
    return g == &grp_g1 ? sp_msm_g1_split_var(r, aff, (const sp_scalar *)sc, n, NULL)
                        : sp_msm_g2_split_var(r, aff, (const sp_scalar *)sc, n, NULL);
}

/* One scalar vector: the CPU split MSM (when cpu), the GPU plain and split
 * MSMs (poisoned outputs) all equal to want. */
static void split_compare(chk_env *env, const grp *g, const void *want, const void *aff,
                          const uint64_t *sc, size_t n, int cpu, const unsigned *windows,
                          int nwin, const char *what)
{
    if (cpu) {
        unsigned char ref[sizeof(sp_g2_jac)];
        memset(ref, 0xa5, sizeof ref);
        CHECKF(cpu_split(g, ref, aff, sc, n) == SP_OK && g->eq(ref, want),
               "%s n=%zu (%s): CPU split MSM and the oracle disagree", g->name, n, what);
    }
    for (int w = 0; w < nwin; w++) {
        run_cmp_split(env, g, 0, want, aff, sc, n, windows[w], what);
        run_cmp_split(env, g, 1, want, aff, sc, n, windows[w], what);
    }
}

/* Small n with explicit logs (repeated points, infinity, P and -P). */
static void split_small(chk_env *env, const grp *g, size_t n, logs_kind lk, wit_kind wk)
{
    static const unsigned ws[3] = {0, 8, 13};
    sp_fr *e = malloc((n ? n : 1) * sizeof *e);
    uint64_t *sc = malloc((n ? n : 1) * 32);
    unsigned char *aff = malloc((n ? n : 1) * g->aff_sz);
    unsigned char want[sizeof(sp_g2_jac)], naive[sizeof(sp_g2_jac)];
    make_logs(env, e, n, lk);
    witness_scalars(env, sc, n, wk);
    for (size_t i = 1; lk == LOGS_PLUS_MINUS && i < n; i += 2)
        memcpy(sc + 4 * i, sc + 4 * (i - 1), 32); /* P and -P with one scalar */
    for (size_t i = 0; i < n; i++)
        g->from_log(aff + i * g->aff_sz, &e[i]);
    oracle(env, g, want, sc, n, e, NULL, NULL, 0);
    if (n <= 3) {
        g->naive(naive, aff, sc, n);
        CHECKF(g->eq(naive, want), "%s n=%zu: the naive sum and the oracle disagree", g->name, n);
    }
    if (wk == W_ZEROS || n == 0)
        CHECKF(g->is_inf(want), "%s: zero scalars must give infinity", g->name);
    char what[64];
    snprintf(what, sizeof what, "%s, logs %d", wit_name[wk], (int)lk);
    split_compare(env, g, want, aff, sc, n, 1, ws, 3, what);
    free(e), free(sc), free(aff);
}

/* 2^k points of a progression, every distribution; the CPU reference up
 * to 2^cpu_max; device-resident inputs for the witness-like vector. */
static void split_pow2(chk_env *env, const grp *g, unsigned k, unsigned cpu_max)
{
    static const unsigned w0[1] = {0};
    size_t n = (size_t)1 << k;
    prog_job pj = {g, malloc(n * g->aff_sz), {{0}}, {{0}}};
    uint64_t *sc = malloc(n * 32);
    unsigned char want[sizeof(sp_g2_jac)];
    sp_fr_random(&pj.b0, &env->rng);
    sp_fr_random(&pj.d, &env->rng);
    chk_parallel(n, env->threads, prog_range, &pj);
    for (int wk = 0; wk < W_KINDS; wk++) {
        witness_scalars(env, sc, n, (wit_kind)wk);
        oracle(env, g, want, sc, n, NULL, &pj.b0, &pj.d, n);
        split_compare(env, g, want, pj.aff, sc, n, k <= cpu_max, w0, 1, wit_name[wk]);
        if (wk != W_WITNESS)
            continue;
        void *db = NULL, *ds = NULL;
        if (chk_ok(env, sp_cuda_malloc(env->cu, &db, n * g->aff_sz), "malloc") &&
            chk_ok(env, sp_cuda_malloc(env->cu, &ds, n * 32), "malloc") &&
            chk_ok(env, sp_cuda_copy(env->cu, db, pj.aff, n * g->aff_sz), "copy") &&
            chk_ok(env, sp_cuda_copy(env->cu, ds, sc, n * 32), "copy"))
            split_compare(env, g, want, db, ds, n, 0, w0, 1, "70% 0/1, device inputs");
        sp_cuda_dev_free(env->cu, db);
        sp_cuda_dev_free(env->cu, ds);
    }
    free(pj.aff), free(sc);
}

/* The split MSM refuses what the plain one refuses, output untouched. */
static void split_refusals(chk_env *env, const grp *g)
{
    static const uint64_t r[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                  0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};
    uint64_t sc[12] = {1};
    unsigned char aff[3 * sizeof(sp_g2_affine)], got[sizeof(sp_g2_jac)], poison[sizeof got];
    sp_fr e;
    sp_fr_set_u64(&e, 5);
    for (int i = 0; i < 3; i++)
        g->from_log(aff + i * g->aff_sz, &e);
    memcpy(sc + 8, r, sizeof r); /* scalars 1, 0, r */
    memset(got, 0xa5, sizeof got);
    memcpy(poison, got, sizeof got);
    CHECK(g->msm_split(env->cu, got, aff, sc, 3, 0) == SP_ERR_NOT_CANONICAL);
    CHECK(memcmp(got, poison, sizeof got) == 0);
    CHECK(g->msm_split(env->cu, got, aff, sc, 1, 7) == SP_ERR_INVALID_ARG);
    CHECK(g->msm_split(env->cu, got, aff, sc, (size_t)1 << 31, 0) == SP_ERR_INVALID_ARG);
    CHECK(memcmp(got, poison, sizeof got) == 0);
}

static void split_group(chk_env *env, const grp *g, unsigned max_log, unsigned cpu_max)
{
    static const size_t small[5] = {0, 1, 2, 3, 1000};
    unsigned long before = sp_test_failures;
    for (int i = 0; i < 5; i++)
        for (int wk = 0; wk < W_KINDS; wk++)
            split_small(env, g, small[i], LOGS_RANDOM, (wit_kind)wk);
    static const logs_kind odd[3] = {LOGS_SAME, LOGS_SOME_INF, LOGS_PLUS_MINUS};
    for (int i = 0; i < 3; i++) { /* the ones' tree meets P + P, P + inf, P + (-P) */
        split_small(env, g, 1000, odd[i], W_WITNESS);
        split_small(env, g, 1000, odd[i], W_ONES);
    }
    split_refusals(env, g);
    for (unsigned k = 10; k <= max_log; k += 2)
        split_pow2(env, g, k, cpu_max);
    printf("  %s split and plain msm, n = 0..3, 1000, 2^10..2^%u, 0/50/70/90/100%% 0/1, all "
           "equal/1/0, equal to the references: %s\n",
           g->name, max_log, sp_test_failures == before ? "yes" : "NO");
    fflush(stdout);
}

void chk_msm_split(chk_env *env)
{
    int dflt = sp_cuda_set_mul_impl(env->cu, 1);
    split_group(env, &grp_g1, env->quick ? 14 : 20, 16);
    split_group(env, &grp_g2, env->quick ? 12 : 16, 14);
    printf("  (again with the PTX multiplication)\n");
    sp_cuda_set_mul_impl(env->cu, 0);
    split_group(env, &grp_g1, 12, 12);
    split_group(env, &grp_g2, 10, 10);
    sp_cuda_set_mul_impl(env->cu, dflt);
    chk_tally();
}

/* ---- timing: bases and scalars resident on the device ---- */

/* Timing rows for forced window sizes (the model behind window = 0 is
 * checked against these). */
static void window_sweep(chk_env *env, const grp *g, const void *db, const void *ds, size_t n,
                         unsigned k, const void *want)
{
    static const unsigned cs[4] = {16, 18, 20, 22};
    unsigned char got[sizeof(sp_g2_jac)];
    for (int i = 0; i < 4; i++) {
        double t[3];
        memset(got, 0xa5, sizeof got);
        int ok = chk_ok(env, g->msm(env->cu, got, db, ds, n, cs[i]), "sweep msm"); /* warm */
        if (ok)
            CHECKF(g->eq(got, want), "%s 2^%u window %u differs from the oracle", g->name, k, cs[i]);
        for (int rep = 0; rep < 3 && ok; rep++) {
            double s = chk_now();
            ok = chk_ok(env, g->msm(env->cu, got, db, ds, n, cs[i]), "sweep msm");
            t[rep] = chk_now() - s;
        }
        if (!ok)
            return;
        char what[80], size[16];
        snprintf(what, sizeof what, "%s MSM, window sweep: c=%u", g->name, cs[i]);
        snprintf(size, sizeof size, "2^%u", k);
        chk_row(what, size, chk_median(t, 3) * 1e3, "ms", "");
    }
}

static void bench_group(chk_env *env, const grp *g, unsigned min_log, unsigned max_log,
                        unsigned period_log, const char *const *anchors, int sweep)
{
    size_t nmax = (size_t)1 << max_log, period = (size_t)1 << period_log;
    if (period > nmax)
        period = nmax;
    prog_job pj = {g, malloc(nmax * g->aff_sz), {{0}}, {{0}}};
    uint64_t *sc = malloc(nmax * 32);
    void *db = NULL, *ds = NULL;
    if (!pj.aff || !sc) {
        CHECKF(0, "out of host memory for the %s benchmark", g->name);
        goto out;
    }
    sp_fr_random(&pj.b0, &env->rng);
    sp_fr_random(&pj.d, &env->rng);
    double t0 = chk_now();
    chk_parallel(period, env->threads, prog_range, &pj);
    for (size_t i = period; i < nmax; i += period) /* tile: logs repeat with the period */
        memcpy((char *)pj.aff + i * g->aff_sz, pj.aff, period * g->aff_sz);
    random_scalars(env, sc, nmax);
    printf("  %s bench inputs: 2^%u points (period 2^%u) in %.1f s\n", g->name, max_log,
           period_log, chk_now() - t0);
    if (!chk_ok(env, sp_cuda_malloc(env->cu, &db, nmax * g->aff_sz), "malloc") ||
        !chk_ok(env, sp_cuda_malloc(env->cu, &ds, nmax * 32), "malloc") ||
        !chk_ok(env, sp_cuda_copy(env->cu, db, pj.aff, nmax * g->aff_sz), "copy") ||
        !chk_ok(env, sp_cuda_copy(env->cu, ds, sc, nmax * 32), "copy"))
        goto out;
    for (unsigned k = min_log; k <= max_log; k += 2) {
        size_t n = (size_t)1 << k;
        unsigned char want[sizeof(sp_g2_jac)], got[sizeof(sp_g2_jac)];
        oracle(env, g, want, sc, n, NULL, &pj.b0, &pj.d, period);
        int reps = k <= 20 ? 7 : 3;
        double t[7];
        int ok = 1;
        for (int rep = -1; rep < reps && ok; rep++) { /* rep -1 warms up and is checked */
            memset(got, 0xa5, sizeof got);
            double s = chk_now();
            ok = chk_ok(env, g->msm(env->cu, got, db, ds, n, 0), "bench msm");
            if (rep >= 0)
                t[rep] = chk_now() - s;
            else if (ok)
                CHECKF(g->eq(got, want), "%s bench msm 2^%u differs from the oracle", g->name, k);
        }
        if (!ok)
            break;
        sp_cuda_set_profile(env->cu, 1);
        ok = chk_ok(env, g->msm(env->cu, got, db, ds, n, 0), "profiled msm");
        printf("  %s\n", sp_cuda_profile(env->cu));
        sp_cuda_set_profile(env->cu, 0);
        char what[80], size[16];
        int impl = sp_cuda_set_mul_impl(env->cu, 0);
        sp_cuda_set_mul_impl(env->cu, impl);
        snprintf(what, sizeof what, "%s MSM, bases+scalars on device (c=%u)%s", g->name,
                 sp_cuda_msm_window(n, g == &grp_g1 ? 1 : 2), impl ? "" : ", PTX mul");
        snprintf(size, sizeof size, "2^%u", k);
        chk_row(what, size, chk_median(t, reps) * 1e3, "ms", impl ? anchors[(k - 16) / 2] : "");
        if (sweep && k >= 22)
            window_sweep(env, g, db, ds, n, k, want);
        fflush(stdout);
    }
out:
    sp_cuda_dev_free(env->cu, db);
    sp_cuda_dev_free(env->cu, ds);
    free(pj.aff), free(sc);
}

void bench_msm(chk_env *env)
{
    static const char *const g1_anchor[5] = {"sppark 8.8 ms (host bases)", "sppark 23.3 ms",
                                             "sppark 30.4 ms", "sppark 58.1 ms",
                                             "sppark 172.8 ms; target 90"};
    static const char *const g2_anchor[5] = {"", "", "", "", ""};
    unsigned g1 = env->quick ? 18 : env->max_g1, g2 = env->quick ? 16 : env->max_g2;
    int dflt = sp_cuda_set_mul_impl(env->cu, 1); /* the default: 64-bit products */
    bench_group(env, &grp_g1, 16, g1, 20, g1_anchor, 1);
    bench_group(env, &grp_g2, 16, g2, 18, g2_anchor, 0);
    sp_cuda_set_mul_impl(env->cu, 0); /* the PTX multiplication, for comparison */
    bench_group(env, &grp_g1, g1 - 2, g1, 20, g1_anchor, 0);
    bench_group(env, &grp_g2, g2, g2, 18, g2_anchor, 0);
    sp_cuda_set_mul_impl(env->cu, dflt);
    chk_tally();
}

/* ---- timing: the split MSM on witness-like scalars ---- */

/* Median wall time (ms) of reps calls of the plain (split = 0) or split
 * MSM, after a warm-up call checked against want; -1 on failure. */
static double time_msm(chk_env *env, const grp *g, int split, const void *want, const void *db,
                       const void *ds, size_t n, int reps, const char *what)
{
    unsigned char got[sizeof(sp_g2_jac)];
    double t[7];
    for (int rep = -1; rep < reps; rep++) {
        memset(got, 0xa5, sizeof got);
        double s = chk_now();
        sp_status st = (split ? g->msm_split : g->msm)(env->cu, got, db, ds, n, 0);
        if (!chk_ok(env, st, what))
            return -1;
        if (rep >= 0)
            t[rep] = chk_now() - s;
        else
            CHECKF(g->eq(got, want), "%s (%s) differs from the oracle", what,
                   split ? "split" : "plain");
    }
    if (split) { /* one profiled call: the split's counts and the Pippenger's phases */
        sp_cuda_set_profile(env->cu, 1);
        if (chk_ok(env, g->msm_split(env->cu, got, db, ds, n, 0), what))
            printf("  %s: %s\n", what, sp_cuda_profile(env->cu));
        sp_cuda_set_profile(env->cu, 0);
    }
    return chk_median(t, reps) * 1e3;
}

/* Rows for one scalar distribution at 2^k: plain and (when both) split. */
static void witness_rows(chk_env *env, const grp *g, const prog_job *pj, size_t period,
                         uint64_t *sc, void *ds, const void *db, unsigned k, wit_kind wk, int both)
{
    size_t n = (size_t)1 << k;
    unsigned char want[sizeof(sp_g2_jac)];
    witness_scalars(env, sc, n, wk);
    oracle(env, g, want, sc, n, NULL, &pj->b0, &pj->d, period);
    if (!chk_ok(env, sp_cuda_copy(env->cu, ds, sc, n * 32), "copy"))
        return;
    char what[80], size[16];
    snprintf(size, sizeof size, "2^%u", k);
    int reps = k <= 20 ? 7 : 3;
    for (int split = 0; split <= both; split++) {
        snprintf(what, sizeof what, "%s MSM, %s scalars, %s", g->name, wit_name[wk],
                 split ? "split" : "plain");
        double ms = time_msm(env, g, split, want, db, ds, n, reps, what);
        if (ms >= 0)
            chk_row(what, size, ms, "ms", split ? "" : "bases+scalars on device");
    }
    fflush(stdout);
}

static void witness_group(chk_env *env, const grp *g, unsigned min_log, unsigned max_log,
                          unsigned period_log)
{
    size_t nmax = (size_t)1 << max_log, period = (size_t)1 << period_log;
    if (period > nmax)
        period = nmax;
    prog_job pj = {g, malloc(nmax * g->aff_sz), {{0}}, {{0}}};
    uint64_t *sc = malloc(nmax * 32);
    void *db = NULL, *ds = NULL;
    if (!pj.aff || !sc) {
        CHECKF(0, "out of host memory for the %s witness benchmark", g->name);
        goto out;
    }
    sp_fr_random(&pj.b0, &env->rng);
    sp_fr_random(&pj.d, &env->rng);
    chk_parallel(period, env->threads, prog_range, &pj);
    for (size_t i = period; i < nmax; i += period) /* tile: logs repeat with the period */
        memcpy((char *)pj.aff + i * g->aff_sz, pj.aff, period * g->aff_sz);
    if (!chk_ok(env, sp_cuda_malloc(env->cu, &db, nmax * g->aff_sz), "malloc") ||
        !chk_ok(env, sp_cuda_malloc(env->cu, &ds, nmax * 32), "malloc") ||
        !chk_ok(env, sp_cuda_copy(env->cu, db, pj.aff, nmax * g->aff_sz), "copy"))
        goto out;
    for (unsigned k = min_log; k <= max_log; k += 2)
        witness_rows(env, g, &pj, period, sc, ds, db, k, W_WITNESS, 1);
    if (min_log <= 20 && 20 <= max_log) { /* crowded buckets (tree fix-up), random (no change) */
        witness_rows(env, g, &pj, period, sc, ds, db, 20, W_EQUAL, 0);
        witness_rows(env, g, &pj, period, sc, ds, db, 20, W_RANDOM, 1);
    }
out:
    sp_cuda_dev_free(env->cu, db);
    sp_cuda_dev_free(env->cu, ds);
    free(pj.aff), free(sc);
}

void bench_msm_witness(chk_env *env)
{
    int dflt = sp_cuda_set_mul_impl(env->cu, 1);
    witness_group(env, &grp_g1, 16, env->quick ? 18 : 22, 20);
    witness_group(env, &grp_g2, 16, env->quick ? 16 : 20, 18);
    sp_cuda_set_mul_impl(env->cu, dflt);
    chk_tally();
}
