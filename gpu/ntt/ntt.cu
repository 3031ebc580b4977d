/*
 * NTT over Fr on the device, natural order in and out, matching
 * src/ntt/ntt.h: forward out[j] = sum_i in[i] w^(ij), inverse with 1/n:
 * the domains, the choice by size (sp_cuda.h; radix4.cu below 2^22,
 * column_twiddles.cu from there) and the in-place radix-2 form that runs
 * when the device has no room for their scratch vector:
 *
 * Decimation in time: a bit-reversal permutation, then the first (up to)
 * 10 stages inside shared memory (a block owns 2^10 contiguous elements,
 * which is where those stages' butterflies stay), then passes of up to 5
 * stages each: a block loads the 2^5 elements that those stages mix (a
 * stride of 2^s0 apart) for 2^5 neighbouring columns (so every row is a
 * contiguous 1 KiB), does the stages in shared memory and writes back.
 * Twiddles tw[j] = w^j, j < n/2, are computed on the device when the
 * domain is made; stage s (butterfly span m = 2^s) uses
 * w_(2m)^k = tw[k * n / (2m)].
 */
#include <stdlib.h>
#include <string.h>
#include "domain.cuh"
#include "gpu/sp_cuda_tune.h"
extern "C" {
#include "ntt/ntt.h"
}

namespace SP_CURVE_NS {

#define SP_NTT_SMEM_LOG 10 /* stages done by the first kernel */
#define SP_NTT_PASS_LOG 5  /* stages per later pass */
#define SP_NTT_COLS_LOG 5  /* contiguous columns per block in a later pass */
#define SP_NTT_COLUMNS_LOG 22 /* by size: column twiddles from 2^22, rounds of two below */

/* tw[j] = w^j for j < half; each thread makes 64 consecutive powers. */
__global__ void ntt_twiddles(fr_t *tw, size_t half, fr_t w)
{
    size_t start = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * 64;
    if (start >= half)
        return;
    fr_t x, base = w;
    f_set_one(x);
    for (size_t e = start; e; e >>= 1) {
        if (e & 1)
            f_mul(x, x, base);
        f_sqr(base, base);
    }
    for (size_t j = start; j < start + 64 && j < half; j++) {
        tw[j] = x;
        f_mul(x, x, w);
    }
}

__global__ void ntt_bitrev(fr_t *a, size_t n, unsigned log_n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    size_t j = __brevll((unsigned long long)i) >> (64 - log_n);
    if (i < j) {
        fr_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

template <class F>
static __device__ __forceinline__ void butterfly(F &a0, F &a1, const F &w)
{
    F t;
    f_mul(t, a1, w);
    f_sub(a1, a0, t);
    f_add(a0, a0, t);
}

/* Stages 0 .. stages-1 of blocks of 2^stages elements, in shared memory. */
template <class F>
__global__ void __launch_bounds__(512) ntt_smem(F *a, const F *tw, unsigned log_n, unsigned stages)
{
    __shared__ F s[1 << SP_NTT_SMEM_LOG];
    const unsigned T = 1u << (stages - 1), tid = threadIdx.x;
    F *blk = a + ((size_t)blockIdx.x << stages);
    s[tid] = blk[tid];
    s[tid + T] = blk[tid + T];
    __syncthreads();
    for (unsigned st = 0; st < stages; st++) {
        unsigned k = tid & ((1u << st) - 1);
        unsigned i0 = ((tid >> st) << (st + 1)) | k, i1 = i0 + (1u << st);
        F w = tw[(size_t)k << (log_n - 1 - st)];
        F x0 = s[i0], x1 = s[i1];
        butterfly(x0, x1, w);
        s[i0] = x0;
        s[i1] = x1;
        __syncthreads();
    }
    blk[tid] = s[tid];
    blk[tid + T] = s[tid + T];
}

/*
 * Stages s0 .. s0+k-1 (s0 >= SP_NTT_COLS_LOG). The block owns the elements
 * (col | j << s0 | high << (s0+k)) for j < 2^k and 2^COLS consecutive col;
 * shared row j holds one j. Blocks are numbered column-block-major, so
 * neighbouring blocks read the same twiddles (L2 reuse).
 */
template <class F>
__global__ void __launch_bounds__(512) ntt_pass(F *a, const F *tw, unsigned log_n, unsigned s0,
                                                unsigned k)
{
    __shared__ F s[1 << (SP_NTT_PASS_LOG + SP_NTT_COLS_LOG)];
    const unsigned t = SP_NTT_COLS_LOG, tid = threadIdx.x, nthr = 1u << (k + t - 1);
    const unsigned lhigh = log_n - s0 - k;
    const size_t high = blockIdx.x & (((size_t)1 << lhigh) - 1);
    const size_t col0 = ((size_t)blockIdx.x >> lhigh) << t;
    for (unsigned e = tid; e < 2 * nthr; e += nthr) {
        size_t g = (col0 + (e & ((1u << t) - 1))) | ((size_t)(e >> t) << s0) | (high << (s0 + k));
        s[e] = a[g];
    }
    __syncthreads();
    const unsigned l = tid & ((1u << t) - 1), p = tid >> t;
    for (unsigned q = 0; q < k; q++) {
        unsigned j0 = ((p >> q) << (q + 1)) | (p & ((1u << q) - 1)), j1 = j0 | (1u << q);
        size_t ktw = (col0 + l) | ((size_t)(j0 & ((1u << q) - 1)) << s0);
        F w = tw[ktw << (log_n - 1 - (s0 + q))];
        F x0 = s[(j0 << t) | l], x1 = s[(j1 << t) | l];
        butterfly(x0, x1, w);
        s[(j0 << t) | l] = x0;
        s[(j1 << t) | l] = x1;
        __syncthreads();
    }
    for (unsigned e = tid; e < 2 * nthr; e += nthr) {
        size_t g = (col0 + (e & ((1u << t) - 1))) | ((size_t)(e >> t) << s0) | (high << (s0 + k));
        a[g] = s[e];
    }
}

template <class F>
__global__ void ntt_scale(F *a, size_t n, F c)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        f_mul(a[i], a[i], c);
}

/* Fills d's tables for root w. */
static sp_status ntt_tables(sp_cuda *ctx, sp_cuda_ntt_domain *d, const sp_fr *w)
{
    sp_fr w_inv, nn;
    sp_fr_inv(&w_inv, w);
    sp_fr_set_u64(&nn, (uint64_t)d->n);
    sp_fr_inv(&d->n_inv, &nn);
    if (d->log_n == 0)
        return SP_OK;
    size_t half = d->n / 2;
    SP_CU(ctx, cudaMalloc(&d->tw, half * sizeof(fr_t)));
    SP_CU(ctx, cudaMalloc(&d->tw_inv, half * sizeof(fr_t)));
    unsigned blocks = sp_cu_blocks((half + 63) / 64, 128);
    fr_t wd, wid;
    memcpy(&wd, w, sizeof wd);
    memcpy(&wid, &w_inv, sizeof wid);
    ntt_twiddles<<<blocks, 128, 0, ctx->stream>>>(d->tw, half, wd);
    SP_CU_LAUNCHED(ctx, "ntt_twiddles");
    ntt_twiddles<<<blocks, 128, 0, ctx->stream>>>(d->tw_inv, half, wid);
    SP_CU_LAUNCHED(ctx, "ntt_twiddles");
    SP_CU(ctx, cudaStreamSynchronize(ctx->stream));
    return SP_OK;
}

extern "C" sp_status sp_cuda_ntt_domain_create(sp_cuda *ctx, sp_cuda_ntt_domain **out,
                                               unsigned log_n, int roots)
{
    *out = NULL;
    if (log_n > SP_NTT_MAX_LOG || (roots != SP_NTT_ROOTS_SNARKJS && roots != SP_NTT_ROOTS_ZKCRYPTO))
        return SP_ERR_INVALID_ARG;
    sp_fr w;
    SP_TRY(sp_ntt_root_of_unity(&w, log_n, (sp_ntt_roots)roots));
    sp_cuda_ntt_domain *d = (sp_cuda_ntt_domain *)calloc(1, sizeof *d);
    if (!d)
        return SP_ERR_NOMEM;
    d->log_n = log_n;
    d->n = (size_t)1 << log_n;
    sp_status st = ntt_tables(ctx, d, &w);
    if (st == SP_OK)
        st = sp_cu_ntt_fs_tables(ctx, d);
    if (st != SP_OK) {
        sp_cuda_ntt_domain_free(ctx, d);
        return st;
    }
    *out = d;
    return SP_OK;
}

extern "C" void sp_cuda_ntt_domain_free(sp_cuda *ctx, sp_cuda_ntt_domain *d)
{
    (void)ctx;
    if (!d)
        return;
    cudaFree(d->tw);
    cudaFree(d->tw_inv);
    cudaFree(d->fs_tab);
    cudaFree(d->fs_tab_inv);
    free(d);
}

template <class F>
static sp_status ntt_run(sp_cuda *ctx, const sp_cuda_ntt_domain *d, F *a, int inverse)
{
    const unsigned log_n = d->log_n;
    const F *tw = (const F *)(inverse ? d->tw_inv : d->tw);
    ntt_bitrev<<<sp_cu_blocks(d->n, 256), 256, 0, ctx->stream>>>((fr_t *)a, d->n, log_n);
    SP_CU_LAUNCHED(ctx, "ntt_bitrev");
    unsigned sm = log_n < SP_NTT_SMEM_LOG ? log_n : SP_NTT_SMEM_LOG;
    ntt_smem<F><<<(unsigned)(d->n >> sm), 1u << (sm - 1), 0, ctx->stream>>>(a, tw, log_n, sm);
    SP_CU_LAUNCHED(ctx, "ntt_smem");
    for (unsigned st = sm; st < log_n; st += SP_NTT_PASS_LOG) {
        unsigned k = log_n - st < SP_NTT_PASS_LOG ? log_n - st : SP_NTT_PASS_LOG;
        unsigned blocks = (unsigned)(d->n >> (k + SP_NTT_COLS_LOG));
        ntt_pass<F><<<blocks, 1u << (k + SP_NTT_COLS_LOG - 1), 0, ctx->stream>>>(a, tw, log_n, st,
                                                                                  k);
        SP_CU_LAUNCHED(ctx, "ntt_pass");
    }
    if (inverse) {
        F c;
        memcpy(&c, &d->n_inv, sizeof c);
        ntt_scale<F><<<sp_cu_blocks(d->n, 256), 256, 0, ctx->stream>>>(a, d->n, c);
        SP_CU_LAUNCHED(ctx, "ntt_scale");
    }
    SP_CU(ctx, cudaStreamSynchronize(ctx->stream));
    return SP_OK;
}

extern "C" sp_status sp_cuda_ntt(sp_cuda *ctx, const sp_cuda_ntt_domain *d, sp_fr *a_dev,
                                 int inverse)
{
    if (!sp_cu_is_device_ptr(a_dev))
        return SP_ERR_INVALID_ARG;
    if (d->log_n == 0)
        return SP_OK;
    int form = ctx->ntt_form;
    if (form == SP_CUDA_NTT_BY_SIZE)
        form = d->log_n < SP_NTT_COLUMNS_LOG ? SP_CUDA_NTT_RADIX4 : SP_CUDA_NTT_COLUMNS;
    if (form != SP_CUDA_NTT_IN_PLACE) { /* without room for the scratch vector: in place, below */
        sp_status st = form == SP_CUDA_NTT_COLUMNS && d->fs_tab ? sp_cu_ntt_columns(ctx, d, a_dev, inverse)
                                                                : sp_cu_ntt_radix4(ctx, d, a_dev, inverse);
        if (st != SP_ERR_NOMEM)
            return st;
    }
    return ntt_run(ctx, d, (fr_tm<SP_MUL_EO> *)a_dev, inverse);
}

extern "C" int sp_cuda_set_ntt_form(sp_cuda *ctx, int form)
{
    int old = ctx->ntt_form;
    if (form >= SP_CUDA_NTT_BY_SIZE && form <= SP_CUDA_NTT_COLUMNS)
        ctx->ntt_form = form;
    return old;
}

} // namespace SP_CURVE_NS
