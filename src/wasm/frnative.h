/* Internal to src/wasm/: native versions of circom's raw field operations
 * (frnative.c says why their results are the module's own). */
#ifndef SP_WASM_FRNATIVE_H
#define SP_WASM_FRNATIVE_H

#include <stddef.h>
#include <stdint.h>
#include "wasm/wasm.h"

#define SP_FN_MAX_LIMBS 8 /* 64-bit limbs: primes of up to 512 bits */
#define SP_FN_SMALL 256      /* small integers converted by table (circom's bits and counters) */
#define SP_FN_SMALL_SLOTS 1024

/* A circuit's prime and its Montgomery constants. */
typedef struct {
    unsigned n;                     /* 64-bit limbs (circom's n64) */
    uint64_t q[SP_FN_MAX_LIMBS];    /* the prime, odd */
    uint64_t np;                    /* -q^-1 mod 2^64 */
    uint64_t r2[SP_FN_MAX_LIMBS];   /* R^2 mod q, R = 2^(64 n) */
    uint64_t half[SP_FN_MAX_LIMBS]; /* (q - 1) / 2: above it, a value is negative */
    uint64_t r3[SP_FN_MAX_LIMBS];   /* R^3 mod q: normal times normal to Montgomery */
    uint64_t top_mask;              /* the top limb's bits below q's bit length */
    /* The Montgomery forms v R mod q of the integers v < SP_FN_SMALL, and
     * a hash of them by first limb (v + 1 at the slot, 0 empty) */
    uint64_t small[SP_FN_SMALL][SP_FN_MAX_LIMBS];
    uint16_t small_at[SP_FN_SMALL_SLOTS];
} sp_fn_field;

/* On input: prime[0..n32), least significant word first, odd, n32 even
 * and at most 2 * SP_FN_MAX_LIMBS, its top 64-bit word (prime[n32 - 2],
 * prime[n32 - 1]) not zero: the constants take that word's bit length. */
void sp_fn_field_init(sp_fn_field *f, const uint32_t *prime, unsigned n32);

/* r = a b / R mod q (a, b < q; r may alias them). */
void sp_fn_mont_mul(const sp_fn_field *f, uint64_t *r, const uint64_t *a, const uint64_t *b);

/* The natives for sp_wasm_module_load: each expects the instance's
 * context to begin with its sp_fn_field. */
extern const sp_wasm_native sp_fn_natives[];
extern const size_t sp_fn_n_natives;

#endif
