/*
 * MSM benchmarks (CPU Pippenger, src/msm).
 *
 *   bench_msm                     the table: G1 and G2, n = 2^12 .. 2^20
 *                                 (G2 to 2^18), random and witness-like
 *                                 scalars (70% are 0 or 1), 1 and 2 threads;
 *                                 c is the automatic window (for "split",
 *                                 that of the Pippenger part)
 *   bench_msm sweep G LO HI [CLO CHI [THREADS]]
 *                                 every window CLO..CHI (default 4..16) and
 *                                 both accumulation methods for n = 2^LO ..
 *                                 2^HI in group G (g1 or g2), one thread by
 *                                 default: how the window table of msm.c
 *                                 was measured
 *   bench_msm quick               the table for n = 2^12 and 2^16 only
 *   bench_msm scale G LOG         thread scaling at n = 2^LOG, random
 *                                 scalars: 1, 2, 4, .. up to the online
 *                                 cores, wall clock and speed-up
 *   bench_msm subgroup [THREADS]  subgroup membership of n points (key
 *                                 validation): sp_msm_G_in_subgroup_var
 *                                 against sp_G_in_subgroup one by one, in
 *                                 CPU microseconds a point
 *
 * Times are the best of a few repetitions (the machine is shared); the
 * table shows wall clock and the process CPU time of the same run (with
 * one thread, CPU time is the cost undisturbed by other jobs). Inputs are
 * generated outside the timed region. Points are random subgroup
 * points built as chained sums of a few random multiples of the generator.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "curve/curve.h"
#include "msm/msm.h"

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Wall-clock seconds; the sweep uses process CPU time instead (one thread:
 * much less disturbed by other jobs on a shared machine). */
static int use_cpu_time;

static double now_s(void)
{
    return clock_s(use_cpu_time ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC);
}

static void die_(const char *what)
{
    fprintf(stderr, "bench_msm: %s\n", what);
    exit(2);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        die_("out of memory");
    return p;
}

static void *xpoints(int g, size_t n, sp_rng *rng)
{
    void *p = malloc((n ? n : 1) * (g == 1 ? sizeof(sp_g1_affine) : sizeof(sp_g2_affine)));
    if (p && (g == 1 ? sp_g1_random_batch_var(p, n, rng) : sp_g2_random_batch_var(p, n, rng)) != SP_OK) {
        free(p);
        p = NULL;
    }
    if (!p) {
        fprintf(stderr, "bench_msm: out of memory for %zu points\n", n);
        exit(1);
    }
    return p;
}


/* Best wall-clock time in seconds of `reps` runs of one MSM (CPU time in
 * the sweep); *cpu, when not NULL, gets the process CPU time of that run. */
static double time_msm(int g, int split, const void *bases, const sp_scalar *s, size_t n,
                       const sp_msm_config *cfg, int reps, double *cpu)
{
    double best = 0;
    for (int r = 0; r < reps; r++) {
        sp_g1_jac o1;
        sp_g2_jac o2;
        sp_status st;
        double t0 = now_s(), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
        if (g == 1)
            st = split ? sp_msm_g1_split_var(&o1, bases, s, n, cfg)
                       : sp_msm_g1_var(&o1, bases, s, n, cfg);
        else
            st = split ? sp_msm_g2_split_var(&o2, bases, s, n, cfg)
                       : sp_msm_g2_var(&o2, bases, s, n, cfg);
        double dt = now_s() - t0, dc = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
        if (st != SP_OK)
            die_(sp_status_str(st));
        if (r == 0 || dt < best) {
            best = dt;
            if (cpu)
                *cpu = dc;
        }
    }
    return best;
}

static int reps_for(int g, unsigned lg) { return lg + (g == 2 ? 2 : 0) >= 18 ? 1 : lg >= 16 ? 2 : 3; }

static void table(unsigned max_log)
{
    static const unsigned logs[] = {12, 16, 18, 20};
    sp_rng rng;
    sp_rng_seed(&rng, 42);
    printf("%s\n", SP_CURVE_NAME);
    printf("%-5s %-6s %-9s %-6s %4s %5s %11s %11s %9s\n", "group", "log n", "scalars", "method",
           "thr", "c", "wall ms", "CPU ms", "ns/point");
    for (int g = 1; g <= 2; g++) {
        unsigned top = g == 2 ? 18 : 20;
        top = top < max_log ? top : max_log;
        size_t nmax = (size_t)1 << top;
        void *bases = xpoints(g, nmax, &rng);
        sp_scalar *s = xmalloc(nmax * sizeof *s);
        for (size_t li = 0; li < sizeof logs / sizeof logs[0] && logs[li] <= top; li++) {
            size_t n = (size_t)1 << logs[li];
            for (int kind = 0; kind < 2; kind++) {
                sp_msm_random_scalars(s, n, kind ? 0.7 : 0, &rng);
                for (int split = 0; split <= kind; split++) {
                    for (int thr = 1; thr <= 2; thr++) {
                        sp_msm_config cfg = sp_msm_config_default();
                        cfg.threads = thr;
                        double cpu, t = time_msm(g, split, bases, s, n, &cfg,
                                                 reps_for(g, logs[li]), &cpu);
                        sp_msm_split_stats st = {0, 0, n};
                        if (split && sp_msm_split_count(&st, s, n) != SP_OK)
                            die_("split_count");
                        printf("G%-4d %-6u %-9s %-6s %4d %5d %11.1f %11.1f %9.0f\n", g,
                               logs[li], kind ? "witness70" : "random", split ? "split" : "plain",
                               thr, sp_msm_auto_window(st.others, g), t * 1e3, cpu * 1e3,
                               t * 1e9 / (double)n);
                        fflush(stdout);
                    }
                }
            }
        }
        free(bases);
        free(s);
    }
}

/* Every window and both accumulation methods: the data of the window table. */
static void sweep(int g, unsigned lo, unsigned hi, int clo, int chi, int threads)
{
    sp_rng rng;
    sp_rng_seed(&rng, 7);
    size_t nmax = (size_t)1 << hi;
    void *bases = xpoints(g, nmax, &rng);
    sp_scalar *s = xmalloc(nmax * sizeof *s);
    sp_msm_random_scalars(s, nmax, 0, &rng);
    use_cpu_time = threads == 1;
    printf("G%d sweep, %d thread(s), %s: ms for each window (xyzz / affine)\n", g, threads,
           use_cpu_time ? "CPU time" : "wall clock");
    for (unsigned lg = lo; lg <= hi; lg++) {
        size_t n = (size_t)1 << lg;
        double best = 0;
        int bc = 0, ba = 0;
        printf("log n %2u:", lg);
        for (int c = clo; c <= chi; c++) {
            printf(" c%d", c);
            for (int a = SP_MSM_ACCUM_XYZZ; a <= SP_MSM_ACCUM_AFFINE; a++) {
                sp_msm_config cfg = {c, threads, a, 0, NULL};
                double t = time_msm(g, 0, bases, s, n, &cfg, lg >= 18 ? 1 : lg >= 15 ? 2 : 3, NULL);
                printf("%c%.1f", a == SP_MSM_ACCUM_XYZZ ? ' ' : '/', t * 1e3);
                if (!bc || t < best) {
                    best = t;
                    bc = c;
                    ba = a;
                }
            }
            fflush(stdout);
        }
        printf("\n  * best: c = %d, %s, %.1f ms (auto: c = %d, %s)\n", bc,
               ba == SP_MSM_ACCUM_AFFINE ? "affine" : "xyzz", best * 1e3,
               sp_msm_auto_window(n, g),
               sp_msm_auto_accum(n, g) == SP_MSM_ACCUM_AFFINE ? "affine" : "xyzz");
    }
    free(bases);
    free(s);
}

static void scale(int g, unsigned lg)
{
    sp_rng rng;
    sp_rng_seed(&rng, 9);
    size_t n = (size_t)1 << lg;
    void *bases = xpoints(g, n, &rng);
    sp_scalar *s = xmalloc(n * sizeof *s);
    sp_msm_random_scalars(s, n, 0, &rng);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    printf("G%d, n = 2^%u, random scalars, %ld online cores\n", g, lg, cores);
    printf("%7s %11s %9s\n", "threads", "ms", "speed-up");
    double t1 = 0;
    for (long t = 1; t <= cores; t = t * 2 <= cores || t == cores ? t * 2 : cores) {
        sp_msm_config cfg = sp_msm_config_default();
        cfg.threads = (int)t;
        double dt = time_msm(g, 0, bases, s, n, &cfg, reps_for(g, lg), NULL);
        t1 = t == 1 ? dt : t1;
        printf("%7ld %11.1f %9.2f\n", t, dt * 1e3, t1 / dt);
        fflush(stdout);
    }
    free(bases);
    free(s);
}

/* CPU microseconds a point: the batch test of n points, and the one-by-one
 * test (timed on up to 256 of them). */
static void subgroup_row(int g, unsigned lg, int threads, sp_rng *rng)
{
    size_t n = (size_t)1 << lg, one = n < 256 ? n : 256, bad = 0;
    void *p = xpoints(g, n, rng);
    double best = 0, c0, dc;
    for (int r = 0; r < 3; r++) {
        c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
        if (g == 1)
            sp_msm_g1_in_subgroup_var(&bad, p, n, threads);
        else
            sp_msm_g2_in_subgroup_var(&bad, p, n, threads);
        dc = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
        best = r == 0 || dc < best ? dc : best;
    }
    if (bad != n)
        die_("a subgroup point was refused");
    int ok = 1;
    c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
    for (size_t i = 0; i < one; i++)
        ok &= g == 1 ? sp_g1_in_subgroup(&((sp_g1_affine *)p)[i]) : sp_g2_in_subgroup(&((sp_g2_affine *)p)[i]);
    dc = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
    if (!ok)
        die_("a subgroup point was refused");
    printf("G%d  2^%-4u %12.2f %12.2f %8.1fx\n", g, lg, best / (double)n * 1e6, dc / (double)one * 1e6,
           dc / (double)one / (best / (double)n));
    fflush(stdout);
    free(p);
}

static void subgroup(int threads)
{
    sp_rng rng;
    sp_rng_seed(&rng, 11);
    printf("subgroup membership, %d thread(s), CPU us a point\n", threads);
    printf("%-3s %-6s %12s %12s %9s\n", "", "n", "batch", "one by one", "ratio");
    for (int g = 1; g <= 2; g++)
        for (unsigned lg = 8; lg <= (g == 1 ? 18u : 16u); lg += 2)
            subgroup_row(g, lg, threads, &rng);
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "subgroup")) {
        subgroup(argc >= 3 ? atoi(argv[2]) : 1);
        return 0;
    }
    if (argc >= 4 && !strcmp(argv[1], "scale")) {
        unsigned lg = (unsigned)atoi(argv[3]);
        if (lg < 1 || lg > 26)
            die_("usage: bench_msm scale g1|g2 LOG");
        scale(!strcmp(argv[2], "g2") ? 2 : 1, lg);
        return 0;
    }
    if (argc >= 5 && !strcmp(argv[1], "sweep")) {
        int g = !strcmp(argv[2], "g2") ? 2 : 1;
        unsigned lo = (unsigned)atoi(argv[3]), hi = (unsigned)atoi(argv[4]);
        int clo = argc > 5 ? atoi(argv[5]) : 4, chi = argc > 6 ? atoi(argv[6]) : 16;
        int thr = argc > 7 ? atoi(argv[7]) : 1;
        if (lo < 1 || hi > 26 || lo > hi || clo < 1 || chi > SP_MSM_MAX_WINDOW || clo > chi)
            die_("usage: bench_msm sweep g1|g2 LO HI [CLO CHI [THREADS]]");
        sweep(g, lo, hi, clo, chi, thr);
        return 0;
    }
    table(argc >= 2 && !strcmp(argv[1], "quick") ? 16 : 20);
    return 0;
}
