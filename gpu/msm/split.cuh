/*
 * The split MSM's parts over the group's field (split.cu describes the
 * phases), as templates: split_g1.cu and split_g2.cu instantiate them,
 * one group each, so that the two compile side by side; split.cu holds
 * the partition, which no field enters.
 */
#ifndef SP_GPU_MSM_SPLIT_CUH
#define SP_GPU_MSM_SPLIT_CUH

#include <stdio.h>
#include <string.h>
#include "gpu/core/context.cuh"
#include "gpu/curve/xyzz.cuh"
#include "gpu/curve/xyzz_add_flat.cuh"
#include "accumulate.cuh"

namespace SP_CURVE_NS {

#define SP_SPLIT_THREADS 128
#define SP_SPLIT_MIN_PER 4 /* at least this many ones per thread before more threads are used */
/* Fewer than n / SP_SPLIT_GATHER_DEN scalars 0 or 1: no split. A zero
 * costs the plain MSM its sort slots only and a one a single record,
 * while the gather copies every other base and scalar (3.2 GB for G2 at
 * 2^24); a random witness (w_0 = 1) is the case. */
#define SP_SPLIT_GATHER_DEN 8

/* Phase 1 (split.cu): others[0..cnt[0]) and ones[0..cnt[1]) (device), cnt
 * on the host; ds: the n scalars on the device. */
sp_status sp_cu_split_partition(sp_cuda *ctx, uint32_t **others, uint32_t **ones, uint32_t cnt[2],
                                const void *ds, uint32_t n);

/* ---- kernels ---- */

template <class F> struct split_occupancy { enum { MIN_BLOCKS = 1 }; };
template <int M> struct split_occupancy<fp_tm<M>> { enum { MIN_BLOCKS = 4 }; };

/* part[t] = sum of bases[idx[j]] over j = t, t + T, t + 2T, ... < n1
 * (T threads in all; strided, so each step of a warp reads 32 adjacent
 * indices). Points at infinity are skipped. */
template <class F>
__global__ void __launch_bounds__(SP_SPLIT_THREADS, split_occupancy<F>::MIN_BLOCKS)
split_ones(xyzz_t<F> *part, const affine_t<F> *bases, const uint32_t *idx, uint32_t n1)
{
    uint32_t t = blockIdx.x * blockDim.x + threadIdx.x, nt = gridDim.x * blockDim.x;
    xyzz_t<F> acc;
    xyzz_set_inf(acc);
    for (uint32_t j = t; j < n1; j += nt) {
        affine_t<F> q = bases[idx[j]];
        if (!aff_is_inf(q))
            xyzz_add_affine(acc, q);
    }
    part[t] = acc;
}

/* As split_ones, over bases in host memory read across the bus: a block
 * takes SP_SPLIT_THREADS of the indices at a time, loads their records
 * into shared memory by 16-byte words, consecutive threads consecutive
 * words (so each record crosses the bus as one run, not as 8-byte pieces
 * of 32 records), then each thread adds one. part[b * SP_SPLIT_THREADS +
 * t] gets thread t of block b's sum. */
template <class F>
__global__ void __launch_bounds__(SP_SPLIT_THREADS, split_occupancy<F>::MIN_BLOCKS)
split_ones_tiled(xyzz_t<F> *part, const affine_t<F> *bases, const uint32_t *idx, uint32_t n1)
{
    constexpr uint32_t W = sizeof(affine_t<F>) / sizeof(uint4);
    static_assert(sizeof(affine_t<F>) % sizeof(uint4) == 0, "records of whole words");
    __shared__ uint4 tile[SP_SPLIT_THREADS * W];
    const uint32_t tid = threadIdx.x, step = gridDim.x * SP_SPLIT_THREADS;
    xyzz_t<F> acc;
    xyzz_set_inf(acc);
    for (uint32_t lo = blockIdx.x * SP_SPLIT_THREADS; lo < n1; lo += step) {
        const uint32_t m = n1 - lo < SP_SPLIT_THREADS ? n1 - lo : SP_SPLIT_THREADS;
        for (uint32_t w = tid; w < m * W; w += SP_SPLIT_THREADS) {
            const uint32_t r = w / W;
            tile[w] = ((const uint4 *)(bases + idx[lo + r]))[w - r * W];
        }
        __syncthreads();
        if (tid < m) {
            affine_t<F> q = *(const affine_t<F> *)(tile + tid * W);
            if (!aff_is_inf(q))
                xyzz_add_affine(acc, q);
        }
        __syncthreads();
    }
    part[blockIdx.x * SP_SPLIT_THREADS + tid] = acc;
}

/* Block g: out[g] = sum of in[g per .. min((g + 1) per, count)) by a fold
 * into blockDim.x sums, then a tree; in is overwritten. */
template <class F>
__global__ void __launch_bounds__(SP_SPLIT_THREADS)
split_sum_groups(xyzz_t<F> *out, xyzz_t<F> *in, size_t count, uint32_t per)
{
    size_t lo = (size_t)blockIdx.x * per;
    uint32_t m = (uint32_t)(count - lo < per ? count - lo : per), tid = threadIdx.x;
    xyzz_t<F> *s = in + lo;
    if (tid < m) {
        xyzz_t<F> acc = s[tid];
        for (uint32_t j = tid + blockDim.x; j < m; j += blockDim.x)
            xyzz_add_flat(acc, s[j]);
        s[tid] = acc;
    }
    __syncthreads();
    for (uint32_t k = m < blockDim.x ? m : blockDim.x; k > 1;) {
        uint32_t half = (k + 1) / 2;
        if (tid < k - half) {
            xyzz_t<F> acc = s[tid];
            xyzz_add_flat(acc, s[tid + half]);
            s[tid] = acc;
        }
        __syncthreads();
        k = half;
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}

struct split_scalar { ulonglong2 lo, hi; };

/* ob[j] = b[idx[j]], os[j] = s[idx[j]] for j < m. */
template <class A>
__global__ void split_gather(A *ob, split_scalar *os, const A *b, const split_scalar *s,
                             const uint32_t *idx, uint32_t m)
{
    uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= m)
        return;
    uint32_t i = idx[j];
    ob[j] = b[i];
    os[j] = s[i];
}

/* As split_gather, over bases in host memory read across the bus: thread
 * t copies 16-byte word t % (W + 2) of gathered record t / (W + 2), W
 * words of the base and then 2 of the scalar (on the device), so that each
 * base crosses the bus as one run. */
template <class A>
__global__ void split_gather_words(A *ob, split_scalar *os, const A *b, const split_scalar *s,
                                   const uint32_t *idx, uint32_t m)
{
    constexpr uint32_t W = sizeof(A) / sizeof(uint4), R = W + 2;
    static_assert(sizeof(A) % sizeof(uint4) == 0, "records of whole words");
    const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= (size_t)m * R)
        return;
    const uint32_t j = (uint32_t)(t / R), w = (uint32_t)(t - (size_t)j * R), i = idx[j];
    if (w < W)
        ((uint4 *)(ob + j))[w] = ((const uint4 *)(b + i))[w];
    else
        ((uint4 *)(os + j))[w - W] = ((const uint4 *)(s + i))[w - W];
}

/* ---- host side ---- */

/* Phase 2 by XYZZ threads: *sum (device) = the sum of bases[ones[j]],
 * j < n1 (n1 > 0), queued on the stream; once: bases in host memory
 * (split_ones_tiled). */
template <class F>
static sp_status split_ones_xyzz(sp_cuda *ctx, xyzz_t<F> **sum, const affine_t<F> *bases,
                                 const uint32_t *ones, uint32_t n1, int once)
{
    size_t per_blk = (size_t)SP_SPLIT_THREADS * SP_SPLIT_MIN_PER;
    size_t nblk = (n1 + per_blk - 1) / per_blk, cap = 4 * (size_t)(ctx->sm_count ? ctx->sm_count : 1);
    if (nblk > cap)
        nblk = cap;
    size_t nt = nblk * SP_SPLIT_THREADS;
    void *buf;
    SP_TRY(sp_cu_scratch(ctx, SP_SCR_SPLIT_SUM, (nt + nblk + 1) * sizeof(xyzz_t<F>), &buf));
    xyzz_t<F> *part = (xyzz_t<F> *)buf, *mid = part + nt;
    *sum = mid + nblk;
    if (once)
        split_ones_tiled<F><<<(unsigned)nblk, SP_SPLIT_THREADS, 0, ctx->stream>>>(part, bases, ones, n1);
    else
        split_ones<F><<<(unsigned)nblk, SP_SPLIT_THREADS, 0, ctx->stream>>>(part, bases, ones, n1);
    SP_CU_LAUNCHED(ctx, "split_ones");
    split_sum_groups<F><<<(unsigned)nblk, SP_SPLIT_THREADS, 0, ctx->stream>>>(mid, part, nt,
                                                                             SP_SPLIT_THREADS);
    SP_CU_LAUNCHED(ctx, "split_sum_groups");
    split_sum_groups<F><<<1, SP_SPLIT_THREADS, 0, ctx->stream>>>(*sum, mid, nblk, (uint32_t)nblk);
    SP_CU_LAUNCHED(ctx, "split_sum_groups");
    return SP_OK;
}

/* Per-group host functions. */
static inline sp_status split_pippenger(sp_cuda *ctx, sp_g1_jac *out, const sp_g1_affine *b,
                                 const sp_scalar *s, size_t n, unsigned window)
{
    return sp_cuda_msm_g1(ctx, out, b, s, n, window);
}

static inline sp_status split_pippenger(sp_cuda *ctx, sp_g2_jac *out, const sp_g2_affine *b,
                                 const sp_scalar *s, size_t n, unsigned window)
{
    return sp_cuda_msm_g2(ctx, out, b, s, n, window);
}

static inline int split_group(const sp_g1_affine *) { return 1; }
static inline int split_group(const sp_g2_affine *) { return 2; }

static inline void split_to_jac(sp_g1_jac *r, const sp_g1_xyzz *p) { sp_g1_xyzz_to_jac(r, p); }
static inline void split_to_jac(sp_g2_jac *r, const sp_g2_xyzz *p) { sp_g2_xyzz_to_jac(r, p); }
static inline void split_to_jac(sp_g2_jac *r, const sp_g2_affine *p) { sp_g2_jac_from_affine(r, p); }
static inline void split_add(sp_g1_jac *r, const sp_g1_jac *p, const sp_g1_jac *q) { sp_g1_jac_add_var(r, p, q); }
static inline void split_add(sp_g2_jac *r, const sp_g2_jac *p, const sp_g2_jac *q) { sp_g2_jac_add_var(r, p, q); }

/* The ones by one bucket's batch-affine rounds: G2 only, where an
 * addition costs 6 multiplications there against 10 for the XYZZ threads'
 * mixed one (in G1 the two ran even); from as many ones as a Pippenger
 * would sum by rounds (the streamed MSM's model counts their buffers).
 * *done = 1 when *sum was computed, 0 when the XYZZ threads are to run
 * (also when the rounds do not fit). */
static inline sp_status split_ones_rounds(sp_cuda *, sp_g1_jac *, const sp_g1_affine *,
                                          const uint32_t *, uint32_t, char *, size_t, int *done)
{
    *done = 0;
    return SP_OK;
}

static inline sp_status split_ones_rounds(sp_cuda *ctx, sp_g2_jac *sum, const sp_g2_affine *bases,
                                          const uint32_t *ones, uint32_t n1, char *prof,
                                          size_t prof_n, int *done)
{
    *done = 0;
    if (!sp_cu_msm_affine_for(ctx, n1))
        return SP_OK;
    sp_g2_affine *dsum = NULL, a;
    sp_status st = SP_ERR_NOMEM;
    for (int pass = 0; pass < 2 && st == SP_ERR_NOMEM; pass++) {
        /* the rounds take up to half of what is free, plus the batch-affine
         * scratch held (an H MSM's, reused): only when that falls short is
         * other scratch released, which a later MSM then allocates again */
        if (pass) {
            int room = 0;
            SP_TRY(sp_cu_msm_room(ctx, &room, 2 * sp_cu_sum_g2_bytes(ctx, n1)));
            if (!room)
                return SP_OK;
        }
        void *buf;
        SP_TRY(sp_cu_scratch(ctx, SP_SCR_SPLIT_SUM, sizeof(sp_g2_affine) + 4 * sizeof(uint32_t), &buf));
        dsum = (sp_g2_affine *)buf;
        st = sp_cu_sum_g2_affine(ctx, dsum, bases, ones, n1, (uint32_t *)(dsum + 1), prof, prof_n);
    }
    if (st == SP_ERR_NOMEM)
        return SP_OK;
    SP_TRY(st);
    SP_CU(ctx, cudaMemcpyAsync(&a, dsum, sizeof a, cudaMemcpyDeviceToHost, ctx->stream));
    SP_CU(ctx, cudaStreamSynchronize(ctx->stream));
    sp_g2_jac_from_affine(sum, &a);
    *done = 1;
    return SP_OK;
}

/* Phase 2: *sum (host) = the sum of bases[ones[j]], j < n1 (n1 > 0): by
 * rounds where split_ones_rounds takes them, else by the XYZZ threads and
 * tree; once (bases in host memory): by the XYZZ threads, which read each
 * base once. prof: the rounds' profile text, or "". */
template <class F, class HX, class HJ, class HA>
static sp_status split_ones_phase(sp_cuda *ctx, HJ *sum, const HA *bases, const uint32_t *ones,
                                  uint32_t n1, int once, char *prof, size_t prof_n)
{
    int done = 0;
    prof[0] = 0;
    if (!once)
        SP_TRY(split_ones_rounds(ctx, sum, bases, ones, n1, prof, prof_n, &done));
    if (done)
        return SP_OK;
    xyzz_t<F> *dsum;
    HX x;
    SP_TRY(split_ones_xyzz<F>(ctx, &dsum, (const affine_t<F> *)bases, ones, n1, once));
    SP_CU(ctx, cudaMemcpyAsync(&x, dsum, sizeof x, cudaMemcpyDeviceToHost, ctx->stream));
    SP_CU(ctx, cudaStreamSynchronize(ctx->stream));
    split_to_jac(sum, &x);
    return SP_OK;
}

/* The Pippenger over n points, bases[idx[j]] and scalars[idx[j]] (idx:
 * device, or NULL for j itself), in as few chunks as fit the device memory
 * (sp_cu_msm_fit; gathered into compact arrays where idx is given; once:
 * bases in host memory, gathered by split_gather_words): *pip = the sum,
 * *nchunk = the chunks. */
template <class HJ, class HA>
static sp_status split_pippenger_fit(sp_cuda *ctx, HJ *pip, size_t *nchunk, const HA *db,
                                     const void *ds, const uint32_t *idx, size_t n, unsigned window,
                                     int once)
{
    size_t m;
    void *gb = NULL, *gs = NULL;
    memset(pip, 0, sizeof *pip); /* Z = 0: infinity */
    *nchunk = 0;
    if (n == 0)
        return SP_OK;
    SP_TRY(sp_cu_msm_fit(ctx, &m, split_group(db), n, idx ? sizeof(HA) + sizeof(sp_scalar) : 0));
    if (idx) {
        SP_TRY(sp_cu_scratch(ctx, SP_SCR_SPLIT_BASES, m * sizeof(HA), &gb));
        SP_TRY(sp_cu_scratch(ctx, SP_SCR_SPLIT_SCALARS, m * sizeof(sp_scalar), &gs));
    }
    *nchunk = (n + m - 1) / m;
    for (size_t off = 0; off < n; off += m) {
        const uint32_t k = (uint32_t)(n - off < m ? n - off : m);
        const HA *b = db + off;
        const sp_scalar *sc = (const sp_scalar *)ds + off;
        if (idx && once) {
            const size_t words = (size_t)k * (sizeof(HA) / sizeof(uint4) + 2);
            split_gather_words<HA><<<sp_cu_blocks(words, 256), 256, 0, ctx->stream>>>(
                (HA *)gb, (split_scalar *)gs, db, (const split_scalar *)ds, idx + off, k);
            SP_CU_LAUNCHED(ctx, "split_gather_words");
        } else if (idx) {
            split_gather<HA><<<sp_cu_blocks(k, 256), 256, 0, ctx->stream>>>(
                (HA *)gb, (split_scalar *)gs, db, (const split_scalar *)ds, idx + off, k);
            SP_CU_LAUNCHED(ctx, "split_gather");
        }
        if (idx) {
            b = (const HA *)gb;
            sc = (const sp_scalar *)gs;
        }
        HJ part;
        SP_TRY(split_pippenger(ctx, &part, b, sc, k, window));
        split_add(pip, pip, &part);
    }
    return SP_OK;
}

/*
 * The split MSM. once: the bases are host memory that kernels read in
 * place over the bus (sp_cu_host_view), so each is read at most once: the
 * zeros' never, the ones' by the XYZZ threads, the others' by their
 * gather; with fewer than n / SP_SPLIT_GATHER_DEN scalars 0 or 1 nothing
 * more runs and *declined = 1 (the caller copies the bases instead: the
 * Pippenger over all of them would read each once per window).
 */
template <class F, class HX, class HJ, class HA>
static sp_status split_run(sp_cuda *ctx, HJ *out, const HA *bases, const sp_scalar *scalars,
                           size_t n, unsigned window, int once, int *declined)
{
    static_assert(sizeof(HA) == sizeof(affine_t<F>) && sizeof(HX) == sizeof(xyzz_t<F>), "layouts");
    static_assert(sizeof(split_scalar) == sizeof(sp_scalar), "scalar layout");
    if (declined)
        *declined = 0;
    if (n >= ((size_t)1 << 31) || (window && (window < 8 || window > 24)))
        return SP_ERR_INVALID_ARG;
    if (n == 0) {
        memset(out, 0, sizeof *out);
        return SP_OK;
    }
    const void *db = bases, *ds;
    if (!once)
        SP_TRY(sp_cu_device_view(ctx, SP_SCR_BASES, bases, n * sizeof(HA), &db));
    SP_TRY(sp_cu_device_view(ctx, SP_SCR_SCALARS, scalars, n * sizeof(sp_scalar), &ds));
    uint32_t *others, *ones, cnt[2];
    SP_TRY(sp_cu_split_partition(ctx, &others, &ones, cnt, ds, (uint32_t)n));
    size_t nchunk = 0;
    if (n - cnt[0] < n / SP_SPLIT_GATHER_DEN && once) {
        *declined = 1;
        return SP_OK;
    }
    if (n - cnt[0] < n / SP_SPLIT_GATHER_DEN) { /* few 0/1: the plain MSM over all, no copies */
        SP_TRY(split_pippenger_fit(ctx, out, &nchunk, (const HA *)db, ds, NULL, n, window, 0));
        if (ctx->profile) {
            char pp[sizeof ctx->prof];
            snprintf(pp, sizeof pp, "%s", ctx->prof);
            snprintf(ctx->prof, sizeof ctx->prof,
                     "split n=%zu: other %u, one %u, zero %zu, no gather, %zu chunk(s); %s", n, cnt[0],
                     cnt[1], n - cnt[0] - cnt[1], nchunk, pp);
        }
        return SP_OK;
    }
    HJ sum, pip;
    char ones_prof[200];
    memset(&sum, 0, sizeof sum); /* Z = 0: infinity */
    ones_prof[0] = 0;
    if (cnt[1])
        SP_TRY((split_ones_phase<F, HX>(ctx, &sum, (const HA *)db, ones, cnt[1], once, ones_prof,
                                        sizeof ones_prof)));
    SP_TRY(split_pippenger_fit(ctx, &pip, &nchunk, (const HA *)db, ds, others, cnt[0], window, once));
    if (ctx->profile) {
        char pp[sizeof ctx->prof];
        snprintf(pp, sizeof pp, "%s", cnt[0] ? ctx->prof : "no Pippenger");
        snprintf(ctx->prof, sizeof ctx->prof,
                 "split n=%zu%s: other %u in %zu chunk(s), one %u, zero %zu; ones by %s%s; %s", n,
                 once ? ", bases read in place from host memory" : "", cnt[0], nchunk, cnt[1],
                 n - cnt[0] - cnt[1], ones_prof[0] ? "rounds: " : "XYZZ threads", ones_prof, pp);
    }
    split_add(out, &pip, &sum);
    return SP_OK;
}

} // namespace SP_CURVE_NS

#endif
