/*
 * Batch-affine bucket accumulation for the G1 MSM (sp_cuda_set_msm_acc(ctx,
 * 1), even/odd multiplication): phase 4 of msm.cu done in affine
 * coordinates; phases 1-3 (digits, sort, ranges) and 5-6 (reduction,
 * window combination) are msm.cu's and msm_kern.cuh's.
 *
 * Why: an affine addition costs 1 inversion + 2M + 1S, and n inversions
 * cost 1 inversion + 3(n-1)M by Montgomery's trick, so a batch of
 * additions costs ~6 multiplications each where the XYZZ mixed addition
 * of msm_kern.cuh costs 10 (8M + 2S): accumulation is 80-90% of a large
 * G1 MSM (bench/NOTES.md). The catch is the inversion (~570 dependent
 * multiplications, ~0.3 ms for one thread): it must be shared by very many
 * additions, and no thread may wait for it often. So the batch here is a
 * whole round over all buckets of a group of windows, not a thread's work:
 *
 *   round: every bucket's list of points (sorted records in round 0,
 *   points made by the previous round after that) is halved by adding
 *   neighbours: elements 2i and 2i+1 of a bucket's list give element i of
 *   its next list (an odd last element is copied). Four kernels:
 *     ba_dens   a thread per 2S consecutive elements: the denominators of
 *               the pairs that start in its range (x2 - x1, or 2y for a
 *               doubling), their running products kept (pre), then the
 *               block's product and, per thread, the product of the other
 *               threads' products (a scan in shared memory);
 *     ba_top    one block: the same over the blocks' products, and the
 *               round's single inversion; out: 1 / (each block's product);
 *     ba_apply  each thread: 1 / (its own product), then its pairs
 *               backwards (Montgomery's trick) and the affine sums;
 *   plus the list lengths (halved) and starts (a CUB prefix sum). Rounds
 *   repeat until no list is longer than 1 (log2 of the fullest bucket:
 *   ~6 for random scalars, up to ~26 when all scalars are equal), then
 *   each bucket's point becomes its XYZZ sum for the reduction.
 *
 * Special cases inside a pair (public data, branches): infinity (bases at
 * (0, 0), sums P + (-P)) is copied through; equal points double; P and -P
 * give infinity; none of these puts a denominator into the batch, so the
 * batch's product is never 0.
 *
 * Memory: the rounds hold two point lists of up to half the group's
 * records each, plus the prefix products: ~130 bytes per record of the
 * group. The windows are taken in groups as large as half of the free
 * device memory allows (all at once when it does); when not even one
 * window fits, the call runs the XYZZ accumulation instead.
 */
#include <cub/device/device_scan.cuh>
#include <string.h>
#include "field_inv.cuh"
#include "msm_ba.cuh"
#include "msm_kern.cuh"
#include "sp_cuda_backend.h"

typedef fp_tm<SP_MUL_EO> ba_f;
typedef affine_t<ba_f> ba_aff;

#define BA_PAIRS 16         /* S: denominators per thread, which covers 2S elements */
#define BA_THREADS 256      /* threads per block of the round kernels */
#define BA_TOP_THREADS 1024 /* ba_top's block */

/* ---- device ---- */

/* One round's input. Element e < m is record e of the group (round 0:
 * keys and vals start at the group's first record) or point e. Lists:
 * bucket b (group-local) holds elements beg[b] .. beg[b] + len[b] - 1;
 * its next list starts at nbeg[b]. */
struct ba_in {
    const ba_aff *pts;            /* NULL in round 0 */
    const uint32_t *bkt;          /* round > 0: the bucket of each point */
    const ba_aff *bases;          /* round 0 */
    const uint32_t *keys, *vals;  /* round 0 */
    size_t m;
    unsigned c;
    uint32_t boff;                /* global index of the group's first bucket */
    const uint32_t *len, *beg, *nbeg;
};

/* The bucket of element e; 0 when it has none (a zero digit). */
static __device__ __forceinline__ int ba_bucket(const ba_in &in, size_t e, uint32_t *b)
{
    if (in.pts) {
        *b = in.bkt[e];
        return 1;
    }
    const uint32_t key = in.keys[e];
    if (!(key & ((1u << in.c) - 1)))
        return 0;
    *b = (uint32_t)(bucket_of(key, in.c) - in.boff);
    return 1;
}

static __device__ __forceinline__ void ba_point(const ba_in &in, size_t e, ba_aff &p)
{
    if (in.pts) {
        p = in.pts[e];
        return;
    }
    const uint32_t v = in.vals[e];
    p = in.bases[v & 0x7fffffffu];
    if ((v >> 31) && !aff_is_inf(p))
        f_neg(p.y, p.y);
}

/* Element e starts a pair (it has a partner e + 1 in its list) or stands
 * alone as the last of an odd list; *o is its offset in the list. */
enum { BA_SKIP, BA_ALONE, BA_PAIR };
static __device__ __forceinline__ int ba_role(const ba_in &in, size_t e, uint32_t *b, uint32_t *o)
{
    if (!ba_bucket(in, e, b))
        return BA_SKIP;
    *o = (uint32_t)(e - in.beg[*b]);
    if (*o & 1)
        return BA_SKIP;
    return *o + 1 < in.len[*b] ? BA_PAIR : BA_ALONE;
}

/* Thread t's elements: [lo, hi). */
static __device__ __forceinline__ size_t ba_range(size_t m, size_t *hi)
{
    const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x, lo = t * 2 * BA_PAIRS;
    *hi = lo + 2 * BA_PAIRS < m ? lo + 2 * BA_PAIRS : m;
    return lo;
}

/* The denominators: pre[t S + j] = product of thread t's first j + 1,
 * cnt[t] = how many, ex[t] = the product of the block's other threads'
 * products, bt[block] = the block's product. */
__global__ void __launch_bounds__(BA_THREADS)
ba_dens(ba_in in, ba_f *pre, uint8_t *cnt, ba_f *ex, ba_f *bt)
{
    __shared__ ba_f sp[BA_THREADS], ss[BA_THREADS];
    const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t hi, lo = ba_range(in.m, &hi);
    ba_f acc;
    f_set_one(acc);
    unsigned j = 0;
    for (size_t e = lo; e < hi; e++) {
        uint32_t b, o;
        if (ba_role(in, e, &b, &o) != BA_PAIR)
            continue;
        ba_aff p, q;
        ba_point(in, e, p);
        ba_point(in, e + 1, q);
        ba_f num, den;
        if (ba_classify(p, q, num, den) != BA_ADD)
            continue;
        f_mul(acc, acc, den);
        pre[t * BA_PAIRS + j++] = acc;
    }
    if (lo < in.m)
        cnt[t] = (uint8_t)j;
    ba_f others, total;
    ba_block_others(acc, sp, ss, &others, &total);
    if (lo < in.m)
        ex[t] = others;
    if (threadIdx.x == 0)
        bt[blockIdx.x] = total;
}

/* The sums: thread t walks its pairs backwards; 1/den_j = (1 / product of
 * den_0..j) * pre[j-1], and 1 / product of den_0..j-1 = that times den_j. */
__global__ void __launch_bounds__(BA_THREADS)
ba_apply(ba_in in, const ba_f *pre, const uint8_t *cnt, const ba_f *ex, const ba_f *ibt,
         ba_aff *out, uint32_t *obkt)
{
    const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t hi, lo = ba_range(in.m, &hi);
    if (lo >= in.m)
        return;
    ba_f inv;
    f_mul(inv, ibt[blockIdx.x], ex[t]);
    unsigned j = cnt[t];
    for (size_t e = hi; e-- > lo;) {
        uint32_t b, o;
        const int role = ba_role(in, e, &b, &o);
        if (role == BA_SKIP)
            continue;
        ba_aff p, q, r;
        ba_point(in, e, p);
        const size_t d = in.nbeg[b] + o / 2;
        obkt[d] = b;
        if (role == BA_ALONE) {
            out[d] = p;
            continue;
        }
        ba_point(in, e + 1, q);
        ba_f num, den;
        const int how = ba_classify(p, q, num, den);
        ba_f id = inv;
        if (how == BA_ADD) {
            if (--j)
                f_mul(id, inv, pre[t * BA_PAIRS + j - 1]);
            f_mul(inv, inv, den);
        }
        ba_sum(r, how, p, q, num, id);
        out[d] = r;
    }
}

/* Round 0's lists: the records of each bucket of the group. */
__global__ void ba_init(uint32_t *len, uint32_t *beg, const uint32_t *start, const uint32_t *end,
                        uint32_t nb, unsigned c, uint32_t boff, uint32_t r0)
{
    const uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= nb)
        return;
    const uint32_t g = boff + b, lk = c - 1;
    const uint32_t key = ((g >> lk) << c) | ((g & ((1u << lk) - 1)) + 1);
    const uint32_t s = start[key], e = end[key];
    len[b] = e - s;
    beg[b] = e > s ? s - r0 : 0;
}

/* Each bucket's single point (or none) as its XYZZ sum. */
__global__ void ba_final(xyzz_t<ba_f> *buckets, const ba_aff *pts, const uint32_t *len,
                         const uint32_t *beg, uint32_t nb, uint32_t boff)
{
    const uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= nb)
        return;
    xyzz_t<ba_f> r;
    xyzz_set_inf(r);
    if (len[b]) {
        const ba_aff p = pts[beg[b]];
        if (!aff_is_inf(p)) {
            r.x = p.x;
            r.y = p.y;
            f_set_one(r.zz);
            f_set_one(r.zzz);
        }
    }
    buckets[boff + b] = r;
}

/* ---- host ---- */

/* The device buffers of one group of windows (m records, nb buckets). */
struct ba_bufs {
    ba_aff *pts[2];
    uint32_t *bkt[2];
    ba_f *pre, *ex, *bt, *ibt;
    uint8_t *cnt;
    uint32_t *len, *beg, *nlen, *nbeg;
    unsigned *word; /* [0] max list length, [1..3] read-back staging */
    void *cub;
    size_t cub_bytes;
};

/* With profiling on (sp_cuda_set_profile): the rounds' kernel times, ms. */
struct ba_prof {
    int on;
    unsigned rounds, groups;
    float lists, dens, top, apply;
};

static size_t ba_up(size_t b) { return (b + 255) & ~(size_t)255; }

/* Carves the buffers for m records and nb buckets out of the SP_XSCR_BA_*
 * slots (grown as needed); *bytes (may be NULL) gets the total. */
static sp_status ba_alloc(sp_cuda *ctx, ba_bufs *B, size_t m, uint32_t nb, size_t *bytes)
{
    const size_t cap = m / 2 + nb + 1, threads = (m + 2 * BA_PAIRS - 1) / (2 * BA_PAIRS);
    const size_t blocks = (threads + BA_THREADS - 1) / BA_THREADS;
    size_t cub_bytes = 0;
    SP_CU(ctx, cub::DeviceScan::ExclusiveSum(NULL, cub_bytes, (uint32_t *)NULL, (uint32_t *)NULL,
                                             (int)nb, ctx->stream));
    const size_t small = 4 * ba_up(nb * 4) + 256 + ba_up(cub_bytes) + ba_up(threads) +
                         ba_up(threads * sizeof(ba_f)) + 2 * ba_up(blocks * sizeof(ba_f));
    const size_t pre = threads * BA_PAIRS * sizeof(ba_f);
    if (bytes) {
        *bytes = 2 * cap * sizeof(ba_aff) + 2 * cap * 4 + pre + small;
        return SP_OK;
    }
    void *p;
    for (int i = 0; i < 2; i++) {
        SP_TRY(sp_cu_xscratch(ctx, SP_XSCR_BA_PTS0 + i, cap * sizeof(ba_aff), &p));
        B->pts[i] = (ba_aff *)p;
    }
    SP_TRY(sp_cu_xscratch(ctx, SP_XSCR_BA_BKT, 2 * cap * 4, &p));
    B->bkt[0] = (uint32_t *)p;
    B->bkt[1] = B->bkt[0] + cap;
    SP_TRY(sp_cu_xscratch(ctx, SP_XSCR_BA_PRE, pre, &p));
    B->pre = (ba_f *)p;
    SP_TRY(sp_cu_xscratch(ctx, SP_XSCR_BA_SMALL, small, &p));
    char *c = (char *)p;
    uint32_t **lists[4] = {&B->len, &B->beg, &B->nlen, &B->nbeg};
    for (int i = 0; i < 4; i++, c += ba_up(nb * 4))
        *lists[i] = (uint32_t *)c;
    B->word = (unsigned *)c, c += 256;
    B->cub = c, B->cub_bytes = cub_bytes, c += ba_up(cub_bytes);
    B->cnt = (uint8_t *)c, c += ba_up(threads);
    B->ex = (ba_f *)c, c += ba_up(threads * sizeof(ba_f));
    B->bt = (ba_f *)c, c += ba_up(blocks * sizeof(ba_f));
    B->ibt = (ba_f *)c;
    return SP_OK;
}

/* One round: the lists of `in` halved into B->pts[out] (lengths nlen,
 * starts nbeg); *next_m = the new element count, *longest = the longest
 * new list. */
static sp_status ba_round(sp_cuda *ctx, ba_bufs *B, const ba_in &in, int out, uint32_t nb,
                          size_t *next_m, unsigned *longest, ba_prof *pf)
{
    cudaEvent_t ev[5];
    for (int i = 0; pf->on && i < 5; i++)
        SP_CU(ctx, cudaEventCreate(&ev[i]));
    if (pf->on)
        SP_CU(ctx, cudaEventRecord(ev[0], ctx->stream));
    SP_CU(ctx, cudaMemsetAsync(B->word, 0, sizeof(unsigned), ctx->stream));
    ba_halve<<<sp_cu_blocks(nb, 256), 256, 0, ctx->stream>>>(B->nlen, in.len, nb, B->word);
    SP_CU_LAUNCHED(ctx, "ba_halve");
    SP_CU(ctx, cub::DeviceScan::ExclusiveSum(B->cub, B->cub_bytes, B->nlen, B->nbeg, (int)nb,
                                             ctx->stream));
    const size_t threads = (in.m + 2 * BA_PAIRS - 1) / (2 * BA_PAIRS);
    const unsigned blocks = sp_cu_blocks(threads, BA_THREADS);
    ba_in r = in;
    r.nbeg = B->nbeg;
    if (pf->on)
        SP_CU(ctx, cudaEventRecord(ev[1], ctx->stream));
    ba_dens<<<blocks, BA_THREADS, 0, ctx->stream>>>(r, B->pre, B->cnt, B->ex, B->bt);
    SP_CU_LAUNCHED(ctx, "ba_dens");
    if (pf->on)
        SP_CU(ctx, cudaEventRecord(ev[2], ctx->stream));
    const size_t top_smem = (2 * BA_TOP_THREADS + 1) * sizeof(ba_f);
    SP_CU(ctx, cudaFuncSetAttribute(ba_top<ba_f, BA_TOP_THREADS>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    (int)top_smem));
    ba_top<ba_f, BA_TOP_THREADS><<<1, BA_TOP_THREADS, top_smem, ctx->stream>>>(B->bt, B->ibt, blocks,
                                                                          ctx->ba_form & SP_BA_INV_VAR);
    SP_CU_LAUNCHED(ctx, "ba_top");
    if (pf->on)
        SP_CU(ctx, cudaEventRecord(ev[3], ctx->stream));
    ba_apply<<<blocks, BA_THREADS, 0, ctx->stream>>>(r, B->pre, B->cnt, B->ex, B->ibt,
                                                     B->pts[out], B->bkt[out]);
    SP_CU_LAUNCHED(ctx, "ba_apply");
    if (pf->on)
        SP_CU(ctx, cudaEventRecord(ev[4], ctx->stream));
    unsigned h[3];
    SP_CU(ctx, cudaMemcpyAsync(B->word + 1, B->nbeg + nb - 1, 4, cudaMemcpyDeviceToDevice,
                               ctx->stream));
    SP_CU(ctx, cudaMemcpyAsync(B->word + 2, B->nlen + nb - 1, 4, cudaMemcpyDeviceToDevice,
                               ctx->stream));
    SP_CU(ctx, cudaMemcpyAsync(h, B->word, sizeof h, cudaMemcpyDeviceToHost, ctx->stream));
    SP_CU(ctx, cudaStreamSynchronize(ctx->stream));
    *next_m = (size_t)h[1] + h[2];
    *longest = h[0];
    if (pf->on) {
        float ms[4];
        for (int i = 0; i < 4; i++)
            SP_CU(ctx, cudaEventElapsedTime(&ms[i], ev[i], ev[i + 1]));
        pf->lists += ms[0], pf->dens += ms[1], pf->top += ms[2], pf->apply += ms[3];
        pf->rounds++;
        for (int i = 0; i < 5; i++)
            cudaEventDestroy(ev[i]);
    }
    return SP_OK;
}

/* Windows [w0, w1): their buckets' sums into bk (XYZZ, the layout of
 * msm_kern.cuh). keys/vals: all sorted records (n per window). */
static sp_status ba_group(sp_cuda *ctx, xyzz_t<ba_f> *bk, const ba_aff *bases,
                          const uint32_t *keys, const uint32_t *vals, const uint32_t *start,
                          const uint32_t *end, size_t n, unsigned c, unsigned w0, unsigned w1,
                          ba_prof *pf)
{
    pf->groups++;
    const size_t r0 = (size_t)w0 * n, m = (size_t)(w1 - w0) * n;
    const uint32_t nb = (w1 - w0) << (c - 1), boff = w0 << (c - 1);
    ba_bufs B;
    SP_TRY(ba_alloc(ctx, &B, m, nb, NULL));
    ba_init<<<sp_cu_blocks(nb, 256), 256, 0, ctx->stream>>>(B.len, B.beg, start, end, nb, c, boff,
                                                            (uint32_t)r0);
    SP_CU_LAUNCHED(ctx, "ba_init");
    ba_in in;
    memset(&in, 0, sizeof in);
    in.bases = bases, in.keys = keys + r0, in.vals = vals + r0;
    in.m = m, in.c = c, in.boff = boff;
    for (int out = 0;; out ^= 1) {
        in.len = B.len, in.beg = B.beg;
        size_t next_m;
        unsigned longest;
        SP_TRY(ba_round(ctx, &B, in, out, nb, &next_m, &longest, pf));
        uint32_t *t = B.len; /* the new lists become the current ones */
        B.len = B.nlen, B.nlen = t;
        t = B.beg, B.beg = B.nbeg, B.nbeg = t;
        in.pts = B.pts[out], in.bkt = B.bkt[out], in.m = next_m;
        if (longest <= 1)
            break;
    }
    ba_final<<<sp_cu_blocks(nb, 256), 256, 0, ctx->stream>>>(bk, in.pts, B.len, B.beg, nb, boff);
    SP_CU_LAUNCHED(ctx, "ba_final");
    return SP_OK;
}

/* Windows per group: as many as fit in half of the free device memory
 * (plus the BA scratch already held: it is kept for the next call, like
 * all scratch, so it must leave room for what else the process
 * allocates); 0 when not even one window does. */
static unsigned ba_group_windows(sp_cuda *ctx, size_t n, unsigned c, unsigned nwin)
{
    size_t free_b = 0, total = 0, one = 0, held = 0;
    if (sp_cuda_mem_info(ctx, &free_b, &total) != SP_OK)
        return 0;
    for (int i = SP_XSCR_BA_PTS0; i <= SP_XSCR_BA_SMALL; i++)
        held += ctx->xscr_cap[i];
    const size_t avail = (free_b + held) / 2;
    unsigned g = ctx->ba_max_group && ctx->ba_max_group < nwin ? ctx->ba_max_group : nwin;
    ba_bufs B;
    for (; g >= 1; g--) {
        if (ba_alloc(ctx, &B, (size_t)g * n, g << (c - 1), &one) != SP_OK)
            return 0;
        if (one <= avail)
            return g;
    }
    return 0;
}

template <class HX>
static sp_status ba_run(sp_cuda *ctx, sp_g1_jac *out, const sp_g1_affine *bases,
                        const sp_scalar *scalars, size_t n, unsigned window)
{
    SP_TRY(msm_check_args(n, window));
    if (n == 0) {
        memset(out, 0, sizeof *out);
        return SP_OK;
    }
    msm_sorted s;
    SP_TRY(msm_sort_phase(ctx, &s, bases, scalars, n, window, 1, sizeof(xyzz_t<ba_f>)));
    const unsigned c = s.c, nwin = s.nwin;
    const unsigned g = ba_group_windows(ctx, n, c, nwin);
    if (g == 0) /* not even one window's rounds fit: the XYZZ accumulation */
        SP_TRY((msm_accumulate_phase<ba_f, SP_MSM_V_L2_OCC>(ctx, (xyzz_t<ba_f> *)s.bk,
                                                            (const affine_t<ba_f> *)s.db, s.keys,
                                                            s.vals, s.start, s.end, n, c, nwin)));
    ba_prof pf;
    memset(&pf, 0, sizeof pf);
    pf.on = ctx->profile;
    for (unsigned w0 = 0; g && w0 < nwin; w0 += g)
        SP_TRY(ba_group(ctx, (xyzz_t<ba_f> *)s.bk, (const ba_aff *)s.db, s.keys, s.vals, s.start,
                        s.end, n, c, w0, w0 + g < nwin ? w0 + g : nwin, &pf));
    SP_TRY(sp_cu_msm_mark(ctx, 2));
    SP_TRY(msm_reduce_phase<ba_f>(ctx, msm_window_sums<ba_f>(s), (const xyzz_t<ba_f> *)s.bk, c,
                                  nwin, s.log_l));
    SP_TRY(sp_cu_msm_mark(ctx, 4));
    char more[160];
    snprintf(more, sizeof more,
             "; batch-affine: %u groups, %u rounds: lists %.1f dens %.1f top %.1f apply %.1f ms",
             pf.groups, pf.rounds, pf.lists, pf.dens, pf.top, pf.apply);
    return msm_finish<HX>(ctx, out, s, 1, n, pf.on ? more : NULL);
}

sp_status sp_cu_msm_g1_ba(sp_cuda *ctx, sp_g1_jac *out, const sp_g1_affine *bases,
                          const sp_scalar *scalars, size_t n, unsigned window)
{
    return ba_run<sp_g1_xyzz>(ctx, out, bases, scalars, n, window);
}

extern "C" unsigned sp_cuda_set_msm_ba_group(sp_cuda *ctx, unsigned windows)
{
    unsigned old = ctx->ba_max_group;
    ctx->ba_max_group = windows;
    return old;
}

extern "C" int sp_cuda_set_msm_acc(sp_cuda *ctx, int acc)
{
    int old = ctx->msm_acc;
    if (acc >= 0 && acc <= 3)
        ctx->msm_acc = acc;
    return old;
}
