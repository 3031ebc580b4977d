/*
 * Batch-affine bucket accumulation, for G1 and G2 (from
 * SP_CUDA_MSM_BATCH_AFFINE_MIN points, and over every precomputed table):
 * phase 4 of pippenger.cu in affine coordinates; phases 1-3 (digits,
 * sort, ranges) and 5-6 (reduction, window combination) are
 * pippenger.cu's and pippenger.cuh's.
 *
 * Why: an affine addition sharing its inversion with many others costs
 * 6 multiplications (3 for Montgomery's trick, lambda, lambda^2, y3) where
 * the XYZZ mixed addition costs 10, and accumulation is most of a large
 * MSM. The inversion must be shared by very many additions, so the batch
 * is a whole round over all buckets of a group of windows, and the work
 * of a round is cut into items, one per pair:
 *
 *   round: every bucket's list (its sorted records in round 0, the points
 *   the previous round made after that) is halved: item j of bucket b adds
 *   elements 2j and 2j+1 of its list (or copies an odd last one) into
 *   element j of its next list. The items of a round are numbered in bucket
 *   order, so item i's output is element i of the next list array, and
 *   b2_fill writes every item's bucket.
 *     b2_dens   a thread takes S items t, t + T, t + 2T, ... (consecutive
 *               items in consecutive lanes: coalesced); for each pair it
 *               reads the two x coordinates only, and stores in its output
 *               slot the product of its earlier denominators (slot bytes
 *               0..|F|) and the item's element index and class (the next
 *               16 bytes: the same sectors), so b2_apply reads one slot
 *               instead of chasing the bucket again; then the block's
 *               product of the threads' products (a scan in shared memory);
 *     ba_top    (affine_sum.cuh) one block: one inversion for the whole round;
 *     b2_apply  each thread: 1 / (its product), then its items backwards
 *               (Montgomery's trick) into affine sums, written over the
 *               slots.
 *   Rounds repeat until every list holds at most one point (log2 of the
 *   fullest bucket: ~6 for random scalars), the bucket's affine sum; the
 *   reduction then sums the buckets by rows and columns with mixed
 *   additions (pippenger.cuh, msm_reduce_split).
 *
 * Special cases inside a pair (public data, branches): infinity (bases at
 * (0, 0), sums P + (-P)) is copied through; equal points double; P and -P
 * give infinity; none of these puts a denominator into the batch, so the
 * round's product is never 0.
 *
 * Memory: the two list arrays (half and a quarter of the group's records,
 * plus one per bucket), the item buckets and the per-thread products:
 * ~75 bytes per record of the group in G1, ~150 in G2. Windows are taken in
 * groups as large as half of the free device memory allows; when not even
 * one window fits, the call runs the XYZZ accumulation instead.
 *
 * Over a precomputed table (table.cuh, b2_table_run) the same rounds
 * sum the records of all windows in one set of buckets, reading the
 * table's points; the groups are then ranges of records (a range may cut
 * a bucket at either end: those parts are finished on the host).
 *
 * Files: the round kernels in batch_affine_kern.cuh, the host side as
 * templates over the field in batch_affine.cuh, instantiated for G1 in
 * batch_affine_g1.cu and for G2 in batch_affine_g2.cu (the two heaviest
 * compilations of the MSM, side by side); this file holds what no field
 * enters.
 */
#include <cub/device/device_scan.cuh>
#include <string.h>
#include "batch_affine.cuh"
#include "gpu/sp_cuda_tune.h"

namespace SP_CURVE_NS {

/* ---- list bookkeeping ---- */

/* Round 0's lists: the records of each bucket of the group that lie in
 * the group's records [r0, r1) (a table MSM's group may cut a bucket);
 * and the counts above: round r has ceil(l / 2^(r + 1)) items for a list
 * of l records. Blocks of 256 threads; word zeroed beforehand. */
__global__ void __launch_bounds__(256) b2_init(uint32_t *len, uint32_t *beg, const uint32_t *start,
                                               const uint32_t *end, uint32_t nb, unsigned c,
                                               uint32_t boff, uint32_t r0, uint32_t r1,
                                               unsigned *word)
{
    __shared__ unsigned cnt[B2_MAX_ROUNDS];
    if (threadIdx.x < B2_MAX_ROUNDS)
        cnt[threadIdx.x] = 0;
    __syncthreads();
    const uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t l = 0;
    if (b < nb) {
        const uint32_t g = boff + b, lk = c - 1;
        const uint32_t key = ((g >> lk) << c) | ((g & ((1u << lk) - 1)) + 1);
        const uint32_t s = max(start[key], r0), e = min(end[key], r1);
        l = e > s ? e - s : 0;
        len[b] = l;
        beg[b] = l ? s - r0 : 0;
    }
    const uint32_t lmax = __reduce_max_sync(0xffffffffu, l);
    if ((threadIdx.x & 31) == 0 && lmax > 1)
        atomicMax(word, lmax);
    for (int r = 0; r < B2_MAX_ROUNDS; r++) {
        const uint32_t items = (uint32_t)(((uint64_t)l + (2ull << r) - 1) >> (r + 1));
        const unsigned v = __reduce_add_sync(0xffffffffu, items);
        if ((threadIdx.x & 31) == 0 && v)
            atomicAdd(&cnt[r], v);
    }
    __syncthreads();
    const unsigned v = threadIdx.x < B2_MAX_ROUNDS ? cnt[threadIdx.x] : 0;
    if (v)
        atomicAdd(&word[1 + threadIdx.x], v);
}

/* nlen = ceil(len / 2); *maxlen = the largest. */
static __global__ void ba_halve(uint32_t *nlen, const uint32_t *len, uint32_t nb, unsigned *maxlen)
{
    const uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t l = 0;
    if (b < nb) {
        l = (len[b] + 1) / 2;
        nlen[b] = l;
    }
    l = __reduce_max_sync(0xffffffffu, l); /* one atomic per warp */
    if ((threadIdx.x & 31) == 0 && l > 1)
        atomicMax(maxlen, l);
}

/* Every item of each bucket's next list gets its bucket: a warp walks its
 * 32 buckets in turn, writing each list's run with all lanes. */
__global__ void b2_fill(uint32_t *ibkt, const uint32_t *nbeg, const uint32_t *nlen, uint32_t nb)
{
    const uint32_t b = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
    uint32_t s = 0, l = 0;
    if (b < nb)
        s = nbeg[b], l = nlen[b];
    for (int k = 0; k < 32; k++) {
        const uint32_t sk = __shfl_sync(0xffffffffu, s, k), lk = __shfl_sync(0xffffffffu, l, k);
        for (uint32_t j = lane; j < lk; j += 32)
            ibkt[sk + j] = (b & ~31u) + k;
    }
}

/* ---- host: what no field enters ---- */

/* The rounds' side streams (made on first use, kept with the context):
 * b2_side[0] makes the lists beside the rounds; b2_side[1] runs the
 * single-block inversions at the highest priority, so that the block
 * scheduler starts one as soon as a slot frees. b2_ev: [0] the group's
 * start, [1] a round's lists made, [2] a round summed, [3] its
 * denominators made, [4] its inversion made. */
static sp_status b2_side_init(sp_cuda *ctx)
{
    if (ctx->b2_ready)
        return SP_OK;
    int least = 0, most = 0;
    SP_CU(ctx, cudaDeviceGetStreamPriorityRange(&least, &most));
    int streams = 0, events = 0;
    cudaError_t e = cudaSuccess;
    while (e == cudaSuccess && streams < SP_B2_STREAMS) {
        e = cudaStreamCreateWithPriority(&ctx->b2_side[streams], cudaStreamNonBlocking,
                                         streams >= 1 ? most : least);
        streams += e == cudaSuccess;
    }
    while (e == cudaSuccess && events < SP_B2_EVENTS) {
        e = cudaEventCreateWithFlags(&ctx->b2_ev[events], cudaEventDisableTiming);
        events += e == cudaSuccess;
    }
    if (e != cudaSuccess) {
        while (events > 0)
            cudaEventDestroy(ctx->b2_ev[--events]);
        while (streams > 0)
            cudaStreamDestroy(ctx->b2_side[--streams]);
        sp_cu_record(ctx, "the rounds' streams and events", __FILE__, __LINE__, e);
        return SP_ERR_GPU;
    }
    ctx->b2_ready = 1;
    return SP_OK;
}

void sp_cu_b2_release(sp_cuda *ctx)
{
    if (!ctx->b2_ready)
        return;
    for (int i = 0; i < SP_B2_STREAMS; i++)
        cudaStreamSynchronize(ctx->b2_side[i]);
    for (int i = 0; i < SP_B2_EVENTS; i++)
        cudaEventDestroy(ctx->b2_ev[i]);
    for (int i = 0; i < SP_B2_STREAMS; i++)
        cudaStreamDestroy(ctx->b2_side[i]);
    ctx->b2_ready = 0;
}

sp_status sp_cu_b2_scan_bytes(sp_cuda *ctx, uint32_t nb, size_t *bytes)
{
    *bytes = 0;
    SP_CU(ctx, cub::DeviceScan::ExclusiveSum(NULL, *bytes, (uint32_t *)NULL, (uint32_t *)NULL,
                                             (int)nb, ctx->stream));
    return SP_OK;
}

sp_status sp_cu_b2_lists_init(sp_cuda *ctx, b2_lbufs *B, const uint32_t *start, const uint32_t *end,
                              unsigned c, const b2_part &g, unsigned n[B2_WORDS])
{
    const uint32_t nb = g.nb;
    SP_TRY(b2_side_init(ctx));
    SP_CU(ctx, cudaMemsetAsync(B->word, 0, B2_WORDS * 4, ctx->stream));
    b2_init<<<sp_cu_blocks(nb, 256), 256, 0, ctx->stream>>>(B->len[0], B->beg[0], start, end, nb, c, g.boff,
                                                            (uint32_t)g.r0, (uint32_t)g.r1, B->word);
    SP_CU_LAUNCHED(ctx, "b2_init");
    SP_CU(ctx, cudaMemcpyAsync(n, B->word, B2_WORDS * sizeof *n, cudaMemcpyDeviceToHost, ctx->stream));
    SP_CU(ctx, cudaStreamSynchronize(ctx->stream));
    return SP_OK;
}

sp_status sp_cu_b2_lists_make(sp_cuda *ctx, b2_lbufs *B, unsigned r, uint32_t nb, cudaStream_t st)
{
    uint32_t *nlen = B->len[(r + 1) % 3], *nbeg = B->beg[(r + 1) % 3], *ibkt = B->ibkt[r & 1];
    ba_halve<<<sp_cu_blocks(nb, 256), 256, 0, st>>>(nlen, B->len[r % 3], nb, B->word + B2_WORD_SINK);
    SP_CU_LAUNCHED(ctx, "ba_halve");
    SP_CU(ctx, cub::DeviceScan::ExclusiveSum(B->cub, B->cub_bytes, nlen, nbeg, (int)nb, st));
    if (nb > 1) {
        b2_fill<<<sp_cu_blocks(nb, 256), 256, 0, st>>>(ibkt, nbeg, nlen, nb);
        SP_CU_LAUNCHED(ctx, "b2_fill");
    }
    return SP_OK;
}

/* Destroys the events made. */
static void b2_times_free(b2_times *tm)
{
    for (int r = 0; r < B2_MAX_ROUNDS; r++)
        for (int k = 0; k < 6; k++)
            if (tm->ev[r][k])
                cudaEventDestroy(tm->ev[r][k]);
    for (int k = 0; k < 2; k++)
        if (tm->wall[k])
            cudaEventDestroy(tm->wall[k]);
    memset(tm, 0, sizeof *tm);
}

sp_status sp_cu_b2_times_make(sp_cuda *ctx, b2_times *tm, unsigned R)
{
    memset(tm, 0, sizeof *tm);
    cudaError_t e = cudaSuccess;
    for (int k = 0; e == cudaSuccess && k < 2; k++)
        e = cudaEventCreate(&tm->wall[k]);
    for (unsigned r = 0; e == cudaSuccess && r < R; r++)
        for (int k = 0; e == cudaSuccess && k < 6; k++)
            e = cudaEventCreate(&tm->ev[r][k]);
    if (e != cudaSuccess) {
        b2_times_free(tm);
        sp_cu_record(ctx, "cudaEventCreate (the rounds' profile)", __FILE__, __LINE__, e);
        return SP_ERR_GPU;
    }
    return SP_OK;
}

void sp_cu_b2_times_done(b2_times *tm, unsigned R, b2_prof *pf, int add)
{
    float ms;
    float *to[4] = {&pf->dens, &pf->top, &pf->apply, &pf->lists};
    const int from[4][2] = {{0, 1}, {1, 2}, {2, 3}, {4, 5}};
    for (unsigned r = 0; add && r < R; r++)
        for (int k = 0; k < 4; k++)
            if (cudaEventElapsedTime(&ms, tm->ev[r][from[k][0]], tm->ev[r][from[k][1]]) == cudaSuccess)
                *to[k] += ms;
    if (add && cudaEventElapsedTime(&ms, tm->wall[0], tm->wall[1]) == cudaSuccess)
        pf->wall += ms;
    b2_times_free(tm);
    cudaGetLastError(); /* a failure here costs the profile a figure, not the call */
}

size_t sp_cu_b2_avail(sp_cuda *ctx)
{
    size_t free_b = 0, total = 0, held = 0;
    if (sp_cuda_mem_info(ctx, &free_b, &total) != SP_OK)
        return 0;
    for (int i = SP_XSCR_BA_PTS0; i <= SP_XSCR_BA_SMALL; i++)
        held += ctx->xscr_cap[i];
    return (free_b + held) / 2;
}

sp_status sp_cu_b2_table_parts(sp_cuda *ctx, b2_part *parts, const uint32_t *keys, size_t m,
                               size_t per, unsigned ng)
{
    uint32_t kb[2 * B2_TABLE_MAX_GROUPS];
    for (unsigned g = 0; g < ng; g++) {
        parts[g].r0 = g * per;
        parts[g].r1 = (g + 1) * per < m ? (g + 1) * per : m;
        SP_CU(ctx, cudaMemcpyAsync(&kb[2 * g], keys + parts[g].r0, 4, cudaMemcpyDeviceToHost,
                                   ctx->stream));
        SP_CU(ctx, cudaMemcpyAsync(&kb[2 * g + 1], keys + parts[g].r1 - 1, 4,
                                   cudaMemcpyDeviceToHost, ctx->stream));
    }
    SP_CU(ctx, cudaStreamSynchronize(ctx->stream));
    for (unsigned g = 0; g < ng; g++) {
        const uint32_t lo = kb[2 * g] ? kb[2 * g] - 1 : 0, hi = kb[2 * g + 1] ? kb[2 * g + 1] - 1 : 0;
        parts[g].boff = lo;
        parts[g].nb = hi - lo + 1;
    }
    return SP_OK;
}

extern "C" unsigned sp_cuda_set_msm_ba_group(sp_cuda *ctx, unsigned windows)
{
    unsigned old = ctx->ba_max_group;
    ctx->ba_max_group = windows;
    return old;
}

extern "C" unsigned sp_cuda_set_ba_threads(sp_cuda *ctx, unsigned threads)
{
    unsigned old = ctx->ba_threads;
    ctx->ba_threads = threads;
    return old;
}

} // namespace SP_CURVE_NS
