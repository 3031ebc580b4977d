/*
 * Keys larger than the device, timed: G1 MSMs of 2^22 and 2^24 points (as
 * far as --g1 allows) with the bases resident and streamed from pinned
 * host memory (copies included), in 1, 4 and 16 chunks; and the split MSM
 * of a witness (scalars on the device) in G1 and G2 at 2^22 and 2^24 (as
 * far as --g1 / --g2 allow) with the bases resident, copied from memory
 * pinned by sp_cuda_host_register in 4 chunks, and read in place there
 * (gpu/msm/stream.cu; tests/gpu/stream.c checks it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu/sp_cuda_backend.h"
#include "gpu_bench.h"

/* Median ms of 3 calls after a warm-up checked against want; -1 on failure. */
static double time_g1(chk_env *env, const void *b, const sp_scalar *s, size_t n, size_t chunk, int plain,
                      const sp_g1_jac *want, const char *what)
{
    double t[3];
    for (int rep = -1; rep < 3; rep++) {
        sp_g1_jac got;
        memset(&got, 0xa5, sizeof got);
        double t0 = chk_now();
        sp_status st = plain ? sp_cuda_msm_g1(env->cu, &got, b, s, n, 0)
                             : sp_cuda_msm_g1_stream(env->cu, &got, b, s, n, chunk, 0, 0);
        if (rep >= 0)
            t[rep] = chk_now() - t0;
        if (!chk_ok(env, st, what))
            return -1;
        if (rep < 0)
            CHECKF(sp_g1_jac_eq(&got, want), "%s differs from the oracle", what);
    }
    return bench_median(t, 3) * 1e3;
}

static void bench_size(chk_env *env, unsigned k)
{
    size_t n = (size_t)1 << k;
    void *b_pin = NULL, *b_dev = NULL;
    sp_scalar *s_pin = NULL;
    sp_fr b0, d;
    sp_g1_jac want;
    char size[16], what[80], note[96];
    snprintf(size, sizeof size, "2^%u", k);
    if (!chk_ok(env, sp_cuda_host_malloc(env->cu, &b_pin, n * sizeof(sp_g1_affine)), "host_malloc") ||
        !chk_ok(env, sp_cuda_host_malloc(env->cu, (void **)&s_pin, n * sizeof(sp_scalar)), "host_malloc") ||
        !chk_ok(env, sp_cuda_malloc(env->cu, &b_dev, n * sizeof(sp_g1_affine)), "malloc"))
        goto out;
    chk_bases(env, &chk_grp_g1, b_pin, n, &b0, &d);
    for (size_t i = 0; i < n; i++)
        chk_random_scalar(s_pin[i].l, &env->rng);
    chk_oracle(env, &chk_grp_g1, &want, (const uint64_t *)s_pin, n, NULL, &b0, &d, n);
    double t0 = chk_now();
    if (!chk_ok(env, sp_cuda_copy(env->cu, b_dev, b_pin, n * sizeof(sp_g1_affine)), "copy"))
        goto out;
    double ms = (chk_now() - t0) * 1e3;
    snprintf(note, sizeof note, "%.1f GB/s", n * sizeof(sp_g1_affine) / (ms * 1e6));
    bench_table_row("G1 bases, copy pinned host -> device", size, ms, "ms", note);
    ms = time_g1(env, b_dev, s_pin, n, 0, 1, &want, "G1 MSM, bases resident");
    bench_table_row("G1 MSM, bases resident, scalars from pinned host", size, ms, "ms", "");
    static const unsigned parts[3] = {1, 4, 16};
    size_t free0 = 0, total = 0;
    for (int i = 0; i < 3; i++) {
        if (i == 1 && (!chk_ok(env, sp_cuda_scratch_trim(env->cu), "scratch_trim") ||
                       !chk_ok(env, sp_cuda_mem_info(env->cu, &free0, &total), "mem_info")))
            goto out;
        snprintf(what, sizeof what, "G1 MSM, bases streamed from pinned host, %u chunk%s", parts[i],
                 parts[i] > 1 ? "s (copies overlapped)" : " (copy, then compute)");
        ms = time_g1(env, b_pin, s_pin, n, n / parts[i], 0, &want, what);
        bench_table_row(what, size, ms, "ms", "");
        if (i == 1) {
            size_t held = sp_cuda_scratch_bytes(env->cu);
            size_t model = sp_cuda_msm_stream_bytes(env->cu, 1, n, n / 4, SP_CUDA_MSM_HOST_BASES | SP_CUDA_MSM_HOST_SCALARS);
            /* chunks that sum their buckets by batch-affine rounds also take
             * up to half of the memory free at the call (none held: trimmed) */
            size_t rounds = n / 4 >= SP_CUDA_MSM_BATCH_AFFINE_MIN ? free0 / 2 : 0;
            CHECKF(held <= model + rounds,
                   "G1 stream 2^%u in 4 chunks: %zu bytes of scratch, the model says %zu (+ %zu for the rounds)", k,
                   held, model, rounds);
            printf("  G1 stream 2^%u, 4 chunks: scratch %.1f MiB, model %.1f MiB\n", k, held / 1048576.0,
                   model / 1048576.0);
        }
    }
out:
    sp_cuda_host_free(env->cu, b_pin);
    sp_cuda_host_free(env->cu, s_pin);
    sp_cuda_dev_free(env->cu, b_dev);
    fflush(stdout);
}

/* Median ms of 3 split calls (chunk = 0: as the placement allows) after a
 * warm-up checked against want and, with in_place, for reading the bases
 * in place (the profile says so); -1 on failure. */
static double time_split(chk_env *env, const chk_grp *g, const void *b, const sp_scalar *s, size_t n,
                         size_t chunk, int in_place, const void *want, const char *what)
{
    double t[3];
    for (int rep = -1; rep < 3; rep++) {
        unsigned char got[sizeof(sp_g2_jac)];
        memset(got, 0xa5, sizeof got);
        sp_cuda_set_profile(env->cu, rep < 0);
        double t0 = chk_now();
        sp_status st = g->msm_stream(env->cu, got, b, s, n, chunk, 1, 0);
        if (rep >= 0)
            t[rep] = chk_now() - t0;
        if (!chk_ok(env, st, what))
            return -1;
        if (rep < 0) {
            CHECKF(g->eq(got, want), "%s differs from the oracle", what);
            CHECKF(!in_place == !strstr(sp_cuda_profile(env->cu), "read in place"), "%s: profile \"%s\"", what,
                   sp_cuda_profile(env->cu));
        }
    }
    sp_cuda_set_profile(env->cu, 0);
    return bench_median(t, 3) * 1e3;
}

static void bench_split(chk_env *env, const chk_grp *g, unsigned k)
{
    size_t n = (size_t)1 << k, bb = n * g->aff_sz;
    void *b_reg = malloc(bb), *b_dev = NULL, *s_dev = NULL;
    uint64_t *s = malloc(n * sizeof(sp_scalar));
    int registered = 0;
    unsigned char want[sizeof(sp_g2_jac)];
    sp_fr b0, d;
    char size[16], what[96];
    snprintf(size, sizeof size, "2^%u", k);
    if (!b_reg || !s || !chk_ok(env, sp_cuda_malloc(env->cu, &b_dev, bb), "malloc") ||
        !chk_ok(env, sp_cuda_malloc(env->cu, &s_dev, n * sizeof(sp_scalar)), "malloc"))
        goto out;
    chk_bases(env, g, b_reg, n, &b0, &d);
    chk_witness_scalars(env, s, n, W_WITNESS);
    chk_oracle(env, g, want, s, n, NULL, &b0, &d, n);
    if (!chk_ok(env, sp_cuda_copy(env->cu, b_dev, b_reg, bb), "copy") ||
        !chk_ok(env, sp_cuda_copy(env->cu, s_dev, s, n * sizeof(sp_scalar)), "copy") ||
        !chk_ok(env, sp_cuda_host_register(env->cu, b_reg, bb), "host_register"))
        goto out;
    registered = 1;
    static const char *const how[3] = {"resident", "copied from registered host, 4 chunks",
                                       "read in place from registered host"};
    for (int i = 0; i < 3; i++) {
        snprintf(what, sizeof what, "%s split MSM (witness), bases %s", g->name, how[i]);
        double ms = time_split(env, g, i ? b_reg : b_dev, s_dev, n, i == 1 ? n / 4 : 0, i == 2, want, what);
        bench_table_row(what, size, ms, "ms", "");
    }
out:
    if (registered)
        sp_cuda_host_unregister(b_reg);
    sp_cuda_dev_free(env->cu, b_dev);
    sp_cuda_dev_free(env->cu, s_dev);
    free(b_reg);
    free(s);
    fflush(stdout);
}

void bench_stream(chk_env *env)
{
    for (unsigned k = 22; k <= 24; k += 2) {
        if (env->max_g1 >= k) {
            bench_size(env, k);
            bench_split(env, &chk_grp_g1, k);
        }
        if (env->max_g2 >= k)
            bench_split(env, &chk_grp_g2, k);
    }
    chk_tally();
}
