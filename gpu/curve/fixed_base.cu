/*
 * Fixed-base scalar multiplication on the device, for the development
 * setup (sp_cuda_backend.h): out[i] = [k_i] B with the contract and the
 * window table of src/groth16/fixed_base.h (d 2^(8j) B, built on the host
 * by sp_gX_fixed_base_table_var, so the points are the CPU's).
 *
 * Per chunk of at most FB_CHUNK_G1 / FB_CHUNK_G2 scalars, on the context's
 * stream:
 *   1. fb_mul:    one thread per scalar: Montgomery -> canonical, then one
 *                 mixed XYZZ addition of table[j][byte j] per nonzero byte
 *                 (at most 32) into a device scratch of XYZZ points. The
 *                 running sum (< 2^(8j) B) and the entry (d 2^(8j) B) are
 *                 never equal or opposite for a scalar below r; the
 *                 addition handles those cases anyway.
 *   2. xyzz_to_affine_runs (to_affine.cuh): one thread per run of
 *                 FB_RUN points, one Fermat inversion per run
 *                 (Montgomery's trick); infinity is written as (0, 0).
 * Host memory: the scalars go to the device through pinned staging
 * buffers and the points come back through others, two of each, so that
 * while the device computes chunk i the host copies chunk i - 1 out on
 * `threads` threads (the first touch of a fresh key array costs page
 * faults that one thread cannot keep up with). Device pointers are read
 * and written in place. The field arithmetic is the 64-bit
 * multiplication (SP_MUL_WIDE: bulk element-wise work).
 */
#include <stdio.h>
#include <string.h>
#include "gpu/core/context.cuh"
#include "xyzz.cuh"
#include "to_affine.cuh"
#include "gpu/sp_cuda_backend.h"

extern "C" {
#include "groth16/fixed_base.h"
#include "util/par.h"
}

namespace SP_CURVE_NS {

typedef fp_tm<SP_MUL_WIDE> fb_fp;
typedef fp2_tm<SP_MUL_WIDE> fb_fp2;
typedef fr_tm<SP_MUL_WIDE> fb_fr;
static_assert(sizeof(affine_t<fb_fp>) == sizeof(sp_g1_affine), "G1 affine layout");
static_assert(sizeof(affine_t<fb_fp2>) == sizeof(sp_g2_affine), "G2 affine layout");
static_assert(sizeof(fb_fr) == sizeof(sp_fr), "Fr layout");

#define FB_THREADS 128
#define FB_RUN 16                          /* points per inversion */
#define FB_CHUNK_G1 ((size_t)1 << 20)      /* 96 MiB of affine G1 points */
#define FB_CHUNK_G2 ((size_t)1 << 19)      /* 96 MiB of affine G2 points */
#define FB_CHUNK_MIN ((size_t)1 << 12)     /* smallest chunk tried when device memory is short */
#define FB_COPY_GRAIN ((size_t)4 << 20)    /* bytes per host copy thread, at least */

/* ---- device ---- */

/* Blocks per SM the compiler must fit: 4 x 128 threads for G1 (<= 128
 * registers, as the MSM's accumulation); G2 needs all 255 registers. */
template <class F> struct fb_occupancy { enum { MIN_BLOCKS = 1 }; };
template <> struct fb_occupancy<fb_fp> { enum { MIN_BLOCKS = 4 }; };

template <class F>
__global__ void __launch_bounds__(FB_THREADS, fb_occupancy<F>::MIN_BLOCKS)
fb_mul(xyzz_t<F> *acc_out, const affine_t<F> *table, const fb_fr *k, size_t m)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m)
        return;
    uint32_t c[8], one[8] = {1, 0, 0, 0, 0, 0, 0, 0};
    mont_mul_wide<fr_desc>(c, k[i].w, one); /* k R * 1 / R: canonical */
    xyzz_t<F> acc;
    xyzz_set_inf(acc);
#pragma unroll 1
    for (int j = 0; j < SP_FB_WINDOWS; j++) {
        uint32_t d = (words_at<8>(c, j >> 2) >> (8 * (j & 3))) & 0xff;
        if (d) {
            affine_t<F> q = table[j * SP_FB_DIGITS + d - 1];
            xyzz_add_affine(acc, q);
        }
    }
    acc_out[i] = acc;
}

/* ---- host ---- */

typedef struct {
    char *dst;
    const char *src;
    size_t bytes;
} fb_copy_job;

static void fb_copy_worker(sp_par *par, int tid, void *arg)
{
    const fb_copy_job *j = (const fb_copy_job *)arg;
    size_t lo, hi;
    sp_par_range(&lo, &hi, j->bytes, tid, par->nthreads);
    memcpy(j->dst + lo, j->src + lo, hi - lo);
}

/* memcpy on up to `threads` threads. */
static void fb_copy(void *dst, const void *src, size_t bytes, int threads)
{
    fb_copy_job j = {(char *)dst, (const char *)src, bytes};
    sp_par_run(sp_par_threads_for(threads, bytes, FB_COPY_GRAIN), fb_copy_worker, &j);
}

/* One call's state: inputs, device buffers, staging, events. */
template <class F, class HA>
struct fb_job {
    HA *out;
    const sp_fr *k;
    size_t n, chunk;
    int threads, out_dev, k_dev;
    affine_t<F> *table;     /* device */
    xyzz_t<F> *xyzz;        /* device, chunk points */
    affine_t<F> *dout;      /* device, chunk points (host out only) */
    fb_fr *dk;              /* device, chunk scalars (host k only) */
    void *kst[2], *ost[2];  /* host staging (pinned when granted) */
    cudaEvent_t ev[2];
    int nev;
};

/* Device buffers for chunks of `chunk` points; SP_ERR_NOMEM when short. */
template <class F, class HA>
static sp_status fb_device_buffers(sp_cuda *ctx, fb_job<F, HA> *j)
{
    SP_TRY(sp_cuda_try_malloc(ctx, (void **)&j->xyzz, j->chunk * sizeof(xyzz_t<F>)));
    if (!j->out_dev)
        SP_TRY(sp_cuda_try_malloc(ctx, (void **)&j->dout, j->chunk * sizeof(HA)));
    if (!j->k_dev)
        SP_TRY(sp_cuda_try_malloc(ctx, (void **)&j->dk, j->chunk * sizeof(sp_fr)));
    return SP_OK;
}

template <class F, class HA>
static void fb_release_device(fb_job<F, HA> *j)
{
    cudaFree(j->xyzz);
    cudaFree(j->dout);
    cudaFree(j->dk);
    j->xyzz = NULL;
    j->dout = NULL;
    j->dk = NULL;
}

/* The table on the device, the chunk size (halved while device memory is
 * short), staging and events. */
template <class F, class HA>
static sp_status fb_prepare(sp_cuda *ctx, fb_job<F, HA> *j, const HA *base, size_t chunk_max,
                            sp_status (*table_fn)(HA *, const HA *))
{
    HA *table = (HA *)malloc(SP_FB_TABLE_LEN * sizeof(HA));
    if (!table || table_fn(table, base) != SP_OK) {
        free(table);
        return SP_ERR_NOMEM;
    }
    sp_status st = sp_cuda_try_malloc(ctx, (void **)&j->table, SP_FB_TABLE_LEN * sizeof(HA));
    if (st == SP_OK)
        st = sp_cuda_copy(ctx, j->table, table, SP_FB_TABLE_LEN * sizeof(HA));
    free(table);
    SP_TRY(st);
    j->chunk = j->n < chunk_max ? j->n : chunk_max;
    while ((st = fb_device_buffers(ctx, j)) == SP_ERR_NOMEM && j->chunk > FB_CHUNK_MIN) {
        fb_release_device(j);
        j->chunk /= 2;
    }
    SP_TRY(st);
    for (int b = 0; b < 2; b++) {
        if (!j->k_dev && !(j->kst[b] = sp_cuda_pinned_alloc(ctx->device, j->chunk * sizeof(sp_fr), NULL)))
            return SP_ERR_NOMEM;
        if (!j->out_dev && !(j->ost[b] = sp_cuda_pinned_alloc(ctx->device, j->chunk * sizeof(HA), NULL)))
            return SP_ERR_NOMEM;
        SP_CU(ctx, cudaEventCreateWithFlags(&j->ev[b], cudaEventDisableTiming));
        j->nev++;
    }
    return SP_OK;
}

template <class F, class HA>
static void fb_release(sp_cuda *ctx, fb_job<F, HA> *j)
{
    if (cudaStreamSynchronize(ctx->stream) != cudaSuccess) /* no copy may still target staging */
        cudaGetLastError();
    fb_release_device(j);
    cudaFree(j->table);
    for (int b = 0; b < 2; b++) {
        sp_cuda_pinned_free(j->kst[b]);
        sp_cuda_pinned_free(j->ost[b]);
    }
    for (int b = 0; b < j->nev; b++)
        cudaEventDestroy(j->ev[b]);
}

/* Queues chunk i: scalars in, both kernels, points out, event. */
template <class F, class HA>
static sp_status fb_enqueue(sp_cuda *ctx, fb_job<F, HA> *j, size_t i)
{
    size_t lo = i * j->chunk, m = j->n - lo < j->chunk ? j->n - lo : j->chunk;
    const fb_fr *k = (const fb_fr *)(j->k + lo);
    if (!j->k_dev) {
        fb_copy(j->kst[i & 1], j->k + lo, m * sizeof(sp_fr), j->threads);
        SP_CU(ctx, cudaMemcpyAsync(j->dk, j->kst[i & 1], m * sizeof(sp_fr), cudaMemcpyHostToDevice,
                                   ctx->stream));
        k = j->dk;
    }
    affine_t<F> *o = j->out_dev ? (affine_t<F> *)(j->out + lo) : j->dout;
    fb_mul<F><<<sp_cu_blocks(m, FB_THREADS), FB_THREADS, 0, ctx->stream>>>(j->xyzz, j->table, k, m);
    SP_CU_LAUNCHED(ctx, "fb_mul");
    xyzz_to_affine_runs<F, FB_RUN><<<sp_cu_blocks((m + FB_RUN - 1) / FB_RUN, SP_CB_THREADS), SP_CB_THREADS, 0,
                                      ctx->stream>>>(o, j->xyzz, m);
    SP_CU_LAUNCHED(ctx, "xyzz_to_affine_runs");
    if (!j->out_dev)
        SP_CU(ctx, cudaMemcpyAsync(j->ost[i & 1], j->dout, m * sizeof(HA), cudaMemcpyDeviceToHost,
                                   ctx->stream));
    SP_CU(ctx, cudaEventRecord(j->ev[i & 1], ctx->stream));
    return SP_OK;
}

/* Waits for chunk i and copies its points out of staging. */
template <class F, class HA>
static sp_status fb_drain(sp_cuda *ctx, fb_job<F, HA> *j, size_t i)
{
    size_t lo = i * j->chunk, m = j->n - lo < j->chunk ? j->n - lo : j->chunk;
    SP_CU(ctx, cudaEventSynchronize(j->ev[i & 1]));
    if (!j->out_dev)
        fb_copy(j->out + lo, j->ost[i & 1], m * sizeof(HA), j->threads);
    return SP_OK;
}

/* Chunk i is queued while chunk i - 1 is copied out; buffers i & 1 are
 * free again because chunk i - 2 was drained in the previous round. */
template <class F, class HA>
static sp_status fb_run(sp_cuda *ctx, HA *out, const HA *base, const sp_fr *k, size_t n, int threads,
                        size_t chunk_max, sp_status (*table_fn)(HA *, const HA *))
{
    if (n == 0)
        return SP_OK;
    fb_job<F, HA> j;
    memset(&j, 0, sizeof j);
    j.out = out;
    j.k = k;
    j.n = n;
    j.threads = threads < 1 ? 1 : threads;
    j.out_dev = sp_cu_is_device_ptr(out);
    j.k_dev = sp_cu_is_device_ptr(k);
    sp_status st = fb_prepare(ctx, &j, base, chunk_max, table_fn);
    size_t nch = (n + j.chunk - 1) / (j.chunk ? j.chunk : 1);
    for (size_t i = 0; st == SP_OK && i <= nch; i++) {
        if (i < nch)
            st = fb_enqueue(ctx, &j, i);
        if (st == SP_OK && i > 0)
            st = fb_drain(ctx, &j, i - 1);
    }
    fb_release(ctx, &j);
    return st;
}

extern "C" sp_status sp_cuda_fixed_base_g1(sp_cuda *ctx, sp_g1_affine *out, const sp_g1_affine *base,
                                           const sp_fr *k, size_t n, int threads)
{
    return fb_run<fb_fp, sp_g1_affine>(ctx, out, base, k, n, threads, FB_CHUNK_G1,
                                       sp_g1_fixed_base_table_var);
}

extern "C" sp_status sp_cuda_fixed_base_g2(sp_cuda *ctx, sp_g2_affine *out, const sp_g2_affine *base,
                                           const sp_fr *k, size_t n, int threads)
{
    return fb_run<fb_fp2, sp_g2_affine>(ctx, out, base, k, n, threads, FB_CHUNK_G2,
                                        sp_g2_fixed_base_table_var);
}

} // namespace SP_CURVE_NS
