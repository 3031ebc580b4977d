/*
 * Fixed-base scalar multiplication for the development setup: many
 * multiples [k_i]B of one base B (the G1 or G2 generator), each in 32 mixed
 * additions from a table of d * 2^(8j) * B (d < 256, j < 32).
 *
 * Variable time: the table index depends on k. The setup's scalars come
 * from toxic waste, so this is acceptable only because `snarkpipe setup`
 * is a development tool run on the developer's own machine (the CLI says
 * so); a ceremony would use a constant-time lookup.
 */
#ifndef SP_GROTH16_FIXED_BASE_H
#define SP_GROTH16_FIXED_BASE_H

#include <stddef.h>
#include "snarkpipe.h"
#include "curve/curve.h"

/*
 * out[i] = [k[i]] base for i < n, in affine form (infinity as (0, 0)).
 * On input: base on the curve; k in Montgomery form (any value); threads
 *   >= 1. out must not overlap k.
 * Progress (util/progress.h): 1 unit a point in G1, SP_FB_G2_UNITS in G2,
 *   as they are made.
 * Returns SP_OK, or SP_ERR_NOMEM (out untouched or partly written).
 */
#define SP_FB_G2_UNITS 3
sp_status sp_g1_fixed_base_mul_var(sp_g1_affine *out, const sp_g1_affine *base, const sp_fr *k, size_t n,
                                   int threads) SP_WARN_UNUSED;
sp_status sp_g2_fixed_base_mul_var(sp_g2_affine *out, const sp_g2_affine *base, const sp_fr *k, size_t n,
                                   int threads) SP_WARN_UNUSED;

/* The window table both the CPU and the GPU (gpu/curve/fixed_base.cu) use:
 * 32 windows of 8 bits, 255 nonzero digits each. */
#define SP_FB_WINDOWS 32
#define SP_FB_DIGITS 255
#define SP_FB_TABLE_LEN (SP_FB_WINDOWS * SP_FB_DIGITS)

/*
 * On input: base on the curve; table has room for SP_FB_TABLE_LEN points.
 * On output: table[j * SP_FB_DIGITS + d - 1] = [d 2^(8j)] base in affine
 *   form, for j < SP_FB_WINDOWS and 1 <= d <= SP_FB_DIGITS.
 * Returns SP_OK, or SP_ERR_NOMEM (table unspecified).
 */
sp_status sp_g1_fixed_base_table_var(sp_g1_affine *table, const sp_g1_affine *base) SP_WARN_UNUSED;
sp_status sp_g2_fixed_base_table_var(sp_g2_affine *table, const sp_g2_affine *base) SP_WARN_UNUSED;

#endif
