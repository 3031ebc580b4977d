/* The MSM with the XYZZ accumulation in G1 (pippenger.cuh), even/odd
 * multiplication: the next point prefetched into L2 at 3 blocks per SM
 * (accumulate.cuh); its reduction is reduce_g1.cu's. */
#include "pippenger.cuh"
#include "accumulate.cuh"

namespace SP_CURVE_NS {

typedef fp_tm<SP_MUL_EO> fpe_t;

sp_status sp_cu_msm_g1_xyzz(sp_cuda *ctx, sp_g1_jac *out, const sp_g1_affine *bases,
                            const sp_scalar *scalars, size_t n, unsigned window)
{
    return msm_run<fpe_t, SP_MSM_V_L2_OCC, sp_g1_xyzz>(ctx, out, bases, scalars, n, window, 1);
}

} // namespace SP_CURVE_NS
