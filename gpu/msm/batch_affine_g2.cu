/* The batch-affine MSM in G2 (batch_affine.cuh): plain, over a table, and one
 * bucket's sum (the split MSM's ones). */
#include "batch_affine.cuh"

namespace SP_CURVE_NS {

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

sp_status sp_cu_sum_g2_affine(sp_cuda *ctx, sp_g2_affine *sum, const sp_g2_affine *bases,
                              const uint32_t *idx, size_t m, uint32_t *se, char *prof, size_t prof_n)
{
    typedef affine_t<b2_fp2s> A;
    return b2_sum_run<b2_fp2s>(ctx, (A *)sum, (const A *)bases, idx, m, se, prof, prof_n);
}

size_t sp_cu_sum_g2_bytes(const sp_cuda *ctx, size_t m)
{
    b2_bufs<b2_fp2s> B;
    size_t bytes = 0;
    /* with a size wanted b2_alloc only reads ctx (and asks CUB for its scan's size) */
    if (b2_alloc<b2_fp2s>((sp_cuda *)ctx, &B, m, 1, &bytes) != SP_OK)
        return 0;
    return bytes;
}

} // namespace SP_CURVE_NS
