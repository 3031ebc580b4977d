/*
 * gpu_check [--quick] [--no-checks] [--no-bench | --witness | --msm-table | --ntt-ba]
 *           [--stream | --only ntt|msm|split] [--g1 LOG] [--g2 LOG] [--ntt LOG] [--device N]
 * gpu_check --curve
 *
 * gpu_check is built for one curve, the build's (gpu/ and the CPU backend
 * it is compared with are compiled with the same constants); --curve
 * prints that curve's name (SP_CURVE_NAME) and exits, with no device.
 *
 * Runs every GPU-vs-CPU equality test (unless --no-checks), then (unless
 * --no-bench) the timing runs, and prints the table last; --witness times
 * only the plain vs split MSMs on witness-like scalars; --msm-table only
 * the modmul rates, the NTT at 2^24 and 2^26 and the MSM variants side by
 * side (G1 2^22, 2^24, 2^26 unless --quick; G2 2^22); --stream only the
 * streamed-MSM and streamed-key checks and rows (gpu/check/stream.c); --only of
 * the checks only the NTT, MSM or split-MSM ones. Timed calls are
 * checked against the oracle too. Exit status 0 only when every check
 * passed.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "check.h"

#define CHK_MAX_ROWS 160

typedef struct {
    char what[72], size[16], unit[16], note[96];
    double value;
} chk_row_t;

unsigned long chk_total_checks, chk_total_failures;

static chk_row_t rows_[CHK_MAX_ROWS];
static int nrows_;

void chk_row(const char *what, const char *size, double value, const char *unit,
             const char *note)
{
    if (nrows_ == CHK_MAX_ROWS)
        return;
    chk_row_t *r = &rows_[nrows_++];
    snprintf(r->what, sizeof r->what, "%s", what);
    snprintf(r->size, sizeof r->size, "%s", size);
    snprintf(r->unit, sizeof r->unit, "%s", unit);
    snprintf(r->note, sizeof r->note, "%s", note ? note : "");
    r->value = value;
}

void chk_print_table(void)
{
    printf("\n| what | size | value | unit | note |\n|---|---|---|---|---|\n");
    for (int i = 0; i < nrows_; i++) {
        const chk_row_t *r = &rows_[i];
        printf("| %s | %s | %.4g | %s | %s |\n", r->what, r->size, r->value, r->unit, r->note);
    }
}

double chk_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

typedef struct {
    void (*fn)(void *, size_t, size_t);
    void *arg;
    size_t lo, hi;
} chk_job;

static void *chk_job_main(void *p)
{
    chk_job *j = p;
    j->fn(j->arg, j->lo, j->hi);
    return NULL;
}

void chk_parallel(size_t n, int threads, void (*fn)(void *arg, size_t lo, size_t hi), void *arg)
{
    if (threads < 1)
        threads = 1;
    if ((size_t)threads > n)
        threads = n ? (int)n : 1;
    pthread_t tid[256];
    chk_job job[256];
    if (threads > 256)
        threads = 256;
    for (int t = 0; t < threads; t++) {
        job[t] = (chk_job){fn, arg, n * t / threads, n * (t + 1) / threads};
        if (t > 0 && pthread_create(&tid[t], NULL, chk_job_main, &job[t]) != 0)
            chk_job_main(&job[t]), tid[t] = 0;
    }
    chk_job_main(&job[0]);
    for (int t = 1; t < threads; t++)
        if (tid[t])
            pthread_join(tid[t], NULL);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double chk_median(double *v, int n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return v[n / 2];
}

void chk_random_scalar(uint64_t out[4], sp_rng *rng)
{
    sp_fr x;
    sp_fr_random(&x, rng);
    sp_fr_to_canonical(out, &x);
}

/* One group of equality checks alone (--only): "ntt", "msm" or "split"
 * (each in a process of its own keeps a fault in one, which leaves the
 * CUDA context unusable, from failing the others); 0 for another name. */
static int run_only(chk_env *env, const char *name, double t0)
{
    if (!strcmp(name, "ntt"))
        chk_ntt(env);
    else if (!strcmp(name, "msm"))
        chk_msm(env);
    else if (!strcmp(name, "split"))
        chk_msm_split(env);
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
}

int main(int argc, char **argv)
{
    chk_env env;
    memset(&env, 0, sizeof env);
    int device = 0, bench = 1, checks = 1; /* bench: 0 none, 1 all, 2 the witness rows */
    int sizes_set = 0; /* --g1 (1), --ntt (2) given: --quick leaves them alone */
    int stream_only = 0; /* --stream */
    const char *only = NULL; /* --only */
    env.max_g1 = 26;
    env.max_g2 = 22;
    env.max_ntt = 26;
    if (argc == 2 && !strcmp(argv[1], "--curve")) {
        printf("%s\n", SP_CURVE_NAME);
        return 0;
    }
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            env.quick = 1;
        else if (!strcmp(argv[i], "--no-bench"))
            bench = 0;
        else if (!strcmp(argv[i], "--witness"))
            bench = 2;
        else if (!strcmp(argv[i], "--msm-table"))
            env.table = 1;
        else if (!strcmp(argv[i], "--ntt-ba"))
            env.sweep = 1;
        else if (!strcmp(argv[i], "--no-checks"))
            checks = 0;
        else if (!strcmp(argv[i], "--stream"))
            stream_only = 1;
        else if (i + 1 < argc && !strcmp(argv[i], "--only"))
            only = argv[++i];
        else if (i + 1 < argc && !strcmp(argv[i], "--g1"))
            env.max_g1 = (unsigned)atoi(argv[++i]), sizes_set |= 1;
        else if (i + 1 < argc && !strcmp(argv[i], "--g2"))
            env.max_g2 = (unsigned)atoi(argv[++i]);
        else if (i + 1 < argc && !strcmp(argv[i], "--ntt"))
            env.max_ntt = (unsigned)atoi(argv[++i]), sizes_set |= 2;
        else if (i + 1 < argc && !strcmp(argv[i], "--device"))
            device = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: %s [--quick] [--no-checks] [--no-bench | --witness | "
                            "--msm-table | --ntt-ba] [--stream | --only ntt|msm|split] [--g1 LOG] [--g2 LOG] [--ntt LOG] "
                            "[--device N]\n"
                            "       %s --curve\n",
                    argv[0], argv[0]);
            return 2;
        }
    }
    if (env.quick && !(sizes_set & 1))
        env.max_g1 = 24;
    if (env.quick && !(sizes_set & 2))
        env.max_ntt = 24;
    env.threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
    sp_test_begin("gpu_check", &env.rng);
    char err[512];
    sp_status st = sp_cuda_create(&env.cu, device, err, sizeof err);
    if (st != SP_OK) {
        printf("gpu_check: no usable CUDA device: %s (%s)\n", sp_status_str(st), err);
        return 1;
    }
    printf("curve: %s; device: %s; host threads: %d\n", SP_CURVE_NAME, sp_cuda_device_info(env.cu), env.threads);
    fflush(stdout);

    double t0 = chk_now();
    if (checks && stream_only) {
        chk_stream(&env, device);
        printf("streamed MSM and key checks done (%.1f s)\n", chk_now() - t0), fflush(stdout);
    } else if (checks && only) {
        if (!run_only(&env, only, t0)) {
            fprintf(stderr, "gpu_check: --only takes ntt, msm or split\n");
            return 2;
        }
    } else if (checks) {
        run_checks(&env, device, t0);
    }
    if (bench && stream_only) {
        bench_stream(&env);
        chk_print_table();
    } else if (bench && env.sweep) {
        bench_ntt(&env);
        bench_msm_acc(&env);
        chk_print_table();
    } else if (bench) {
        if (bench == 1) {
            bench_field(&env);
            bench_ntt(&env);
            if (!env.table)
                bench_setup(&env, device);
            bench_msm(&env);
            if (!env.table)
                bench_stream(&env);
        }
        if (!env.table)
            bench_msm_witness(&env);
        printf("benchmarks done (%.1f s)\n", chk_now() - t0);
        chk_print_table();
    }
    sp_cuda_free(env.cu);
    chk_tally();
    sp_test_checks = chk_total_checks;
    sp_test_failures = chk_total_failures;
    return sp_test_done();
}
