/*
 * Keys larger than the device: the streamed MSM (gpu/msm/stream.cu), the
 * device memory cap and the backend's streaming of key arrays.
 *   - sp_cuda_msm_g1_stream/_g2_stream, plain and split, against the CPU
 *     MSM (src/msm) for n in {0, 1, 2, 3, 1000, 2^16 + 3}, chunk sizes
 *     giving 1, 2, 3 and many chunks, random and 0/1-heavy scalars, bases
 *     with points at infinity (whole chunks of them for n = 1000); where
 *     the data lives rotates over the cases: bases in cudaHostAlloc memory,
 *     in malloc memory pinned by sp_cuda_host_register, pageable, or on the
 *     device; scalars pinned, pageable or on the device. Outputs are
 *     poisoned (0xa5) before each call; after each call the scratch held
 *     must lie within sp_cuda_msm_stream_bytes. A scalar >= r in the last
 *     chunk is refused with the output untouched.
 *   - the split form with device scalars and chunk = 0 over bases pinned
 *     by sp_cuda_host_register: read in place (whole, or from an offset
 *     into the registration) when at least n / 8 scalars are 0 or 1, else
 *     copied, as are pageable bases; equal to the CPU either way. Bases
 *     only half registered are not read in place (the driver may refuse
 *     their copy: SP_ERR_GPU, and the next call is unaffected).
 *   - the cap, on a fresh context: chunk = 0 stays within it and is exact,
 *     also when called again with its scratch held; a cap too small gives
 *     SP_ERR_NOMEM; the split MSM over device data with chunk = 0 runs
 *     whole, its "other" scalars' Pippenger in chunks under a cap; sp_cuda_mem_info and sp_cuda_try_malloc honour it;
 *     sp_cuda_malloc past the device reports SP_ERR_NOMEM and the context still works;
 *     sp_cuda_host_register counts.
 *   - the backend: one random key proved with the same fixed r, s on the
 *     CPU, on cuda without a cap (all resident), with a cap that leaves
 *     every array in host memory and cuts every MSM into chunks, and with a
 *     cap that fits no MSM chunk (the CPU takes over): all proofs identical
 *     byte for byte; key_memory and memory report the residency.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu/sp_cuda_backend.h"
#include "gpu_check.h"
#include "groth16/backend.h"
#include "groth16/prove.h"
#include "test_fill.h"

/* ---- inputs ---- */

/* kind 0: uniform; 1: 0/1-heavy (45% 0, 35% 1, the rest uniform; a run of
 * zeros so that whole chunks are skipped). */
static void make_scalars(chk_env *env, sp_scalar *s, size_t n, int kind)
{
    for (size_t i = 0; i < n; i++) {
        memset(&s[i], 0, sizeof s[i]);
        unsigned r = (unsigned)(sp_rng_u64(&env->rng) % 100);
        if (kind == 0 || r >= 80)
            chk_random_scalar(s[i].l, &env->rng);
        else if (r >= 45)
            s[i].l[0] = 1;
        if (kind == 1 && i >= n / 2 && i < n / 2 + n / 5)
            memset(&s[i], 0, sizeof s[i]);
    }
}

/* Every 7th point, and for n >= 1000 the run [100, 400), at infinity. */
static void add_infinity(const chk_grp *g, void *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (i % 7 == 3 || (n >= 1000 && i >= 100 && i < 400))
            memset((char *)b + i * g->aff_sz, 0, g->aff_sz);
}

/* ---- the streamed MSM against the CPU ---- */

/* The same bases and scalars in every kind of memory. */
typedef struct {
    void *b_host, *b_pin, *b_reg, *b_dev; /* pageable, cudaHostAlloc, registered malloc, device */
    sp_scalar *s_host, *s_pin, *s_dev;
    int registered;
} placed;

static int place(chk_env *env, placed *p, const chk_grp *g, size_t n)
{
    memset(p, 0, sizeof *p);
    size_t bb = (n ? n : 1) * g->aff_sz, sb = (n ? n : 1) * sizeof(sp_scalar);
    p->b_host = malloc(bb);
    p->b_reg = malloc(bb);
    p->s_host = malloc(sb);
    if (!p->b_host || !p->b_reg || !p->s_host)
        return 0;
    if (!chk_ok(env, sp_cuda_host_malloc(env->cu, &p->b_pin, bb), "host_malloc") ||
        !chk_ok(env, sp_cuda_host_malloc(env->cu, (void **)&p->s_pin, sb), "host_malloc") ||
        !chk_ok(env, sp_cuda_malloc(env->cu, &p->b_dev, bb), "malloc") ||
        !chk_ok(env, sp_cuda_malloc(env->cu, (void **)&p->s_dev, sb), "malloc") ||
        !chk_ok(env, sp_cuda_host_register(env->cu, p->b_reg, bb), "host_register"))
        return 0;
    p->registered = 1;
    return 1;
}

static void unplace(chk_env *env, placed *p)
{
    if (p->registered)
        sp_cuda_host_unregister(p->b_reg);
    sp_cuda_host_free(env->cu, p->b_pin);
    sp_cuda_host_free(env->cu, p->s_pin);
    sp_cuda_dev_free(env->cu, p->b_dev);
    sp_cuda_dev_free(env->cu, p->s_dev);
    free(p->b_host), free(p->b_reg), free(p->s_host);
}

/* Copies host bases / scalars to all their other places. */
static int spread(chk_env *env, placed *p, const chk_grp *g, size_t n, int bases)
{
    size_t bb = n * g->aff_sz, sb = n * sizeof(sp_scalar);
    if (bases) {
        memcpy(p->b_pin, p->b_host, bb);
        memcpy(p->b_reg, p->b_host, bb);
        return chk_ok(env, sp_cuda_copy(env->cu, p->b_dev, p->b_host, bb), "copy");
    }
    memcpy(p->s_pin, p->s_host, sb);
    return chk_ok(env, sp_cuda_copy(env->cu, p->s_dev, p->s_host, sb), "copy");
}

#define N_PLACES 6
static const char *const place_name[N_PLACES] = {"pinned/pinned", "pinned/device", "registered/pageable",
                                                 "pageable/pageable", "device/pinned", "device/device"};

/* One call: poisoned output, equal to want, scratch within the model. */
static void stream_case(chk_env *env, const chk_grp *g, const placed *p, size_t n, size_t chunk, int split,
                        int where, const void *want, const char *skind)
{
    static const int host_b[N_PLACES] = {1, 1, 1, 1, 0, 0}, host_s[N_PLACES] = {1, 0, 1, 1, 1, 0};
    const void *b = where < 2 ? p->b_pin : where == 2 ? p->b_reg : where == 3 ? p->b_host : p->b_dev;
    const sp_scalar *s = where == 1 || where == 5 ? p->s_dev : where == 2 || where == 3 ? p->s_host : p->s_pin;
    unsigned flags = (split ? SP_CUDA_MSM_SPLIT : 0) | (host_b[where] ? SP_CUDA_MSM_HOST_BASES : 0) |
                     (host_s[where] ? SP_CUDA_MSM_HOST_SCALARS : 0);
    unsigned char got[sizeof(sp_g2_jac)];
    memset(got, 0xa5, sizeof got);
    if (!chk_ok(env, sp_cuda_scratch_trim(env->cu), "scratch_trim"))
        return;
    sp_status st = g->msm_stream(env->cu, got, b, s, n, chunk, split, 0);
    size_t held = sp_cuda_scratch_bytes(env->cu), model = sp_cuda_msm_stream_bytes(env->cu, g->group, n, chunk, flags);
    CHECKF(st == SP_OK && g->eq(got, want), "%s stream n=%zu chunk=%zu split=%d %s %s: %s %s", g->name, n, chunk,
           split, place_name[where], skind, sp_status_str(st), sp_cuda_error(env->cu));
    CHECKF(held <= model, "%s stream n=%zu chunk=%zu split=%d %s: %zu bytes of scratch, the model says %zu", g->name,
           n, chunk, split, place_name[where], held, model);
}

/* A scalar >= r in the last chunk: refused, output untouched; a bad window. */
static void stream_refusals(chk_env *env, const chk_grp *g, placed *p, size_t n)
{
    unsigned char got[sizeof(sp_g2_jac)], poison[sizeof got];
    memset(poison, 0xa5, sizeof poison);
    p->s_pin[n - 1].l[3] = ~0ull;
    for (int split = 0; split < 2; split++) {
        memcpy(got, poison, sizeof got);
        sp_status st = g->msm_stream(env->cu, got, p->b_pin, p->s_pin, n, n / 3, split, 0);
        CHECKF(st == SP_ERR_NOT_CANONICAL && !memcmp(got, poison, sizeof got),
               "%s stream split=%d: scalar >= r in the last chunk gave %s", g->name, split, sp_status_str(st));
    }
    memcpy(got, poison, sizeof got);
    CHECK(g->msm_stream(env->cu, got, p->b_pin, p->s_pin, n, n / 3, 0, 7) == SP_ERR_INVALID_ARG &&
          !memcmp(got, poison, sizeof got));
}

/* n bases (every 7th, and for n >= 1000 a run, at infinity) in every
 * kind of memory; 0 (a check failed, p released) when memory for them
 * could not be had. */
static int place_bases(chk_env *env, placed *p, const chk_grp *g, size_t n)
{
    if (!place(env, p, g, n)) {
        CHECKF(0, "%s n=%zu: memory for the inputs", g->name, n);
        unplace(env, p);
        return 0;
    }
    chk_bases(env, g, p->b_host, n, NULL, NULL);
    add_infinity(g, p->b_host, n);
    if (!spread(env, p, g, n, 1)) {
        unplace(env, p);
        return 0;
    }
    return 1;
}

/* Every chunking, split and placement for one group and size. */
static void stream_size(chk_env *env, const chk_grp *g, size_t n, int *rot)
{
    placed p;
    unsigned char want[sizeof(sp_g2_jac)];
    if (!place_bases(env, &p, g, n))
        return;
    size_t many = n / 37 ? n / 37 : 1;
    const size_t chunks[5] = {n ? n : 1, (n + 1) / 2 ? (n + 1) / 2 : 1, (n + 2) / 3 ? (n + 2) / 3 : 1, many, n + 5};
    for (int kind = 0; kind < 2; kind++) {
        make_scalars(env, p.s_host, n, kind);
        if (!spread(env, &p, g, n, 0))
            goto out;
        CHECKF(g->cpu_msm(want, p.b_host, (const uint64_t *)p.s_host, n) == SP_OK, "CPU MSM");
        for (int c = 0; c < 5; c++)
            for (int split = 0; split < 2; split++)
                stream_case(env, g, &p, n, chunks[c], split, (*rot)++ % N_PLACES, want,
                            kind ? "0/1-heavy" : "random");
    }
    if (n >= 1000)
        stream_refusals(env, g, &p, n);
out:
    unplace(env, &p);
}

/* ---- split over registered host bases, read in place ---- */

/* One split call with chunk = 0 over bases b (host) and the device scalars
 * from off: equal to the CPU (or with may_fail, refused with SP_ERR_GPU),
 * within the model, and read in place exactly when want_view (the profile
 * says so). */
static void mapped_call(chk_env *env, const chk_grp *g, const placed *p, const void *b, size_t off, size_t n,
                        int want_view, int may_fail, const char *what)
{
    unsigned char want[sizeof(sp_g2_jac)], got[sizeof want];
    memset(got, 0xa5, sizeof got);
    CHECKF(g->cpu_msm(want, (const char *)p->b_host + off * g->aff_sz, (const uint64_t *)(p->s_host + off), n) ==
               SP_OK, "CPU MSM");
    if (!chk_ok(env, sp_cuda_scratch_trim(env->cu), "scratch_trim"))
        return;
    sp_cuda_set_profile(env->cu, 1);
    sp_status st = g->msm_stream(env->cu, got, b, p->s_dev + off, n, 0, 1, 0);
    int viewed = strstr(sp_cuda_profile(env->cu), "read in place") != NULL;
    size_t held = sp_cuda_scratch_bytes(env->cu),
           model = sp_cuda_msm_stream_bytes(env->cu, g->group, n, 0, SP_CUDA_MSM_SPLIT | SP_CUDA_MSM_HOST_BASES);
    sp_cuda_set_profile(env->cu, 0);
    CHECKF(st == SP_OK ? g->eq(got, want) : may_fail && st == SP_ERR_GPU, "%s split n=%zu from %zu, %s: %s %s",
           g->name, n, off, what, sp_status_str(st), sp_cuda_error(env->cu));
    CHECKF(viewed == want_view, "%s split n=%zu from %zu, %s: bases %s in place", g->name, n, off, what,
           viewed ? "read" : "not read");
    CHECKF(held <= model, "%s split n=%zu, %s: %zu bytes of scratch, the model says %zu", g->name, n, what, held,
           model);
}

/* The split MSM with device scalars and chunk = 0: bases registered by
 * sp_cuda_host_register are read in place (also from an offset into the
 * registration) unless fewer than n / 8 scalars are 0 or 1 (then copied,
 * as are pageable bases; bases only half registered are not read in
 * place either); equal to the CPU. */
static void mapped_split(chk_env *env, const chk_grp *g, size_t n)
{
    placed p;
    if (!place_bases(env, &p, g, n))
        return;
    void *half = malloc(n * g->aff_sz);
    if (!half)
        goto out;
    memcpy(half, p.b_host, n * g->aff_sz);
    for (int kind = 0; kind < 2; kind++) {
        make_scalars(env, p.s_host, n, kind);
        if (!spread(env, &p, g, n, 0))
            goto out;
        const size_t offs[2] = {0, n / 3};
        for (int o = 0; o < 2; o++) {
            size_t off = offs[o], m = n - off, zo = 0;
            for (size_t i = off; i < n; i++)
                zo += !(p.s_host[i].l[1] | p.s_host[i].l[2] | p.s_host[i].l[3]) && p.s_host[i].l[0] <= 1;
            mapped_call(env, g, &p, (const char *)p.b_reg + off * g->aff_sz, off, m, zo >= m / 8, 0,
                        kind ? "0/1-heavy, registered" : "random, registered");
        }
        /* half pinned: not read in place; the driver may refuse to copy
         * such a range, and then the next call must not see its error */
        if (n >= 2 && chk_ok(env, sp_cuda_host_register(env->cu, half, n / 2 * g->aff_sz), "host_register")) {
            mapped_call(env, g, &p, half, 0, n, 0, 1, "half registered");
            sp_cuda_host_unregister(half);
        }
        mapped_call(env, g, &p, p.b_host, 0, n, 0, 0, "pageable");
    }
out:
    free(half);
    unplace(env, &p);
}

/* ---- the cap ---- */

/* chunk = 0 under a cap: exact, within the cap (twice: the second call
 * finds its scratch held), and SP_ERR_NOMEM under a cap too small. */
static void cap_auto(chk_env *env, sp_cuda *cu, const chk_grp *g, size_t n, int split)
{
    unsigned flags = SP_CUDA_MSM_HOST_BASES | SP_CUDA_MSM_HOST_SCALARS | (split ? SP_CUDA_MSM_SPLIT : 0);
    void *b = NULL;
    sp_scalar *s = malloc(n * sizeof *s);
    unsigned char want[sizeof(sp_g2_jac)], got[sizeof want], poison[sizeof want];
    memset(poison, 0xa5, sizeof poison);
    if (!s || !chk_ok(env, sp_cuda_host_malloc(cu, &b, n * g->aff_sz), "host_malloc"))
        goto out;
    chk_bases(env, g, b, n, NULL, NULL);
    add_infinity(g, b, n);
    make_scalars(env, s, n, split);
    CHECKF(g->cpu_msm(want, b, (const uint64_t *)s, n) == SP_OK, "CPU MSM");
    size_t room = sp_cuda_msm_stream_bytes(cu, g->group, n, n / 5, flags);
    CHECKF(room < sp_cuda_msm_stream_bytes(cu, g->group, n, n, flags), "%s: the model does not grow with the chunk",
           g->name);
    if (!chk_ok(env, sp_cuda_scratch_trim(cu), "scratch_trim"))
        goto out;
    sp_cuda_set_mem_limit(cu, SP_CUDA_STREAM_MARGIN + room);
    for (int rep = 0; rep < 2; rep++) {
        memset(got, 0xa5, sizeof got);
        sp_status st = g->msm_stream(cu, got, b, s, n, 0, split, 0);
        CHECKF(st == SP_OK && g->eq(got, want), "%s auto chunk n=%zu split=%d call %d under a cap: %s %s", g->name, n,
               split, rep, sp_status_str(st), sp_cuda_error(cu));
        CHECKF(sp_cuda_scratch_bytes(cu) <= room, "%s auto chunk: %zu bytes of scratch under a cap of %zu + margin",
               g->name, sp_cuda_scratch_bytes(cu), room);
    }
    size_t least = sp_cuda_msm_stream_bytes(cu, g->group, n, SP_CUDA_STREAM_MIN_CHUNK, flags);
    sp_cuda_set_mem_limit(cu, SP_CUDA_STREAM_MARGIN + least / 2);
    memcpy(got, poison, sizeof got);
    sp_status st = g->msm_stream(cu, got, b, s, n, 0, split, 0);
    CHECKF(st == SP_ERR_NOMEM && !memcmp(got, poison, sizeof got) && strstr(sp_cuda_error(cu), "streamed MSM"),
           "%s auto chunk under a cap too small: %s (%s)", g->name, sp_status_str(st), sp_cuda_error(cu));
out:
    sp_cuda_set_mem_limit(cu, 0);
    sp_cuda_host_free(cu, b);
    free(s);
}

/* n random bases of g and scalars (split: some bases at infinity and
 * the scalars mostly 0 and 1, as a witness's) on the host and copied to
 * the device, and their CPU MSM; returns 0 when one of those failed (the
 * failure checked). dev_msm_free after either way. */
typedef struct {
    void *b, *db;
    sp_scalar *s, *ds;
    unsigned char want[sizeof(sp_g2_jac)];
} dev_msm;

static int dev_msm_make(chk_env *env, sp_cuda *cu, const chk_grp *g, size_t n, int split, dev_msm *m)
{
    memset(m, 0, sizeof *m);
    m->b = malloc(n * g->aff_sz);
    m->s = malloc(n * sizeof *m->s);
    CHECKF(m->b && m->s, "host memory");
    if (!m->b || !m->s || !chk_ok(env, sp_cuda_malloc(cu, &m->db, n * g->aff_sz), "malloc") ||
        !chk_ok(env, sp_cuda_malloc(cu, (void **)&m->ds, n * sizeof *m->s), "malloc"))
        return 0;
    chk_bases(env, g, m->b, n, NULL, NULL);
    if (split)
        add_infinity(g, m->b, n);
    make_scalars(env, m->s, n, split);
    CHECKF(g->cpu_msm(m->want, m->b, (const uint64_t *)m->s, n) == SP_OK, "CPU MSM");
    return chk_ok(env, sp_cuda_copy(cu, m->db, m->b, n * g->aff_sz), "copy") &&
           chk_ok(env, sp_cuda_copy(cu, m->ds, m->s, n * sizeof *m->s), "copy");
}

static void dev_msm_free(sp_cuda *cu, dev_msm *m)
{
    sp_cuda_dev_free(cu, m->db);
    sp_cuda_dev_free(cu, m->ds);
    free(m->b);
    free(m->s);
}

/* Growth of cu's device memory since its creation (what its cap counts),
 * its scratch released first; 0 when it cannot be read. */
static size_t cap_grown(chk_env *env, sp_cuda *cu)
{
    size_t lim = (size_t)1 << 30, free_b = 0, total = 0;
    if (!chk_ok(env, sp_cuda_scratch_trim(cu), "scratch_trim"))
        return 0;
    sp_cuda_set_mem_limit(cu, lim);
    sp_status st = sp_cuda_mem_info(cu, &free_b, &total);
    sp_cuda_set_mem_limit(cu, 0);
    return st == SP_OK && free_b < lim ? lim - free_b : 0;
}

/* One split call over device data with chunk = 0 under cap (0: none):
 * equal to want, or with nomem SP_ERR_NOMEM and out untouched; *nchunk =
 * the chunks of the "other" scalars' Pippenger that the profile names. */
static void split_whole_call(sp_cuda *cu, const chk_grp *g, const void *db, const sp_scalar *ds,
                             size_t n, size_t cap, const void *want, int nomem, size_t *nchunk)
{
    unsigned char got[sizeof(sp_g2_jac)], poison[sizeof got];
    memset(poison, 0xa5, sizeof poison);
    memcpy(got, poison, sizeof got);
    *nchunk = 0;
    sp_cuda_set_mem_limit(cu, cap);
    sp_status st = g->msm_stream(cu, got, db, ds, n, 0, 1, 0);
    sp_cuda_set_mem_limit(cu, 0);
    if (nomem) {
        CHECKF(st == SP_ERR_NOMEM && !memcmp(got, poison, sizeof got) && strstr(sp_cuda_error(cu), "streamed MSM"),
               "%s split on the device, a cap below its partition: %s (%s)", g->name, sp_status_str(st),
               sp_cuda_error(cu));
        return;
    }
    const char *o = strstr(sp_cuda_profile(cu), "other ");
    CHECKF(st == SP_OK && g->eq(got, want), "%s split on the device n=%zu cap=%zu: %s %s", g->name, n, cap,
           sp_status_str(st), sp_cuda_error(cu));
    CHECKF(o && sscanf(o, "other %*u in %zu chunk", nchunk) == 1, "%s split on the device: profile \"%s\"",
           g->name, sp_cuda_profile(cu));
    CHECKF(sp_cuda_scratch_bytes(cu) <= sp_cuda_msm_stream_bytes(cu, g->group, n, 0, SP_CUDA_MSM_SPLIT),
           "%s split on the device: %zu bytes of scratch, the model says %zu", g->name, sp_cuda_scratch_bytes(cu),
           sp_cuda_msm_stream_bytes(cu, g->group, n, 0, SP_CUDA_MSM_SPLIT));
}

/* The split MSM over device bases and scalars with chunk = 0 runs whole,
 * sizing its own steps: without a cap its "other" scalars go through one
 * Pippenger; under a cap that holds its partition (index lists, at most
 * 9 bytes a point with CUB's storage) and the model of half of them, in
 * two or more; under a cap below its partition the chunked path refuses
 * with SP_ERR_NOMEM. */
static void split_whole(chk_env *env, sp_cuda *cu, const chk_grp *g, size_t n)
{
    dev_msm m;
    size_t n_o = 0, k = 0;
    if (dev_msm_make(env, cu, g, n, 1, &m)) {
        for (size_t i = 0; i < n; i++)
            n_o += (m.s[i].l[1] | m.s[i].l[2] | m.s[i].l[3]) != 0 || m.s[i].l[0] > 1;
        sp_cuda_set_profile(cu, 1);
        split_whole_call(cu, g, m.db, m.ds, n, 0, m.want, 0, &k);
        CHECKF(k == 1, "%s split on the device, no cap: %zu chunks of \"other\" scalars", g->name, k);
        size_t grown = cap_grown(env, cu), part = 9 * n + 8;
        /* and at least the least chunk's model, below which the fit
         * refuses */
        const unsigned fl = SP_CUDA_MSM_HOST_BASES | SP_CUDA_MSM_HOST_SCALARS;
        size_t half = sp_cuda_msm_stream_bytes(cu, g->group, n_o, n_o / 2, fl),
               least = sp_cuda_msm_stream_bytes(cu, g->group, n_o, SP_CUDA_STREAM_MIN_CHUNK, fl);
        half = half > least ? half : least;
        CHECKF(grown && n_o / 2 >= SP_CUDA_STREAM_MIN_CHUNK, "%s: growth %zu, %zu \"other\" scalars", g->name,
               grown, n_o);
        split_whole_call(cu, g, m.db, m.ds, n, grown + SP_CUDA_STREAM_MARGIN + part + half, m.want, 0, &k);
        CHECKF(k >= 2, "%s split on the device under a cap: %zu chunks of %zu \"other\" scalars", g->name, k, n_o);
        grown = cap_grown(env, cu);
        split_whole_call(cu, g, m.db, m.ds, n, grown + SP_CUDA_STREAM_MARGIN + 4 * n, m.want, 1, &k);
        sp_cuda_set_profile(cu, 0);
    }
    dev_msm_free(cu, &m);
}

/* One MSM over device data (split or not, no cap) with the device's free
 * memory first cut to left bytes by a block held meanwhile: equal to
 * want; *held = the scratch held after it, *released = the scratch
 * releases during it. */
static void kept_call(chk_env *env, sp_cuda *cu, const chk_grp *g, const void *db, const sp_scalar *ds,
                      size_t n, int split, size_t left, const void *want, size_t *held, size_t *released)
{
    unsigned char got[sizeof(sp_g2_jac)];
    size_t free_b = 0, total = 0, r0 = sp_cuda_scratch_releases(cu);
    void *ballast = NULL;
    *held = *released = 0;
    if (!chk_ok(env, sp_cuda_mem_info(cu, &free_b, &total), "mem_info"))
        return;
    if (free_b > left && !chk_ok(env, sp_cuda_malloc(cu, &ballast, free_b - left), "ballast"))
        return;
    sp_status st = g->msm_stream(cu, got, db, ds, n, 0, split, 0);
    CHECKF(st == SP_OK && g->eq(got, want), "%s n=%zu split=%d with %zu bytes free: %s %s", g->name, n, split,
           left, sp_status_str(st), sp_cuda_error(cu));
    *held = sp_cuda_scratch_bytes(cu);
    *released = sp_cuda_scratch_releases(cu) - r0;
    sp_cuda_dev_free(cu, ballast);
}

/* Without a cap, the scratch an MSM holds is kept for the next one when it
 * and what is free hold the next one's model, though what is free alone
 * does not: the same MSM again, with less free than its model, runs in
 * the slots it left (nothing released, nothing grown), while with so
 * little free that even the held scratch does not make up the model it
 * runs in chunks and the scratch is released first. Equal to the CPU MSM
 * each time. */
static void kept_scratch(chk_env *env, sp_cuda *cu, const chk_grp *g, size_t n)
{
    dev_msm m;
    size_t held = 0, held2 = 0, rel = 0;
    if (!dev_msm_make(env, cu, g, n, 0, &m) || !chk_ok(env, sp_cuda_scratch_trim(cu), "scratch_trim"))
        goto out;
    kept_call(env, cu, g, m.db, m.ds, n, 0, (size_t)-1, m.want, &held, &rel);
    const size_t model = sp_cuda_msm_stream_bytes(cu, g->group, n, n, 0), margin = SP_CUDA_STREAM_MARGIN;
    CHECKF(held && held >= model / 2 && held < margin + model, "%s n=%zu: %zu bytes of scratch, model %zu",
           g->name, n, held, model);
    kept_call(env, cu, g, m.db, m.ds, n, 0, margin + model / 2, m.want, &held2, &rel);
    CHECKF(held2 == held && rel == 0, "%s n=%zu again, %zu bytes free: %zu bytes of scratch after, %zu before, "
           "%zu releases", g->name, n, margin + model / 2, held2, held, rel);
    /* free plus the scratch below margin + the model: chunks, whose model
     * (about what that holds) needs more than is free, so the scratch goes */
    const size_t least = sp_cuda_msm_stream_bytes(cu, g->group, n, SP_CUDA_STREAM_MIN_CHUNK, 0);
    const size_t mid = margin + least / 2 + model / 2, left = mid > held ? mid - held : 0;
    CHECKF(least < model && left, "%s n=%zu: model %zu, of a least chunk %zu, scratch %zu", g->name, n, model,
           least, held);
    kept_call(env, cu, g, m.db, m.ds, n, 0, left, m.want, &held2, &rel);
    CHECKF(rel == 1, "%s n=%zu in chunks, %zu bytes free: %zu releases", g->name, n, left, rel);
out:
    dev_msm_free(cu, &m);
}

/* The LEAN model leaves out only G2's ones summed by rounds, which the
 * split MSM does without when they find no room: the same as the full
 * model in G1 and where the rounds never run, smaller in G2 where they
 * may; and a G2 split MSM left no more than the LEAN model (and the
 * margin) still runs, equal to the CPU MSM. */
static void lean_model(chk_env *env, sp_cuda *cu, size_t n)
{
    const unsigned full = SP_CUDA_MSM_SPLIT, lean = SP_CUDA_MSM_SPLIT | SP_CUDA_MSM_LEAN;
    int acc = sp_cuda_set_msm_acc(cu, SP_CUDA_ACC_XYZZ);
    CHECK(sp_cuda_msm_stream_bytes(cu, 2, n, 0, lean) == sp_cuda_msm_stream_bytes(cu, 2, n, 0, full));
    sp_cuda_set_msm_acc(cu, SP_CUDA_ACC_BATCH_AFFINE);
    const size_t g2 = sp_cuda_msm_stream_bytes(cu, 2, n, 0, full), g2_lean = sp_cuda_msm_stream_bytes(cu, 2, n, 0, lean);
    CHECK(sp_cuda_msm_stream_bytes(cu, 1, n, 0, lean) == sp_cuda_msm_stream_bytes(cu, 1, n, 0, full));
    CHECKF(g2_lean < g2, "G2 n=%zu: LEAN model %zu, full %zu", n, g2_lean, g2);
    dev_msm m;
    size_t held = 0, rel = 0;
    if (dev_msm_make(env, cu, &chk_grp_g2, n, 1, &m) && chk_ok(env, sp_cuda_scratch_trim(cu), "scratch_trim"))
        kept_call(env, cu, &chk_grp_g2, m.db, m.ds, n, 1, SP_CUDA_STREAM_MARGIN + g2_lean, m.want, &held, &rel);
    dev_msm_free(cu, &m);
    sp_cuda_set_msm_acc(cu, acc);
}

static void cap_info(chk_env *env, sp_cuda *cu)
{
    size_t free0 = 0, total = 0, f = 0, t = 0, cap = (size_t)100 << 20;
    void *dev = NULL;
    if (!chk_ok(env, sp_cuda_mem_info(cu, &free0, &total), "mem_info"))
        return;
    sp_cuda_set_mem_limit(cu, cap);
    CHECK(sp_cuda_mem_limit(cu) == cap);
    CHECK(sp_cuda_mem_info(cu, &f, &t) == SP_OK && f <= cap && t == cap);
    CHECK(sp_cuda_try_malloc(cu, &dev, cap + 1) == SP_ERR_NOMEM && dev == NULL);
    sp_cuda_set_mem_limit(cu, 0);
    CHECK(sp_cuda_mem_info(cu, &f, &t) == SP_OK && t == total && f > cap);
    /* more than the device holds: SP_ERR_NOMEM, and the context still works */
    CHECK(sp_cuda_malloc(cu, &dev, total + ((size_t)1 << 30)) == SP_ERR_NOMEM && dev == NULL);
    CHECK(sp_cuda_malloc(cu, &dev, 4096) == SP_OK && dev != NULL &&
          sp_cuda_copy(cu, dev, &free0, sizeof free0) == SP_OK);
    sp_cuda_dev_free(cu, dev);
}

/* Registration counts: two registrations need two unregistrations; a
 * second size for the same address is refused. */
static void register_counts(chk_env *env)
{
    size_t bytes = (size_t)1 << 22;
    unsigned char *p = malloc(bytes);
    if (!p) {
        CHECKF(0, "host memory");
        return;
    }
    memset(p, 1, bytes);
    CHECK(sp_cuda_host_register(env->cu, p, bytes) == SP_OK);
    CHECK(sp_cuda_host_register(env->cu, p, bytes) == SP_OK);
    CHECK(sp_cuda_host_register(env->cu, p, bytes / 2) == SP_ERR_GPU);
    sp_cuda_host_unregister(p);
    sp_cuda_host_unregister(p); /* now unpinned: registering anew works */
    CHECK(sp_cuda_host_register(env->cu, p, bytes / 2) == SP_OK);
    sp_cuda_host_unregister(p);
    CHECK(sp_cuda_host_register(env->cu, p, 0) == SP_OK);
    free(p);
}

static void chk_stream_backend(chk_env *env, int device); /* below */

void chk_stream(chk_env *env, int device)
{
    static const size_t sizes[] = {0, 1, 2, 3, 1000, ((size_t)1 << 16) + 3};
    int rot = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        stream_size(env, &chk_grp_g1, sizes[i], &rot);
        stream_size(env, &chk_grp_g2, sizes[i], &rot);
        if (sizes[i]) {
            mapped_split(env, &chk_grp_g1, sizes[i]);
            mapped_split(env, &chk_grp_g2, sizes[i]);
        }
    }
    register_counts(env);
    char err[512];
    sp_cuda *cu = NULL; /* a fresh context: its cap counts from now */
    if (chk_ok(env, sp_cuda_create(&cu, device, err, sizeof err), "second context")) {
        cap_info(env, cu);
        cap_auto(env, cu, &chk_grp_g1, ((size_t)1 << 18) + 3, 1);
        cap_auto(env, cu, &chk_grp_g2, ((size_t)1 << 17) + 1, 0);
        split_whole(env, cu, &chk_grp_g1, ((size_t)1 << 18) + 3);
        split_whole(env, cu, &chk_grp_g2, ((size_t)1 << 18) + 1);
        kept_scratch(env, cu, &chk_grp_g1, (size_t)1 << 16);
        kept_scratch(env, cu, &chk_grp_g2, (size_t)1 << 15);
        lean_model(env, cu, (size_t)1 << 16);
        sp_cuda_free(cu);
    }
    chk_stream_backend(env, device);
    chk_tally();
}

/* ---- the backend: proofs with the key streamed ---- */

typedef struct {
    sp_g16_pk pk;
    sp_fr *w, *abc; /* the witness; a, b, c (copied for each proof: the prover overwrites them) */
    sp_ntt_domain *d;
    sp_fr r, s;
} proof_in;

/* A random key on 2^log_n (points with infinity among them), a 0/1-heavy
 * witness, random a and b, c = a * b (as from a satisfying witness: the
 * backend may compute c itself); fixed r, s. */
static int proof_inputs(chk_env *env, proof_in *in, unsigned log_n)
{
    uint32_t n = 1u << log_n, npub = 2, nv = n - 3;
    memset(in, 0, sizeof *in);
    if (sp_g16_pk_alloc(&in->pk, nv, npub, n, SP_G16_H_SNARKJS) != SP_OK)
        return 0;
    sp_g16_pk *pk = &in->pk;
    in->w = malloc(nv * sizeof *in->w);
    in->abc = malloc(3 * (size_t)n * sizeof *in->abc);
    if (!in->w || !in->abc || sp_ntt_domain_create(&in->d, log_n, SP_NTT_ROOTS_SNARKJS, env->threads) != SP_OK)
        return 0;
    struct {
        const chk_grp *g;
        void *p;
        size_t n;
    } arr[] = {{&chk_grp_g1, pk->a, nv}, {&chk_grp_g1, pk->b1, nv}, {&chk_grp_g1, pk->c, nv - npub - 1},
               {&chk_grp_g1, pk->h, pk->n_h}, {&chk_grp_g2, pk->b2, nv}};
    for (size_t i = 0; i < sizeof arr / sizeof arr[0]; i++) {
        chk_bases(env, arr[i].g, arr[i].p, arr[i].n, NULL, NULL);
        add_infinity(arr[i].g, arr[i].p, arr[i].n);
    }
    chk_random_points(env, &chk_grp_g1, &pk->vk.alpha1, 1, 0);
    chk_random_points(env, &chk_grp_g1, &pk->vk.beta1, 1, 0);
    chk_random_points(env, &chk_grp_g1, &pk->vk.delta1, 1, 0);
    chk_random_points(env, &chk_grp_g2, &pk->vk.beta2, 1, 0);
    chk_random_points(env, &chk_grp_g2, &pk->vk.gamma2, 1, 0);
    chk_random_points(env, &chk_grp_g2, &pk->vk.delta2, 1, 0);
    for (size_t i = 0; i < nv; i++) {
        unsigned r = (unsigned)(sp_rng_u64(&env->rng) % 10);
        if (i == 0 || r < 4)
            sp_fr_set_u64(&in->w[i], i == 0 || r < 2);
        else
            sp_fr_random(&in->w[i], &env->rng);
    }
    for (size_t i = 0; i < 2 * (size_t)n; i++)
        sp_fr_random(&in->abc[i], &env->rng);
    for (size_t i = 0; i < n; i++)
        sp_fr_mul(&in->abc[2 * (size_t)n + i], &in->abc[i], &in->abc[n + i]);
    sp_fr_random(&in->r, &env->rng);
    sp_fr_random(&in->s, &env->rng);
    return 1;
}

static void proof_inputs_free(proof_in *in)
{
    sp_g16_pk_free(&in->pk);
    sp_ntt_domain_free(in->d);
    free(in->w), free(in->abc);
}

/* A proof on be (NULL: the CPU), the G2 MSM on the backend too; a, b, c
 * ready, or (filled) made by a fill during the backend call. */
static sp_status prove_on(chk_env *env, sp_backend *be, const proof_in *in, int filled, sp_g16_proof *proof,
                          char err[SP_ERR_LEN])
{
    size_t n = in->pk.domain_size;
    sp_fr *abc = malloc(3 * n * sizeof *abc);
    if (!abc)
        return SP_ERR_NOMEM;
    sp_test_fill f = {in->abc, abc, n, in->d, 0, 0, 0};
    sp_g16_prove_opts o = sp_g16_prove_opts_default();
    if (filled) {
        memset(abc, 0xa5, 3 * n * sizeof *abc);
        o.fill = sp_test_fill_copy;
        o.fill_ctx = &f;
    } else {
        memcpy(abc, in->abc, 3 * n * sizeof *abc);
    }
    o.threads = env->threads;
    o.backend = be;
    o.g2_on_backend = 1;
    o.insecure_fixed_r = &in->r;
    o.insecure_fixed_s = &in->s;
    sp_status st = sp_g16_prove(proof, &in->pk, in->w, in->pk.n_vars, abc, abc + n, abc + 2 * n, in->d, &o, err);
    free(abc);
    return st;
}

/* The resident key's host copy released (key_release_host) and wiped:
 * under a cap below any MSM's scratch a proof is the CPU's (every MSM on
 * the device) or fails naming the missing fallback, never a proof made
 * from the wiped copy. The copy is put back after. */
static void released_host_copy(chk_env *env, sp_backend *be, const proof_in *in,
                               const sp_g16_pk_array arr[SP_G16_PK_ARRAYS], const char *label,
                               const sp_g16_proof *want)
{
    char err[SP_ERR_LEN] = "";
    void *saved[SP_G16_PK_ARRAYS] = {0};
    int ok = 1;
    for (int i = 0; i < SP_G16_PK_ARRAYS; i++) {
        CHECKF(be->key_release_host(be, arr[i].p) == 1, "%s: key_release_host of %s", label, arr[i].name);
        ok &= (saved[i] = malloc(arr[i].bytes)) != NULL;
    }
    CHECKF(be->key_release_host(be, in->w) == 0, "%s: key_release_host of an array not attached", label);
    for (int i = 0; ok && i < SP_G16_PK_ARRAYS; i++) {
        memcpy(saved[i], arr[i].p, arr[i].bytes);
        memset((void *)arr[i].p, 0, arr[i].bytes);
    }
    if (ok) {
        sp_backend_cuda_set_mem_limit(be, (size_t)8 << 20);
        sp_g16_proof got;
        sp_status st = prove_on(env, be, in, 0, &got, err);
        CHECKF(st == SP_OK ? !memcmp(&got, want, sizeof got) : st == SP_ERR_NOMEM && strstr(err, "no CPU fallback"),
               "%s, host copy released, capped at 8 MiB: %s %s", label, sp_status_str(st),
               st == SP_OK ? "and a proof unlike the CPU's" : err);
        printf("  %s, host copy released, capped at 8 MiB: %s\n", label, st == SP_OK ? "proved on the device" : err);
        sp_backend_cuda_set_mem_limit(be, 0);
    }
    for (int i = 0; i < SP_G16_PK_ARRAYS; i++) {
        if (ok)
            memcpy((void *)arr[i].p, saved[i], arr[i].bytes);
        free(saved[i]);
    }
}

/* One cuda backend under `cap` (0: none): where the key went (streamed = 1:
 * every array in host memory), the memory reports, and the proof = want. */
static void cuda_proof(chk_env *env, int device, const proof_in *in, size_t cap, int streamed, const char *label,
                       const sp_g16_proof *want)
{
    char err[SP_ERR_LEN] = "";
    sp_backend *be = NULL;
    const sp_g16_pk *pk = &in->pk;
    size_t nv = pk->n_vars, nc = nv - pk->vk.n_public - 1;
    size_t total = (2 * nv + nc + pk->n_h) * sizeof(sp_g1_affine) + nv * sizeof(sp_g2_affine);
    if (!chk_ok(env, sp_backend_cuda_open(&be, device, env->threads, err), label))
        return;
    if (cap)
        sp_backend_cuda_set_mem_limit(be, cap);
    CHECKF(be->key_attach(be, pk, err) == SP_OK, "%s: key_attach: %s", label, err);
    size_t res = 1, str = 1, res_all = 2, str_all = 2, dev_res = 3, dev_free = 0;
    be->key_memory(be, pk, NULL, &res, &str);
    be->key_memory(be, NULL, NULL, &res_all, &str_all);
    be->memory(be, &dev_res, &dev_free);
    /* array by array: each one wholly resident or wholly streamed, as the
     * key is here, and together the key's totals */
    sp_g16_pk_array arr[SP_G16_PK_ARRAYS];
    sp_g16_pk_arrays(pk, arr);
    size_t sum_res = 0, sum_str = 0;
    for (int i = 0; i < SP_G16_PK_ARRAYS; i++) {
        size_t r = 1, s = 1;
        be->key_memory(be, pk, arr[i].p, &r, &s);
        CHECKF(streamed ? r == 0 && s == arr[i].bytes : r == arr[i].bytes && s == 0,
               "%s: array %s: %zu bytes resident, %zu streamed (%zu bytes)", label, arr[i].name, r, s, arr[i].bytes);
        sum_res += r;
        sum_str += s;
    }
    CHECKF(sum_res == res && sum_str == str, "%s: arrays add to %zu/%zu, key %zu/%zu", label, sum_res, sum_str, res,
           str);
    CHECKF(streamed ? res == 0 && str == total : res == total && str == 0,
           "%s: %zu bytes resident, %zu streamed (key %zu bytes)", label, res, str, total);
    /* under a cap, the attach's warm-up (a, b, c, twiddles, MSM scratch) may
     * take all that is left: free is then 0 */
    CHECKF(res_all == res && str_all == str && dev_res == res && (cap ? dev_free <= cap : dev_free > 0),
           "%s: totals %zu/%zu, memory() %zu resident, %zu free (cap %zu)", label, res_all, str_all, dev_res, dev_free,
           cap);
    for (int filled = 0; filled < 2; filled++) {
        sp_g16_proof got;
        memset(&got, 0xa5, sizeof got);
        sp_status st = prove_on(env, be, in, filled, &got, err);
        CHECKF(st == SP_OK && !memcmp(&got, want, sizeof got), "%s%s: proof %s the CPU's: %s %s", label,
               filled ? ", a, b, c by a fill" : "", st == SP_OK ? "differs from" : "failed, not", sp_status_str(st),
               err);
    }
    if (!streamed)
        released_host_copy(env, be, in, arr, label, want);
    be->key_detach(be, pk);
    be->key_memory(be, NULL, NULL, &res_all, &str_all);
    CHECKF(res_all == 0 && str_all == 0, "%s: after key_detach %zu resident, %zu streamed", label, res_all, str_all);
    sp_backend_close(be);
}

static void chk_stream_backend(chk_env *env, int device)
{
    unsigned log_n = env->quick ? 16 : 17;
    /* a, b, c, the twiddles, the fused NTT's scratch vector and the
     * witness (nv = n - 3 values, proof_inputs) */
    size_t n = (size_t)1 << log_n, fixed = 5 * n * sizeof(sp_fr) + (n - 3) * sizeof(sp_fr);
    proof_in in;
    sp_g16_proof want;
    char err[SP_ERR_LEN] = "";
    if (!proof_inputs(env, &in, log_n)) {
        CHECKF(0, "inputs of the streamed-key proof");
        proof_inputs_free(&in);
        return;
    }
    if (!chk_ok(env, prove_on(env, NULL, &in, 0, &want, err), "CPU proof")) {
        proof_inputs_free(&in);
        return;
    }
    /* a cap where G1 MSMs need about 2 chunks and G2 ones about 3 */
    unsigned fl = SP_CUDA_MSM_SPLIT | SP_CUDA_MSM_HOST_BASES | SP_CUDA_MSM_HOST_SCALARS;
    size_t g1 = sp_cuda_msm_stream_bytes(env->cu, 1, n, n / 2, fl), g2 = sp_cuda_msm_stream_bytes(env->cu, 2, n, n / 3, fl);
    size_t cap = SP_CUDA_STREAM_MARGIN + fixed + (g1 > g2 ? g1 : g2);
    CHECKF(sp_cuda_msm_stream_bytes(env->cu, 1, n - 3, 0, fl) > cap - SP_CUDA_STREAM_MARGIN - fixed &&
               sp_cuda_msm_stream_bytes(env->cu, 2, n - 3, 0, fl) > cap - SP_CUDA_STREAM_MARGIN - fixed,
           "a cap of %zu bytes does not force the MSMs of 2^%u into chunks", cap, log_n);
    printf("  streamed key 2^%u: caps %.1f MiB (chunks) and 8 MiB (CPU fallback)\n", log_n, cap / 1048576.0);
    fflush(stdout);
    cuda_proof(env, device, &in, 0, 0, "cuda, no cap", &want);
    cuda_proof(env, device, &in, cap, 1, "cuda, capped: streamed in chunks", &want);
    cuda_proof(env, device, &in, (size_t)8 << 20, 1, "cuda, capped below any chunk", &want);
    proof_inputs_free(&in);
}
