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
/* The number of CUDA devices present; 0 when none or the driver fails. */
int sp_cuda_device_count(void);
/* Frees the context and its scratch memory. Free NTT domains and
 * sp_cuda_malloc memory first. NULL is allowed. */
void sp_cuda_free(sp_cuda *ctx);
/* The last recorded error, "" when none. Valid until the next call. */
const char *sp_cuda_error(const sp_cuda *ctx);
/* A one-line description of the device (name, SMs, memory, clock). */
const char *sp_cuda_device_info(const sp_cuda *ctx);

/* With on = 1, MSM calls time their phases (a little slower); the text of
 * the last call's times is returned by sp_cuda_profile ("" when off).
 * SP_CUDA_PROFILE=1 in the environment turns it on when a context is
 * created (the CUDA backend then prints each proof MSM's phases). */
void sp_cuda_set_profile(sp_cuda *ctx, int on);
const char *sp_cuda_profile(const sp_cuda *ctx);

/*
 * Precomputed window tables of fixed bases, for bases that stay in device
 * memory across many MSMs (a resident proving key): the table holds
 * Q[w][i] = [2^off_w] P_i, every base times every window's weight (off_w:
 * the first scalar bit of window w), affine, W rows of n points (row 0 a
 * copy of the bases). With it, the digit of window w of scalar i is a
 * record of point Q[w][i], and all W windows' records go into one set of
 * 2^(c-1) buckets: one bucket reduction instead of W and no doublings
 * between windows, so a wider window c pays. The memory is W n x 96 bytes
 * in G1 (192 in G2).
 *
 * sp_cuda_msm_table_add:
 * On input: bases device memory of this context holding n >= 1 affine
 *   points of group 1 or 2 (not a copy: an MSM finds the table by this
 *   address and n); window 0 = sp_cuda_msm_table_window(n, group), or
 *   8..24 (windows of at most that many bits, as for the MSMs).
 * On output: the table is made on the device and kept by the context
 *   until sp_cuda_msm_table_drop or sp_cuda_free (one for the same bases
 *   and n is replaced); *build_ms (when not NULL) = the time the build
 *   took. The bases must not change while the table is kept.
 * Returns SP_OK; SP_ERR_INVALID_ARG (bases not device memory, n = 0, a
 *   bad window or group, n W >= 2^31); SP_ERR_NOMEM when the table does
 *   not fit in the free device memory under the cap (the context's
 *   scratch is released first to make room), nothing kept; SP_ERR_GPU.
 *
 * Use: sp_cuda_msm_g1/_g2, and the split and streamed calls, which reach
 * them, run over exactly (bases, n) of a kept table with it when window is
 * 0 or the table's own: the same result, in groups of records as large as
 * half of the free device memory holds (without the table when not even
 * n records fit; a split call whose scalars are partly 0 or 1 gathers the
 * rest and runs without it).
 */
sp_status sp_cuda_msm_table_add(sp_cuda *ctx, int group, const void *bases, size_t n,
                                unsigned window, double *build_ms) SP_WARN_UNUSED;
/* Frees the tables kept for bases (any n); none is fine. */
void sp_cuda_msm_table_drop(sp_cuda *ctx, const void *bases);
/* Device bytes of the tables the context keeps. */
size_t sp_cuda_msm_tables_bytes(const sp_cuda *ctx);
/* The widest window of a table for n points of group 1 or 2 (window 0):
 * the cost model of the batch-affine accumulation with one set of buckets. */
unsigned sp_cuda_msm_table_window(size_t n, int group);
/* Device bytes of a table for n points (window as for the add call). */
size_t sp_cuda_msm_table_bytes(int group, size_t n, unsigned window);
/* Device scratch (bytes, an upper estimate) an MSM over a table of n
 * points needs at least: the sort of its n W records, the bucket ranges
 * and sums, and the batch-affine rounds over n records at a time (it
 * takes more when free, up to half of what is free). */
size_t sp_cuda_msm_table_scratch(int group, size_t n, unsigned window);

/* Device memory for resident data (proving keys, NTT buffers), not
 * counted against the cap (sp_cuda_try_malloc of sp_cuda_backend.h is).
 * Returns SP_ERR_NOMEM when the device has not that much free (the error
 * cleared, so later calls are unaffected), SP_ERR_GPU on other failures;
 * *dev = NULL on error. */
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
 * The split MSM for witness vectors (gpu/msm/split.cu): the same contract
 * and result as sp_cuda_msm_g1/_g2, computed as: scalars 0 skipped, the
 * bases with scalar 1 summed as one bucket (XYZZ threads and a tree; in
 * G2 from as many as the accumulation below sums by rounds, batch-affine
 * rounds), the rest
 * ("other" scalars) gathered and summed by the Pippenger, which gets
 * `window`. Faster than the plain call when many scalars are 0 or 1;
 * about as fast when none is. SP_ERR_NOT_CANONICAL leaves *out unchanged.
 */
sp_status sp_cuda_msm_g1_split(sp_cuda *ctx, sp_g1_jac *out, const sp_g1_affine *bases,
                               const sp_scalar *scalars, size_t n, unsigned window) SP_WARN_UNUSED;
sp_status sp_cuda_msm_g2_split(sp_cuda *ctx, sp_g2_jac *out, const sp_g2_affine *bases,
                               const sp_scalar *scalars, size_t n, unsigned window) SP_WARN_UNUSED;
/*
 * How the MSMs sum each bucket's points, by size: below
 * SP_CUDA_MSM_BATCH_AFFINE_MIN points XYZZ mixed additions, from there on
 * affine additions in rounds that share one inversion per round
 * (Montgomery's trick), in groups of windows as large as half of the free
 * device memory holds (XYZZ when not even one window fits). G2 as G1.
 */
#define SP_CUDA_MSM_BATCH_AFFINE_MIN ((size_t)1 << 22)
/* The widest window (bits) sp_cuda_msm_* uses for n points of group 1 or 2
 * when window = 0. */
unsigned sp_cuda_msm_window(size_t n, int group);

/*
 * The streamed MSM (gpu/msm/stream.cu), for bases that are not kept in
 * device memory (keys larger than the device, or than the cap below) and
 * for MSMs whose scratch would not fit in one go: the contract and the
 * result of sp_cuda_msm_g1/_g2 (split = 0) or sp_cuda_msm_g1_split/_g2_split
 * (split != 0), computed over chunks of at most `chunk` points whose
 * partial sums are added on the host. Host bases and scalars are copied
 * chunk by chunk into two device buffers on a second stream, the copy of
 * chunk k+1 overlapping the MSM of chunk k. The copies overlap only from
 * pinned host memory (sp_cuda_host_malloc, or memory pinned in place by
 * sp_cuda_host_register of sp_cuda_backend.h); from pageable memory they
 * are correct but not overlapped. Device bases or scalars are read in
 * place: chunking then only bounds the MSM's scratch. With split, bases
 * and scalars both on the device and chunk = 0, the split MSM runs whole
 * when its partition (index lists) fits, and sizes its own steps: the
 * Pippenger over its "other" scalars in as few pieces as fit. So it does
 * with split, scalars on the device, chunk = 0 and bases in host memory
 * pinned by sp_cuda_host_register: its kernels then read in place (over
 * the bus) only the bases of scalars that are not 0, each once, unless
 * fewer than n / 8 scalars are 0 or 1 (then the bases are copied in
 * chunks, as above).
 * On input: bases, scalars host or device, n points (any n; each chunk is
 *   below 2^31); chunk >= 1 points per chunk, or 0 = the largest chunk
 *   whose sp_cuda_msm_stream_bytes fits the free device memory under the
 *   cap (sp_cuda_set_mem_limit) plus the scratch this context holds, less
 *   SP_CUDA_STREAM_MARGIN (the scratch is released first when the chunk
 *   needs more than is free without it, except that without a cap a
 *   single chunk keeps it when the scratch and what is free hold the
 *   model: an MSM like the last one reuses its slots, and should it still
 *   run out of memory it releases the scratch and runs again); window as
 *   for the plain calls, applied to every chunk. With chunk >= n it is the
 *   plain call.
 * On output: *out (host), unchanged on error.
 * Returns as the plain calls (SP_ERR_NOT_CANONICAL for a scalar >= r);
 *   SP_ERR_NOMEM when chunk = 0 and not even min(n, SP_CUDA_STREAM_MIN_CHUNK)
 *   points fit (sp_cuda_error says how much was free).
 */
#define SP_CUDA_STREAM_MIN_CHUNK ((size_t)1 << 14) /* smaller: slower than the CPU */
/* What chunk = 0 leaves free: the CUDA runtime's own allocations (module
 * data, launch buffers) and the memory model's error. */
#define SP_CUDA_STREAM_MARGIN ((size_t)64 << 20)
sp_status sp_cuda_msm_g1_stream(sp_cuda *ctx, sp_g1_jac *out, const sp_g1_affine *bases,
                                const sp_scalar *scalars, size_t n, size_t chunk, int split,
                                unsigned window) SP_WARN_UNUSED;
sp_status sp_cuda_msm_g2_stream(sp_cuda *ctx, sp_g2_jac *out, const sp_g2_affine *bases,
                                const sp_scalar *scalars, size_t n, size_t chunk, int split,
                                unsigned window) SP_WARN_UNUSED;
/* Flags of sp_cuda_msm_stream_bytes: the split MSM, what the call copies
 * from the host, and LEAN: without the scratch that the MSM takes only
 * when there is room for it and otherwise does without (G2's ones summed
 * by rounds; the XYZZ threads sum them then), for room that a caller
 * keeps free for the MSM rather than what the MSM may take. */
enum { SP_CUDA_MSM_SPLIT = 1, SP_CUDA_MSM_HOST_BASES = 2, SP_CUDA_MSM_HOST_SCALARS = 4, SP_CUDA_MSM_LEAN = 8 };
/* Device memory (bytes, an upper estimate) that a streamed MSM of n points
 * of group 1 or 2 in chunks of `chunk` (0 or >= n: one), window = 0,
 * takes: the MSM's scratch for one chunk (a model of the allocations of
 * msm/pippenger.cu and msm/split.cu; gpu_check checks it against the scratch held)
 * and the buffers for the host data it copies (one for a single chunk,
 * two otherwise). Chunks of SP_CUDA_MSM_BATCH_AFFINE_MIN points or more
 * also take the batch-affine rounds' buffers, which the model leaves out:
 * they size themselves to half of the memory free at the call (above). */
size_t sp_cuda_msm_stream_bytes(const sp_cuda *ctx, int group, size_t n, size_t chunk,
                                unsigned flags);

/*
 * Device memory cap, so that a large device can act as a small one (tests,
 * a shared GPU). With bytes > 0 the context plans as if the device had
 * `bytes` of memory beyond what was in use when the context was created:
 * sp_cuda_mem_info (sp_cuda_backend.h) reports free = min(real free,
 * bytes - growth), where growth is the device memory taken since the
 * context was created (by anyone on the device, so approximate when other
 * processes share it); sp_cuda_try_malloc refuses what does not fit, and
 * the streamed MSM sizes its chunks to it. The plain calls above do not
 * look at the cap (their scratch grows as they need). 0 (the default)
 * removes it. The CUDA backend sets it from SP_CUDA_MEM_LIMIT
 * (gpu/sp_cuda_backend.h).
 */
void sp_cuda_set_mem_limit(sp_cuda *ctx, size_t bytes);
size_t sp_cuda_mem_limit(const sp_cuda *ctx);
/* Device scratch memory the context holds now (grown by the calls above
 * and kept between them for reuse). */
size_t sp_cuda_scratch_bytes(const sp_cuda *ctx);
/* Waits for the device, then frees all scratch memory; later calls grow
 * what they need again. */
sp_status sp_cuda_scratch_trim(sp_cuda *ctx) SP_WARN_UNUSED;

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
 * Returns SP_ERR_INVALID_ARG for log_n > SP_NTT_MAX_LOG (28 on BLS12-381,
 * 27 on BN254) or another roots value.
 */
sp_status sp_cuda_ntt_domain_create(sp_cuda *ctx, sp_cuda_ntt_domain **out, unsigned log_n,
                                    int roots) SP_WARN_UNUSED;
void sp_cuda_ntt_domain_free(sp_cuda *ctx, sp_cuda_ntt_domain *d);
/* By size: below 2^22 passes of up to 9 stages in rounds of two (the bit
 * reversal folded into the first pass), from 2^22 the same passes with
 * each pass's column twiddles applied as the elements are loaded; both
 * through a scratch vector of n elements the context keeps, or in place
 * (a bit-reversal pass, then passes of 10 and 5 stages) when the device
 * has no room for it. All give the same result. */
/* a (device memory, 2^log_n elements) is transformed in place. */
sp_status sp_cuda_ntt(sp_cuda *ctx, const sp_cuda_ntt_domain *d, sp_fr *a_dev,
                      int inverse) SP_WARN_UNUSED;

#ifdef __cplusplus
}
#endif

#endif
