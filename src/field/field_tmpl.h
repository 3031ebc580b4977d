/*
 * Implementation of one prime field, instantiated by fp.c and fr.c.
 * The includer defines, before including this file:
 *   F       the field's short name (fp or fr)
 *   N       limbs
 *   MODULUS, MONT_ONE (R mod m), MONT_R2 (R^2 mod m): uint64_t[N] arrays
 *   N0      -m^(-1) mod 2^64
 *   DEC_MAX the decimal buffer size
 *   and optionally ASM_MUL(r, a, b), ASM_SQR(r, a), ASM_ADD(r, a, b),
 *   ASM_SUB(r, a, b), ASM_NEG(r, a) on uint64_t arrays (all or none),
 *   used when sp_field_asm_on() says so (fp_asm.h).
 * Contracts are in field.h.
 */
#include <string.h>
#include "field/field.h"
#include "field/mont.h"
#include "field/fp_asm.h"

#define SP_CAT2(a, b) a##b
#define SP_CAT(a, b) SP_CAT2(a, b)
#define FN(name) SP_CAT(SP_CAT(sp_, F), SP_CAT(_, name))
#define T SP_CAT(sp_, F)

const uint64_t SP_CAT(SP_CAT(SP_, MODULUS_NAME), _MODULUS)[N] = MODULUS;
static const uint64_t mod_[N] = MODULUS;
static const uint64_t one_[N] = MONT_ONE;
static const uint64_t r2_[N] = MONT_R2;

/* The portable bodies stay out of line so that the dispatching functions
 * below compile to a test and a tail call, with no register saves. */
#if defined(__GNUC__)
#define SP_NOINLINE __attribute__((noinline))
#else
#define SP_NOINLINE
#endif
static SP_NOINLINE void FN(add_c_)(T *r, const T *a, const T *b) { sp_mont_add(r->l, a->l, b->l, mod_, N); }
static SP_NOINLINE void FN(sub_c_)(T *r, const T *a, const T *b) { sp_mont_sub(r->l, a->l, b->l, mod_, N); }
static SP_NOINLINE void FN(neg_c_)(T *r, const T *a) { sp_mont_neg(r->l, a->l, mod_, N); }
void FN(mul_portable)(T *r, const T *a, const T *b) { sp_mont_mul(r->l, a->l, b->l, mod_, N0, N); }
void FN(sqr_portable)(T *r, const T *a) { sp_mont_mul(r->l, a->l, a->l, mod_, N0, N); }

/* ASM_OR(x, c): run x on the assembly path, else the portable c. */
#ifdef ASM_MUL
#define ASM_OR(x, c)                                                               \
    do {                                                                           \
        if (sp_field_asm_on())                                                     \
            x;                                                                     \
        else                                                                       \
            c;                                                                     \
    } while (0)
#else
#define ASM_OR(x, c) c
#endif

void FN(add)(T *r, const T *a, const T *b) { ASM_OR(ASM_ADD(r->l, a->l, b->l), FN(add_c_)(r, a, b)); }
void FN(sub)(T *r, const T *a, const T *b) { ASM_OR(ASM_SUB(r->l, a->l, b->l), FN(sub_c_)(r, a, b)); }
void FN(neg)(T *r, const T *a) { ASM_OR(ASM_NEG(r->l, a->l), FN(neg_c_)(r, a)); }
void FN(dbl)(T *r, const T *a) { ASM_OR(ASM_ADD(r->l, a->l, a->l), FN(add_c_)(r, a, a)); }
void FN(mul)(T *r, const T *a, const T *b) { ASM_OR(ASM_MUL(r->l, a->l, b->l), FN(mul_portable)(r, a, b)); }
void FN(sqr)(T *r, const T *a) { ASM_OR(ASM_SQR(r->l, a->l), FN(sqr_portable)(r, a)); }

int FN(is_zero)(const T *a) { return sp_limbs_is_zero(a->l, N); }
int FN(is_one)(const T *a) { return sp_limbs_eq(a->l, one_, N); }
int FN(eq)(const T *a, const T *b) { return sp_limbs_eq(a->l, b->l, N); }
void FN(set_zero)(T *r) { memset(r->l, 0, sizeof r->l); }
void FN(set_one)(T *r) { memcpy(r->l, one_, sizeof r->l); }

void FN(set_u64)(T *r, uint64_t v)
{
    T t;
    memset(&t, 0, sizeof t);
    t.l[0] = v; /* v < 2^64 < m, so it is canonical */
    FN(mul)(r, &t, (const T *)(const void *)r2_);
}

void FN(cmov)(T *r, const T *a, int c)
{
    uint64_t mask = 0 - (uint64_t)(c & 1);
    for (int i = 0; i < N; i++)
        r->l[i] ^= (r->l[i] ^ a->l[i]) & mask;
}

/* Fixed 4-bit windows: per window 4 squarings and one multiplication by a
 * table entry picked with a full masked scan, so the time depends on
 * e_len only. */
void FN(pow)(T *r, const T *a, const uint64_t *e, size_t e_len)
{
    T tab[16], acc, t;
    FN(set_one)(&tab[0]);
    tab[1] = *a;
    for (int i = 2; i < 16; i++)
        FN(mul)(&tab[i], &tab[i - 1], a);
    FN(set_one)(&acc);
    for (size_t i = e_len; i-- > 0;) {
        for (int w = 60; w >= 0; w -= 4) {
            for (int k = 0; k < 4; k++)
                FN(sqr)(&acc, &acc);
            uint64_t idx = (e[i] >> w) & 15;
            memset(&t, 0, sizeof t);
            for (uint64_t j = 0; j < 16; j++) {
                uint64_t mask = 0 - (((j ^ idx) - 1) >> 63); /* all ones iff j == idx */
                for (int k = 0; k < N; k++)
                    t.l[k] |= tab[j].l[k] & mask;
            }
            FN(mul)(&acc, &acc, &t);
        }
    }
    *r = acc;
}

/* r = a^e for a public exponent e (e_len limbs, little-endian): the time
 * depends on e, never on a. Left to right, 5-bit sliding windows over the
 * odd powers a, a^3, .., a^31. */
static void FN(pow_public_)(T *r, const T *a, const uint64_t *e, size_t e_len)
{
    T odd[16], a2, acc;
    odd[0] = *a;
    FN(sqr)(&a2, a);
    for (int i = 1; i < 16; i++)
        FN(mul)(&odd[i], &odd[i - 1], &a2);
    FN(set_one)(&acc);
    int started = 0;
#define EBIT(k) ((e[(k) / 64] >> ((k) % 64)) & 1)
    for (long bit = (long)e_len * 64 - 1; bit >= 0;) {
        if (!EBIT(bit)) {
            if (started)
                FN(sqr)(&acc, &acc);
            bit--;
            continue;
        }
        long low = bit - 4 < 0 ? 0 : bit - 4; /* window [low, bit] ends in a 1 */
        while (!EBIT(low))
            low++;
        unsigned v = 0;
        for (long k = bit; k >= low; k--) {
            v = (v << 1) | (unsigned)EBIT(k);
            if (started)
                FN(sqr)(&acc, &acc);
        }
        if (started)
            FN(mul)(&acc, &acc, &odd[v >> 1]);
        else
            acc = odd[v >> 1];
        started = 1;
        bit = low - 1;
    }
#undef EBIT
    *r = acc;
}

void FN(inv)(T *r, const T *a)
{
    /* Fermat: a^(m-2); m is odd and > 2, so m - 2 only touches limb 0. */
    uint64_t e[N];
    memcpy(e, mod_, sizeof e);
    e[0] -= 2;
    FN(pow_public_)(r, a, e, N);
}

sp_status FN(from_canonical)(T *r, const uint64_t in[N])
{
    if (!sp_limbs_lt(in, mod_, N))
        return SP_ERR_NOT_CANONICAL;
    T t;
    memcpy(t.l, in, sizeof t.l);
    FN(mul)(r, &t, (const T *)(const void *)r2_);
    return SP_OK;
}

void FN(to_canonical)(uint64_t out[N], const T *a)
{
    T one, t;
    memset(&one, 0, sizeof one);
    one.l[0] = 1;
    FN(mul)(&t, a, &one);
    memcpy(out, t.l, sizeof t.l);
}

sp_status FN(from_bytes_be)(T *r, const uint8_t in[8 * N])
{
    uint64_t l[N];
    sp_limbs_from_be(l, in, N);
    return FN(from_canonical)(r, l);
}

sp_status FN(from_bytes_le)(T *r, const uint8_t in[8 * N])
{
    uint64_t l[N];
    sp_limbs_from_le(l, in, N);
    return FN(from_canonical)(r, l);
}

void FN(to_bytes_be)(uint8_t out[8 * N], const T *a)
{
    uint64_t l[N];
    FN(to_canonical)(l, a);
    sp_limbs_to_be(out, l, N);
}

void FN(to_bytes_le)(uint8_t out[8 * N], const T *a)
{
    uint64_t l[N];
    FN(to_canonical)(l, a);
    sp_limbs_to_le(out, l, N);
}

void FN(random)(T *r, sp_rng *rng)
{
    /* Rejection sampling on the modulus' bit length: uniform, and at
     * most a few rounds since m is more than half of 2^bits. */
    int top = 63;
    while (!((mod_[N - 1] >> top) & 1))
        top--;
    uint64_t mask = top == 63 ? ~0ULL : ((1ULL << (top + 1)) - 1);
    uint64_t l[N];
    do {
        for (int i = 0; i < N; i++)
            l[i] = sp_rng_u64(rng);
        l[N - 1] &= mask;
    } while (!sp_limbs_lt(l, mod_, N));
    memcpy(r->l, l, sizeof l); /* a uniform canonical value is also uniform as x*R */
}

/* l = l * k + d over N+1 limbs; returns 1 when it overflowed N limbs. */
static int FN(small_muladd_)(uint64_t *l, uint64_t k, uint64_t d)
{
    uint64_t c = d;
    for (int i = 0; i < N; i++) {
        sp_u128 t = (sp_u128)l[i] * k + c;
        l[i] = (uint64_t)t;
        c = (uint64_t)(t >> 64);
    }
    return c != 0;
}

/* The value of digit c in base 10 or 16, or -1 when c is not one. */
static int FN(digit_)(char c, unsigned base)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (base == 16 && c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (base == 16 && c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

sp_status FN(from_str)(T *r, const char *s)
{
    uint64_t l[N] = {0};
    unsigned base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    }
    if (!*s)
        return SP_ERR_BAD_ENCODING;
    /* Every character is checked before any overflow is reported, so a
     * long string with a bad character is "malformed", not "too large". */
    for (const char *q = s; *q; q++)
        if (FN(digit_)(*q, base) < 0)
            return SP_ERR_BAD_ENCODING;
    for (; *s; s++)
        if (FN(small_muladd_)(l, base, (uint64_t)FN(digit_)(*s, base)))
            return SP_ERR_NOT_CANONICAL;
    return FN(from_canonical)(r, l);
}

sp_status FN(to_dec)(char *out, size_t out_len, const T *a)
{
    if (out_len < DEC_MAX)
        return SP_ERR_INVALID_ARG;
    uint64_t l[N];
    FN(to_canonical)(l, a);
    char buf[DEC_MAX];
    size_t n = 0;
    do { /* divide by 10 until zero; public data, speed is irrelevant */
        sp_u128 rem = 0;
        for (int i = N - 1; i >= 0; i--) {
            sp_u128 cur = (rem << 64) | l[i];
            l[i] = (uint64_t)(cur / 10);
            rem = cur % 10;
        }
        buf[n++] = (char)('0' + (int)rem);
    } while (!sp_limbs_is_zero(l, N));
    for (size_t i = 0; i < n; i++)
        out[i] = buf[n - 1 - i];
    out[n] = '\0';
    return SP_OK;
}

#undef ASM_OR
#undef SP_NOINLINE
#undef FN
#undef T
