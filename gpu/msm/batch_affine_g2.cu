/* The batch-affine MSM in G2 (batch_affine.cuh): plain and over a table. */
#include "batch_affine.cuh"

sp_status sp_cu_msm_g2_table(sp_cuda *ctx, sp_g2_jac *out, const sp_cu_table *t,
                             const sp_scalar *scalars)
{
    return b2_table_run<b2_fp2s, sp_g2_xyzz, sp_g2_jac, sp_g2_affine>(ctx, out, t, scalars, 2);
}

sp_status sp_cu_msm_g2_affine(sp_cuda *ctx, sp_g2_jac *out, const sp_g2_affine *bases,
                              const sp_scalar *scalars, size_t n, unsigned window)
{
    return b2_run<b2_fp2s, sp_g2_xyzz>(ctx, out, bases, scalars, n, window, 2);
}
