/* Element-wise field kernels (equality tests), the modmul benchmark and
 * the inversion latency (sp_cuda_tune.h). */
#include <algorithm>
#include "gpu/core/context.cuh"
#include "field.cuh"
#include "mont_eo_fr.cuh"
#include "inverse.cuh"
#include "gpu/sp_cuda_tune.h"

namespace SP_CURVE_NS {

static_assert(sizeof(fp_t) == sizeof(sp_fp), "Fp layout");
static_assert(sizeof(fr_t) == sizeof(sp_fr), "Fr layout");
static_assert(sizeof(fp2_t) == sizeof(sp_fp2), "Fp2 layout");

template <class F>
__global__ void field_batch(int op, F *out, const F *a, const F *b, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    F x = a[i], y = b[i], r;
    switch (op) {
    case 0: f_mul(r, x, y); break;
    case 1: f_sqr(r, x); break;
    case 2: f_add(r, x, y); break;
    default: f_sub(r, x, y); break;
    }
    out[i] = r;
}

/* Fr products of the NTT kernels (mont_eo_fr.cuh): op 12 mont_mul_eox,
 * op 13 mont_mul_eox2 with element i paired with i + h, h = ceil(n / 2)
 * (the unpaired middle one, for odd n, alone). */
__global__ void fr_batch_x(int op, fr_tm<SP_MUL_EO> *out, const fr_tm<SP_MUL_EO> *a,
                           const fr_tm<SP_MUL_EO> *b, size_t n)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x, h = (n + 1) / 2;
    if (op == 12 && i < n) {
        fr_tm<SP_MUL_EO> x = a[i], y = b[i], r;
        fx_mul(r, x, y);
        out[i] = r;
    } else if (op == 13 && i + h < n) {
        fr_tm<SP_MUL_EO> x0 = a[i], y0 = b[i], x1 = a[i + h], y1 = b[i + h], r0, r1;
        fx_mul2(r0, x0, y0, r1, x1, y1);
        out[i] = r0;
        out[i + h] = r1;
    } else if (op == 13 && i < h) {
        fr_tm<SP_MUL_EO> x = a[i], y = b[i], r;
        fx_mul(r, x, y);
        out[i] = r;
    }
}

/* op 15: out = 1/a by f_inv_var, 16: by f_inv_fermat (Fp and Fp2). */
template <class F>
__global__ void field_inv_batch(int op, F *out, const F *a, const F *b, size_t n)
{
    (void)b;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    F x = a[i], r;
    if (op == 15)
        f_inv_var(r, x);
    else
        f_inv_fermat(r, x);
    out[i] = r;
}

/* kern(op, out, a, b, n) over host or device arrays of n elements (b is
 * not read for op 1, sqr). */
template <class F, class H>
static sp_status batch_run(sp_cuda *ctx, void (*kern)(int, F *, const F *, const F *, size_t), int op,
                           H *out, const H *a, const H *b, size_t n)
{
    static_assert(sizeof(F) == sizeof(H), "layout");
    if (n == 0)
        return SP_OK;
    size_t bytes = n * sizeof(F);
    const void *da, *db;
    void *dout;
    SP_TRY(sp_cu_device_view(ctx, SP_SCR_A, a, bytes, &da));
    SP_TRY(sp_cu_device_view(ctx, SP_SCR_B, op == 1 ? a : b, bytes, &db));
    int out_dev = sp_cu_is_device_ptr(out);
    if (out_dev)
        dout = out;
    else
        SP_TRY(sp_cu_scratch(ctx, SP_SCR_C, bytes, &dout));
    kern<<<sp_cu_blocks(n, 128), 128, 0, ctx->stream>>>(op, (F *)dout, (const F *)da, (const F *)db, n);
    SP_CU_LAUNCHED(ctx, "field batch");
    if (!out_dev)
        SP_CU(ctx, cudaMemcpyAsync(out, dout, bytes, cudaMemcpyDeviceToHost, ctx->stream));
    SP_CU(ctx, cudaStreamSynchronize(ctx->stream));
    return SP_OK;
}

/* The ops past 11 of each field (sp_cuda.h): Fr 12, 13 (the NTT's
 * products), Fp2 14 (mul by sums of products), Fp and Fp2 15, 16 (the
 * inverses). */
static sp_status batch_more(sp_cuda *ctx, int op, sp_fp *out, const sp_fp *a, const sp_fp *b, size_t n)
{
    if (op != 15 && op != 16)
        return SP_ERR_INVALID_ARG;
    return batch_run(ctx, field_inv_batch<fp_tm<SP_MUL_EO> >, op, out, a, b, n);
}
static sp_status batch_more(sp_cuda *ctx, int op, sp_fr *out, const sp_fr *a, const sp_fr *b, size_t n)
{
    if (op != 12 && op != 13)
        return SP_ERR_INVALID_ARG;
    return batch_run(ctx, fr_batch_x, op, out, a, b, n);
}
static sp_status batch_more(sp_cuda *ctx, int op, sp_fp2 *out, const sp_fp2 *a, const sp_fp2 *b,
                            size_t n)
{
    if (op == 15 || op == 16)
        return batch_run(ctx, field_inv_batch<fp2_tm<SP_MUL_EO> >, op, out, a, b, n);
    if (op != 14)
        return SP_ERR_INVALID_ARG;
    return batch_run(ctx, field_batch<fp2_tm<SP_MUL_EO_SUM> >, 0, out, a, b, n);
}

/* ops 0..3 with the PTX multiplication, 4..7 with the 64-bit one, 8..11
 * with the even/odd one; then batch_more's */
#define SP_BATCH_ENTRY(name, H, T)                                                            \
    extern "C" sp_status name(sp_cuda *ctx, int op, H *out, const H *a, const H *b, size_t n) \
    {                                                                                         \
        if (op < 0 || op > 11)                                                                \
            return batch_more(ctx, op, out, a, b, n);                                         \
        if (op < 4)                                                                           \
            return batch_run(ctx, field_batch<T<SP_MUL_PTX> >, op, out, a, b, n);             \
        if (op >= 8)                                                                          \
            return batch_run(ctx, field_batch<T<SP_MUL_EO> >, op - 8, out, a, b, n);          \
        return batch_run(ctx, field_batch<T<SP_MUL_WIDE> >, op - 4, out, a, b, n);            \
    }
SP_BATCH_ENTRY(sp_cuda_fp_batch, sp_fp, fp_tm)
SP_BATCH_ENTRY(sp_cuda_fr_batch, sp_fr, fr_tm)
SP_BATCH_ENTRY(sp_cuda_fp2_batch, sp_fp2, fp2_tm)
#undef SP_BATCH_ENTRY

/* ---- throughput: SP_BENCH_CHAINS independent chains per thread ---- */

#define SP_BENCH_CHAINS 2
#define SP_BENCH_ITERS 4096

/* form 0: f_mul; 1: fx_mul; 2: the two chains through fx_mul2 (Fr). */
template <class F, int FORM>
__global__ void __launch_bounds__(256) modmul_chain(F *io)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    F x[SP_BENCH_CHAINS], y = io[2 * i + 1];
#pragma unroll
    for (int k = 0; k < SP_BENCH_CHAINS; k++)
        x[k] = io[2 * i];
    ((uint32_t *)&x[1])[0] ^= 1;
    for (int it = 0; it < SP_BENCH_ITERS; it++) {
        if constexpr (FORM == 2) {
            fx_mul2(x[0], x[0], y, x[1], x[1], y);
        } else {
#pragma unroll
            for (int k = 0; k < SP_BENCH_CHAINS; k++) {
                if constexpr (FORM == 1)
                    fx_mul(x[k], x[k], y);
                else
                    f_mul(x[k], x[k], y);
            }
        }
    }
    F r = x[0];
#pragma unroll
    for (int j = 0; j < (int)(sizeof(F) / 4); j++)
        ((uint32_t *)&r)[j] ^= ((const uint32_t *)&x[1])[j];
    io[2 * i] = r; /* keeps the chains alive */
}

/* Five timed runs of launch() (its launch's status) on ctx->stream after
 * a warm-up one, timed by e0, e1: *med = their median, ms. */
template <class L>
static sp_status bench_times(sp_cuda *ctx, cudaEvent_t e0, cudaEvent_t e1, L launch, float *med)
{
    float ms[6];
    for (int rep = 0; rep < 6; rep++) { /* rep 0 warms up */
        SP_CU(ctx, cudaEventRecord(e0, ctx->stream));
        SP_TRY(launch());
        SP_CU(ctx, cudaEventRecord(e1, ctx->stream));
        SP_CU(ctx, cudaEventSynchronize(e1));
        SP_CU(ctx, cudaEventElapsedTime(&ms[rep], e0, e1));
    }
    std::sort(ms + 1, ms + 6);
    *med = ms[3];
    return SP_OK;
}

/* bench_times with its two events, made here and destroyed on every path
 * (the benchmarks' one way to time a kernel). */
template <class L>
static sp_status bench_median_ms(sp_cuda *ctx, L launch, float *med)
{
    cudaEvent_t e0, e1;
    SP_CU(ctx, cudaEventCreate(&e0));
    const cudaError_t e = cudaEventCreate(&e1);
    if (e != cudaSuccess) {
        cudaEventDestroy(e0);
        sp_cu_record(ctx, "cudaEventCreate", __FILE__, __LINE__, e);
        return SP_ERR_GPU;
    }
    const sp_status st = bench_times(ctx, e0, e1, launch, med);
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    return st;
}

/* 8 blocks of 256 threads per SM: every warp slot (64) full. */
template <class F, int FORM = 0>
static sp_status bench_run(sp_cuda *ctx, double *per_s)
{
    const unsigned threads = 256, blocks = (unsigned)ctx->sm_count * 8;
    size_t n = (size_t)threads * blocks;
    void *buf;
    SP_TRY(sp_cu_scratch(ctx, SP_SCR_A, 2 * n * sizeof(F), &buf));
    /* words 0x11111111: below both moduli, so every input is reduced; the
     * work per multiplication does not depend on the values */
    SP_CU(ctx, cudaMemsetAsync(buf, 0x11, 2 * n * sizeof(F), ctx->stream));
    float med;
    SP_TRY(bench_median_ms(ctx, [&]() -> sp_status {
        modmul_chain<F, FORM><<<blocks, threads, 0, ctx->stream>>>((F *)buf);
        SP_CU_LAUNCHED(ctx, "modmul_chain");
        return SP_OK;
    }, &med));
    *per_s = (double)n * SP_BENCH_CHAINS * SP_BENCH_ITERS / (med * 1e-3);
    return SP_OK;
}

extern "C" sp_status sp_cuda_bench_modmul(sp_cuda *ctx, int field, double *per_s)
{
    switch (field) {
    case 0: return bench_run<fp_tm<SP_MUL_PTX>>(ctx, per_s);
    case 1: return bench_run<fr_tm<SP_MUL_PTX>>(ctx, per_s);
    case 2: return bench_run<fp_tm<SP_MUL_WIDE>>(ctx, per_s);
    case 3: return bench_run<fr_tm<SP_MUL_WIDE>>(ctx, per_s);
    case 4: return bench_run<fp_tm<SP_MUL_EO>>(ctx, per_s);
    case 5: return bench_run<fr_tm<SP_MUL_EO>>(ctx, per_s);
    case 6: return bench_run<fr_tm<SP_MUL_EO>, 1>(ctx, per_s);
    case 7: return bench_run<fr_tm<SP_MUL_EO>, 2>(ctx, per_s);
    case 8: return bench_run<fp2_tm<SP_MUL_EO> >(ctx, per_s);
    case 9: return bench_run<fp2_tm<SP_MUL_EO_SUM> >(ctx, per_s);
    default: return SP_ERR_INVALID_ARG;
    }
}

/* ---- latency: a chain of inversions in one thread ---- */

#define SP_BENCH_INVS 64

template <int VAR>
__global__ void inv_chain(fp_tm<SP_MUL_EO> *io)
{
    fp_tm<SP_MUL_EO> x = io[0], one;
    f_set_one(one);
    for (int it = 0; it < SP_BENCH_INVS; it++) {
        if (VAR)
            f_inv_var(x, x);
        else
            f_inv_fermat(x, x);
        f_add(x, x, one); /* 1/x + 1: a new input every time */
    }
    io[0] = x;
}

extern "C" sp_status sp_cuda_bench_inv(sp_cuda *ctx, int var, double *us)
{
    void *buf;
    SP_TRY(sp_cu_scratch(ctx, SP_SCR_A, sizeof(fp_t), &buf));
    SP_CU(ctx, cudaMemsetAsync(buf, 0x11, sizeof(fp_t), ctx->stream)); /* < p, non-zero */
    float med;
    SP_TRY(bench_median_ms(ctx, [&]() -> sp_status {
        if (var)
            inv_chain<1><<<1, 1, 0, ctx->stream>>>((fp_tm<SP_MUL_EO> *)buf);
        else
            inv_chain<0><<<1, 1, 0, ctx->stream>>>((fp_tm<SP_MUL_EO> *)buf);
        SP_CU_LAUNCHED(ctx, "inv_chain");
        return SP_OK;
    }, &med));
    *us = med * 1e3 / SP_BENCH_INVS;
    return SP_OK;
}

} // namespace SP_CURVE_NS
