/* The batch-affine MSM in G1 (batch_affine.cuh): plain and over a table. */
#include "batch_affine.cuh"

namespace SP_CURVE_NS {

sp_status sp_cu_msm_g1_table(sp_cuda *ctx, sp_g1_jac *out, const sp_cu_table *t,
                             const sp_scalar *scalars)
{
    return b2_table_run<b2_fp, sp_g1_xyzz, sp_g1_jac, sp_g1_affine>(ctx, out, t, scalars, 1);
}

sp_status sp_cu_msm_g1_affine(sp_cuda *ctx, sp_g1_jac *out, const sp_g1_affine *bases,
                              const sp_scalar *scalars, size_t n, unsigned window)
{
    return b2_run<b2_fp, sp_g1_xyzz>(ctx, out, bases, scalars, n, window, 1);
}

} // namespace SP_CURVE_NS
