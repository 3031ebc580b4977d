/*
 * gpu_check [--quick] [--stream | --only field|ntt|msm|split|hstep|backend|ptau] [--device N] [--no-checks]
 * gpu_check --curve
 *
 * Every GPU-vs-CPU equality check (tests/gpu/), in one program built for
 * one curve, the build's (gpu/ and the CPU backend it is compared with are
 * compiled with the same constants); --curve prints that curve's name
 * (SP_CURVE_NAME) and exits, with no device. --stream runs only the
 * streamed-MSM and streamed-key checks (stream.c), --only only the field,
 * NTT, MSM, split-MSM, H-step, backend or .ptau-setup ones (each in a process of its
 * own keeps a fault in one, which leaves the CUDA context unusable, from
 * failing the others).
 * gpu_bench's options (--no-bench, --witness, --msm-table, --ntt-ba, --ntt-table,
 * --precomp, --g1, --g2, --ntt) are accepted and change nothing here, so that one command
 * line serves both programs (scripts/gpu-check.sh). Exit status 0 only
 * when every check passed.
 */
#include <stdio.h>
#include <string.h>
#include "gpu_check.h"

/* One group of equality checks alone (--only): "field", "ntt", "msm",
 * "split", "hstep", "backend" or "ptau"; 0 for another name. */
static int run_only(chk_env *env, const char *name, int device, double t0)
{
    if (!strcmp(name, "backend"))
        chk_backend(env, device);
    else if (!strcmp(name, "field"))
        chk_field(env);
    else if (!strcmp(name, "ntt"))
        chk_ntt(env);
    else if (!strcmp(name, "hstep"))
        chk_hstep(env);
    else if (!strcmp(name, "msm"))
        chk_msm(env);
    else if (!strcmp(name, "split"))
        chk_msm_split(env);
    else if (!strcmp(name, "ptau"))
        chk_ptau(env);
    else
        return 0;
    printf("%s checks done (%.1f s)\n", name, chk_now() - t0), fflush(stdout);
    return 1;
}

/* Every GPU-vs-CPU equality check, with progress lines. */
static void run_checks(chk_env *env, int device, double t0)
{
    chk_field(env);
    printf("field checks done (%.1f s)\n", chk_now() - t0), fflush(stdout);
    chk_ntt(env);
    printf("ntt checks done (%.1f s)\n", chk_now() - t0), fflush(stdout);
    chk_msm(env);
    printf("msm checks done (%.1f s)\n", chk_now() - t0), fflush(stdout);
    chk_msm_split(env);
    printf("split msm checks done (%.1f s)\n", chk_now() - t0), fflush(stdout);
    chk_hstep(env);
    printf("H step checks done (%.1f s)\n", chk_now() - t0), fflush(stdout);
    chk_backend(env, device);
    printf("backend checks done (%.1f s)\n", chk_now() - t0), fflush(stdout);
    chk_stream(env, device);
    printf("streamed MSM and key checks done (%.1f s)\n", chk_now() - t0), fflush(stdout);
    chk_fixed_base(env);
    printf("fixed-base checks done (%.1f s)\n", chk_now() - t0), fflush(stdout);
    chk_ptau(env);
    printf("ptau setup checks done (%.1f s)\n", chk_now() - t0), fflush(stdout);
}

int main(int argc, char **argv)
{
    chk_env env;
    chk_opts o;
    memset(&env, 0, sizeof env);
    int rc = chk_options(&env, &o, argc, argv,
                         "[--quick] [--stream | --only field|ntt|msm|split|hstep|backend|ptau] [--device N]");
    if (rc == 1)
        printf("%s\n", SP_CURVE_NAME);
    if (rc)
        return rc == 1 ? 0 : rc;
    static const char *const groups[7] = {"field", "ntt", "msm", "split", "hstep", "backend", "ptau"};
    int known = 0;
    for (int i = 0; o.only && i < 7; i++)
        known |= !strcmp(o.only, groups[i]);
    if (o.only && !known) {
        fprintf(stderr, "gpu_check: --only takes field, ntt, msm, split, hstep, backend or ptau\n");
        return 2;
    }
    sp_test_begin("gpu_check", &env.rng);
    if (chk_open(&env, "gpu_check", o.device))
        return 1;
    double t0 = chk_now();
    if (o.checks && o.stream) {
        chk_stream(&env, o.device);
        printf("streamed MSM and key checks done (%.1f s)\n", chk_now() - t0), fflush(stdout);
    } else if (o.checks && o.only) {
        run_only(&env, o.only, o.device, t0);
    } else if (o.checks) {
        run_checks(&env, o.device, t0);
    }
    sp_cuda_free(env.cu);
    chk_tally();
    sp_test_checks = chk_total_checks;
    sp_test_failures = chk_total_failures;
    return sp_test_done();
}
