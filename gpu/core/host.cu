/* Host-side functions of the CUDA backend (sp_cuda_backend.h). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "context.cuh"
#include "gpu/sp_cuda_backend.h"

extern "C" {
#include "util/par.h"
}

/* A staged upload: sp_cuda_backend.h's type, global for its C API (the
 * rest of the file is in the curve's namespace). */
#define SP_UPLOAD_MAX_SLOTS 8
#define SP_UPLOAD_GRAIN ((size_t)1 << 20) /* bytes per copying thread, at least */

struct sp_cuda_upload {
    int device;
    cudaStream_t stream;
    cudaEvent_t ev[SP_UPLOAD_MAX_SLOTS]; /* slot k's copy to the device is done */
    unsigned char *ring;                 /* slots x slot_bytes, pinned */
    size_t slot_bytes;
    int slots, n_ev;
    /* the upload in flight */
    pthread_t th;
    int running, threaded, threads;
    unsigned char *dev;
    const unsigned char *src;
    size_t bytes;
    cudaError_t e;
    const char *what; /* the call that failed */
    double ms;
};

namespace SP_CURVE_NS {

extern "C" sp_status sp_cuda_bind(sp_cuda *ctx)
{
    SP_CU(ctx, cudaSetDevice(ctx->device));
    return SP_OK;
}

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
    return sp_cu_malloc(ctx, dev, bytes);
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

/* The range holding [p, p + bytes), or NULL. */
static pinned_range *pin_cover(const void *p, size_t bytes)
{
    const char *c = (const char *)p;
    for (size_t i = 0; i < pin_n; i++) {
        const char *lo = (const char *)pin_tab[i].p;
        if (c >= lo && (size_t)(c - lo) <= pin_tab[i].bytes && bytes <= pin_tab[i].bytes - (size_t)(c - lo))
            return &pin_tab[i];
    }
    return NULL;
}

/* Registers [p, p + bytes) with the driver (portable: every device;
 * mapped, so that kernels may read it in place, where the driver allows). */
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
    cudaError_t e = cudaHostRegister((void *)p, bytes, cudaHostRegisterPortable | cudaHostRegisterMapped);
    if (e != cudaSuccess) {
        cudaGetLastError();
        e = cudaHostRegister((void *)p, bytes, cudaHostRegisterPortable);
    }
    if (e != cudaSuccess) {
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

const void *sp_cu_host_view(const void *p, size_t bytes)
{
    const void *view = NULL;
    pthread_mutex_lock(&pin_mu);
    pinned_range *r = bytes ? pin_cover(p, bytes) : NULL;
    void *d = NULL;
    if (r && cudaHostGetDevicePointer(&d, (void *)r->p, 0) == cudaSuccess && d)
        view = (const char *)d + ((const char *)p - (const char *)r->p);
    else
        cudaGetLastError(); /* not mapped: not sticky */
    pthread_mutex_unlock(&pin_mu);
    return view;
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

/* ---- staged uploads (sp_cuda_upload, defined above) ---- */

static double up_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

typedef struct {
    unsigned char *dst;
    const unsigned char *src;
    size_t bytes;
} up_copy;

static void up_copy_part(sp_par *par, int tid, void *arg)
{
    const up_copy *c = (const up_copy *)arg;
    size_t lo, hi;
    sp_par_range(&lo, &hi, c->bytes, tid, par->nthreads);
    memcpy(c->dst + lo, c->src + lo, hi - lo);
}

/* 1 when p is page-locked host memory (allocated pinned or registered). */
static int up_is_pinned(const void *p)
{
    cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return a.type == cudaMemoryTypeHost;
}

/* The upload, on its own thread: slot k takes pieces k, k + slots, ...;
 * before a slot is refilled its previous copy must have finished. */
static void *up_main(void *arg)
{
    sp_cuda_upload *u = (sp_cuda_upload *)arg;
    double t0 = up_now_ms();
    cudaError_t e = cudaSetDevice(u->device);
    u->what = "cudaSetDevice";
    if (e == cudaSuccess && up_is_pinned(u->src)) {
        u->what = "cudaMemcpyAsync (pinned source)";
        e = cudaMemcpyAsync(u->dev, u->src, u->bytes, cudaMemcpyHostToDevice, u->stream);
    }
    else {
        size_t k = 0;
        for (size_t off = 0; e == cudaSuccess && off < u->bytes; off += u->slot_bytes, k++) {
            int s = (int)(k % (size_t)u->slots);
            size_t len = u->bytes - off < u->slot_bytes ? u->bytes - off : u->slot_bytes;
            u->what = "cudaEventSynchronize (staging slot)";
            if (k >= (size_t)u->slots && (e = cudaEventSynchronize(u->ev[s])) != cudaSuccess)
                break;
            up_copy c = {u->ring + (size_t)s * u->slot_bytes, u->src + off, len};
            sp_par_run(sp_par_threads_for(u->threads, len, SP_UPLOAD_GRAIN), up_copy_part, &c);
            u->what = "cudaMemcpyAsync (staging slot)";
            e = cudaMemcpyAsync(u->dev + off, c.dst, len, cudaMemcpyHostToDevice, u->stream);
            if (e == cudaSuccess) {
                u->what = "cudaEventRecord";
                e = cudaEventRecord(u->ev[s], u->stream);
            }
        }
    }
    cudaError_t e2 = cudaStreamSynchronize(u->stream); /* nothing of the ring in flight after this */
    if (e == cudaSuccess && e2 != cudaSuccess) {
        e = e2;
        u->what = "cudaStreamSynchronize";
    }
    if (e != cudaSuccess)
        cudaGetLastError();
    u->e = e;
    u->ms = up_now_ms() - t0;
    return NULL;
}

extern "C" sp_status sp_cuda_upload_create(sp_cuda *ctx, sp_cuda_upload **out, size_t slot_bytes, int slots)
{
    *out = NULL;
    if (slots < 2 || slots > SP_UPLOAD_MAX_SLOTS || slot_bytes == 0)
        return SP_ERR_INVALID_ARG;
    sp_cuda_upload *u = (sp_cuda_upload *)calloc(1, sizeof *u);
    if (!u)
        return SP_ERR_NOMEM;
    u->device = ctx->device;
    u->slot_bytes = slot_bytes;
    u->slots = slots;
    sp_status st = SP_ERR_GPU;
    cudaError_t e = cudaSetDevice(ctx->device);
    if (e == cudaSuccess)
        e = cudaStreamCreateWithFlags(&u->stream, cudaStreamNonBlocking);
    for (; e == cudaSuccess && u->n_ev < slots; u->n_ev++)
        e = cudaEventCreateWithFlags(&u->ev[u->n_ev], cudaEventDisableTiming);
    if (e == cudaSuccess) {
        e = cudaHostAlloc((void **)&u->ring, (size_t)slots * slot_bytes, cudaHostAllocPortable);
        if (e == cudaErrorMemoryAllocation)
            st = SP_ERR_NOMEM;
    }
    if (e != cudaSuccess) {
        sp_cu_record(ctx, "sp_cuda_upload_create", __FILE__, __LINE__, e);
        u->ring = NULL;
        sp_cuda_upload_free(u);
        return st;
    }
    *out = u;
    return SP_OK;
}

extern "C" void sp_cuda_upload_free(sp_cuda_upload *u)
{
    if (!u)
        return;
    double ms;
    char why[SP_ERR_LEN];
    if (u->running && sp_cuda_upload_wait(u, &ms, why, sizeof why) != SP_OK)
        ms = 0; /* its failure has nobody left to tell */
    cudaSetDevice(u->device);
    for (int i = 0; i < u->n_ev; i++)
        cudaEventDestroy(u->ev[i]);
    if (u->stream)
        cudaStreamDestroy(u->stream);
    if (u->ring)
        cudaFreeHost(u->ring);
    free(u);
}

extern "C" sp_status sp_cuda_upload_start(sp_cuda_upload *u, void *dev, const void *src, size_t bytes, int threads)
{
    if (u->running)
        return SP_ERR_INVALID_ARG;
    u->dev = (unsigned char *)dev;
    u->src = (const unsigned char *)src;
    u->bytes = bytes;
    u->threads = threads < 1 ? 1 : threads;
    u->e = cudaSuccess;
    u->ms = 0;
    u->running = 1;
    /* without a thread of its own the upload still happens, only not overlapped */
    u->threaded = pthread_create(&u->th, NULL, up_main, u) == 0;
    if (!u->threaded)
        up_main(u);
    return SP_OK;
}

extern "C" sp_status sp_cuda_upload_wait(sp_cuda_upload *u, double *ms, char *err, size_t err_len)
{
    if (u->running && u->threaded)
        pthread_join(u->th, NULL);
    u->running = u->threaded = 0;
    *ms = u->ms;
    if (u->e == cudaSuccess)
        return SP_OK;
    snprintf(err, err_len, "staged upload of %zu bytes: %s: %s", u->bytes, u->what, cudaGetErrorString(u->e));
    return SP_ERR_GPU;
}

} // namespace SP_CURVE_NS
