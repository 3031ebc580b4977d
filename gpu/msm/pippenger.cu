/*
 * Pippenger multi-scalar multiplication for G1 and G2 on the device.
 *
 * Phases (one kernel each, all on the context's stream):
 *   1. digits:     the 256 bit positions are cut into W windows of as
 *                  equal widths as possible (c or c-1 bits), and every
 *                  scalar into W signed digits |d| <= 2^(width-1) (carry
 *                  into the next window; none leaves the top one, since
 *                  s < 2^255); record w: key = (w << c) | |d|,
 *                  value = i | sign << 31 (over a precomputed table,
 *                  table.cuh: key = |d|, value = (w n + i) | sign <<
 *                  31, one set of buckets for all windows, whose sums
 *                  need no doublings in phase 6). Equal widths matter: with a
 *                  narrow top window all points crowd into its few
 *                  buckets, and one thread adds them all (seconds
 *                  instead of milliseconds at n = 2^18).
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
 *                  the digit distribution. (A thread per bucket is a
 *                  little faster on uniform scalars but serialises a
 *                  crowded bucket: n adds in one thread when all scalars
 *                  are equal; a serial fix-up still does n/T.)
 *   5. reduce:     per window, sum_k k*B_k by running sums over segments of
 *                  L buckets (thread per segment), then the segment sums
 *                  of each window are added in two tree levels.
 *   6. host:       the W window sums are combined (Horner, one doubling per
 *                  bit) by the CPU group law (microseconds).
 * Zero digits are sorted with the rest and skipped.
 *
 * Phases 4 and 5 are templates in pippenger.cuh, instantiated per group
 * in xyzz_acc_g1.cu and xyzz_acc_g2.cu (the XYZZ accumulation and the
 * reductions); the batch-affine accumulation is batch_affine.cuh's
 * (accumulate.cuh). This file has no field arithmetic (it compiles in
 * seconds, the others in minutes).
 */
#include <cub/device/device_radix_sort.cuh>
#include <stdio.h>
#include <string.h>
#include "pippenger.cuh"
#include "accumulate.cuh"
#include "table.cuh"
#include "gpu/sp_cuda_tune.h"

namespace SP_CURVE_NS {

typedef affine_t<fp_t> g1_aff_d;
typedef affine_t<fp2_t> g2_aff_d;
static_assert(sizeof(g1_aff_d) == sizeof(sp_g1_affine), "G1 affine layout");
static_assert(sizeof(g2_aff_d) == sizeof(sp_g2_affine), "G2 affine layout");
static_assert(sizeof(xyzz_t<fp_t>) == sizeof(sp_g1_xyzz), "G1 xyzz layout");
static_assert(sizeof(xyzz_t<fp2_t>) == sizeof(sp_g2_xyzz), "G2 xyzz layout");

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

/* shared: the records of a table MSM (sp_cu_msm_sort). */
__global__ void msm_digits(uint32_t *keys, uint32_t *vals, const uint64_t *scalars, uint32_t n,
                           unsigned c, unsigned nwin, msm_windows win, int shared, int *bad)
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
        const uint32_t r = w * n + i; /* < 2^31 when shared (sp_cuda_msm_table_add) */
        keys[(size_t)w * n + i] = shared ? d : (w << c) | d;
        vals[(size_t)w * n + i] = (shared ? r : i) | (neg << 31);
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

/* ---- host side ---- */

unsigned sp_cu_msm_layout(unsigned c, msm_windows *win, unsigned *nwin)
{
    unsigned w = (256 + c - 1) / c;
    for (unsigned i = 0; i <= w; i++)
        win->off[i] = (uint16_t)(i * 256 / w);
    *nwin = w;
    return (256 + w - 1) / w;
}

/* Modelled cost of windows of at most c bits: the n*W records plus a
 * weight per bucket, in units of one record's accumulation: 3 for the XYZZ
 * accumulation (a bucket's two full additions in the reduction against a
 * record's mixed addition), 10 for the batch-affine one (a record costs
 * ~6 products instead of 10, a bucket also its lists; fitted to window
 * sweeps measured at 2^24 and 2^26). G2 costs scale alike. */
#define SP_MSM_BA_PER_BUCKET 10.0
static double msm_cost(size_t n, unsigned c, double per_bucket)
{
    msm_windows win;
    unsigned nwin;
    sp_cu_msm_layout(c, &win, &nwin);
    double cost = (double)n * nwin;
    for (unsigned i = 0; i < nwin; i++)
        cost += per_bucket * (double)(1u << (win.off[i + 1] - win.off[i] - 1));
    return cost;
}

/* With a table every window's records share one set of 2^(c-1) buckets
 * (the widest window's), so the buckets are paid once, not W times. */
double sp_cu_table_cost(size_t n, unsigned c)
{
    msm_windows win;
    unsigned nwin;
    unsigned wide = sp_cu_msm_layout(c, &win, &nwin);
    return (double)n * nwin + SP_MSM_BA_PER_BUCKET * (double)((size_t)1 << (wide - 1));
}

unsigned sp_cu_msm_window_acc(size_t n, int batch_affine)
{
    const double w = batch_affine ? SP_MSM_BA_PER_BUCKET : 3.0;
    unsigned best = 8;
    for (unsigned c = 9; c <= 22; c++)
        if (msm_cost(n, c, w) < msm_cost(n, best, w))
            best = c;
    msm_windows win;
    unsigned nwin;
    return sp_cu_msm_layout(best, &win, &nwin);
}

extern "C" unsigned sp_cuda_msm_window(size_t n, int group)
{
    (void)group;
    return sp_cu_msm_window_acc(n, n >= SP_CUDA_MSM_BATCH_AFFINE_MIN);
}

/* About 64k reduction threads in all. */
unsigned sp_cu_msm_log_seg(unsigned c, unsigned nwin)
{
    unsigned lk = c - 1, l = 0;
    while (l < lk && ((size_t)nwin << (lk - l)) > 65536)
        l++;
    return l;
}

void sp_cu_msm_combine(sp_g1_jac *out, const sp_g1_xyzz *win, unsigned nwin,
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

void sp_cu_msm_combine(sp_g2_jac *out, const sp_g2_xyzz *win, unsigned nwin,
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

sp_status sp_cu_msm_sort(sp_cuda *ctx, const uint64_t *scalars, uint32_t n, unsigned c,
                         unsigned nwin, const msm_windows *lay, int shared, uint32_t **keys_out,
                         uint32_t **vals_out, uint32_t **start, uint32_t **end, int *bad)
{
    size_t m = (size_t)nwin * n, slots = (size_t)(shared ? 1 : nwin) << c;
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
                                                               scalars, n, c, nwin, *lay,
                                                               shared, dbad);
    SP_CU_LAUNCHED(ctx, "msm_digits");
    SP_CU(ctx, cudaMemcpyAsync(bad, dbad, sizeof(int), cudaMemcpyDeviceToHost, ctx->stream));

    unsigned key_bits = c;
    while (!shared && (1u << (key_bits - c)) < nwin)
        key_bits++;
    /* the double-buffer form: the passes alternate between the two pairs
     * of buffers, so CUB's storage is its bookkeeping only, not another
     * copy of the records (8 bytes a record: ~6 GB of a 2^26 table MSM,
     * room that the batch-affine rounds take instead) */
    cub::DoubleBuffer<uint32_t> dk((uint32_t *)k1, (uint32_t *)k2), dv((uint32_t *)v1, (uint32_t *)v2);
    size_t tmp_bytes = 0;
    SP_CU(ctx, cub::DeviceRadixSort::SortPairs(NULL, tmp_bytes, dk, dv, m, 0, (int)key_bits,
                                               ctx->stream));
    SP_TRY(sp_cu_scratch(ctx, SP_SCR_SORT, tmp_bytes, &tmp));
    SP_CU(ctx, cub::DeviceRadixSort::SortPairs(tmp, tmp_bytes, dk, dv, m, 0, (int)key_bits,
                                               ctx->stream));
    *start = (uint32_t *)rng;
    *end = (uint32_t *)rng + slots;
    SP_CU(ctx, cudaMemsetAsync(rng, 0, slots * 8, ctx->stream));
    msm_ranges<<<sp_cu_blocks(m, 256), 256, 0, ctx->stream>>>(*start, *end, dk.Current(), m);
    SP_CU_LAUNCHED(ctx, "msm_ranges");
    *keys_out = dk.Current();
    *vals_out = dv.Current();
    return SP_OK;
}

sp_status sp_cu_msm_mark(sp_cuda *ctx, int i)
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

sp_status sp_cu_msm_profile_text(sp_cuda *ctx, int group, size_t n, unsigned c, unsigned nwin,
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

int sp_cu_msm_affine_for(const sp_cuda *ctx, size_t n)
{
    if (ctx->msm_acc == SP_CUDA_ACC_XYZZ)
        return 0;
    return ctx->msm_acc == SP_CUDA_ACC_BATCH_AFFINE || n >= SP_CUDA_MSM_BATCH_AFFINE_MIN;
}

extern "C" int sp_cuda_set_msm_acc(sp_cuda *ctx, int acc)
{
    int old = ctx->msm_acc;
    if (acc == SP_CUDA_ACC_BY_SIZE || acc == SP_CUDA_ACC_XYZZ || acc == SP_CUDA_ACC_BATCH_AFFINE)
        ctx->msm_acc = acc;
    return old;
}

/* The kept table the call runs over (sp_cuda.h: window 0 or one of the
 * table's layout), else NULL. */
static const sp_cu_table *msm_table_for(const sp_cuda *ctx, int group, const void *bases,
                                        size_t n, unsigned window)
{
    if (n == 0 || ctx->n_tabs == 0)
        return NULL;
    const sp_cu_table *t = sp_cu_table_find(ctx, group, bases, n);
    msm_windows lay;
    unsigned nwin;
    if (!t || (window && (window < 8 || window > 24 || sp_cu_msm_layout(window, &lay, &nwin) != t->c)))
        return NULL;
    return t;
}

extern "C" sp_status sp_cuda_msm_g1(sp_cuda *ctx, sp_g1_jac *out, const sp_g1_affine *bases,
                                    const sp_scalar *scalars, size_t n, unsigned window)
{
    if (const sp_cu_table *t = msm_table_for(ctx, 1, bases, n, window))
        return sp_cu_msm_g1_table(ctx, out, t, scalars);
    return sp_cu_msm_affine_for(ctx, n) ? sp_cu_msm_g1_affine(ctx, out, bases, scalars, n, window)
                                  : sp_cu_msm_g1_xyzz(ctx, out, bases, scalars, n, window);
}

extern "C" sp_status sp_cuda_msm_g2(sp_cuda *ctx, sp_g2_jac *out, const sp_g2_affine *bases,
                                    const sp_scalar *scalars, size_t n, unsigned window)
{
    if (const sp_cu_table *t = msm_table_for(ctx, 2, bases, n, window))
        return sp_cu_msm_g2_table(ctx, out, t, scalars);
    return sp_cu_msm_affine_for(ctx, n) ? sp_cu_msm_g2_affine(ctx, out, bases, scalars, n, window)
                                  : sp_cu_msm_g2_xyzz(ctx, out, bases, scalars, n, window);
}

} // namespace SP_CURVE_NS
