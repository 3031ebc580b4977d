/*
 * The GPU-against-CPU harness: what the checks (tests/gpu/, the program
 * gpu_check) and the timings (bench/gpu/, the program gpu_bench) share.
 * The CPU library is the reference; random inputs come from the seed
 * printed at the start (replay with SP_SEED=<seed> on a machine with as
 * many cores: the generators split their work by thread). Both programs
 * run on a machine with a CUDA device (scripts/gpu-check.sh runs them).
 */
#ifndef SP_TESTS_GPU_CHECK_H
#define SP_TESTS_GPU_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include "curve/curve.h"
#include "gpu/backend/backend_cuda.h"
#include "gpu/sp_cuda.h"
#include "gpu/sp_cuda_tune.h"
#include "test.h"

typedef struct {
    sp_cuda *cu;
    sp_rng rng;
    int threads;   /* host threads for the references */
    int quick;     /* smaller sizes (a fast smoke run) */
    /* gpu_bench's selection (bench/gpu/main.c) */
    int table;     /* --msm-table: only the modmul, NTT and MSM-variant rows */
    int sweep;     /* --ntt-ba: only the NTT rows 2^16.. of both passes (even/odd) and the
                    * G1 accumulations side by side with their phase times */
    int ntt_table; /* --ntt-table: only the modmul rates and the NTT rows of every
                    * form, 2^22 to --ntt */
    unsigned max_g1, max_g2, max_ntt; /* largest log2 sizes timed */
} chk_env;

/* The options of both programs, parsed alike so that one command line
 * serves both (scripts/gpu-check.sh passes its options to each): a
 * program ignores the other's selection. */
typedef struct {
    int device;
    int checks, bench; /* --no-checks, --no-bench: 0 */
    int witness;       /* --witness */
    int stream;        /* --stream */
    int precomp;       /* --precomp */
    int setup;         /* --setup */
    const char *only;  /* --only field|ntt|msm|split|hstep|backend, or NULL */
} chk_opts;
/* Fills *o and env's sizes and flags from argv. Returns 0; 1 for a lone
 * --curve (the caller prints the curve); 2 after printing usage (the
 * program's usage line) for anything else. */
int chk_options(chk_env *env, chk_opts *o, int argc, char **argv, const char *usage);

/* Opens device `device` for env and prints the banner line (after the
 * caller's sp_test_begin); returns 0, or 1 after a message when there is
 * no usable device. */
int chk_open(chk_env *env, const char *prog, int device);

double chk_now(void);
/* A uniformly random canonical scalar (4 limbs < r). */
void chk_random_scalar(uint64_t out[4], sp_rng *rng);

/* tests/test.h keeps its counters per file; each public chk_ and bench_
 * function ends with chk_tally(), which moves this file's counts into the
 * program's totals (the program's main reports them). */
extern unsigned long chk_total_checks, chk_total_failures;
static inline void chk_tally(void)
{
    chk_total_checks += sp_test_checks;
    chk_total_failures += sp_test_failures;
    sp_test_checks = sp_test_failures = 0;
}
/* Counts a check that st is SP_OK (printing what failed and the backend's
 * error text); returns 1 when it is. */
static inline int chk_ok(chk_env *env, sp_status st, const char *what)
{
    CHECKF(st == SP_OK, "%s: %s: %s", what, sp_status_str(st), sp_cuda_error(env->cu));
    return st == SP_OK;
}

/* ---- the two groups, bases with known logs, the oracle ---- */

typedef struct {
    const char *name;
    int group; /* 1 or 2 */
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
    sp_status (*msm_stream)(sp_cuda *cu, void *jac, const void *aff, const sp_scalar *sc, size_t n,
                            size_t chunk, int split, unsigned window);
    sp_status (*cpu_msm)(void *jac, const void *aff, const uint64_t *sc, size_t n);
} chk_grp;

extern const chk_grp chk_grp_g1, chk_grp_g2;

/* aff[i] = [b0 + i d]G for i < n, on env->threads threads; b0 and d
 * random (drawn from env->rng), returned through *b0 and *d when not NULL. */
void chk_bases(chk_env *env, const chk_grp *g, void *aff, size_t n, sp_fr *b0, sp_fr *d);
/* out[i] = [random]G for i < n; with_inf: every 7th point (i % 7 == 3) at
 * infinity, (0, 0). */
void chk_random_points(chk_env *env, const chk_grp *g, void *out, size_t n, int with_inf);

/* *jac = [sum s_i e_i]G, e_i from logs, or from the progression (b0, d)
 * with index i mod period when logs is NULL. */
void chk_oracle(chk_env *env, const chk_grp *g, void *jac, const uint64_t *sc, size_t n,
                const sp_fr *logs, const sp_fr *b0, const sp_fr *d, size_t period);
/* n uniformly random canonical scalars (threads; seeded from env->rng). */
void chk_random_scalars(chk_env *env, uint64_t *sc, size_t n);

typedef enum { W_RANDOM, W_HALF, W_NINETY, W_ALL01, W_WITNESS, W_FEW, W_EQUAL, W_ONES, W_ZEROS,
               W_KINDS } chk_wit_kind;
extern const char *const chk_wit_name[W_KINDS];
/* Witness-like scalars of the given distribution. */
void chk_witness_scalars(chk_env *env, uint64_t *sc, size_t n, chk_wit_kind kind);

/* One (bucket accumulation, rounds' threads) configuration of the device
 * MSM (sp_cuda_set_msm_acc, sp_cuda_set_ba_threads): the default (by
 * size), each accumulation forced, the batch-affine rounds with many items
 * a thread; the last is the batch-affine one. The first is the context's
 * default; every equality check runs all of them. */
typedef struct {
    int acc;             /* SP_CUDA_ACC_* */
    unsigned ba_threads; /* sp_cuda_set_ba_threads: 0 by the device */
    const char *name;
} chk_msm_cfg;
#define CHK_MSM_NCFG 4
extern const chk_msm_cfg chk_msm_cfgs[CHK_MSM_NCFG];
/* Selects cfg on env->cu (restore with the default, cfg 0). */
void chk_msm_use(chk_env *env, const chk_msm_cfg *cfg);

/* ---- fixed-base multiplication (the development setup) ---- */

typedef struct {
    const char *name;
    size_t aff_sz;
    size_t chunk; /* the GPU's chunk size (gpu/fixed_base.cu) */
    sp_status (*cpu)(void *out, const sp_fr *k, size_t n, int threads);
    sp_status (*gpu)(sp_cuda *cu, void *out, const sp_fr *k, size_t n, int threads);
} chk_fb_grp;

extern const chk_fb_grp chk_fb_g1, chk_fb_g2;
/* Random scalars with the edge values (0, 1, r - 1, 255, 256) at the ends
 * and around the chunk boundaries. */
void chk_fb_scalars(chk_env *env, sp_fr *k, size_t n, size_t chunk);

/* ---- the checks (tests/gpu/) ---- */

void chk_field(chk_env *env);
void chk_msm(chk_env *env);
void chk_msm_split(chk_env *env); /* split vs plain vs CPU, witness-like scalars */
void chk_ntt(chk_env *env);
void chk_hstep(chk_env *env);
void chk_backend(chk_env *env, int device);
void chk_stream(chk_env *env, int device); /* streamed MSM, memory cap, streamed keys */
void chk_fixed_base(chk_env *env);         /* the setup's fixed-base multiplication */
void chk_ptau(chk_env *env);               /* the setup from a .ptau: sums, inverse DFTs */

#endif
