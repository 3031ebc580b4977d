/* NTT timings: device-resident transforms of every pass structure and
 * multiplication (sp_cuda_set_ntt_impl, sp_cuda_set_mul_impl), forward and
 * inverse apart (the inverse of impl 1..4 and 0 has n more products: 1/n). */
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

static const char *sppark_note(unsigned k)
{
    return k == 16 ? "sppark 0.04 ms" : k == 18 ? "sppark 0.08 ms" : k == 20 ? "sppark 0.28 ms"
           : k == 22 ? "sppark 1.14 ms" : k == 24 ? "sppark 5.00 ms (ntt2 call 2)"
           : k == 26 ? "sppark 24.83 ms (ntt2 call 2); target 18" : "";
}

/* Rows "what, forward" and "what, inverse" for 2^k; 0, or -1 on failure. */
static int ntt_rows(chk_env *env, const char *what, unsigned k, sp_fr *dev, const sp_fr *host,
                    int note)
{
    double f, i;
    if (time_ntt(env, k, dev, host, &f, &i))
        return -1;
    char size[16], w[96];
    snprintf(size, sizeof size, "2^%u", k);
    snprintf(w, sizeof w, "%s, forward", what);
    bench_table_row(w, size, f * 1e3, "ms", note ? sppark_note(k) : "");
    snprintf(w, sizeof w, "%s, inverse", what);
    bench_table_row(w, size, i * 1e3, "ms", "");
    return 0;
}

void bench_ntt(chk_env *env)
{
    static const char *const what[3] = {"Fr NTT 0, ntt.cu, PTX mul", "Fr NTT 0, ntt.cu, 64-bit mul",
                                        "Fr NTT 0, ntt.cu (even/odd mul)"};
    /* --quick: 2^24 unless --ntt; --ntt-table: 2^22.. */
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
    static const char *const fused[17] = {
        "", "Fr NTT 1, fused passes (even/odd mul)", "Fr NTT 2, fused, rounds of 3 stages",
        "Fr NTT 3, fused, rounds of 2 stages", "Fr NTT 4, fused, rounds of 3, 8 columns",
        "Fr NTT 5, column twiddles, products in pairs", "Fr NTT 6, column twiddles, one by one",
        "Fr NTT 7, column twiddles, pairs, 3 blocks/SM", "Fr NTT 8, column twiddles, lean, 32 warps/SM",
        "", "Fr NTT 10, as 8, two barriers per pass", "",
        "Fr NTT 12, as 8, 3 blocks/SM (40 registers)", "Fr NTT 13, as 10, positions derived",
        "Fr NTT 14, as 13, 3 blocks/SM (40 registers)",
        "Fr NTT 15, as 13, 256 threads (9 stages: 2 columns)",
        "Fr NTT 16, as 13, 128 threads (8 stages: 2 columns, 9: 1)"};
    int dflt = sp_cuda_set_mul_impl(env->cu, 2), dflt_ntt = sp_cuda_set_ntt_impl(env->cu, 1);
    /* every size for 1, 3 and ntt_fs.cu's passes; 9 and 11 (by size) are 3 or 8, 3 or 15 */
    for (int f = 1; f < 17; f++) {
        if (f == 9 || f == 11 || (env->ntt_impl >= 0 && f != env->ntt_impl))
            continue;
        sp_cuda_set_ntt_impl(env->cu, f);
        const int all = f == 1 || f == 3 || f >= 5;
        const unsigned from = env->ntt_table ? 22 : all ? 16 : 24;
        for (unsigned k = from; k <= max; k += 2) /* even/odd */
            if (ntt_rows(env, fused[f], k, dev, host, f == 15))
                break;
    }
    sp_cuda_set_ntt_impl(env->cu, 0);
    static const int order[3] = {2, 1, 0}; /* even/odd, 64-bit, PTX */
    for (int o = 0; o < (env->sweep || env->ntt_table ? 1 : 3) && env->ntt_impl <= 0; o++) {
        int impl = order[o];
        sp_cuda_set_mul_impl(env->cu, impl);
        unsigned from = env->table || env->ntt_table ? 24 : impl == 0 ? 20 : 16;
        for (unsigned k = from; k <= max; k += 2) {
            if (impl == 0 && k > 24)
                break; /* the PTX form is the slowest: not at 2^26 */
            if (ntt_rows(env, what[impl], k, dev, host, 0))
                break;
        }
    }
    sp_cuda_set_mul_impl(env->cu, dflt);
    sp_cuda_set_ntt_impl(env->cu, dflt_ntt);
    sp_cuda_dev_free(env->cu, dev);
    free(host);
    chk_tally();
}
