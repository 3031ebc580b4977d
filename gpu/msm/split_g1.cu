/* The split MSM in G1 (split.cuh). */
#include "split.cuh"

namespace SP_CURVE_NS {

extern "C" sp_status sp_cuda_msm_g1_split(sp_cuda *ctx, sp_g1_jac *out, const sp_g1_affine *bases,
                                          const sp_scalar *scalars, size_t n, unsigned window)
{
    /* the 64-bit products in the tree of ones, the Pippenger's own in the rest */
    return split_run<fp_tm<SP_MUL_WIDE>, sp_g1_xyzz>(ctx, out, bases, scalars, n, window, 0, NULL);
}

sp_status sp_cu_msm_g1_split_once(sp_cuda *ctx, sp_g1_jac *out, const sp_g1_affine *bases,
                                  const sp_scalar *scalars, size_t n, unsigned window, int *declined)
{
    return split_run<fp_tm<SP_MUL_WIDE>, sp_g1_xyzz>(ctx, out, bases, scalars, n, window, 1, declined);
}

} // namespace SP_CURVE_NS
