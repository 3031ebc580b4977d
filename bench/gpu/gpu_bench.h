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

void bench_field(chk_env *env);
void bench_ntt(chk_env *env);
void bench_setup(chk_env *env, int device); /* fixed-base and whole setups, GPU vs CPU */
void bench_msm(chk_env *env);
void bench_msm_acc(chk_env *env);     /* G1 XYZZ vs batch-affine at 2^24.., profiled */
void bench_msm_witness(chk_env *env); /* plain vs split on 70% 0/1 scalars */
void bench_stream(chk_env *env);      /* G1 MSM with resident vs streamed bases */

#endif
