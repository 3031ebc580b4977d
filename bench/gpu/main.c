/*
 * gpu_bench [--quick] [--witness | --msm-table | --ntt-ba | --ntt-table | --stream | --precomp |
 *           --setup]
 *           [--g1 LOG] [--g2 LOG] [--ntt LOG] [--device N] [--no-bench]
 * gpu_bench --curve
 *
 * The GPU timing runs, then their table. Built for one curve, the build's
 * (--curve prints it). --witness times only the plain vs split MSMs on
 * witness-like scalars (and in G2 at 2^24, scalars all 0 or 1, the
 * split's ones by batch-affine rounds against the XYZZ threads);
 * --msm-table only the modmul rates, the NTT at 2^24
 * and 2^26 in every form and the MSM accumulations side by side (G1
 * 2^22, 2^24, 2^26 unless --quick; G2 2^22) and the plain vs
 * precomputed-table MSMs; --ntt-ba the default NTT's rows and the G1
 * accumulations side by side with their phases; --ntt-table only the
 * modmul rates and every NTT form at 2^22, 2^24, .. --ntt (forward and
 * inverse apart); --stream only the rows of G1 MSMs with resident and
 * streamed bases and of split witness MSMs (G1, G2) with bases resident,
 * copied and read in place; --precomp only the modmul rates and the plain vs
 * precomputed-table rows (G1 2^22 to --g1, G2 2^22 to --g2: window, table
 * size, build time, phases; G2 over G1 at each size); --setup only the
 * setups' rows (fixed-base, development setup, the .ptau steps). Every timed call's
 * result is checked (the discrete-log oracle or the CPU): exit status 0
 * only when all were right. "The modmul rates" include the latency of one
 * Fp inversion in one thread (Euclid and Fermat: what the batch-affine
 * rounds wait for once a round).
 * gpu_check's options (--no-checks, --only) are accepted and change
 * nothing here, so that one command line serves both programs
 * (scripts/gpu-check.sh); --no-bench leaves out every timing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu_bench.h"

int main(int argc, char **argv)
{
    chk_env env;
    chk_opts o;
    memset(&env, 0, sizeof env);
    int rc = chk_options(&env, &o, argc, argv,
                         "[--quick] [--witness | --msm-table | --ntt-ba | --ntt-table | --stream | --precomp | --setup] "
                         "[--g1 LOG] [--g2 LOG] [--ntt LOG] [--device N]");
    if (rc == 1)
        printf("%s\n", SP_CURVE_NAME);
    if (rc)
        return rc == 1 ? 0 : rc;
    sp_test_begin("gpu_bench", &env.rng);
    if (chk_open(&env, "gpu_bench", o.device))
        return 1;
    double t0 = chk_now();
    if (o.bench && o.stream) {
        bench_stream(&env);
        bench_table_print();
    } else if (o.bench && o.setup) {
        bench_setup(&env, o.device);
        bench_table_print();
    } else if (o.bench && o.precomp) {
        bench_field(&env); /* the modmul rates the MSMs are made of */
        bench_msm_precomp(&env);
        bench_table_print();
    } else if (o.bench && env.ntt_table) {
        bench_field(&env);
        bench_ntt(&env);
        bench_table_print();
    } else if (o.bench && env.sweep) {
        bench_ntt(&env);
        bench_msm_acc(&env);
        bench_table_print();
    } else if (o.bench) {
        if (!o.witness) {
            bench_field(&env);
            bench_ntt(&env);
            if (!env.table)
                bench_setup(&env, o.device);
            bench_msm(&env);
            if (env.table)
                bench_msm_precomp(&env);
            if (!env.table)
                bench_stream(&env);
        }
        if (!env.table)
            bench_msm_witness(&env);
        printf("benchmarks done (%.1f s)\n", chk_now() - t0);
        bench_table_print();
    }
    sp_cuda_free(env.cu);
    chk_tally();
    sp_test_checks = chk_total_checks;
    sp_test_failures = chk_total_failures;
    return sp_test_done();
}
