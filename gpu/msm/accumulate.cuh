/*
 * The MSM's two bucket accumulations, each in a file of its own so that
 * they compile side by side and pippenger.cu (no field arithmetic) stays
 * quick to build: XYZZ mixed additions (xyzz_acc_g1.cu, xyzz_acc_g2.cu,
 * pippenger.cuh) and affine additions in batch-inverted rounds
 * (batch_affine_g1.cu, batch_affine_g2.cu, batch_affine.cuh). Same
 * contract as sp_cuda_msm_g1/_g2, which call these by size.
 */
#ifndef SP_GPU_MSM_ACCUMULATE_CUH
#define SP_GPU_MSM_ACCUMULATE_CUH

#include "gpu/sp_cuda.h"

namespace SP_CURVE_NS {

sp_status sp_cu_msm_g1_xyzz(sp_cuda *ctx, sp_g1_jac *out, const sp_g1_affine *bases,
                            const sp_scalar *scalars, size_t n, unsigned window);
sp_status sp_cu_msm_g2_xyzz(sp_cuda *ctx, sp_g2_jac *out, const sp_g2_affine *bases,
                            const sp_scalar *scalars, size_t n, unsigned window);
/* The batch-affine rounds; the XYZZ accumulation when not even one
 * window's rounds fit in half of the free device memory. */
sp_status sp_cu_msm_g1_affine(sp_cuda *ctx, sp_g1_jac *out, const sp_g1_affine *bases,
                              const sp_scalar *scalars, size_t n, unsigned window);
sp_status sp_cu_msm_g2_affine(sp_cuda *ctx, sp_g2_jac *out, const sp_g2_affine *bases,
                              const sp_scalar *scalars, size_t n, unsigned window);
/* 1 when a call over n points sums its buckets by batch-affine rounds: by
 * size (SP_CUDA_MSM_BATCH_AFFINE_MIN) unless sp_cuda_set_msm_acc forces
 * one. */
int sp_cu_msm_affine_for(const sp_cuda *ctx, size_t n);
/* The split MSM's ones (split.cuh): *sum (device, affine) = the sum of
 * bases[idx[j]], j < m, by the batch-affine rounds of one bucket (0 < m <
 * 2^31, idx[j] < 2^31); se: 4 device words of scratch; prof: the rounds'
 * profile text (profiling on) or "". Returns SP_ERR_NOMEM with nothing
 * queued when the rounds do not fit in half of the free device memory. */
sp_status sp_cu_sum_g2_affine(sp_cuda *ctx, sp_g2_affine *sum, const sp_g2_affine *bases,
                              const uint32_t *idx, size_t m, uint32_t *se, char *prof, size_t prof_n);
/* The device bytes sp_cu_sum_g2_affine's rounds take for m points (0 <
 * m < 2^31), or 0 when they cannot be sized. */
size_t sp_cu_sum_g2_bytes(const sp_cuda *ctx, size_t m);

/* The split MSM (sp_cuda_msm_g1_split / _g2_split; scalars on the device)
 * over bases that kernels read in place but should read only once: host
 * memory mapped into the device's address space (sp_cu_host_view). The
 * zeros' bases are not read, the ones' and the others' once each. With
 * fewer than n / 8 scalars 0 or 1 it declines: nothing is computed, *out
 * is untouched and *declined = 1 (the caller copies the bases instead);
 * else *declined = 0. */
sp_status sp_cu_msm_g1_split_once(sp_cuda *ctx, sp_g1_jac *out, const sp_g1_affine *bases,
                                  const sp_scalar *scalars, size_t n, unsigned window, int *declined);
sp_status sp_cu_msm_g2_split_once(sp_cuda *ctx, sp_g2_jac *out, const sp_g2_affine *bases,
                                  const sp_scalar *scalars, size_t n, unsigned window, int *declined);

/* ---- memory inside a call (stream.cu), for the split MSM's steps ---- */

/* *ok = 1 when bytes (and SP_CUDA_STREAM_MARGIN) can be had, the scratch
 * that holds no input of the call (not the copied bases and scalars, the
 * split's index lists, the chunk buffers) released first when they are not
 * free without it; *ok = 0 when they cannot. */
sp_status sp_cu_msm_room(sp_cuda *ctx, int *ok, size_t bytes);
/* *chunk = the most points (<= n) of a plain MSM, with per bytes per point
 * of the caller's beside it, that fit as sp_cu_msm_room counts, with the
 * same release; SP_ERR_NOMEM (ctx->err says why) when not even min(n,
 * SP_CUDA_STREAM_MIN_CHUNK) fit. */
sp_status sp_cu_msm_fit(sp_cuda *ctx, size_t *chunk, int group, size_t n, size_t per);
/* The device bytes the split MSM's partition (split.cu) takes for n
 * scalars: its index lists and CUB's temporary storage. */
size_t sp_cu_split_partition_bytes(size_t n);

} // namespace SP_CURVE_NS

#endif
