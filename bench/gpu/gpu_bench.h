/*
 * gpu_bench: the GPU timing tables (bench/gpu/), on a machine with a CUDA
 * device. Inputs, configurations and the references every timed result
 * is checked against are the GPU checks' (tests/gpu/gpu_check.h); the
 * rows collect into one table printed at the end.
 */
#ifndef SP_BENCH_GPU_BENCH_H
#define SP_BENCH_GPU_BENCH_H

#include "tests/gpu/gpu_check.h"

/* One line of the final table (at most 160 rows; later ones are dropped). */
void bench_table_row(const char *what, const char *size, double value, const char *unit, const char *note);
void bench_table_print(void);
/* Median of v[0..n) (reorders v). */
double bench_median(double *v, int n);

/* Device-resident MSM inputs: nmax bases (a progression of period
 * `period`, tiled), nmax random scalars (also kept on the host for the
 * oracle). */
typedef struct {
    const chk_grp *g;
    void *aff;   /* the period's bases, on the host */
    sp_fr b0, d; /* their logs: b0 + i d */
    size_t nmax, period;
    uint64_t *sc;
    void *db, *ds;
} bench_in;
/* Makes 2^max_log of them (period 2^period_log, at most nmax); returns 1
 * when they are on the device (a failed check otherwise). */
int bench_in_make(chk_env *env, bench_in *in, const chk_grp *g, unsigned max_log, unsigned period_log);
void bench_in_free(chk_env *env, bench_in *in);
/* Median ms of reps (<= 7) calls of the configuration now selected at n
 * points (window 0), after a warm-up call checked against want, then one
 * profiled call whose phases are printed; -1 on failure. */
double bench_time_msm(chk_env *env, const bench_in *in, size_t n, const void *want, int reps, const char *what);

void bench_field(chk_env *env);
void bench_ntt(chk_env *env);
void bench_setup(chk_env *env, int device); /* fixed-base and whole setups, GPU vs CPU */
void bench_msm(chk_env *env);
void bench_msm_acc(chk_env *env);     /* G1 XYZZ vs batch-affine at 2^24.., profiled */
void bench_msm_witness(chk_env *env); /* plain vs split on 70% 0/1 scalars */
void bench_stream(chk_env *env);      /* G1 MSM with resident vs streamed bases */
void bench_msm_precomp(chk_env *env); /* plain vs precomputed tables, G1 2^22.., G2 */

#endif
