/*
 * What gpu_check and gpu_bench share (gpu_check.h): options, the device,
 * the two groups with bases of known logs and the discrete-log oracle,
 * scalar generators, the MSM configurations, the fixed-base groups.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "gpu/sp_cuda_backend.h"
#include "groth16/fixed_base.h"
#include "gpu_check.h"
#include "util/par.h"

unsigned long chk_total_checks, chk_total_failures;

double chk_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

void chk_random_scalar(uint64_t out[4], sp_rng *rng)
{
    sp_fr x;
    sp_fr_random(&x, rng);
    sp_fr_to_canonical(out, &x);
}

int chk_options(chk_env *env, chk_opts *o, int argc, char **argv, const char *usage)
{
    int sizes_set = 0; /* --g1 (1), --ntt (2) given: --quick leaves them alone */
    memset(o, 0, sizeof *o);
    o->checks = o->bench = 1;
    env->max_g1 = 26;
    env->max_g2 = 22;
    env->max_ntt = 26;
    if (argc == 2 && !strcmp(argv[1], "--curve"))
        return 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            env->quick = 1;
        else if (!strcmp(argv[i], "--no-bench"))
            o->bench = 0;
        else if (!strcmp(argv[i], "--witness"))
            o->witness = 1;
        else if (!strcmp(argv[i], "--msm-table"))
            env->table = 1;
        else if (!strcmp(argv[i], "--ntt-ba"))
            env->sweep = 1;
        else if (!strcmp(argv[i], "--ntt-table"))
            env->ntt_table = 1;
        else if (!strcmp(argv[i], "--no-checks"))
            o->checks = 0;
        else if (!strcmp(argv[i], "--stream"))
            o->stream = 1;
        else if (!strcmp(argv[i], "--precomp"))
            o->precomp = 1;
        else if (!strcmp(argv[i], "--setup"))
            o->setup = 1;
        else if (i + 1 < argc && !strcmp(argv[i], "--only"))
            o->only = argv[++i];
        else if (i + 1 < argc && !strcmp(argv[i], "--g1"))
            env->max_g1 = (unsigned)atoi(argv[++i]), sizes_set |= 1;
        else if (i + 1 < argc && !strcmp(argv[i], "--g2"))
            env->max_g2 = (unsigned)atoi(argv[++i]);
        else if (i + 1 < argc && !strcmp(argv[i], "--ntt"))
            env->max_ntt = (unsigned)atoi(argv[++i]), sizes_set |= 2;
        else if (i + 1 < argc && !strcmp(argv[i], "--device"))
            o->device = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: %s %s\n       %s --curve\n", argv[0], usage, argv[0]);
            return 2;
        }
    }
    if (env->quick && !(sizes_set & 1))
        env->max_g1 = 24;
    if (env->quick && !(sizes_set & 2))
        env->max_ntt = 24;
    env->threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
    return 0;
}

int chk_open(chk_env *env, const char *prog, int device)
{
    char err[512];
    sp_status st = sp_cuda_create(&env->cu, device, err, sizeof err);
    if (st != SP_OK) {
        printf("%s: no usable CUDA device: %s (%s)\n", prog, sp_status_str(st), err);
        return 1;
    }
    printf("curve: %s; device: %s; host threads: %d\n", SP_CURVE_NAME, sp_cuda_device_info(env->cu),
           env->threads);
    fflush(stdout);
    return 0;
}

/* ---- the two groups ---- */

#define DEFINE_GRP(G, NUM)                                                              \
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
    static sp_status G##_msm_stream(sp_cuda *cu, void *r, const void *aff,             \
                                    const sp_scalar *sc, size_t n, size_t chunk,       \
                                    int split, unsigned w)                             \
    {                                                                                  \
        return sp_cuda_msm_##G##_stream(cu, r, aff, sc, n, chunk, split, w);           \
    }                                                                                  \
    static sp_status G##_cpu_msm(void *r, const void *aff, const uint64_t *sc, size_t n) \
    {                                                                                  \
        return sp_msm_##G##_var(r, aff, (const sp_scalar *)sc, n, NULL);               \
    }                                                                                  \
    const chk_grp chk_grp_##G = {#G, NUM, sizeof(sp_##G##_affine), sizeof(sp_##G##_jac), \
                                G##_progression, G##_from_log, G##_mul_gen, G##_naive, \
                                G##_eq, G##_is_inf, G##_msm, G##_msm_split,           \
                                G##_msm_stream, G##_cpu_msm};

DEFINE_GRP(g1, 1)
DEFINE_GRP(g2, 2)

/* ---- bases ---- */

typedef struct {
    const chk_grp *g;
    void *aff;
    size_t n;
    sp_fr b0, d;
} prog_job;

static void prog_part(sp_par *par, int tid, void *arg)
{
    prog_job *j = arg;
    size_t lo, hi;
    sp_par_range(&lo, &hi, j->n, tid, par->nthreads);
    if (lo < hi)
        j->g->progression((char *)j->aff + lo * j->g->aff_sz, lo, hi, &j->b0, &j->d);
}

void chk_bases(chk_env *env, const chk_grp *g, void *aff, size_t n, sp_fr *b0, sp_fr *d)
{
    prog_job j = {g, aff, n, {{0}}, {{0}}};
    sp_fr_random(&j.b0, &env->rng);
    sp_fr_random(&j.d, &env->rng);
    sp_par_run(sp_par_threads_for(env->threads, n, 1), prog_part, &j);
    if (b0)
        *b0 = j.b0, *d = j.d;
}

void chk_random_points(chk_env *env, const chk_grp *g, void *out, size_t n, int with_inf)
{
    union {
        sp_g1_jac g1;
        sp_g2_jac g2;
    } jac;
    for (size_t i = 0; i < n; i++) {
        void *p = (char *)out + i * g->aff_sz;
        sp_fr e;
        sp_fr_random(&e, &env->rng);
        if (with_inf && i % 7 == 3) {
            memset(p, 0, g->aff_sz);
            continue;
        }
        g->mul_gen(&jac, &e);
        if (g->group == 1)
            sp_g1_jac_to_affine(p, &jac.g1);
        else
            sp_g2_jac_to_affine(p, &jac.g2);
    }
}

/* ---- the oracle and the scalars ---- */

typedef struct {
    const uint64_t *sc;
    size_t n;
    const sp_fr *logs; /* explicit logs, or NULL for the progression */
    sp_fr b0, d;
    size_t period;
    sp_fr sum;
    pthread_mutex_t lock;
} dot_job;

static void dot_part(sp_par *par, int tid, void *arg)
{
    dot_job *j = arg;
    size_t lo, hi;
    sp_par_range(&lo, &hi, j->n, tid, par->nthreads);
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

void chk_oracle(chk_env *env, const chk_grp *g, void *jac, const uint64_t *sc, size_t n,
                const sp_fr *logs, const sp_fr *b0, const sp_fr *d, size_t period)
{
    dot_job j;
    memset(&j, 0, sizeof j);
    j.sc = sc;
    j.n = n;
    j.logs = logs;
    if (b0)
        j.b0 = *b0, j.d = *d;
    j.period = period ? period : 1;
    sp_fr_set_zero(&j.sum);
    pthread_mutex_init(&j.lock, NULL);
    sp_par_run(sp_par_threads_for(env->threads, n, 1), dot_part, &j);
    pthread_mutex_destroy(&j.lock);
    g->mul_gen(jac, &j.sum);
}

const char *const chk_wit_name[W_KINDS] = {"0% 0/1", "50% 0/1", "90% 0/1", "100% 0/1",
                                           "70% 0/1", "3% 0/1", "all equal", "all 1", "all 0"};
static const unsigned wit_permille[W_KINDS] = {0, 500, 900, 1000, 700, 30, 0, 0, 0};

typedef struct {
    uint64_t *sc;
    size_t n;
    uint64_t seed, equal[4];
    int kind; /* a chk_wit_kind, or W_KINDS */
} scal_job;

/* Per scalar: with probability permille/1000 a 0 or a 1 (half each), else
 * a uniformly random scalar; or the constant of W_EQUAL, W_ONES, W_ZEROS;
 * for kind W_KINDS a uniformly random scalar (chk_random_scalars). Each
 * thread's part from its own generator, seeded from seed and its start. */
static void scal_part(sp_par *par, int tid, void *arg)
{
    scal_job *j = arg;
    size_t lo, hi;
    sp_par_range(&lo, &hi, j->n, tid, par->nthreads);
    sp_rng rng;
    sp_rng_seed(&rng, j->seed ^ (lo * 0x9e3779b97f4a7c15ULL));
    for (size_t i = lo; i < hi; i++) {
        uint64_t *s = j->sc + 4 * i;
        if (j->kind == W_KINDS) {
            chk_random_scalar(s, &rng);
            continue;
        }
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

void chk_random_scalars(chk_env *env, uint64_t *sc, size_t n)
{
    scal_job j = {sc, n, sp_rng_u64(&env->rng), {0}, W_KINDS};
    sp_par_run(sp_par_threads_for(env->threads, n, 1), scal_part, &j);
}

void chk_witness_scalars(chk_env *env, uint64_t *sc, size_t n, chk_wit_kind kind)
{
    scal_job j = {sc, n, sp_rng_u64(&env->rng), {0}, (int)kind};
    chk_random_scalar(j.equal, &env->rng);
    sp_par_run(sp_par_threads_for(env->threads, n, 1), scal_part, &j);
}

/* ---- the MSM configurations ---- */

/* The first is the context's default (sp_cuda_create); the last the
 * batch-affine accumulation (bench/gpu/msm.c sweeps its windows). */
const chk_msm_cfg chk_msm_cfgs[CHK_MSM_NCFG] = {
    {SP_CUDA_ACC_BY_SIZE, 0, "accumulation by size (default)"},
    {SP_CUDA_ACC_XYZZ, 0, "XYZZ"},
    {SP_CUDA_ACC_BATCH_AFFINE, 256, "batch-affine, rounds of 256 threads (many items a thread)"},
    {SP_CUDA_ACC_BATCH_AFFINE, 0, "batch-affine"},
};

void chk_msm_use(chk_env *env, const chk_msm_cfg *cfg)
{
    sp_cuda_set_msm_acc(env->cu, cfg->acc);
    sp_cuda_set_ba_threads(env->cu, cfg->ba_threads);
}

/* ---- fixed-base multiplication ---- */

#define FB_GRP(G, CHUNK)                                                                     \
    static sp_status G##_fb_cpu(void *out, const sp_fr *k, size_t n, int threads)            \
    {                                                                                        \
        sp_##G##_affine b;                                                                   \
        sp_##G##_generator(&b);                                                              \
        return sp_##G##_fixed_base_mul_var(out, &b, k, n, threads);                          \
    }                                                                                        \
    static sp_status G##_fb_gpu(sp_cuda *cu, void *out, const sp_fr *k, size_t n, int threads) \
    {                                                                                        \
        sp_##G##_affine b;                                                                   \
        sp_##G##_generator(&b);                                                              \
        return sp_cuda_fixed_base_##G(cu, out, &b, k, n, threads);                           \
    }                                                                                        \
    const chk_fb_grp chk_fb_##G = {#G, sizeof(sp_##G##_affine), CHUNK, G##_fb_cpu, G##_fb_gpu};

FB_GRP(g1, (size_t)1 << 20)
FB_GRP(g2, (size_t)1 << 19)

void chk_fb_scalars(chk_env *env, sp_fr *k, size_t n, size_t chunk)
{
    for (size_t i = 0; i < n; i++)
        sp_fr_random(&k[i], &env->rng);
    sp_fr edge[6];
    sp_fr_set_zero(&edge[0]);
    sp_fr_set_one(&edge[1]);
    sp_fr_neg(&edge[2], &edge[1]); /* r - 1 */
    sp_fr_set_u64(&edge[3], 255);   /* one full byte, then one in the next window */
    sp_fr_set_u64(&edge[4], 256);
    sp_fr_set_zero(&edge[5]);
    for (size_t e = 0; e < 6; e++) {
        if (e < n)
            k[e] = edge[e];
        if (n > 6 + e)
            k[n - 1 - e] = edge[e];
        for (size_t c = chunk; c < n; c += chunk)
            if (c - 3 + e < n)
                k[c - 3 + e] = edge[e];
    }
}
