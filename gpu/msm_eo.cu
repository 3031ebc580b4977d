/* The MSM with the even/odd multiplication, one instantiation per
 * accumulation variant (msm_eo.cuh, msm_kern.cuh). */
#include "msm_kern.cuh"
#include "msm_eo.cuh"

typedef fp_tm<SP_MUL_EO> fpe_t;
typedef fp2_tm<SP_MUL_EO> fp2e_t;

sp_status sp_cu_msm_g1_eo(sp_cuda *ctx, sp_g1_jac *out, const sp_g1_affine *bases,
                          const sp_scalar *scalars, size_t n, unsigned window)
{
    switch (ctx->msm_variant) {
    case SP_MSM_V_L2:
        return msm_run<fpe_t, SP_MSM_V_L2, sp_g1_xyzz>(ctx, out, bases, scalars, n, window, 1);
    case SP_MSM_V_L2_OCC:
        return msm_run<fpe_t, SP_MSM_V_L2_OCC, sp_g1_xyzz>(ctx, out, bases, scalars, n, window, 1);
    default:
        return msm_run<fpe_t, SP_MSM_V_REG, sp_g1_xyzz>(ctx, out, bases, scalars, n, window, 1);
    }
}

/* G2 has no occupancy choice (255 registers either way), and there the
 * register prefetch measured fastest (2^22: 173 ms, L2 prefetch 191 ms on
 * the H200), so V_L2_OCC, the default, runs V_REG; V_L2 stays selectable. */
sp_status sp_cu_msm_g2_eo(sp_cuda *ctx, sp_g2_jac *out, const sp_g2_affine *bases,
                          const sp_scalar *scalars, size_t n, unsigned window)
{
    if (ctx->msm_variant == SP_MSM_V_L2)
        return msm_run<fp2e_t, SP_MSM_V_L2, sp_g2_xyzz>(ctx, out, bases, scalars, n, window, 2);
    return msm_run<fp2e_t, SP_MSM_V_REG, sp_g2_xyzz>(ctx, out, bases, scalars, n, window, 2);
}
