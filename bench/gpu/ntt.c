/* NTT timings: device-resident transforms of every pass structure and
 * multiplication (sp_cuda_set_ntt_impl, sp_cuda_set_mul_impl). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu_bench.h"
#include "ntt/ntt.h"

/* Median time of 7 transforms (alternately forward and inverse) of 2^k
 * elements already on the device; < 0 on failure. */
static double time_ntt(chk_env *env, unsigned k, sp_fr *dev, const sp_fr *host)
{
    sp_cuda_ntt_domain *gd = NULL;
    if (!chk_ok(env, sp_cuda_ntt_domain_create(env->cu, &gd, k, SP_NTT_ROOTS_SNARKJS), "dom") ||
        !chk_ok(env, sp_cuda_copy(env->cu, dev, host, ((size_t)1 << k) * sizeof(sp_fr)), "upload"))
        return -1;
    double t[7];
    int ok = 1;
    for (int rep = 0; rep < 8 && ok; rep++) { /* rep 0 warms up */
        double t0 = chk_now();
        ok = chk_ok(env, sp_cuda_ntt(env->cu, gd, dev, rep & 1), "ntt");
        if (rep)
            t[rep - 1] = chk_now() - t0;
    }
    sp_cuda_ntt_domain_free(env->cu, gd);
    return ok ? bench_median(t, 7) : -1;
}

void bench_ntt(chk_env *env)
{
    static const char *const what[3] = {"Fr NTT, device-resident, PTX mul",
                                        "Fr NTT, device-resident, 64-bit mul",
                                        "Fr NTT, device-resident (even/odd mul)"};
    unsigned max = env->quick && !env->table ? 18 : env->max_ntt; /* --quick: 24 unless --ntt */
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
    static const char *const fused[5] = {"", "Fr NTT, device-resident, fused passes (even/odd mul)",
                                         "Fr NTT, fused, rounds of 3 stages (even/odd mul)",
                                         "Fr NTT, fused, rounds of 2 stages (even/odd mul)",
                                         "Fr NTT, fused, rounds of 3, 8 columns (even/odd mul)"};
    int dflt = sp_cuda_set_mul_impl(env->cu, 2), dflt_ntt = sp_cuda_set_ntt_impl(env->cu, 1);
    for (int f = 1; f < 5; f++) { /* every size for the default and the radix-2 passes */
        sp_cuda_set_ntt_impl(env->cu, f);
        const int all = f == 1 || f == SP_CUDA_NTT_DEFAULT;
        for (unsigned k = all ? 16 : 24; k <= max; k += 2) { /* even/odd */
            double t = time_ntt(env, k, dev, host);
            if (t < 0)
                break;
            char size[16];
            snprintf(size, sizeof size, "2^%u", k);
            bench_table_row(fused[f], size, t * 1e3, "ms",
                    k == 24 ? "sppark 4.75 ms" : k == 26 ? "sppark 23.8 ms; target 18" : "");
        }
    }
    sp_cuda_set_ntt_impl(env->cu, 0);
    static const int order[3] = {2, 1, 0}; /* even/odd, 64-bit, PTX */
    for (int o = 0; o < (env->sweep ? 1 : 3); o++) {
        int impl = order[o];
        sp_cuda_set_mul_impl(env->cu, impl);
        unsigned from = env->table ? 24 : impl == 0 ? 20 : 16;
        for (unsigned k = from; k <= max; k += 2) {
            if (impl == 0 && k > 24)
                break; /* the PTX form is the slowest: not at 2^26 */
            double t = time_ntt(env, k, dev, host);
            if (t < 0)
                break;
            char size[16];
            snprintf(size, sizeof size, "2^%u", k);
            bench_table_row(what[impl], size, t * 1e3, "ms",
                    impl != 2 ? "" : k == 16 ? "sppark 0.04 ms" : k == 18 ? "sppark 0.08 ms"
                               : k == 20 ? "sppark 0.28 ms" : k == 22 ? "sppark 1.14 ms"
                               : k == 24 ? "sppark 4.75 ms" : k == 26 ? "sppark 23.8 ms; target 18"
                               : "");
        }
    }
    sp_cuda_set_mul_impl(env->cu, dflt);
    sp_cuda_set_ntt_impl(env->cu, dflt_ntt);
    sp_cuda_dev_free(env->cu, dev);
    free(host);
    chk_tally();
}
