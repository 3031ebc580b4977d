/*
 * The values the bit-level gadgets work on (bits.h has their meaning and
 * the gadgets): a bit, a field element variable. Kept apart from bits.h
 * so that the gadgets' internal helpers (gadget.h) can use them without
 * depending on the gadgets themselves.
 */
#ifndef SP_CIRCUIT_BIT_TYPES_H
#define SP_CIRCUIT_BIT_TYPES_H

#include <stdint.h>
#include "field/field.h"
#include "circuit/rows.h"

enum { SP_BIT_CONST = 0, SP_BIT_IS = 1, SP_BIT_NOT = 2 };

typedef struct {
    sp_var var;   /* the variable (SP_BIT_IS, SP_BIT_NOT); 0 for constants */
    uint8_t kind; /* SP_BIT_CONST, SP_BIT_IS, SP_BIT_NOT */
    uint8_t val;  /* the bit's value, 0 or 1 */
} sp_bit;

/* A field element variable and its value. */
typedef struct {
    sp_var var;
    sp_fr val;
} sp_num;

/* The constant bit v (0 or 1). */
static inline sp_bit sp_bit_const(int v)
{
    sp_bit b = {0, SP_BIT_CONST, (uint8_t)(v != 0)};
    return b;
}
/* The negation (free: flips the kind or the constant). */
static inline sp_bit sp_bit_not(sp_bit a)
{
    if (a.kind != SP_BIT_CONST)
        a.kind = (uint8_t)(SP_BIT_IS + SP_BIT_NOT - a.kind);
    a.val ^= 1;
    return a;
}
static inline int sp_bit_is_const(const sp_bit *a) { return a->kind == SP_BIT_CONST; }

#endif
