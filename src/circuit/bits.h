/*
 * Boolean gadgets on the sp_cs API, and packing bits into field elements.
 *
 * A bit (sp_bit) is one of three things, as in bellman's Boolean:
 *   SP_BIT_IS    a variable var (booleanity enforced where it was made);
 *   SP_BIT_NOT   the negation 1 - var of a variable: free, no constraint;
 *   SP_BIT_CONST a constant known when the circuit is built (padding, IVs,
 *                round constants): no variable at all.
 * Every gadget folds constants and negations the way bellman/bellperson
 * do (xor with a constant is a copy or a negation, and with 0 is 0, ...),
 * so circuits built here have bellman's constraint counts. val always
 * holds the bit's value (for SP_BIT_NOT: 1 - the variable's value), in
 * every mode, so witness values are computed natively, never from field
 * arithmetic.
 *
 * Booleanity is enforced as b * b = b (a, b, c of that row all equal the
 * bit, so they are 0/1 values).
 *
 * Constraint costs (variable inputs; constants cost less or nothing):
 *   alloc 1; and, and_not, nor, or, xor, xnor, select 1; not 0;
 *   ch 1; maj 2 (1 is impossible: maj is a degree-3 function of its
 *   inputs and one constraint makes a degree-2 one, so it takes b AND c
 *   first, as bellman does); enforce_eq 1.
 *
 * A field element in the circuit (sp_num) is a variable with its value.
 *
 * Debug: sp_bits_debug_tamper makes one wire's value wrong, for tests of
 * the check mode's error path (the first failing constraint, named).
 */
#ifndef SP_CIRCUIT_BITS_H
#define SP_CIRCUIT_BITS_H

#include <stddef.h>
#include <stdint.h>
#include "circuit/bit_types.h"
#include "circuit/cs.h"


/*
 * On output: *r a new bit variable of value v (0/1), booleanity enforced
 * (1 constraint).
 */
void sp_bit_alloc(sp_cs *cs, sp_bit *r, int v);
/* As sp_bit_alloc for an existing variable `var` whose value is v: adds
 * its booleanity constraint only. */
void sp_bit_from_var(sp_cs *cs, sp_bit *r, sp_var var, int v);

/*
 * Two-input gadgets. On output: *r = the function of *a, *b; r may alias
 * a or b. At most 1 constraint and 1 new variable; none when an input is
 * constant (and for xor/xnor also when the result is a copy/negation).
 */
void sp_bit_and(sp_cs *cs, sp_bit *r, const sp_bit *a, const sp_bit *b);
void sp_bit_and_not(sp_cs *cs, sp_bit *r, const sp_bit *a, const sp_bit *b); /* a AND NOT b */
void sp_bit_nor(sp_cs *cs, sp_bit *r, const sp_bit *a, const sp_bit *b);     /* NOT a AND NOT b */
void sp_bit_or(sp_cs *cs, sp_bit *r, const sp_bit *a, const sp_bit *b);
void sp_bit_xor(sp_cs *cs, sp_bit *r, const sp_bit *a, const sp_bit *b);
void sp_bit_xnor(sp_cs *cs, sp_bit *r, const sp_bit *a, const sp_bit *b);    /* a == b, as a bit */

/* *r = c ? *a : *b (1 constraint c * (a - b) = r - b; none when c is
 * constant, a and b are the same bit, or both are constants). */
void sp_bit_select(sp_cs *cs, sp_bit *r, const sp_bit *c, const sp_bit *a, const sp_bit *b);

/* SHA-256's ch = (a AND b) XOR (NOT a AND c), as 1 constraint
 * a * (b - c) = ch - c. */
void sp_bit_ch(sp_cs *cs, sp_bit *r, const sp_bit *a, const sp_bit *b, const sp_bit *c);
/* SHA-256's maj = (a AND b) XOR (a AND c) XOR (b AND c): bc = b AND c,
 * then (2bc - b - c) * a = bc - maj (2 constraints). */
void sp_bit_maj(sp_cs *cs, sp_bit *r, const sp_bit *a, const sp_bit *b, const sp_bit *c);

/* Enforces *a == *b (1 constraint (a - b) * 1 = 0; none when both are the
 * same constant; an unsatisfiable one when they are different constants). */
void sp_bit_enforce_eq(sp_cs *cs, const sp_bit *a, const sp_bit *b);

/* ---- bit vectors and field elements ---- */

/* Enforces a[i] == b[i] for i < n: the differences packed 254 at a time
 * (sum 2^i (a_i - b_i) = 0 is injective below 2^254 < r), so
 * ceil(n / 254) constraints at most (chunks of constants are folded). */
void sp_bits_enforce_eq(sp_cs *cs, const sp_bit *a, const sp_bit *b, size_t n);

/* On output: *r a new variable of value *v (no constraint). */
void sp_num_alloc(sp_cs *cs, sp_num *r, const sp_fr *v);
/* Enforces a == b (1 constraint a * 1 = b). */
void sp_num_enforce_eq(sp_cs *cs, const sp_num *a, const sp_num *b);

/*
 * Packing. On input: n <= 255 bits, bits[0] the least significant.
 * On output: *r a new variable equal to sum 2^i bits[i] (mod r when
 * n = 255), bound by 1 constraint (sum) * 1 = r.
 */
void sp_bits_pack_le(sp_cs *cs, sp_num *r, const sp_bit *bits, size_t n);

/*
 * Unpacking, as bellperson's AllocatedNum::to_bits_le when n = 255.
 * On input: n <= 255.
 * On output: out[0..n) new bit variables (booleanity each), out[0] the
 * least significant, and 1 constraint (sum 2^i out[i]) * 1 = x: n + 1
 * constraints. For n < 255 this range-checks x < 2^n. For n = 255 it
 * does not pin the bits down: x + r < 2^255 has a second decomposition
 * (use the strict form where that matters).
 */
void sp_num_to_bits_le(sp_cs *cs, sp_bit *out, const sp_num *x, size_t n);

/*
 * Strict unpacking: out[0..255) the bits of x, and sum 2^i out[i] < r
 * enforced, so the decomposition is the canonical one. Compares with
 * r - 1 from the top: e (bits so far equal to r - 1's) is updated by one
 * AND where r - 1 has a 1 bit (free for the top bit), and where it has a
 * 0 bit (1 - e - b) * b = 0 both forbids b = 1 while e = 1 and is b's
 * booleanity. 255 + 132 + 1 = 388 constraints.
 */
void sp_num_to_bits_le_strict(sp_cs *cs, sp_bit out[255], const sp_num *x);

/*
 * Conditional swap (bellperson's AllocatedNum::conditionally_reverse):
 * (*l, *r) = c ? (*y, *x) : (*x, *y), as 2 new variables and 2
 * constraints (x - y) * c = x - l and (y - x) * c = y - r; free when c is
 * constant. l and r must not alias x or y.
 */
void sp_num_cond_swap(sp_cs *cs, sp_num *l, sp_num *r, const sp_bit *c, const sp_num *x, const sp_num *y);

/*
 * Debug (tests): in check mode, one allocation made by these gadgets gets
 * the wrong value (a bit flipped, a number plus one), so the constraint
 * that defines it fails and sp_cs_status names it with its path. With
 * path NULL the allocation of wire `wire` is hit; otherwise the first
 * allocation made while the gadget path (sp_cs_push) equals `path`
 * (which must outlive the run). Applies once, to the calling thread;
 * sp_bits_debug_tamper(UINT64_MAX, NULL) disarms it.
 */
void sp_bits_debug_tamper(uint64_t wire, const char *path);

/* ---- for the other gadgets of src/circuit (u32.c, the tests) ---- */

/*
 * RECORD helpers for packed sums (heap sp_lc, grown as needed): lc +=
 * (neg ? -1 : 1) * 2^i * bit, a constant bit or the 1 of a negation going
 * into the integer kpos (added) or kneg (subtracted) instead of a term;
 * sp_gl_lc_consts then adds one ONE term for them.
 */
void sp_gl_lc_bit_pow2(sp_cs *cs, sp_lc *lc, const sp_bit *b, unsigned i, int neg, uint64_t kpos[4],
                       uint64_t kneg[4]);
void sp_gl_lc_consts(sp_cs *cs, sp_lc *lc, const uint64_t kpos[4], const uint64_t kneg[4]);

/* sp_num_to_bits_le_strict with the bits taken from the integer c (< 2^255)
 * instead of x's canonical value: tests use it to play a prover who
 * claims the decomposition of x + r. */
void sp_gl_num_to_bits_strict_from(sp_cs *cs, sp_bit out[255], const sp_num *x, const uint64_t c[4]);

/* z = x XOR y for two plain variables of values xv, yv (bits.c): 1 new
 * variable (its value in *zv), 1 constraint (2x) * y = x + y - z. */
sp_var sp_gl_xor_var(sp_cs *cs, sp_var x, int xv, sp_var y, int yv, int *zv);

#endif
