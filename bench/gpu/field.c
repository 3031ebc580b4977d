/* The modmul throughput of the GPU field code, per multiplication, and
 * the latency of one inversion. */
#include "gpu_bench.h"

void bench_field(chk_env *env)
{
    static const char *const what[10] = {"Fp modmul/s, PTX chains", "Fr modmul/s, PTX chains",
                                         "Fp modmul/s, 64-bit", "Fr modmul/s, 64-bit",
                                         "Fp modmul/s, even/odd", "Fr modmul/s, even/odd",
                                         "Fr modmul/s, NTT even/odd", "Fr modmul/s, NTT even/odd x2",
                                         "Fp2 mul/s, even/odd, Karatsuba",
                                         "Fp2 mul/s, even/odd, sums of products"};
#if SP_CURVE_BN254 /* Fp is 8 words like Fr: the same ceiling */
    static const char *const note[10] = {"ceiling ~66e9/s", "ceiling ~66e9/s", "", "", "ceiling ~66e9/s",
                                         "ceiling ~66e9/s", "", "two chains through one call",
                                         "Fp2 products", "Fp2 products"};
#else
    static const char *const note[10] = {"ceiling ~31e9/s", "ceiling ~66e9/s",
                                         "", "", "ceiling ~31e9/s", "ceiling ~66e9/s",
                                         "r's words 1, 2^32-1 as additions", "two chains through one call",
                                         "Fp2 products", "Fp2 products"};
#endif
    for (int f = 0; f < 10; f++) { /* 64 warps per SM */
        double r = 0;
        if (chk_ok(env, sp_cuda_bench_modmul(env->cu, f, &r), what[f]))
            bench_table_row(what[f], "-", r / 1e9, "1e9/s", note[f]);
    }
    static const char *const inv[2] = {"Fp inversion, Fermat, one thread",
                                       "Fp inversion, binary Euclid, one thread"};
    for (int v = 0; v < 2; v++) { /* ba_top waits for one of these a round */
        double us = 0;
        if (chk_ok(env, sp_cuda_bench_inv(env->cu, v, &us), inv[v]))
            bench_table_row(inv[v], "-", us, "us", v ? "the batch-affine rounds' (ba_top)" : "");
    }
    chk_tally();
}
