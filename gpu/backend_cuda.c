/*
 * The CUDA backend of the prover (groth16/backend.h) on top of the CUDA
 * core (sp_cuda.h, sp_cuda_backend.h). Plain C; built into
 * libsnarkpipe_cuda.a and used when backend.c is compiled with
 * SP_WITH_CUDA (the CLI of a CUDA=1 build).
 *
 * H step: a, b, c are copied to one device buffer (kept and grown between
 * proofs), transformed there, and the canonical H scalars copied back.
 * MSMs: sp_cuda_msm_g1/_g2, or with split != 0 (witness scalars) the
 * split MSM sp_cuda_msm_g1_split/_g2_split (zeros skipped, ones added by a
 * tree, Pippenger on the rest); both give the same result.
 * Residency: key_attach copies the key's base arrays (h, a, b1, c, b2) to
 * device memory once, as far as free memory allows, and records host
 * address -> device address; an MSM whose bases lie inside a recorded
 * host array runs on the resident copy, any other is copied per call.
 * Threads: one mutex covers the residency table and all device work, so
 * the backend is safe to share; host_alloc and host_free take no lock.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "groth16/backend.h"
#include "sp_cuda.h"
#include "sp_cuda_backend.h"

#define SP_CUDA_DOMAINS 4 /* NTT domains kept (distinct key sizes in use) */

typedef struct {
    const void *host;   /* the key's array */
    void *dev;          /* its resident copy */
    size_t bytes;
    const sp_g16_pk *pk;
    int refs;           /* attachments of pk */
} resident;

typedef struct {
    sp_cuda_ntt_domain *d;
    unsigned log_n;
    int roots;
} dev_domain;

typedef struct {
    sp_cuda *cu;
    int device;
    char name[16];
    pthread_mutex_t mu;
    resident *res;
    size_t n_res, cap_res, resident_bytes;
    sp_fr *abc;         /* a, b, c on the device */
    size_t abc_cap;     /* its size in elements */
    dev_domain dom[SP_CUDA_DOMAINS];
    int n_dom;
} cuda_impl;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static void stage(sp_backend *be, const char *name, double t0)
{
    if (be->stage_hook)
        be->stage_hook(be->stage_ctx, name, now_ms() - t0);
}

/* Turns a failed sp_cuda call into the backend's message; returns st. */
static sp_status fail(const cuda_impl *c, sp_status st, const char *what, char err[SP_ERR_LEN])
{
    if (st == SP_ERR_GPU)
        snprintf(err, SP_ERR_LEN, "%s: %s: %s", c->name, what, sp_cuda_error(c->cu));
    else
        snprintf(err, SP_ERR_LEN, "%s: %s: %s", c->name, what, sp_status_str(st));
    return st;
}

/* ---- residency table (callers hold mu) ---- */

/* The device copy of [host, host + bytes) when it lies inside a resident
 * array, else NULL. */
static const void *resident_view(const cuda_impl *c, const void *host, size_t bytes)
{
    const char *p = host;
    for (size_t i = 0; i < c->n_res; i++) {
        const char *h = c->res[i].host;
        if (p >= h && bytes <= c->res[i].bytes && (size_t)(p - h) <= c->res[i].bytes - bytes)
            return (const char *)c->res[i].dev + (p - h);
    }
    return NULL;
}

static resident *resident_find(cuda_impl *c, const void *host)
{
    for (size_t i = 0; i < c->n_res; i++)
        if (c->res[i].host == host)
            return &c->res[i];
    return NULL;
}

/* ---- the H step ---- */

static sp_status get_domain(cuda_impl *c, sp_cuda_ntt_domain **out, const sp_ntt_domain *d)
{
    for (int i = 0; i < c->n_dom; i++)
        if (c->dom[i].log_n == d->log_n && c->dom[i].roots == (int)d->roots) {
            *out = c->dom[i].d;
            return SP_OK;
        }
    if (c->n_dom == SP_CUDA_DOMAINS) { /* full: drop the oldest */
        sp_cuda_ntt_domain_free(c->cu, c->dom[0].d);
        memmove(c->dom, c->dom + 1, sizeof c->dom[0] * (SP_CUDA_DOMAINS - 1));
        c->n_dom--;
    }
    sp_status st = sp_cuda_ntt_domain_create(c->cu, out, d->log_n, (int)d->roots);
    if (st == SP_OK)
        c->dom[c->n_dom++] = (dev_domain){*out, d->log_n, (int)d->roots};
    return st;
}

/* Makes room for 3n elements of a, b, c on the device. */
static sp_status abc_buffer(cuda_impl *c, size_t n)
{
    if (c->abc_cap >= 3 * n)
        return SP_OK;
    sp_cuda_dev_free(c->cu, c->abc);
    c->abc = NULL;
    c->abc_cap = 0;
    sp_status st = sp_cuda_try_malloc(c->cu, (void **)&c->abc, 3 * n * sizeof(sp_fr));
    if (st == SP_OK)
        c->abc_cap = 3 * n;
    return st;
}

static sp_status h_on_device(sp_backend *be, cuda_impl *c, sp_scalar *h, const sp_fr *a, const sp_fr *b,
                             const sp_fr *cc, const sp_g16_pk *pk, const sp_ntt_domain *d, char err[SP_ERR_LEN])
{
    size_t n = d->n, bytes = n * sizeof(sp_fr);
    sp_cuda_ntt_domain *gd;
    sp_status st;
    if ((st = get_domain(c, &gd, d)) != SP_OK)
        return fail(c, st, "NTT domain", err);
    sp_fr *da = c->abc, *db = da + n, *dc = db + n;
    double t0 = now_ms();
    if ((st = sp_cuda_copy(c->cu, da, a, bytes)) != SP_OK || (st = sp_cuda_copy(c->cu, db, b, bytes)) != SP_OK ||
        (st = sp_cuda_copy(c->cu, dc, cc, bytes)) != SP_OK)
        return fail(c, st, "copy of a, b, c to the device", err);
    stage(be, "copy_abc", t0);
    t0 = now_ms();
    int bellperson = pk->h_kind != SP_G16_H_SNARKJS;
    if ((st = sp_cuda_h_step(c->cu, (sp_scalar *)da, da, db, dc, gd, d, bellperson)) != SP_OK)
        return fail(c, st, "H step", err);
    stage(be, "h_ntt", t0);
    t0 = now_ms();
    if ((st = sp_cuda_copy(c->cu, h, da, pk->n_h * sizeof(sp_scalar))) != SP_OK)
        return fail(c, st, "copy of the H scalars to the host", err);
    stage(be, "copy_h", t0);
    return SP_OK;
}

static sp_status cuda_h_scalars(sp_backend *be, sp_scalar *h, sp_fr *a, sp_fr *b, sp_fr *cc, const sp_g16_pk *pk,
                                const sp_ntt_domain *d, char err[SP_ERR_LEN])
{
    cuda_impl *c = be->impl;
    if (pk->n_h > d->n || d->log_n > SP_NTT_MAX_LOG) {
        snprintf(err, SP_ERR_LEN, "%s: H step: %zu H scalars for a domain of %zu", c->name, pk->n_h, d->n);
        return SP_ERR_INVALID_ARG;
    }
    pthread_mutex_lock(&c->mu);
    sp_status st = sp_cuda_bind(c->cu);
    if (st != SP_OK) {
        fail(c, st, "select device", err);
    } else if ((st = abc_buffer(c, d->n)) == SP_ERR_NOMEM) {
        /* device memory is short (resident keys, other processes): the CPU does this step */
        fprintf(stderr, "snarkpipe %s: no device memory for a, b, c (%.1f MiB): H step on the CPU\n", c->name,
                3.0 * d->n * sizeof(sp_fr) / 1048576.0);
        st = sp_cpu_h_scalars(be, h, a, b, cc, pk, d, err);
    } else if (st != SP_OK) {
        fail(c, st, "device buffer for a, b, c", err);
    } else {
        st = h_on_device(be, c, h, a, b, cc, pk, d, err);
    }
    pthread_mutex_unlock(&c->mu);
    return st;
}

/* ---- MSMs ---- */

static sp_status cuda_msm_g1(sp_backend *be, sp_g1_jac *out, const sp_g1_affine *bases, const sp_scalar *s,
                             size_t n, int split, char err[SP_ERR_LEN])
{
    cuda_impl *c = be->impl;
    pthread_mutex_lock(&c->mu);
    const sp_g1_affine *db = resident_view(c, bases, n * sizeof *bases);
    sp_status st = sp_cuda_bind(c->cu);
    if (st == SP_OK)
        st = split ? sp_cuda_msm_g1_split(c->cu, out, db ? db : bases, s, n, 0)
                   : sp_cuda_msm_g1(c->cu, out, db ? db : bases, s, n, 0);
    if (st != SP_OK)
        fail(c, st, "G1 MSM", err);
    pthread_mutex_unlock(&c->mu);
    return st;
}

static sp_status cuda_msm_g2(sp_backend *be, sp_g2_jac *out, const sp_g2_affine *bases, const sp_scalar *s,
                             size_t n, int split, char err[SP_ERR_LEN])
{
    cuda_impl *c = be->impl;
    pthread_mutex_lock(&c->mu);
    const sp_g2_affine *db = resident_view(c, bases, n * sizeof *bases);
    sp_status st = sp_cuda_bind(c->cu);
    if (st == SP_OK)
        st = split ? sp_cuda_msm_g2_split(c->cu, out, db ? db : bases, s, n, 0)
                   : sp_cuda_msm_g2(c->cu, out, db ? db : bases, s, n, 0);
    if (st != SP_OK)
        fail(c, st, "G2 MSM", err);
    pthread_mutex_unlock(&c->mu);
    return st;
}

/* ---- key residency ---- */

/* Device memory to leave free for one proof's scratch: a, b, c of the
 * domain, the MSM's sort buffers (4 x 4 bytes per point and window) and
 * its bucket and base scratch, the split MSM's index lists and gathered
 * bases and scalars (8 + 32 bytes and a base per point), plus 1 GiB for
 * everything else. */
static size_t scratch_reserve(const sp_g16_pk *pk)
{
    size_t n = pk->n_vars > pk->n_h ? pk->n_vars : pk->n_h;
    size_t c = sp_cuda_msm_window(n, 1), nwin = (256 + c - 1) / c;
    return ((size_t)1 << 30) + 3 * (size_t)pk->domain_size * sizeof(sp_fr) + 16 * nwin * n +
           ((size_t)nwin << c) * sizeof(sp_g2_xyzz) + n * (2 * sizeof(sp_g2_affine) + 40);
}

/* Uploads one array unless already resident; a shortage of device memory
 * leaves it in host memory with a logged reason (returns SP_OK then). */
static sp_status attach_array(cuda_impl *c, const sp_g16_pk *pk, const char *what, const void *host, size_t bytes,
                              size_t reserve, char err[SP_ERR_LEN])
{
    resident *r = resident_find(c, host);
    if (r || !host || !bytes) {
        if (r && r->pk == pk)
            r->refs++;
        return SP_OK;
    }
    size_t free_b = 0, total = 0;
    sp_status st = sp_cuda_mem_info(c->cu, &free_b, &total);
    if (st != SP_OK)
        return fail(c, st, "device memory query", err);
    void *dev = NULL;
    if (bytes + reserve > free_b || (st = sp_cuda_try_malloc(c->cu, &dev, bytes)) == SP_ERR_NOMEM) {
        fprintf(stderr, "snarkpipe %s: key array %s (%.1f MiB) not resident: %.1f MiB of device memory free, "
                "%.1f MiB kept for proving; it stays in host memory and is copied for every MSM\n", c->name, what,
                bytes / 1048576.0, free_b / 1048576.0, reserve / 1048576.0);
        return SP_OK;
    }
    if (st != SP_OK)
        return fail(c, st, "device memory for a key", err);
    if (c->n_res == c->cap_res) {
        size_t cap = c->cap_res ? 2 * c->cap_res : 8;
        resident *nr = realloc(c->res, cap * sizeof *nr);
        if (!nr) {
            sp_cuda_dev_free(c->cu, dev);
            snprintf(err, SP_ERR_LEN, "%s: out of host memory for the residency table", c->name);
            return SP_ERR_NOMEM;
        }
        c->res = nr;
        c->cap_res = cap;
    }
    if ((st = sp_cuda_copy(c->cu, dev, host, bytes)) != SP_OK) {
        fail(c, st, "copy of a key to the device", err);
        sp_cuda_dev_free(c->cu, dev);
        return st;
    }
    c->res[c->n_res++] = (resident){host, dev, bytes, pk, 1};
    c->resident_bytes += bytes;
    return SP_OK;
}

static void detach_locked(cuda_impl *c, const sp_g16_pk *pk)
{
    size_t k = 0;
    for (size_t i = 0; i < c->n_res; i++) {
        resident *r = &c->res[i];
        if (r->pk == pk && --r->refs == 0) {
            sp_cuda_dev_free(c->cu, r->dev);
            c->resident_bytes -= r->bytes;
        } else {
            c->res[k++] = *r;
        }
    }
    c->n_res = k;
}

static sp_status cuda_key_attach(sp_backend *be, const sp_g16_pk *pk, char err[SP_ERR_LEN])
{
    cuda_impl *c = be->impl;
    size_t nv = pk->n_vars, nc = nv - pk->vk.n_public - 1, reserve = scratch_reserve(pk);
    /* H and A first: the largest G1 MSMs gain the most from residency */
    const struct {
        const char *what;
        const void *p;
        size_t bytes;
    } arr[] = {{"h", pk->h, pk->n_h * sizeof(sp_g1_affine)}, {"a", pk->a, nv * sizeof(sp_g1_affine)},
               {"b1", pk->b1, nv * sizeof(sp_g1_affine)},    {"c", pk->c, nc * sizeof(sp_g1_affine)},
               {"b2", pk->b2, nv * sizeof(sp_g2_affine)}};
    pthread_mutex_lock(&c->mu);
    sp_status st = sp_cuda_bind(c->cu);
    if (st != SP_OK)
        fail(c, st, "select device", err);
    for (size_t i = 0; st == SP_OK && i < sizeof arr / sizeof arr[0]; i++)
        st = attach_array(c, pk, arr[i].what, arr[i].p, arr[i].bytes, reserve, err);
    if (st != SP_OK)
        detach_locked(c, pk);
    pthread_mutex_unlock(&c->mu);
    return st;
}

static void cuda_key_detach(sp_backend *be, const sp_g16_pk *pk)
{
    cuda_impl *c = be->impl;
    pthread_mutex_lock(&c->mu);
    if (sp_cuda_bind(c->cu) == SP_OK)
        detach_locked(c, pk);
    pthread_mutex_unlock(&c->mu);
}

static void cuda_memory(sp_backend *be, size_t *resident_bytes, size_t *free_bytes)
{
    cuda_impl *c = be->impl;
    size_t total = 0;
    pthread_mutex_lock(&c->mu);
    *resident_bytes = c->resident_bytes;
    *free_bytes = 0;
    if (sp_cuda_bind(c->cu) != SP_OK || sp_cuda_mem_info(c->cu, free_bytes, &total) != SP_OK)
        *free_bytes = 0;
    pthread_mutex_unlock(&c->mu);
}

/* ---- host memory, lifetime ---- */

static void *cuda_host_alloc(sp_backend *be, size_t bytes)
{
    const cuda_impl *c = be->impl;
    return sp_cuda_pinned_alloc(c->device, bytes, NULL);
}

static void cuda_host_free(sp_backend *be, void *p, size_t bytes) { sp_cuda_pinned_free(p); }

static void cuda_destroy(sp_backend *be)
{
    cuda_impl *c = be->impl;
    if (sp_cuda_bind(c->cu) == SP_OK) {
        for (size_t i = 0; i < c->n_res; i++)
            sp_cuda_dev_free(c->cu, c->res[i].dev);
        for (int i = 0; i < c->n_dom; i++)
            sp_cuda_ntt_domain_free(c->cu, c->dom[i].d);
        sp_cuda_dev_free(c->cu, c->abc);
    }
    sp_cuda_free(c->cu);
    pthread_mutex_destroy(&c->mu);
    free(c->res);
    free(c);
    free(be);
}

sp_status sp_backend_cuda_open(sp_backend **be, int device, int threads, char err[SP_ERR_LEN])
{
    *be = NULL;
    sp_backend *b = calloc(1, sizeof *b);
    cuda_impl *c = calloc(1, sizeof *c);
    if (!b || !c) {
        free(b);
        free(c);
        snprintf(err, SP_ERR_LEN, "out of memory for the CUDA backend");
        return SP_ERR_NOMEM;
    }
    char why[SP_ERR_LEN - 16] = ""; /* room for the "cuda:N: " prefix */
    sp_status st = sp_cuda_create(&c->cu, device, why, sizeof why);
    if (st != SP_OK) {
        snprintf(err, SP_ERR_LEN, "cuda:%d: %s", device, why);
        free(b);
        free(c);
        return st;
    }
    pthread_mutex_init(&c->mu, NULL);
    c->device = device;
    snprintf(c->name, sizeof c->name, "cuda:%d", device);
    b->name = c->name;
    b->impl = c;
    b->threads = threads;
    b->h_scalars = cuda_h_scalars;
    b->msm_g1 = cuda_msm_g1;
    b->msm_g2 = cuda_msm_g2;
    b->key_attach = cuda_key_attach;
    b->key_detach = cuda_key_detach;
    b->memory = cuda_memory;
    b->destroy = cuda_destroy;
    b->host_alloc = cuda_host_alloc;
    b->host_free = cuda_host_free;
    *be = b;
    return SP_OK;
}
