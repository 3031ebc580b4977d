/*
 * The CUDA backend of the prover (groth16/backend.h) on top of the CUDA
 * core (sp_cuda.h, sp_cuda_backend.h). Plain C; built into
 * libsnarkpipe_cuda.a. A program that links this object (the CLI of a
 * CUDA=1 build) can open it by name: it registers its provider at start
 * (the end of this file), so the library never names it.
 *
 * H step: a, b, c are copied to one device buffer (kept and grown between
 * proofs) and transformed there; h_msm then runs the H MSM on the scalars
 * where they are (h_scalars, the separate call, copies them back).
 * MSMs: sp_cuda_msm_g1_stream/_g2_stream with the chunk chosen from free
 * device memory: in one piece (the plain sp_cuda_msm_g1/_g2, or with
 * split != 0 the split MSM: zeros skipped, ones added by a tree,
 * Pippenger on the rest) when its scratch fits, else in chunks. When not
 * even a small chunk fits, the CPU does the MSM (logged once).
 * Residency: key_attach copies the key's base arrays (h, a, b1, c, b2) to
 * device memory once, as far as free memory allows after what proving
 * needs (proving_reserve), and records host address -> device address; an
 * MSM whose bases lie inside a recorded host array runs on the resident
 * copy. An array that does not fit stays in host memory, pinned in place
 * (sp_cuda_host_register: no copy), and its MSMs stream it to the device
 * chunk by chunk, copies overlapping compute (logged once per key). Any
 * other bases are streamed from wherever they are.
 * Memory cap: SP_CUDA_MEM_LIMIT (sp_cuda_backend.h) makes the device act
 * as a smaller one, so streaming can be exercised on a large GPU.
 * Threads: one mutex covers the residency table and all device work, so
 * the backend is safe to share; host_alloc and host_free take no lock.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "backend_cuda.h"
#include "groth16/backend.h"
#include "groth16/prove.h"
#include "util/bytes.h"
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
    const void *host;   /* the key's array, left in host memory */
    size_t bytes;
    const sp_g16_pk *pk;
    int refs;           /* attachments of pk */
    int pinned;         /* registered (sp_cuda_host_register) */
} streamed;

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
    streamed *str;      /* key arrays streamed from host memory */
    size_t n_str, cap_str, streamed_bytes;
    int cpu_msm_logged, cpu_h_logged; /* fallbacks to the CPU reported */
    sp_fr *abc;         /* a, b, c on the device */
    size_t abc_cap;     /* its size in elements */
    dev_domain dom[SP_CUDA_DOMAINS];
    int n_dom;
    /* the witness scalars of the proof in progress (scalars_begin): the
     * host array and its device copy, kept (and grown) between proofs */
    const sp_scalar *wit_host;
    size_t wit_n;
    void *wit_dev;
    size_t wit_cap;
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

static streamed *streamed_find(cuda_impl *c, const void *host)
{
    for (size_t i = 0; i < c->n_str; i++)
        if (c->str[i].host == host)
            return &c->str[i];
    return NULL;
}

/* Room for one more element in *tab (n used of *cap); 0 when out of memory. */
static int table_room(void **tab, size_t *cap, size_t n, size_t elem)
{
    if (n < *cap)
        return 1;
    size_t nc = *cap ? 2 * *cap : 8;
    void *t = realloc(*tab, nc * elem);
    if (!t)
        return 0;
    *tab = t;
    *cap = nc;
    return 1;
}

/* ---- the H step ---- */

static sp_status get_domain(cuda_impl *c, sp_cuda_ntt_domain **out, unsigned log_n, int roots)
{
    for (int i = 0; i < c->n_dom; i++)
        if (c->dom[i].log_n == log_n && c->dom[i].roots == roots) {
            *out = c->dom[i].d;
            return SP_OK;
        }
    if (c->n_dom == SP_CUDA_DOMAINS) { /* full: drop the oldest */
        sp_cuda_ntt_domain_free(c->cu, c->dom[0].d);
        memmove(c->dom, c->dom + 1, sizeof c->dom[0] * (SP_CUDA_DOMAINS - 1));
        c->n_dom--;
    }
    sp_status st = sp_cuda_ntt_domain_create(c->cu, out, log_n, roots);
    if (st == SP_OK)
        c->dom[c->n_dom++] = (dev_domain){*out, log_n, roots};
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

/* The H step on the device; the scalars are copied to h, or left at the
 * start of c->abc when h is NULL. */
static sp_status h_on_device(sp_backend *be, cuda_impl *c, sp_scalar *h, const sp_fr *a, const sp_fr *b,
                             const sp_fr *cc, const sp_g16_pk *pk, const sp_ntt_domain *d, char err[SP_ERR_LEN])
{
    size_t n = d->n, bytes = n * sizeof(sp_fr);
    sp_cuda_ntt_domain *gd;
    sp_status st;
    if ((st = get_domain(c, &gd, d->log_n, (int)d->roots)) != SP_OK)
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
    if (!h)
        return SP_OK; /* cuda_h_msm: the scalars stay in c->abc */
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
        /* device memory is short (resident keys, other processes, the cap): the CPU does this step */
        if (!c->cpu_h_logged++)
            fprintf(stderr, "snarkpipe %s: no device memory for a, b, c (%.1f MiB): H step on the CPU (%s)\n",
                    c->name, 3.0 * d->n * sizeof(sp_fr) / 1048576.0, sp_cuda_error(c->cu));
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

/* Once per backend: why an MSM ran on the CPU. */
static void log_cpu_msm(cuda_impl *c, const char *group, size_t n)
{
    if (!c->cpu_msm_logged++)
        fprintf(stderr, "snarkpipe %s: %s MSM of %zu points on the CPU: %s (logged once)\n", c->name, group, n,
                sp_cuda_error(c->cu));
}

/* The device copy of s[0..n) when it lies inside the announced witness, else NULL. */
static const sp_scalar *witness_view(const cuda_impl *c, const sp_scalar *s, size_t n)
{
    if (!c->wit_host || s < c->wit_host || s > c->wit_host + c->wit_n || n > (size_t)(c->wit_host + c->wit_n - s))
        return NULL;
    return (const sp_scalar *)c->wit_dev + (s - c->wit_host);
}

static sp_status cuda_scalars_begin(sp_backend *be, const sp_scalar *s, size_t n, char err[SP_ERR_LEN])
{
    cuda_impl *c = be->impl;
    pthread_mutex_lock(&c->mu);
    sp_status st = sp_cuda_bind(c->cu);
    c->wit_host = NULL;
    if (st == SP_OK && c->wit_cap < n) {
        sp_cuda_dev_free(c->cu, c->wit_dev);
        c->wit_dev = NULL, c->wit_cap = 0;
        if ((st = sp_cuda_try_malloc(c->cu, &c->wit_dev, n * sizeof *s)) == SP_OK)
            c->wit_cap = n;
        else if (st == SP_ERR_NOMEM) /* no room: every MSM copies its scalars, as without this call */
            st = SP_OK;
    }
    if (st == SP_OK && c->wit_cap >= n && (st = sp_cuda_copy(c->cu, c->wit_dev, s, n * sizeof *s)) == SP_OK)
        c->wit_host = s, c->wit_n = n;
    if (st != SP_OK)
        fail(c, st, "copy of the witness scalars", err);
    pthread_mutex_unlock(&c->mu);
    return st;
}

static void cuda_scalars_end(sp_backend *be, const sp_scalar *s)
{
    cuda_impl *c = be->impl;
    pthread_mutex_lock(&c->mu);
    if (c->wit_host == s)
        c->wit_host = NULL;
    pthread_mutex_unlock(&c->mu);
}

/* Resident bases are read in place, any others streamed from host memory;
 * scalars inside the announced witness from its device copy; in chunks
 * only when the scratch does not fit (sp_cuda_msm_g1_stream). */
static sp_status cuda_msm_g1(sp_backend *be, sp_g1_jac *out, const sp_g1_affine *bases, const sp_scalar *s,
                             size_t n, int split, char err[SP_ERR_LEN])
{
    cuda_impl *c = be->impl;
    pthread_mutex_lock(&c->mu);
    const sp_g1_affine *db = resident_view(c, bases, n * sizeof *bases);
    const sp_scalar *ds = witness_view(c, s, n);
    sp_status st = sp_cuda_bind(c->cu);
    if (st == SP_OK)
        st = sp_cuda_msm_g1_stream(c->cu, out, db ? db : bases, ds ? ds : s, n, 0, split, 0);
    if (st == SP_ERR_NOMEM) {
        log_cpu_msm(c, "G1", n);
        st = sp_cpu_msm_g1(be, out, bases, s, n, split, err);
    } else if (st != SP_OK) {
        fail(c, st, "G1 MSM", err);
    }
    pthread_mutex_unlock(&c->mu);
    return st;
}

static sp_status cuda_msm_g2(sp_backend *be, sp_g2_jac *out, const sp_g2_affine *bases, const sp_scalar *s,
                             size_t n, int split, char err[SP_ERR_LEN])
{
    cuda_impl *c = be->impl;
    pthread_mutex_lock(&c->mu);
    const sp_g2_affine *db = resident_view(c, bases, n * sizeof *bases);
    const sp_scalar *ds = witness_view(c, s, n);
    sp_status st = sp_cuda_bind(c->cu);
    if (st == SP_OK)
        st = sp_cuda_msm_g2_stream(c->cu, out, db ? db : bases, ds ? ds : s, n, 0, split, 0);
    if (st == SP_ERR_NOMEM) {
        log_cpu_msm(c, "G2", n);
        st = sp_cpu_msm_g2(be, out, bases, s, n, split, err);
    } else if (st != SP_OK) {
        fail(c, st, "G2 MSM", err);
    }
    pthread_mutex_unlock(&c->mu);
    return st;
}

/* ---- H step and H MSM in one call ---- */

/* The H scalars (device, c->abc) to the host and the H MSM on the CPU:
 * device memory ran short for the MSM. Called with c->mu held. */
static sp_status h_msm_on_cpu(sp_backend *be, cuda_impl *c, sp_g1_jac *out, const sp_g16_pk *pk,
                              char err[SP_ERR_LEN])
{
    sp_scalar *hs = malloc(pk->n_h * sizeof *hs);
    if (!hs) {
        snprintf(err, SP_ERR_LEN, "%s: out of memory for %zu H scalars", c->name, pk->n_h);
        return SP_ERR_NOMEM;
    }
    log_cpu_msm(c, "G1", pk->n_h);
    sp_status st = sp_cuda_copy(c->cu, hs, c->abc, pk->n_h * sizeof *hs);
    if (st != SP_OK)
        fail(c, st, "copy of the H scalars to the host", err);
    else
        st = sp_cpu_msm_g1(be, out, pk->h, hs, pk->n_h, 0, err);
    free(hs);
    return st;
}

/* be->h_msm: the H scalars are made in c->abc and the H MSM reads them
 * there (the separate calls cost a 32-byte-per-scalar round trip over
 * PCIe: ~210 ms of a 1.0 s proof at 2^23). Without device room for a, b, c
 * it falls back to those two calls, which have their own fallbacks. */
static sp_status cuda_h_msm(sp_backend *be, sp_g1_jac *out, sp_fr *a, sp_fr *b, sp_fr *cc, const sp_g16_pk *pk,
                            const sp_ntt_domain *d, char err[SP_ERR_LEN])
{
    cuda_impl *c = be->impl;
    if (pk->n_h > d->n || d->log_n > SP_NTT_MAX_LOG) {
        snprintf(err, SP_ERR_LEN, "%s: H step: %zu H scalars for a domain of %zu", c->name, pk->n_h, d->n);
        return SP_ERR_INVALID_ARG;
    }
    pthread_mutex_lock(&c->mu);
    sp_status st = sp_cuda_bind(c->cu);
    if (st == SP_OK && (st = abc_buffer(c, d->n)) == SP_ERR_NOMEM) {
        pthread_mutex_unlock(&c->mu);
        sp_scalar *hs = malloc(pk->n_h * sizeof *hs);
        if (!hs) {
            snprintf(err, SP_ERR_LEN, "%s: out of memory for %zu H scalars", c->name, pk->n_h);
            return SP_ERR_NOMEM;
        }
        if ((st = cuda_h_scalars(be, hs, a, b, cc, pk, d, err)) == SP_OK)
            st = cuda_msm_g1(be, out, pk->h, hs, pk->n_h, 0, err);
        free(hs);
        return st;
    }
    if (st != SP_OK) {
        fail(c, st, "select device / buffer for a, b, c", err);
    } else if ((st = h_on_device(be, c, NULL, a, b, cc, pk, d, err)) == SP_OK) {
        const sp_g1_affine *db = resident_view(c, pk->h, pk->n_h * sizeof *pk->h);
        double t0 = now_ms();
        st = sp_cuda_msm_g1_stream(c->cu, out, db ? db : pk->h, (const sp_scalar *)c->abc, pk->n_h, 0, 0, 0);
        if (st == SP_ERR_NOMEM)
            st = h_msm_on_cpu(be, c, out, pk, err);
        else if (st != SP_OK)
            fail(c, st, "H MSM", err);
        else
            stage(be, "msm_h", t0);
    }
    pthread_mutex_unlock(&c->mu);
    return st;
}

/* ---- fixed-base multiplication (the setup's points) ---- */

static int host_threads(const sp_backend *be)
{
    long n = be->threads > 0 ? be->threads : sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

static sp_status cuda_fixed_base_g1(sp_backend *be, sp_g1_affine *out, const sp_g1_affine *base, const sp_fr *k,
                                    size_t n, char err[SP_ERR_LEN])
{
    cuda_impl *c = be->impl;
    pthread_mutex_lock(&c->mu);
    sp_status st = sp_cuda_bind(c->cu);
    if (st == SP_OK)
        st = sp_cuda_fixed_base_g1(c->cu, out, base, k, n, host_threads(be));
    if (st != SP_OK)
        fail(c, st, "G1 fixed-base multiplication", err);
    pthread_mutex_unlock(&c->mu);
    return st;
}

static sp_status cuda_fixed_base_g2(sp_backend *be, sp_g2_affine *out, const sp_g2_affine *base, const sp_fr *k,
                                    size_t n, char err[SP_ERR_LEN])
{
    cuda_impl *c = be->impl;
    pthread_mutex_lock(&c->mu);
    sp_status st = sp_cuda_bind(c->cu);
    if (st == SP_OK)
        st = sp_cuda_fixed_base_g2(c->cu, out, base, k, n, host_threads(be));
    if (st != SP_OK)
        fail(c, st, "G2 fixed-base multiplication", err);
    pthread_mutex_unlock(&c->mu);
    return st;
}

/* ---- key residency ---- */

/* The MSM size the reserve below is made for: a larger MSM over resident
 * bases runs in chunks of what is free then. Keys beyond 2^24 points then
 * stay resident (an H200 holds a 2^27 key, about 77 GB) instead of giving
 * way to one-piece MSM scratch (about 1 KB per point), and 2^24-point
 * chunks are near the MSM's best rate. */
#define SP_RESERVE_CHUNK ((size_t)1 << 24)

/* Device memory to leave free for proving with pk: a, b, c, the NTT
 * twiddles of its domain and the fused NTT's scratch vector (5 vectors of
 * the domain), the scratch of the largest MSM (split, scalars from the
 * host) for up to SP_RESERVE_CHUNK points, and for the CUDA runtime and
 * the model's error 1/8 of what is free, at most 1 GiB. */
static size_t proving_reserve(const cuda_impl *c, const sp_g16_pk *pk, size_t free_b)
{
    size_t n = pk->n_vars > pk->n_h ? pk->n_vars : pk->n_h, n2 = pk->n_vars;
    n = n < SP_RESERVE_CHUNK ? n : SP_RESERVE_CHUNK;
    n2 = n2 < SP_RESERVE_CHUNK ? n2 : SP_RESERVE_CHUNK;
    unsigned fl = SP_CUDA_MSM_SPLIT | SP_CUDA_MSM_HOST_SCALARS;
    size_t g1 = sp_cuda_msm_stream_bytes(c->cu, 1, n, 0, fl), g2 = sp_cuda_msm_stream_bytes(c->cu, 2, n2, 0, fl);
    size_t slack = free_b / 8 < ((size_t)1 << 30) ? free_b / 8 : (size_t)1 << 30;
    return 5 * (size_t)pk->domain_size * sizeof(sp_fr) + (g1 > g2 ? g1 : g2) + slack;
}

typedef struct {
    const char *what; /* "h", "a", ... */
    const void *p;
    size_t bytes;
} key_array;

/* Leaves a key array in host memory, pinned in place when the driver
 * allows, and records it; its name goes into names (the attach log). */
static sp_status stream_array(cuda_impl *c, const sp_g16_pk *pk, const key_array *a, char *names, size_t names_len,
                              char err[SP_ERR_LEN])
{
    if (!table_room((void **)&c->str, &c->cap_str, c->n_str, sizeof *c->str)) {
        snprintf(err, SP_ERR_LEN, "%s: out of host memory for the residency table", c->name);
        return SP_ERR_NOMEM;
    }
    sp_status st = sp_cuda_host_register(c->cu, a->p, a->bytes);
    if (st == SP_ERR_NOMEM)
        return fail(c, st, "pinning a key array", err);
    if (st != SP_OK)
        fprintf(stderr, "snarkpipe %s: key array %s (%.1f MiB) stays pageable: %s; its copies do not overlap "
                "compute\n", c->name, a->what, a->bytes / 1048576.0, sp_cuda_error(c->cu));
    c->str[c->n_str++] = (streamed){a->p, a->bytes, pk, 1, st == SP_OK};
    c->streamed_bytes += a->bytes;
    size_t l = strlen(names);
    snprintf(names + l, names_len - l, "%s%s", l ? ", " : "", a->what);
    return SP_OK;
}

/* Uploads one array unless already attached; when it does not fit next to
 * `reserve`, it is streamed instead (stream_array). */
static sp_status attach_array(cuda_impl *c, const sp_g16_pk *pk, const key_array *a, size_t reserve, char *names,
                              size_t names_len, char err[SP_ERR_LEN])
{
    resident *r = resident_find(c, a->p);
    streamed *sr = streamed_find(c, a->p);
    if (r || sr || !a->p || !a->bytes) {
        if (r && r->pk == pk)
            r->refs++;
        if (sr && sr->pk == pk)
            sr->refs++;
        return SP_OK;
    }
    size_t free_b = 0, total = 0;
    sp_status st = sp_cuda_mem_info(c->cu, &free_b, &total);
    if (st != SP_OK)
        return fail(c, st, "device memory query", err);
    void *dev = NULL;
    if (a->bytes + reserve > free_b || (st = sp_cuda_try_malloc(c->cu, &dev, a->bytes)) == SP_ERR_NOMEM)
        return stream_array(c, pk, a, names, names_len, err);
    if (st != SP_OK)
        return fail(c, st, "device memory for a key", err);
    if (!table_room((void **)&c->res, &c->cap_res, c->n_res, sizeof *c->res)) {
        sp_cuda_dev_free(c->cu, dev);
        snprintf(err, SP_ERR_LEN, "%s: out of host memory for the residency table", c->name);
        return SP_ERR_NOMEM;
    }
    if ((st = sp_cuda_copy(c->cu, dev, a->p, a->bytes)) != SP_OK) {
        fail(c, st, "copy of a key to the device", err);
        sp_cuda_dev_free(c->cu, dev);
        return st;
    }
    c->res[c->n_res++] = (resident){a->p, dev, a->bytes, pk, 1};
    c->resident_bytes += a->bytes;
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
    k = 0;
    for (size_t i = 0; i < c->n_str; i++) {
        streamed *s = &c->str[i];
        if (s->pk == pk && --s->refs == 0) {
            if (s->pinned)
                sp_cuda_host_unregister(s->host);
            c->streamed_bytes -= s->bytes;
        } else {
            c->str[k++] = *s;
        }
    }
    c->n_str = k;
}

/* Bytes of pk's arrays (pk NULL: all) resident and streamed; callers hold mu. */
static void key_bytes(const cuda_impl *c, const sp_g16_pk *pk, size_t *resident_b, size_t *streamed_b)
{
    *resident_b = *streamed_b = 0;
    for (size_t i = 0; i < c->n_res; i++)
        if (!pk || c->res[i].pk == pk)
            *resident_b += c->res[i].bytes;
    for (size_t i = 0; i < c->n_str; i++)
        if (!pk || c->str[i].pk == pk)
            *streamed_b += c->str[i].bytes;
}

/*
 * Warm-up when a key is attached (issue 15 item 0): what the first proof
 * with pk would set up on its way is done now, so that the first proof
 * costs what later ones do: the a, b, c buffer, the NTT domain's twiddles
 * and the NTT's scratch vector, the MSM scratch of the H MSM and of a G2
 * MSM over all variables, and the first load of their kernels (an NTT of
 * zeros and two MSMs with zero scalars: every digit is 0, so they sort and
 * skip; the split MSMs of the witness reuse this scratch). It takes only what the residency plan left free for proving
 * (proving_reserve: a, b, c, twiddles and one MSM's scratch), and a
 * failure leaves the setting up to the first proof (said once on stderr);
 * the attach itself succeeds. Callers hold mu.
 */
static void warm_locked(cuda_impl *c, const sp_g16_pk *pk)
{
    const size_t n = pk->domain_size;
    sp_cuda_ntt_domain *gd;
    sp_g1_jac j1;
    sp_g2_jac j2;
    sp_status st = get_domain(c, &gd, pk->log2_domain, (int)sp_g16_roots_for(pk));
    if (st == SP_OK)
        st = abc_buffer(c, n);
    if (st == SP_OK)
        st = sp_cuda_memset(c->cu, c->abc, 0, 3 * n * sizeof(sp_fr));
    if (st == SP_OK) /* zeros stay zeros: the NTT's scratch and kernels */
        st = sp_cuda_ntt(c->cu, gd, c->abc, 0);
    const sp_scalar *zeros = (const sp_scalar *)c->abc;
    if (st == SP_OK && pk->n_h <= 3 * n) {
        const sp_g1_affine *h = resident_view(c, pk->h, pk->n_h * sizeof *pk->h);
        st = sp_cuda_msm_g1_stream(c->cu, &j1, h ? h : pk->h, zeros, pk->n_h, 0, 0, 0);
    }
    if (st == SP_OK && pk->n_vars <= 3 * n) {
        const sp_g2_affine *b2 = resident_view(c, pk->b2, pk->n_vars * sizeof *pk->b2);
        st = sp_cuda_msm_g2_stream(c->cu, &j2, b2 ? b2 : pk->b2, zeros, pk->n_vars, 0, 0, 0);
    }
    if (st != SP_OK)
        fprintf(stderr, "snarkpipe %s: warm-up for the key of 2^%u not done (%s: %s); the first proof sets up "
                "its buffers\n", c->name, pk->log2_domain, sp_status_str(st), sp_cuda_error(c->cu));
}

static sp_status cuda_key_attach(sp_backend *be, const sp_g16_pk *pk, char err[SP_ERR_LEN])
{
    cuda_impl *c = be->impl;
    size_t nv = pk->n_vars, nc = nv - pk->vk.n_public - 1, free_b = 0, total = 0, reserve = 0;
    /* H and A first: the largest G1 MSMs gain the most from residency */
    const key_array arr[] = {{"h", pk->h, pk->n_h * sizeof(sp_g1_affine)}, {"a", pk->a, nv * sizeof(sp_g1_affine)},
                             {"b1", pk->b1, nv * sizeof(sp_g1_affine)},    {"c", pk->c, nc * sizeof(sp_g1_affine)},
                             {"b2", pk->b2, nv * sizeof(sp_g2_affine)}};
    char names[32] = "";
    pthread_mutex_lock(&c->mu);
    sp_status st = sp_cuda_bind(c->cu);
    if (st != SP_OK)
        fail(c, st, "select device", err);
    else if ((st = sp_cuda_mem_info(c->cu, &free_b, &total)) != SP_OK)
        fail(c, st, "device memory query", err);
    else
        reserve = proving_reserve(c, pk, free_b);
    for (size_t i = 0; st == SP_OK && i < sizeof arr / sizeof arr[0]; i++)
        st = attach_array(c, pk, &arr[i], reserve, names, sizeof names, err);
    if (st != SP_OK) {
        detach_locked(c, pk);
    } else {
        warm_locked(c, pk);
    }
    if (st == SP_OK && names[0]) { /* the reason, once per key */
        size_t rb, sb;
        key_bytes(c, pk, &rb, &sb);
        fprintf(stderr, "snarkpipe %s: key of 2^%u: %.1f MiB resident, %.1f MiB (%s) streamed from host memory on "
                "every proof: %.1f MiB of device memory was free%s, %.1f MiB of it kept for proving\n", c->name,
                pk->log2_domain, rb / 1048576.0, sb / 1048576.0, names, free_b / 1048576.0,
                sp_cuda_mem_limit(c->cu) ? " under SP_CUDA_MEM_LIMIT" : "", reserve / 1048576.0);
    }
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

static void cuda_key_memory(sp_backend *be, const sp_g16_pk *pk, size_t *resident_b, size_t *streamed_b)
{
    cuda_impl *c = be->impl;
    pthread_mutex_lock(&c->mu);
    key_bytes(c, pk, resident_b, streamed_b);
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
        for (size_t i = 0; i < c->n_str; i++)
            if (c->str[i].pinned)
                sp_cuda_host_unregister(c->str[i].host);
        for (int i = 0; i < c->n_dom; i++)
            sp_cuda_ntt_domain_free(c->cu, c->dom[i].d);
        sp_cuda_dev_free(c->cu, c->abc);
        sp_cuda_dev_free(c->cu, c->wit_dev);
    }
    sp_cuda_free(c->cu);
    pthread_mutex_destroy(&c->mu);
    free(c->res);
    free(c->str);
    free(c);
    free(be);
}

void sp_backend_cuda_set_mem_limit(sp_backend *be, size_t bytes)
{
    cuda_impl *c = be->impl;
    pthread_mutex_lock(&c->mu);
    sp_cuda_set_mem_limit(c->cu, bytes);
    pthread_mutex_unlock(&c->mu);
}

/* The declaration's syntax is util/bytes.h's (kept for gpu/check). */
sp_status sp_cuda_parse_bytes(const char *s, size_t *bytes)
{
    return s ? sp_bytes_parse(bytes, s) : SP_ERR_INVALID_ARG;
}

/* SP_CUDA_MEM_LIMIT, when set: the cap of the new backend's context. */
static sp_status limit_from_env(cuda_impl *c, char err[SP_ERR_LEN])
{
    const char *v = getenv("SP_CUDA_MEM_LIMIT");
    size_t bytes = 0;
    if (!v || !*v)
        return SP_OK;
    if (sp_cuda_parse_bytes(v, &bytes) != SP_OK) {
        snprintf(err, SP_ERR_LEN, "%s: SP_CUDA_MEM_LIMIT=%.64s: expected bytes as in 123, 256M, 2GiB, 2^30",
                 c->name, v);
        return SP_ERR_INVALID_ARG;
    }
    sp_cuda_set_mem_limit(c->cu, bytes);
    fprintf(stderr, "snarkpipe %s: device memory capped at %.1f MiB (SP_CUDA_MEM_LIMIT)\n", c->name,
            bytes / 1048576.0);
    return SP_OK;
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
    c->device = device;
    snprintf(c->name, sizeof c->name, "cuda:%d", device);
    if ((st = limit_from_env(c, err)) != SP_OK) {
        sp_cuda_free(c->cu);
        free(b);
        free(c);
        return st;
    }
    pthread_mutex_init(&c->mu, NULL);
    b->name = c->name;
    b->impl = c;
    b->threads = threads;
    b->h_scalars = cuda_h_scalars;
    b->msm_g1 = cuda_msm_g1;
    b->msm_g2 = cuda_msm_g2;
    b->h_msm = cuda_h_msm;
    b->key_attach = cuda_key_attach;
    b->key_detach = cuda_key_detach;
    b->memory = cuda_memory;
    b->key_memory = cuda_key_memory;
    b->destroy = cuda_destroy;
    b->host_alloc = cuda_host_alloc;
    b->host_free = cuda_host_free;
    b->scalars_begin = cuda_scalars_begin;
    b->scalars_end = cuda_scalars_end;
    b->fixed_base_g1 = cuda_fixed_base_g1;
    b->fixed_base_g2 = cuda_fixed_base_g2;
    *be = b;
    return SP_OK;
}

/* "cuda" or "cuda:N" (N in 0..255). */
static sp_status cuda_open_named(sp_backend **be, const char *name, int threads, char err[SP_ERR_LEN])
{
    long dev = 0;
    if (name[4] == ':') {
        char *end;
        dev = strtol(name + 5, &end, 10);
        if (!name[5] || *end || dev < 0 || dev > 255) {
            *be = NULL;
            snprintf(err, SP_ERR_LEN, "unknown backend '%s' (cuda or cuda:N, N a device number)", name);
            return SP_ERR_UNSUPPORTED;
        }
    }
    return sp_backend_cuda_open(be, (int)dev, threads, err);
}

static const sp_backend_provider cuda_provider = {"cuda", "cuda:0", cuda_open_named, sp_cuda_device_count};

/* Linked into a program, the backend makes itself known to sp_backend_open
 * before main runs: the library never names it (groth16/backend.h). */
__attribute__((constructor)) static void cuda_register(void) { sp_backend_register(&cuda_provider); }
