/* The MSM with the PTX and 64-bit multiplications (sp_cuda_set_mul_impl 0
 * and 1; msm_eo.cuh), XYZZ accumulation variant 0 (msm_kern.cuh). */
#include "msm_kern.cuh"
#include "msm_eo.cuh"

sp_status sp_cu_msm_g1_pw(sp_cuda *ctx, sp_g1_jac *out, const sp_g1_affine *bases,
                          const sp_scalar *scalars, size_t n, unsigned window)
{
    if (ctx->mul_impl == SP_MUL_WIDE)
        return msm_run<fp_tm<SP_MUL_WIDE>, SP_MSM_V_REG, sp_g1_xyzz>(ctx, out, bases, scalars, n,
                                                                     window, 1);
    return msm_run<fp_t, SP_MSM_V_REG, sp_g1_xyzz>(ctx, out, bases, scalars, n, window, 1);
}

sp_status sp_cu_msm_g2_pw(sp_cuda *ctx, sp_g2_jac *out, const sp_g2_affine *bases,
                          const sp_scalar *scalars, size_t n, unsigned window)
{
    if (ctx->mul_impl == SP_MUL_WIDE)
        return msm_run<fp2_tm<SP_MUL_WIDE>, SP_MSM_V_REG, sp_g2_xyzz>(ctx, out, bases, scalars,
                                                                      n, window, 2);
    return msm_run<fp2_t, SP_MSM_V_REG, sp_g2_xyzz>(ctx, out, bases, scalars, n, window, 2);
}
