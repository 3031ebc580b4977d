/*
 * gpu_check: GPU-vs-CPU equality tests and the GPU benchmark table, in one
 * program (run by scripts/gpu-check.sh on a machine with a CUDA device).
 * The CPU library is the reference; random inputs use the seed printed at
 * the start (replay with SP_SEED=<seed>).
 */
#ifndef SP_GPU_CHECK_CHECK_H
#define SP_GPU_CHECK_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include "../../tests/test.h"
#include "backend_cuda.h"
#include "sp_cuda.h"

typedef struct {
    sp_cuda *cu;
    sp_rng rng;
    int threads;   /* host threads for the references */
    int quick;     /* smaller sizes (a fast smoke run) */
    int table;     /* --msm-table: only the modmul, NTT and MSM-variant rows */
    int sweep;     /* --ntt-ba: only the NTT rows 2^16.. of both passes (even/odd) and the
                    * G1 accumulations side by side with their phase times */
    unsigned max_g1, max_g2, max_ntt; /* largest log2 sizes timed */
} chk_env;

/* One line of the final table. */
void chk_row(const char *what, const char *size, double value, const char *unit,
             const char *note);
void chk_print_table(void);

double chk_now(void);
/* Runs fn(arg, lo, hi) over [0, n) split across `threads` threads. */
void chk_parallel(size_t n, int threads, void (*fn)(void *arg, size_t lo, size_t hi), void *arg);
/* Median of v[0..n) (reorders v). */
double chk_median(double *v, int n);
/* A uniformly random canonical scalar (4 limbs < r). */
void chk_random_scalar(uint64_t out[4], sp_rng *rng);

void chk_field(chk_env *env);
void chk_msm(chk_env *env);
void chk_msm_split(chk_env *env); /* split vs plain vs CPU, witness-like scalars */
void chk_ntt(chk_env *env);
void chk_hstep(chk_env *env);
void chk_backend(chk_env *env, int device);
void chk_stream(chk_env *env, int device); /* streamed MSM, memory cap, streamed keys */
void chk_fixed_base(chk_env *env);             /* the setup's fixed-base multiplication */
void bench_setup(chk_env *env, int device);    /* fixed-base and whole setups, GPU vs CPU */
void bench_field(chk_env *env);
void bench_msm(chk_env *env);
void bench_msm_acc(chk_env *env); /* G1 XYZZ vs batch-affine at 2^24.., profiled */
void bench_msm_witness(chk_env *env); /* plain vs split on 70% 0/1 scalars */
void bench_ntt(chk_env *env);
void bench_stream(chk_env *env); /* G1 MSM with resident vs streamed bases */

/* tests/test.h keeps its counters per file; each public chk_ and bench_
 * function ends with chk_tally(), which moves this file's counts into the
 * program's totals (defined in main.c). */
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

#endif
