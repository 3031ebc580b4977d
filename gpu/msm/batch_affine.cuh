/*
 * The batch-affine MSM's host side (batch_affine.cu documents the rounds),
 * as templates over the group's field: batch_affine_g1.cu and
 * batch_affine_g2.cu instantiate them, one group each, so that the two
 * compile side by side; batch_affine.cu holds what no field enters (the
 * list kernels, CUB's scan, the side streams, the profile's events).
 */
#ifndef SP_GPU_MSM_BATCH_AFFINE_CUH
#define SP_GPU_MSM_BATCH_AFFINE_CUH

#include <stdio.h>
#include <string.h>
#include "batch_affine_kern.cuh"
#include "pippenger.cuh"
#include "accumulate.cuh"
#include "table.cuh"
#include "gpu/sp_cuda_backend.h"

namespace SP_CURVE_NS {

/* What b2_init counts for the host (B2_WORDS words): [0] the longest
 * list, [1 + r] the items of round r, [B2_WORD_SINK] a word the later
 * halvings' maxima go to (nobody reads them: the counts already say it
 * all). */
#define B2_MAX_ROUNDS 32 /* a list of < 2^31 records ends in 31 rounds */
#define B2_WORD_SINK (1 + B2_MAX_ROUNDS)
#define B2_WORDS (B2_WORD_SINK + 1)

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

/* The buffers of one group's lists, which no field enters (sp_cu_b2_*):
 * a round r reads the lists len[r % 3], beg[r % 3], its items' buckets
 * ibkt[r & 1] and its outputs' starts beg[(r + 1) % 3]; the next round's
 * lists are made meanwhile (sp_cu_b2_lists_make) into the other slots. */
struct b2_lbufs {
    uint32_t *ibkt[2];
    uint32_t *len[3], *beg[3];
    unsigned *word; /* B2_WORDS: b2_init's counts */
    void *cub;
    size_t cub_bytes;
};

/* The device buffers of one group of windows (m records, nb buckets): the
 * lists, the points of the rounds, and the per-thread and per-block
 * products (ex, bt, ibt). */
template <class F> struct b2_bufs : b2_lbufs {
    affine_t<F> *pts[2];
    F *ex, *bt, *ibt;
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
static inline void b2_prof_text(char *buf, size_t n, const b2_prof &pf)
{
    snprintf(buf, n, "%u groups, %u rounds: wall %.1f ms (lists %.1f, dens %.1f top %.1f apply %.1f)",
             pf.groups, pf.rounds, pf.wall, pf.lists, pf.dens, pf.top, pf.apply);
}

static inline size_t b2_up(size_t b) { return (b + 255) & ~(size_t)255; }

/* Items per thread and threads (a multiple of B2_THREADS) for M items:
 * at least four times what the device holds at once (or
 * sp_cuda_set_ba_threads's count), when there is that much work, and at
 * most B2_MAX_ITEMS items per thread. */
static inline void b2_shape(const sp_cuda *ctx, size_t M, unsigned *S, size_t *T)
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

/* Timing events of a group's rounds (profiling only): per round, the
 * kernels' four (b2_round) and the lists' two; and the wall's two. A
 * handle is NULL until made. */
struct b2_times {
    cudaEvent_t ev[B2_MAX_ROUNDS][6], wall[2];
};

/* One group of the sorted records: records [r0, r1) of the buckets
 * boff .. boff + nb - 1 (pippenger.cuh's order); their sums (affine) go to
 * sums[b - boff]. A group of windows (the plain MSM) holds whole buckets;
 * a table MSM's group of records may hold part of one at either end. */
struct b2_part {
    size_t r0, r1;
    uint32_t boff, nb;
};

/* r += [k] p on the host: a cut bucket's part (k its digit). */
static inline void b2_side_add(sp_g1_jac *r, const sp_g1_affine *p, uint64_t k)
{
    sp_g1_jac t;
    sp_g1_jac_from_affine(&t, p);
    sp_g1_mul_var(&t, &t, &k, 1);
    sp_g1_jac_add_var(r, r, &t);
}

static inline void b2_side_add(sp_g2_jac *r, const sp_g2_affine *p, uint64_t k)
{
    sp_g2_jac t;
    sp_g2_jac_from_affine(&t, p);
    sp_g2_mul_var(&t, &t, &k, 1);
    sp_g2_jac_add_var(r, r, &t);
}

/* ---- batch_affine.cu ---- */

/* *bytes = the scratch of CUB's scan over nb list lengths. */
sp_status sp_cu_b2_scan_bytes(sp_cuda *ctx, uint32_t nb, size_t *bytes);
/* Round 0's lists of group g (records of the buckets with ranges start,
 * end; windows of c bits) into B's slot 0, and the counts into n (read
 * back: the stream is synchronized); makes the side streams on first use. */
sp_status sp_cu_b2_lists_init(sp_cuda *ctx, b2_lbufs *B, const uint32_t *start, const uint32_t *end,
                              unsigned c, const b2_part &g, unsigned n[B2_WORDS]);
/* Round r's lists from round r's lengths, on st: the next lengths
 * (halved) and their starts into slot (r + 1) % 3, each item's bucket
 * into ibkt[r & 1]; with one bucket (nb = 1) ibkt is left alone: b2_fill
 * gives a list to a warp, so one long list would be written by one warp,
 * and the caller zeroes ibkt once instead. */
sp_status sp_cu_b2_lists_make(sp_cuda *ctx, b2_lbufs *B, unsigned r, uint32_t nb, cudaStream_t st);
/* Makes the events of R rounds; on failure none is left. */
sp_status sp_cu_b2_times_make(sp_cuda *ctx, b2_times *tm, unsigned R);
/* Adds the times of R rounds to pf (after the rounds have ended; add 0:
 * none) and frees the events. */
void sp_cu_b2_times_done(b2_times *tm, unsigned R, b2_prof *pf, int add);
/* What the rounds may take: half of the free device memory plus the BA
 * scratch already held (0 when the memory cannot be read). */
size_t sp_cu_b2_avail(sp_cuda *ctx);
/* Most groups of records a table run takes (b2_table_per_group gives at
 * least n records, a row's worth, to a group): the side slots. */
#define B2_TABLE_MAX_GROUPS SP_MSM_MAX_WIN
/* parts[g] = group g of a table run: records [g per, (g + 1) per) of the
 * m sorted ones (the last group up to m), over the buckets between its
 * first and last records' keys only (sorted: a third of them in 3 groups,
 * whose rounds then scan a third of the lists); two keys read back a
 * group. Keys 1 .. nb are buckets 0 .. nb - 1; key 0, a zero digit. */
sp_status sp_cu_b2_table_parts(sp_cuda *ctx, b2_part *parts, const uint32_t *keys, size_t m,
                               size_t per, unsigned ng);

/* ---- the templates ---- */

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
    SP_TRY(sp_cu_b2_scan_bytes(ctx, nb, &cub_bytes));
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
        SP_TRY(sp_cu_b2_lists_make(ctx, B, r, nb, ls));
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
    if (nb == 1) { /* one list: every item is bucket 0 (sp_cu_b2_lists_make leaves ibkt alone) */
        SP_CU(ctx, cudaMemsetAsync(B.ibkt[0], 0, (m + 1) / 2 * sizeof(uint32_t), ctx->stream));
        SP_CU(ctx, cudaMemsetAsync(B.ibkt[1], 0, (m + 3) / 4 * sizeof(uint32_t), ctx->stream));
    }
    unsigned n[B2_WORDS];
    SP_TRY(sp_cu_b2_lists_init(ctx, &B, start, end, c, g, n));
    unsigned R = 0; /* rounds: until every list holds one point at most */
    while (R < 31 && (1u << R) < n[0])
        R++;
    b2_src<F> in = {NULL, bases, vals + g.r0};
    if (R > 0) {
        b2_times tm, *tp = NULL;
        if (pf->on) {
            SP_TRY(sp_cu_b2_times_make(ctx, &tm, R));
            tp = &tm;
        }
        const sp_status st = b2_rounds<F, typename b2_half<F>::type>(ctx, &B, in, nb, R, n, tp);
        if (st != SP_OK || tp) { /* nothing may still run on the side streams */
            for (int i = 0; i < SP_B2_STREAMS; i++)
                cudaStreamSynchronize(ctx->b2_side[i]);
            cudaStreamSynchronize(ctx->stream);
        }
        if (tp)
            sp_cu_b2_times_done(tp, R, pf, st == SP_OK);
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

/* A single list [0, m) as b2_init reads it: bucket 0 of a group with c
 * = 1 is key 1, so start[1] = se[1] = 0 and end[1] = se[3] = m. */
static __global__ void b2_one_list(uint32_t *se, uint32_t m)
{
    se[0] = se[1] = se[2] = 0;
    se[3] = m;
}

/* One bucket's rounds (the split MSM's scalars equal to 1): *sum (device,
 * affine, (0, 0) for infinity) = the sum of bases[idx[j]] for j < m, with
 * 0 < m < 2^31 and every idx[j] < 2^31; se: 4 device words the call
 * writes. prof: the rounds' profile text when profiling, else "".
 * Returns SP_ERR_NOMEM, nothing queued, when the rounds' buffers do not fit
 * (sp_cu_b2_avail). */
template <class F>
static sp_status b2_sum_run(sp_cuda *ctx, affine_t<F> *sum, const affine_t<F> *bases,
                            const uint32_t *idx, size_t m, uint32_t *se, char *prof, size_t prof_n)
{
    prof[0] = 0;
    size_t bytes = 0;
    b2_bufs<F> B;
    SP_TRY(b2_alloc<F>(ctx, &B, m, 1, &bytes));
    if (bytes > sp_cu_b2_avail(ctx))
        return SP_ERR_NOMEM;
    b2_one_list<<<1, 1, 0, ctx->stream>>>(se, (uint32_t)m);
    SP_CU_LAUNCHED(ctx, "b2_one_list");
    b2_prof pf;
    memset(&pf, 0, sizeof pf);
    pf.on = ctx->profile;
    SP_TRY(b2_group<F>(ctx, sum, bases, idx, se, se + 2, 1, b2_part{0, m, 0, 1}, &pf));
    if (pf.on)
        b2_prof_text(prof, prof_n, pf);
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
    SP_TRY(sp_cu_msm_reduce_split(ctx, msm_window_sums<RF>(s), (const affine_t<RF> *)bk, s.c, s.nwin,
                                  &s.join));
    return sp_cu_msm_mark(ctx, 4);
}

/* Windows per group: as many as fit in half of the free device memory
 * (plus the BA scratch already held: it is kept for the next call, like
 * all scratch, so it must leave room for what else the process
 * allocates), with fewer than 2^31 records; 0 when not even one window
 * does. */
template <class F>
static unsigned b2_group_windows(sp_cuda *ctx, size_t n, unsigned c, unsigned nwin)
{
    const size_t avail = sp_cu_b2_avail(ctx);
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
    const size_t avail = sp_cu_b2_avail(ctx), nb = (size_t)1 << (c - 1);
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
    SP_TRY(sp_cu_b2_table_parts(ctx, parts, s.keys, m, per, ng));
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

} // namespace SP_CURVE_NS

#endif
