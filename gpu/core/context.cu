/* The CUDA context: device selection, errors, memory and scratch buffers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "context.cuh"

namespace SP_CURVE_NS {

void sp_cu_record(sp_cuda *ctx, const char *what, const char *file, int line, cudaError_t e)
{
    /* taken, so that the error (unless sticky) does not stay pending and
     * make the next launch check report it as its own */
    cudaGetLastError();
    snprintf(ctx->err, sizeof ctx->err, "%s (%s:%d): %s", what, file, line, cudaGetErrorString(e));
}

sp_status sp_cu_malloc(sp_cuda *ctx, void **dev, size_t bytes)
{
    cudaError_t e = cudaMalloc(dev, bytes ? bytes : 1);
    if (e == cudaSuccess)
        return SP_OK;
    *dev = NULL;
    sp_cu_record(ctx, "cudaMalloc", __FILE__, __LINE__, e);
    return e == cudaErrorMemoryAllocation ? SP_ERR_NOMEM : SP_ERR_GPU;
}

static sp_status ctx_open(sp_cuda *ctx, int device, cudaDeviceProp *prop)
{
    int count = 0;
    SP_CU(ctx, cudaGetDeviceCount(&count));
    if (device < 0 || device >= count) {
        snprintf(ctx->err, sizeof ctx->err, "no CUDA device %d (%d present)", device, count);
        return SP_ERR_GPU;
    }
    SP_CU(ctx, cudaSetDevice(device));
    SP_CU(ctx, cudaGetDeviceProperties(prop, device));
    SP_CU(ctx, cudaStreamCreateWithFlags(&ctx->stream, cudaStreamNonBlocking));
    return SP_OK;
}

/* SP_CUDA_PROFILE=1 turns the phase times on (sp_cuda_set_profile), so
 * that whole runs (prove, the engine) print them. */
static void ctx_profile_from_env(sp_cuda *ctx)
{
    const char *v = getenv("SP_CUDA_PROFILE");
    ctx->profile = v && v[0] == '1' && !v[1];
}

extern "C" int sp_cuda_device_count(void)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError(); /* not sticky: later calls are unaffected */
        return 0;
    }
    return count;
}

extern "C" sp_status sp_cuda_create(sp_cuda **out, int device, char *err, size_t err_len)
{
    *out = NULL;
    sp_cuda *ctx = (sp_cuda *)calloc(1, sizeof *ctx);
    if (!ctx)
        return SP_ERR_NOMEM;
    ctx->device = device;
    ctx_profile_from_env(ctx);
    cudaDeviceProp prop;
    sp_status st = ctx_open(ctx, device, &prop);
    if (st != SP_OK) {
        if (err && err_len)
            snprintf(err, err_len, "%s", ctx->err);
        free(ctx);
        return st;
    }
    ctx->sm_count = prop.multiProcessorCount;
    size_t total = 0; /* the base of the memory cap (sp_cuda_set_mem_limit) */
    if (cudaMemGetInfo(&ctx->mem_base, &total) != cudaSuccess)
        cudaGetLastError();
    int clock_khz = 0;
    cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device);
    snprintf(ctx->info, sizeof ctx->info, "%s, sm_%d%d, %d SMs, %.1f GiB, %.0f MHz, L2 %d MB",
             prop.name, prop.major, prop.minor, prop.multiProcessorCount,
             prop.totalGlobalMem / 1073741824.0, clock_khz / 1000.0, prop.l2CacheSize >> 20);
    *out = ctx;
    return SP_OK;
}

extern "C" void sp_cuda_free(sp_cuda *ctx)
{
    if (!ctx)
        return;
    cudaSetDevice(ctx->device);
    for (int i = 0; i < SP_SCR_COUNT; i++)
        cudaFree(ctx->scr[i]);
    for (int i = 0; i < SP_XSCR_COUNT; i++)
        cudaFree(ctx->xscr[i]);
    for (int i = 0; ctx->ev_ready && i < SP_CU_EVENTS; i++)
        cudaEventDestroy(ctx->ev[i]);
    sp_cu_stream_release(ctx);
    sp_cu_b2_release(ctx);
    sp_cu_table_release(ctx);
    cudaStreamDestroy(ctx->stream);
    free(ctx);
}

extern "C" const char *sp_cuda_error(const sp_cuda *ctx) { return ctx->err; }
extern "C" const char *sp_cuda_device_info(const sp_cuda *ctx) { return ctx->info; }

extern "C" void sp_cuda_set_profile(sp_cuda *ctx, int on)
{
    ctx->profile = on;
    ctx->prof[0] = 0;
}

extern "C" const char *sp_cuda_profile(const sp_cuda *ctx) { return ctx->prof; }

/* Grows *buf (capacity *cap) to bytes, contents lost; SP_ERR_NOMEM (the
 * slot then empty) when the device has not that much free. */
static sp_status scratch_grow(sp_cuda *ctx, void **buf, size_t *cap, size_t bytes, void **p)
{
    if (bytes == 0)
        bytes = 1;
    if (*cap < bytes) {
        SP_CU(ctx, cudaStreamSynchronize(ctx->stream));
        SP_CU(ctx, cudaFree(*buf));
        *buf = NULL;
        *cap = 0;
        SP_TRY(sp_cu_malloc(ctx, buf, bytes));
        *cap = bytes;
    }
    *p = *buf;
    return SP_OK;
}

sp_status sp_cu_scratch(sp_cuda *ctx, int slot, size_t bytes, void **p)
{
    return scratch_grow(ctx, &ctx->scr[slot], &ctx->scr_cap[slot], bytes, p);
}

sp_status sp_cu_xscratch(sp_cuda *ctx, int slot, size_t bytes, void **p)
{
    return scratch_grow(ctx, &ctx->xscr[slot], &ctx->xscr_cap[slot], bytes, p);
}

int sp_cu_is_device_ptr(const void *p)
{
    cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
        cudaGetLastError(); /* clear: unknown pointers are host memory */
        return 0;
    }
    return a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged;
}

sp_status sp_cu_device_view(sp_cuda *ctx, int slot, const void *src, size_t bytes,
                            const void **view)
{
    if (sp_cu_is_device_ptr(src)) {
        *view = src;
        return SP_OK;
    }
    void *d;
    SP_TRY(sp_cu_scratch(ctx, slot, bytes, &d));
    SP_CU(ctx, cudaMemcpyAsync(d, src, bytes, cudaMemcpyHostToDevice, ctx->stream));
    *view = d;
    return SP_OK;
}

extern "C" sp_status sp_cuda_malloc(sp_cuda *ctx, void **dev, size_t bytes)
{
    return sp_cu_malloc(ctx, dev, bytes);
}

extern "C" void sp_cuda_dev_free(sp_cuda *ctx, void *dev)
{
    (void)ctx;
    cudaFree(dev);
}

extern "C" sp_status sp_cuda_host_malloc(sp_cuda *ctx, void **host, size_t bytes)
{
    *host = NULL;
    SP_CU(ctx, cudaMallocHost(host, bytes ? bytes : 1));
    return SP_OK;
}

extern "C" void sp_cuda_host_free(sp_cuda *ctx, void *host)
{
    (void)ctx;
    cudaFreeHost(host);
}

extern "C" sp_status sp_cuda_copy(sp_cuda *ctx, void *dst, const void *src, size_t bytes)
{
    if (bytes == 0)
        return SP_OK;
    SP_CU(ctx, cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, ctx->stream));
    SP_CU(ctx, cudaStreamSynchronize(ctx->stream));
    return SP_OK;
}

} // namespace SP_CURVE_NS
