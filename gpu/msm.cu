/*
 * Pippenger multi-scalar multiplication for G1 and G2 on the device.
 *
 * Phases (one kernel each, all on the context's stream):
 *   1. digits:     the 256 bit positions are cut into W windows of as
 *                  equal widths as possible (c or c-1 bits), and every
 *                  scalar into W signed digits |d| <= 2^(width-1) (carry
 *                  into the next window; none leaves the top one, since
 *                  s < 2^255); record w: key = (w << c) | |d|,
 *                  value = i | sign << 31. Equal widths matter: with a
 *                  narrow top window all points crowd into its few
 *                  buckets, and one thread adds them all (first
 *                  measurement: 1.4 s instead of ~10 ms at n = 2^18).
 *   2. sort:       CUB radix sort of all W*n records by key, so each
 *                  (window, bucket) owns one contiguous run.
 *   3. ranges:     start/end of every run.
 *   4. accumulate: the sorted records are cut into chunks of T; one thread
 *                  per chunk adds its points (negated for negative digits)
 *                  into XYZZ sums, one per bucket met, so every thread does
 *                  T steps whatever the digit distribution. Buckets inside
 *                  a chunk are written directly; the first and last bucket
 *                  of a chunk go to two partial slots, and a fix-up thread
 *                  per bucket adds the partials of buckets that straddle
 *                  at most SP_MSM_FIX_SERIAL chunk boundaries. Buckets that
 *                  span more (crowded ones: all scalars equal, the 1s of a
 *                  witness) are summed by a tree over their chunks' partials,
 *                  log2(span) passes of a thread per chunk, so no thread
 *                  does more than T + SP_MSM_FIX_SERIAL additions whatever
 *                  the digit distribution. (A thread per bucket was ~10%
 *                  faster on uniform scalars but serialises a crowded
 *                  bucket: n adds in one thread when all scalars are equal;
 *                  a serial fix-up still did n/T: 390 ms for a witness MSM
 *                  of 2^20 points.)
 *   5. reduce:     per window, sum_k k*B_k by running sums over segments of
 *                  L buckets (thread per segment), then the segment sums
 *                  of each window are added in two tree levels.
 *   6. host:       the W window sums are combined (Horner, one doubling per
 *                  bit) by the CPU group law (microseconds).
 * Zero digits are sorted with the rest and skipped.
 */
#include <cub/device/device_radix_sort.cuh>
#include <stdio.h>
#include <string.h>
#include "cu_util.cuh"
#include "curve.cuh"
#include "msm_add.cuh"

typedef affine_t<fp_t> g1_aff_d;
typedef affine_t<fp2_t> g2_aff_d;
static_assert(sizeof(g1_aff_d) == sizeof(sp_g1_affine), "G1 affine layout");
static_assert(sizeof(g2_aff_d) == sizeof(sp_g2_affine), "G2 affine layout");
static_assert(sizeof(xyzz_t<fp_t>) == sizeof(sp_g1_xyzz), "G1 xyzz layout");
static_assert(sizeof(xyzz_t<fp2_t>) == sizeof(sp_g2_xyzz), "G2 xyzz layout");

#define SP_MSM_THREADS 128 /* heavy kernels: up to 255 registers per thread */
#define SP_MSM_MAX_WIN 32  /* windows for the smallest c = 8 */
#define SP_SMALL_BYTES 16384

/* Window w covers scalar bits [off[w], off[w+1]); off[nwin] = 256. */
struct msm_windows {
    uint16_t off[SP_MSM_MAX_WIN + 1];
};

/* ---- phase 1: signed digits ---- */

static __device__ __forceinline__ uint64_t limb_or_zero(const uint64_t s[4], unsigned k)
{
    return k == 0 ? s[0] : k == 1 ? s[1] : k == 2 ? s[2] : k == 3 ? s[3] : 0;
}

/* 1 when s < r. */
static __device__ __forceinline__ bool scalar_canonical(const uint64_t s[4])
{
    constexpr uint64_t r[4] = SP_FR_MODULUS_INIT;
    for (int k = 3; k >= 0; k--) {
        if (s[k] != r[k])
            return s[k] < r[k];
    }
    return false;
}

__global__ void msm_digits(uint32_t *keys, uint32_t *vals, const uint64_t *scalars, uint32_t n,
                           unsigned c, unsigned nwin, msm_windows win, int *bad)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const ulonglong2 *sp = (const ulonglong2 *)(scalars + 4 * (size_t)i);
    ulonglong2 lo = sp[0], hi = sp[1];
    uint64_t s[4] = {lo.x, lo.y, hi.x, hi.y};
    if (!scalar_canonical(s)) {
        atomicExch(bad, 1);
        s[0] = s[1] = s[2] = s[3] = 0;
    }
    uint32_t carry = 0;
    for (unsigned w = 0; w < nwin; w++) {
        unsigned o = win.off[w], width = win.off[w + 1] - o, k = o >> 6, sh = o & 63;
        uint64_t v = limb_or_zero(s, k) >> sh;
        if (sh + width > 64)
            v |= limb_or_zero(s, k + 1) << (64 - sh);
        uint32_t d = ((uint32_t)v & ((1u << width) - 1)) + carry;
        uint32_t neg = 0;
        carry = 0;
        if (d > (1u << (width - 1))) { /* d - 2^width, a negative digit */
            d = (1u << width) - d;
            neg = 1;
            carry = 1;
        }
        keys[(size_t)w * n + i] = (w << c) | d;
        vals[(size_t)w * n + i] = i | (neg << 31);
    }
}

/* ---- phase 3: run boundaries of the sorted keys ---- */

__global__ void msm_ranges(uint32_t *start, uint32_t *end, const uint32_t *keys, size_t m)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m)
        return;
    uint32_t k = keys[i];
    if (i == 0 || keys[i - 1] != k)
        start[k] = (uint32_t)i;
    if (i == m - 1 || keys[i + 1] != k)
        end[k] = (uint32_t)(i + 1);
}

/* ---- phase 4: bucket accumulation ---- */

#define SP_MSM_LOG_CHUNK 5 /* T = 32 records per accumulation thread (64: no faster) */
#define SP_MSM_FIX_SERIAL 8 /* longest run of chunk partials a fix-up thread adds alone */

static __device__ __forceinline__ size_t bucket_of(uint32_t key, unsigned c)
{
    return ((size_t)(key >> c) << (c - 1)) + (key & ((1u << c) - 1)) - 1;
}

/* Thread k: records [kT, min(kT + T, m)). part[2k] = sum of its first key's
 * points, part[2k + 1] = its last key's (when different); keys strictly
 * between are whole buckets, written to buckets[]. Digit-0 keys are skipped. */
/* Blocks per SM the compiler must fit: for G1, 4 x 128 threads (<= 128
 * registers, 16 warps); G2 needs all 255 registers. */
template <class F> struct msm_occupancy { enum { MIN_BLOCKS = 1 }; };
template <int M> struct msm_occupancy<fp_tm<M>> { enum { MIN_BLOCKS = 4 }; };

template <class F>
__global__ void __launch_bounds__(SP_MSM_THREADS, msm_occupancy<F>::MIN_BLOCKS)
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
    /* the next record and point are loaded while the current one is added */
    uint32_t nkey = first, v = vals[lo];
    affine_t<F> next = bases[v & 0x7fffffffu];
    for (size_t j = lo; j < hi; j++) {
        uint32_t key = nkey, neg = v >> 31;
        affine_t<F> q = next;
        if (j + 1 < hi) {
            nkey = keys[j + 1];
            v = vals[j + 1];
            next = bases[v & 0x7fffffffu];
        }
        if (key != cur) { /* cur is complete: it is first or a middle key */
            if (cur == first)
                part[2 * k] = acc;
            else if (cur & dmask)
                buckets[bucket_of(cur, c)] = acc;
            xyzz_set_inf(acc);
            cur = key;
        }
        if (!(key & dmask) || aff_is_inf(q))
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

/*
 * Thread (w, j) owns buckets j*L+1 .. (j+1)*L of window w and writes
 *   sum_{k in segment} k B_k = sum (k - jL) B_k + jL * sum B_k,
 * the first term by the running sum from the top bucket down.
 */
template <class F>
__global__ void __launch_bounds__(SP_MSM_THREADS)
msm_reduce_segments(xyzz_t<F> *segs, const xyzz_t<F> *buckets, unsigned c, unsigned nwin,
                    unsigned log_l)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned lk = c - 1, ls = lk - log_l; /* log2 of segments per window */
    if (t >= ((size_t)nwin << ls))
        return;
    uint32_t w = (uint32_t)(t >> ls), j = (uint32_t)(t & ((1u << ls) - 1));
    const xyzz_t<F> *b = buckets + ((size_t)w << lk) + ((size_t)j << log_l);
    xyzz_t<F> run, acc;
    xyzz_set_inf(run);
    xyzz_set_inf(acc);
    for (int k = (1 << log_l) - 1; k >= 0; k--) {
        xyzz_add(run, b[k]);
        xyzz_add(acc, run);
    }
    if (j) {
        xyzz_t<F> m;
        xyzz_mul_small(m, run, j << log_l);
        xyzz_add(acc, m);
    }
    segs[t] = acc;
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

/* ---- host side ---- */

/* The layout for windows of at most c bits: W = ceil(256/c) windows of
 * equal widths (floor or ceil of 256/W); returns the widest. */
static unsigned msm_layout(unsigned c, msm_windows *win, unsigned *nwin)
{
    unsigned w = (256 + c - 1) / c;
    for (unsigned i = 0; i <= w; i++)
        win->off[i] = (uint16_t)(i * 256 / w);
    *nwin = w;
    return (256 + w - 1) / w;
}

/* Modelled cost: n*W mixed additions + ~3 additions' worth per bucket. */
static double msm_cost(size_t n, unsigned c)
{
    msm_windows win;
    unsigned nwin;
    msm_layout(c, &win, &nwin);
    double cost = (double)n * nwin;
    for (unsigned i = 0; i < nwin; i++)
        cost += 3.0 * (double)(1u << (win.off[i + 1] - win.off[i] - 1));
    return cost;
}

extern "C" unsigned sp_cuda_msm_window(size_t n, int group)
{
    (void)group; /* G2 costs scale alike in accumulation and reduction */
    unsigned best = 8;
    for (unsigned c = 9; c <= 22; c++)
        if (msm_cost(n, c) < msm_cost(n, best))
            best = c;
    msm_windows win;
    unsigned nwin;
    return msm_layout(best, &win, &nwin);
}

/* log2 of the segment length: about 64k reduction threads in all. */
static unsigned msm_log_seg(unsigned c, unsigned nwin)
{
    unsigned lk = c - 1, l = 0;
    while (l < lk && ((size_t)nwin << (lk - l)) > 65536)
        l++;
    return l;
}

static void host_combine(sp_g1_jac *out, const sp_g1_xyzz *win, unsigned nwin,
                         const msm_windows *lay)
{
    sp_g1_xyzz acc = win[nwin - 1];
    for (int w = (int)nwin - 2; w >= 0; w--) {
        for (unsigned k = lay->off[w]; k < lay->off[w + 1]; k++)
            sp_g1_xyzz_dbl(&acc, &acc);
        sp_g1_xyzz_add_var(&acc, &acc, &win[w]);
    }
    sp_g1_xyzz_to_jac(out, &acc);
}

static void host_combine(sp_g2_jac *out, const sp_g2_xyzz *win, unsigned nwin,
                         const msm_windows *lay)
{
    sp_g2_xyzz acc = win[nwin - 1];
    for (int w = (int)nwin - 2; w >= 0; w--) {
        for (unsigned k = lay->off[w]; k < lay->off[w + 1]; k++)
            sp_g2_xyzz_dbl(&acc, &acc);
        sp_g2_xyzz_add_var(&acc, &acc, &win[w]);
    }
    sp_g2_xyzz_to_jac(out, &acc);
}

/* Phases 1-3: sorted records and bucket ranges. On output *bad is the
 * non-canonical flag read back from the device. */
static sp_status msm_sort(sp_cuda *ctx, const uint64_t *scalars, uint32_t n, unsigned c,
                          unsigned nwin, const msm_windows *lay, uint32_t **keys_out,
                          uint32_t **vals_out,
                          uint32_t **start, uint32_t **end, int *bad)
{
    size_t m = (size_t)nwin * n, slots = (size_t)nwin << c;
    void *k1, *k2, *v1, *v2, *rng, *small, *tmp = NULL;
    SP_TRY(sp_cu_scratch(ctx, SP_SCR_KEYS, m * 4, &k1));
    SP_TRY(sp_cu_scratch(ctx, SP_SCR_KEYS2, m * 4, &k2));
    SP_TRY(sp_cu_scratch(ctx, SP_SCR_VALS, m * 4, &v1));
    SP_TRY(sp_cu_scratch(ctx, SP_SCR_VALS2, m * 4, &v2));
    SP_TRY(sp_cu_scratch(ctx, SP_SCR_RANGE, slots * 8, &rng));
    SP_TRY(sp_cu_scratch(ctx, SP_SCR_SMALL, SP_SMALL_BYTES, &small));
    int *dbad = (int *)small;
    SP_CU(ctx, cudaMemsetAsync(dbad, 0, sizeof(int), ctx->stream));
    msm_digits<<<sp_cu_blocks(n, 256), 256, 0, ctx->stream>>>((uint32_t *)k1, (uint32_t *)v1,
                                                               scalars, n, c, nwin, *lay, dbad);
    SP_CU_LAUNCHED(ctx, "msm_digits");
    SP_CU(ctx, cudaMemcpyAsync(bad, dbad, sizeof(int), cudaMemcpyDeviceToHost, ctx->stream));

    unsigned key_bits = c;
    while ((1u << (key_bits - c)) < nwin)
        key_bits++;
    size_t tmp_bytes = 0;
    SP_CU(ctx, cub::DeviceRadixSort::SortPairs(NULL, tmp_bytes, (uint32_t *)k1, (uint32_t *)k2,
                                               (uint32_t *)v1, (uint32_t *)v2, m, 0, (int)key_bits,
                                               ctx->stream));
    SP_TRY(sp_cu_scratch(ctx, SP_SCR_SORT, tmp_bytes, &tmp));
    SP_CU(ctx, cub::DeviceRadixSort::SortPairs(tmp, tmp_bytes, (uint32_t *)k1, (uint32_t *)k2,
                                               (uint32_t *)v1, (uint32_t *)v2, m, 0, (int)key_bits,
                                               ctx->stream));
    *start = (uint32_t *)rng;
    *end = (uint32_t *)rng + slots;
    SP_CU(ctx, cudaMemsetAsync(rng, 0, slots * 8, ctx->stream));
    msm_ranges<<<sp_cu_blocks(m, 256), 256, 0, ctx->stream>>>(*start, *end, (uint32_t *)k2, m);
    SP_CU_LAUNCHED(ctx, "msm_ranges");
    *keys_out = (uint32_t *)k2;
    *vals_out = (uint32_t *)v2;
    return SP_OK;
}

/* With profiling on, records phase mark i (0..4) on the stream. */
static sp_status msm_mark(sp_cuda *ctx, int i)
{
    if (!ctx->profile)
        return SP_OK;
    if (!ctx->ev_ready) {
        for (int k = 0; k < SP_CU_EVENTS; k++)
            SP_CU(ctx, cudaEventCreate(&ctx->ev[k]));
        ctx->ev_ready = 1;
    }
    SP_CU(ctx, cudaEventRecord(ctx->ev[i], ctx->stream));
    return SP_OK;
}

/* Phase 4: buckets (nwin << (c-1) XYZZ sums) from the sorted records. */
template <class F>
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
    msm_accumulate<F><<<sp_cu_blocks(nchunk, SP_MSM_THREADS), SP_MSM_THREADS, 0, ctx->stream>>>(
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

/* Phase 5: win[w] = sum_k k * B_(w,k) for every window. */
template <class F>
static sp_status msm_reduce_phase(sp_cuda *ctx, xyzz_t<F> *win, const xyzz_t<F> *bk, unsigned c,
                                  unsigned nwin, unsigned log_l)
{
    size_t nseg = (size_t)nwin << (c - 1 - log_l);
    void *sg;
    SP_TRY(sp_cu_scratch(ctx, SP_SCR_SEGS, (nseg + 16 * nwin) * sizeof(xyzz_t<F>), &sg));
    msm_reduce_segments<F><<<sp_cu_blocks(nseg, SP_MSM_THREADS), SP_MSM_THREADS, 0, ctx->stream>>>(
        (xyzz_t<F> *)sg, bk, c, nwin, log_l);
    SP_CU_LAUNCHED(ctx, "msm_reduce_segments");
    SP_TRY(msm_mark(ctx, 3));
    /* two levels: nwin*G groups of the segment sums, then nwin groups of G
     * (a deep serial sum per block would be latency-bound) */
    uint32_t per_win = (uint32_t)(nseg / nwin), grp = per_win >= 256 ? 16 : 1;
    xyzz_t<F> *mid = (xyzz_t<F> *)sg + nseg; /* the 16 * nwin reserved above */
    msm_sum_groups<F><<<nwin * grp, SP_MSM_THREADS, 0, ctx->stream>>>(
        grp > 1 ? mid : win, (xyzz_t<F> *)sg, per_win / grp);
    SP_CU_LAUNCHED(ctx, "msm_sum_groups");
    if (grp > 1) {
        msm_sum_groups<F><<<nwin, SP_MSM_THREADS, 0, ctx->stream>>>(win, mid, grp);
        SP_CU_LAUNCHED(ctx, "msm_sum_groups");
    }
    return SP_OK;
}

/* After a profiled call: the phase times as text in ctx->prof. */
static sp_status msm_profile_text(sp_cuda *ctx, int group, size_t n, unsigned c, unsigned nwin,
                                  unsigned log_l)
{
    if (!ctx->profile)
        return SP_OK;
    float ms[4];
    for (int i = 0; i < 4; i++)
        SP_CU(ctx, cudaEventElapsedTime(&ms[i], ctx->ev[i], ctx->ev[i + 1]));
    snprintf(ctx->prof, sizeof ctx->prof,
             "msm g%d n=%zu c=%u W=%u L=%u: sort %.3f acc %.3f reduce %.3f sum %.3f ms", group, n,
             c, nwin, 1u << log_l, ms[0], ms[1], ms[2], ms[3]);
    return SP_OK;
}

template <class F, class HX, class HJ, class HA>
static sp_status msm_run(sp_cuda *ctx, HJ *out, const HA *bases, const sp_scalar *scalars,
                         size_t n, unsigned window, int group)
{
    if (n >= ((size_t)1 << 31) || (window && (window < 8 || window > 24)))
        return SP_ERR_INVALID_ARG;
    if (n == 0) {
        memset(out, 0, sizeof *out); /* Z = 0: infinity */
        return SP_OK;
    }
    msm_windows lay;
    unsigned nwin;
    const unsigned c = msm_layout(window ? window : sp_cuda_msm_window(n, group), &lay, &nwin);
    const unsigned log_l = msm_log_seg(c, nwin);
    const void *db, *ds;
    void *bk, *small;
    SP_TRY(sp_cu_device_view(ctx, SP_SCR_BASES, bases, n * sizeof(HA), &db));
    SP_TRY(sp_cu_device_view(ctx, SP_SCR_SCALARS, scalars, n * sizeof(sp_scalar), &ds));
    SP_TRY(sp_cu_scratch(ctx, SP_SCR_BUCKETS, ((size_t)nwin << (c - 1)) * sizeof(xyzz_t<F>), &bk));
    SP_TRY(sp_cu_scratch(ctx, SP_SCR_SMALL, SP_SMALL_BYTES, &small));
    xyzz_t<F> *win = (xyzz_t<F> *)((char *)small + 256);
    static_assert(256 + SP_MSM_MAX_WIN * sizeof(xyzz_t<fp2_t>) <= SP_SMALL_BYTES, "window sums");

    uint32_t *keys, *vals, *start, *end;
    int bad = 0;
    SP_TRY(msm_mark(ctx, 0));
    SP_TRY(msm_sort(ctx, (const uint64_t *)ds, (uint32_t)n, c, nwin, &lay, &keys, &vals, &start,
                    &end, &bad));
    SP_TRY(msm_mark(ctx, 1));
    SP_TRY(msm_accumulate_phase<F>(ctx, (xyzz_t<F> *)bk, (const affine_t<F> *)db, keys, vals, start,
                                   end, n, c, nwin));
    SP_TRY(msm_mark(ctx, 2));
    SP_TRY(msm_reduce_phase<F>(ctx, win, (const xyzz_t<F> *)bk, c, nwin, log_l));
    SP_TRY(msm_mark(ctx, 4));

    HX hw[SP_MSM_MAX_WIN];
    SP_CU(ctx, cudaMemcpyAsync(hw, win, nwin * sizeof(HX), cudaMemcpyDeviceToHost, ctx->stream));
    SP_CU(ctx, cudaStreamSynchronize(ctx->stream));
    SP_TRY(msm_profile_text(ctx, group, n, c, nwin, log_l));
    if (bad)
        return SP_ERR_NOT_CANONICAL;
    host_combine(out, hw, nwin, &lay);
    return SP_OK;
}

extern "C" sp_status sp_cuda_msm_g1(sp_cuda *ctx, sp_g1_jac *out, const sp_g1_affine *bases,
                                    const sp_scalar *scalars, size_t n, unsigned window)
{
    if (ctx->mul_impl == SP_MUL_WIDE)
        return msm_run<fp_tm<SP_MUL_WIDE>, sp_g1_xyzz>(ctx, out, bases, scalars, n, window, 1);
    return msm_run<fp_t, sp_g1_xyzz>(ctx, out, bases, scalars, n, window, 1);
}

extern "C" sp_status sp_cuda_msm_g2(sp_cuda *ctx, sp_g2_jac *out, const sp_g2_affine *bases,
                                    const sp_scalar *scalars, size_t n, unsigned window)
{
    if (ctx->mul_impl == SP_MUL_WIDE)
        return msm_run<fp2_tm<SP_MUL_WIDE>, sp_g2_xyzz>(ctx, out, bases, scalars, n, window, 2);
    return msm_run<fp2_t, sp_g2_xyzz>(ctx, out, bases, scalars, n, window, 2);
}
