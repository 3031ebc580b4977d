/*
 * snarkpipe CUDA backend: the narrow C boundary between the C11 engine and
 * the CUDA code under gpu/. Nothing here needs CUDA headers.
 *
 * Data layout: the device works on the very same bytes as the CPU types
 * (sp_fp, sp_fr, sp_fp2, sp_g1_affine, sp_g2_affine, sp_g1_xyzz:
 * little-endian 64-bit limbs, Montgomery form, affine infinity = (0, 0)),
 * so arrays are copied over unchanged.
 *
 * Errors: every CUDA call is checked. A failure returns SP_ERR_GPU and
 * records "call text (file:line): CUDA message" in the context, readable
 * with sp_cuda_error(). Nothing here aborts.
 *
 * Threads: one sp_cuda context must not be used by two threads at once.
 * Every call below is synchronous (it returns when the device is done).
 *
 * Pointers named "host or device" may point to ordinary host memory,
 * pinned host memory or device memory of this context's device; the
 * backend looks and copies host data over itself.
 */
#ifndef SP_GPU_SP_CUDA_H
#define SP_GPU_SP_CUDA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "snarkpipe.h"
#include "curve/curve.h"
#include "field/field.h"
#include "field/fp2.h"
#include "msm/msm.h"

typedef struct sp_cuda sp_cuda; /* one device, its stream and scratch memory */

/*
 * On output: *out is a new context on CUDA device `device`.
 * Returns SP_OK; SP_ERR_GPU when there is no such device or it cannot be
 * used (then *out is NULL and err, if not NULL, holds a NUL-terminated
 * reason of at most err_len - 1 characters); SP_ERR_NOMEM.
 */
sp_status sp_cuda_create(sp_cuda **out, int device, char *err, size_t err_len) SP_WARN_UNUSED;
/* Frees the context and its scratch memory. Free NTT domains and
 * sp_cuda_malloc memory first. NULL is allowed. */
void sp_cuda_free(sp_cuda *ctx);
/* The last recorded error, "" when none. Valid until the next call. */
const char *sp_cuda_error(const sp_cuda *ctx);
/* A one-line description of the device (name, SMs, memory, clock). */
const char *sp_cuda_device_info(const sp_cuda *ctx);

/* With on = 1, MSM calls time their phases (a little slower); the text of
 * the last call's times is returned by sp_cuda_profile ("" when off). */
void sp_cuda_set_profile(sp_cuda *ctx, int on);
const char *sp_cuda_profile(const sp_cuda *ctx);

/* Tuning knob: the Montgomery multiplication used by the MSM and NTT
 * kernels, 0 = PTX carry chains, 1 = 64-bit products in plain C++ (the
 * default: faster inside the MSM). Both are exact; the benchmark table
 * measures each. Returns the previous setting; other values are ignored. */
int sp_cuda_set_mul_impl(sp_cuda *ctx, int impl);

/* Device memory for resident data (proving keys, NTT buffers). */
sp_status sp_cuda_malloc(sp_cuda *ctx, void **dev, size_t bytes) SP_WARN_UNUSED;
void sp_cuda_dev_free(sp_cuda *ctx, void *dev);
/* Pinned host memory (faster copies); free with sp_cuda_host_free. */
sp_status sp_cuda_host_malloc(sp_cuda *ctx, void **host, size_t bytes) SP_WARN_UNUSED;
void sp_cuda_host_free(sp_cuda *ctx, void *host);
/* Copies between host and device (either direction is detected). */
sp_status sp_cuda_copy(sp_cuda *ctx, void *dst, const void *src, size_t bytes) SP_WARN_UNUSED;

/*
 * Multi-scalar multiplication out = sum_i [scalars_i] bases_i.
 * On input: bases (host or device) holds n affine points (infinity allowed,
 * as (0, 0)); scalars (host or device) holds n canonical scalars (sp_scalar
 * of msm/msm.h: 4 little-endian limbs, not Montgomery, < r). window = 0
 * picks the window size from n; 8..24 asks for windows of at most that
 * many bits (tests, tuning).
 * On output: *out (a host pointer) is the sum in Jacobian form.
 * Returns SP_OK; SP_ERR_INVALID_ARG for n >= 2^31 or a bad window;
 * SP_ERR_NOT_CANONICAL when a scalar is >= r (*out unchanged);
 * SP_ERR_GPU (see sp_cuda_error).
 */
sp_status sp_cuda_msm_g1(sp_cuda *ctx, sp_g1_jac *out, const sp_g1_affine *bases,
                         const sp_scalar *scalars, size_t n, unsigned window) SP_WARN_UNUSED;
sp_status sp_cuda_msm_g2(sp_cuda *ctx, sp_g2_jac *out, const sp_g2_affine *bases,
                         const sp_scalar *scalars, size_t n, unsigned window) SP_WARN_UNUSED;
/*
 * The split MSM for witness vectors (gpu/msm_split.cu): the same contract
 * and result as sp_cuda_msm_g1/_g2, computed as: scalars 0 skipped, the
 * bases with scalar 1 summed by a parallel tree of additions, the rest
 * ("other" scalars) gathered and summed by the Pippenger, which gets
 * `window`. Faster than the plain call when many scalars are 0 or 1;
 * about as fast when none is. SP_ERR_NOT_CANONICAL leaves *out unchanged.
 */
sp_status sp_cuda_msm_g1_split(sp_cuda *ctx, sp_g1_jac *out, const sp_g1_affine *bases,
                               const sp_scalar *scalars, size_t n, unsigned window) SP_WARN_UNUSED;
sp_status sp_cuda_msm_g2_split(sp_cuda *ctx, sp_g2_jac *out, const sp_g2_affine *bases,
                               const sp_scalar *scalars, size_t n, unsigned window) SP_WARN_UNUSED;
/* The widest window (bits) sp_cuda_msm_* uses for n points of group 1 or 2
 * when window = 0. */
unsigned sp_cuda_msm_window(size_t n, int group);

/*
 * NTT over Fr on the device, same conventions as src/ntt/ntt.h (natural
 * order in and out): forward out[j] = sum_i in[i] w^(ij); inverse is
 * its exact inverse (1/n included).
 */
typedef struct sp_cuda_ntt_domain sp_cuda_ntt_domain;
/*
 * On output: *out is a domain of size 2^log_n whose root w is the one
 * sp_ntt_root_of_unity(log_n, roots) returns (roots: 5 = snarkjs, 7 =
 * zkcrypto, the sp_ntt_roots values); twiddles live on the device.
 * Returns SP_ERR_INVALID_ARG for log_n > 28 or another roots value.
 */
sp_status sp_cuda_ntt_domain_create(sp_cuda *ctx, sp_cuda_ntt_domain **out, unsigned log_n,
                                    int roots) SP_WARN_UNUSED;
void sp_cuda_ntt_domain_free(sp_cuda *ctx, sp_cuda_ntt_domain *d);
/* a (device memory, 2^log_n elements) is transformed in place. */
sp_status sp_cuda_ntt(sp_cuda *ctx, const sp_cuda_ntt_domain *d, sp_fr *a_dev,
                      int inverse) SP_WARN_UNUSED;

/*
 * Element-wise field operations on n elements, for the equality tests and
 * the arithmetic benchmark. op: 0 mul, 1 sqr, 2 add, 3 sub; 4..7 the same
 * with the 64-bit multiplication (sp_cuda_set_mul_impl).
 * out, a, b: host or device. b is ignored for sqr.
 */
sp_status sp_cuda_fp_batch(sp_cuda *ctx, int op, sp_fp *out, const sp_fp *a, const sp_fp *b,
                           size_t n) SP_WARN_UNUSED;
sp_status sp_cuda_fr_batch(sp_cuda *ctx, int op, sp_fr *out, const sp_fr *a, const sp_fr *b,
                           size_t n) SP_WARN_UNUSED;
sp_status sp_cuda_fp2_batch(sp_cuda *ctx, int op, sp_fp2 *out, const sp_fp2 *a, const sp_fp2 *b,
                            size_t n) SP_WARN_UNUSED;
/*
 * Modular-multiplication throughput: every thread runs long dependent
 * chains of Montgomery multiplications in registers. field: 0 Fp, 1 Fr,
 * 2 Fp and 3 Fr with the 64-bit multiplication (sp_cuda_set_mul_impl).
 * On output: *per_s = multiplications per second (median of 5 launches).
 */
sp_status sp_cuda_bench_modmul(sp_cuda *ctx, int field, double *per_s) SP_WARN_UNUSED;

#ifdef __cplusplus
}
#endif

#endif
