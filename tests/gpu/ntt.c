/* NTT: the GPU transform equals the CPU one (src/ntt) for 2^k. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu_check.h"
#include "ntt/ntt.h"

static size_t count_diff(const sp_fr *a, const sp_fr *b, size_t n)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += !sp_fr_eq(&a[i], &b[i]);
    return bad;
}

/* One size and root family: forward and inverse against the CPU. */
static void check_size(chk_env *env, unsigned log_n, sp_ntt_roots roots, sp_fr *dev)
{
    size_t n = (size_t)1 << log_n;
    sp_fr *in = malloc(n * sizeof *in), *want = malloc(n * sizeof *want),
          *got = malloc(n * sizeof *got);
    sp_ntt_domain *cd = NULL;
    sp_cuda_ntt_domain *gd = NULL;
    if (!in || !want || !got) {
        CHECKF(0, "out of host memory (ntt 2^%u)", log_n);
        goto out;
    }
    if (sp_ntt_domain_create(&cd, log_n, roots, env->threads) != SP_OK) {
        CHECKF(0, "CPU ntt domain 2^%u", log_n);
        goto out;
    }
    if (!chk_ok(env, sp_cuda_ntt_domain_create(env->cu, &gd, log_n, (int)roots), "ntt domain"))
        goto out;
    for (size_t i = 0; i < n; i++)
        sp_fr_random(&in[i], &env->rng);
    for (int inverse = 0; inverse < 2; inverse++) {
        memcpy(want, in, n * sizeof *in);
        if (inverse)
            sp_ntt_inverse(cd, want, env->threads);
        else
            sp_ntt_forward(cd, want, env->threads);
        memset(got, 0xa5, n * sizeof *got);
        if (!chk_ok(env, sp_cuda_copy(env->cu, dev, in, n * sizeof *in), "ntt upload") ||
            !chk_ok(env, sp_cuda_ntt(env->cu, gd, dev, inverse), "ntt") ||
            !chk_ok(env, sp_cuda_copy(env->cu, got, dev, n * sizeof *got), "ntt download"))
            goto out;
        size_t bad = count_diff(want, got, n);
        CHECKF(bad == 0, "%s ntt 2^%u (roots %d): %zu of %zu differ from the CPU",
               inverse ? "inverse" : "forward", log_n, (int)roots, bad, n);
    }
out:
    sp_ntt_domain_free(cd);
    sp_cuda_ntt_domain_free(env->cu, gd);
    free(in), free(want), free(got);
}

void chk_ntt(chk_env *env)
{
    /* the passes change shape at 2^10 (two passes) and 2^19 (three), the
     * column twiddles start at 2^12: up to 2^20 for them even with --quick */
    unsigned max = env->quick ? 14 : 20, fmax = 20;
    sp_fr *dev = NULL;
    if (!chk_ok(env, sp_cuda_malloc(env->cu, (void **)&dev, ((size_t)1 << fmax) * sizeof(sp_fr)),
                "ntt buffer")) {
        chk_tally();
        return;
    }
    unsigned long before = sp_test_failures;
    /* by size (the default), in place, rounds of two, column twiddles
     * (every size from max + 1: 2^17 and 2^18 have 9-stage passes of 2
     * columns, 2^16 8-stage ones of 4) */
    const int dflt = sp_cuda_set_ntt_form(env->cu, SP_CUDA_NTT_BY_SIZE);
    for (int form = SP_CUDA_NTT_BY_SIZE; form <= SP_CUDA_NTT_COLUMNS; form++) {
        sp_cuda_set_ntt_form(env->cu, form);
        for (unsigned k = 0; k <= max; k++)
            check_size(env, k, SP_NTT_ROOTS_SNARKJS, dev);
        for (unsigned k = 1; k <= max; k += 3)
            check_size(env, k, SP_NTT_ROOTS_ZKCRYPTO, dev);
        for (unsigned k = max + 1; form != SP_CUDA_NTT_IN_PLACE && k <= fmax;
             k += k < 18 && form != SP_CUDA_NTT_COLUMNS ? 3 : 1)
            check_size(env, k, k & 1 ? SP_NTT_ROOTS_ZKCRYPTO : SP_NTT_ROOTS_SNARKJS, dev);
    }
    sp_cuda_set_ntt_form(env->cu, dflt);
    /* bad input: a host pointer is refused, not dereferenced */
    sp_cuda_ntt_domain *gd = NULL;
    if (chk_ok(env, sp_cuda_ntt_domain_create(env->cu, &gd, 4, SP_NTT_ROOTS_SNARKJS), "domain")) {
        sp_fr host[16];
        CHECK(sp_cuda_ntt(env->cu, gd, host, 0) == SP_ERR_INVALID_ARG);
        sp_cuda_ntt_domain_free(env->cu, gd);
    }
    CHECK(sp_cuda_ntt_domain_create(env->cu, &gd, 29, SP_NTT_ROOTS_SNARKJS) == SP_ERR_INVALID_ARG);
    CHECK(sp_cuda_ntt_domain_create(env->cu, &gd, 4, 3) == SP_ERR_INVALID_ARG);
    printf("  ntt 2^0..2^%u forward and inverse equal to the CPU (snarkjs roots; zkcrypto "
           "every third size; by size, in place, rounds of two and column twiddles; the "
           "passes up to 2^%u): %s\n", max, fmax,
           sp_test_failures == before ? "yes" : "NO");
    sp_cuda_dev_free(env->cu, dev);
    chk_tally();
}
