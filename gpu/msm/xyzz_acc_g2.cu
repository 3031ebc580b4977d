/* The MSM with the XYZZ accumulation in G2 (pippenger.cuh), even/odd
 * multiplication: the next point loaded into registers (accumulate.cuh);
 * its reduction is reduce_g2.cu's. */
#include "pippenger.cuh"
#include "accumulate.cuh"

namespace SP_CURVE_NS {

typedef fp2_tm<SP_MUL_EO> fp2e_t;

sp_status sp_cu_msm_g2_xyzz(sp_cuda *ctx, sp_g2_jac *out, const sp_g2_affine *bases,
                            const sp_scalar *scalars, size_t n, unsigned window)
{
    return msm_run<fp2e_t, SP_MSM_V_REG, sp_g2_xyzz>(ctx, out, bases, scalars, n, window, 2);
}

} // namespace SP_CURVE_NS
