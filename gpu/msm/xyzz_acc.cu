/* The MSM with the XYZZ accumulation (pippenger.cuh), even/odd
 * multiplication: G1 prefetches the next point into L2 at 3 blocks per
 * SM, G2 loads it into registers (accumulate.cuh). */
#include "pippenger.cuh"
#include "accumulate.cuh"

typedef fp_tm<SP_MUL_EO> fpe_t;
typedef fp2_tm<SP_MUL_EO> fp2e_t;

sp_status sp_cu_msm_g1_xyzz(sp_cuda *ctx, sp_g1_jac *out, const sp_g1_affine *bases,
                            const sp_scalar *scalars, size_t n, unsigned window)
{
    return msm_run<fpe_t, SP_MSM_V_L2_OCC, sp_g1_xyzz>(ctx, out, bases, scalars, n, window, 1);
}

sp_status sp_cu_msm_g2_xyzz(sp_cuda *ctx, sp_g2_jac *out, const sp_g2_affine *bases,
                            const sp_scalar *scalars, size_t n, unsigned window)
{
    return msm_run<fp2e_t, SP_MSM_V_REG, sp_g2_xyzz>(ctx, out, bases, scalars, n, window, 2);
}
