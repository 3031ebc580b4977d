/* Host-side helpers of the CUDA backend (sp_cuda_backend.h). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "cu_util.cuh"
#include "sp_cuda_backend.h"

extern "C" sp_status sp_cuda_bind(sp_cuda *ctx)
{
    SP_CU(ctx, cudaSetDevice(ctx->device));
    return SP_OK;
}

extern "C" int sp_cuda_device_number(const sp_cuda *ctx) { return ctx->device; }

extern "C" void sp_cuda_set_mem_limit(sp_cuda *ctx, size_t bytes) { ctx->mem_limit = bytes; }

extern "C" size_t sp_cuda_mem_limit(const sp_cuda *ctx) { return ctx->mem_limit; }

extern "C" sp_status sp_cuda_mem_info(sp_cuda *ctx, size_t *free_bytes, size_t *total_bytes)
{
    SP_CU(ctx, cudaMemGetInfo(free_bytes, total_bytes));
    if (ctx->mem_limit) { /* the cap: what is left of it after the growth since creation */
        size_t grown = ctx->mem_base > *free_bytes ? ctx->mem_base - *free_bytes : 0;
        size_t left = ctx->mem_limit > grown ? ctx->mem_limit - grown : 0;
        if (*free_bytes > left)
            *free_bytes = left;
        if (*total_bytes > ctx->mem_limit)
            *total_bytes = ctx->mem_limit;
    }
    return SP_OK;
}

extern "C" sp_status sp_cuda_try_malloc(sp_cuda *ctx, void **dev, size_t bytes)
{
    *dev = NULL;
    if (ctx->mem_limit) {
        size_t free_b = 0, total = 0;
        SP_TRY(sp_cuda_mem_info(ctx, &free_b, &total));
        if (bytes > free_b) {
            snprintf(ctx->err, sizeof ctx->err, "cudaMalloc of %zu bytes: over the device memory cap "
                     "(%zu of %zu bytes left)", bytes, free_b, ctx->mem_limit);
            return SP_ERR_NOMEM;
        }
    }
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

/* ---- memory pinned in place, counted across the process ---- */

typedef struct {
    const void *p;
    size_t bytes;
    int refs;
} pinned_range;

static pthread_mutex_t pin_mu = PTHREAD_MUTEX_INITIALIZER;
static pinned_range *pin_tab;
static size_t pin_n, pin_cap;

static pinned_range *pin_find(const void *p)
{
    for (size_t i = 0; i < pin_n; i++)
        if (pin_tab[i].p == p)
            return &pin_tab[i];
    return NULL;
}

/* Registers [p, p + bytes) with the driver (portable: every device). */
static sp_status pin_new(sp_cuda *ctx, const void *p, size_t bytes)
{
    if (pin_n == pin_cap) {
        size_t cap = pin_cap ? 2 * pin_cap : 16;
        pinned_range *t = (pinned_range *)realloc(pin_tab, cap * sizeof *t);
        if (!t)
            return SP_ERR_NOMEM;
        pin_tab = t;
        pin_cap = cap;
    }
    cudaError_t e = cudaHostRegister((void *)p, bytes, cudaHostRegisterPortable);
    if (e != cudaSuccess) {
        cudaGetLastError(); /* not sticky: later calls are unaffected */
        sp_cu_record(ctx, "cudaHostRegister", __FILE__, __LINE__, e);
        return SP_ERR_GPU;
    }
    pin_tab[pin_n++] = (pinned_range){p, bytes, 1};
    return SP_OK;
}

extern "C" sp_status sp_cuda_host_register(sp_cuda *ctx, const void *p, size_t bytes)
{
    if (!p || !bytes)
        return SP_OK;
    pthread_mutex_lock(&pin_mu);
    pinned_range *r = pin_find(p);
    sp_status st = SP_OK;
    if (r && r->bytes == bytes)
        r->refs++;
    else if (r) {
        snprintf(ctx->err, sizeof ctx->err, "cudaHostRegister: %p already pinned with %zu bytes, not %zu",
                 p, r->bytes, bytes);
        st = SP_ERR_GPU;
    } else
        st = pin_new(ctx, p, bytes);
    pthread_mutex_unlock(&pin_mu);
    return st;
}

extern "C" void sp_cuda_host_unregister(const void *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&pin_mu);
    pinned_range *r = pin_find(p);
    if (r && --r->refs == 0) {
        if (cudaHostUnregister((void *)p) != cudaSuccess)
            cudaGetLastError();
        *r = pin_tab[--pin_n];
        if (pin_n == 0) {
            free(pin_tab);
            pin_tab = NULL;
            pin_cap = 0;
        }
    }
    pthread_mutex_unlock(&pin_mu);
}
