/*
 * Implementation of one prime field, instantiated by fp.c and fr.c.
 * The includer defines, before including this file:
 *   F       the field's short name (fp or fr)
 *   N       limbs
 *   MODULUS, MONT_ONE (R mod m), MONT_R2 (R^2 mod m): uint64_t[N] arrays
 *   N0      -m^(-1) mod 2^64
 *   DEC_MAX the decimal buffer size
 *   and optionally ASM_MUL(r, a, b) / ASM_SQR(r, a) on uint64_t arrays,
 *   used when sp_field_asm_active() says so.
 * Contracts are in field.h.
 */
#include <string.h>
#include "field/field.h"
#include "field/mont.h"

#define SP_CAT2(a, b) a##b
#define SP_CAT(a, b) SP_CAT2(a, b)
#define FN(name) SP_CAT(SP_CAT(sp_, F), SP_CAT(_, name))
#define T SP_CAT(sp_, F)

const uint64_t SP_CAT(SP_CAT(SP_, MODULUS_NAME), _MODULUS)[N] = MODULUS;
static const uint64_t mod_[N] = MODULUS;
static const uint64_t one_[N] = MONT_ONE;
static const uint64_t r2_[N] = MONT_R2;

void FN(add)(T *r, const T *a, const T *b) { sp_mont_add(r->l, a->l, b->l, mod_, N); }
void FN(sub)(T *r, const T *a, const T *b) { sp_mont_sub(r->l, a->l, b->l, mod_, N); }
void FN(neg)(T *r, const T *a) { sp_mont_neg(r->l, a->l, mod_, N); }
void FN(dbl)(T *r, const T *a) { sp_mont_add(r->l, a->l, a->l, mod_, N); }

void FN(mul_portable)(T *r, const T *a, const T *b) { sp_mont_mul(r->l, a->l, b->l, mod_, N0, N); }
void FN(sqr_portable)(T *r, const T *a) { sp_mont_mul(r->l, a->l, a->l, mod_, N0, N); }

void FN(mul)(T *r, const T *a, const T *b)
{
#ifdef ASM_MUL
    if (sp_field_asm_active()) {
        ASM_MUL(r->l, a->l, b->l);
        return;
    }
#endif
    sp_mont_mul(r->l, a->l, b->l, mod_, N0, N);
}

void FN(sqr)(T *r, const T *a)
{
#ifdef ASM_SQR
    if (sp_field_asm_active()) {
        ASM_SQR(r->l, a->l);
        return;
    }
#endif
    FN(mul)(r, a, a);
}

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

void FN(pow)(T *r, const T *a, const uint64_t *e, size_t e_len)
{
    T acc, t, base = *a;
    FN(set_one)(&acc);
    for (size_t i = e_len; i-- > 0;) {
        for (int b = 63; b >= 0; b--) {
            FN(sqr)(&acc, &acc);
            FN(mul)(&t, &acc, &base);
            FN(cmov)(&acc, &t, (int)((e[i] >> b) & 1));
        }
    }
    *r = acc;
}

void FN(inv)(T *r, const T *a)
{
    /* Fermat: a^(m-2); m is odd and > 2, so m - 2 only touches limb 0. */
    uint64_t e[N];
    memcpy(e, mod_, sizeof e);
    e[0] -= 2;
    FN(pow)(r, a, e, N);
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
    for (; *s; s++) {
        unsigned d;
        if (*s >= '0' && *s <= '9')
            d = (unsigned)(*s - '0');
        else if (base == 16 && *s >= 'a' && *s <= 'f')
            d = (unsigned)(*s - 'a' + 10);
        else if (base == 16 && *s >= 'A' && *s <= 'F')
            d = (unsigned)(*s - 'A' + 10);
        else
            return SP_ERR_BAD_ENCODING;
        if (FN(small_muladd_)(l, base, d))
            return SP_ERR_NOT_CANONICAL;
    }
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

#undef FN
#undef T
