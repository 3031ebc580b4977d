/*
 * NTT and synthesis benchmark: forward NTT 2^16..2^22, the snarkjs and
 * bellperson H steps, and the mat-vec of a generated 2^20-constraint
 * circuit (half of the witness 0/1), on 1 and 2 threads. Times are the
 * median of a few repetitions; inputs are made outside the timed region.
 * "cpu ms" is the process CPU time of the same run: on a shared machine
 * it shows the work done when the wall clock includes waiting for a core.
 * Arguments: [max_log] (default 22) [circuit_log] (default 20).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "ntt/hstep.h"
#include "ntt/ntt.h"
#include "synth/gen.h"
#include "synth/synth.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* One timed repetition: wall and CPU seconds. */
typedef struct {
    double w0, c0;
} tick;

static tick tick_start(void)
{
    tick t = {now_s(), cpu_s()};
    return t;
}

static void tick_stop(tick t, double *wall, double *cpu)
{
    *wall = now_s() - t.w0;
    *cpu = cpu_s() - t.c0;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, cmp_d);
    return t[n / 2];
}

static void die(const char *what, const char *err)
{
    fprintf(stderr, "bench_ntt: %s: %s\n", what, err);
    exit(1);
}

static void fill(sp_fr *a, size_t n, uint64_t seed)
{
    sp_rng rng;
    sp_rng_seed(&rng, seed);
    for (size_t i = 0; i < n; i++)
        sp_fr_random(&a[i], &rng);
}

static void bench_ntt(unsigned max_log)
{
    printf("%-22s %6s %8s %10s %10s %14s\n", "op", "log_n", "threads", "ms", "cpu ms", "Mbutterfly/s");
    for (unsigned k = 16; k <= max_log; k++) {
        size_t n = (size_t)1 << k;
        sp_ntt_domain *d;
        if (sp_ntt_domain_create(&d, k, SP_NTT_ROOTS_SNARKJS, 2) != SP_OK)
            die("domain", "out of memory");
        sp_fr *a = malloc(n * sizeof *a);
        if (!a)
            die("buffer", "out of memory");
        fill(a, n, k);
        for (int th = 1; th <= 2; th++) {
            double t[5], c[5];
            int reps = k <= 19 ? 5 : 3;
            for (int r = 0; r < reps; r++) {
                tick tk = tick_start();
                sp_ntt_forward(d, a, th);
                tick_stop(tk, &t[r], &c[r]);
            }
            double m = median(t, reps);
            printf("%-22s %6u %8d %10.1f %10.1f %14.1f\n", "ntt_forward", k, th, 1e3 * m, 1e3 * median(c, reps),
                   (double)(n / 2) * k / m / 1e6);
        }
        free(a);
        sp_ntt_domain_free(d);
    }
}

static void bench_h(unsigned k)
{
    size_t n = (size_t)1 << k;
    for (int conv = 0; conv < 2; conv++) {
        sp_ntt_domain *d;
        if (sp_ntt_domain_create(&d, k, conv ? SP_NTT_ROOTS_ZKCRYPTO : SP_NTT_ROOTS_SNARKJS, 2) != SP_OK)
            die("domain", "out of memory");
        sp_fr *v = malloc(3 * n * sizeof *v);
        if (!v)
            die("buffer", "out of memory");
        for (int th = 1; th <= 2; th++) {
            double t[3], c[3];
            for (int r = 0; r < 3; r++) {
                fill(v, 3 * n, (uint64_t)r);
                tick tk = tick_start();
                if (conv)
                    sp_h_bellperson(v, v, v + n, v + 2 * n, d, th, NULL);
                else
                    sp_h_snarkjs(v, v, v + n, v + 2 * n, d, th, NULL);
                tick_stop(tk, &t[r], &c[r]);
            }
            printf("%-22s %6u %8d %10.1f %10.1f\n", conv ? "h_bellperson" : "h_snarkjs", k, th, 1e3 * median(t, 3),
                   1e3 * median(c, 3));
        }
        free(v);
        sp_ntt_domain_free(d);
    }
}

static void bench_synth(unsigned k)
{
    char err[SP_ERR_LEN], r1cs[64], wtns[64];
    snprintf(r1cs, sizeof r1cs, "/tmp/sp_bench_%d.r1cs", (int)getpid());
    snprintf(wtns, sizeof wtns, "/tmp/sp_bench_%d.wtns", (int)getpid());
    sp_gen_params p = {.n_constraints = ((uint64_t)1 << k) - 8, .n_public = 4, .bool_fraction = 0.5, .seed = 1};
    sp_gen_stats st;
    double t0 = now_s();
    if (sp_gen_circuit(r1cs, wtns, &p, &st, err) != SP_OK)
        die("gen", err);
    double t_gen = now_s() - t0;
    sp_r1cs cs;
    sp_fr *w;
    size_t nw;
    t0 = now_s();
    if (sp_r1cs_read(&cs, r1cs, err) != SP_OK)
        die("read r1cs", err);
    double t_read = now_s() - t0;
    if (sp_wtns_read(&w, &nw, wtns, err) != SP_OK)
        die("read wtns", err);
    unlink(r1cs);
    unlink(wtns);
    uint64_t nnz = cs.a.nnz + cs.b.nnz + cs.c.nnz;
    printf("\ncircuit 2^%u: %u constraints, nnz A %llu B %llu C %llu; gen %.2f s, read .r1cs %.2f s\n", k,
           cs.h.n_constraints, (unsigned long long)cs.a.nnz, (unsigned long long)cs.b.nnz,
           (unsigned long long)cs.c.nnz, t_gen, t_read);
    unsigned log_n;
    if (sp_synth_domain_log(&log_n, &cs.h, err) != SP_OK)
        die("domain", err);
    size_t n = (size_t)1 << log_n;
    sp_fr *v = malloc(3 * n * sizeof *v);
    if (!v)
        die("buffer", "out of memory");
    printf("%-22s %6s %8s %10s %10s %14s\n", "op", "log_n", "threads", "ms", "cpu ms", "Mnnz/s");
    for (int check = 0; check < 2; check++) {
        for (int th = 1; th <= 2; th++) {
            double t[3], c[3];
            for (int r = 0; r < 3; r++) {
                tick tk = tick_start();
                if (sp_synth_abc(v, v + n, v + 2 * n, n, &cs, w, nw, check, th, NULL, NULL, err) != SP_OK)
                    die("synth", err);
                tick_stop(tk, &t[r], &c[r]);
            }
            double m = median(t, 3);
            uint64_t used = check ? nnz : cs.a.nnz + cs.b.nnz;
            printf("%-22s %6u %8d %10.1f %10.1f %14.1f\n", check ? "synth_abc_check" : "synth_abc", log_n, th,
                   1e3 * m, 1e3 * median(c, 3), (double)used / m / 1e6);
        }
    }
    free(v);
    free(w);
    sp_r1cs_free(&cs);
}

int main(int argc, char **argv)
{
    unsigned max_log = argc > 1 ? (unsigned)atoi(argv[1]) : 22, circ_log = argc > 2 ? (unsigned)atoi(argv[2]) : 20;
    if (max_log < 16 || max_log > SP_NTT_MAX_LOG || circ_log < 4 || circ_log > SP_NTT_MAX_LOG) {
        fprintf(stderr, "usage: bench_ntt [max_log 16..%d] [circuit_log 4..%d]\n", SP_NTT_MAX_LOG, SP_NTT_MAX_LOG);
        return 2;
    }
    printf("field asm: %s\n", sp_field_asm_active() ? "on" : "off");
    bench_ntt(max_log);
    bench_h(16);
    bench_h(20);
    bench_synth(circ_log);
    return 0;
}
