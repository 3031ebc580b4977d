/*
 * The MSM with the even/odd multiplication (SP_MUL_EO, field_eo.cuh) and
 * its accumulation variants (msm_kern.cuh, sp_cuda_set_msm_variant), in a
 * file of its own (msm_eo.cu) so that it compiles beside msm.cu. Same
 * contract as sp_cuda_msm_g1/_g2, which call these when the context's
 * multiplication is SP_MUL_EO.
 */
#ifndef SP_GPU_MSM_EO_CUH
#define SP_GPU_MSM_EO_CUH

#include "sp_cuda.h"

sp_status sp_cu_msm_g1_eo(sp_cuda *ctx, sp_g1_jac *out, const sp_g1_affine *bases,
                          const sp_scalar *scalars, size_t n, unsigned window);
/* The same with batch-affine accumulation (msm_ba.cu, ctx->msm_acc = 1). */
sp_status sp_cu_msm_g1_ba(sp_cuda *ctx, sp_g1_jac *out, const sp_g1_affine *bases,
                          const sp_scalar *scalars, size_t n, unsigned window);
/* The same for G1 and G2 with batch-affine accumulation by work items
 * (msm_ba2.cu, ctx->msm_acc = 2). */
sp_status sp_cu_msm_g1_ba2(sp_cuda *ctx, sp_g1_jac *out, const sp_g1_affine *bases,
                           const sp_scalar *scalars, size_t n, unsigned window);
sp_status sp_cu_msm_g2_ba2(sp_cuda *ctx, sp_g2_jac *out, const sp_g2_affine *bases,
                           const sp_scalar *scalars, size_t n, unsigned window);
sp_status sp_cu_msm_g2_eo(sp_cuda *ctx, sp_g2_jac *out, const sp_g2_affine *bases,
                          const sp_scalar *scalars, size_t n, unsigned window);

#endif
