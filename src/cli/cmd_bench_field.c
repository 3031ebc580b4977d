/*
 * `snarkpipe bench field` (cli.h), which bench/bench_field runs too: field
 * micro-benchmarks, plus the curve steps whose speed the field code decides.
 *
 * Each row is a dependent chain (every result feeds the next operation),
 * so the numbers are latencies the compiler cannot hoist or overlap;
 * microbench.h times them (best of 41 runs of about 2 ms each).
 * Arguments: substrings that select rows by name (none: all rows).
 * Rows: field operations, curve steps, one pairing. To add a row, write
 * a `static void bench_xxx(uint64_t iters)` and list it in rows_[].
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "curve/curve.h"
#include "pairing/pairing.h"
#include "field/field.h"
#include "cli/cli.h"
#include "cli/microbench.h"

/* Deterministic, non-trivial operands: reduced values from a fixed seed. */
static void fp_operands(sp_fp *a, sp_fp *b)
{
    sp_rng rng;
    sp_rng_seed(&rng, 1);
    sp_fp_random(a, &rng);
    sp_fp_random(b, &rng);
}

static void fr_operands(sp_fr *a, sp_fr *b)
{
    sp_rng rng;
    sp_rng_seed(&rng, 2);
    sp_fr_random(a, &rng);
    sp_fr_random(b, &rng);
}

static void bench_fp_mul(uint64_t iters)
{
    sp_fp a, b;
    fp_operands(&a, &b);
    for (uint64_t i = 0; i < iters; i++)
        sp_fp_mul(&a, &a, &b);
    sink_ += a.l[0];
}

static void bench_fp_sqr(uint64_t iters)
{
    sp_fp a, b;
    fp_operands(&a, &b);
    for (uint64_t i = 0; i < iters; i++)
        sp_fp_sqr(&a, &a);
    sink_ += a.l[0];
}

static void bench_fp_inv(uint64_t iters)
{
    sp_fp a, b;
    fp_operands(&a, &b);
    for (uint64_t i = 0; i < iters; i++) {
        sp_fp_inv(&a, &a);
        sp_fp_add(&a, &a, &b); /* keeps a away from a fixed point */
    }
    sink_ += a.l[0];
}

static void bench_fp_add(uint64_t iters)
{
    sp_fp a, b;
    fp_operands(&a, &b);
    for (uint64_t i = 0; i < iters; i++)
        sp_fp_add(&a, &a, &b);
    sink_ += a.l[0];
}

static void bench_fp_sub(uint64_t iters)
{
    sp_fp a, b;
    fp_operands(&a, &b);
    for (uint64_t i = 0; i < iters; i++)
        sp_fp_sub(&a, &a, &b);
    sink_ += a.l[0];
}

static void bench_fr_mul(uint64_t iters)
{
    sp_fr a, b;
    fr_operands(&a, &b);
    for (uint64_t i = 0; i < iters; i++)
        sp_fr_mul(&a, &a, &b);
    sink_ += a.l[0];
}

static void bench_fr_sqr(uint64_t iters)
{
    sp_fr a, b;
    fr_operands(&a, &b);
    for (uint64_t i = 0; i < iters; i++)
        sp_fr_sqr(&a, &a);
    sink_ += a.l[0];
}

/* Curve steps: a running sum p (starting at 2G) plus the fixed point G. */
static void g1_operands(sp_g1_jac *p, sp_g1_affine *q)
{
    sp_g1_generator(q);
    sp_g1_jac_from_affine(p, q);
    sp_g1_jac_dbl(p, p);
}

static void g2_operands(sp_g2_jac *p, sp_g2_affine *q)
{
    sp_g2_generator(q);
    sp_g2_jac_from_affine(p, q);
    sp_g2_jac_dbl(p, p);
}

static void bench_g1_add_affine(uint64_t iters)
{
    sp_g1_jac p;
    sp_g1_affine q;
    g1_operands(&p, &q);
    for (uint64_t i = 0; i < iters; i++)
        sp_g1_jac_add_affine_var(&p, &p, &q);
    sink_ += p.x.l[0];
}

static void bench_g1_dbl(uint64_t iters)
{
    sp_g1_jac p;
    sp_g1_affine q;
    g1_operands(&p, &q);
    for (uint64_t i = 0; i < iters; i++)
        sp_g1_jac_dbl(&p, &p);
    sink_ += p.x.l[0];
}

static void bench_g2_add_affine(uint64_t iters)
{
    sp_g2_jac p;
    sp_g2_affine q;
    g2_operands(&p, &q);
    for (uint64_t i = 0; i < iters; i++)
        sp_g2_jac_add_affine_var(&p, &p, &q);
    sink_ += p.x.c0.l[0];
}

static void bench_g2_dbl(uint64_t iters)
{
    sp_g2_jac p;
    sp_g2_affine q;
    g2_operands(&p, &q);
    for (uint64_t i = 0; i < iters; i++)
        sp_g2_jac_dbl(&p, &p);
    sink_ += p.x.c0.l[0];
}

/* One optimal ate pairing of the generators (Miller loop + final
 * exponentiation), the verifier's unit of work. */
static void bench_pairing(uint64_t iters)
{
    sp_g1_affine p;
    sp_g2_affine q;
    sp_fp12 f;
    sp_g1_generator(&p);
    sp_g2_generator(&q);
    for (uint64_t i = 0; i < iters; i++) {
        sp_pairing(&f, &p, &q);
        sink_ += f.c0.c0.c0.l[0];
    }
}


static const bench_row rows_[] = {
    {"fp_mul", bench_fp_mul}, {"fp_sqr", bench_fp_sqr}, {"fp_inv", bench_fp_inv},
    {"fp_add", bench_fp_add}, {"fp_sub", bench_fp_sub}, {"fr_mul", bench_fr_mul},
    {"fr_sqr", bench_fr_sqr},
    {"g1_add_affine", bench_g1_add_affine}, {"g1_dbl", bench_g1_dbl},
    {"g2_add_affine", bench_g2_add_affine}, {"g2_dbl", bench_g2_dbl},
    {"pairing", bench_pairing},
};

int sp_cli_bench_field(int argc, char **argv)
{
    printf("%-28s %14s   (%s, field path: %s)\n", "operation", "ns/op", SP_CURVE_NAME,
           sp_field_asm_active() ? "x86-64 adx" : "portable C");
    bench_run_rows(rows_, sizeof rows_ / sizeof rows_[0], argc, argv);
    return 0;
}
