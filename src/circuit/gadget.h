/*
 * Internal to the bit-level gadgets of src/circuit (bits.c, pack.c,
 * u32.c, sha256_gadget.c; defined in gadget.c); not part of the public API.
 *
 * What makes the gadgets fast in WITNESS mode: every constraint they make
 * has small-integer values on its three sides (a bit is 0/1, an xor's
 * right side is 0..2, a ch's is -1..1), so the values come from a table of
 * Montgomery constants instead of field arithmetic, and the terms are built
 * only when recording (gl_rec), on the stack (a gl_lc holds a handful of
 * terms next to its sp_lc, so no malloc). An sp_lc is read by
 * sp_cs_enforce through its documented fields only (val, t[0..n)), which
 * is all gl_lc relies on.
 */
#ifndef SP_CIRCUIT_GADGET_H
#define SP_CIRCUIT_GADGET_H

#include <assert.h>
#include <stdint.h>
#include "circuit/bit_types.h"
#include "circuit/cs.h"

/* k * R mod r for k = -2..2 (Montgomery forms of small integers);
 * tests/test_bits.c checks them against sp_fr_set_u64 / sp_fr_neg. */
extern const sp_fr sp_gl_small_[5];
static inline const sp_fr *gl_k(int k)
{
    assert(k >= -2 && k <= 2);
    return &sp_gl_small_[k + 2];
}

static inline int gl_rec(const sp_cs *cs) { return cs->mode == SP_CS_RECORD; }

/* Debug hook (bits.h, sp_bits_debug_tamper, sets them): armed when either
 * is set. */
extern _Thread_local uint64_t sp_gl_tamper_wire_;
extern _Thread_local const char *sp_gl_tamper_path_;
/* Whether this allocation is the one to get wrong (disarms the hook). */
int sp_gl_tamper_hit(const sp_cs *cs);

static inline int gl_tamper(const sp_cs *cs)
{
    return cs->check && (sp_gl_tamper_wire_ != UINT64_MAX || sp_gl_tamper_path_) && sp_gl_tamper_hit(cs);
}

/* A new bit variable with value *v (0/1). In check mode the tamper hook
 * may flip *v, so callers use *v afterwards (the value the witness got). */
static inline sp_var gl_alloc_bit(sp_cs *cs, int *v)
{
    if (gl_tamper(cs))
        *v ^= 1;
    return sp_cs_alloc_bit(cs, *v);
}

#define GL_LC_TERMS 8

/* A linear combination whose terms (RECORD only) live in the struct. */
typedef struct {
    sp_lc lc;
    sp_cs_term t[GL_LC_TERMS];
} gl_lc;

/* Starts g with value k (small integer) and no terms. */
static inline void gl_lc_start(gl_lc *g, int k)
{
    g->lc.val = *gl_k(k);
    g->lc.t = g->t;
    g->lc.n = 0;
    g->lc.cap = GL_LC_TERMS;
}

/* g += k * var (terms only; RECORD). */
static inline void gl_lc_term(gl_lc *g, sp_var var, const sp_fr *k)
{
    assert(g->lc.n < GL_LC_TERMS);
    g->t[g->lc.n].var = var;
    g->t[g->lc.n].k = *k;
    g->lc.n++;
}

/* g += k * bit (terms only; RECORD): a variable, the negation 1 - var of
 * one, or a constant (a term on ONE, or nothing). */
static inline void gl_lc_bit(gl_lc *g, const sp_bit *b, int k)
{
    switch (b->kind) {
    case SP_BIT_IS:
        gl_lc_term(g, b->var, gl_k(k));
        break;
    case SP_BIT_NOT:
        gl_lc_term(g, SP_CS_ONE, gl_k(k));
        gl_lc_term(g, b->var, gl_k(-k));
        break;
    default:
        if (b->val)
            gl_lc_term(g, SP_CS_ONE, gl_k(k));
        break;
    }
}

/*
 * Emits A * B = C with small-integer values va, vb, vc: outside RECORD
 * mode the three sides are values only (no terms touched). In RECORD
 * mode the caller fills the terms of the gl_lc's it passes instead
 * (gl_enforce_rec).
 */
static inline void gl_enforce_vals(sp_cs *cs, int va, int vb, int vc)
{
    sp_lc a = {.val = *gl_k(va)}, b = {.val = *gl_k(vb)}, c = {.val = *gl_k(vc)};
    sp_cs_enforce(cs, &a, &b, &c);
}

/* gl_bit_lc: starts g as the one-term combination 1 * bit with its value. */
static inline void gl_lc_of_bit(gl_lc *g, const sp_bit *b)
{
    gl_lc_start(g, b->val);
    gl_lc_bit(g, b, 1);
}

/* The booleanity constraint of a fresh bit variable: v * v = v (all three
 * sides the bit itself, so a, b and c hold only 0 and 1). */
static inline void gl_booleanity(sp_cs *cs, sp_var var, int v)
{
    if (gl_rec(cs)) {
        gl_lc s;
        gl_lc_start(&s, v);
        gl_lc_term(&s, var, gl_k(1));
        sp_cs_enforce(cs, &s.lc, &s.lc, &s.lc);
    } else {
        gl_enforce_vals(cs, v, v, v);
    }
}

/* ---- 256-bit unsigned integers (4 little-endian limbs), for packing ---- */

/* acc += v << shift (shift < 256; bits shifted past 2^256 are lost). */
static inline void gl_u256_add_shl(uint64_t acc[4], uint64_t v, unsigned shift)
{
    unsigned limb = shift / 64, s = shift % 64;
    uint64_t part[5] = {0, 0, 0, 0, 0};
    part[limb] = v << s;
    if (s && limb + 1 < 5)
        part[limb + 1] = v >> (64 - s);
    unsigned __int128 carry = 0;
    for (int i = 0; i < 4; i++) {
        carry += (unsigned __int128)acc[i] + part[i];
        acc[i] = (uint64_t)carry;
        carry >>= 64;
    }
}

/* The field element of a 256-bit integer (reduced mod r first). */
void sp_gl_fr_of_u256(sp_fr *r, const uint64_t x[4]);

/* A new field variable of value *v; in check mode the tamper hook may add
 * one to *v (callers use *v afterwards). */
static inline sp_var gl_alloc_num(sp_cs *cs, sp_fr *v)
{
    if (gl_tamper(cs))
        sp_fr_add(v, v, gl_k(1));
    return sp_cs_alloc(cs, v);
}

#endif
