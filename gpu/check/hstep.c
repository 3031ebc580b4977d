/*
 * The H step and the CUDA backend against the CPU:
 *   - the element-wise kernels (powers of a shift, a*b - c, Montgomery out)
 *     against plain loops of the CPU field code;
 *   - sp_cuda_h_step against src/ntt/hstep.c (sp_h_snarkjs,
 *     sp_h_bellperson) followed by sp_msm_scalars_from_fr, both
 *     conventions, 2^0..2^3 and 2^10..2^20;
 *   - the backend (gpu/backend_cuda.c) with a random key: H scalars and
 *     every MSM equal the CPU backend's, with the key resident and not,
 *     interior base pointers, resident byte count, a refused scalar, and
 *     pinned host memory.
 * Host result buffers are poisoned (0xa5) before each download so that
 * an unwritten element shows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "groth16/backend.h"
#include "ntt/hstep.h"
#include "sp_cuda_backend.h"

static void random_frs(chk_env *env, sp_fr *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        sp_fr_random(&v[i], &env->rng);
}

/* The element-wise kernels on n elements against CPU loops. */
static void check_kernels(chk_env *env, size_t n, sp_fr *dev)
{
    size_t bytes = n * sizeof(sp_fr);
    sp_fr *a = malloc(3 * bytes), *want = malloc(bytes), *got = malloc(bytes);
    if (!a || !want || !got) {
        CHECKF(0, "out of host memory (kernels, n=%zu)", n);
        goto out;
    }
    sp_fr *b = a + n, *c = b + n, shift, scale, p;
    random_frs(env, a, 3 * n);
    sp_fr_random(&shift, &env->rng);
    sp_fr_random(&scale, &env->rng);
    for (int canon = 0; canon < 2; canon++) {
        sp_fr_set_one(&p); /* scale_powers: a[i] * shift^i */
        for (size_t i = 0; i < n; i++) {
            sp_fr_mul(&want[i], &a[i], &p);
            sp_fr_mul(&p, &p, &shift);
        }
        if (canon)
            sp_msm_scalars_from_fr((sp_scalar *)want, want, n);
        memset(got, 0xa5, bytes);
        if (!chk_ok(env, sp_cuda_copy(env->cu, dev, a, bytes), "upload") ||
            !chk_ok(env, sp_cuda_fr_scale_powers(env->cu, dev + n, dev, n, &shift, canon), "scale_powers") ||
            !chk_ok(env, sp_cuda_copy(env->cu, got, dev + n, bytes), "download"))
            goto out;
        CHECKF(!memcmp(want, got, bytes), "scale_powers n=%zu canonical=%d differs from the CPU", n, canon);
        for (int sc = 0; sc < 2; sc++) { /* abc: (a*b - c) * scale, in place over a */
            for (size_t i = 0; i < n; i++) {
                sp_fr_mul(&want[i], &a[i], &b[i]);
                sp_fr_sub(&want[i], &want[i], &c[i]);
                if (sc)
                    sp_fr_mul(&want[i], &want[i], &scale);
            }
            if (canon)
                sp_msm_scalars_from_fr((sp_scalar *)want, want, n);
            memset(got, 0xa5, bytes);
            if (!chk_ok(env, sp_cuda_copy(env->cu, dev, a, 3 * bytes), "upload") ||
                !chk_ok(env, sp_cuda_fr_abc(env->cu, dev, dev, dev + n, dev + 2 * n, n, sc ? &scale : NULL, canon),
                        "abc") ||
                !chk_ok(env, sp_cuda_copy(env->cu, got, dev, bytes), "download"))
                goto out;
            CHECKF(!memcmp(want, got, bytes), "abc n=%zu scale=%d canonical=%d differs from the CPU", n, sc, canon);
        }
    }
    sp_fr host[4];
    CHECK(sp_cuda_fr_scale_powers(env->cu, host, dev, 4, &shift, 0) == SP_ERR_INVALID_ARG);
out:
    free(a), free(want), free(got);
}

/* One size and convention: the device H step equals the CPU one. */
static void check_h(chk_env *env, unsigned log_n, int bellperson, sp_fr *dev)
{
    size_t n = (size_t)1 << log_n, bytes = n * sizeof(sp_fr);
    sp_ntt_roots roots = bellperson ? SP_NTT_ROOTS_ZKCRYPTO : SP_NTT_ROOTS_SNARKJS;
    sp_fr *in = malloc(3 * bytes), *ref = malloc(3 * bytes);
    sp_scalar *want = malloc(n * sizeof *want), *got = malloc(n * sizeof *got);
    sp_ntt_domain *cd = NULL;
    sp_cuda_ntt_domain *gd = NULL;
    if (!in || !ref || !want || !got || sp_ntt_domain_create(&cd, log_n, roots, env->threads) != SP_OK) {
        CHECKF(0, "host memory or CPU domain (H step 2^%u)", log_n);
        goto out;
    }
    if (!chk_ok(env, sp_cuda_ntt_domain_create(env->cu, &gd, log_n, (int)roots), "ntt domain"))
        goto out;
    random_frs(env, in, 3 * n);
    if (bellperson && n > 1) /* c = a*b on D, as from a satisfied circuit: then h[n-1] = 0 */
        for (size_t i = 0; i < n; i++)
            sp_fr_mul(&in[2 * n + i], &in[i], &in[n + i]);
    memcpy(ref, in, 3 * bytes);
    if (bellperson)
        sp_h_bellperson(ref, ref, ref + n, ref + 2 * n, cd, env->threads);
    else
        sp_h_snarkjs(ref, ref, ref + n, ref + 2 * n, cd, env->threads);
    sp_msm_scalars_from_fr(want, ref, n);
    memset(got, 0xa5, n * sizeof *got);
    if (!chk_ok(env, sp_cuda_copy(env->cu, dev, in, 3 * bytes), "H upload") ||
        !chk_ok(env, sp_cuda_h_step(env->cu, (sp_scalar *)dev, dev, dev + n, dev + 2 * n, gd, cd, bellperson),
                "H step") ||
        !chk_ok(env, sp_cuda_copy(env->cu, got, dev, n * sizeof *got), "H download"))
        goto out;
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += memcmp(&want[i], &got[i], sizeof want[i]) != 0;
    CHECKF(bad == 0, "H step %s 2^%u: %zu of %zu scalars differ from the CPU", bellperson ? "bellperson" : "snarkjs",
           log_n, bad, n);
    if (bellperson && n > 1) {
        static const sp_scalar zero;
        CHECKF(!memcmp(&got[n - 1], &zero, sizeof zero), "H step bellperson 2^%u: h[n-1] != 0", log_n);
    }
out:
    sp_ntt_domain_free(cd);
    sp_cuda_ntt_domain_free(env->cu, gd);
    free(in), free(ref), free(want), free(got);
}

void chk_hstep(chk_env *env)
{
    unsigned max = env->quick ? 14 : 20;
    static const size_t sizes[] = {1, 2, 3, 255, 256, 1000, 4096, 4097, 100000};
    size_t cap = (size_t)1 << max; /* elements of each of a, b, c: the H sizes and the kernel sizes */
    if (cap < sizes[sizeof sizes / sizeof sizes[0] - 1])
        cap = sizes[sizeof sizes / sizeof sizes[0] - 1];
    sp_fr *dev = NULL;
    if (!chk_ok(env, sp_cuda_malloc(env->cu, (void **)&dev, 3 * cap * sizeof(sp_fr)), "H buffer")) {
        chk_tally();
        return;
    }
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        check_kernels(env, sizes[i], dev);
    for (int bp = 0; bp < 2; bp++)
        for (unsigned k = 0; k <= max; k = k == 3 ? 10 : k + 1)
            check_h(env, k, bp, dev);
    sp_cuda_dev_free(env->cu, dev);
    chk_tally();
}

/* ---- the backend ---- */

/* out[i] = [random]G for i < n, with every 7th point at infinity. */
#define RANDOM_POINTS(G)                                                                  \
    static void random_##G(chk_env *env, sp_##G##_affine *out, size_t n)                  \
    {                                                                                     \
        sp_##G##_affine g;                                                                \
        sp_##G##_jac gj, t;                                                               \
        sp_##G##_generator(&g);                                                           \
        sp_##G##_jac_from_affine(&gj, &g);                                                \
        for (size_t i = 0; i < n; i++) {                                                  \
            uint64_t k[4];                                                                \
            chk_random_scalar(k, &env->rng);                                              \
            sp_##G##_mul_var(&t, &gj, k, 4);                                              \
            if (i % 7 == 3)                                                               \
                memset(&out[i], 0, sizeof out[i]);                                        \
            else                                                                          \
                sp_##G##_jac_to_affine(&out[i], &t);                                      \
        }                                                                                 \
    }
RANDOM_POINTS(g1)
RANDOM_POINTS(g2)

/* Every G1 MSM of the prover on be against the CPU backend. */
static void compare_msms(chk_env *env, sp_backend *be, sp_backend *cpu, const sp_g16_pk *pk, const sp_scalar *s,
                         const char *label)
{
    char err[SP_ERR_LEN] = "";
    size_t nv = pk->n_vars, nc = nv - pk->vk.n_public - 1;
    const struct {
        const sp_g1_affine *p;
        size_t n;
    } g1[] = {{pk->a, nv}, {pk->b1, nv}, {pk->c, nc}, {pk->h, pk->n_h}, {pk->a + 5, nv - 9}, {pk->h, 0}};
    for (size_t i = 0; i < sizeof g1 / sizeof g1[0]; i++) {
        sp_g1_jac want, got;
        memset(&got, 0xa5, sizeof got);
        CHECKF(sp_cpu_msm_g1(cpu, &want, g1[i].p, s, g1[i].n, 1, err) == SP_OK, "CPU G1 MSM: %s", err);
        sp_status st = be->msm_g1(be, &got, g1[i].p, s, g1[i].n, 1, err);
        CHECKF(st == SP_OK && sp_g1_jac_eq(&want, &got), "%s: G1 MSM %zu (n=%zu): %s %s", label, i, g1[i].n,
               sp_status_str(st), err);
    }
    sp_g2_jac want2, got2;
    memset(&got2, 0xa5, sizeof got2);
    CHECKF(sp_cpu_msm_g2(cpu, &want2, pk->b2, s, nv, 1, err) == SP_OK, "CPU G2 MSM: %s", err);
    sp_status st = be->msm_g2(be, &got2, pk->b2, s, nv, 1, err);
    CHECKF(st == SP_OK && sp_g2_jac_eq(&want2, &got2), "%s: G2 MSM: %s %s", label, sp_status_str(st), err);
}

/* H scalars of be against the CPU backend for pk's convention. */
static void compare_h(chk_env *env, sp_backend *be, sp_backend *cpu, const sp_g16_pk *pk)
{
    char err[SP_ERR_LEN] = "";
    size_t n = pk->domain_size;
    sp_ntt_domain *d = NULL;
    sp_fr *abc = malloc(6 * n * sizeof *abc);
    sp_scalar *want = malloc(n * sizeof *want), *got = malloc(n * sizeof *got);
    if (!abc || !want || !got || sp_ntt_domain_create(&d, pk->log2_domain,
                                                      pk->h_kind == SP_G16_H_SNARKJS ? SP_NTT_ROOTS_SNARKJS
                                                                                     : SP_NTT_ROOTS_ZKCRYPTO,
                                                      env->threads) != SP_OK) {
        CHECKF(0, "host memory or domain (backend H)");
        goto out;
    }
    random_frs(env, abc, 3 * n);
    memcpy(abc + 3 * n, abc, 3 * n * sizeof *abc);
    memset(got, 0xa5, n * sizeof *got);
    CHECKF(sp_cpu_h_scalars(cpu, want, abc, abc + n, abc + 2 * n, pk, d, err) == SP_OK, "CPU H: %s", err);
    sp_status st = be->h_scalars(be, got, abc + 3 * n, abc + 4 * n, abc + 5 * n, pk, d, err);
    CHECKF(st == SP_OK && !memcmp(want, got, pk->n_h * sizeof *got), "backend H scalars (kind %d): %s %s",
           (int)pk->h_kind, sp_status_str(st), err);
out:
    sp_ntt_domain_free(d);
    free(abc), free(want), free(got);
}

static void stage_count(void *ctx, const char *stage, double ms) { ++*(int *)ctx; }

/* A random key of nv wires on 2^log_n, checked resident and not. */
static void check_backend_key(chk_env *env, sp_backend *be, sp_backend *cpu, sp_g16_h_kind kind)
{
    const uint32_t nv = 300, npub = 2, log_n = 9;
    char err[SP_ERR_LEN] = "";
    sp_g16_pk pk;
    if (sp_g16_pk_alloc(&pk, nv, npub, 1u << log_n, kind) != SP_OK) {
        CHECKF(0, "key allocation");
        return;
    }
    random_g1(env, pk.a, nv);
    random_g1(env, pk.b1, nv);
    random_g1(env, pk.c, nv - npub - 1);
    random_g1(env, pk.h, pk.n_h);
    random_g2(env, pk.b2, nv);
    size_t ns = nv > pk.n_h ? nv : pk.n_h;
    sp_scalar *s = malloc(ns * sizeof *s);
    if (!s) {
        CHECKF(0, "host memory for scalars");
        sp_g16_pk_free(&pk);
        return;
    }
    for (size_t i = 0; i < ns; i++) { /* mostly random, some 0 and 1 (witness-like) */
        memset(&s[i], 0, sizeof s[i]);
        if (i % 5 == 1)
            s[i].l[0] = 1;
        else if (i % 5 != 2)
            chk_random_scalar(s[i].l, &env->rng);
    }
    size_t res = 1, fr = 0;
    compare_msms(env, be, cpu, &pk, s, "not resident");
    CHECKF(be->key_attach(be, &pk, err) == SP_OK, "key_attach: %s", err);
    be->memory(be, &res, &fr);
    size_t want = (2 * nv + (nv - npub - 1) + pk.n_h) * sizeof(sp_g1_affine) + nv * sizeof(sp_g2_affine);
    CHECKF(res == want && fr > 0, "resident %zu bytes (want %zu), free %zu", res, want, fr);
    compare_msms(env, be, cpu, &pk, s, "resident");
    int stages = 0;
    be->stage_hook = stage_count;
    be->stage_ctx = &stages;
    compare_h(env, be, cpu, &pk);
    be->stage_hook = NULL;
    CHECKF(stages == 3, "H step reported %d stages (want copy_abc, h_ntt, copy_h)", stages);
    s[7].l[3] = ~0ull; /* >= r: refused, with the backend's name in the message */
    sp_g1_jac j;
    err[0] = 0;
    CHECK(be->msm_g1(be, &j, pk.a, s, nv, 0, err) == SP_ERR_NOT_CANONICAL && strstr(err, "cuda:"));
    be->key_detach(be, &pk);
    be->memory(be, &res, &fr);
    CHECKF(res == 0, "after key_detach %zu bytes resident", res);
    free(s);
    sp_g16_pk_free(&pk);
}

void chk_backend(chk_env *env, int device)
{
    char err[SP_ERR_LEN] = "";
    sp_backend *be = NULL, *cpu = NULL;
    sp_status st = sp_backend_cuda_open(&be, device, env->threads, err);
    CHECKF(st == SP_OK, "sp_backend_cuda_open(%d): %s", device, err);
    if (st != SP_OK || sp_backend_cpu_open(&cpu, env->threads) != SP_OK) {
        sp_backend_close(be);
        chk_tally();
        return;
    }
    check_backend_key(env, be, cpu, SP_G16_H_SNARKJS);
    check_backend_key(env, be, cpu, SP_G16_H_BELLPERSON);
    size_t bytes = (size_t)1 << 24; /* pinned memory: usable as MSM input, freed by host_free */
    unsigned char *p = be->host_alloc(be, bytes);
    CHECK(p != NULL);
    if (p) {
        memset(p, 0x5a, bytes);
        CHECK(p[bytes - 1] == 0x5a);
        be->host_free(be, p, bytes);
    }
    sp_backend *bad = NULL;
    CHECK(sp_backend_cuda_open(&bad, 999, 1, err) == SP_ERR_GPU && bad == NULL && strstr(err, "cuda:999"));
    sp_backend_close(cpu);
    sp_backend_close(be);
    chk_tally();
}
