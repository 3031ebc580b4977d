/*
 * Fixed-base multiplication on the GPU (gpu/fixed_base.cu) against the
 * CPU functions (src/groth16/fixed_base.h), byte for byte: random
 * scalars with 0, 1, r - 1 and single-byte scalars placed at the ends and
 * at chunk boundaries; sizes 0, 1, 2, 3, 1000, 2^16 and one past the
 * chunk size (several chunks, both staging buffers); host and device
 * inputs and outputs; output poisoned first and one guard point after the
 * end that must stay poisoned.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu/sp_cuda_backend.h"
#include "gpu_check.h"

/* One size: where = 0 host in and out, 1 device k, 2 device out, 3 both. */
static void fb_case(chk_env *env, const chk_fb_grp *g, size_t n, int where)
{
    size_t asz = g->aff_sz, cap = n + 1;
    sp_fr *k = malloc(cap * sizeof(sp_fr));
    unsigned char *want = malloc(cap * asz), *got = malloc(cap * asz);
    void *dk = NULL, *dout = NULL;
    char what[96];
    snprintf(what, sizeof what, "%s fixed-base n=%zu (%s k, %s out)", g->name, n, where & 1 ? "device" : "host",
             where & 2 ? "device" : "host");
    if (!k || !want || !got) {
        CHECKF(0, "%s: out of host memory", what);
        goto out;
    }
    chk_fb_scalars(env, k, n, g->chunk);
    memset(want, 0xa5, cap * asz);
    memset(got, 0xa5, cap * asz);
    CHECKF(g->cpu(want, k, n, env->threads) == SP_OK, "%s: CPU reference failed", what);
    if (((where & 1) && !chk_ok(env, sp_cuda_malloc(env->cu, &dk, cap * sizeof(sp_fr)), "malloc")) ||
        ((where & 1) && !chk_ok(env, sp_cuda_copy(env->cu, dk, k, n * sizeof(sp_fr)), "copy")) ||
        ((where & 2) && !chk_ok(env, sp_cuda_malloc(env->cu, &dout, cap * asz), "malloc")) ||
        ((where & 2) && !chk_ok(env, sp_cuda_copy(env->cu, dout, got, cap * asz), "copy"))) /* poisoned */
        goto out;
    if (!chk_ok(env, g->gpu(env->cu, dout ? dout : got, dk ? dk : k, n, env->threads), what))
        goto out;
    if (dout && !chk_ok(env, sp_cuda_copy(env->cu, got, dout, cap * asz), "copy back"))
        goto out;
    size_t bad = n;
    for (size_t i = 0; i < n && bad == n; i++)
        if (memcmp(got + i * asz, want + i * asz, asz))
            bad = i;
    CHECKF(bad == n, "%s: point %zu differs from the CPU's", what, bad);
    CHECKF(memcmp(got + n * asz, want + n * asz, asz) == 0, "%s: wrote past the end", what);
out:
    sp_cuda_dev_free(env->cu, dk);
    sp_cuda_dev_free(env->cu, dout);
    free(k), free(want), free(got);
}

/* The CPU and GPU agree with plain scalar multiplication on the edges. */
static void fb_edges_known(chk_env *env)
{
    sp_fr k[3];
    sp_g1_affine out[3], g;
    sp_g1_generator(&g);
    sp_fr_set_zero(&k[0]);
    sp_fr_set_one(&k[1]);
    sp_fr_neg(&k[2], &k[1]);
    if (!chk_ok(env, sp_cuda_fixed_base_g1(env->cu, out, &g, k, 3, 1), "g1 fixed-base edges"))
        return;
    sp_g1_affine neg;
    sp_g1_affine_neg(&neg, &g);
    CHECK(sp_g1_affine_is_inf(&out[0]));
    CHECK(sp_g1_affine_eq(&out[1], &g));
    CHECK(sp_g1_affine_eq(&out[2], &neg)); /* [r - 1] G = -G */
}

void chk_fixed_base(chk_env *env)
{
    static const size_t sizes[] = {0, 1, 2, 3, 1000, (size_t)1 << 16};
    const chk_fb_grp *grp[2] = {&chk_fb_g1, &chk_fb_g2};
    fb_edges_known(env);
    for (int gi = 0; gi < 2; gi++) {
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            fb_case(env, grp[gi], sizes[s], 0);
        for (int where = 1; where < 4; where++)
            fb_case(env, grp[gi], 1000, where);
        fb_case(env, grp[gi], grp[gi]->chunk + 7, 0); /* two chunks, both staging buffers */
        fb_case(env, grp[gi], 2 * grp[gi]->chunk + 5, 3);
        if (!env->quick)
            fb_case(env, grp[gi], 3 * grp[gi]->chunk + 1, 0);
    }
    chk_tally();
}
