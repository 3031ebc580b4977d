/* NTT timings: device-resident transforms in every form (by size, and
 * each forced: sp_cuda_set_ntt_form), forward and inverse apart (the
 * in-place inverse has n more products: 1/n). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu_bench.h"
#include "ntt/ntt.h"

#define NTT_REPS 5 /* timed transforms of each direction */

/* Median times of NTT_REPS forward and NTT_REPS inverse transforms
 * (alternating, after one warm-up) of 2^k elements already on the device;
 * returns 0, or -1 on failure. */
static int time_ntt(chk_env *env, unsigned k, sp_fr *dev, const sp_fr *host, double *fwd,
                    double *inv)
{
    sp_cuda_ntt_domain *gd = NULL;
    if (!chk_ok(env, sp_cuda_ntt_domain_create(env->cu, &gd, k, SP_NTT_ROOTS_SNARKJS), "dom") ||
        !chk_ok(env, sp_cuda_copy(env->cu, dev, host, ((size_t)1 << k) * sizeof(sp_fr)), "upload"))
        return -1;
    double t[2][NTT_REPS];
    int ok = 1;
    for (int rep = 0; rep <= 2 * NTT_REPS && ok; rep++) { /* rep 0 warms up */
        const int inverse = rep & 1;
        double t0 = chk_now();
        ok = chk_ok(env, sp_cuda_ntt(env->cu, gd, dev, inverse), "ntt");
        if (rep)
            t[inverse][(rep - 1) / 2] = chk_now() - t0;
    }
    sp_cuda_ntt_domain_free(env->cu, gd);
    if (!ok)
        return -1;
    *fwd = bench_median(t[0], NTT_REPS);
    *inv = bench_median(t[1], NTT_REPS);
    return 0;
}

/* Rows "what, forward" and "what, inverse" for 2^k; 0, or -1 on failure. */
static int ntt_rows(chk_env *env, const char *what, unsigned k, sp_fr *dev, const sp_fr *host)
{
    double f, i;
    if (time_ntt(env, k, dev, host, &f, &i))
        return -1;
    char size[16], w[96];
    snprintf(size, sizeof size, "2^%u", k);
    snprintf(w, sizeof w, "%s, forward", what);
    bench_table_row(w, size, f * 1e3, "ms", "");
    snprintf(w, sizeof w, "%s, inverse", what);
    bench_table_row(w, size, i * 1e3, "ms", "");
    return 0;
}

void bench_ntt(chk_env *env)
{
    /* --quick: 2^18 unless --ntt; --ntt-table: 2^22.. */
    unsigned max = env->quick && !env->table && !env->ntt_table ? 18 : env->max_ntt;
    size_t n_max = (size_t)1 << max, fill = n_max < ((size_t)1 << 20) ? n_max : (size_t)1 << 20;
    sp_fr *dev = NULL, *host = malloc(n_max * sizeof *host);
    if (!host || !chk_ok(env, sp_cuda_malloc(env->cu, (void **)&dev, n_max * sizeof(sp_fr)),
                         "ntt bench buffer")) {
        free(host);
        chk_tally();
        return;
    }
    for (size_t i = 0; i < fill; i++) /* the time does not depend on the values: tile 2^20 */
        sp_fr_random(&host[i], &env->rng);
    for (size_t i = fill; i < n_max; i += fill)
        memcpy(host + i, host, fill * sizeof *host);
    static const char *const what[4] = {"Fr NTT, by size (default)", "Fr NTT, in place",
                                        "Fr NTT, rounds of two stages", "Fr NTT, column twiddles"};
    static const int order[4] = {SP_CUDA_NTT_BY_SIZE, SP_CUDA_NTT_RADIX4, SP_CUDA_NTT_COLUMNS,
                                 SP_CUDA_NTT_IN_PLACE};
    const int dflt = sp_cuda_set_ntt_form(env->cu, SP_CUDA_NTT_BY_SIZE);
    /* the default alone with --ntt-ba; every form at every size otherwise */
    for (int o = 0; o < (env->sweep ? 1 : 4); o++) {
        sp_cuda_set_ntt_form(env->cu, order[o]);
        const unsigned from = env->ntt_table ? 22 : env->table ? 24 : 16;
        for (unsigned k = from; k <= max; k += 2)
            if (ntt_rows(env, what[order[o]], k, dev, host))
                break;
    }
    sp_cuda_set_ntt_form(env->cu, dflt);
    sp_cuda_dev_free(env->cu, dev);
    free(host);
    chk_tally();
}
