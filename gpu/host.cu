/* Host-side helpers of the CUDA backend (sp_cuda_backend.h). */
#include <stdlib.h>
#include "cu_util.cuh"
#include "sp_cuda_backend.h"

extern "C" sp_status sp_cuda_bind(sp_cuda *ctx)
{
    SP_CU(ctx, cudaSetDevice(ctx->device));
    return SP_OK;
}

extern "C" int sp_cuda_device_number(const sp_cuda *ctx) { return ctx->device; }

extern "C" sp_status sp_cuda_mem_info(sp_cuda *ctx, size_t *free_bytes, size_t *total_bytes)
{
    SP_CU(ctx, cudaMemGetInfo(free_bytes, total_bytes));
    return SP_OK;
}

extern "C" sp_status sp_cuda_try_malloc(sp_cuda *ctx, void **dev, size_t bytes)
{
    *dev = NULL;
    cudaError_t e = cudaMalloc(dev, bytes ? bytes : 1);
    if (e == cudaSuccess)
        return SP_OK;
    *dev = NULL;
    cudaGetLastError(); /* an allocation failure is not sticky: clear it for later launches */
    sp_cu_record(ctx, "cudaMalloc", __FILE__, __LINE__, e);
    return e == cudaErrorMemoryAllocation ? SP_ERR_NOMEM : SP_ERR_GPU;
}

extern "C" void *sp_cuda_pinned_alloc(int device, size_t bytes, int *pinned)
{
    void *p = NULL;
    if (cudaSetDevice(device) == cudaSuccess &&
        cudaHostAlloc(&p, bytes ? bytes : 1, cudaHostAllocPortable) == cudaSuccess) {
        if (pinned)
            *pinned = 1;
        return p;
    }
    cudaGetLastError();
    if (pinned)
        *pinned = 0;
    return malloc(bytes ? bytes : 1);
}

extern "C" void sp_cuda_pinned_free(void *p)
{
    if (!p)
        return;
    cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, p) == cudaSuccess && a.type == cudaMemoryTypeHost) {
        cudaFreeHost(p);
        return;
    }
    cudaGetLastError();
    free(p);
}
