/*
 * The templated part of the device MSM (pippenger.cu describes the
 * phases): the accumulation and reduction kernels (phases 4 and 5), their
 * launchers and msm_run. Instantiated one group a file, so that the heavy
 * instantiations compile in parallel: the XYZZ accumulation's run in
 * xyzz_acc_g1.cu and xyzz_acc_g2.cu, the reductions (both
 * accumulations') in reduce_g1.cu and reduce_g2.cu; the phases without
 * field arithmetic live in pippenger.cu.
 */
#ifndef SP_GPU_MSM_KERN_CUH
#define SP_GPU_MSM_KERN_CUH

#include <stdio.h>
#include <string.h>
#include "gpu/core/context.cuh"
#include "gpu/curve/xyzz.cuh"
#include "gpu/curve/xyzz_add_flat.cuh"

namespace SP_CURVE_NS {

#define SP_MSM_THREADS 128 /* heavy kernels: up to 255 registers per thread */
#define SP_MSM_MAX_WIN 32  /* windows for the smallest c = 8 */
#define SP_SMALL_BYTES 16384
#define SP_MSM_LOG_CHUNK 5 /* T = 32 records per accumulation thread (64: no faster) */
#define SP_MSM_FIX_SERIAL 8 /* longest run of chunk partials a fix-up thread adds alone */

/* Window w covers scalar bits [off[w], off[w+1]); off[nwin] = 256. */
struct msm_windows {
    uint16_t off[SP_MSM_MAX_WIN + 1];
};

/* ---- host functions (pippenger.cu) ---- */

/* The layout for windows of at most c bits: W = ceil(256/c) windows of
 * equal widths (floor or ceil of 256/W); returns the widest. */
unsigned sp_cu_msm_layout(unsigned c, msm_windows *win, unsigned *nwin);
/* The widest window for n points by the cost model of the XYZZ
 * accumulation (batch_affine = 0) or of the batch-affine one (1);
 * sp_cuda_msm_window gives the by-size choice's. */
unsigned sp_cu_msm_window_acc(size_t n, int batch_affine);
/* log2 of the reduction's segment length. */
unsigned sp_cu_msm_log_seg(unsigned c, unsigned nwin);
/* Phases 1-3: sorted records and bucket ranges. On output *bad is the
 * non-canonical flag read back from the device. shared = 0: record (w, i)
 * has key (w << c) | |d| and value i | sign << 31 (a set of buckets per
 * window); shared = 1 (a precomputed table, table.cuh): key |d| and
 * value (w n + i) | sign << 31, the point of row w of the table, so that
 * every window's records share one set of buckets (n nwin < 2^31). */
sp_status sp_cu_msm_sort(sp_cuda *ctx, const uint64_t *scalars, uint32_t n, unsigned c,
                         unsigned nwin, const msm_windows *lay, int shared, uint32_t **keys_out,
                         uint32_t **vals_out, uint32_t **start, uint32_t **end, int *bad);
/* The device bytes sp_cu_msm_sort holds for recs records and slots bucket
 * ranges, for the memory models (table.cu, stream.cu): four key
 * and value buffers of 4 bytes a record, which the double-buffer sort
 * alternates between, CUB's bookkeeping (estimated: half a byte a record
 * and 1 MiB), 8 bytes a range. */
static inline double sp_cu_msm_sort_model(double recs, double slots)
{
    return 16 * recs + (recs / 2 + (1 << 20)) + 8 * slots;
}
/* With profiling on, records phase mark i (0..4) on the stream. */
sp_status sp_cu_msm_mark(sp_cuda *ctx, int i);
/* After a profiled call: the phase times as text in ctx->prof. */
sp_status sp_cu_msm_profile_text(sp_cuda *ctx, int group, size_t n, unsigned c, unsigned nwin,
                                 unsigned log_l);
/* Phase 6: *out = sum_w 2^off[w] win[w] (Horner on the CPU). */
void sp_cu_msm_combine(sp_g1_jac *out, const sp_g1_xyzz *win, unsigned nwin,
                       const msm_windows *lay);
void sp_cu_msm_combine(sp_g2_jac *out, const sp_g2_xyzz *win, unsigned nwin,
                       const msm_windows *lay);

/* The host's XYZZ doubling and addition by group (msm_finish's join). */
static inline void sp_cu_xyzz_dbl(sp_g1_xyzz *r, const sp_g1_xyzz *p) { sp_g1_xyzz_dbl(r, p); }
static inline void sp_cu_xyzz_dbl(sp_g2_xyzz *r, const sp_g2_xyzz *p) { sp_g2_xyzz_dbl(r, p); }
static inline void sp_cu_xyzz_add(sp_g1_xyzz *r, const sp_g1_xyzz *p, const sp_g1_xyzz *q)
{
    sp_g1_xyzz_add_var(r, p, q);
}
static inline void sp_cu_xyzz_add(sp_g2_xyzz *r, const sp_g2_xyzz *p, const sp_g2_xyzz *q)
{
    sp_g2_xyzz_add_var(r, p, q);
}

static __device__ __forceinline__ size_t bucket_of(uint32_t key, unsigned c)
{
    return ((size_t)(key >> c) << (c - 1)) + (key & ((1u << c) - 1)) - 1;
}

/* ---- phase 4: bucket accumulation ---- */


/*
 * How the accumulation hides the gather of the next record's point (the
 * same records, partials and buckets either way):
 *   SP_MSM_V_REG     (G2) the next point is loaded into registers while
 *                    the current one is added (a second point's registers);
 *   SP_MSM_V_L2_OCC  (G1) the next point is only prefetched into L2 (a
 *                    hint, no registers) and loaded when its turn comes,
 *                    with the kernel bounded to 3 blocks of 128 threads
 *                    per SM (168 registers: no register cap inside the
 *                    addition).
 * G2 needs all 255 registers either way (1 block per SM bound).
 */
enum { SP_MSM_V_REG = 0, SP_MSM_V_L2_OCC = 2 };

template <class F, int V> struct msm_occupancy { enum { MIN_BLOCKS = 1 }; };
template <int M, int V> struct msm_occupancy<fp_tm<M>, V> {
    enum { MIN_BLOCKS = V == SP_MSM_V_L2_OCC ? 3 : 4 };
};

static __device__ __forceinline__ void prefetch_l2(const void *p)
{
    asm volatile("prefetch.global.L2 [%0];" ::"l"(p));
}

/* Thread k: records [kT, min(kT + T, m)). part[2k] = sum of its first key's
 * points, part[2k + 1] = its last key's (when different); keys strictly
 * between are whole buckets, written to buckets[]. Digit-0 keys are skipped. */
template <class F, int V>
__global__ void __launch_bounds__(SP_MSM_THREADS, msm_occupancy<F, V>::MIN_BLOCKS)
msm_accumulate(xyzz_t<F> *buckets, xyzz_t<F> *part, const affine_t<F> *bases,
               const uint32_t *keys, const uint32_t *vals, size_t m, unsigned c)
{
    size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x, lo = k << SP_MSM_LOG_CHUNK;
    if (lo >= m)
        return;
    size_t hi = lo + (1u << SP_MSM_LOG_CHUNK) < m ? lo + (1u << SP_MSM_LOG_CHUNK) : m;
    const uint32_t dmask = (1u << c) - 1, first = keys[lo];
    uint32_t cur = first;
    xyzz_t<F> acc;
    xyzz_set_inf(acc);
    /* the next record (and, for V_REG, its point) is loaded while the
     * current one is added */
    uint32_t nkey = first, v = vals[lo];
    affine_t<F> next;
    if (V == SP_MSM_V_REG)
        next = bases[v & 0x7fffffffu];
    for (size_t j = lo; j < hi; j++) {
        uint32_t key = nkey, cv = v, neg = v >> 31;
        affine_t<F> q;
        if (V == SP_MSM_V_REG)
            q = next;
        if (j + 1 < hi) {
            nkey = keys[j + 1];
            v = vals[j + 1];
            if (V == SP_MSM_V_REG)
                next = bases[v & 0x7fffffffu];
            else
                prefetch_l2(&bases[v & 0x7fffffffu]);
        }
        if (key != cur) { /* cur is complete: it is first or a middle key */
            if (cur == first)
                part[2 * k] = acc;
            else if (cur & dmask)
                buckets[bucket_of(cur, c)] = acc;
            xyzz_set_inf(acc);
            cur = key;
        }
        if (!(key & dmask))
            continue;
        if (V != SP_MSM_V_REG)
            q = bases[cv & 0x7fffffffu];
        if (aff_is_inf(q))
            continue;
        if (neg)
            f_neg(q.y, q.y);
        xyzz_add_affine(acc, q);
    }
    part[cur == first ? 2 * k : 2 * k + 1] = acc;
}

/* The bucket of slot t: its key, the chunks ks..ke its records span, and
 * whether it is a middle key of chunk ks (then msm_accumulate wrote it).
 * Returns 0 for an empty bucket. */
static __device__ __forceinline__ int bucket_span(uint32_t *key, size_t *ks, size_t *ke, int *middle,
                                                  size_t t, const uint32_t *keys, size_t m,
                                                  const uint32_t *start, const uint32_t *end,
                                                  unsigned c)
{
    const unsigned lk = c - 1;
    *key = ((uint32_t)(t >> lk) << c) | ((uint32_t)(t & ((1u << lk) - 1)) + 1);
    uint32_t s = start[*key], e = end[*key];
    if (s == e)
        return 0;
    *ks = (size_t)s >> SP_MSM_LOG_CHUNK;
    *ke = (size_t)(e - 1) >> SP_MSM_LOG_CHUNK;
    size_t lo = *ks << SP_MSM_LOG_CHUNK, hi = lo + (1u << SP_MSM_LOG_CHUNK);
    *middle = *key != keys[lo] && *key != keys[(hi < m ? hi : m) - 1];
    return 1;
}

/* The partial slot of chunk ks that holds key's first records. */
static __device__ __forceinline__ size_t first_part(uint32_t key, size_t ks, const uint32_t *keys)
{
    return key == keys[ks << SP_MSM_LOG_CHUNK] ? 2 * ks : 2 * ks + 1;
}

/* Thread per bucket slot: empty buckets become infinity; a bucket that is
 * the first or last key of its starting chunk is assembled from the
 * partials of every chunk it spans, unless it spans more than
 * SP_MSM_FIX_SERIAL of them: then it is left to msm_fix_tree and
 * msm_fix_wide, and *maxspan records the widest span. */
template <class F>
__global__ void __launch_bounds__(SP_MSM_THREADS)
msm_fixup(xyzz_t<F> *buckets, const xyzz_t<F> *part, const uint32_t *keys, size_t m,
          const uint32_t *start, const uint32_t *end, unsigned c, unsigned nwin,
          unsigned *maxspan)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x, ks, ke;
    if (t >= ((size_t)nwin << (c - 1)))
        return;
    uint32_t key;
    int middle;
    if (!bucket_span(&key, &ks, &ke, &middle, t, keys, m, start, end, c)) {
        xyzz_t<F> inf;
        xyzz_set_inf(inf);
        buckets[t] = inf;
        return;
    }
    if (middle)
        return; /* written by msm_accumulate */
    if (ke - ks > SP_MSM_FIX_SERIAL) {
        atomicMax(maxspan, (unsigned)(ke - ks));
        return;
    }
    xyzz_t<F> acc = part[first_part(key, ks, keys)];
    for (size_t kk = ks + 1; kk <= ke; kk++)
        xyzz_add_flat(acc, part[2 * kk]);
    buckets[t] = acc;
}

/*
 * One pass of the tree over wide buckets, a thread per chunk kk. A bucket
 * spanning chunks ks..ke (ke - ks > SP_MSM_FIX_SERIAL) has L = ke - ks
 * continuation partials part[2kk], kk = ks+1..ke, numbered j = kk - ks - 1;
 * pass `step` (1, 2, 4, ...) adds item j + step into item j for j a
 * multiple of 2 step. After the passes with step < L, item 0 holds the sum.
 */
template <class F>
__global__ void __launch_bounds__(SP_MSM_THREADS)
msm_fix_tree(xyzz_t<F> *part, const uint32_t *keys, size_t nchunk, const uint32_t *start,
             const uint32_t *end, unsigned c, size_t step)
{
    size_t kk = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (kk >= nchunk)
        return;
    uint32_t key = keys[kk << SP_MSM_LOG_CHUNK];
    if (!(key & ((1u << c) - 1)))
        return; /* digit 0: no bucket */
    size_t ks = (size_t)start[key] >> SP_MSM_LOG_CHUNK;
    size_t ke = (size_t)(end[key] - 1) >> SP_MSM_LOG_CHUNK;
    if (ks == kk || ke - ks <= SP_MSM_FIX_SERIAL || ((kk - ks - 1) & (2 * step - 1)) ||
        kk + step > ke)
        return;
    xyzz_t<F> acc = part[2 * kk];
    xyzz_add_flat(acc, part[2 * (kk + step)]);
    part[2 * kk] = acc;
}

/* Thread per bucket slot: a wide bucket = its partial in chunk ks plus the
 * tree's sum of the rest (item 0, part[2 (ks + 1)]). */
template <class F>
__global__ void __launch_bounds__(SP_MSM_THREADS)
msm_fix_wide(xyzz_t<F> *buckets, const xyzz_t<F> *part, const uint32_t *keys, size_t m,
             const uint32_t *start, const uint32_t *end, unsigned c, unsigned nwin)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x, ks, ke;
    if (t >= ((size_t)nwin << (c - 1)))
        return;
    uint32_t key;
    int middle;
    if (!bucket_span(&key, &ks, &ke, &middle, t, keys, m, start, end, c) || middle ||
        ke - ks <= SP_MSM_FIX_SERIAL)
        return;
    xyzz_t<F> acc = part[first_part(key, ks, keys)];
    xyzz_add_flat(acc, part[2 * (ks + 1)]);
    buckets[t] = acc;
}

/* ---- phase 5: bucket reduction ---- */

/* r = [k] p by double-and-add (k public, small). */
template <class F>
static __device__ void xyzz_mul_small(xyzz_t<F> &r, const xyzz_t<F> &p, uint32_t k)
{
    xyzz_set_inf(r);
    if (k == 0)
        return;
    r = p;
    for (int bit = 30 - __clz(k); bit >= 0; bit--) {
        xyzz_dbl(r, r);
        if ((k >> bit) & 1)
            xyzz_add(r, p);
    }
}

/* run += b in the reduction: b a bucket sum in XYZZ (the accumulation
 * above) or affine (the batch-affine accumulation, batch_affine.cu: a mixed
 * addition, 10 products instead of 14; infinity is (0, 0)). */
template <class F>
static __device__ __forceinline__ void bucket_add(xyzz_t<F> &run, const xyzz_t<F> &b)
{
    xyzz_add(run, b);
}
template <class F>
static __device__ __forceinline__ void bucket_add(xyzz_t<F> &run, const affine_t<F> &b)
{
    if (!aff_is_inf(b))
        xyzz_add_affine(run, b);
}

/*
 * Thread (w, j) owns buckets j*L+1 .. (j+1)*L of window w and writes
 *   sum_{k in segment} k B_k = sum (k - jL) B_k + jL * sum B_k,
 * the first term by the running sum from the top bucket down. B: the
 * buckets' type (bucket_add).
 */
template <class F, class B>
__global__ void __launch_bounds__(SP_MSM_THREADS)
msm_reduce_segments(xyzz_t<F> *segs, const B *buckets, unsigned c, unsigned nwin,
                    unsigned log_l)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned lk = c - 1, ls = lk - log_l; /* log2 of segments per window */
    if (t >= ((size_t)nwin << ls))
        return;
    uint32_t w = (uint32_t)(t >> ls), j = (uint32_t)(t & ((1u << ls) - 1));
    const B *b = buckets + ((size_t)w << lk) + ((size_t)j << log_l);
    xyzz_t<F> run, acc;
    xyzz_set_inf(run);
    xyzz_set_inf(acc);
    for (int k = (1 << log_l) - 1; k >= 0; k--) {
        bucket_add(run, b[k]);
        xyzz_add(acc, run);
    }
    if (j) {
        xyzz_t<F> m;
        xyzz_mul_small(m, run, j << log_l);
        xyzz_add(acc, m);
    }
    segs[t] = acc;
}

/* The split reduction's parts (msm_split, before msm_reduce_into): thread
 * (w, side, i, p) sums part p of window w's row i + 1 (side 0: columns p +
 * G k) or of its column (i + 1) mod Q (side 1: rows p 2^(lk-m-g) + k)
 * into part[((2w + side) Q + i) G + p]; consecutive threads read
 * consecutive buckets on both sides. Blocks per SM: 4 in G1 (128
 * registers), 2 in G2. */
template <class F> struct msm_split_occ {
    enum { N = sizeof(F) > 48 ? 2 : 4 };
};
template <class F>
__global__ void __launch_bounds__(SP_MSM_THREADS, (msm_split_occ<F>::N))
msm_split_parts(xyzz_t<F> *part, const affine_t<F> *bk, unsigned lk, unsigned m, unsigned g,
                unsigned nwin)
{
    const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x, K = (size_t)1 << lk;
    const unsigned sh = m + g; /* log2 of the threads of one side of a window */
    if (t >= ((size_t)2 * nwin << sh))
        return;
    const uint32_t u = (uint32_t)(t & ((1u << sh) - 1)), side = (uint32_t)(t >> sh) & 1;
    const size_t w = t >> (sh + 1), base = w * K; /* b_j = bk[base + j - 1] */
    const uint32_t Q = 1u << m;
    uint32_t i, p;
    xyzz_t<F> acc;
    xyzz_set_inf(acc);
    if (side == 0) {
        i = u >> g, p = u & ((1u << g) - 1);
        const size_t h = (size_t)i + 1;
        if (h <= (K >> m))
            for (uint32_t k = 0; k < (Q >> g); k++) {
                const size_t j = (h << m) + p + ((size_t)k << g);
                if (j <= K) /* row Hn holds j = K alone */
                    bucket_add(acc, bk[base + j - 1]);
            }
    } else {
        p = u >> m, i = u & (Q - 1);
        const uint32_t l = (i + 1) & (Q - 1), rows = 1u << (lk - m - g);
        if (l)
            for (uint32_t k = 0; k < rows; k++)
                bucket_add(acc, bk[base + (((size_t)p * rows + k) << m) + l - 1]);
    }
    part[(((w << 1) + side) * Q + i) * ((size_t)1 << g) + p] = acc;
}

/* The split's weighing of one window by bits (msm_reduce_split, nwin = 1):
 * x[(s (m + 1) + k) Q + i] = hv[s Q + i] where bit k of i + 1 is set, else
 * infinity (s: rows 0, columns 1); the group sums of x are then T_(s,k) =
 * sum of the points whose weight has bit k, and side s's weighed sum is
 * sum_k 2^k T_(s,k) (msm_finish). */
template <class F>
__global__ void msm_split_bits(xyzz_t<F> *x, const xyzz_t<F> *hv, unsigned m)
{
    const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= ((size_t)2 * (m + 1) << m))
        return;
    const uint32_t i = (uint32_t)(t & ((1u << m) - 1)), g = (uint32_t)(t >> m);
    const uint32_t k = g % (m + 1), side = g / (m + 1);
    if (((i + 1) >> k) & 1)
        x[t] = hv[((size_t)side << m) + i];
    else
        xyzz_set_inf(x[t]);
}

/* One block per group of nseg consecutive points: out[g] = their sum.
 * segs is overwritten. */
template <class F>
__global__ void __launch_bounds__(SP_MSM_THREADS)
msm_sum_groups(xyzz_t<F> *win, xyzz_t<F> *segs, uint32_t nseg)
{
    xyzz_t<F> *s = segs + (size_t)blockIdx.x * nseg;
    uint32_t tid = threadIdx.x;
    if (tid < nseg) {
        xyzz_t<F> acc = s[tid];
        for (uint32_t j = tid + blockDim.x; j < nseg; j += blockDim.x)
            xyzz_add_flat(acc, s[j]);
        s[tid] = acc;
    }
    __syncthreads();
    uint32_t m = nseg < blockDim.x ? nseg : blockDim.x;
    while (m > 1) {
        uint32_t half = (m + 1) / 2;
        if (tid < m - half) {
            xyzz_t<F> acc = s[tid];
            xyzz_add_flat(acc, s[tid + half]);
            s[tid] = acc;
        }
        __syncthreads();
        m = half;
    }
    if (tid == 0)
        win[blockIdx.x] = s[0];
}

/* ---- launchers ---- */

/* Phase 4: buckets (nwin << (c-1) XYZZ sums) from the sorted records. */
template <class F, int V>
static sp_status msm_accumulate_phase(sp_cuda *ctx, xyzz_t<F> *bk, const affine_t<F> *bases,
                                      const uint32_t *keys, const uint32_t *vals,
                                      const uint32_t *start, const uint32_t *end, size_t n,
                                      unsigned c, unsigned nwin)
{
    size_t nbuck = (size_t)nwin << (c - 1), m = (size_t)nwin * n;
    size_t nchunk = (m + (1u << SP_MSM_LOG_CHUNK) - 1) >> SP_MSM_LOG_CHUNK;
    void *pt, *small;
    SP_TRY(sp_cu_scratch(ctx, SP_SCR_PARTS, 2 * nchunk * sizeof(xyzz_t<F>), &pt));
    SP_TRY(sp_cu_scratch(ctx, SP_SCR_SMALL, SP_SMALL_BYTES, &small));
    unsigned *dspan = (unsigned *)small + 1, span = 0; /* word 0 is the bad-scalar flag */
    SP_CU(ctx, cudaMemsetAsync(dspan, 0, sizeof *dspan, ctx->stream));
    msm_accumulate<F, V><<<sp_cu_blocks(nchunk, SP_MSM_THREADS), SP_MSM_THREADS, 0, ctx->stream>>>(
        bk, (xyzz_t<F> *)pt, bases, keys, vals, m, c);
    SP_CU_LAUNCHED(ctx, "msm_accumulate");
    msm_fixup<F><<<sp_cu_blocks(nbuck, SP_MSM_THREADS), SP_MSM_THREADS, 0, ctx->stream>>>(
        bk, (const xyzz_t<F> *)pt, keys, m, start, end, c, nwin, dspan);
    SP_CU_LAUNCHED(ctx, "msm_fixup");
    /* the number of tree passes depends on the data: one small read-back */
    SP_CU(ctx, cudaMemcpyAsync(&span, dspan, sizeof span, cudaMemcpyDeviceToHost, ctx->stream));
    SP_CU(ctx, cudaStreamSynchronize(ctx->stream));
    if (span <= SP_MSM_FIX_SERIAL)
        return SP_OK;
    for (size_t step = 1; step < span; step *= 2) {
        msm_fix_tree<F><<<sp_cu_blocks(nchunk, SP_MSM_THREADS), SP_MSM_THREADS, 0, ctx->stream>>>(
            (xyzz_t<F> *)pt, keys, nchunk, start, end, c, step);
        SP_CU_LAUNCHED(ctx, "msm_fix_tree");
    }
    msm_fix_wide<F><<<sp_cu_blocks(nbuck, SP_MSM_THREADS), SP_MSM_THREADS, 0, ctx->stream>>>(
        bk, (const xyzz_t<F> *)pt, keys, m, start, end, c, nwin);
    SP_CU_LAUNCHED(ctx, "msm_fix_wide");
    return SP_OK;
}

/* The XYZZ points phase 5 needs beside the buckets (msm_reduce_into's sg). */
static inline size_t msm_reduce_scratch(unsigned c, unsigned nwin, unsigned log_l)
{
    return ((size_t)nwin << (c - 1 - log_l)) + 16 * nwin + 256;
}

/*
 * Phase 5 split in rows and columns (affine buckets, batch_affine.cu). Window w's sum_{j=1..K} j b_j (b_j its bucket j - 1, K =
 * 2^lk buckets), with j = h Q + l, Q = 2^m, m = ceil(lk / 2), Hn = K / Q:
 *   = Q sum_{h=1..Hn} h H_h + sum_{l=1..Q-1} l V_l,
 * H_h the sum of row h (the b_j with hQ <= j < hQ + Q, j <= K), V_l of
 * column l (b_(hQ+l), h < Hn): two mixed additions a bucket (10 products
 * each) where the running sums take a mixed and a full one (10 + 14) and
 * each segment a scaling by its first index. Each row and column is cut
 * into G = 2^g parts summed by one thread each, then the parts of each
 * by msm_sum_groups; the rows (H'_i = H_(i+1)) and the columns (V'_i =
 * V_(i+1), V'_(Q-1) = 0) then form two windows of Q points that
 * msm_reduce_into weighs as it weighs buckets, into s2[2w] and s2[2w+1];
 * win[w] = Q s2[2w] + s2[2w+1].
 */
struct msm_split {
    unsigned lk, m, g, ll; /* ll: the weighing's log_l (c = m + 1, 2 nwin windows) */
    size_t parts, hv, s2, sg, bits, total; /* offsets in the scratch (XYZZ points); total points */
};

static inline msm_split msm_split_plan(unsigned c, unsigned nwin)
{
    msm_split p;
    p.lk = c - 1;
    p.m = (p.lk + 1) / 2;
    p.g = 0; /* parts per row and column: up to 2^18 threads in all */
    while (p.g < p.lk - p.m && ((size_t)2 * nwin << (p.m + p.g + 1)) <= ((size_t)1 << 18))
        p.g++;
    p.ll = sp_cu_msm_log_seg(p.m + 1, 2 * nwin);
    const size_t q2 = (size_t)2 * nwin << p.m;
    p.parts = 0;
    p.hv = q2 << p.g;
    p.s2 = p.hv + q2;
    p.sg = p.s2 + 2 * nwin;
    p.bits = p.sg + msm_reduce_scratch(p.m + 1, 2 * nwin, p.ll);
    p.total = p.bits + (nwin == 1 ? ((size_t)2 * (p.m + 1) << p.m) + 32 * (p.m + 1) + 256 : 0);
    return p;
}

/* win[w] = the sum of sg's group w of nseg / nwin consecutive points, for
 * w < nwin; sg (overwritten) has room for 16 nwin + 256 more points after
 * its nseg. Two levels: nwin*G groups, then nwin groups of G (a deep
 * serial sum per block would be latency-bound); G = 16, or up to 256 /
 * nwin for few windows (a table MSM has one: 16 blocks leave most SMs
 * idle), each group 128 points or more. */
template <class F>
static sp_status msm_sum_two_levels(sp_cuda *ctx, xyzz_t<F> *win, xyzz_t<F> *sg, size_t nseg,
                                    unsigned nwin)
{
    uint32_t per_win = (uint32_t)(nseg / nwin), grp = per_win >= 256 ? 16 : 1;
    while (grp > 1 && 2 * grp * nwin <= 256 && per_win / (2 * grp) >= 128)
        grp *= 2;
    xyzz_t<F> *mid = sg + nseg; /* at most 16 nwin or 256 */
    msm_sum_groups<F><<<nwin * grp, SP_MSM_THREADS, 0, ctx->stream>>>(grp > 1 ? mid : win, sg,
                                                                      per_win / grp);
    SP_CU_LAUNCHED(ctx, "msm_sum_groups");
    if (grp > 1) {
        msm_sum_groups<F><<<nwin, SP_MSM_THREADS, 0, ctx->stream>>>(win, mid, grp);
        SP_CU_LAUNCHED(ctx, "msm_sum_groups");
    }
    return SP_OK;
}

/* Phase 5 into given scratch: win[w] = sum_k k * B_(w,k) for every window
 * (B: the buckets' type, XYZZ or affine; window w's 2^(c-1) buckets at
 * bk + w 2^(c-1)), sg msm_reduce_scratch(c, nwin, log_l) points; mark:
 * the profile's mark 3 after the segments. */
template <class F, class B>
static sp_status msm_reduce_into(sp_cuda *ctx, xyzz_t<F> *win, const B *bk, unsigned c,
                                 unsigned nwin, unsigned log_l, xyzz_t<F> *sg, bool mark)
{
    size_t nseg = (size_t)nwin << (c - 1 - log_l);
    msm_reduce_segments<F, B><<<sp_cu_blocks(nseg, SP_MSM_THREADS), SP_MSM_THREADS, 0, ctx->stream>>>(
        sg, bk, c, nwin, log_l);
    SP_CU_LAUNCHED(ctx, "msm_reduce_segments");
    if (mark)
        SP_TRY(sp_cu_msm_mark(ctx, 3));
    return msm_sum_two_levels(ctx, win, sg, nseg, nwin);
}

/* What the host does with the split reduction's sums (msm_finish): how 0
 * nothing (the window sums are in SP_SCR_SMALL from byte 256), 1 rows and
 * columns a window, 2 one window's sums by bits; m, the split's; sums,
 * where they are on the device. */
struct msm_join {
    unsigned how, m;
    const void *sums;
};

/* Phase 5 split in rows and columns (msm_split) over affine buckets, in
 * the context's SP_SCR_SEGS; the profile's mark 3 after the rows' and
 * columns' sums. One window (a table MSM): win[s (m + 1) + k] = T_(s,k)
 * (msm_split_bits), how = 2: the host weighs and joins them (2 (m + 1)
 * additions and doublings; the device's weighing is a chain of ~30
 * dependent XYZZ operations, this one ~14). Else window w's weighed rows
 * and columns are sums 2w and 2w + 1 and how = 1: the host makes 2^m
 * rows + columns (m doublings that one device thread runs ~20x slower).
 * The sums are at win when they fit there (SP_SMALL_BYTES from byte 256),
 * else in the split's scratch. *j says how (1 or 2), m, and where. */
template <class F>
static sp_status msm_reduce_split(sp_cuda *ctx, xyzz_t<F> *win, const affine_t<F> *bk, unsigned c,
                                  unsigned nwin, msm_join *j)
{
    const msm_split p = msm_split_plan(c, nwin);
    void *v;
    SP_TRY(sp_cu_scratch(ctx, SP_SCR_SEGS, p.total * sizeof(xyzz_t<F>), &v));
    xyzz_t<F> *sg = (xyzz_t<F> *)v;
    msm_split_parts<F><<<sp_cu_blocks(p.hv, SP_MSM_THREADS), SP_MSM_THREADS, 0, ctx->stream>>>(
        sg + p.parts, bk, p.lk, p.m, p.g, nwin);
    SP_CU_LAUNCHED(ctx, "msm_split_parts");
    msm_sum_groups<F><<<(unsigned)(p.s2 - p.hv), SP_MSM_THREADS, 0, ctx->stream>>>(
        sg + p.hv, sg + p.parts, 1u << p.g);
    SP_CU_LAUNCHED(ctx, "msm_sum_groups");
    SP_TRY(sp_cu_msm_mark(ctx, 3));
    j->m = p.m;
    j->sums = win;
    if (nwin == 1 && 256 + 2 * (p.m + 1) * sizeof(xyzz_t<F>) <= SP_SMALL_BYTES) {
        const size_t nx = (size_t)2 * (p.m + 1) << p.m;
        msm_split_bits<F><<<sp_cu_blocks(nx, 256), 256, 0, ctx->stream>>>(sg + p.bits, sg + p.hv, p.m);
        SP_CU_LAUNCHED(ctx, "msm_split_bits");
        j->how = 2;
        return msm_sum_two_levels(ctx, win, sg + p.bits, nx, 2 * (p.m + 1));
    }
    xyzz_t<F> *sums = win;
    if (256 + 2 * nwin * sizeof(xyzz_t<F>) > SP_SMALL_BYTES)
        j->sums = sums = sg + p.s2;
    j->how = 1;
    return msm_reduce_into<F, xyzz_t<F> >(ctx, sums, sg + p.hv, p.m + 1, 2 * nwin, p.ll, sg + p.sg,
                                          false);
}

/* Phase 5 in each group's field, compiled once each, in reduce_g1.cu and
 * reduce_g2.cu (their kernels are the heaviest of the MSM to build):
 * sp_cu_msm_reduce is msm_reduce_phase over XYZZ buckets (the XYZZ
 * accumulation's), sp_cu_msm_reduce_split msm_reduce_split (the
 * batch-affine one's). */
sp_status sp_cu_msm_reduce(sp_cuda *ctx, xyzz_t<fp_tm<SP_MUL_EO> > *win,
                           const xyzz_t<fp_tm<SP_MUL_EO> > *bk, unsigned c, unsigned nwin,
                           unsigned log_l);
sp_status sp_cu_msm_reduce(sp_cuda *ctx, xyzz_t<fp2_tm<SP_MUL_EO> > *win,
                           const xyzz_t<fp2_tm<SP_MUL_EO> > *bk, unsigned c, unsigned nwin,
                           unsigned log_l);
sp_status sp_cu_msm_reduce_split(sp_cuda *ctx, xyzz_t<fp_tm<SP_MUL_EO> > *win,
                                 const affine_t<fp_tm<SP_MUL_EO> > *bk, unsigned c, unsigned nwin,
                                 msm_join *j);
sp_status sp_cu_msm_reduce_split(sp_cuda *ctx, xyzz_t<fp2_tm<SP_MUL_EO> > *win,
                                 const affine_t<fp2_tm<SP_MUL_EO> > *bk, unsigned c, unsigned nwin,
                                 msm_join *j);

/* Phase 5: msm_reduce_into over the context's SP_SCR_SEGS. */
template <class F, class B = xyzz_t<F> >
static sp_status msm_reduce_phase(sp_cuda *ctx, xyzz_t<F> *win, const B *bk, unsigned c,
                                  unsigned nwin, unsigned log_l)
{
    void *sg;
    SP_TRY(sp_cu_scratch(ctx, SP_SCR_SEGS, msm_reduce_scratch(c, nwin, log_l) * sizeof(xyzz_t<F>),
                         &sg));
    return msm_reduce_into<F, B>(ctx, win, bk, c, nwin, log_l, (xyzz_t<F> *)sg, true);
}

/* ---- a whole run: the steps every accumulation shares ---- */

/* What phases 1-3 leave for the accumulation (msm_sort_phase). */
struct msm_sorted {
    msm_windows lay;
    unsigned nwin, c, log_l;
    const void *db;    /* the bases on the device */
    void *bk, *small;  /* the bucket array; SP_SCR_SMALL (window sums from byte 256) */
    uint32_t *keys, *vals, *start, *end;
    int bad;           /* a scalar >= r was seen (read back by the stream) */
    msm_join join;     /* msm_reduce_split's (how 0: nothing to join, sums in SP_SCR_SMALL) */
};

/* The arguments every run refuses: SP_ERR_INVALID_ARG for n >= 2^31 or a
 * window other than 0 (the model's) or 8..24; SP_OK otherwise. */
static inline sp_status msm_check_args(size_t n, unsigned window)
{
    if (n >= ((size_t)1 << 31) || (window && (window < 8 || window > 24)))
        return SP_ERR_INVALID_ARG;
    return SP_OK;
}

/* Phases 1-3 of a run over n >= 1 points: the window layout (c from
 * window, or from the cost model of the XYZZ accumulation (batch_affine =
 * 0) or of the batch-affine one (1)), the bases and scalars on the device,
 * the bucket array (bucket_bytes a bucket) and the small scratch, then the
 * sorted records and bucket ranges, with the profile's marks 0 and 1.
 * *s must stay alive until the stream is synchronized (s->bad is read
 * back into it). */
template <class HA>
static sp_status msm_sort_phase(sp_cuda *ctx, msm_sorted *s, const HA *bases,
                                const sp_scalar *scalars, size_t n, unsigned window,
                                int batch_affine, size_t bucket_bytes)
{
    s->c = sp_cu_msm_layout(window ? window : sp_cu_msm_window_acc(n, batch_affine), &s->lay,
                            &s->nwin);
    s->log_l = sp_cu_msm_log_seg(s->c, s->nwin);
    const void *ds;
    SP_TRY(sp_cu_device_view(ctx, SP_SCR_BASES, bases, n * sizeof(HA), &s->db));
    SP_TRY(sp_cu_device_view(ctx, SP_SCR_SCALARS, scalars, n * sizeof(sp_scalar), &ds));
    SP_TRY(sp_cu_scratch(ctx, SP_SCR_BUCKETS, ((size_t)s->nwin << (s->c - 1)) * bucket_bytes,
                         &s->bk));
    SP_TRY(sp_cu_scratch(ctx, SP_SCR_SMALL, SP_SMALL_BYTES, &s->small));
    s->bad = 0;
    s->join = msm_join{0, 0, NULL};
    SP_TRY(sp_cu_msm_mark(ctx, 0));
    SP_TRY(sp_cu_msm_sort(ctx, (const uint64_t *)ds, (uint32_t)n, s->c, s->nwin, &s->lay, 0,
                          &s->keys, &s->vals, &s->start, &s->end, &s->bad));
    return sp_cu_msm_mark(ctx, 1);
}

/* The window sums of a run: SP_SCR_SMALL from byte 256. */
template <class F> static xyzz_t<F> *msm_window_sums(const msm_sorted &s)
{
    static_assert(256 + SP_MSM_MAX_WIN * sizeof(xyzz_t<fp2_t>) <= SP_SMALL_BYTES, "window sums");
    return (xyzz_t<F> *)((char *)s.small + 256);
}

/* After phase 5: the window sums back to the host, the profile's text
 * (ctx->prof, with more appended when not NULL), then
 * SP_ERR_NOT_CANONICAL when a scalar was >= r, else phase 6 into *out. */
template <class HX, class HJ>
static sp_status msm_finish(sp_cuda *ctx, HJ *out, const msm_sorted &s, int group, size_t n,
                            const char *more)
{
    HX hw[2 * SP_MSM_MAX_WIN];
    const unsigned how = s.join.how, m = s.join.m;
    const unsigned nsum = how == 2 ? 2 * (m + 1) : how ? 2 * s.nwin : s.nwin;
    const void *sums = s.join.sums ? s.join.sums : (const char *)s.small + 256;
    SP_CU(ctx, cudaMemcpyAsync(hw, sums, nsum * sizeof(HX), cudaMemcpyDeviceToHost, ctx->stream));
    SP_CU(ctx, cudaStreamSynchronize(ctx->stream));
    if (how == 2) /* weigh: side s's sum_k 2^k T_(s,k), by Horner, into hw[s] */
        for (unsigned side = 0; side < 2; side++) {
            HX a = hw[side * (m + 1) + m];
            for (int k = (int)m - 1; k >= 0; k--) {
                sp_cu_xyzz_dbl(&a, &a);
                sp_cu_xyzz_add(&a, &a, &hw[side * (m + 1) + k]);
            }
            hw[side] = a;
        }
    for (unsigned w = 0; how && w < s.nwin; w++) { /* 2^m rows + columns */
        HX t = hw[2 * w];
        for (unsigned k = 0; k < m; k++)
            sp_cu_xyzz_dbl(&t, &t);
        sp_cu_xyzz_add(&hw[w], &t, &hw[2 * w + 1]);
    }
    SP_TRY(sp_cu_msm_profile_text(ctx, group, n, s.c, s.nwin, s.log_l));
    if (more) {
        size_t l = strlen(ctx->prof);
        snprintf(ctx->prof + l, sizeof ctx->prof - l, "%s", more);
    }
    if (s.bad)
        return SP_ERR_NOT_CANONICAL;
    sp_cu_msm_combine(out, hw, s.nwin, &s.lay);
    return SP_OK;
}

template <class F, int V, class HX, class HJ, class HA>
static sp_status msm_run(sp_cuda *ctx, HJ *out, const HA *bases, const sp_scalar *scalars,
                         size_t n, unsigned window, int group)
{
    SP_TRY(msm_check_args(n, window));
    if (n == 0) {
        memset(out, 0, sizeof *out); /* Z = 0: infinity */
        return SP_OK;
    }
    msm_sorted s;
    SP_TRY(msm_sort_phase(ctx, &s, bases, scalars, n, window, 0, sizeof(xyzz_t<F>)));
    SP_TRY((msm_accumulate_phase<F, V>(ctx, (xyzz_t<F> *)s.bk, (const affine_t<F> *)s.db, s.keys,
                                       s.vals, s.start, s.end, n, s.c, s.nwin)));
    SP_TRY(sp_cu_msm_mark(ctx, 2));
    SP_TRY(sp_cu_msm_reduce(ctx, msm_window_sums<F>(s), (const xyzz_t<F> *)s.bk, s.c, s.nwin,
                            s.log_l));
    SP_TRY(sp_cu_msm_mark(ctx, 4));
    return msm_finish<HX>(ctx, out, s, group, n, NULL);
}

} // namespace SP_CURVE_NS

#endif
