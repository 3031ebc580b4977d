/*
 * Native versions of the raw field operations in circom's runtime code
 * (the Fr_int_* and Fr_F1m_* functions every circom 2 module carries):
 * operands are n64 little-endian 64-bit limbs in linear memory, Montgomery
 * form with R = 2^(64 n64), the modulus the circuit's prime.
 *
 * Each computes exactly the module's result: the Montgomery product
 * (a b + M q) / R is the same number whatever the digit size of the
 * reduction (M is the unique multiple in [0, R)), and the final step is
 * the module's (subtract q once when the sum carried out or is >= q).
 * fromMontgomery agrees on canonical operands (< q), the only ones
 * circom's code passes it. Every pointer is checked against the memory;
 * an operand outside it traps as the module's own load would.
 */
#include <string.h>
#include "wasm/frnative.h"
#include "wasm/internal.h"

typedef unsigned __int128 u128;

/* n limbs from s to d (either may be unaligned): one inlined 32-byte move
 * for the common 4-limb primes, not a call into the library's memmove. */
static inline void limbs_cp(void *d, const void *s, unsigned n)
{
    if (n == 4)
        memcpy(d, s, 32);
    else
        memcpy(d, s, 8u * n);
}

static inline uint8_t *at(sp_wasm_inst *in, uint64_t p, size_t n)
{
    size_t len = in->mem_len;
    uint8_t *mem = in->mem;
    if ((uint32_t)p + (uint64_t)n > len) {
        sp_wasm_trap(in, "out of bounds memory access in a field operation (address %u)", (uint32_t)p);
        return NULL;
    }
    return mem + (uint32_t)p;
}

static int load(sp_wasm_inst *in, uint64_t *v, uint64_t p, unsigned n)
{
    uint8_t *s = at(in, p, 8u * n);
    if (!s)
        return 0;
    limbs_cp(v, s, n);
    return 1;
}

static int store(sp_wasm_inst *in, uint64_t p, const uint64_t *v, unsigned n)
{
    uint8_t *d = at(in, p, 8u * n);
    if (!d)
        return 0;
    limbs_cp(d, v, n);
    return 1;
}

static uint64_t add_n(uint64_t *r, const uint64_t *a, const uint64_t *b, unsigned n)
{
    uint64_t c = 0;
    for (unsigned i = 0; i < n; i++) {
        u128 s = (u128)a[i] + b[i] + c;
        r[i] = (uint64_t)s;
        c = (uint64_t)(s >> 64);
    }
    return c;
}

static uint64_t sub_n(uint64_t *r, const uint64_t *a, const uint64_t *b, unsigned n)
{
    uint64_t bw = 0;
    for (unsigned i = 0; i < n; i++) {
        u128 d = (u128)a[i] - b[i] - bw;
        r[i] = (uint64_t)d;
        bw = (uint64_t)(d >> 64) & 1;
    }
    return bw;
}

/* a == b on n limbs at any alignment; unrolled for the 4-limb primes,
 * where a library call would cost more than the compare. */
static inline int limbs_eq(const uint8_t *a, const uint8_t *b, unsigned n)
{
    uint64_t d = 0;
    if (n == 4) {
        for (unsigned i = 0; i < 4; i++) {
            uint64_t u, v;
            memcpy(&u, a + 8 * i, 8);
            memcpy(&v, b + 8 * i, 8);
            d |= u ^ v;
        }
        return !d;
    }
    return !memcmp(a, b, 8u * n);
}

static int gte_n(const uint64_t *a, const uint64_t *b, unsigned n)
{
    for (unsigned i = n; i-- > 0;)
        if (a[i] != b[i])
            return a[i] > b[i];
    return 1;
}

static unsigned small_hash(uint64_t limb)
{
    return (unsigned)((limb * 0x9e3779b97f4a7c15u) >> 54) % SP_FN_SMALL_SLOTS;
}

/* x < SP_FN_SMALL (its value in *v): those take the table's way. */
static inline int is_small(const sp_fn_field *f, const uint64_t *x, uint64_t *v)
{
    uint64_t hi = 0;
    for (unsigned i = 1; i < f->n; i++)
        hi |= x[i];
    *v = x[0];
    return !hi && x[0] < SP_FN_SMALL;
}

/* x is the Montgomery form of some v < SP_FN_SMALL (v in *v). */
static inline int small_of_mont(const sp_fn_field *f, const uint64_t *x, uint64_t *v)
{
    for (unsigned h = small_hash(x[0]);; h = (h + 1) % SP_FN_SMALL_SLOTS) {
        unsigned k = f->small_at[h];
        if (!k)
            return 0;
        if (limbs_eq((const uint8_t *)f->small[k - 1], (const uint8_t *)x, f->n)) {
            *v = k - 1;
            return 1;
        }
    }
}

void sp_fn_field_init(sp_fn_field *f, const uint32_t *prime, unsigned n32)
{
    memset(f, 0, sizeof *f);
    f->n = n32 / 2;
    for (unsigned i = 0; i < f->n; i++)
        f->q[i] = (uint64_t)prime[2 * i] | (uint64_t)prime[2 * i + 1] << 32;
    uint64_t inv = 1; /* q^-1 mod 2^64 by Newton's iteration (q odd) */
    for (int k = 0; k < 6; k++)
        inv *= 2 - f->q[0] * inv;
    f->np = (uint64_t)0 - inv;
    uint64_t r[SP_FN_MAX_LIMBS] = {1}; /* R^2 mod q: 1 doubled 2 * 64 n times */
    for (unsigned k = 0; k < 128 * f->n; k++) {
        uint64_t c = add_n(r, r, r, f->n);
        if (c || gte_n(r, f->q, f->n))
            sub_n(r, r, f->q, f->n);
    }
    memcpy(f->r2, r, sizeof r);
    for (unsigned i = 0; i < f->n; i++)
        f->half[i] = f->q[i] >> 1 | (i + 1 < f->n ? f->q[i + 1] << 63 : 0);
    sp_fn_mont_mul(f, f->r3, f->r2, f->r2);
    unsigned top = 64 - (unsigned)__builtin_clzll(f->q[f->n - 1]);
    f->top_mask = top == 64 ? ~(uint64_t)0 : ((uint64_t)1 << top) - 1;
    for (unsigned v = 0; v < SP_FN_SMALL; v++) {
        uint64_t x[SP_FN_MAX_LIMBS] = {v};
        sp_fn_mont_mul(f, f->small[v], x, f->r2);
        unsigned h = small_hash(f->small[v][0]);
        while (f->small_at[h])
            h = (h + 1) % SP_FN_SMALL_SLOTS;
        f->small_at[h] = (uint16_t)(v + 1);
    }
}

/* The Montgomery product for n limbs, b's limbs from `rows` on zero (their
 * rows of the product add nothing; the reductions all run, so the result is
 * the full product's); inlined with n and rows constants for the common
 * 4-limb primes (bn128, bls12381), where the unrolled loops keep t in
 * registers. */
static inline __attribute__((always_inline)) void mont_mul_n(const sp_fn_field *f, uint64_t *r, const uint64_t *a,
                                                             const uint64_t *b, unsigned n, unsigned rows)
{
    uint64_t t[SP_FN_MAX_LIMBS + 2] = {0};
#pragma GCC unroll 8
    for (unsigned i = 0; i < n; i++) {
        uint64_t c = 0;
        u128 s;
        if (i < rows) {
#pragma GCC unroll 8
            for (unsigned j = 0; j < n; j++) {
                s = (u128)a[j] * b[i] + t[j] + c;
                t[j] = (uint64_t)s;
                c = (uint64_t)(s >> 64);
            }
            s = (u128)t[n] + c;
            t[n] = (uint64_t)s;
            t[n + 1] = (uint64_t)(s >> 64);
        } else {
            t[n + 1] = 0;
        }
        uint64_t m = t[0] * f->np;
        s = (u128)m * f->q[0] + t[0];
        c = (uint64_t)(s >> 64);
#pragma GCC unroll 8
        for (unsigned j = 1; j < n; j++) {
            s = (u128)m * f->q[j] + t[j] + c;
            t[j - 1] = (uint64_t)s;
            c = (uint64_t)(s >> 64);
        }
        s = (u128)t[n] + c;
        t[n - 1] = (uint64_t)s;
        t[n] = t[n + 1] + (uint64_t)(s >> 64);
    }
    if (t[n] || gte_n(t, f->q, n))
        sub_n(t, t, f->q, n);
    limbs_cp(r, t, n);
}

/* Circom's values are mostly bits and small integers: for 4 limbs, an
 * operand of one limb takes one row of the product, and a zero operand
 * none (the product is 0: with t = 0 every reduction adds 0). */
void sp_fn_mont_mul(const sp_fn_field *f, uint64_t *r, const uint64_t *a, const uint64_t *b)
{
    if (f->n != 4) {
        mont_mul_n(f, r, a, b, f->n, f->n);
        return;
    }
    uint64_t ah = a[1] | a[2] | a[3], bh = b[1] | b[2] | b[3];
    if (ah && bh) {
        mont_mul_n(f, r, a, b, 4, 4);
        return;
    }
    const uint64_t *big = bh ? b : a; /* the other one when both have one limb */
    uint64_t small = bh ? a[0] : b[0];
    if (!small || !(big[0] | ah | bh))
        memset(r, 0, 32);
    else
        mont_mul_n(f, r, big, &small, 4, 1);
}

/* a R^-1: the Montgomery product of a and 1. */
static void mont_redc(const sp_fn_field *f, uint64_t *r, const uint64_t *a)
{
    static const uint64_t one[SP_FN_MAX_LIMBS] = {1};
    sp_fn_mont_mul(f, r, a, one);
}

static void mul_full(uint64_t *r, const uint64_t *a, const uint64_t *b, unsigned n)
{
    uint64_t t[2 * SP_FN_MAX_LIMBS] = {0};
    for (unsigned i = 0; i < n; i++) {
        uint64_t c = 0;
        for (unsigned j = 0; j < n; j++) {
            u128 s = (u128)a[j] * b[i] + t[i + j] + c;
            t[i + j] = (uint64_t)s;
            c = (uint64_t)(s >> 64);
        }
        t[i + n] = c;
    }
    memcpy(r, t, 16u * n);
}

/* The natives, as sp_wasm_host_fn: args are the module function's. */
#define FIELD ((const sp_fn_field *)ctx)
#define OPERANDS(k) uint64_t x[SP_FN_MAX_LIMBS], y[SP_FN_MAX_LIMBS], z[2 * SP_FN_MAX_LIMBS]; unsigned n = FIELD->n

static int n_int_add(sp_wasm_inst *in, void *ctx, const uint64_t *a, uint64_t *ret)
{
    OPERANDS(2);
    if (!load(in, x, a[0], n) || !load(in, y, a[1], n))
        return 1;
    *ret = add_n(z, x, y, n);
    return !store(in, a[2], z, n);
}

static int n_int_sub(sp_wasm_inst *in, void *ctx, const uint64_t *a, uint64_t *ret)
{
    OPERANDS(2);
    if (!load(in, x, a[0], n) || !load(in, y, a[1], n))
        return 1;
    *ret = sub_n(z, x, y, n) ? 0xffffffffu : 0; /* the module's borrow is -1 */
    return !store(in, a[2], z, n);
}

static int n_int_gte(sp_wasm_inst *in, void *ctx, const uint64_t *a, uint64_t *ret)
{
    OPERANDS(2);
    (void)z;
    if (!load(in, x, a[0], n) || !load(in, y, a[1], n))
        return 1;
    *ret = (uint64_t)gte_n(x, y, n);
    return 0;
}

static int n_int_mul(sp_wasm_inst *in, void *ctx, const uint64_t *a, uint64_t *ret)
{
    OPERANDS(2);
    if (!load(in, x, a[0], n) || !load(in, y, a[1], n))
        return 1;
    mul_full(z, x, y, n);
    return !store(in, a[2], z, 2 * n);
}

static int n_int_square(sp_wasm_inst *in, void *ctx, const uint64_t *a, uint64_t *ret)
{
    OPERANDS(1);
    (void)y;
    if (!load(in, x, a[0], n))
        return 1;
    mul_full(z, x, x, n);
    return !store(in, a[1], z, 2 * n);
}

static int n_add(sp_wasm_inst *in, void *ctx, const uint64_t *a, uint64_t *ret)
{
    OPERANDS(2);
    if (!load(in, x, a[0], n) || !load(in, y, a[1], n))
        return 1;
    if (add_n(z, x, y, n) || gte_n(z, FIELD->q, n))
        sub_n(z, z, FIELD->q, n);
    return !store(in, a[2], z, n);
}

static int n_sub(sp_wasm_inst *in, void *ctx, const uint64_t *a, uint64_t *ret)
{
    OPERANDS(2);
    if (!load(in, x, a[0], n) || !load(in, y, a[1], n))
        return 1;
    if (sub_n(z, x, y, n))
        add_n(z, z, FIELD->q, n);
    return !store(in, a[2], z, n);
}

static int n_mul(sp_wasm_inst *in, void *ctx, const uint64_t *a, uint64_t *ret)
{
    OPERANDS(2);
    if (!load(in, x, a[0], n) || !load(in, y, a[1], n))
        return 1;
    sp_fn_mont_mul(FIELD, z, x, y);
    return !store(in, a[2], z, n);
}

static int n_square(sp_wasm_inst *in, void *ctx, const uint64_t *a, uint64_t *ret)
{
    OPERANDS(1);
    (void)y;
    if (!load(in, x, a[0], n))
        return 1;
    sp_fn_mont_mul(FIELD, z, x, x);
    return !store(in, a[1], z, n);
}

static int n_to_mont(sp_wasm_inst *in, void *ctx, const uint64_t *a, uint64_t *ret)
{
    OPERANDS(1);
    (void)y;
    if (!load(in, x, a[0], n))
        return 1;
    sp_fn_mont_mul(FIELD, z, x, FIELD->r2);
    return !store(in, a[1], z, n);
}

static int n_from_mont(sp_wasm_inst *in, void *ctx, const uint64_t *a, uint64_t *ret)
{
    OPERANDS(1);
    (void)y;
    if (!load(in, x, a[0], n))
        return 1;
    mont_redc(FIELD, z, x);
    return !store(in, a[1], z, n);
}

/* ---- element-level operations: an element is [i32 short value][i32
 * type: bit 31 long, bit 30 Montgomery][n64 limbs] ---- */

static int n_copy(sp_wasm_inst *in, void *ctx, const uint64_t *a, uint64_t *ret)
{
    unsigned words = FIELD->n + 1;
    uint8_t *d = at(in, a[0], 8u * words), *s = at(in, a[1], 8u * words);
    if (!d || !s)
        return 1;
    for (unsigned i = 0; i < words; i++) { /* word by word, ascending, as the module does */
        uint64_t w;
        memcpy(&w, s + 8 * i, 8);
        memcpy(d + 8 * i, &w, 8);
    }
    return 0;
}

static int n_int_gt(sp_wasm_inst *in, void *ctx, const uint64_t *a, uint64_t *ret)
{
    OPERANDS(2);
    (void)z;
    if (!load(in, x, a[0], n) || !load(in, y, a[1], n))
        return 1;
    *ret = (uint64_t)!gte_n(y, x, n);
    return 0;
}

static int n_int_eq(sp_wasm_inst *in, void *ctx, const uint64_t *a, uint64_t *ret)
{
    OPERANDS(2);
    (void)z;
    if (!load(in, x, a[0], n) || !load(in, y, a[1], n))
        return 1;
    *ret = (uint64_t)!memcmp(x, y, 8u * n);
    return 0;
}

/* The conversion of to_normal, out of line: most elements it is asked
 * about are normal already. */
static void el_from_mont(const sp_fn_field *f, uint8_t *e)
{
    uint64_t x[SP_FN_MAX_LIMBS], v;
    memcpy(e + 4, "\0\0\0\x80", 4);
    limbs_cp(x, e + 8, f->n);
    if (small_of_mont(f, x, &v)) { /* x = v R mod q exactly, so its reduction is v */
        memset(x, 0, sizeof x);
        x[0] = v;
    } else {
        mont_redc(f, x, x);
    }
    limbs_cp(e + 8, x, f->n);
}

/* Fr_toNormal(p): a long Montgomery element becomes long normal. */
static inline int to_normal(sp_wasm_inst *in, const sp_fn_field *f, uint32_t p)
{
    uint8_t *e = at(in, p, 8 + 8u * f->n);
    if (!e)
        return 1;
    if ((e[7] & 0x40) && (e[7] & 0x80))
        el_from_mont(f, e);
    return 0;
}

static int n_to_normal(sp_wasm_inst *in, void *ctx, const uint64_t *a, uint64_t *ret)
{
    uint8_t *e = at(in, a[0], 8);
    if (!e)
        return 1;
    return (e[7] & 0x40) ? to_normal(in, FIELD, (uint32_t)a[0]) : 0;
}

static int n_is_negative(sp_wasm_inst *in, void *ctx, const uint64_t *a, uint64_t *ret)
{
    uint8_t *e = at(in, a[0], 8);
    if (!e)
        return 1;
    if (!(e[7] & 0x80)) {
        int32_t v;
        memcpy(&v, e, 4);
        *ret = v < 0;
        return 0;
    }
    uint64_t x[SP_FN_MAX_LIMBS];
    if (to_normal(in, FIELD, (uint32_t)a[0]) || !load(in, x, (uint32_t)a[0] + 8ull, FIELD->n))
        return 1;
    *ret = (uint64_t)!gte_n(FIELD->half, x, FIELD->n);
    return 0;
}

static int n_get_lsb32(sp_wasm_inst *in, void *ctx, const uint64_t *a, uint64_t *ret)
{
    uint8_t *e = at(in, a[0], 8);
    uint32_t v;
    if (!e)
        return 1;
    if (e[7] & 0x80) {
        if (to_normal(in, FIELD, (uint32_t)a[0]) || !(e = at(in, a[0], 12)))
            return 1;
        memcpy(&v, e + 8, 4);
    } else {
        memcpy(&v, e, 4);
    }
    *ret = v;
    return 0;
}

/* x / y and x mod y of n-limb integers, by the bits of x. */
static void divmod(uint64_t *q, uint64_t *r, const uint64_t *x, const uint64_t *y, unsigned n)
{
    memset(q, 0, 8u * n);
    memset(r, 0, 8u * (n + 1));
    int one_limb = 1;
    for (unsigned i = 1; i < n; i++)
        one_limb &= !y[i];
    if (one_limb) { /* a one-limb divisor: limb by limb, from the top */
        u128 rem = 0;
        for (unsigned i = n; i-- > 0;) {
            u128 cur = rem << 64 | x[i];
            q[i] = (uint64_t)(cur / y[0]);
            rem = cur % y[0];
        }
        r[0] = (uint64_t)rem;
        return;
    }
    uint64_t yy[SP_FN_MAX_LIMBS + 1] = {0};
    limbs_cp(yy, y, n);
    for (unsigned i = 64 * n; i-- > 0;) {
        uint64_t carry = (x[i / 64] >> (i % 64)) & 1;
        for (unsigned j = 0; j <= n; j++) {
            uint64_t t = r[j];
            r[j] = t << 1 | carry;
            carry = t >> 63;
        }
        if (gte_n(r, yy, n + 1)) {
            sub_n(r, r, yy, n + 1);
            q[i / 64] |= 1ull << (i % 64);
        }
    }
}

static int overlap(uint64_t a, uint64_t b, unsigned bytes)
{
    return (uint32_t)a < (uint64_t)(uint32_t)b + bytes && (uint32_t)b < (uint64_t)(uint32_t)a + bytes;
}

/* Fr_int_div(x, y, c, r): quotient to c, remainder to r. Division by
 * zero, a missing output or overlapping operands are the module's to do. */
static int n_int_div(sp_wasm_inst *in, void *ctx, const uint64_t *a, uint64_t *ret)
{
    OPERANDS(2);
    uint64_t rem[SP_FN_MAX_LIMBS + 1];
    unsigned b = 8u * n;
    if (!(uint32_t)a[2] || !(uint32_t)a[3] || overlap(a[2], a[3], b) || overlap(a[0], a[2], b) ||
        overlap(a[0], a[3], b) || overlap(a[1], a[2], b) || overlap(a[1], a[3], b))
        return SP_WASM_DECLINE;
    if (!load(in, x, a[0], n) || !load(in, y, a[1], n))
        return 1;
    uint64_t nz = 0;
    for (unsigned i = 0; i < n; i++)
        nz |= y[i];
    if (!nz)
        return SP_WASM_DECLINE;
    divmod(z, rem, x, y, n);
    return !store(in, a[2], z, n) || !store(in, a[3], rem, n);
}

/* Fr_rawCopyS2L(limbs, v): the small integer v as a long normal value. */
static void s2l(const sp_fn_field *f, uint8_t *limbs, int64_t v)
{
    uint64_t x[SP_FN_MAX_LIMBS] = {0};
    x[0] = v > 0 ? (uint64_t)v : (uint64_t)0 - (uint64_t)v;
    if (v <= 0 && x[0]) /* Fr_F1m_neg */
        sub_n(x, f->q, x, f->n);
    limbs_cp(limbs, x, f->n);
}

static void set_type(uint8_t *e, uint32_t t)
{
    memcpy(e + 4, &t, 4);
}

static int32_t short_of(const uint8_t *e)
{
    int32_t v;
    memcpy(&v, e, 4);
    return v;
}

/* Fr_toMontgomery(e) on an element already bounds-checked. */
static void el_to_mont(const sp_fn_field *f, uint8_t *e)
{
    uint64_t x[SP_FN_MAX_LIMBS];
    if (e[7] & 0x40)
        return;
    if (e[7] & 0x80) {
        set_type(e, 0xc0000000u);
    } else {
        s2l(f, e + 8, short_of(e));
    }
    uint64_t v;
    limbs_cp(x, e + 8, f->n);
    if (is_small(f, x, &v))
        limbs_cp(x, f->small[v], f->n);
    else
        sp_fn_mont_mul(f, x, x, f->r2);
    limbs_cp(e + 8, x, f->n);
    if (!(e[7] & 0x80))
        set_type(e, 0x40000000u);
}

/* Limb operations of the element natives: r = op(a, b) on limbs, read
 * and written a limb at a time (a 32-byte copy of limbs just stored a limb
 * at a time stalls on store forwarding); inlined with n a constant for the
 * 4-limb primes, the loops unrolled. */
static inline __attribute__((always_inline)) void limb_add_sub_n(const sp_fn_field *f, uint8_t *r, const uint8_t *a,
                                                                 const uint8_t *b, int sub, unsigned n)
{
    uint64_t z[SP_FN_MAX_LIMBS] = {0}, c = 0;
#pragma GCC unroll 8
    for (unsigned i = 0; i < n; i++) {
        uint64_t x, y;
        memcpy(&x, a + 8 * i, 8);
        memcpy(&y, b + 8 * i, 8);
        u128 t = sub ? (u128)x - y - c : (u128)x + y + c;
        z[i] = (uint64_t)t;
        c = (uint64_t)(t >> 64) & 1;
    }
    if (sub ? c : c || gte_n(z, f->q, n)) { /* add q on a borrow, subtract it as the module does */
        uint64_t k = 0;
#pragma GCC unroll 8
        for (unsigned i = 0; i < n; i++) {
            u128 t = sub ? (u128)z[i] + f->q[i] + k : (u128)z[i] - f->q[i] - k;
            z[i] = (uint64_t)t;
            k = (uint64_t)(t >> 64) & 1;
        }
    }
#pragma GCC unroll 8
    for (unsigned i = 0; i < n; i++)
        memcpy(r + 8 * i, &z[i], 8);
}

static void limb_add(const sp_fn_field *f, uint8_t *r, const uint8_t *a, const uint8_t *b)
{
    if (f->n == 4)
        limb_add_sub_n(f, r, a, b, 0, 4);
    else
        limb_add_sub_n(f, r, a, b, 0, f->n);
}

static void limb_sub(const sp_fn_field *f, uint8_t *r, const uint8_t *a, const uint8_t *b)
{
    if (f->n == 4)
        limb_add_sub_n(f, r, a, b, 1, 4);
    else
        limb_add_sub_n(f, r, a, b, 1, f->n);
}

static void limb_mul(const sp_fn_field *f, uint8_t *r, const uint8_t *a, const uint8_t *b)
{
    uint64_t x[SP_FN_MAX_LIMBS], y[SP_FN_MAX_LIMBS];
    limbs_cp(x, a, f->n);
    limbs_cp(y, b, f->n);
    sp_fn_mont_mul(f, x, x, y);
    limbs_cp(r, x, f->n);
}

typedef void (*limb_op)(const sp_fn_field *f, uint8_t *r, const uint8_t *a, const uint8_t *b);

/* Fr_add and Fr_sub (R, A, B): the cases of the module's code in its
 * order, conversions of A or B in place included. */
static int add_sub(sp_wasm_inst *in, const sp_fn_field *f, const uint64_t *a, int sub)
{
    size_t el = 8 + 8u * f->n;
    uint8_t *r = at(in, a[0], el), *x = at(in, a[1], el), *y = at(in, a[2], el), tmp[8 * SP_FN_MAX_LIMBS];
    limb_op op = sub ? limb_sub : limb_add;
    if (!r || !x || !y)
        return 1;
    if (x[7] & 0x80) {
        if (y[7] & 0x80) {
            if ((x[7] & 0x40) || (y[7] & 0x40)) {
                el_to_mont(f, (x[7] & 0x40) ? y : x);
                set_type(r, 0xc0000000u);
            } else {
                set_type(r, 0x80000000u);
            }
            op(f, r + 8, x + 8, y + 8);
        } else if (x[7] & 0x40) {
            el_to_mont(f, y);
            set_type(r, 0xc0000000u);
            op(f, r + 8, x + 8, y + 8);
        } else {
            set_type(r, 0x80000000u);
            s2l(f, tmp, short_of(y));
            op(f, r + 8, x + 8, tmp);
        }
    } else if (y[7] & 0x80) {
        if (y[7] & 0x40) {
            el_to_mont(f, x);
            set_type(r, 0xc0000000u);
            op(f, r + 8, x + 8, y + 8);
        } else {
            set_type(r, 0x80000000u);
            s2l(f, tmp, short_of(x));
            op(f, r + 8, tmp, y + 8);
        }
    } else {
        int64_t v = sub ? (int64_t)short_of(x) - short_of(y) : (int64_t)short_of(x) + short_of(y);
        int64_t over = v >> 31;
        if (over == 0 || over == -1) {
            int32_t lo = (int32_t)(uint32_t)(uint64_t)v;
            memcpy(r, &lo, 4);
            set_type(r, 0);
        } else {
            set_type(r, 0x80000000u);
            s2l(f, r + 8, v);
        }
    }
    return 0;
}

static int n_fr_add(sp_wasm_inst *in, void *ctx, const uint64_t *a, uint64_t *ret)
{
    return add_sub(in, FIELD, a, 0);
}

static int n_fr_sub(sp_wasm_inst *in, void *ctx, const uint64_t *a, uint64_t *ret)
{
    return add_sub(in, FIELD, a, 1);
}

static int n_fr_mul(sp_wasm_inst *in, void *ctx, const uint64_t *a, uint64_t *ret)
{
    const sp_fn_field *f = FIELD;
    size_t el = 8 + 8u * f->n;
    uint8_t *r = at(in, a[0], el), *x = at(in, a[1], el), *y = at(in, a[2], el);
    if (!r || !x || !y)
        return 1;
    if (!(x[7] & 0x80) && !(y[7] & 0x80)) {
        int64_t v = (int64_t)short_of(x) * short_of(y), over = v >> 31;
        if (over == 0 || over == -1) {
            int32_t lo = (int32_t)(uint32_t)(uint64_t)v;
            memcpy(r, &lo, 4);
            set_type(r, 0);
        } else {
            set_type(r, 0x80000000u);
            s2l(f, r + 8, v);
        }
        return 0;
    }
    if (!(x[7] & 0x80) || !(y[7] & 0x80)) { /* one short: it goes to Montgomery form first */
        uint8_t *lng = (x[7] & 0x80) ? x : y;
        el_to_mont(f, (x[7] & 0x80) ? y : x);
        set_type(r, (lng[7] & 0x40) ? 0xc0000000u : 0x80000000u);
        limb_mul(f, r + 8, x + 8, y + 8);
        return 0;
    }
    int ma = (x[7] & 0x40) != 0, mb = (y[7] & 0x40) != 0;
    set_type(r, ma == mb ? 0xc0000000u : 0x80000000u);
    limb_mul(f, r + 8, x + 8, y + 8);
    if (!ma && !mb) /* normal times normal: to Montgomery form with R^3 */
        limb_mul(f, r + 8, (const uint8_t *)f->r3, r + 8);
    return 0;
}

static int n_fr_to_mont(sp_wasm_inst *in, void *ctx, const uint64_t *a, uint64_t *ret)
{
    uint8_t *e = at(in, a[0], 8);
    if (!e)
        return 1;
    if (!(e[7] & 0x40) && !(e = at(in, a[0], 8 + 8u * FIELD->n)))
        return 1;
    el_to_mont(FIELD, e);
    return 0;
}

static int n_is_true(sp_wasm_inst *in, void *ctx, const uint64_t *a, uint64_t *ret)
{
    uint8_t *e = at(in, a[0], 8);
    if (!e)
        return 1;
    if (e[7] & 0x80) {
        uint64_t x[SP_FN_MAX_LIMBS], nz = 0;
        if (!load(in, x, (uint32_t)a[0] + 8ull, FIELD->n))
            return 1;
        for (unsigned i = 0; i < FIELD->n; i++)
            nz |= x[i];
        *ret = nz != 0;
    } else {
        *ret = short_of(e) != 0;
    }
    return 0;
}

/* The operands x, y of a comparison: 1 when both are short (compared as
 * such); else 0, after a short one beside a long one became long normal
 * in place, as the module does. */
static int both_short(const sp_fn_field *f, uint8_t *x, uint8_t *y)
{
    if (!(x[7] & 0x80) && !(y[7] & 0x80))
        return 1;
    uint8_t *s = (x[7] & 0x80) ? y : x;
    if (!(s[7] & 0x80)) {
        s2l(f, s + 8, short_of(s));
        set_type(s, 0x80000000u);
    }
    return 0;
}

/* Fr_eqR(A, B): a short operand beside a long one becomes long normal in
 * place, a Montgomery one beside a normal one normal, as the module does. */
static int n_eq_r(sp_wasm_inst *in, void *ctx, const uint64_t *a, uint64_t *ret)
{
    const sp_fn_field *f = FIELD;
    size_t el = 8 + 8u * f->n;
    uint8_t *x = at(in, a[0], el), *y = at(in, a[1], el);
    if (!x || !y)
        return 1;
    if (both_short(f, x, y)) {
        *ret = short_of(x) == short_of(y);
        return 0;
    }
    if ((x[7] & 0x40) != (y[7] & 0x40) && to_normal(in, f, (uint32_t)((x[7] & 0x40) ? a[0] : a[1])))
        return 1;
    *ret = (uint64_t)limbs_eq(x + 8, y + 8, f->n);
    return 0;
}

/* Fr_gtR(A, B): A > B with values above (q - 1) / 2 negative; a short
 * operand beside a long one becomes long normal in place and both become
 * normal, as the module does. */
static int n_gt_r(sp_wasm_inst *in, void *ctx, const uint64_t *a, uint64_t *ret)
{
    const sp_fn_field *f = FIELD;
    size_t el = 8 + 8u * f->n;
    uint8_t *x = at(in, a[0], el), *y = at(in, a[1], el);
    if (!x || !y)
        return 1;
    if (both_short(f, x, y)) {
        *ret = short_of(x) > short_of(y);
        return 0;
    }
    if (to_normal(in, f, (uint32_t)a[0]) || to_normal(in, f, (uint32_t)a[1]))
        return 1;
    uint64_t u[SP_FN_MAX_LIMBS], v[SP_FN_MAX_LIMBS];
    limbs_cp(u, x + 8, f->n);
    limbs_cp(v, y + 8, f->n);
    int nu = !gte_n(f->half, u, f->n), nv = !gte_n(f->half, v, f->n);
    *ret = nu != nv ? (uint64_t)nv : (uint64_t)!gte_n(v, u, f->n);
    return 0;
}

/* Fr_toInt(A): the value as a 32-bit integer, negative ones (above
 * (q - 1) / 2) as their negation's low word negated. A long A is made
 * normal in place, as the module does; the one short the module negates
 * into a long (-2^31) is left to it. */
static int n_to_int(sp_wasm_inst *in, void *ctx, const uint64_t *a, uint64_t *ret)
{
    const sp_fn_field *f = FIELD;
    uint8_t *e = at(in, a[0], 8);
    if (!e)
        return 1;
    if (!(e[7] & 0x80)) {
        int32_t v = short_of(e);
        if (v == INT32_MIN)
            return SP_WASM_DECLINE;
        *ret = (uint32_t)v;
        return 0;
    }
    uint64_t x[SP_FN_MAX_LIMBS];
    if (to_normal(in, f, (uint32_t)a[0])) /* which checked the whole element's bounds */
        return 1;
    limbs_cp(x, e + 8, f->n);
    if (gte_n(f->half, x, f->n)) {
        *ret = (uint32_t)x[0];
    } else {
        sub_n(x, f->q, x, f->n);
        *ret = (uint32_t)(0u - (uint32_t)x[0]);
    }
    return 0;
}

/* The element at p is long normal with a value below 2^63 (in *u), so
 * below (q - 1) / 2: the comparisons need neither conversion nor sign. */
static inline int long_normal_int(sp_wasm_inst *in, const sp_fn_field *f, uint64_t p, uint64_t *u)
{
    uint8_t *e = at(in, p, 8 + 8u * f->n);
    uint64_t x[SP_FN_MAX_LIMBS], hi = 0;
    if (!e || (e[7] & 0xc0) != 0x80)
        return 0;
    limbs_cp(x, e + 8, f->n);
    for (unsigned i = 1; i < f->n; i++)
        hi |= x[i];
    *u = x[0];
    return !hi && !(x[0] >> 63);
}

/* Fr_eq, Fr_neq, Fr_lt, Fr_leq, Fr_gt, Fr_geq(R, A, B): Fr_eqR(A, B),
 * then Fr_gtR(A, B) when they differ and the answer depends on it (both
 * convert their operands in place, as the module's do), and R the short
 * 0 or 1 as one 64-bit store. res: R when equal, greater, less. */
static int compare(sp_wasm_inst *in, void *ctx, const uint64_t *a, const char res[3])
{
    uint64_t eq = 0, gt = 0, v, u, w;
    int rc;
    if (long_normal_int(in, FIELD, a[1], &u) && long_normal_int(in, FIELD, a[2], &w)) {
        eq = u == w; /* as Fr_eqR and Fr_gtR find, converting nothing */
        gt = u > w;
    } else if ((rc = n_eq_r(in, ctx, a + 1, &eq)) ||
               (!eq && res[1] != res[2] && (rc = n_gt_r(in, ctx, a + 1, &gt)))) {
        return rc;
    }
    v = (uint64_t)(eq ? res[0] : gt ? res[1] : res[2]);
    uint8_t *r = at(in, a[0], 8);
    if (!r)
        return 1;
    memcpy(r, &v, 8);
    return 0;
}

#define COMPARISON(name, res)                                                      \
    static int name(sp_wasm_inst *in, void *ctx, const uint64_t *a, uint64_t *ret) \
    {                                                                              \
        return compare(in, ctx, a, res);                                           \
    }
COMPARISON(n_eq, "\1\0\0")
COMPARISON(n_neq, "\0\1\1")
COMPARISON(n_lt, "\0\0\1")
COMPARISON(n_leq, "\1\0\1")
COMPARISON(n_gt, "\0\1\0")
COMPARISON(n_geq, "\1\1\0")
#undef COMPARISON

/* The element at p made long (Fr_rawCopyS2L when short) and normal, in
 * place, as the bitwise operations do first. Returns 1 on a trap. */
static int to_long_normal(sp_wasm_inst *in, const sp_fn_field *f, uint32_t p)
{
    uint8_t *e = at(in, p, 8 + 8u * f->n);
    if (!e)
        return 1;
    if (!(e[7] & 0x80)) {
        s2l(f, e + 8, short_of(e));
        set_type(e, 0x80000000u);
    }
    return to_normal(in, f, p);
}

/* Fr_band(R, A, B): two non-negative shorts give a short; otherwise both
 * become long normal in place and R = A & B, q subtracted once when >= q
 * (Fr_adjustBinResult); a result with bits past q's bit length (never
 * from canonical operands) is left to the module, whose mask then applies
 * (the conversions done here are idempotent). */
static int n_band(sp_wasm_inst *in, void *ctx, const uint64_t *a, uint64_t *ret)
{
    const sp_fn_field *f = FIELD;
    unsigned n = f->n;
    uint8_t *x = at(in, a[1], 8), *y = at(in, a[2], 8), *r;
    if (!x || !y)
        return 1;
    if (!(x[7] & 0x80) && short_of(x) >= 0 && !(y[7] & 0x80) && short_of(y) >= 0) {
        uint32_t v = (uint32_t)short_of(x) & (uint32_t)short_of(y);
        if (!(r = at(in, a[0], 8)))
            return 1;
        memcpy(r, &v, 4);
        set_type(r, 0);
        return 0;
    }
    uint64_t u[SP_FN_MAX_LIMBS], v[SP_FN_MAX_LIMBS];
    if (to_long_normal(in, f, (uint32_t)a[1]) || to_long_normal(in, f, (uint32_t)a[2]) ||
        !load(in, u, (uint32_t)a[1] + 8ull, n) || !load(in, v, (uint32_t)a[2] + 8ull, n) ||
        !(r = at(in, a[0], 8 + 8u * n)))
        return 1;
    for (unsigned i = 0; i < n; i++)
        u[i] &= v[i];
    if (u[n - 1] & ~f->top_mask) /* operands past q's bit length: the module's mask decides */
        return SP_WASM_DECLINE;
    if (gte_n(u, f->q, n))
        sub_n(u, u, f->q, n);
    set_type(r, 0x80000000u);
    limbs_cp(r + 8, u, n);
    return 0;
}

/* Fr_rawshrl(R, A, k): R[i] = A[i + k / 64] >> k % 64 | A[i + k / 64 + 1]
 * << (64 - k % 64), limbs past A's last reading 0, one limb at a time in
 * the module's order (so that R may overlap A as it may there); addresses
 * in 32-bit arithmetic as the module's. */
static int raw_shrl(sp_wasm_inst *in, const sp_fn_field *f, uint32_t pr, uint32_t pa, uint32_t k)
{
    uint32_t w = k >> 6, bits = k & 63;
    for (uint32_t i = 0; i < f->n; i++) {
        uint64_t lo = 0, hi = 0;
        uint32_t j = w + i;
        if (j < f->n && !load(in, &lo, pa + 8 * j, 1))
            return 1;
        if (j + 1 < f->n && !load(in, &hi, pa + 8 * (j + 1), 1))
            return 1;
        uint64_t v = lo >> bits | (bits ? hi << (64 - bits) : 0);
        if (!store(in, pr + 8 * i, &v, 1))
            return 1;
    }
    return 0;
}

static int n_raw_shrl(sp_wasm_inst *in, void *ctx, const uint64_t *a, uint64_t *ret)
{
    return raw_shrl(in, FIELD, (uint32_t)a[0], (uint32_t)a[1], (uint32_t)a[2]);
}

/* Fr_rawshr(R, A, k): a long A made normal, a negative short made long,
 * in place, then shifted as limbs into a long normal R; a non-negative
 * short shifted as a 32-bit word (0 from 32 on). */
static int n_raw_shr(sp_wasm_inst *in, void *ctx, const uint64_t *a, uint64_t *ret)
{
    const sp_fn_field *f = FIELD;
    uint32_t pr = (uint32_t)a[0], pa = (uint32_t)a[1], k = (uint32_t)a[2];
    uint8_t *x = at(in, pa, 8), *r;
    if (!x)
        return 1;
    if ((x[7] & 0x80) || short_of(x) < 0) {
        if (to_long_normal(in, f, pa) || raw_shrl(in, f, pr + 8, pa + 8, k) || !(r = at(in, pr, 8)))
            return 1;
        set_type(r, 0x80000000u);
        return 0;
    }
    uint32_t v = k < 32 ? (uint32_t)short_of(x) >> k : 0;
    if (!(r = at(in, pr, 8)))
        return 1;
    memcpy(r, &v, 4);
    set_type(r, 0);
    return 0;
}

const sp_wasm_native sp_fn_natives[] = {
    {"Fr_eq", "iii:", n_eq}, {"Fr_neq", "iii:", n_neq},
    {"Fr_lt", "iii:", n_lt}, {"Fr_leq", "iii:", n_leq},
    {"Fr_gt", "iii:", n_gt}, {"Fr_geq", "iii:", n_geq},
    {"Fr_band", "iii:", n_band}, {"Fr_rawshrl", "iii:", n_raw_shrl},
    {"Fr_rawshr", "iii:", n_raw_shr}, {"Fr_toInt", "i:i", n_to_int},
    {"Fr_gtR", "ii:i", n_gt_r}, {"Fr_add", "iii:", n_fr_add},
    {"Fr_sub", "iii:", n_fr_sub}, {"Fr_mul", "iii:", n_fr_mul},
    {"Fr_toMontgomery", "i:", n_fr_to_mont}, {"Fr_isTrue", "i:i", n_is_true},
    {"Fr_eqR", "ii:i", n_eq_r}, {"Fr_copy", "ii:", n_copy},
    {"Fr_int_gt", "ii:i", n_int_gt}, {"Fr_int_eq", "ii:i", n_int_eq},
    {"Fr_toNormal", "i:", n_to_normal}, {"Fr_isNegative", "i:i", n_is_negative},
    {"Fr_getLsb32", "i:i", n_get_lsb32}, {"Fr_int_div", "iiii:", n_int_div},
    {"Fr_int_add", "iii:i", n_int_add}, {"Fr_int_sub", "iii:i", n_int_sub},
    {"Fr_int_gte", "ii:i", n_int_gte}, {"Fr_int_mul", "iii:", n_int_mul},
    {"Fr_int_square", "ii:", n_int_square}, {"Fr_F1m_add", "iii:", n_add},
    {"Fr_F1m_sub", "iii:", n_sub}, {"Fr_F1m_mul", "iii:", n_mul},
    {"Fr_F1m_square", "ii:", n_square}, {"Fr_F1m_toMontgomery", "ii:", n_to_mont},
    {"Fr_F1m_fromMontgomery", "ii:", n_from_mont},
};
const size_t sp_fn_n_natives = sizeof sp_fn_natives / sizeof sp_fn_natives[0];
