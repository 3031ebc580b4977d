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
 */
#include <cub/device/device_scan.cuh>
#include <string.h>
#include "batch_affine_kern.cuh"
#include "pippenger.cuh"
#include "accumulate.cuh"
#include "table.cuh"
#include "gpu/sp_cuda_backend.h"
#include "gpu/sp_cuda_tune.h"

/* ---- list bookkeeping ---- */

/* What b2_init counts for the host (B2_WORDS words): [0] the longest
 * list, [1 + r] the items of round r, [B2_WORD_SINK] a word the later
 * halvings' maxima go to (nobody reads them: the counts already say it
 * all). */
#define B2_MAX_ROUNDS 32 /* a list of < 2^31 records ends in 31 rounds */
#define B2_WORD_SINK (1 + B2_MAX_ROUNDS)
#define B2_WORDS (B2_WORD_SINK + 1)

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

/* Each bucket's single point, or infinity (0, 0), as its affine sum. */
template <class F>
__global__ void b2_final(affine_t<F> *buckets, b2_src<F> src, const uint32_t *len,
                         const uint32_t *beg, uint32_t nb)
{
    const uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= nb)
        return;
    affine_t<F> p;
    if (len[b]) {
        uint32_t neg;
        b2_load(p, b2_addr(src, beg[b], &neg), neg);
    } else {
        f_set_zero(p.x);
        f_set_zero(p.y);
    }
    buckets[b] = p;
}

/* A table MSM's group of records [r0, r1) (table.cuh), over buckets
 * boff .. boff + nb - 1 (list b is bucket boff + b): each bucket with
 * records in it gets its single point, written to buckets[boff + b] when
 * all the bucket's records are in the group, else (a bucket that the
 * group's bounds cut: only its first and last can be) to side[0] (the
 * bucket has records before r0) or side[1] (only after r1), its bucket in
 * sb[0] / sb[1]; the host adds those (b2_table_run). Empty buckets are
 * left alone: the array starts at infinity. Buckets are keys b + 1 (one
 * set for all windows). */
template <class F>
__global__ void b2_final_cut(affine_t<F> *buckets, affine_t<F> *side, uint32_t *sb, b2_src<F> src,
                             const uint32_t *len, const uint32_t *beg, const uint32_t *start,
                             const uint32_t *end, uint32_t boff, uint32_t nb, uint32_t r0, uint32_t r1)
{
    const uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= nb || !len[b])
        return;
    affine_t<F> p;
    uint32_t neg;
    b2_load(p, b2_addr(src, beg[b], &neg), neg);
    const uint32_t a = boff + b, s = start[a + 1], e = end[a + 1];
    if (s >= r0 && e <= r1) {
        buckets[a] = p;
        return;
    }
    const int k = s < r0 ? 0 : 1;
    side[k] = p;
    sb[k] = a;
}

/* ---- host ---- */

/* The device buffers of one group of windows (m records, nb buckets). A
 * round r reads the lists len[r % 3], beg[r % 3], its items' buckets
 * ibkt[r & 1] and its outputs' starts beg[(r + 1) % 3]; the next round's
 * lists are made meanwhile (b2_lists_make) into the other slots; the
 * per-thread and per-block products go to ex, bt, ibt. */
template <class F> struct b2_bufs {
    affine_t<F> *pts[2];
    uint32_t *ibkt[2];
    F *ex, *bt, *ibt;
    uint32_t *len[3], *beg[3];
    unsigned *word; /* B2_WORDS: b2_init's counts */
    void *cub;
    size_t cub_bytes;
};

/* With profiling on (sp_cuda_set_profile): the rounds' kernel times, ms
 * (lists: on their own stream; wall: from the first round's lists to the
 * last round's end). */
struct b2_prof {
    int on;
    unsigned rounds, groups;
    float lists, dens, top, apply, wall;
};

/* The profile text of the rounds (into buf, n bytes). */
static void b2_prof_text(char *buf, size_t n, const b2_prof &pf)
{
    snprintf(buf, n, "%u groups, %u rounds: wall %.1f ms (lists %.1f, dens %.1f top %.1f apply %.1f)",
             pf.groups, pf.rounds, pf.wall, pf.lists, pf.dens, pf.top, pf.apply);
}

static size_t b2_up(size_t b) { return (b + 255) & ~(size_t)255; }

/* Items per thread and threads (a multiple of B2_THREADS) for M items:
 * at least four times what the device holds at once (or
 * sp_cuda_set_ba_threads's count), when there is that much work, and at
 * most B2_MAX_ITEMS items per thread. */
static void b2_shape(const sp_cuda *ctx, size_t M, unsigned *S, size_t *T)
{
    const size_t want = ctx->ba_threads ? ctx->ba_threads : (size_t)ctx->sm_count * 2048;
    const size_t most = B2_MAX_ITEMS;
    size_t s = (M + want - 1) / want;
    if (s < 1)
        s = 1;
    if (s > most)
        s = most;
    size_t t = (M + s - 1) / s;
    t = (t + B2_THREADS - 1) / B2_THREADS * B2_THREADS;
    *S = (unsigned)s;
    *T = t ? t : B2_THREADS;
}

/* Carves the buffers for m records and nb buckets out of the SP_XSCR_BA_*
 * slots (grown as needed); with bytes != NULL only *bytes = the total. */
template <class F>
static sp_status b2_alloc(sp_cuda *ctx, b2_bufs<F> *B, size_t m, uint32_t nb, size_t *bytes)
{
    /* round 0 has at most cap0 items, round 1 at most cap1 (ceil(l / 4)
     * <= (l + 3) / 4), every later round fewer */
    const size_t cap0 = (m + nb) / 2 + 1, cap1 = (m + 3 * (size_t)nb) / 4 + 1;
    /* b2_shape's T for any count up to cap0 is at most the larger of
     * its two regimes' bounds */
    const size_t want = (size_t)ctx->sm_count * 2048;
    size_t T = (cap0 + B2_ITEMS_SIZED - 1) / B2_ITEMS_SIZED; /* more threads than b2_shape's */
    if (T < want)
        T = want;
    T = (T + B2_THREADS - 1) / B2_THREADS * B2_THREADS;
    const size_t blocks = T / B2_THREADS;
    size_t cub_bytes = 0;
    SP_CU(ctx, cub::DeviceScan::ExclusiveSum(NULL, cub_bytes, (uint32_t *)NULL, (uint32_t *)NULL,
                                             (int)nb, ctx->stream));
    const size_t small = 6 * b2_up((size_t)nb * 4) + b2_up(B2_WORDS * 4) + b2_up(cub_bytes) +
                         2 * b2_up(blocks * sizeof(F));
    const size_t bkt = (cap0 + cap1) * 4;
    if (bytes) {
        *bytes = (cap0 + cap1) * sizeof(affine_t<F>) + bkt + T * sizeof(F) + small;
        return SP_OK;
    }
    void *p;
    SP_TRY(sp_cu_xscratch(ctx, SP_XSCR_BA_PTS0, cap0 * sizeof(affine_t<F>), &p));
    B->pts[0] = (affine_t<F> *)p;
    SP_TRY(sp_cu_xscratch(ctx, SP_XSCR_BA_PTS1, cap1 * sizeof(affine_t<F>), &p));
    B->pts[1] = (affine_t<F> *)p;
    SP_TRY(sp_cu_xscratch(ctx, SP_XSCR_BA_BKT, bkt, &p));
    B->ibkt[0] = (uint32_t *)p;
    B->ibkt[1] = B->ibkt[0] + cap0;
    SP_TRY(sp_cu_xscratch(ctx, SP_XSCR_BA_PRE, T * sizeof(F), &p));
    B->ex = (F *)p;
    SP_TRY(sp_cu_xscratch(ctx, SP_XSCR_BA_SMALL, small, &p));
    char *c = (char *)p;
    for (int i = 0; i < 3; i++) {
        B->len[i] = (uint32_t *)c, c += b2_up((size_t)nb * 4);
        B->beg[i] = (uint32_t *)c, c += b2_up((size_t)nb * 4);
    }
    B->word = (unsigned *)c, c += b2_up(B2_WORDS * 4);
    B->cub = c, B->cub_bytes = cub_bytes, c += b2_up(cub_bytes);
    B->bt = (F *)c, c += b2_up(blocks * sizeof(F));
    B->ibt = (F *)c;
    return SP_OK;
}

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

/* Round r's lists from round r's lengths, on st: the next lengths
 * (halved) and their starts into slot (r + 1) % 3, each item's bucket
 * into ibkt[r & 1]. */
template <class F>
static sp_status b2_lists_make(sp_cuda *ctx, b2_bufs<F> *B, unsigned r, uint32_t nb, cudaStream_t st)
{
    uint32_t *nlen = B->len[(r + 1) % 3], *nbeg = B->beg[(r + 1) % 3], *ibkt = B->ibkt[r & 1];
    ba_halve<<<sp_cu_blocks(nb, 256), 256, 0, st>>>(nlen, B->len[r % 3], nb, B->word + B2_WORD_SINK);
    SP_CU_LAUNCHED(ctx, "ba_halve");
    SP_CU(ctx, cub::DeviceScan::ExclusiveSum(B->cub, B->cub_bytes, nlen, nbeg, (int)nb, st));
    b2_fill<<<sp_cu_blocks(nb, 256), 256, 0, st>>>(ibkt, nbeg, nlen, nb);
    SP_CU_LAUNCHED(ctx, "b2_fill");
    return SP_OK;
}

/* Round r over its M items, on ctx->stream: the denominators, the one
 * inversion (on b2_side[1]), the sums into B->pts[r & 1]. ev: NULL, or 4
 * events recorded before each kernel and after the last (profiling). */
template <class F, class D>
static sp_status b2_round(sp_cuda *ctx, b2_bufs<F> *B, const b2_src<F> &in, unsigned r, size_t M,
                          cudaEvent_t *ev)
{
    const cudaStream_t st = ctx->stream;
    if (M == 0) { /* no items: the timing events still mark the (empty) round */
        for (int k = 0; ev && k < 4; k++)
            SP_CU(ctx, cudaEventRecord(ev[k], st));
        return SP_OK;
    }
    unsigned S;
    size_t T;
    b2_shape(ctx, M, &S, &T);
    const unsigned blocks = (unsigned)(T / B2_THREADS);
    uint32_t *ibkt = B->ibkt[r & 1];
    affine_t<F> *out = B->pts[r & 1];
    const b2_lists L = {B->len[r % 3], B->beg[r % 3], B->beg[(r + 1) % 3], ibkt, 0, M, S};
    D *ex = (D *)B->ex, *bt = (D *)B->bt, *ibt = (D *)B->ibt;
    if (ev)
        SP_CU(ctx, cudaEventRecord(ev[0], st));
    b2_dens<F, D><<<blocks, B2_THREADS, 0, st>>>(in, L, out, ex, bt);
    SP_CU_LAUNCHED(ctx, "b2_dens");
    if (ev)
        SP_CU(ctx, cudaEventRecord(ev[1], st));
    const cudaStream_t ts = ctx->b2_side[1]; /* the inversion at top priority */
    SP_CU(ctx, cudaEventRecord(ctx->b2_ev[3], st));
    SP_CU(ctx, cudaStreamWaitEvent(ts, ctx->b2_ev[3], 0));
    const unsigned top = b2_top_threads<D>::N;
    ba_top<D, b2_top_threads<D>::N><<<1, top, (2 * top + 1) * sizeof(D), ts>>>(bt, ibt, blocks);
    SP_CU_LAUNCHED(ctx, "ba_top");
    SP_CU(ctx, cudaEventRecord(ctx->b2_ev[4], ts));
    SP_CU(ctx, cudaStreamWaitEvent(st, ctx->b2_ev[4], 0));
    if (ev)
        SP_CU(ctx, cudaEventRecord(ev[2], st));
    b2_apply<F, D><<<blocks, B2_THREADS, 0, st>>>(in, 0, M, S, out, ex, ibt);
    SP_CU_LAUNCHED(ctx, "b2_apply");
    if (ev)
        SP_CU(ctx, cudaEventRecord(ev[3], st));
    return SP_OK;
}

/* Timing events of a group's rounds (profiling only): per round, the
 * kernels' four (b2_round) and the lists' two; and the wall's two. A
 * handle is NULL until made. */
struct b2_times {
    cudaEvent_t ev[B2_MAX_ROUNDS][6], wall[2];
};

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

/* Makes the events of R rounds; on failure none is left. */
static sp_status b2_times_make(sp_cuda *ctx, b2_times *tm, unsigned R)
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

/* Adds the times of R rounds to pf (after the rounds have ended; add 0:
 * none) and frees the events. */
static void b2_times_done(b2_times *tm, unsigned R, b2_prof *pf, int add)
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

/* The R rounds of a group on ctx->stream (n[1 + r] items in round r).
 * The lists depend only on the lengths, so round r + 1's are made on
 * b2_side[0] while round r sums; they overwrite the slots that round
 * r - 1 read, so they wait for it. On output: the last round's sums are
 * in B->pts[(R - 1) & 1]. tm: NULL, or the timing events. */
template <class F, class D>
static sp_status b2_rounds(sp_cuda *ctx, b2_bufs<F> *B, b2_src<F> in, uint32_t nb, unsigned R,
                           const unsigned *n, b2_times *tm)
{
    const cudaStream_t ls = ctx->b2_side[0];
    cudaEvent_t *ev = ctx->b2_ev;
    const unsigned top = b2_top_threads<D>::N;
    SP_CU(ctx, cudaFuncSetAttribute(ba_top<D, b2_top_threads<D>::N>,
                                    cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    (int)((2 * top + 1) * sizeof(D))));
    auto lists = [&](unsigned r) -> sp_status { /* round r's lists, on ls */
        if (tm)
            SP_CU(ctx, cudaEventRecord(tm->ev[r][4], ls));
        SP_TRY(b2_lists_make<F>(ctx, B, r, nb, ls));
        if (tm)
            SP_CU(ctx, cudaEventRecord(tm->ev[r][5], ls));
        SP_CU(ctx, cudaEventRecord(ev[1], ls));
        return SP_OK;
    };
    if (tm)
        SP_CU(ctx, cudaEventRecord(tm->wall[0], ctx->stream));
    SP_CU(ctx, cudaEventRecord(ev[0], ctx->stream)); /* b2_init's lists, the records */
    SP_CU(ctx, cudaStreamWaitEvent(ls, ev[0], 0));
    SP_TRY(lists(0));
    for (unsigned r = 0; r < R; r++) {
        SP_CU(ctx, cudaStreamWaitEvent(ctx->stream, ev[1], 0)); /* round r's lists */
        if (r + 1 < R) {
            if (r > 0) /* round r - 1 summed */
                SP_CU(ctx, cudaStreamWaitEvent(ls, ev[2], 0));
            SP_TRY(lists(r + 1));
        }
        SP_TRY((b2_round<F, D>(ctx, B, in, r, n[1 + r], tm ? tm->ev[r] : NULL)));
        SP_CU(ctx, cudaEventRecord(ev[2], ctx->stream));
        in.pts = B->pts[r & 1];
    }
    if (tm)
        SP_CU(ctx, cudaEventRecord(tm->wall[1], ctx->stream));
    return SP_OK;
}

/* One group of the sorted records: records [r0, r1) of the buckets
 * boff .. boff + nb - 1 (pippenger.cuh's order); their sums (affine) go to
 * sums[b - boff]. A group of windows (the plain MSM) holds whole buckets;
 * a table MSM's group of records may hold part of one at either end. */
struct b2_part {
    size_t r0, r1;
    uint32_t boff, nb;
};

/* The sums of group g's buckets into sums. vals: all sorted records;
 * bases: the points the records name. side NULL: every bucket of the
 * group is whole (b2_final: empty ones become infinity); else a table
 * MSM's group, whose cut buckets go to side and sb (b2_final_cut). */
template <class F>
static sp_status b2_group(sp_cuda *ctx, affine_t<F> *sums, const affine_t<F> *bases,
                          const uint32_t *vals, const uint32_t *start, const uint32_t *end,
                          unsigned c, const b2_part &g, b2_prof *pf, affine_t<F> *side = NULL,
                          uint32_t *sb = NULL)
{
    pf->groups++;
    const size_t m = g.r1 - g.r0;
    const uint32_t nb = g.nb;
    b2_bufs<F> B;
    SP_TRY(b2_alloc<F>(ctx, &B, m, nb, NULL));
    SP_TRY(b2_side_init(ctx));
    SP_CU(ctx, cudaMemsetAsync(B.word, 0, B2_WORDS * 4, ctx->stream));
    b2_init<<<sp_cu_blocks(nb, 256), 256, 0, ctx->stream>>>(B.len[0], B.beg[0], start, end, nb, c, g.boff,
                                                            (uint32_t)g.r0, (uint32_t)g.r1, B.word);
    SP_CU_LAUNCHED(ctx, "b2_init");
    unsigned n[B2_WORDS];
    SP_CU(ctx, cudaMemcpyAsync(n, B.word, sizeof n, cudaMemcpyDeviceToHost, ctx->stream));
    SP_CU(ctx, cudaStreamSynchronize(ctx->stream));
    unsigned R = 0; /* rounds: until every list holds one point at most */
    while (R < 31 && (1u << R) < n[0])
        R++;
    b2_src<F> in = {NULL, bases, vals + g.r0};
    if (R > 0) {
        b2_times tm, *tp = NULL;
        if (pf->on) {
            SP_TRY(b2_times_make(ctx, &tm, R));
            tp = &tm;
        }
        const sp_status st = b2_rounds<F, typename b2_half<F>::type>(ctx, &B, in, nb, R, n, tp);
        if (st != SP_OK || tp) { /* nothing may still run on the side streams */
            for (int i = 0; i < SP_B2_STREAMS; i++)
                cudaStreamSynchronize(ctx->b2_side[i]);
            cudaStreamSynchronize(ctx->stream);
        }
        if (tp)
            b2_times_done(tp, R, pf, st == SP_OK);
        SP_TRY(st);
        pf->rounds += R;
        in.pts = B.pts[(R - 1) & 1];
    }
    if (side) {
        b2_final_cut<F><<<sp_cu_blocks(nb, 256), 256, 0, ctx->stream>>>(
            sums, side, sb, in, B.len[R % 3], B.beg[R % 3], start, end, g.boff, nb, (uint32_t)g.r0,
            (uint32_t)g.r1);
        SP_CU_LAUNCHED(ctx, "b2_final_cut");
        return SP_OK;
    }
    b2_final<F><<<sp_cu_blocks(nb, 256), 256, 0, ctx->stream>>>(sums, in, B.len[R % 3], B.beg[R % 3], nb);
    SP_CU_LAUNCHED(ctx, "b2_final");
    return SP_OK;
}

/* The sums of the sorted records s in ngroups groups (part_of(i): group
 * i's records and buckets) into the bucket array s.bk, the points they
 * name in pts; side NULL: groups of whole windows (the plain MSM), else a
 * table MSM's groups of records, whose cut buckets go to side[2i..] and
 * sb[2i..]. Then the buckets' reduction over s.nwin windows. */
template <class F, class P>
static sp_status b2_sum_reduce(sp_cuda *ctx, msm_sorted &s, const affine_t<F> *pts,
                               unsigned ngroups, P part_of, affine_t<F> *side, uint32_t *sb,
                               b2_prof *pf)
{
    memset(pf, 0, sizeof *pf);
    pf->on = ctx->profile;
    affine_t<F> *bk = (affine_t<F> *)s.bk;
    for (unsigned i = 0; i < ngroups; i++) {
        const b2_part part = part_of(i);
        SP_TRY(b2_group<F>(ctx, side ? bk : bk + part.boff, pts, s.vals, s.start, s.end, s.c, part, pf,
                           side ? side + 2 * i : NULL, side ? sb + 2 * i : NULL));
    }
    SP_TRY(sp_cu_msm_mark(ctx, 2));
    typedef typename b2_reduce_field<F>::type RF; /* same layout as F */
    SP_TRY(msm_reduce_split<RF>(ctx, msm_window_sums<RF>(s), (const affine_t<RF> *)bk, s.c, s.nwin,
                                &s.join));
    return sp_cu_msm_mark(ctx, 4);
}

/* What the rounds may take: half of the free device memory plus the BA
 * scratch already held (0 when the memory cannot be read). */
static size_t b2_avail(sp_cuda *ctx)
{
    size_t free_b = 0, total = 0, held = 0;
    if (sp_cuda_mem_info(ctx, &free_b, &total) != SP_OK)
        return 0;
    for (int i = SP_XSCR_BA_PTS0; i <= SP_XSCR_BA_SMALL; i++)
        held += ctx->xscr_cap[i];
    return (free_b + held) / 2;
}

/* Windows per group: as many as fit in half of the free device memory
 * (plus the BA scratch already held: it is kept for the next call, like
 * all scratch, so it must leave room for what else the process
 * allocates), with fewer than 2^31 records; 0 when not even one window
 * does. */
template <class F>
static unsigned b2_group_windows(sp_cuda *ctx, size_t n, unsigned c, unsigned nwin)
{
    const size_t avail = b2_avail(ctx);
    size_t one = 0;
    if (avail == 0)
        return 0;
    unsigned g = ctx->ba_max_group && ctx->ba_max_group < nwin ? ctx->ba_max_group : nwin;
    while (g > 1 && (size_t)g * n >= ((size_t)1 << 31))
        g--;
    b2_bufs<F> B;
    for (; g >= 1; g--) {
        if (b2_alloc<F>(ctx, &B, (size_t)g * n, g << (c - 1), &one) != SP_OK)
            return 0;
        if (one <= avail)
            return g;
    }
    return 0;
}

template <class F, class HX, class HJ, class HA>
static sp_status b2_run(sp_cuda *ctx, HJ *out, const HA *bases, const sp_scalar *scalars, size_t n,
                        unsigned window, int group)
{
    SP_TRY(msm_check_args(n, window));
    if (n == 0) {
        memset(out, 0, sizeof *out);
        return SP_OK;
    }
    msm_sorted s;
    SP_TRY(msm_sort_phase(ctx, &s, bases, scalars, n, window, 1, sizeof(affine_t<F>)));
    const unsigned c = s.c, nwin = s.nwin;
    const unsigned g = b2_group_windows<F>(ctx, n, c, nwin);
    if (g == 0) { /* not even one window's rounds fit: the XYZZ accumulation, from the start */
        if (group == 1)
            return sp_cu_msm_g1_xyzz(ctx, (sp_g1_jac *)out, (const sp_g1_affine *)bases, scalars,
                                     n, window);
        return sp_cu_msm_g2_xyzz(ctx, (sp_g2_jac *)out, (const sp_g2_affine *)bases, scalars, n,
                                 window);
    }
    b2_prof pf;
    auto part_of = [&](unsigned i) { /* windows [i g, i g + g) */
        const unsigned w0 = i * g, w1 = w0 + g < nwin ? w0 + g : nwin;
        return b2_part{(size_t)w0 * n, (size_t)w1 * n, w0 << (c - 1), (w1 - w0) << (c - 1)};
    };
    SP_TRY(b2_sum_reduce<F>(ctx, s, (const affine_t<F> *)s.db, (nwin + g - 1) / g, part_of, NULL, NULL,
                            &pf));
    char rounds[160], more[220];
    b2_prof_text(rounds, sizeof rounds, pf);
    snprintf(more, sizeof more, "; batch-affine: %s", rounds);
    return msm_finish<HX>(ctx, out, s, group, n, pf.on ? more : NULL);
}

/* ---- over a precomputed table (table.cuh) ---- */

/* Records per group of a table MSM of m = W n records: as many as fit in
 * half of the free device memory plus the BA scratch held (as
 * b2_group_windows), in equal groups; at most ba_max_group rows' worth
 * (n records a row) when that test knob is set; 0 when not even n fit. */
template <class F>
static size_t b2_table_per_group(sp_cuda *ctx, size_t n, size_t m, unsigned c)
{
    const size_t avail = b2_avail(ctx), nb = (size_t)1 << (c - 1);
    size_t one = 0;
    if (avail == 0)
        return 0;
    const size_t cap = ctx->ba_max_group && ctx->ba_max_group * n < m ? ctx->ba_max_group * n : m;
    b2_bufs<F> B;
    for (size_t g = (m + cap - 1) / cap;; g++) {
        const size_t per = (m + g - 1) / g;
        if (b2_alloc<F>(ctx, &B, per, (uint32_t)nb, &one) != SP_OK)
            return 0;
        if (one <= avail)
            return per;
        if (per <= n)
            return 0;
    }
}

/* r += [k] p on the host: a cut bucket's part (k its digit). */
static void b2_side_add(sp_g1_jac *r, const sp_g1_affine *p, uint64_t k)
{
    sp_g1_jac t;
    sp_g1_jac_from_affine(&t, p);
    sp_g1_mul_var(&t, &t, &k, 1);
    sp_g1_jac_add_var(r, r, &t);
}

static void b2_side_add(sp_g2_jac *r, const sp_g2_affine *p, uint64_t k)
{
    sp_g2_jac t;
    sp_g2_jac_from_affine(&t, p);
    sp_g2_mul_var(&t, &t, &k, 1);
    sp_g2_jac_add_var(r, r, &t);
}

/* Most groups of records a table run takes (b2_table_per_group gives at
 * least n records, a row's worth, to a group): the side slots. */
#define B2_TABLE_MAX_GROUPS SP_MSM_MAX_WIN

/* parts[g] = group g of a table run: records [g per, (g + 1) per) of the
 * m sorted ones (the last group up to m), over the buckets between its
 * first and last records' keys only (sorted: a third of them in 3 groups,
 * whose rounds then scan a third of the lists); two keys read back a
 * group. Keys 1 .. nb are buckets 0 .. nb - 1; key 0, a zero digit. */
static sp_status b2_table_parts(sp_cuda *ctx, b2_part *parts, const uint32_t *keys, size_t m,
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

/* The records of every window in one set of buckets (sp_cu_msm_sort,
 * shared), their sums in groups of records into one bucket array, except
 * the buckets that a group's bounds cut (at most two per group), whose
 * parts go to side slots that the host adds at the end ([digit] part, a
 * few small multiplications); one reduction; the window sums' machinery
 * (msm_finish) sees one window covering all 256 bits, so no doublings.
 * When not even one row's records fit, the plain call over the table's
 * bases. */
template <class F, class HX, class HJ, class HA>
static sp_status b2_table_run(sp_cuda *ctx, HJ *out, const sp_cu_table *t,
                              const sp_scalar *scalars, int group)
{
    const size_t n = t->n, m = (size_t)t->nwin * n;
    const unsigned c = t->c;
    const uint32_t nb = 1u << (c - 1);
    msm_sorted s;
    memset(&s, 0, sizeof s);
    s.c = c;
    s.nwin = 1;
    s.lay.off[1] = 256;
    s.log_l = sp_cu_msm_log_seg(c, 1);
    const void *ds;
    SP_TRY(sp_cu_device_view(ctx, SP_SCR_SCALARS, scalars, n * sizeof(sp_scalar), &ds));
    SP_TRY(sp_cu_scratch(ctx, SP_SCR_SMALL, SP_SMALL_BYTES, &s.small));
    SP_TRY(sp_cu_msm_mark(ctx, 0));
    SP_TRY(sp_cu_msm_sort(ctx, (const uint64_t *)ds, (uint32_t)n, c, t->nwin, &t->lay, 1, &s.keys,
                          &s.vals, &s.start, &s.end, &s.bad));
    SP_TRY(sp_cu_msm_mark(ctx, 1));
    const size_t per = b2_table_per_group<F>(ctx, n, m, c);
    if (per == 0) {
        SP_CU(ctx, cudaStreamSynchronize(ctx->stream)); /* s.bad is being read back */
        if (group == 1)
            return sp_cu_msm_g1_affine(ctx, (sp_g1_jac *)out, (const sp_g1_affine *)t->bases,
                                       scalars, n, 0);
        return sp_cu_msm_g2_affine(ctx, (sp_g2_jac *)out, (const sp_g2_affine *)t->bases, scalars,
                                   n, 0);
    }
    const unsigned ng = (unsigned)((m + per - 1) / per);
    if (ng > B2_TABLE_MAX_GROUPS) /* cannot happen: per >= n and m = W n */
        return SP_ERR_INVALID_ARG;
    static_assert(sizeof(HA) == sizeof(affine_t<F>), "affine layout");
    const size_t bbytes = (size_t)nb * sizeof(HA), sbytes = 2 * ng * sizeof(HA);
    SP_TRY(sp_cu_scratch(ctx, SP_SCR_BUCKETS, bbytes + sbytes + 2 * ng * 4, &s.bk));
    affine_t<F> *bk = (affine_t<F> *)s.bk, *side = bk + nb;
    uint32_t *sb = (uint32_t *)(side + 2 * ng);
    SP_CU(ctx, cudaMemsetAsync(bk, 0, bbytes, ctx->stream)); /* infinity is (0, 0) */
    SP_CU(ctx, cudaMemsetAsync(sb, 0xff, 2 * ng * 4, ctx->stream));
    b2_part parts[B2_TABLE_MAX_GROUPS];
    SP_TRY(b2_table_parts(ctx, parts, s.keys, m, per, ng));
    auto part_of = [&](unsigned g) { return parts[g]; };
    b2_prof pf;
    SP_TRY(b2_sum_reduce<F>(ctx, s, (const affine_t<F> *)t->q, ng, part_of, side, sb, &pf));
    HA hside[2 * B2_TABLE_MAX_GROUPS];
    uint32_t hsb[2 * B2_TABLE_MAX_GROUPS];
    SP_CU(ctx, cudaMemcpyAsync(hside, side, sbytes, cudaMemcpyDeviceToHost, ctx->stream));
    SP_CU(ctx, cudaMemcpyAsync(hsb, sb, 2 * ng * 4, cudaMemcpyDeviceToHost, ctx->stream));
    char rounds[160], more[260];
    b2_prof_text(rounds, sizeof rounds, pf);
    snprintf(more, sizeof more, "; table of %u windows in one set of buckets, groups of records: %s",
             t->nwin, rounds);
    SP_TRY(msm_finish<HX>(ctx, out, s, group, n, pf.on ? more : NULL)); /* synchronizes */
    for (unsigned j = 0; j < 2 * ng; j++)
        if (hsb[j] != 0xffffffffu)
            b2_side_add(out, &hside[j], (uint64_t)hsb[j] + 1);
    return SP_OK;
}

sp_status sp_cu_msm_g1_table(sp_cuda *ctx, sp_g1_jac *out, const sp_cu_table *t,
                             const sp_scalar *scalars)
{
    return b2_table_run<b2_fp, sp_g1_xyzz, sp_g1_jac, sp_g1_affine>(ctx, out, t, scalars, 1);
}

sp_status sp_cu_msm_g2_table(sp_cuda *ctx, sp_g2_jac *out, const sp_cu_table *t,
                             const sp_scalar *scalars)
{
    return b2_table_run<b2_fp2s, sp_g2_xyzz, sp_g2_jac, sp_g2_affine>(ctx, out, t, scalars, 2);
}

sp_status sp_cu_msm_g1_affine(sp_cuda *ctx, sp_g1_jac *out, const sp_g1_affine *bases,
                              const sp_scalar *scalars, size_t n, unsigned window)
{
    return b2_run<b2_fp, sp_g1_xyzz>(ctx, out, bases, scalars, n, window, 1);
}

sp_status sp_cu_msm_g2_affine(sp_cuda *ctx, sp_g2_jac *out, const sp_g2_affine *bases,
                              const sp_scalar *scalars, size_t n, unsigned window)
{
    return b2_run<b2_fp2s, sp_g2_xyzz>(ctx, out, bases, scalars, n, window, 2);
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
