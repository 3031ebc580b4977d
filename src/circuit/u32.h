/*
 * 32-bit words on the sp_cs API, for SHA-256: xor, rotations, shifts,
 * ch, maj and multi-operand addition mod 2^32.
 *
 * A word keeps its native value next to its 32 bits, and says per bit
 * whether it is a constant or the negation of its variable, in masks
 * (the same three kinds as sp_bit, bits.h): rotations and shifts move
 * masks and variable numbers and cost nothing, and the gadgets read bit
 * values from the native word, so witness generation does no field
 * arithmetic per bit. Constant bits are folded as bellman's UInt32 does
 * (a word of constants costs nothing anywhere; xor with a constant bit is
 * a copy or a negation).
 *
 * Constraint costs for words of variables: xor 32 (1 per bit), ch 32, maj
 * 64, rotr and shr 0; sp_u32_add of n operands: bitlen(n (2^32 - 1))
 * result bits (33 for 2 operands, 35 for 5 to 8) with their booleanity,
 * plus one packing equation, which
 * with an sp_multieq shares a constraint with the next additions (as
 * bellman's MultiEq: 7 SHA-256 additions per constraint).
 */
#ifndef SP_CIRCUIT_U32_H
#define SP_CIRCUIT_U32_H

#include <stddef.h>
#include <stdint.h>
#include "circuit/bits.h"
#include "circuit/cs.h"

typedef struct {
    uint32_t val;   /* the word's value (bit i = the value of bit i) */
    uint32_t cmask; /* bit i set: bit i is a constant */
    uint32_t nmask; /* bit i set: bit i is NOT var[i] (never on constants) */
    sp_var var[32]; /* bit i's variable, bit 0 the least significant; 0 for constants */
} sp_u32;

/* The constant word v (no variables). */
void sp_u32_const(sp_u32 *r, uint32_t v);
/* A word of 32 new bit variables of value v (32 booleanity constraints). */
void sp_u32_alloc(sp_cs *cs, sp_u32 *r, uint32_t v);

/* Bit i (0 = least significant) as an sp_bit, and the reverse. */
sp_bit sp_u32_bit(const sp_u32 *w, unsigned i);
void sp_u32_set_bit(sp_u32 *w, unsigned i, const sp_bit *b);

/* From / to 32 bits: _le takes bits[0] as the least significant bit,
 * _be as the most significant (SHA-256's order within a word). */
void sp_u32_from_bits_le(sp_u32 *r, const sp_bit bits[32]);
void sp_u32_from_bits_be(sp_u32 *r, const sp_bit bits[32]);
void sp_u32_to_bits_le(sp_bit bits[32], const sp_u32 *w);
void sp_u32_to_bits_be(sp_bit bits[32], const sp_u32 *w);

/* Rotation and shift right by n < 32 (free; r may alias a). */
void sp_u32_rotr(sp_u32 *r, const sp_u32 *a, unsigned n);
void sp_u32_shr(sp_u32 *r, const sp_u32 *a, unsigned n);

/* Bitwise gadgets (r may alias the inputs): one sp_bit gadget per bit. */
void sp_u32_xor(sp_cs *cs, sp_u32 *r, const sp_u32 *a, const sp_u32 *b);
void sp_u32_ch(sp_cs *cs, sp_u32 *r, const sp_u32 *a, const sp_u32 *b, const sp_u32 *c);
void sp_u32_maj(sp_cs *cs, sp_u32 *r, const sp_u32 *a, const sp_u32 *b, const sp_u32 *c);

/*
 * Shared packing equations (bellman's MultiEq): several equations
 * lhs_j = rhs_j whose sides are below 2^(n_j) are added with shifts
 * 2^(n_0 + ... + n_(j-1)) into one constraint lhs * 1 = rhs while the
 * shifts stay below 2^254 (< r, so the blocks cannot interfere and the
 * single equation implies each one).
 */
typedef struct {
    unsigned bits;           /* bits used by the pending equations */
    uint64_t lhs[4], rhs[4]; /* their values, shifted and added, as integers */
    uint64_t kpos[4], kneg[4]; /* RECORD: the constant part of the left side */
    sp_lc l, r;              /* RECORD: terms (heap, kept between flushes) */
} sp_multieq;

void sp_multieq_init(sp_multieq *m);
/* Emits the pending constraint, if any. */
void sp_multieq_flush(sp_cs *cs, sp_multieq *m);
/* Flushes and frees m's storage. */
void sp_multieq_finish(sp_cs *cs, sp_multieq *m);

/*
 * *r = ops[0] + ... + ops[n-1] mod 2^32.
 * On input: 1 <= n <= 64; m an open sp_multieq or NULL (then the packing
 *   constraint is made at once).
 * On output: r (which may alias an operand) holds the low 32 of
 *   nb = bitlen(n (2^32 - 1)) new result bits (booleanity each); the
 *   equation sum of the operands' bits = sum of the result bits (constant
 *   bits folded into the constant term) is added to m. All-constant
 *   operands give a constant and no constraint (bellman's rule; nb counts
 *   every operand as 32 bits, so the counts match bellman's).
 */
void sp_u32_add(sp_cs *cs, sp_multieq *m, sp_u32 *r, const sp_u32 *const *ops, size_t n);

#endif
