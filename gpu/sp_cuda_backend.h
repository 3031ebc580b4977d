/*
 * What the CUDA proving backend (gpu/backend/) needs beyond the core of
 * sp_cuda.h: the H step of the Groth16 prover on the device
 * (gpu/ntt/h_step.cu), the setup's fixed-base multiplication
 * (gpu/curve/fixed_base.cu) and host-side functions (gpu/core/host.cu).
 * Plain C interface; nothing here needs CUDA headers. Errors as in
 * sp_cuda.h: SP_ERR_GPU with the call, file, line and CUDA message in
 * sp_cuda_error(ctx); nothing aborts.
 */
#ifndef SP_GPU_SP_CUDA_BACKEND_H
#define SP_GPU_SP_CUDA_BACKEND_H

#include <stddef.h>
#include "gpu/sp_cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

#include "groth16/ptau_comb.h"
#include "ntt/ntt.h"

/* ---- element-wise Fr kernels (device arrays of n elements) ---- */

/* out[i] = in[i] * shift^i (Montgomery values), then, when canonical != 0,
 * converted out of Montgomery form (an sp_scalar per element). out may
 * equal in. shift: a host value. */
sp_status sp_cuda_fr_scale_powers(sp_cuda *ctx, sp_fr *out, const sp_fr *in, size_t n,
                                  const sp_fr *shift, int canonical) SP_WARN_UNUSED;
/* h[i] = (a[i] * b[i] - c[i]) * scale (scale NULL: no factor), then
 * canonical as above. h may alias a, b or c. */
sp_status sp_cuda_fr_abc(sp_cuda *ctx, sp_fr *h, const sp_fr *a, const sp_fr *b, const sp_fr *c,
                         size_t n, const sp_fr *scale, int canonical) SP_WARN_UNUSED;

/* c[i] = a[i] * b[i] (Montgomery values); c may alias a or b. */
sp_status sp_cuda_fr_mul(sp_cuda *ctx, sp_fr *c, const sp_fr *a, const sp_fr *b, size_t n) SP_WARN_UNUSED;
/* v[i] out of Montgomery form in place: afterwards v holds n canonical
 * MSM scalars (sp_scalar), sp_msm_scalars_from_fr's result. */
sp_status sp_cuda_fr_to_scalars(sp_cuda *ctx, sp_fr *v, size_t n) SP_WARN_UNUSED;
/* Stand-in values for a warm-up (not random in any strong sense): v[i]
 * from a hash of (seed, i); with other_mod <= 1 every value is a field
 * element below 2^252, else one in about other_mod is, and the others are
 * 0 or 1 (Montgomery form), as in a witness. */
sp_status sp_cuda_fr_fill_sample(sp_cuda *ctx, sp_fr *v, size_t n, uint64_t seed,
                                 unsigned other_mod) SP_WARN_UNUSED;

/*
 * The H step on the device, the contracts of src/ntt/hstep.h followed by
 * the conversion to MSM scalars (sp_msm_scalars_from_fr).
 * On input: a, b, c device arrays of n = d->n evaluations (overwritten);
 *   gd a device domain of the same size and roots family as the CPU
 *   domain d, of which only d->n, d->omega_2n and d->gen are read (no
 *   twiddles: a caller without a CPU domain may fill just those);
 *   bellperson 0 for the snarkjs convention, 1 for the bellperson one;
 *   a_on_coset 1 when a already went through sp_cuda_h_coset (so that a
 *   caller can transform a while b is still being copied), else 0.
 * On output: h (device, n scalars, may alias a) the canonical H scalars;
 *   for bellperson h[n-1] is 0 when c = a*b on D.
 * Returns SP_OK, SP_ERR_INVALID_ARG (a host pointer), SP_ERR_GPU.
 */
sp_status sp_cuda_h_step(sp_cuda *ctx, sp_scalar *h, sp_fr *a, sp_fr *b, sp_fr *c,
                         const sp_cuda_ntt_domain *gd, const sp_ntt_domain *d,
                         int bellperson, int a_on_coset) SP_WARN_UNUSED;
/* The H step's first move of one vector, in place: v (device, n = d->n
 * evaluations on D) becomes its evaluations on the coset that
 * sp_cuda_h_step uses for the convention `bellperson`; gd, d as there.
 * Returns SP_OK, SP_ERR_INVALID_ARG (a host pointer), SP_ERR_GPU. */
sp_status sp_cuda_h_coset(sp_cuda *ctx, sp_fr *v, const sp_cuda_ntt_domain *gd, const sp_ntt_domain *d,
                          int bellperson) SP_WARN_UNUSED;

/* ---- fixed-base multiplication for the setup (gpu/curve/fixed_base.cu) ---- */

/*
 * out[i] = [k[i]] base for i < n: the contract of
 * sp_g1_fixed_base_mul_var / sp_g2_fixed_base_mul_var
 * (src/groth16/fixed_base.h), same points.
 * On input: base (host) on the curve; k (host or device, 16-byte aligned)
 *   n scalars in Montgomery form; out (host or device) room for n points,
 *   not overlapping k; threads >= 1 host threads for copying host data.
 *   Any n: the work goes in chunks of 2^20 (G1) / 2^19 (G2) points, with
 *   at most ~320 MiB of device memory and ~230 MiB of pinned host memory
 *   per call (freed before returning; smaller chunks when device memory
 *   is short).
 * On output: out[i] in affine form, infinity as (0, 0).
 * Returns SP_OK, SP_ERR_NOMEM (host or device memory), SP_ERR_GPU; out is
 *   partly written then.
 */
sp_status sp_cuda_fixed_base_g1(sp_cuda *ctx, sp_g1_affine *out, const sp_g1_affine *base,
                                const sp_fr *k, size_t n, int threads) SP_WARN_UNUSED;
sp_status sp_cuda_fixed_base_g2(sp_cuda *ctx, sp_g2_affine *out, const sp_g2_affine *base,
                                const sp_fr *k, size_t n, int threads) SP_WARN_UNUSED;

/* ---- the setup from a .ptau (gpu/curve/ptau.cuh) ---- */

/*
 * The sparse combinations and the inverse DFT over points of
 * groth16/ptau_comb.h on the device: the contracts of sp_g1_ptau_comb /
 * sp_g2_ptau_comb and sp_g1_ptau_intt / sp_g2_ptau_intt, the same points.
 * Every array is host memory (the terms' arrays too), copied over and
 * back by the call; device memory is taken for the call and freed before
 * it returns: about (n_bases + nnz) points for a comb, 3 n points for an
 * inverse DFT.
 * Returns SP_OK, SP_ERR_NOMEM (host or device memory: nothing written),
 *   SP_ERR_INVALID_ARG (more than 2^31 points or entries), SP_ERR_GPU.
 */
sp_status sp_cuda_ptau_comb_g1(sp_cuda *ctx, sp_g1_affine *out, size_t n, const sp_ptau_sparse *t,
                               int nt) SP_WARN_UNUSED;
sp_status sp_cuda_ptau_comb_g2(sp_cuda *ctx, sp_g2_affine *out, size_t n, const sp_ptau_sparse *t,
                               int nt) SP_WARN_UNUSED;
sp_status sp_cuda_ptau_intt_g1(sp_cuda *ctx, sp_g1_affine *out, const sp_g1_affine *in, unsigned log_n,
                               const sp_scalar *tw, const sp_scalar *pre) SP_WARN_UNUSED;
sp_status sp_cuda_ptau_intt_g2(sp_cuda *ctx, sp_g2_affine *out, const sp_g2_affine *in, unsigned log_n,
                               const sp_scalar *tw, const sp_scalar *pre) SP_WARN_UNUSED;

/* ---- host side ---- */

/* Makes ctx's device current for the calling thread (CUDA keeps the
 * current device per thread; the engine calls from several threads). */
sp_status sp_cuda_bind(sp_cuda *ctx) SP_WARN_UNUSED;
/* On output: free and total device memory in bytes. */
sp_status sp_cuda_mem_info(sp_cuda *ctx, size_t *free_bytes, size_t *total_bytes) SP_WARN_UNUSED;
/* As sp_cuda_malloc, within the cap (sp_cuda_set_mem_limit): more than
 * is left of it returns SP_ERR_NOMEM (ctx's error says so). */
sp_status sp_cuda_try_malloc(sp_cuda *ctx, void **dev, size_t bytes) SP_WARN_UNUSED;
/* Host memory for buffers copied to the device on every proof: pinned
 * (page-locked, usable by every device of the process) when the driver
 * grants it, else plain malloc memory (*pinned says which; may be NULL).
 * NULL only when neither can be had. Touches no context, so any thread
 * may call it. */
void *sp_cuda_pinned_alloc(int device, size_t bytes, int *pinned);
/* Frees memory from sp_cuda_pinned_alloc (either kind); NULL is allowed. */
void sp_cuda_pinned_free(void *p);
/*
 * Pins existing host memory [p, p + bytes) in place (cudaHostRegister,
 * portable: every device of the process; mapped where the driver allows),
 * so that the streamed MSM copies it asynchronously, or its split form
 * reads it in place; nothing is copied or allocated. Counted across the
 * process: a second call on the same p and bytes (another backend
 * attaching the same key) only counts, and the memory stays pinned until
 * as many sp_cuda_host_unregister calls. Thread-safe.
 * Returns SP_OK (also for bytes = 0); SP_ERR_GPU when the driver refuses
 * (e.g. a page of the range is already pinned by another registration;
 * the memory stays usable, pageable; sp_cuda_error says why);
 * SP_ERR_NOMEM.
 */
sp_status sp_cuda_host_register(sp_cuda *ctx, const void *p, size_t bytes) SP_WARN_UNUSED;
void sp_cuda_host_unregister(const void *p);

/*
 * A staged upload (core/host.cu): host data of any kind, pageable too, copied
 * to the device through a ring of pinned buffers, on a stream and a host
 * thread of its own, so that the caller's device work goes on meanwhile
 * (the CUDA backend uploads a proof's witness during its H step). From
 * pinned source memory the copy goes directly, without the ring.
 * One upload at a time per object; its functions are called by one thread
 * (the one that owns the context). The object never touches the context's
 * error text: its errors come back through sp_cuda_upload_wait.
 */
typedef struct sp_cuda_upload sp_cuda_upload;
/* On output: *out a new object on ctx's device with `slots` (2..8) pinned
 * buffers of slot_bytes each. Returns SP_OK, SP_ERR_NOMEM (pinned memory),
 * SP_ERR_GPU (sp_cuda_error(ctx)), SP_ERR_INVALID_ARG. */
sp_status sp_cuda_upload_create(sp_cuda *ctx, sp_cuda_upload **out, size_t slot_bytes,
                                int slots) SP_WARN_UNUSED;
/* Waits for an upload in flight, then frees everything; NULL is allowed. */
void sp_cuda_upload_free(sp_cuda_upload *u);
/* Starts copying src[0..bytes) (host) to dev (device memory of the
 * object's device) and returns at once; the host copies into the ring run
 * on up to `threads` threads. src and dev must stay valid and src
 * unchanged until sp_cuda_upload_wait returns. Returns SP_OK, or
 * SP_ERR_INVALID_ARG when an upload is already in flight. */
sp_status sp_cuda_upload_start(sp_cuda_upload *u, void *dev, const void *src, size_t bytes,
                               int threads) SP_WARN_UNUSED;
/* Waits for the upload started last. On output: *ms its duration, start
 * to the last byte on the device. Returns its status: SP_OK, or SP_ERR_GPU
 * with the reason in err (err_len bytes, NUL-terminated). */
sp_status sp_cuda_upload_wait(sp_cuda_upload *u, double *ms, char *err, size_t err_len) SP_WARN_UNUSED;

/* ---- the proving backend (backend/backend_cuda.c) ---- */

/*
 * Device memory cap of a CUDA backend (sp_cuda_set_mem_limit on its
 * context); sp_backend_cuda_open sets it from the environment variable
 * SP_CUDA_MEM_LIMIT, a byte count in util/bytes.h's syntax (sp_bytes_parse:
 * 123, 256M, 2GiB, 2^30). Key arrays that do not fit under it at
 * key_attach are streamed from pinned host memory, as on a device that
 * small; set it before key_attach. 0 removes the cap.
 */
typedef struct sp_backend sp_backend;
void sp_backend_cuda_set_mem_limit(sp_backend *be, size_t bytes);

/*
 * Precomputed window tables at key_attach (sp_cuda_msm_table_add): for
 * the key's resident G1 arrays of at least min_points points (default
 * SP_CUDA_MSM_BATCH_AFFINE_MIN), H first, then A, B1 and C (their MSMs reach the
 * table when the witness scalars are dense; 0/1-heavy ones are gathered
 * first and run without it), a table is made when it fits in what is left
 * of the backend's table budget and the device keeps free, beside it, the
 * proving reserve and the table MSM's least scratch
 * (sp_cuda_msm_table_scratch); else that array's MSMs run without one.
 * The budget is in bytes for all the backend's tables: SP_CUDA_MSM_TABLES
 * in the environment at open (util/bytes.h's syntax; 0 = no tables), by
 * default the device memory (the cap when set) over
 * SP_CB_TABLES_DEFAULT_DIV of backend/backend_cuda.c. Tables go with their key at key_detach; the
 * attach log names the tables made and their build times.
 * sp_backend_cuda_set_tables sets both for the next key_attach (tests);
 * sp_backend_cuda_table_bytes returns the device bytes of the tables kept.
 */
void sp_backend_cuda_set_tables(sp_backend *be, size_t budget, size_t min_points);
size_t sp_backend_cuda_table_bytes(sp_backend *be);

#ifdef __cplusplus
}
#endif

#endif
