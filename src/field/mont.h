/*
 * Portable Montgomery arithmetic on n 64-bit limbs (little-endian limb
 * order), shared by Fp (n = 6) and Fr (n = 4). Internal to the field layer.
 *
 * Every function is static inline and takes n as a constant at each call
 * site, so the compiler unrolls it for the one size it is used with.
 * Contract for all of them: inputs are fully reduced (< m), outputs are
 * fully reduced; r may alias any input. Timing does not depend on values.
 * The modulus must leave the top bit of the top limb clear (true for both
 * BLS12-381 fields), which lets add/sub/mul skip an extra carry word.
 */
#ifndef SP_FIELD_MONT_H
#define SP_FIELD_MONT_H

#include <stdint.h>
#include <string.h>

__extension__ typedef unsigned __int128 sp_u128;

#define SP_MONT_MAX 6

/* r = a - m if a >= m else a (a < 2m). */
static inline void sp_mont_reduce_once(uint64_t *r, const uint64_t *a, const uint64_t *m, int n)
{
    uint64_t t[SP_MONT_MAX], borrow = 0;
    for (int i = 0; i < n; i++) {
        sp_u128 d = (sp_u128)a[i] - m[i] - borrow;
        t[i] = (uint64_t)d;
        borrow = (uint64_t)(d >> 64) & 1;
    }
    uint64_t keep_a = 0 - borrow; /* all ones when a < m */
    for (int i = 0; i < n; i++)
        r[i] = (a[i] & keep_a) | (t[i] & ~keep_a);
}

static inline void sp_mont_add(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, int n)
{
    uint64_t s[SP_MONT_MAX], c = 0;
    for (int i = 0; i < n; i++) {
        sp_u128 t = (sp_u128)a[i] + b[i] + c;
        s[i] = (uint64_t)t;
        c = (uint64_t)(t >> 64);
    }
    sp_mont_reduce_once(r, s, m, n);
}

static inline void sp_mont_sub(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, int n)
{
    uint64_t d[SP_MONT_MAX], borrow = 0;
    for (int i = 0; i < n; i++) {
        sp_u128 t = (sp_u128)a[i] - b[i] - borrow;
        d[i] = (uint64_t)t;
        borrow = (uint64_t)(t >> 64) & 1;
    }
    uint64_t mask = 0 - borrow, c = 0; /* add m back when a < b */
    for (int i = 0; i < n; i++) {
        sp_u128 t = (sp_u128)d[i] + (m[i] & mask) + c;
        r[i] = (uint64_t)t;
        c = (uint64_t)(t >> 64);
    }
}

static inline void sp_mont_neg(uint64_t *r, const uint64_t *a, const uint64_t *m, int n)
{
    uint64_t nz = 0, borrow = 0;
    for (int i = 0; i < n; i++)
        nz |= a[i];
    uint64_t mask = 0 - (uint64_t)(nz != 0); /* -0 = 0, not m */
    for (int i = 0; i < n; i++) {
        sp_u128 t = (sp_u128)m[i] - a[i] - borrow;
        r[i] = (uint64_t)t & mask;
        borrow = (uint64_t)(t >> 64) & 1;
    }
}

/* Coarsely integrated operand scanning (CIOS) Montgomery product:
 * r = a * b * 2^(-64n) mod m, with n0 = -m^(-1) mod 2^64. */
static inline void sp_mont_mul(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m,
                               uint64_t n0, int n)
{
    uint64_t t[SP_MONT_MAX + 2] = {0};
    for (int i = 0; i < n; i++) {
        uint64_t c = 0;
        for (int j = 0; j < n; j++) {
            sp_u128 uv = (sp_u128)a[j] * b[i] + t[j] + c;
            t[j] = (uint64_t)uv;
            c = (uint64_t)(uv >> 64);
        }
        sp_u128 s = (sp_u128)t[n] + c;
        t[n] = (uint64_t)s;
        t[n + 1] = (uint64_t)(s >> 64);

        uint64_t q = t[0] * n0;
        sp_u128 uv = (sp_u128)q * m[0] + t[0];
        c = (uint64_t)(uv >> 64);
        for (int j = 1; j < n; j++) {
            uv = (sp_u128)q * m[j] + t[j] + c;
            t[j - 1] = (uint64_t)uv;
            c = (uint64_t)(uv >> 64);
        }
        s = (sp_u128)t[n] + c;
        t[n - 1] = (uint64_t)s;
        t[n] = t[n + 1] + (uint64_t)(s >> 64);
    }
    /* t < 2m and the modulus has a spare top bit, so t[n] is 0 here. */
    sp_mont_reduce_once(r, t, m, n);
}

/* Plain compare of canonical limbs: returns 1 when a < m. */
static inline int sp_limbs_lt(const uint64_t *a, const uint64_t *m, int n)
{
    uint64_t borrow = 0;
    for (int i = 0; i < n; i++) {
        sp_u128 t = (sp_u128)a[i] - m[i] - borrow;
        borrow = (uint64_t)(t >> 64) & 1;
    }
    return (int)borrow;
}

static inline int sp_limbs_is_zero(const uint64_t *a, int n)
{
    uint64_t acc = 0;
    for (int i = 0; i < n; i++)
        acc |= a[i];
    return acc == 0;
}

static inline int sp_limbs_eq(const uint64_t *a, const uint64_t *b, int n)
{
    uint64_t acc = 0;
    for (int i = 0; i < n; i++)
        acc |= a[i] ^ b[i];
    return acc == 0;
}

/* Big-endian and little-endian byte <-> limb conversion for nb = 8n bytes. */
static inline void sp_limbs_from_be(uint64_t *r, const uint8_t *in, int n)
{
    for (int i = 0; i < n; i++) {
        uint64_t v = 0;
        for (int k = 0; k < 8; k++)
            v = (v << 8) | in[(n - 1 - i) * 8 + k];
        r[i] = v;
    }
}

static inline void sp_limbs_to_be(uint8_t *out, const uint64_t *a, int n)
{
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 8; k++)
            out[(n - 1 - i) * 8 + k] = (uint8_t)(a[i] >> (56 - 8 * k));
}

static inline void sp_limbs_from_le(uint64_t *r, const uint8_t *in, int n)
{
    for (int i = 0; i < n; i++) {
        uint64_t v = 0;
        for (int k = 7; k >= 0; k--)
            v = (v << 8) | in[i * 8 + k];
        r[i] = v;
    }
}

static inline void sp_limbs_to_le(uint8_t *out, const uint64_t *a, int n)
{
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 8; k++)
            out[i * 8 + k] = (uint8_t)(a[i] >> (8 * k));
}

#endif
