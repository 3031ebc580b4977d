/* The split MSM in G2 (split.cuh). */
#include "split.cuh"

namespace SP_CURVE_NS {

extern "C" sp_status sp_cuda_msm_g2_split(sp_cuda *ctx, sp_g2_jac *out, const sp_g2_affine *bases,
                                          const sp_scalar *scalars, size_t n, unsigned window)
{
    return split_run<fp2_tm<SP_MUL_WIDE>, sp_g2_xyzz>(ctx, out, bases, scalars, n, window, 0, NULL);
}

sp_status sp_cu_msm_g2_split_once(sp_cuda *ctx, sp_g2_jac *out, const sp_g2_affine *bases,
                                  const sp_scalar *scalars, size_t n, unsigned window, int *declined)
{
    return split_run<fp2_tm<SP_MUL_WIDE>, sp_g2_xyzz>(ctx, out, bases, scalars, n, window, 1, declined);
}

} // namespace SP_CURVE_NS
