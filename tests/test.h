/*
 * Minimal test harness shared by the test programs. Each program checks
 * with CHECK(...), counts, and ends with sp_test_done(), which prints one
 * "name: N checks, M failed" line and returns the exit status.
 * Random tests take their seed from sp_test_begin(), which prints it
 * (replay with SP_SEED=<seed>).
 */
#ifndef SP_TESTS_TEST_H
#define SP_TESTS_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include "field/consts.h"
#include "util/rng.h"

/* The snarkjs vectors of this build's curve, tests/vectors/<circuit>_<curve>
 * (SP_CURVE_SNARKJS: "bls12381" or "bn128"), and those of the other curve,
 * which every reader must refuse: SP_TEST_VEC_DIR("chain1021") is
 * "chain1021_bn128" in the BN254 build. */
#define SP_TEST_VEC_DIR(circuit) circuit "_" SP_CURVE_SNARKJS
#if SP_CURVE_BN254
#define SP_TEST_VEC_OTHER(circuit) circuit "_bls12381"
#else
#define SP_TEST_VEC_OTHER(circuit) circuit "_bn128"
#endif

static unsigned long sp_test_checks, sp_test_failures;
static const char *sp_test_name = "test";

#define CHECK(cond)                                                                 \
    do {                                                                            \
        sp_test_checks++;                                                           \
        if (!(cond)) {                                                              \
            sp_test_failures++;                                                     \
            if (sp_test_failures <= 20)                                             \
                fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                           \
    } while (0)

/* CHECK with a formatted note on failure. */
#define CHECKF(cond, ...)                                                           \
    do {                                                                            \
        sp_test_checks++;                                                           \
        if (!(cond)) {                                                              \
            sp_test_failures++;                                                     \
            if (sp_test_failures <= 20) {                                           \
                fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
                fprintf(stderr, __VA_ARGS__);                                       \
                fputc('\n', stderr);                                                \
            }                                                                       \
        }                                                                           \
    } while (0)

static inline void sp_test_begin(const char *name, sp_rng *rng)
{
    sp_test_name = name;
    uint64_t seed = sp_rng_test_seed();
    printf("%s: seed %" PRIu64 " (replay: SP_SEED=%" PRIu64 ")\n", name, seed, seed);
    fflush(stdout);
    if (rng)
        sp_rng_seed(rng, seed);
}

/* Iteration count scaled by $SP_TEST_ITERS (default 1) for longer runs. */
static inline int sp_test_iters(int base)
{
    const char *e = getenv("SP_TEST_ITERS");
    int k = e ? atoi(e) : 1;
    return base * (k > 0 ? k : 1);
}

/* Reads a whole file (tests run from the repository root). Returns a new
 * buffer with a NUL after the last byte, or NULL when the file cannot be
 * read; *len is the byte count. */
static inline uint8_t *sp_test_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    if (b) {
        b[n] = 0;
        *len = (size_t)n;
    }
    return b;
}

/* sp_test_slurp for files the test cannot do without: exits when missing. */
static inline uint8_t *sp_test_load(const char *path, size_t *len)
{
    uint8_t *b = sp_test_slurp(path, len);
    if (!b) {
        fprintf(stderr, "cannot read %s (run the tests from the repository root)\n", path);
        exit(1);
    }
    return b;
}

static inline int sp_test_done(void)
{
    printf("%s: %lu checks, %lu failed\n", sp_test_name, sp_test_checks, sp_test_failures);
    return sp_test_failures ? 1 : 0;
}

/* Collects the names of the stages a backend reports through its
 * stage_hook (groth16/backend.h), in order; n counts them all, names keeps
 * the first 16. */
typedef struct {
    char names[16][16];
    int n;
} sp_test_stage_log;

static inline void sp_test_log_stage(void *ctx, const char *stage, double ms)
{
    sp_test_stage_log *l = ctx;
    (void)ms;
    if (l->n < 16)
        snprintf(l->names[l->n], sizeof l->names[0], "%s", stage);
    l->n++;
}

#endif
