/* The helpers both files of the CUDA backend use (backend_common.h). */
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include "backend_common.h"

double sp_cb_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

void sp_cb_stage(sp_backend *be, const char *name, double t0)
{
    if (be->stage_hook)
        be->stage_hook(be->stage_ctx, name, sp_cb_now_ms() - t0);
}

sp_status sp_cb_fail(const sp_cb_impl *c, sp_status st, const char *what, char err[SP_ERR_LEN])
{
    if (st == SP_ERR_GPU)
        snprintf(err, SP_ERR_LEN, "%s: %s: %s", c->name, what, sp_cuda_error(c->cu));
    else
        snprintf(err, SP_ERR_LEN, "%s: %s: %s", c->name, what, sp_status_str(st));
    return st;
}

int sp_cb_host_threads(const sp_backend *be)
{
    long n = be->threads > 0 ? be->threads : sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

/* The residency table (callers hold mu). */
const void *sp_cb_resident_view(const sp_cb_impl *c, const void *host, size_t bytes, int *host_released)
{
    const char *p = host;
    if (host_released)
        *host_released = 0;
    for (size_t i = 0; i < c->n_res; i++) {
        const char *h = c->res[i].host;
        if (p >= h && bytes <= c->res[i].bytes && (size_t)(p - h) <= c->res[i].bytes - bytes) {
            if (host_released)
                *host_released = c->res[i].host_released;
            return (const char *)c->res[i].dev + (p - h);
        }
    }
    return NULL;
}

sp_status sp_cb_no_fallback(const sp_cb_impl *c, const char *what, size_t n, char err[SP_ERR_LEN])
{
    snprintf(err, SP_ERR_LEN, "%s: %s MSM of %zu points: no device memory for its scratch, and the host copy of its "
             "bases was released (no CPU fallback)", c->name, what, n);
    return SP_ERR_NOMEM;
}
