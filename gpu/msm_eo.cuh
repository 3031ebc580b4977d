/*
 * The MSM's instantiations, each in a file of its own so that they compile
 * side by side and msm.cu (no field arithmetic) stays quick to build: the
 * even/odd multiplication (SP_MUL_EO, field_eo.cuh) with its accumulation
 * variants (msm_eo.cu: msm_kern.cuh, sp_cuda_set_msm_variant), the
 * batch-affine accumulations (msm_ba.cu, msm_ba2.cu), the PTX and 64-bit
 * multiplications (msm_pw.cu). Same contract as sp_cuda_msm_g1/_g2, which
 * call these by the context's knobs.
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

/* The PTX (SP_MUL_PTX) or 64-bit (SP_MUL_WIDE) multiplication, by
 * ctx->mul_impl, XYZZ accumulation variant 0 (msm_pw.cu). */
sp_status sp_cu_msm_g1_pw(sp_cuda *ctx, sp_g1_jac *out, const sp_g1_affine *bases,
                          const sp_scalar *scalars, size_t n, unsigned window);
sp_status sp_cu_msm_g2_pw(sp_cuda *ctx, sp_g2_jac *out, const sp_g2_affine *bases,
                          const sp_scalar *scalars, size_t n, unsigned window);

#endif
