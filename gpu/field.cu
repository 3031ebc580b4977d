/* Element-wise field kernels (equality tests) and the modmul benchmark. */
#include <algorithm>
#include "cu_util.cuh"
#include "field.cuh"

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

template <class F>
static sp_status batch_run(sp_cuda *ctx, int op, F *out, const F *a, const F *b, size_t n)
{
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
    field_batch<F><<<sp_cu_blocks(n, 128), 128, 0, ctx->stream>>>(op, (F *)dout, (const F *)da,
                                                                  (const F *)db, n);
    SP_CU_LAUNCHED(ctx, "field_batch");
    if (!out_dev)
        SP_CU(ctx, cudaMemcpyAsync(out, dout, bytes, cudaMemcpyDeviceToHost, ctx->stream));
    SP_CU(ctx, cudaStreamSynchronize(ctx->stream));
    return SP_OK;
}

/* ops 0..3 with the PTX multiplication, 4..7 with the 64-bit one, 8..11
 * with the even/odd one */
#define SP_BATCH_ENTRY(name, H, T)                                                       \
    extern "C" sp_status name(sp_cuda *ctx, int op, H *out, const H *a, const H *b,      \
                              size_t n)                                                  \
    {                                                                                    \
        if (op < 0 || op > 11)                                                           \
            return SP_ERR_INVALID_ARG;                                                   \
        if (op < 4)                                                                      \
            return batch_run(ctx, op, (T<SP_MUL_PTX> *)out, (const T<SP_MUL_PTX> *)a,    \
                             (const T<SP_MUL_PTX> *)b, n);                               \
        if (op >= 8)                                                                     \
            return batch_run(ctx, op - 8, (T<SP_MUL_EO> *)out, (const T<SP_MUL_EO> *)a,  \
                             (const T<SP_MUL_EO> *)b, n);                                \
        return batch_run(ctx, op - 4, (T<SP_MUL_WIDE> *)out, (const T<SP_MUL_WIDE> *)a,  \
                         (const T<SP_MUL_WIDE> *)b, n);                                  \
    }
SP_BATCH_ENTRY(sp_cuda_fp_batch, sp_fp, fp_tm)
SP_BATCH_ENTRY(sp_cuda_fr_batch, sp_fr, fr_tm)
SP_BATCH_ENTRY(sp_cuda_fp2_batch, sp_fp2, fp2_tm)
#undef SP_BATCH_ENTRY

/* ---- throughput: SP_BENCH_CHAINS independent chains per thread ---- */

#define SP_BENCH_CHAINS 2
#define SP_BENCH_ITERS 4096

template <class F>
__global__ void __launch_bounds__(256) modmul_chain(F *io)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    F x[SP_BENCH_CHAINS], y = io[2 * i + 1];
#pragma unroll
    for (int k = 0; k < SP_BENCH_CHAINS; k++)
        x[k] = io[2 * i];
    x[1].w[0] ^= 1;
    for (int it = 0; it < SP_BENCH_ITERS; it++) {
#pragma unroll
        for (int k = 0; k < SP_BENCH_CHAINS; k++)
            f_mul(x[k], x[k], y);
    }
    F r = x[0];
#pragma unroll
    for (int j = 0; j < (int)(sizeof(F) / 4); j++)
        r.w[j] ^= x[1].w[j];
    io[2 * i] = r; /* keeps the chains alive */
}

template <class F>
static sp_status bench_run(sp_cuda *ctx, double *per_s)
{
    const unsigned threads = 256, blocks = (unsigned)ctx->sm_count * 8;
    size_t n = (size_t)threads * blocks;
    void *buf;
    SP_TRY(sp_cu_scratch(ctx, SP_SCR_A, 2 * n * sizeof(F), &buf));
    /* words 0x11111111: below both moduli, so every input is reduced; the
     * work per multiplication does not depend on the values */
    SP_CU(ctx, cudaMemsetAsync(buf, 0x11, 2 * n * sizeof(F), ctx->stream));
    cudaEvent_t e0, e1;
    SP_CU(ctx, cudaEventCreate(&e0));
    SP_CU(ctx, cudaEventCreate(&e1));
    float ms[6];
    for (int rep = 0; rep < 6; rep++) { /* rep 0 warms up */
        SP_CU(ctx, cudaEventRecord(e0, ctx->stream));
        modmul_chain<F><<<blocks, threads, 0, ctx->stream>>>((F *)buf);
        SP_CU_LAUNCHED(ctx, "modmul_chain");
        SP_CU(ctx, cudaEventRecord(e1, ctx->stream));
        SP_CU(ctx, cudaEventSynchronize(e1));
        SP_CU(ctx, cudaEventElapsedTime(&ms[rep], e0, e1));
    }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    std::sort(ms + 1, ms + 6);
    *per_s = (double)n * SP_BENCH_CHAINS * SP_BENCH_ITERS / (ms[3] * 1e-3);
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
    default: return SP_ERR_INVALID_ARG;
    }
}
