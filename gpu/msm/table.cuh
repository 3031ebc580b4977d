/*
 * Precomputed window tables of resident bases (sp_cuda.h,
 * sp_cuda_msm_table_add): what table.cu (the tables: build, registry,
 * sizes) shares with pippenger.cu (the dispatch), stream.cu (no chunking
 * over a table) and batch_affine.cu (the MSM over a table).
 */
#ifndef SP_GPU_MSM_TABLE_CUH
#define SP_GPU_MSM_TABLE_CUH

#include "pippenger.cuh"

namespace SP_CURVE_NS {

/* One kept table: row w (w < nwin) of q is [2^lay.off[w]] bases[0..n). */
struct sp_cu_table {
    int group;         /* 1 or 2 */
    const void *bases; /* the device bases it was made from */
    size_t n;
    unsigned c, nwin;  /* windows of at most c bits, nwin of them (sp_cu_msm_layout) */
    msm_windows lay;
    void *q;           /* nwin * n affine points */
    size_t bytes;
};

/* The table kept for exactly (group, bases, n) when sp_cuda_set_msm_table
 * allows its use, else NULL. */
const sp_cu_table *sp_cu_table_find(const sp_cuda *ctx, int group, const void *bases, size_t n);

/* Modelled cost of a table MSM of n points with windows of at most c bits
 * (pippenger.cu): the n W records plus the batch-affine weight per bucket of
 * its one set of buckets; sp_cuda_msm_table_window minimises it. */
double sp_cu_table_cost(size_t n, unsigned c);

/*
 * out = sum_i [scalars_i] bases_i over table t (batch_affine.cu): the scalars'
 * records in one set of buckets, summed by the batch-affine items in
 * groups of records as large as half of the free device memory allows
 * (at least n records, one row's worth, at a time; the few buckets a
 * group's bounds cut are finished on the host), one reduction.
 * On input: scalars (host or device) t->n canonical scalars. Returns as
 * sp_cuda_msm_g1/_g2 (SP_ERR_NOT_CANONICAL for a scalar >= r).
 */
sp_status sp_cu_msm_g1_table(sp_cuda *ctx, sp_g1_jac *out, const sp_cu_table *t,
                             const sp_scalar *scalars);
sp_status sp_cu_msm_g2_table(sp_cuda *ctx, sp_g2_jac *out, const sp_cu_table *t,
                             const sp_scalar *scalars);

} // namespace SP_CURVE_NS

#endif
