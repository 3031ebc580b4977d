/*
 * The streamed MSM (sp_cuda_msm_g1_stream / _g2_stream): bases that are not
 * kept in device memory, or an MSM whose scratch would not fit in one go.
 *
 * The n points are cut into chunks of at most `chunk` points. Host data of
 * chunk k+1 (bases, and scalars when they are on the host) is copied on a
 * second stream into one of two device buffers while the plain or split
 * MSM of pippenger.cu / split.cu runs on chunk k in the other; an event per
 * buffer makes the MSM's stream wait for its copy. The MSM entry points are
 * synchronous, so when one returns its buffer is free for the copy after
 * next. The partial sums are added on the host (Jacobian, microseconds).
 * A split MSM over host bases pinned by sp_cuda_host_register (and mapped)
 * with its scalars on the device copies nothing: its kernels read the
 * bases of the nonzero scalars in place, once each (split.cuh), so the
 * bus carries only those; it declines, and the chunks run, when few
 * scalars are 0 or 1.
 *
 * Chunk size: given, or chosen from the free device memory under the cap
 * (core/host.cu) by sp_cuda_msm_stream_bytes, a model of what
 * pippenger.cu, batch_affine.cu and split.cu allocate; gpu_check checks
 * that the model bounds the scratch a call really holds. A split MSM over
 * device data needs no chunks: its scratch is sized by the counts its
 * partition finds, which the worst-case model cannot know, so it runs
 * whole once the partition fits and asks sp_cu_msm_fit / sp_cu_msm_room
 * (below) for each later step.
 */
#include <stdio.h>
#include <string.h>
#include "gpu/core/context.cuh"
#include "table.cuh"
#include "accumulate.cuh"
#include "gpu/sp_cuda_backend.h"

namespace SP_CURVE_NS {

/* Largest chunk: the plain MSMs take fewer than 2^31 points. */
#define SP_STREAM_MAX_CHUNK (((size_t)1 << 31) - 1)

/* ---- per-group operations ---- */

struct stream_g1 {
    typedef sp_g1_affine aff;
    typedef sp_g1_jac jac;
    enum { group = 1, xyzz_bytes = sizeof(sp_g1_xyzz) };
    static sp_status msm(sp_cuda *c, jac *o, const aff *b, const sp_scalar *s, size_t n, unsigned w,
                         int split)
    {
        return split ? sp_cuda_msm_g1_split(c, o, b, s, n, w) : sp_cuda_msm_g1(c, o, b, s, n, w);
    }
    static sp_status once(sp_cuda *c, jac *o, const aff *b, const sp_scalar *s, size_t n, unsigned w,
                          int *declined)
    {
        return sp_cu_msm_g1_split_once(c, o, b, s, n, w, declined);
    }
    static void add(jac *r, const jac *p) { sp_g1_jac_add_var(r, r, p); }
    static void inf(jac *r) { sp_g1_jac_set_inf(r); }
};

struct stream_g2 {
    typedef sp_g2_affine aff;
    typedef sp_g2_jac jac;
    enum { group = 2, xyzz_bytes = sizeof(sp_g2_xyzz) };
    static sp_status msm(sp_cuda *c, jac *o, const aff *b, const sp_scalar *s, size_t n, unsigned w,
                         int split)
    {
        return split ? sp_cuda_msm_g2_split(c, o, b, s, n, w) : sp_cuda_msm_g2(c, o, b, s, n, w);
    }
    static sp_status once(sp_cuda *c, jac *o, const aff *b, const sp_scalar *s, size_t n, unsigned w,
                          int *declined)
    {
        return sp_cu_msm_g2_split_once(c, o, b, s, n, w, declined);
    }
    static void add(jac *r, const jac *p) { sp_g2_jac_add_var(r, r, p); }
    static void inf(jac *r) { sp_g2_jac_set_inf(r); }
};

/* ---- the memory model ---- */

/*
 * Scratch of one plain (or split) MSM over m device-resident points,
 * following the sp_cu_scratch calls of pippenger.cu and split.cu: the sort
 * (sp_cu_msm_sort_model: W records per point, two bucket ranges per
 * bucket), the bucket sums, the accumulation partials
 * (two per 32 records), the reduction's scratch (the segment sums, at
 * most 64k plus 17 per window, or the split's parts: the larger), the
 * small buffer; for the split MSM also the index lists, the
 * gathered bases and scalars and the tree sums of the ones, and in G2
 * the rounds' buffers where the ones may be summed by rounds (split.cuh,
 * split_ones_rounds; as many as m of them) unless split is MODEL_LEAN.
 */
enum { MODEL_PLAIN = 0, MODEL_SPLIT = 1, MODEL_LEAN = 2 };
static double msm_scratch_model(const sp_cuda *ctx, size_t m, int group, size_t aff, size_t xyzz,
                                int split)
{
    const int sm_count = ctx->sm_count;
    if (m == 0)
        return 0;
    unsigned c = sp_cuda_msm_window(m, group), nwin = (256 + c - 1) / c;
    double recs = (double)nwin * m, nbuck = (double)nwin * (double)((size_t)1 << (c - 1));
    double segs = (nbuck < 65536 ? nbuck : 65536) + 17.0 * nwin;
    const double parts = (double)msm_split_plan(c, nwin).total;
    double b = sp_cu_msm_sort_model(recs, 2 * nbuck) + nbuck * xyzz +
               2 * (recs / 32 + 1) * xyzz + (segs > parts ? segs : parts) * xyzz + 16384;
    if (split) {
        double nblk = (double)((m + 511) / 512), cap = 4.0 * (sm_count ? sm_count : 1);
        if (nblk > cap)
            nblk = cap;
        b += (2.0 * m + 2) * 4 + (double)m * (aff + sizeof(sp_scalar)) + (nblk * 129 + 1) * xyzz;
        if (group == 2 && split == MODEL_SPLIT && sp_cu_msm_affine_for(ctx, m))
            b += (double)sp_cu_sum_g2_bytes(ctx, m);
    }
    return b;
}

/* The model's total for a chunk of m of n points (split: MODEL_*), per
 * bytes per point copied into a buffer of the call's (two when the copies
 * are double buffered over several chunks); 1/8 and 8 MiB for what the
 * model misses. */
static size_t model_bytes(const sp_cuda *ctx, int group, size_t n, size_t m, size_t per, int dbl,
                          int split)
{
    size_t aff = group == 2 ? sizeof(sp_g2_affine) : sizeof(sp_g1_affine);
    size_t xyzz = group == 2 ? sizeof(sp_g2_xyzz) : sizeof(sp_g1_xyzz);
    double b = msm_scratch_model(ctx, m, group, aff, xyzz, split) +
               (dbl && m < n ? 2.0 : 1.0) * (double)m * per;
    return (size_t)(b * 1.125) + ((size_t)8 << 20);
}

extern "C" size_t sp_cuda_msm_stream_bytes(const sp_cuda *ctx, int group, size_t n, size_t chunk,
                                           unsigned flags)
{
    size_t aff = group == 2 ? sizeof(sp_g2_affine) : sizeof(sp_g1_affine);
    size_t per = ((flags & SP_CUDA_MSM_HOST_BASES) ? aff : 0) +
                 ((flags & SP_CUDA_MSM_HOST_SCALARS) ? sizeof(sp_scalar) : 0);
    if (n == 0)
        return 0;
    size_t m = chunk == 0 || chunk > n ? n : chunk;
    /* one chunk: the plain call copies host data to one buffer of its own;
     * several: two chunk buffers */
    int split = !(flags & SP_CUDA_MSM_SPLIT) ? MODEL_PLAIN : (flags & SP_CUDA_MSM_LEAN) ? MODEL_LEAN : MODEL_SPLIT;
    return model_bytes(ctx, group, n, m, per, 1, split);
}

/* ---- scratch ---- */

/* Slots whose contents a call may still read while it sizes its next step
 * (copied inputs, the split's index lists, the chunk buffers, the test
 * buffers): a release inside a call keeps them. */
static int slot_live(int i)
{
    return i == SP_SCR_BASES || i == SP_SCR_SCALARS || i == SP_SCR_SPLIT_IDX || i == SP_SCR_A ||
           i == SP_SCR_B || i == SP_SCR_C || i == SP_SCR_STREAM0 || i == SP_SCR_STREAM1;
}

/* The scratch held; spare: only what a release inside a call frees. */
static size_t scratch_held(const sp_cuda *ctx, int spare)
{
    size_t b = 0;
    for (int i = 0; i < SP_SCR_COUNT; i++)
        if (!spare || !slot_live(i))
            b += ctx->scr_cap[i];
    for (int i = 0; i < SP_XSCR_COUNT; i++)
        b += ctx->xscr_cap[i];
    return b;
}

static sp_status scratch_release(sp_cuda *ctx, int spare)
{
    if (scratch_held(ctx, spare))
        ctx->scr_releases++;
    SP_CU(ctx, cudaStreamSynchronize(ctx->stream));
    if (ctx->copy_ready)
        SP_CU(ctx, cudaStreamSynchronize(ctx->copy_stream));
    for (int i = 0; i < SP_SCR_COUNT; i++) {
        if (spare && slot_live(i))
            continue;
        SP_CU(ctx, cudaFree(ctx->scr[i]));
        ctx->scr[i] = NULL;
        ctx->scr_cap[i] = 0;
    }
    for (int i = 0; i < SP_XSCR_COUNT; i++) {
        SP_CU(ctx, cudaFree(ctx->xscr[i]));
        ctx->xscr[i] = NULL;
        ctx->xscr_cap[i] = 0;
    }
    return SP_OK;
}

extern "C" size_t sp_cuda_scratch_bytes(const sp_cuda *ctx) { return scratch_held(ctx, 0); }

extern "C" size_t sp_cuda_scratch_releases(const sp_cuda *ctx) { return ctx->scr_releases; }

extern "C" sp_status sp_cuda_scratch_trim(sp_cuda *ctx) { return scratch_release(ctx, 0); }

/*
 * Device memory a call could have: what is free plus the scratch it may
 * release (all of this context's, or with spare only what scratch_release
 * frees then); under the cap, no more than the cap minus the growth since
 * creation that is not that scratch. *now is what is free without
 * releasing anything (under the cap).
 */
static sp_status stream_avail(sp_cuda *ctx, size_t *avail, size_t *now, int spare)
{
    size_t real = 0, total = 0, held = scratch_held(ctx, spare);
    SP_CU(ctx, cudaMemGetInfo(&real, &total));
    *avail = real + held;
    *now = real;
    if (ctx->mem_limit) {
        size_t grown = ctx->mem_base > real ? ctx->mem_base - real : 0;
        size_t other = grown > held ? grown - held : 0;
        size_t left = ctx->mem_limit > other ? ctx->mem_limit - other : 0;
        if (*avail > left)
            *avail = left;
        left = ctx->mem_limit > grown ? ctx->mem_limit - grown : 0;
        if (*now > left)
            *now = left;
    }
    return SP_OK;
}

/* 1 when need bytes (and SP_CUDA_STREAM_MARGIN) can be had, the scratch
 * released first (with spare, what scratch_release frees then) when they
 * are not free without it; 0 when they cannot. */
static sp_status stream_room(sp_cuda *ctx, int *ok, size_t need, int spare)
{
    size_t avail = 0, now = 0;
    *ok = 0;
    SP_TRY(stream_avail(ctx, &avail, &now, spare));
    if (need + SP_CUDA_STREAM_MARGIN > avail)
        return SP_OK;
    if (scratch_held(ctx, spare) && now < SP_CUDA_STREAM_MARGIN + need)
        SP_TRY(scratch_release(ctx, spare));
    *ok = 1;
    return SP_OK;
}

sp_status sp_cu_msm_room(sp_cuda *ctx, int *ok, size_t bytes) { return stream_room(ctx, ok, bytes, 1); }

/*
 * The largest chunk (<= n) whose model (split: MODEL_*; per bytes per
 * point copied, dbl: double buffered) fits what a call could have (spare: as stream_avail),
 * less SP_CUDA_STREAM_MARGIN; when it needs more than is free now, the
 * scratch is released first. With kept (no cap set) and all n points in
 * one chunk, the scratch is kept instead when what is free plus what a
 * release inside a call would free holds the model (the same MSM again
 * reuses its slots, and releasing them would make it allocate them anew);
 * *kept then says so, and the caller releases and runs again should the
 * MSM still run out of memory. SP_ERR_NOMEM, with the reason in ctx->err,
 * when not even min(n, SP_CUDA_STREAM_MIN_CHUNK) points fit.
 */
static sp_status stream_pick_chunk(sp_cuda *ctx, size_t *chunk, int group, size_t n, size_t per,
                                   int dbl, int split, int spare, int *kept)
{
    if (kept)
        *kept = 0;
    size_t avail = 0, now = 0;
    SP_TRY(stream_avail(ctx, &avail, &now, spare));
    size_t budget = avail > SP_CUDA_STREAM_MARGIN ? avail - SP_CUDA_STREAM_MARGIN : 0;
    size_t top = n < SP_STREAM_MAX_CHUNK ? n : SP_STREAM_MAX_CHUNK, m = top;
    if (model_bytes(ctx, group, n, m, per, dbl, split) > budget) {
        size_t lo = 0, hi = top; /* the model grows with m: bisect */
        while (hi - lo > 1) {
            size_t mid = lo + (hi - lo) / 2;
            if (model_bytes(ctx, group, n, mid, per, dbl, split) <= budget)
                lo = mid;
            else
                hi = mid;
        }
        m = lo;
    }
    size_t least = n < SP_CUDA_STREAM_MIN_CHUNK ? n : SP_CUDA_STREAM_MIN_CHUNK;
    if (m < least) {
        snprintf(ctx->err, sizeof ctx->err,
                 "streamed MSM: %zu points need %.1f MiB of device memory, %.1f MiB could be had "
                 "(%.1f MiB of it this context's scratch; cap %.1f MiB, 0 = none; %.0f MiB kept free)",
                 least, model_bytes(ctx, group, n, least, per, dbl, split) / 1048576.0,
                 avail / 1048576.0, scratch_held(ctx, spare) / 1048576.0,
                 ctx->mem_limit / 1048576.0, SP_CUDA_STREAM_MARGIN / 1048576.0);
        *chunk = 0;
        return SP_ERR_NOMEM;
    }
    const size_t model = model_bytes(ctx, group, n, m, per, dbl, split);
    if (scratch_held(ctx, spare) && now < SP_CUDA_STREAM_MARGIN + model) {
        if (kept && m == n && !ctx->mem_limit && now + scratch_held(ctx, 1) >= SP_CUDA_STREAM_MARGIN + model)
            *kept = 1;
        else
            SP_TRY(scratch_release(ctx, spare)); /* growth could pass what is free: start afresh */
    }
    *chunk = m;
    return SP_OK;
}

sp_status sp_cu_msm_fit(sp_cuda *ctx, size_t *chunk, int group, size_t n, size_t per)
{
    return stream_pick_chunk(ctx, chunk, group, n, per, 0, MODEL_PLAIN, 1, NULL);
}

/*
 * 1 when bases have a kept table (table.cuh) the MSM would use and
 * its scratch fits what a call could have (stream_room, which releases
 * the scratch first when it is not free without it): then the MSM runs
 * whole, since chunks would lose the table and its rounds take groups of
 * records as memory allows. With split the plain MSM may run instead
 * (gathered "other" scalars), so its scratch must fit too.
 */
static int stream_whole_table(sp_cuda *ctx, int group, const void *bases, size_t n,
                              unsigned window, unsigned flags)
{
    const sp_cu_table *t = sp_cu_table_find(ctx, group, bases, n);
    msm_windows lay;
    unsigned nwin;
    if (!t || (window && sp_cu_msm_layout(window, &lay, &nwin) != t->c))
        return 0;
    size_t need = sp_cuda_msm_table_scratch(group, n, t->c);
    if (flags & SP_CUDA_MSM_HOST_SCALARS)
        need += n * sizeof(sp_scalar);
    if (flags & SP_CUDA_MSM_SPLIT) {
        size_t plain = sp_cuda_msm_stream_bytes(ctx, group, n, n, flags);
        need = need > plain ? need : plain;
    }
    int ok = 0;
    return stream_room(ctx, &ok, need, 0) == SP_OK && ok;
}

/* ---- the copy stream ---- */

static sp_status stream_init(sp_cuda *ctx)
{
    if (ctx->copy_ready)
        return SP_OK;
    SP_CU(ctx, cudaStreamCreateWithFlags(&ctx->copy_stream, cudaStreamNonBlocking));
    for (int i = 0; i < 2; i++) {
        cudaError_t e = cudaEventCreateWithFlags(&ctx->copy_ev[i], cudaEventDisableTiming);
        if (e != cudaSuccess) {
            for (int k = 0; k < i; k++)
                cudaEventDestroy(ctx->copy_ev[k]);
            cudaStreamDestroy(ctx->copy_stream);
            sp_cu_record(ctx, "cudaEventCreateWithFlags", __FILE__, __LINE__, e);
            return SP_ERR_GPU;
        }
    }
    ctx->copy_ready = 1;
    return SP_OK;
}

void sp_cu_stream_release(sp_cuda *ctx)
{
    if (!ctx->copy_ready)
        return;
    cudaStreamSynchronize(ctx->copy_stream);
    for (int i = 0; i < 2; i++)
        cudaEventDestroy(ctx->copy_ev[i]);
    cudaStreamDestroy(ctx->copy_stream);
    ctx->copy_ready = 0;
}

/* One chunk's host data and where it goes. */
struct stream_plan {
    const char *bases, *scalars; /* host or device, at point 0 */
    size_t aff;                  /* bytes per base */
    int host_bases, host_scalars;
    size_t chunk, n;
    size_t soff;                 /* where the scalars start in a buffer */
    void *buf[2];                /* host bases at 0, host scalars at soff */
};

/* Queues the copy of chunk k's host data into buf[k & 1] on the copy
 * stream and records that buffer's event. */
static sp_status stream_copy(sp_cuda *ctx, const stream_plan *p, size_t k)
{
    size_t off = k * p->chunk, m = p->n - off < p->chunk ? p->n - off : p->chunk;
    char *dst = (char *)p->buf[k & 1];
    if (p->host_bases)
        SP_CU(ctx, cudaMemcpyAsync(dst, p->bases + off * p->aff, m * p->aff, cudaMemcpyHostToDevice,
                                   ctx->copy_stream));
    if (p->host_scalars)
        SP_CU(ctx, cudaMemcpyAsync(dst + p->soff, p->scalars + off * sizeof(sp_scalar),
                                   m * sizeof(sp_scalar), cudaMemcpyHostToDevice, ctx->copy_stream));
    SP_CU(ctx, cudaEventRecord(ctx->copy_ev[k & 1], ctx->copy_stream));
    return SP_OK;
}

/* The chunks in order, the copy of k+1 queued before the MSM of k; *acc
 * gets the sum. Returns at the first failure (the caller drains the copy
 * stream). */
template <class G>
static sp_status stream_chunks(sp_cuda *ctx, typename G::jac *acc, const stream_plan *p,
                               unsigned window, int split)
{
    size_t nchunk = (p->n + p->chunk - 1) / p->chunk;
    int copying = p->host_bases || p->host_scalars;
    G::inf(acc);
    if (copying)
        SP_TRY(stream_copy(ctx, p, 0));
    for (size_t k = 0; k < nchunk; k++) {
        size_t off = k * p->chunk, m = p->n - off < p->chunk ? p->n - off : p->chunk;
        if (copying && k + 1 < nchunk)
            SP_TRY(stream_copy(ctx, p, k + 1));
        if (copying)
            SP_CU(ctx, cudaStreamWaitEvent(ctx->stream, ctx->copy_ev[k & 1], 0));
        const char *buf = (const char *)p->buf[k & 1];
        const typename G::aff *b =
            (const typename G::aff *)(p->host_bases ? buf : p->bases + off * p->aff);
        const sp_scalar *s = (const sp_scalar *)(p->host_scalars ? buf + p->soff
                                                                 : p->scalars + off * sizeof(sp_scalar));
        typename G::jac part;
        SP_TRY(G::msm(ctx, &part, b, s, m, window, split));
        G::add(acc, &part);
    }
    return SP_OK;
}

/* Bytes per point the chunks copy from the host. */
static size_t per_host(const stream_plan *p)
{
    return (p->host_bases ? p->aff : 0) + (p->host_scalars ? sizeof(sp_scalar) : 0);
}

template <class G>
static sp_status stream_run(sp_cuda *ctx, typename G::jac *out, const typename G::aff *bases,
                            const sp_scalar *scalars, size_t n, size_t chunk, int split,
                            unsigned window)
{
    if (window && (window < 8 || window > 24))
        return SP_ERR_INVALID_ARG;
    if (n == 0) {
        G::inf(out);
        return SP_OK;
    }
    stream_plan p;
    memset(&p, 0, sizeof p);
    p.bases = (const char *)bases;
    p.scalars = (const char *)scalars;
    p.aff = sizeof(typename G::aff);
    p.host_bases = !sp_cu_is_device_ptr(bases);
    p.host_scalars = !sp_cu_is_device_ptr(scalars);
    p.n = n;
    unsigned flags = (split ? SP_CUDA_MSM_SPLIT : 0) | (p.host_bases ? SP_CUDA_MSM_HOST_BASES : 0) |
                     (p.host_scalars ? SP_CUDA_MSM_HOST_SCALARS : 0);
    if (chunk == 0 && stream_whole_table(ctx, G::group, bases, n, window, flags))
        chunk = n;
    if (chunk == 0 && split && !p.host_bases && !p.host_scalars && n < SP_STREAM_MAX_CHUNK) {
        int ok; /* the split MSM sizes its own steps once its partition fits */
        SP_TRY(stream_room(ctx, &ok, sp_cu_split_partition_bytes(n), 0));
        if (ok)
            chunk = n;
    }
    if (chunk == 0 && split && p.host_bases && !p.host_scalars && n < SP_STREAM_MAX_CHUNK) {
        /* pinned and mapped host bases: the zeros' are not copied at all */
        const void *view = ((uintptr_t)bases | (uintptr_t)scalars) % 16 ? NULL /* read by 16-byte words */
                                                                        : sp_cu_host_view(bases, n * p.aff);
        int ok = 0, declined = 1;
        if (view)
            SP_TRY(stream_room(ctx, &ok, sp_cu_split_partition_bytes(n), 0));
        if (ok)
            SP_TRY(G::once(ctx, out, (const typename G::aff *)view, scalars, n, window, &declined));
        if (!declined)
            return SP_OK;
    }
    int kept = 0;
    if (chunk == 0)
        SP_TRY(stream_pick_chunk(ctx, &chunk, G::group, n, per_host(&p), 1, split ? MODEL_SPLIT : MODEL_PLAIN, 0,
                                 &kept));
    if (chunk >= n) { /* one chunk: the plain call, which copies host data itself */
        sp_status st = G::msm(ctx, out, bases, scalars, n, window, split);
        if (st == SP_ERR_NOMEM && kept) { /* the kept scratch was in the way after all */
            SP_TRY(scratch_release(ctx, 0));
            st = G::msm(ctx, out, bases, scalars, n, window, split);
        }
        return st;
    }
    p.chunk = chunk < SP_STREAM_MAX_CHUNK ? chunk : SP_STREAM_MAX_CHUNK;
    size_t per = per_host(&p);
    p.soff = p.host_bases ? p.chunk * p.aff : 0;
    if (per) {
        SP_TRY(stream_init(ctx));
        SP_TRY(sp_cu_scratch(ctx, SP_SCR_STREAM0, p.chunk * per, &p.buf[0]));
        SP_TRY(sp_cu_scratch(ctx, SP_SCR_STREAM1, p.chunk * per, &p.buf[1]));
    }
    typename G::jac acc;
    sp_status st = stream_chunks<G>(ctx, &acc, &p, window, split);
    if (per) { /* no copy may still write a buffer, or read the caller's memory */
        cudaError_t e = cudaStreamSynchronize(ctx->copy_stream);
        if (e != cudaSuccess && st == SP_OK) {
            sp_cu_record(ctx, "cudaStreamSynchronize(copy stream)", __FILE__, __LINE__, e);
            st = SP_ERR_GPU;
        }
    }
    if (st == SP_OK)
        *out = acc;
    return st;
}

extern "C" sp_status sp_cuda_msm_g1_stream(sp_cuda *ctx, sp_g1_jac *out, const sp_g1_affine *bases,
                                           const sp_scalar *scalars, size_t n, size_t chunk,
                                           int split, unsigned window)
{
    return stream_run<stream_g1>(ctx, out, bases, scalars, n, chunk, split, window);
}

extern "C" sp_status sp_cuda_msm_g2_stream(sp_cuda *ctx, sp_g2_jac *out, const sp_g2_affine *bases,
                                           const sp_scalar *scalars, size_t n, size_t chunk,
                                           int split, unsigned window)
{
    return stream_run<stream_g2>(ctx, out, bases, scalars, n, chunk, split, window);
}

} // namespace SP_CURVE_NS
