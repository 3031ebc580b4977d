/*
 * Pairing benchmark: ns per operation for the tower and the pairing steps.
 * Each row is a dependent chain, timed by src/cli/microbench.h.
 * Arguments: substrings that select rows by name (none: all rows).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cli/microbench.h"
#include "pairing/pairing.h"

static sp_g1_affine g1_;
static sp_g2_affine g2_;
static sp_g2_prepared g2_prep_;

/* The standard generators of the build's curve (any valid pair times the same). */
static void setup(void)
{
    sp_g1_generator(&g1_);
    sp_g2_generator(&g2_);
    sp_g2_prepare(&g2_prep_, &g2_);
}

static void fp12_operands(sp_fp12 *a, sp_fp12 *b)
{
    sp_rng rng;
    sp_rng_seed(&rng, 3);
    sp_fp12_random(a, &rng);
    sp_fp12_random(b, &rng);
}

static void bench_fp2_mul(uint64_t iters)
{
    sp_fp2 a, b;
    sp_rng rng;
    sp_rng_seed(&rng, 4);
    sp_fp2_random(&a, &rng);
    sp_fp2_random(&b, &rng);
    for (uint64_t i = 0; i < iters; i++)
        sp_fp2_mul(&a, &a, &b);
    sink_ += a.c0.l[0];
}

static void bench_fp2_sqr(uint64_t iters)
{
    sp_fp2 a;
    sp_rng rng;
    sp_rng_seed(&rng, 5);
    sp_fp2_random(&a, &rng);
    for (uint64_t i = 0; i < iters; i++)
        sp_fp2_sqr(&a, &a);
    sink_ += a.c0.l[0];
}

static void bench_fp12_mul(uint64_t iters)
{
    sp_fp12 a, b;
    fp12_operands(&a, &b);
    for (uint64_t i = 0; i < iters; i++)
        sp_fp12_mul(&a, &a, &b);
    sink_ += a.c0.c0.c0.l[0];
}

static void bench_fp12_sqr(uint64_t iters)
{
    sp_fp12 a, b;
    fp12_operands(&a, &b);
    for (uint64_t i = 0; i < iters; i++)
        sp_fp12_sqr(&a, &a);
    sink_ += a.c0.c0.c0.l[0];
}

static void bench_fp12_cyclotomic_sqr(uint64_t iters)
{
    sp_fp12 a, b;
    fp12_operands(&a, &b); /* timing does not depend on membership */
    for (uint64_t i = 0; i < iters; i++)
        sp_fp12_cyclotomic_sqr(&a, &a);
    sink_ += a.c0.c0.c0.l[0];
}

static void bench_fp12_inv(uint64_t iters)
{
    sp_fp12 a, b;
    fp12_operands(&a, &b);
    for (uint64_t i = 0; i < iters; i++)
        sp_fp12_inv(&a, &a);
    sink_ += a.c0.c0.c0.l[0];
}

static void bench_miller_loop(uint64_t iters)
{
    sp_fp12 f;
    for (uint64_t i = 0; i < iters; i++) {
        sp_miller_loop(&f, &g1_, &g2_);
        sink_ += f.c0.c0.c0.l[0];
    }
}

static void bench_miller_loop_prepared(uint64_t iters)
{
    sp_fp12 f;
    for (uint64_t i = 0; i < iters; i++) {
        sp_multi_miller_loop_prepared(&f, &g1_, &g2_prep_, 1);
        sink_ += f.c0.c0.c0.l[0];
    }
}

static void bench_final_exp(uint64_t iters)
{
    sp_fp12 f;
    sp_miller_loop(&f, &g1_, &g2_);
    for (uint64_t i = 0; i < iters; i++)
        sp_final_exp(&f, &f);
    sink_ += f.c0.c0.c0.l[0];
}

static void bench_pairing(uint64_t iters)
{
    sp_fp12 f;
    for (uint64_t i = 0; i < iters; i++) {
        sp_pairing(&f, &g1_, &g2_);
        sink_ += f.c0.c0.c0.l[0];
    }
}

/* The Groth16 verifier's check: 4 pairs, one shared loop, one final exp. */
static void bench_product4(uint64_t iters)
{
    sp_g1_affine p[4] = {g1_, g1_, g1_, g1_};
    sp_g2_affine q[4] = {g2_, g2_, g2_, g2_};
    for (uint64_t i = 0; i < iters; i++)
        sink_ += (uint64_t)sp_pairing_product_is_one(p, q, 4);
}

static void bench_product4_prepared(uint64_t iters)
{
    sp_g1_affine p[4] = {g1_, g1_, g1_, g1_};
    sp_g2_prepared *q = malloc(4 * sizeof *q);
    if (!q)
        return;
    for (int i = 0; i < 4; i++)
        q[i] = g2_prep_;
    for (uint64_t i = 0; i < iters; i++)
        sink_ += (uint64_t)sp_pairing_product_is_one_prepared(p, q, 4);
    free(q);
}

static const bench_row rows_[] = {
    {"fp2_mul", bench_fp2_mul},
    {"fp2_sqr", bench_fp2_sqr},
    {"fp12_mul", bench_fp12_mul},
    {"fp12_sqr", bench_fp12_sqr},
    {"fp12_cyclotomic_sqr", bench_fp12_cyclotomic_sqr},
    {"fp12_inv", bench_fp12_inv},
    {"miller_loop", bench_miller_loop},
    {"miller_loop_prepared", bench_miller_loop_prepared},
    {"final_exp", bench_final_exp},
    {"pairing", bench_pairing},
    {"product_is_one_4", bench_product4},
    {"product_is_one_4_prepared", bench_product4_prepared},
};

int main(int argc, char **argv)
{
    setup();
    printf("%-28s %14s   (%s, field path: %s)\n", "operation", "ns/op", SP_CURVE_NAME,
           sp_field_asm_active() ? "x86-64 adx" : "portable C");
    bench_run_rows(rows_, sizeof rows_ / sizeof rows_[0], argc, argv);
    return 0;
}
