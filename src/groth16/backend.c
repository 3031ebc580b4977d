/* Backend selection and the CPU backend (see backend.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "groth16/backend.h"
#include "ntt/hstep.h"
#include "util/hugemem.h"
#include "util/progress.h"

sp_ntt_roots sp_g16_roots_for(const sp_g16_pk *pk)
{
    return pk->h_kind == SP_G16_H_SNARKJS ? SP_NTT_ROOTS_SNARKJS : SP_NTT_ROOTS_ZKCRYPTO;
}

static int cpu_threads(const sp_backend *be)
{
    return be->threads > 0 ? be->threads : (int)sysconf(_SC_NPROCESSORS_ONLN);
}

static void h_scalars(sp_backend *be, sp_scalar *h, sp_fr *a, sp_fr *b, sp_fr *c, const sp_g16_pk *pk,
                      const sp_ntt_domain *d, const sp_pause *pause)
{
    int nt = cpu_threads(be);
    if (pk->h_kind == SP_G16_H_SNARKJS)
        sp_h_snarkjs(a, a, b, c, d, nt, pause);
    else
        sp_h_bellperson(a, a, b, c, d, nt, pause);
    sp_msm_scalars_from_fr(h, a, pk->n_h);
}

sp_status sp_cpu_h_scalars(sp_backend *be, sp_scalar *h, sp_fr *a, sp_fr *b, sp_fr *c, const sp_g16_pk *pk,
                           const sp_ntt_domain *d, char err[SP_ERR_LEN])
{
    (void)err;
    h_scalars(be, h, a, b, c, pk, d, NULL);
    return SP_OK;
}

static sp_status msm_status(sp_status st, const char *what, char err[SP_ERR_LEN])
{
    if (st != SP_OK)
        snprintf(err, SP_ERR_LEN, "%s MSM failed: %s", what, sp_status_str(st));
    return st;
}

static sp_status msm_g1(sp_backend *be, sp_g1_jac *out, const sp_g1_affine *bases, const sp_scalar *s, size_t n,
                        int split, const sp_pause *pause, char err[SP_ERR_LEN])
{
    sp_msm_config cfg = sp_msm_config_default();
    cfg.threads = be->threads;
    cfg.pause = pause;
    sp_status st = split ? sp_msm_g1_split_var(out, bases, s, n, &cfg) : sp_msm_g1_var(out, bases, s, n, &cfg);
    return msm_status(st, "G1", err);
}

static sp_status msm_g2(sp_backend *be, sp_g2_jac *out, const sp_g2_affine *bases, const sp_scalar *s, size_t n,
                        int split, const sp_pause *pause, char err[SP_ERR_LEN])
{
    sp_msm_config cfg = sp_msm_config_default();
    cfg.threads = be->threads;
    cfg.pause = pause;
    sp_status st = split ? sp_msm_g2_split_var(out, bases, s, n, &cfg) : sp_msm_g2_var(out, bases, s, n, &cfg);
    return msm_status(st, "G2", err);
}

sp_status sp_cpu_msm_g1(sp_backend *be, sp_g1_jac *out, const sp_g1_affine *bases, const sp_scalar *s, size_t n,
                        int split, const sp_pause *pause, char err[SP_ERR_LEN])
{
    return msm_g1(be, out, bases, s, n, split, pause, err);
}

sp_status sp_cpu_msm_g2(sp_backend *be, sp_g2_jac *out, const sp_g2_affine *bases, const sp_scalar *s, size_t n,
                        int split, const sp_pause *pause, char err[SP_ERR_LEN])
{
    return msm_g2(be, out, bases, s, n, split, pause, err);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* Reports a stage that began at t0 (ms) to the hook, when one is set, and
 * its progress units (backend.h); then the proof's pause point. */
static void stage(sp_backend *be, const sp_backend_proof *in, const char *name, double t0, uint64_t units)
{
    if (be->stage_hook)
        be->stage_hook(be->stage_ctx, name, now_ms() - t0);
    sp_progress_add(units);
    sp_pause_point(in->pause);
}

/* The MSMs over the witness scalars ws, in the prover's order. */
static sp_status cpu_witness_msms(sp_backend *be, sp_backend_msms *out, const sp_backend_proof *in,
                                  const sp_scalar *ws, char err[SP_ERR_LEN])
{
    const sp_g16_pk *pk = in->pk;
    size_t nv = pk->n_vars, skip = (size_t)pk->vk.n_public + 1;
    double t0 = now_ms();
    sp_progress_part("MSM A");
    sp_status st = msm_g1(be, &out->a, pk->a, ws, nv, in->split, in->pause, err);
    if (st != SP_OK)
        return st;
    stage(be, in, "msm_a", t0, nv);
    t0 = now_ms();
    sp_progress_part("MSM B1");
    if ((st = msm_g1(be, &out->b1, pk->b1, ws, nv, in->split, in->pause, err)) != SP_OK)
        return st;
    stage(be, in, "msm_b1", t0, nv);
    t0 = now_ms();
    sp_progress_part("MSM C");
    if ((st = msm_g1(be, &out->c, pk->c, ws + skip, nv - skip, in->split, in->pause, err)) != SP_OK)
        return st;
    stage(be, in, "msm_c", t0, nv - skip);
    if (in->g2) {
        t0 = now_ms();
        sp_progress_part("MSM B2 (G2)");
        if ((st = msm_g2(be, &out->b2, pk->b2, ws, nv, in->split, in->pause, err)) != SP_OK)
            return st;
        stage(be, in, "msm_b2", t0, SP_G16_PROGRESS_G2 * (uint64_t)nv);
    }
    return SP_OK;
}

int sp_backend_side_stage(const char *stage)
{
    static const char *const side[] = {"wit_up", "fill", "ab_up"};
    for (size_t i = 0; i < sizeof side / sizeof side[0]; i++)
        if (!strcmp(stage, side[i]))
            return 1;
    return 0;
}

sp_status sp_backend_fill(const sp_backend *be, const sp_backend_proof *in, const sp_ntt_domain **d,
                          char err[SP_ERR_LEN])
{
    const sp_g16_pk *pk = in->pk;
    const sp_ntt_domain *got = in->d;
    if (in->fill) {
        got = NULL;
        sp_status st = in->fill(in->fill_ctx, d ? &got : NULL, err);
        if (st != SP_OK)
            return st;
    }
    if (!d)
        return SP_OK;
    *d = got;
    if (!got || got->n != pk->domain_size || got->roots != sp_g16_roots_for(pk) || pk->n_h > got->n) {
        snprintf(err, SP_ERR_LEN, "%s: domain of size %zu (roots %d) does not match the key (size %u, roots %d)",
                 be->name, got ? got->n : 0, got ? (int)got->roots : -1, pk->domain_size,
                 (int)sp_g16_roots_for(pk));
        return SP_ERR_INVALID_ARG;
    }
    return SP_OK;
}

/* The reference implementation of be->prove: a, b, c made first (with
 * in->fill), the witness and the H scalars converted on the host, the H
 * step and every MSM on the CPU. */
static sp_status cpu_prove(sp_backend *be, sp_backend_msms *out, const sp_backend_proof *in, char err[SP_ERR_LEN])
{
    const sp_g16_pk *pk = in->pk;
    size_t nv = pk->n_vars;
    const sp_ntt_domain *d;
    double t0 = now_ms();
    sp_status st = sp_backend_fill(be, in, &d, err);
    if (st != SP_OK)
        return st;
    if (in->fill)
        stage(be, in, "fill", t0, 0);
    sp_scalar *ws = sp_huge_alloc(nv * sizeof *ws), *hs = sp_huge_alloc(pk->n_h * sizeof *hs);
    st = SP_ERR_NOMEM;
    if (!ws || !hs) {
        snprintf(err, SP_ERR_LEN, "cpu: out of memory for %zu MSM scalars", nv + pk->n_h);
        goto out;
    }
    t0 = now_ms();
    sp_msm_scalars_from_fr_par(ws, in->w, nv, be->threads);
    stage(be, in, "scalars", t0, 0);
    t0 = now_ms();
    sp_progress_part("H step");
    h_scalars(be, hs, in->a, in->b, in->c, pk, d, in->pause);
    stage(be, in, "h", t0, pk->domain_size / 2);
    t0 = now_ms();
    sp_progress_part("MSM H");
    if ((st = msm_g1(be, &out->h, pk->h, hs, pk->n_h, 0, in->pause, err)) != SP_OK)
        goto out;
    stage(be, in, "msm_h", t0, pk->n_h);
    st = cpu_witness_msms(be, out, in, ws, err);
out:
    sp_huge_free(ws);
    sp_huge_free(hs);
    return st;
}

static sp_status cpu_key_attach(sp_backend *be, const sp_g16_pk *pk, char err[SP_ERR_LEN])
{
    return SP_OK; /* host memory is where the CPU reads it */
}

static void cpu_key_detach(sp_backend *be, const sp_g16_pk *pk) {}

static void cpu_memory(sp_backend *be, size_t *resident, size_t *free_bytes)
{
    *resident = 0;
    *free_bytes = 0;
}

static void cpu_destroy(sp_backend *be) { free(be); }

/* The CPU backend under name ("cpu" or "cpu:N"), kept with it. */
static sp_status cpu_open_named(sp_backend **be, const char *name, int threads)
{
    size_t nl = strlen(name) + 1;
    sp_backend *b = calloc(1, sizeof *b + nl);
    *be = b;
    if (!b)
        return SP_ERR_NOMEM;
    memcpy(b + 1, name, nl);
    b->name = (const char *)(b + 1);
    b->threads = threads;
    b->pausable = 1;
    b->host_cores = 1;
    b->prove = cpu_prove;
    b->key_attach = cpu_key_attach;
    b->key_detach = cpu_key_detach;
    b->memory = cpu_memory;
    b->destroy = cpu_destroy;
    return SP_OK;
}

sp_status sp_backend_cpu_open(sp_backend **be, int threads) { return cpu_open_named(be, "cpu", threads); }

/* "cpu" or "cpu:N" with N 0..255 in decimal, no sign, no leading zero. */
static int cpu_name(const char *name)
{
    if (strncmp(name, "cpu", 3))
        return 0;
    if (!name[3])
        return 1;
    const char *n = name + 4;
    size_t k = strspn(n, "0123456789");
    return name[3] == ':' && k >= 1 && k <= 3 && !n[k] && (k == 1 || n[0] != '0') && atoi(n) <= 255;
}

#define MAX_PROVIDERS 8
static const sp_backend_provider *providers_[MAX_PROVIDERS];
static int n_providers_;

void sp_backend_register(const sp_backend_provider *p)
{
    for (int i = 0; i < n_providers_; i++)
        if (!strcmp(providers_[i]->prefix, p->prefix))
            return;
    if (n_providers_ < MAX_PROVIDERS)
        providers_[n_providers_++] = p;
}

/* The provider of name ("prefix" or "prefix:N"), or NULL. */
static const sp_backend_provider *provider_of(const char *name)
{
    for (int i = 0; i < n_providers_; i++) {
        size_t k = strlen(providers_[i]->prefix);
        if (!strncmp(name, providers_[i]->prefix, k) && (name[k] == 0 || name[k] == ':'))
            return providers_[i];
    }
    return NULL;
}

sp_status sp_backend_open(sp_backend **be, const char *name, int threads, char err[SP_ERR_LEN])
{
    *be = NULL;
    if (cpu_name(name))
        return cpu_open_named(be, name, threads);
    if (strcmp(name, "auto") == 0) {
        for (int i = 0; i < n_providers_; i++)
            if (providers_[i]->auto_name && providers_[i]->open(be, providers_[i]->auto_name, threads, err) == SP_OK)
                return SP_OK;
        return sp_backend_cpu_open(be, threads);
    }
    const sp_backend_provider *p = provider_of(name);
    if (p)
        return p->open(be, name, threads, err);
    if (!strncmp(name, "cuda", 4) && (name[4] == 0 || name[4] == ':'))
        snprintf(err, SP_ERR_LEN, "backend '%s': this build has no CUDA backend (build with nvcc present)", name);
    else
        snprintf(err, SP_ERR_LEN, "unknown backend '%s' (expected cpu, cpu:N, auto%s)", name,
                 n_providers_ ? ", or a device backend such as cuda:N" : "");
    return SP_ERR_UNSUPPORTED;
}

int sp_backend_count(const char *prefix)
{
    if (!strcmp(prefix, "cpu"))
        return 1;
    for (int i = 0; i < n_providers_; i++)
        if (!strcmp(providers_[i]->prefix, prefix))
            return providers_[i]->count ? providers_[i]->count() : -1;
    return -1;
}

void sp_backend_close(sp_backend *be)
{
    if (be)
        be->destroy(be);
}

void *sp_backend_host_alloc(sp_backend *be, size_t bytes)
{
    return be && be->host_alloc ? be->host_alloc(be, bytes) : malloc(bytes);
}

void sp_backend_host_free(sp_backend *be, void *p, size_t bytes)
{
    if (be && be->host_free)
        be->host_free(be, p, bytes);
    else
        free(p);
}
