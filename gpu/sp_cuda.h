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

/* Tuning knob: the Montgomery multiplication used by the MSM and NTT
 * kernels, 0 = PTX carry chains, 1 = 64-bit products in plain C++, 2 =
 * even/odd PTX chains whose partial products compile to one fused
 * multiply-add each (gpu/field_eo.cuh; a third of the instructions of 0
 * and 1; the default: on the H200 27e9 Fp modmul/s against 17e9, MSMs
 * 2.1-2.3x faster, bench/NOTES.md). All are exact; the benchmark table
 * measures each. Returns the previous setting; other values are ignored. */
int sp_cuda_set_mul_impl(sp_cuda *ctx, int impl);
/* Tuning knob: the MSM's bucket-accumulation variant (gpu/msm_kern.cuh),
 * used with multiplication 2 (with 0 and 1 the MSM always runs variant 0):
 * 0 = the next point loaded into registers during the current addition,
 * 1 = the next point only prefetched into L2, 2 (the default) = G1 as 1
 * with kernels bounded to 3 instead of 4 blocks per SM (more registers,
 * no spills), G2 as 0 (the fastest of each group measured on the H200:
 * G1 2^24 127 ms against 133, G2 2^22 173 ms against 191).
 * All are exact and give the same result. Returns the previous setting;
 * other values are ignored. */
int sp_cuda_set_msm_variant(sp_cuda *ctx, int variant);
/* Tuning knob: how the MSM sums each bucket's points, 0 = XYZZ mixed
 * additions in one kernel (msm_kern.cuh, the variants above), 1 = (G1
 * only) in affine coordinates by rounds of pairwise additions whose
 * denominators share one inversion per round (Montgomery's trick over the
 * whole round), walking the sorted elements (gpu/msm_ba.cu), 2 = (G1 and
 * G2) the same rounds by work items, one per pair, with coalesced slots
 * (gpu/msm_ba2.cu), 3 = by size: 2 from SP_CUDA_MSM_BA2_MIN points up, 0
 * below. 1 to 3 need the even/odd multiplication (the others run 0); G2
 * runs 0 under 1. All are exact. Default SP_CUDA_MSM_ACC_DEFAULT (3: on
 * the H200, G1 2^26 350 ms with 2 against 464 with 0, 2^24 102 against
 * 127, 2^22 34.9 against 39.0, G2 2^22 109 against 190; 1 slower than 0
 * everywhere; bench/NOTES.md); the environment variable
 * SP_CUDA_MSM_ACC=0..3 overrides it for a context when it is created.
 * Batch-affine scratch is not in sp_cuda_msm_stream_bytes' model: the
 * rounds take at most half of the free device memory (groups of windows,
 * as many as fit; XYZZ when not even one does) and keep it for the next
 * call like all scratch (sp_cuda_scratch_trim frees it). Returns the
 * previous setting; other values are ignored. */
#define SP_CUDA_MSM_ACC_DEFAULT 3
#define SP_CUDA_MSM_BA2_MIN ((size_t)1 << 22)
int sp_cuda_set_msm_acc(sp_cuda *ctx, int acc);
/* Test knob of the batch-affine accumulation: at most `windows` windows
 * per group of rounds (over a precomputed table below: at most that many
 * rows' worth of records, n each, per group; 0, the default: as many as
 * half of the free device memory holds), so that the grouping is
 * exercised on a large device. Returns the previous setting. */
unsigned sp_cuda_set_msm_ba_group(sp_cuda *ctx, unsigned windows);

/*
 * Precomputed window tables of fixed bases (gpu/msm_table.cu), for bases
 * that stay in device memory across many MSMs (a resident proving key):
 * the table holds Q[w][i] = [2^off_w] P_i, every base times every
 * window's weight (off_w: the first scalar bit of window w), affine, W
 * rows of n points (row 0 a copy of the bases). With it, the digit of
 * window w of scalar i is a record of point Q[w][i], and all W windows'
 * records go into ONE set of 2^(c-1) buckets: one bucket reduction
 * instead of W and no doublings between windows, so the reduction no
 * longer grows with W and a wider window c (fewer windows, fewer records,
 * fewer additions) pays. The records are summed by the batch-affine
 * items (msm_ba2.cu); the memory is W n x 96 bytes in G1 (192 in G2).
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
 * them, run over exactly (bases, n) of a kept table with it when the knob
 * below is on, the multiplication is the even/odd one (the default) and
 * window is 0 or one of the table's layout: the same result, on the
 * table's window, always by the batch-affine items (whatever
 * sp_cuda_set_msm_acc says), in groups of records as large as half of the
 * free device memory holds (without the table when not even n records'
 * rounds fit; a split call whose scalars are partly 0 or 1 gathers the
 * rest and runs without it). Otherwise they run as without it. Measured
 * on the H200 (bench/NOTES.md, 2026-12-02): G1 2^24 86.5 ms against
 * 99.4, 2^26 313 against 350, G2 2^22 86 against 97.
 */
sp_status sp_cuda_msm_table_add(sp_cuda *ctx, int group, const void *bases, size_t n,
                                unsigned window, double *build_ms) SP_WARN_UNUSED;
/* Frees the tables kept for bases (any n); none is fine. */
void sp_cuda_msm_table_drop(sp_cuda *ctx, const void *bases);
/* Device bytes of the tables the context keeps. */
size_t sp_cuda_msm_tables_bytes(const sp_cuda *ctx);
/* The widest window of a table for n points of group 1 or 2 (window 0):
 * the cost model of the batch-affine items with one set of buckets. */
unsigned sp_cuda_msm_table_window(size_t n, int group);
/* Device bytes of a table for n points (window as for the add call). */
size_t sp_cuda_msm_table_bytes(int group, size_t n, unsigned window);
/* Device scratch (bytes, an upper estimate) an MSM over a table of n
 * points needs at least: the sort of its n W records, the bucket ranges
 * and sums, and the batch-affine rounds over n records at a time (it
 * takes more when free, up to half of what is free). */
size_t sp_cuda_msm_table_scratch(int group, size_t n, unsigned window);
/* Tuning knob: 1 = MSMs over bases with a kept table use it, 0 = they do
 * not (the plain path, for measurement side by side). Default
 * SP_CUDA_MSM_TABLE_DEFAULT; SP_CUDA_MSM_TABLE=0|1 in the environment
 * overrides it when a context is created. Returns the previous setting;
 * other values are ignored. */
#define SP_CUDA_MSM_TABLE_DEFAULT 1
int sp_cuda_set_msm_table(sp_cuda *ctx, int on);
/* Tuning knob: the Fp2 multiplication of the batch-affine G2 MSM
 * (msm_ba2.cu: sp_cuda_set_msm_acc's 2, and every G2 MSM over a table),
 * 0 = Karatsuba, three Montgomery products, 1 = c0 and c1 each as one sum
 * of two products with one reduction (gpu/field.cuh: the same word
 * products, without Karatsuba's additions and one of its final
 * subtractions) in the accumulation's rounds, Karatsuba in the bucket
 * reduction (where the sums measured slower). Both exact. Default SP_CUDA_FP2_MUL_DEFAULT;
 * SP_CUDA_FP2_MUL=0|1 in the environment overrides it when a context is
 * created. Returns the previous setting; other values are ignored. */
#define SP_CUDA_FP2_MUL_DEFAULT 1
int sp_cuda_set_fp2_mul(sp_cuda *ctx, int form);
/* Tuning knob: the forms of the batch-affine accumulations' round
 * kernels (msm_ba.cu, msm_ba2.cu), a sum of bits:
 *   SP_BA_INV_VAR     the round's one inversion (one thread, the whole
 *                     device waiting) by binary extended Euclid, variable
 *                     time, instead of Fermat's a^(p-2);
 *   SP_BA_APPLY_LEAN  msm_ba2.cu's G2 sums: an addition that its x
 *                     coordinates decided (the common case) with four
 *                     field elements live, coordinates read again where
 *                     needed; the other items out of line (G1's ran
 *                     slower: it keeps its whole-points kernel);
 *   SP_BA_DENS_PAIR   msm_ba2.cu's denominators: two items per step, their
 *                     loads issued together;
 *   SP_BA_WIDE_ITEMS  msm_ba2.cu: up to 128 items per thread instead of
 *                     32 (4x fewer block products for the inversion's
 *                     block to multiply in series);
 *   SP_BA_APPLY_128   msm_ba2.cu's sums in blocks of 128 threads: G1's 5
 *                     per SM (20 warps against 16), G2's lean ones 3 (12
 *                     against 8; G2 without SP_BA_APPLY_LEAN as before);
 *                     the spills that buys made both slower on the H200;
 *   SP_BA_APPLY_LANES with SP_BA_APPLY_LEAN and the Fp2 sums
 *                     (sp_cuda_set_fp2_mul 1): G2's sums over two lanes a
 *                     pair, each lane one half of every Fp2 element
 *                     (gpu/field_lanes.cuh), 16 warps per SM against 8;
 *   SP_BA_G2_NORM     msm_ba2.cu's G2 rounds invert the denominators'
 *                     norms in Fp (1/den = conj(den) / (den0^2 + den1^2)):
 *                     Fp products where Fp2 ones were, 12 Fp products an
 *                     addition in the sums instead of 14; the sums are
 *                     then the whole-points kernel's (the lean bits are
 *                     ignored in G2; G1 has no norms);
 *   SP_BA_DENS_PIPE   msm_ba2.cu's denominators with each thread's items
 *                     in a software pipeline along their chain of
 *                     dependent loads (item, bucket, lists, record, x),
 *                     four items ahead (SP_BA_DENS_PAIR is then unused);
 *   SP_BA_REDUCE_SPLIT msm_ba2.cu's bucket reduction by rows and columns
 *                     (msm_kern.cuh, msm_split): two mixed additions a
 *                     bucket, parallel over parts of rows and columns,
 *                     instead of running sums (a mixed and a full
 *                     addition a bucket, and a scaling per segment);
 *   SP_BA_LISTS_FILL  msm_ba2.cu: each round's items get their buckets
 *                     from one kernel writing every list's run, in place
 *                     of a marking pass and a max-scan over the items;
 *   SP_BA_PARTS_3     with SP_BA_REDUCE_SPLIT, G1's parts of rows and
 *                     columns in 3 blocks per SM (up to 168 registers, no
 *                     spills) instead of 4 (128 registers, spills); G2
 *                     keeps 2;
 *   SP_BA_CHAINS      msm_ba2.cu: a group's rounds in two chains of
 *                     buckets on two streams, so that one chain's
 *                     single-block inversion and the lists run beside the
 *                     other's kernels (else one chain: the inversion
 *                     alone on the device, the lists still beside);
 *                     measured no faster than one chain on the H200
 *                     (dens and apply are what the rounds wait on);
 *   SP_BA_APPLY_PIPE  msm_ba2.cu's whole-points sums (G1's, G2's with
 *                     the norms) with the loads before an item's points
 *                     (its slot's header, round 0's records) issued steps
 *                     ahead, its points sent to L2 after the sum before.
 * 0 = the forms before these. All exact. Default SP_CUDA_BA_FORM_DEFAULT
 * (4941: binary inversion, paired denominators, 128 items a thread, G2's
 * norms, the split reduction, the filled lists, the pipelined sums; on
 * the H200 the fastest or within noise of it for G1 at 2^22..2^26, plain
 * and over tables (the split and the lists took a 2^26 table MSM from
 * 308 to 299.6-304 ms, 2^24 from 86.0 to 82.9-83.4; the pipelined sums
 * -0.3 to -0.8% more, G2 -1.0 to -1.3%), and for G2 over a proving key's
 * 2^24 distinct bases: the G2 MSM of a 2^24 proof took 274 ms against
 * 307 without the norms; the lean sums and their two lanes lost there by
 * 8% and 32%, winning only over gpu_bench's L2-sized tiled bases;
 * bench/NOTES.md);
 * SP_CUDA_BA_FORM=0..8191 in the environment overrides it when a context is
 * created. Returns the previous setting; other values are ignored. */
#define SP_BA_INV_VAR 1
#define SP_BA_APPLY_LEAN 2
#define SP_BA_DENS_PAIR 4
#define SP_BA_WIDE_ITEMS 8
#define SP_BA_APPLY_128 16
#define SP_BA_APPLY_LANES 32
#define SP_BA_G2_NORM 64
#define SP_BA_DENS_PIPE 128
#define SP_BA_REDUCE_SPLIT 256
#define SP_BA_LISTS_FILL 512
#define SP_BA_PARTS_3 1024
#define SP_BA_CHAINS 2048
#define SP_BA_APPLY_PIPE 4096
#define SP_BA_FORM_ALL 8191
#define SP_CUDA_BA_FORM_DEFAULT 4941
int sp_cuda_set_ba_form(sp_cuda *ctx, int form);
/* Check knob: the threads msm_ba2.cu's rounds aim for (0, the default:
 * four times what the device holds at once). Items per thread still stop
 * at 128 (32 without SP_BA_WIDE_ITEMS), so a small count makes the
 * small MSMs of the checks run many items a thread, as large ones do.
 * Returns the previous setting. */
unsigned sp_cuda_set_ba_threads(sp_cuda *ctx, unsigned threads);

/* Device memory for resident data (proving keys, NTT buffers). */
sp_status sp_cuda_malloc(sp_cuda *ctx, void **dev, size_t bytes) SP_WARN_UNUSED;
void sp_cuda_dev_free(sp_cuda *ctx, void *dev);
/* Pinned host memory (faster copies); free with sp_cuda_host_free. */
sp_status sp_cuda_host_malloc(sp_cuda *ctx, void **host, size_t bytes) SP_WARN_UNUSED;
void sp_cuda_host_free(sp_cuda *ctx, void *host);
/* Sets bytes of device memory dev to the byte value `byte`. */
sp_status sp_cuda_memset(sp_cuda *ctx, void *dev, int byte, size_t bytes) SP_WARN_UNUSED;
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
 * when window = 0 with the default accumulation (SP_CUDA_MSM_ACC_DEFAULT:
 * the batch-affine choice from SP_CUDA_MSM_BA2_MIN points up). */
unsigned sp_cuda_msm_window(size_t n, int group);

/*
 * The streamed MSM (gpu/msm_stream.cu), for bases that are not kept in
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
 * place: chunking then only bounds the MSM's scratch.
 * On input: bases, scalars host or device, n points (any n; each chunk is
 *   below 2^31); chunk >= 1 points per chunk, or 0 = the largest chunk
 *   whose sp_cuda_msm_stream_bytes fits the free device memory under the
 *   cap (sp_cuda_set_mem_limit) plus the scratch this context holds, less
 *   SP_CUDA_STREAM_MARGIN (the scratch is released first when the chunk
 *   needs more than is free without it); window as
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
/* Flags of sp_cuda_msm_stream_bytes: what the call copies from the host. */
enum { SP_CUDA_MSM_SPLIT = 1, SP_CUDA_MSM_HOST_BASES = 2, SP_CUDA_MSM_HOST_SCALARS = 4 };
/* Device memory (bytes, an upper estimate) that a streamed MSM of n points
 * of group 1 or 2 in chunks of `chunk` (0 or >= n: one), window = 0,
 * takes: the MSM's scratch for one chunk (a model of the allocations of
 * msm.cu and msm_split.cu; gpu_check checks it against the scratch held)
 * and the buffers for the host data it copies (one for a single chunk,
 * two otherwise). */
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
/* Tuning knob: the NTT implementation, 0 = gpu/ntt.cu (bit-reversal pass,
 * then 10-stage and 5-stage passes, in place), 1..4 = gpu/ntt_fused.cu (9
 * stages per pass, the bit reversal folded into the first; through a
 * scratch vector of n elements the context keeps; in place as 0 when the
 * device has no room for it), inside a pass 1 = a barrier per stage, 2 =
 * rounds of 3 stages in registers (radix 8), 3 = rounds of 2 (radix 4),
 * 4 = as 2 with blocks of 8 columns instead of 4; 5..7 = gpu/ntt_fs.cu
 * (the passes of 3 with each pass's column twiddles applied once per
 * element as it is loaded, the stages' twiddles from a shared-memory
 * table, the inverse's 1/n inside the second pass's factors; from 2^12,
 * as 3 below), 5 = two butterflies' products interleaved, 256 threads and
 * two blocks per SM, 6 = the same with the products one after the other,
 * 7 = as 5 with three blocks per SM, 8 = each butterfly through shared
 * memory (two elements in registers: 56 registers, 512 threads and two
 * blocks per SM, twice 5's warps); 9 = 8 from 2^22, 3 below; 10 = 8 with
 * two barriers per pass (each thread's own first two stages, then stages
 * in warp-local groups), 12 = 8 with three blocks per SM, 13 = 10 with
 * its positions derived (less index arithmetic), 14 = 13 with three
 * blocks per SM, 15 = 13 with blocks of at most 256 threads, four per SM
 * (its 9-stage passes take 2 columns instead of 4), 16 = 13 with blocks
 * of at most 128 threads, eight per SM; 11 = 15 from 2^22, 3 below. All
 * give the same result. Default SP_CUDA_NTT_DEFAULT (11: on the H200,
 * forward and inverse, 2^26 in 18.1 ms against 18.8 for 13, 18.4 for 16,
 * 19.3 for 8, 21.5 / 22.5 for 3 and 29.1 / 30.7 for 0; 2^24 4.20 and 2^22
 * 1.02 as 13, whose passes 15 runs at those sizes (4.47 and 1.09 for 8,
 * 4.60 / 4.86 and 1.07 / 1.14 for 3); below 2^22 13 and 15 were not
 * timed; bench/NOTES.md); SP_CUDA_NTT=0..16 in the environment overrides
 * it when a context is created. Returns the previous setting; other
 * values are ignored. */
#define SP_CUDA_NTT_DEFAULT 11
int sp_cuda_set_ntt_impl(sp_cuda *ctx, int impl);
/* a (device memory, 2^log_n elements) is transformed in place. */
sp_status sp_cuda_ntt(sp_cuda *ctx, const sp_cuda_ntt_domain *d, sp_fr *a_dev,
                      int inverse) SP_WARN_UNUSED;

/*
 * Element-wise field operations on n elements, for the equality tests and
 * the arithmetic benchmark. op: 0 mul, 1 sqr, 2 add, 3 sub; 4..7 the same
 * with the 64-bit multiplication, 8..11 with the even/odd one
 * (sp_cuda_set_mul_impl); for Fr also 12 mul and 13 mul of two elements
 * at once (i with i + ceil(n/2)) with the NTT kernels' even/odd products
 * (gpu/field_eo2.cuh); for Fp2 also 14 mul as two sums of products
 * (sp_cuda_set_fp2_mul's 1); for Fp and Fp2 also 15 the inverse by
 * binary extended Euclid (f_inv_var) and 16 by Fermat (f_inv_fermat),
 * 1/0 = 0, with the even/odd multiplication.
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
 * chains of Montgomery multiplications in registers. field: 0 Fp, 1 Fr,
 * 2 Fp and 3 Fr with the 64-bit multiplication, 4 Fp and 5 Fr with the
 * even/odd one (sp_cuda_set_mul_impl), 6 Fr with the NTT kernels' even/odd
 * product (gpu/field_eo2.cuh) and 7 with its two-at-once form; 8 and 9 as
 * 6 with 16 and 32 warps per SM instead of 64 (the others); 10 and 11 Fp2
 * multiplications, even/odd, Karatsuba and sums of products
 * (sp_cuda_set_fp2_mul).
 * On output: *per_s = multiplications per second (median of 5 launches).
 */
sp_status sp_cuda_bench_modmul(sp_cuda *ctx, int field, double *per_s) SP_WARN_UNUSED;
/*
 * Latency of one Fp inversion in one thread (what ba_top's single thread
 * waits for once a batch-affine round): a chain of inversions, each of 1
 * plus the previous result, in the rounds' field type. var: 1 binary
 * extended Euclid (f_inv_var), 0 Fermat (f_inv_fermat).
 * On output: *us = microseconds per inversion (median of 5 launches).
 */
sp_status sp_cuda_bench_inv(sp_cuda *ctx, int var, double *us) SP_WARN_UNUSED;

#ifdef __cplusplus
}
#endif

#endif
