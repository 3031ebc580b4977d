/*
 * The field micro-benchmarks (bench/field.c), run by bench/bench_field and
 * by `snarkpipe bench field` (src/cli/cli.h declares the same function).
 */
#ifndef SP_BENCH_FIELD_H
#define SP_BENCH_FIELD_H

/* Runs the rows whose names contain one of argv[1..argc) (all without a
 * filter) and prints the table; returns 0. */
int sp_bench_field(int argc, char **argv);

#endif
