/*
 * The CUDA backend of the prover (groth16/backend.h) on top of the CUDA
 * core (sp_cuda.h, sp_cuda_backend.h). Plain C; built into
 * libsnarkpipe_cuda.a. A program that links this object (the CLI of a
 * CUDA=1 build) can open it by name: it registers its provider at start
 * (the end of this file), so the library never names it.
 *
 * This file: residency of keys, host memory, opening. One proof's device
 * half (be->prove) and the warm-up at key attach: backend_proof.c.
 * Residency: key_attach copies the key's base arrays (h, a, b1, c, b2) to
 * device memory once, as far as free memory allows after what proving
 * needs (proving_reserve), and records host address -> device address; an
 * MSM whose bases lie inside a recorded host array runs on the resident
 * copy. An array that does not fit stays in host memory, pinned in place
 * (sp_cuda_host_register: no copy), and its MSMs stream it to the device
 * chunk by chunk, copies overlapping compute (logged once per key). Then
 * the warm-up runs a proof's device work on stand-in values, so that the
 * first proof costs what later ones do.
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
#include "backend_common.h"
#include "util/bytes.h"

typedef sp_cb_impl cuda_impl;
typedef sp_cb_resident resident;
typedef sp_cb_streamed streamed;

/* ---- residency table (callers hold mu) ---- */

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

/* ---- fixed-base multiplication (the setup's points) ---- */

static sp_status cuda_fixed_base_g1(sp_backend *be, sp_g1_affine *out, const sp_g1_affine *base, const sp_fr *k,
                                    size_t n, char err[SP_ERR_LEN])
{
    cuda_impl *c = be->impl;
    pthread_mutex_lock(&c->mu);
    sp_status st = sp_cuda_bind(c->cu);
    if (st == SP_OK)
        st = sp_cuda_fixed_base_g1(c->cu, out, base, k, n, sp_cb_host_threads(be));
    if (st != SP_OK)
        sp_cb_fail(c, st, "G1 fixed-base multiplication", err);
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
        st = sp_cuda_fixed_base_g2(c->cu, out, base, k, n, sp_cb_host_threads(be));
    if (st != SP_OK)
        sp_cb_fail(c, st, "G2 fixed-base multiplication", err);
    pthread_mutex_unlock(&c->mu);
    return st;
}

/* ---- the setup from a .ptau (sp_cuda_backend.h) ---- */

/* Each call below: ptau_begin (mu taken, the device bound), the device
 * call when that worked, ptau_end (err filled on failure, mu released). */
static sp_status ptau_begin(cuda_impl *c)
{
    pthread_mutex_lock(&c->mu);
    return sp_cuda_bind(c->cu);
}

static sp_status ptau_end(cuda_impl *c, sp_status st, const char *what, char err[SP_ERR_LEN])
{
    if (st != SP_OK)
        sp_cb_fail(c, st, what, err);
    pthread_mutex_unlock(&c->mu);
    return st;
}

static sp_status cuda_ptau_comb_g1(sp_backend *be, sp_g1_affine *out, size_t n, const sp_ptau_sparse *t, int nt,
                                   char err[SP_ERR_LEN])
{
    cuda_impl *c = be->impl;
    sp_status st = ptau_begin(c);
    if (st == SP_OK)
        st = sp_cuda_ptau_comb_g1(c->cu, out, n, t, nt);
    return ptau_end(c, st, "G1 sums of Lagrange points", err);
}

static sp_status cuda_ptau_comb_g2(sp_backend *be, sp_g2_affine *out, size_t n, const sp_ptau_sparse *t, int nt,
                                   char err[SP_ERR_LEN])
{
    cuda_impl *c = be->impl;
    sp_status st = ptau_begin(c);
    if (st == SP_OK)
        st = sp_cuda_ptau_comb_g2(c->cu, out, n, t, nt);
    return ptau_end(c, st, "G2 sums of Lagrange points", err);
}

static sp_status cuda_ptau_intt_g1(sp_backend *be, sp_g1_affine *out, const sp_g1_affine *in, unsigned log_n,
                                   const sp_scalar *tw, const sp_scalar *pre, char err[SP_ERR_LEN])
{
    cuda_impl *c = be->impl;
    sp_status st = ptau_begin(c);
    if (st == SP_OK)
        st = sp_cuda_ptau_intt_g1(c->cu, out, in, log_n, tw, pre);
    return ptau_end(c, st, "G1 inverse DFT over points", err);
}

static sp_status cuda_ptau_intt_g2(sp_backend *be, sp_g2_affine *out, const sp_g2_affine *in, unsigned log_n,
                                   const sp_scalar *tw, const sp_scalar *pre, char err[SP_ERR_LEN])
{
    cuda_impl *c = be->impl;
    sp_status st = ptau_begin(c);
    if (st == SP_OK)
        st = sp_cuda_ptau_intt_g2(c->cu, out, in, log_n, tw, pre);
    return ptau_end(c, st, "G2 inverse DFT over points", err);
}

/* ---- key residency ---- */

/* The MSM size the reserve below is made for: a larger MSM over resident
 * bases runs in chunks of what is free then. Keys beyond 2^24 points then
 * stay resident (an H200 holds a 2^27 key, about 77 GB) instead of giving
 * way to one-piece MSM scratch (about 1 KB per point), and 2^24-point
 * chunks are near the MSM's best rate. */
#define SP_RESERVE_CHUNK ((size_t)1 << 24)

/* Device memory to leave free for proving with pk: a, b, c, the NTT
 * twiddles of its domain, the fused NTT's scratch vector and the witness
 * (sp_cb_proof_bytes), the scratch of the largest MSM (split, scalars from
 * the host) for up to SP_RESERVE_CHUNK points, without what an MSM takes
 * only when there is room (LEAN: a key array resident saves more than G2's
 * ones summed by rounds), and for the CUDA runtime and the model's error
 * 1/8 of what is free, at most 1 GiB. */
static size_t proving_reserve(const cuda_impl *c, const sp_g16_pk *pk, size_t free_b)
{
    size_t n = pk->n_vars > pk->n_h ? pk->n_vars : pk->n_h, n2 = pk->n_vars;
    n = n < SP_RESERVE_CHUNK ? n : SP_RESERVE_CHUNK;
    n2 = n2 < SP_RESERVE_CHUNK ? n2 : SP_RESERVE_CHUNK;
    unsigned fl = SP_CUDA_MSM_SPLIT | SP_CUDA_MSM_HOST_SCALARS | SP_CUDA_MSM_LEAN;
    size_t g1 = sp_cuda_msm_stream_bytes(c->cu, 1, n, 0, fl), g2 = sp_cuda_msm_stream_bytes(c->cu, 2, n2, 0, fl);
    size_t slack = free_b / 8 < ((size_t)1 << 30) ? free_b / 8 : (size_t)1 << 30;
    return sp_cb_proof_bytes(pk) + (g1 > g2 ? g1 : g2) + slack;
}

/* Leaves a key array in host memory, pinned in place when the driver
 * allows, and records it; its name goes into names (the attach log). */
static sp_status stream_array(cuda_impl *c, const sp_g16_pk *pk, const sp_g16_pk_array *a, char *names, size_t names_len,
                              char err[SP_ERR_LEN])
{
    if (!table_room((void **)&c->str, &c->cap_str, c->n_str, sizeof *c->str)) {
        snprintf(err, SP_ERR_LEN, "%s: out of host memory for the residency table", c->name);
        return SP_ERR_NOMEM;
    }
    sp_status st = sp_cuda_host_register(c->cu, a->p, a->bytes);
    if (st == SP_ERR_NOMEM)
        return sp_cb_fail(c, st, "pinning a key array", err);
    if (st != SP_OK)
        fprintf(stderr, "snarkpipe %s: key array %s (%.1f MiB) stays pageable: %s; its copies do not overlap "
                "compute\n", c->name, a->name, a->bytes / 1048576.0, sp_cuda_error(c->cu));
    c->str[c->n_str++] = (streamed){a->p, a->bytes, pk, 1, st == SP_OK};
    c->streamed_bytes += a->bytes;
    size_t l = strlen(names);
    snprintf(names + l, names_len - l, "%s%s", l ? ", " : "", a->name);
    return SP_OK;
}

/* Uploads one array unless already attached; when it does not fit next to
 * `reserve`, it is streamed instead (stream_array). */
static sp_status attach_array(cuda_impl *c, const sp_g16_pk *pk, const sp_g16_pk_array *a, size_t reserve, char *names,
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
        return sp_cb_fail(c, st, "device memory query", err);
    void *dev = NULL;
    if (a->bytes + reserve > free_b || (st = sp_cuda_try_malloc(c->cu, &dev, a->bytes)) == SP_ERR_NOMEM)
        return stream_array(c, pk, a, names, names_len, err);
    if (st != SP_OK)
        return sp_cb_fail(c, st, "device memory for a key", err);
    if (!table_room((void **)&c->res, &c->cap_res, c->n_res, sizeof *c->res)) {
        sp_cuda_dev_free(c->cu, dev);
        snprintf(err, SP_ERR_LEN, "%s: out of host memory for the residency table", c->name);
        return SP_ERR_NOMEM;
    }
    if ((st = sp_cuda_copy(c->cu, dev, a->p, a->bytes)) != SP_OK) {
        sp_cb_fail(c, st, "copy of a key to the device", err);
        sp_cuda_dev_free(c->cu, dev);
        return st;
    }
    c->res[c->n_res++] = (resident){a->p, dev, a->bytes, pk, 1, 0};
    c->resident_bytes += a->bytes;
    return SP_OK;
}

static void detach_locked(cuda_impl *c, const sp_g16_pk *pk)
{
    size_t k = 0;
    for (size_t i = 0; i < c->n_res; i++) {
        resident *r = &c->res[i];
        if (r->pk == pk && --r->refs == 0) {
            sp_cuda_msm_table_drop(c->cu, r->dev);
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

/* Bytes of pk's arrays (pk NULL: all; array non-NULL: only the one whose
 * host copy starts there) resident and streamed; callers hold mu. */
static void key_bytes(const cuda_impl *c, const sp_g16_pk *pk, const void *array, size_t *resident_b,
                      size_t *streamed_b)
{
    *resident_b = *streamed_b = 0;
    for (size_t i = 0; i < c->n_res; i++)
        if ((!pk || c->res[i].pk == pk) && (!array || c->res[i].host == array))
            *resident_b += c->res[i].bytes;
    for (size_t i = 0; i < c->n_str; i++)
        if ((!pk || c->str[i].pk == pk) && (!array || c->str[i].host == array))
            *streamed_b += c->str[i].bytes;
}

/* ---- precomputed MSM tables (sp_cuda_backend.h) ---- */

/* The default table budget: a fraction of the device memory (under the
 * cap), which leaves the proofs' own buffers and scratch room. */
#define SP_CB_TABLES_DEFAULT_DIV 4

/* A table for resident array a (device copy dev, n G1 points) when it
 * fits the budget left and leaves the reserve and its MSM's least scratch
 * free; its size and build time go into log. Failures only mean no table:
 * the MSMs run without one. */
static void attach_table(cuda_impl *c, const sp_g16_pk_array *a, const void *dev, size_t n, size_t reserve, char *log,
                         size_t log_len)
{
    size_t bytes = sp_cuda_msm_table_bytes(1, n, 0), held = sp_cuda_msm_tables_bytes(c->cu);
    size_t need = bytes + reserve + sp_cuda_msm_table_scratch(1, n, 0), free_b = 0, total = 0;
    if (n < c->table_min || held + bytes > c->table_budget ||
        sp_cuda_mem_info(c->cu, &free_b, &total) != SP_OK || need > free_b)
        return;
    double ms = 0;
    if (sp_cuda_msm_table_add(c->cu, 1, dev, n, 0, &ms) != SP_OK)
        return;
    size_t l = strlen(log);
    snprintf(log + l, log_len - l, "%s%s (c=%u, %.1f MiB, %.0f ms)", l ? ", " : "", a->name,
             sp_cuda_msm_table_window(n, 1), bytes / 1048576.0, ms);
}

/* Tables for pk's resident G1 arrays in the order of arr (H, A, B1, C). */
static void attach_tables(cuda_impl *c, const sp_g16_pk *pk, const sp_g16_pk_array *arr, size_t narr, size_t reserve)
{
    char log[256] = "";
    for (size_t i = 0; i < narr && c->table_budget; i++) {
        const resident *r = resident_find(c, arr[i].p);
        size_t n = arr[i].bytes / sizeof(sp_g1_affine);
        if (r && r->pk == pk && r->refs == 1 && strcmp(arr[i].name, "b2") != 0)
            attach_table(c, &arr[i], r->dev, n, reserve, log, sizeof log);
    }
    if (log[0])
        fprintf(stderr, "snarkpipe %s: key of 2^%u: MSM tables for %s; %.1f MiB of tables on the device\n", c->name,
                pk->log2_domain, log, sp_cuda_msm_tables_bytes(c->cu) / 1048576.0);
}

static sp_status cuda_key_attach(sp_backend *be, const sp_g16_pk *pk, char err[SP_ERR_LEN])
{
    cuda_impl *c = be->impl;
    size_t free_b = 0, total = 0, reserve = 0;
    /* in that order: H and A first, the largest G1 MSMs gain the most from residency */
    sp_g16_pk_array arr[SP_G16_PK_ARRAYS];
    sp_g16_pk_arrays(pk, arr);
    char names[32] = "";
    pthread_mutex_lock(&c->mu);
    sp_status st = sp_cuda_bind(c->cu);
    if (st != SP_OK)
        sp_cb_fail(c, st, "select device", err);
    else if ((st = sp_cuda_mem_info(c->cu, &free_b, &total)) != SP_OK)
        sp_cb_fail(c, st, "device memory query", err);
    else
        reserve = proving_reserve(c, pk, free_b);
    for (size_t i = 0; st == SP_OK && i < SP_G16_PK_ARRAYS; i++)
        st = attach_array(c, pk, &arr[i], reserve, names, sizeof names, err);
    if (st != SP_OK) {
        detach_locked(c, pk);
    } else {
        attach_tables(c, pk, arr, SP_G16_PK_ARRAYS, reserve);
        sp_cb_warm_locked(be, pk);
    }
    if (st == SP_OK && names[0]) { /* the reason, once per key */
        size_t rb, sb;
        key_bytes(c, pk, NULL, &rb, &sb);
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

static void cuda_key_memory(sp_backend *be, const sp_g16_pk *pk, const void *array, size_t *resident_b,
                            size_t *streamed_b)
{
    cuda_impl *c = be->impl;
    pthread_mutex_lock(&c->mu);
    key_bytes(c, pk, array, resident_b, streamed_b);
    pthread_mutex_unlock(&c->mu);
}

static int cuda_key_release_host(sp_backend *be, const void *array)
{
    cuda_impl *c = be->impl;
    int marked = 0;
    pthread_mutex_lock(&c->mu);
    for (size_t i = 0; i < c->n_res; i++)
        if (c->res[i].host == array)
            marked = c->res[i].host_released = 1;
    pthread_mutex_unlock(&c->mu);
    return marked;
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
        sp_cb_proof_free_locked(c);
    }
    sp_cuda_free(c->cu);
    pthread_mutex_destroy(&c->mu);
    free(c->res);
    free(c->str);
    free(c);
    free(be);
}

void sp_backend_cuda_set_tables(sp_backend *be, size_t budget, size_t min_points)
{
    cuda_impl *c = be->impl;
    pthread_mutex_lock(&c->mu);
    c->table_budget = budget;
    c->table_min = min_points;
    pthread_mutex_unlock(&c->mu);
}

size_t sp_backend_cuda_table_bytes(sp_backend *be)
{
    cuda_impl *c = be->impl;
    pthread_mutex_lock(&c->mu);
    size_t b = sp_cuda_msm_tables_bytes(c->cu);
    pthread_mutex_unlock(&c->mu);
    return b;
}

void sp_backend_cuda_set_mem_limit(sp_backend *be, size_t bytes)
{
    cuda_impl *c = be->impl;
    pthread_mutex_lock(&c->mu);
    sp_cuda_set_mem_limit(c->cu, bytes);
    pthread_mutex_unlock(&c->mu);
}

/* SP_CUDA_MEM_LIMIT, when set: the cap of the new backend's context. */
static sp_status limit_from_env(cuda_impl *c, char err[SP_ERR_LEN])
{
    const char *v = getenv("SP_CUDA_MEM_LIMIT");
    size_t bytes = 0;
    if (!v || !*v)
        return SP_OK;
    if (sp_bytes_parse(&bytes, v) != SP_OK) {
        snprintf(err, SP_ERR_LEN, "%s: SP_CUDA_MEM_LIMIT=%.64s: expected bytes as in 123, 256M, 2GiB, 2^30",
                 c->name, v);
        return SP_ERR_INVALID_ARG;
    }
    sp_cuda_set_mem_limit(c->cu, bytes);
    fprintf(stderr, "snarkpipe %s: device memory capped at %.1f MiB (SP_CUDA_MEM_LIMIT)\n", c->name,
            bytes / 1048576.0);
    return SP_OK;
}

/* The table budget: SP_CUDA_MSM_TABLES when set, else the device memory
 * (the cap when set) over SP_CB_TABLES_DEFAULT_DIV. */
static sp_status table_budget_from_env(cuda_impl *c, char err[SP_ERR_LEN])
{
    const char *v = getenv("SP_CUDA_MSM_TABLES");
    size_t free_b = 0, total = 0;
    c->table_min = SP_CUDA_MSM_BATCH_AFFINE_MIN;
    if (v && *v) {
        if (sp_bytes_parse(&c->table_budget, v) == SP_OK)
            return SP_OK;
        snprintf(err, SP_ERR_LEN, "%s: SP_CUDA_MSM_TABLES=%.64s: expected bytes as in 0, 256M, 20GiB, 2^34",
                 c->name, v);
        return SP_ERR_INVALID_ARG;
    }
    sp_status st = sp_cuda_mem_info(c->cu, &free_b, &total);
    if (st != SP_OK) {
        snprintf(err, SP_ERR_LEN, "%s: device memory query: %s", c->name, sp_cuda_error(c->cu));
        return st;
    }
    size_t cap = sp_cuda_mem_limit(c->cu);
    c->table_budget = (cap && cap < total ? cap : total) / SP_CB_TABLES_DEFAULT_DIV;
    c->table_min = SP_CUDA_MSM_BATCH_AFFINE_MIN;
    return SP_OK;
}

void sp_backend_cuda_witness_on_host(sp_backend *be, int on)
{
    cuda_impl *c = be->impl;
    pthread_mutex_lock(&c->mu);
    c->wit_overlap = !on;
    pthread_mutex_unlock(&c->mu);
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
    if ((st = table_budget_from_env(c, err)) != SP_OK) {
        sp_cuda_free(c->cu);
        free(b);
        free(c);
        return st;
    }
    pthread_mutex_init(&c->mu, NULL);
    c->wit_overlap = 1;
    b->name = c->name;
    b->impl = c;
    b->threads = threads;
    b->prove = sp_cb_prove;
    b->pausable = 1; /* between its witness MSMs: backend_proof.c */
    b->key_attach = cuda_key_attach;
    b->key_detach = cuda_key_detach;
    b->memory = cuda_memory;
    b->key_memory = cuda_key_memory;
    b->key_release_host = cuda_key_release_host;
    b->destroy = cuda_destroy;
    b->host_alloc = cuda_host_alloc;
    b->host_free = cuda_host_free;
    b->fixed_base_g1 = cuda_fixed_base_g1;
    b->fixed_base_g2 = cuda_fixed_base_g2;
    b->ptau_comb_g1 = cuda_ptau_comb_g1;
    b->ptau_comb_g2 = cuda_ptau_comb_g2;
    b->ptau_intt_g1 = cuda_ptau_intt_g1;
    b->ptau_intt_g2 = cuda_ptau_intt_g2;
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
