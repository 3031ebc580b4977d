/*
 * What the MSM checks (msm.c) and the MSM timings (msm_bench.c) share: the
 * group descriptions, the progression of bases with known logs, the
 * discrete-log oracle, scalar generators, and the (multiplication,
 * accumulation variant) configurations every check and table runs.
 */
#ifndef SP_GPU_CHECK_MSM_COMMON_H
#define SP_GPU_CHECK_MSM_COMMON_H

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
} chk_grp;

extern const chk_grp chk_grp_g1, chk_grp_g2;

/* A progression job for chk_parallel: aff[i] = [b0 + i d]G. */
typedef struct {
    const chk_grp *g;
    void *aff;
    sp_fr b0, d;
} chk_prog_job;
void chk_prog_range(void *arg, size_t lo, size_t hi);

/* *jac = [sum s_i e_i]G, e_i from logs, or from the progression (b0, d)
 * with index i mod period when logs is NULL. */
void chk_oracle(chk_env *env, const chk_grp *g, void *jac, const uint64_t *sc, size_t n,
                const sp_fr *logs, const sp_fr *b0, const sp_fr *d, size_t period);
/* n uniformly random canonical scalars (threads; seeded from env->rng). */
void chk_random_scalars(chk_env *env, uint64_t *sc, size_t n);

typedef enum { W_RANDOM, W_HALF, W_NINETY, W_ALL01, W_WITNESS, W_EQUAL, W_ONES, W_ZEROS,
               W_KINDS } chk_wit_kind;
extern const char *const chk_wit_name[W_KINDS];
/* Witness-like scalars of the given distribution. */
void chk_witness_scalars(chk_env *env, uint64_t *sc, size_t n, chk_wit_kind kind);

/* One (multiplication, accumulation variant, G1 accumulation) configuration
 * of the device MSM (sp_cuda_set_mul_impl, sp_cuda_set_msm_variant,
 * sp_cuda_set_msm_acc). The first is the context's default; every equality
 * check runs all of them. */
typedef struct {
    int impl, variant, acc;
    const char *name;
} chk_msm_cfg;
#define CHK_MSM_NCFG 8
extern const chk_msm_cfg chk_msm_cfgs[CHK_MSM_NCFG];
/* Selects cfg on env->cu; returns nothing (restore with the default, cfg 0). */
void chk_msm_use(chk_env *env, const chk_msm_cfg *cfg);

#endif
