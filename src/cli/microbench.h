/*
 * The micro-benchmark harness of `snarkpipe bench field`
 * (cmd_bench_field.c) and of bench/'s bench_pairing, bench_poseidon and
 * bench_sha_gadget (bench/ sits above src/ and includes it): a table of
 * rows, each `void fn(uint64_t iters)` running a dependent chain of
 * `iters` operations, timed with
 * clock_gettime over enough iterations to last about 2 ms; the best of 41
 * repeats is kept (the machine is shared and noisy, and some 2 ms slice
 * runs undisturbed). Rows are selected by name substrings.
 */
#ifndef SP_CLI_MICROBENCH_H
#define SP_CLI_MICROBENCH_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

typedef struct {
    const char *name;
    void (*fn)(uint64_t iters);
} bench_row;

/* Keeps results alive so the chains are not optimised away. */
static volatile uint64_t sink_;

static inline double bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Best-of-repeats nanoseconds per operation for one row. */
static inline double bench_time_row(void (*fn)(uint64_t))
{
    uint64_t iters = 16;
    for (;;) { /* grow until one run lasts about 2 ms */
        double t0 = bench_now_ns();
        fn(iters);
        double dt = bench_now_ns() - t0;
        if (dt >= 2e6 || iters >= (1ULL << 40))
            break;
        iters = dt < 1e5 ? iters * 16 : (uint64_t)((double)iters * 2.5e6 / dt);
    }
    double best = 0;
    for (int rep = 0; rep < 41; rep++) {
        double t0 = bench_now_ns();
        fn(iters);
        double ns = (bench_now_ns() - t0) / (double)iters;
        if (rep == 0 || ns < best)
            best = ns;
    }
    return best;
}

/* 1 when no filter is given or name contains one of argv[1..argc). */
static inline int bench_selected(const char *name, int argc, char **argv)
{
    if (argc <= 1)
        return 1;
    for (int i = 1; i < argc; i++)
        if (strstr(name, argv[i]))
            return 1;
    return 0;
}

/* Prints one "name  ns/op" line per selected row. */
static inline void bench_run_rows(const bench_row *rows, size_t n, int argc, char **argv)
{
    for (size_t i = 0; i < n; i++) {
        if (!bench_selected(rows[i].name, argc, argv))
            continue;
        printf("%-28s %14.1f\n", rows[i].name, bench_time_row(rows[i].fn));
        fflush(stdout);
    }
}

#endif
