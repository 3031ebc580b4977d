/*
 * The split MSM for witness vectors (sp_cuda_msm_g1_split / _g2_split):
 * most witness values are 0 or 1, and those need no Pippenger.
 *
 *   1. partition: one CUB three-way partition over the indices 0..n-1
 *      classifies every scalar and compacts, in index order, the indices
 *      of "other" scalars (neither 0 nor 1) and of the scalars equal to 1;
 *      zeros are dropped. The two counts are read back (the Pippenger's
 *      window depends on how many scalars are left).
 *   2. ones: in G2 their bases summed as one bucket's batch-affine rounds
 *      (batch_affine.cuh, b2_sum_run) wherever a Pippenger over as many
 *      points would sum by rounds and the rounds fit (split.cuh,
 *      split_ones_rounds); else a thread per
 *      slice of the 1-indices adds its bases (affine into XYZZ), then two
 *      tree levels add the thread sums (a block per 128 sums, then one
 *      block), so the depth is ~n1/T + 14 additions.
 *   3. rest: the bases and scalars of the "other" indices are gathered
 *      into compact device arrays and go through the Pippenger of
 *      pippenger.cu, in as few pieces as the device memory holds
 *      (sp_cu_msm_fit: the partition's counts size them, not n).
 *      With fewer than n/8 scalars 0 or 1, steps 2 and 3 are skipped:
 *      the Pippenger runs over all n inputs as they are, in pieces too.
 *   4. host: Pippenger result + sum of the ones (one addition).
 * Scalars >= r count as "other", so the Pippenger reports them.
 *
 * Phase 1 is here; phases 2-4 are templates over the group's field in
 * split.cuh, instantiated for G1 in split_g1.cu and for G2 in split_g2.cu.
 */
#include <cub/device/device_partition.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include "split.cuh"

namespace SP_CURVE_NS {

/* ---- classification (scalars: 4 little-endian 64-bit limbs) ---- */

struct split_is_other {
    const ulonglong2 *s;
    __device__ __forceinline__ bool operator()(uint32_t i) const
    {
        ulonglong2 lo = s[2 * (size_t)i], hi = s[2 * (size_t)i + 1];
        return (lo.y | hi.x | hi.y) != 0 || lo.x > 1;
    }
};

struct split_is_one {
    const ulonglong2 *s;
    __device__ __forceinline__ bool operator()(uint32_t i) const
    {
        ulonglong2 lo = s[2 * (size_t)i], hi = s[2 * (size_t)i + 1];
        return (lo.y | hi.x | hi.y) == 0 && lo.x == 1;
    }
};

static size_t partition_tmp_bytes(uint32_t n)
{
    size_t tmp_bytes = 0;
    thrust::counting_iterator<uint32_t> in(0);
    split_is_other po = {NULL};
    split_is_one p1 = {NULL};
    if (cub::DevicePartition::If(NULL, tmp_bytes, in, (uint32_t *)NULL, (uint32_t *)NULL,
                                 thrust::make_discard_iterator(), (uint32_t *)NULL, n, po, p1) !=
        cudaSuccess)
        return (size_t)n; /* not sized: a byte a scalar bounds CUB's tile states */
    return tmp_bytes;
}

size_t sp_cu_split_partition_bytes(size_t n)
{
    return (2 * n + 2) * sizeof(uint32_t) + partition_tmp_bytes((uint32_t)n);
}

sp_status sp_cu_split_partition(sp_cuda *ctx, uint32_t **others, uint32_t **ones, uint32_t cnt[2],
                                const void *ds, uint32_t n)
{
    void *ix, *tmp;
    SP_TRY(sp_cu_scratch(ctx, SP_SCR_SPLIT_IDX, (2 * (size_t)n + 2) * sizeof(uint32_t), &ix));
    *others = (uint32_t *)ix;
    *ones = *others + n;
    uint32_t *dcnt = *ones + n;
    thrust::counting_iterator<uint32_t> in(0);
    split_is_other po = {(const ulonglong2 *)ds};
    split_is_one p1 = {(const ulonglong2 *)ds};
    size_t tmp_bytes = 0;
    SP_CU(ctx, cub::DevicePartition::If(NULL, tmp_bytes, in, *others, *ones,
                                        thrust::make_discard_iterator(), dcnt, n, po, p1,
                                        ctx->stream));
    SP_TRY(sp_cu_scratch(ctx, SP_SCR_SORT, tmp_bytes, &tmp));
    SP_CU(ctx, cub::DevicePartition::If(tmp, tmp_bytes, in, *others, *ones,
                                        thrust::make_discard_iterator(), dcnt, n, po, p1,
                                        ctx->stream));
    SP_CU(ctx, cudaMemcpyAsync(cnt, dcnt, 2 * sizeof(uint32_t), cudaMemcpyDeviceToHost,
                               ctx->stream));
    SP_CU(ctx, cudaStreamSynchronize(ctx->stream));
    return SP_OK;
}

} // namespace SP_CURVE_NS
