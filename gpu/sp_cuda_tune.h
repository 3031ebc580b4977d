/*
 * What the GPU checks (tests/gpu/) and timings (bench/gpu/) reach beyond
 * the contract of sp_cuda.h: setters that force one of the paths the
 * context otherwise picks by size or by free memory, so that each is
 * checked against the CPU at small sizes and timed side by side, and the
 * element-wise field kernels. The product (the backend, the CLI) never
 * calls these; a context starts with every setter at its default.
 */
#ifndef SP_GPU_SP_CUDA_TUNE_H
#define SP_GPU_SP_CUDA_TUNE_H

#include "gpu/sp_cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The MSM's bucket accumulation (sp_cuda.h, SP_CUDA_MSM_BATCH_AFFINE_MIN):
 * by size (the default), always XYZZ, or always batch-affine (which still
 * falls back to XYZZ when not even one window's rounds fit). Returns the
 * previous setting; other values are ignored. */
enum { SP_CUDA_ACC_BY_SIZE = 0, SP_CUDA_ACC_XYZZ = 1, SP_CUDA_ACC_BATCH_AFFINE = 2 };
int sp_cuda_set_msm_acc(sp_cuda *ctx, int acc);
/* 1 (the default) = MSMs over bases with a kept table use it, 0 = they
 * do not (the plain path). Returns the previous setting; other values are
 * ignored. */
int sp_cuda_set_msm_table(sp_cuda *ctx, int on);
/* At most `windows` windows per group of batch-affine rounds (over a
 * table: at most that many rows' worth of records, n each, per group);
 * 0, the default: as many as half of the free device memory holds. So
 * that the grouping of a device short of memory is exercised on a large
 * one. Returns the previous setting. */
unsigned sp_cuda_set_msm_ba_group(sp_cuda *ctx, unsigned windows);
/* The threads the batch-affine rounds aim for (0, the default: four times
 * what the device holds at once). Items per thread still stop at 128, so
 * a small count makes the small MSMs of the checks run many items a
 * thread, as large ones do. Returns the previous setting. */
unsigned sp_cuda_set_ba_threads(sp_cuda *ctx, unsigned threads);
/* The NTT (sp_cuda.h): by size (the default), in place, the 9-stage
 * passes in rounds of two, or those with column twiddles (from 2^12; the
 * rounds of two below). Returns the previous setting; other values are
 * ignored. */
enum { SP_CUDA_NTT_BY_SIZE = 0, SP_CUDA_NTT_IN_PLACE = 1, SP_CUDA_NTT_RADIX4 = 2,
       SP_CUDA_NTT_COLUMNS = 3 };
int sp_cuda_set_ntt_form(sp_cuda *ctx, int form);

/*
 * Element-wise field operations on n elements, the device's three
 * Montgomery products against the CPU: op 0 mul, 1 sqr, 2 add, 3 sub with
 * the PTX carry chains (the NTT's twiddles), 4..7 the same with the 64-bit
 * products (the H step, the fixed-base multiplication, the split MSM's
 * ones), 8..11 with the even/odd chains (the MSMs, the NTTs); for Fr also
 * 12 mul and 13 mul of two elements at once (i with i + ceil(n/2)) with
 * the NTT kernels' even/odd products (gpu/field/mont_eo_fr.cuh); for Fp2
 * also 14 mul as two sums of products (the batch-affine G2 rounds); for
 * Fp and Fp2 also 15 the inverse by binary extended Euclid (f_inv_var)
 * and 16 by Fermat (f_inv_fermat), 1/0 = 0, with the even/odd chains.
 * out, a, b: host or device. b is ignored for sqr and the inverses.
 */
sp_status sp_cuda_fp_batch(sp_cuda *ctx, int op, sp_fp *out, const sp_fp *a, const sp_fp *b,
                           size_t n) SP_WARN_UNUSED;
sp_status sp_cuda_fr_batch(sp_cuda *ctx, int op, sp_fr *out, const sp_fr *a, const sp_fr *b,
                           size_t n) SP_WARN_UNUSED;
sp_status sp_cuda_fp2_batch(sp_cuda *ctx, int op, sp_fp2 *out, const sp_fp2 *a, const sp_fp2 *b,
                            size_t n) SP_WARN_UNUSED;
/*
 * Modular-multiplication throughput: every thread runs long dependent
 * chains of Montgomery multiplications in registers. field: 0 Fp, 1 Fr
 * with the PTX chains, 2 Fp and 3 Fr with the 64-bit products, 4 Fp and 5
 * Fr with the even/odd chains, 6 Fr with the NTT kernels' even/odd
 * product and 7 with its two-at-once form; 8 and 9 Fp2 multiplications,
 * Karatsuba and sums of products.
 * On output: *per_s = multiplications per second (median of 5 launches).
 */
sp_status sp_cuda_bench_modmul(sp_cuda *ctx, int field, double *per_s) SP_WARN_UNUSED;
/*
 * Latency of one Fp inversion in one thread (what the batch-affine
 * round's single inversion waits for): a chain of inversions, each of 1
 * plus the previous result. var: 1 binary extended Euclid (the rounds'),
 * 0 Fermat.
 * On output: *us = microseconds per inversion (median of 5 launches).
 */
sp_status sp_cuda_bench_inv(sp_cuda *ctx, int var, double *us) SP_WARN_UNUSED;
/* How many times ctx released scratch it held (sp_cuda_scratch_trim, or
 * an MSM that found too little free to grow it): what a caller checks to
 * see that scratch was kept. */
size_t sp_cuda_scratch_releases(const sp_cuda *ctx);

#ifdef __cplusplus
}
#endif

#endif
