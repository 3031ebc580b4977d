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

#endif
