/* Input values as snarkjs reads them (circom_value.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "wasm/circom_value.h"

#define BIG_WORDS 40 /* 2^1024 (above any double); a string's digits are reduced as they come */
#define MAX_DEPTH 64

typedef struct {
    uint32_t w[BIG_WORDS];
    size_t n; /* words in use */
} big;

static void big_mul_add(big *b, uint32_t mul, uint32_t add)
{
    uint64_t carry = add;
    for (size_t i = 0; i < b->n; i++) {
        uint64_t t = (uint64_t)b->w[i] * mul + carry;
        b->w[i] = (uint32_t)t;
        carry = t >> 32;
    }
    if (carry && b->n < BIG_WORDS)
        b->w[b->n++] = (uint32_t)carry;
}

/* r = b mod p, by the bits of b from the top (r has n32 + 1 words). */
static void big_mod(uint32_t *out, const big *b, const uint32_t *p, unsigned n32)
{
    uint32_t r[SP_CV_MAX_N32 + 1] = {0};
    for (size_t i = b->n * 32; i-- > 0;) {
        uint32_t carry = (b->w[i / 32] >> (i % 32)) & 1;
        for (unsigned j = 0; j <= n32; j++) {
            uint32_t t = r[j];
            r[j] = (t << 1) | carry;
            carry = t >> 31;
        }
        int ge = 1; /* r >= p: r overflowed into word n32, or compares so */
        for (unsigned j = n32; !r[n32] && j-- > 0;)
            if (r[j] != p[j]) {
                ge = r[j] > p[j];
                break;
            }
        if (ge) {
            uint64_t bw = 0;
            for (unsigned j = 0; j <= n32; j++) {
                uint64_t d = (uint64_t)r[j] - (j < n32 ? p[j] : 0) - bw;
                r[j] = (uint32_t)d;
                bw = (d >> 32) & 1;
            }
        }
    }
    memcpy(out, r, 4 * n32);
}

static void negate_mod(uint32_t *w, const uint32_t *p, unsigned n32)
{
    int zero = 1;
    for (unsigned j = 0; j < n32; j++)
        zero &= !w[j];
    if (zero)
        return;
    uint64_t bw = 0;
    for (unsigned j = 0; j < n32; j++) {
        uint64_t d = (uint64_t)p[j] - w[j] - bw;
        w[j] = (uint32_t)d;
        bw = (d >> 32) & 1;
    }
}

static int digit(char ch, unsigned base)
{
    unsigned d = ch >= '0' && ch <= '9' ? (unsigned)(ch - '0')
               : ch >= 'a' && ch <= 'z' ? (unsigned)(ch - 'a' + 10)
               : ch >= 'A' && ch <= 'Z' ? (unsigned)(ch - 'A' + 10) : 99;
    return d < base ? (int)d : -1;
}

/* 1 when t[0..n) (n <= 3 bytes of UTF-8) is a character BigInt() trims:
 * JavaScript's white space and line terminators. */
static int is_space(const unsigned char *t, size_t n)
{
    if (n == 1)
        return t[0] && strchr(" \t\n\v\f\r", t[0]);
    if (n == 2)
        return t[0] == 0xc2 && t[1] == 0xa0;
    return (t[0] == 0xe2 && t[1] == 0x80 && ((t[2] >= 0x80 && t[2] <= 0x8a) || t[2] == 0xa8 || t[2] == 0xa9 ||
                                             t[2] == 0xaf)) ||
           (t[0] == 0xe2 && t[1] == 0x81 && t[2] == 0x9f) || (t[0] == 0xe1 && t[1] == 0x9a && t[2] == 0x80) ||
           (t[0] == 0xe3 && t[1] == 0x80 && t[2] == 0x80) || (t[0] == 0xef && t[1] == 0xbb && t[2] == 0xbf);
}

/* BigInt(s) mod p (s of any length): 0 and *neg on success, -1 when s is
 * not an integer literal. */
static int parse_string(big *b, int *neg, const char *str, size_t len, const uint32_t *p, unsigned n32)
{
    const unsigned char *s = (const unsigned char *)str;
    for (size_t n = 1; n <= 3 && n <= len;)
        if (is_space(s, n))
            s += n, len -= n, n = 1;
        else
            n++;
    for (size_t n = 1; n <= 3 && n <= len;)
        if (is_space(s + len - n, n))
            len -= n, n = 1;
        else
            n++;
    unsigned base = 10;
    *neg = 0;
    b->n = 0;
    if (len >= 2 && s[0] == '0' && strchr("xXoObB", s[1])) {
        base = s[1] == 'x' || s[1] == 'X' ? 16 : s[1] == 'o' || s[1] == 'O' ? 8 : 2;
        s += 2, len -= 2;
        if (!len)
            return -1;
    } else if (len && (s[0] == '-' || s[0] == '+')) {
        *neg = s[0] == '-';
        s++, len--;
        if (!len)
            return -1;
    }
    for (size_t i = 0; i < len; i++) {
        int d = digit(s[i], base);
        if (d < 0)
            return -1;
        big_mul_add(b, base, (uint32_t)d);
        if (b->n > n32 + 2) {
            big_mod(b->w, b, p, n32);
            b->n = n32;
        }
    }
    return 0;
}

/* BigInt(x) of a double: the integer it is exactly; -1 when not one. */
static int from_double(big *b, int *neg, double x)
{
    if (!isfinite(x) || x != floor(x))
        return -1;
    *neg = x < 0;
    int e;
    double f = frexp(fabs(x), &e); /* |x| = f 2^e, f in [0.5, 1) */
    uint64_t mant = (uint64_t)ldexp(f, 53);
    int shift = e - 53;
    b->n = 0;
    if (shift < 0) {
        mant >>= -shift;
        shift = 0;
    }
    b->w[0] = (uint32_t)mant;
    b->w[1] = (uint32_t)(mant >> 32);
    b->n = 2;
    for (int k = 0; k < shift; k++) /* at most 971 doublings */
        big_mul_add(b, 2, 0);
    return 0;
}

sp_status sp_cv_value(uint32_t *w, const sp_json_val *v, const uint32_t *prime, unsigned n32, const char *signal,
                      char err[SP_ERR_LEN])
{
    big b;
    int neg = 0, bad = 0;
    memset(w, 0, 4 * n32);
    if (v->type == SP_JSON_TRUE || v->type == SP_JSON_FALSE) {
        w[0] = v->type == SP_JSON_TRUE;
        return SP_OK;
    }
    if (v->type == SP_JSON_NUMBER) {
        bad = from_double(&b, &neg, strtod(v->text, NULL));
        if (bad) {
            snprintf(err, SP_ERR_LEN, "input signal %.100s: %.40s is not an integer", signal, v->text);
            return SP_ERR_BAD_ENCODING;
        }
    } else if (v->type == SP_JSON_STRING) {
        bad = parse_string(&b, &neg, v->text, v->n, prime, n32);
        if (bad) {
            snprintf(err, SP_ERR_LEN, "input signal %.100s: \"%.40s%s\" is not a number (decimal, or hex with 0x)",
                     signal, v->text, v->n > 40 ? "..." : "");
            return SP_ERR_BAD_ENCODING;
        }
    } else {
        snprintf(err, SP_ERR_LEN, "input signal %.100s: %s is not a number", signal, sp_json_type_name(v->type));
        return SP_ERR_BAD_ENCODING;
    }
    big_mod(w, &b, prime, n32);
    if (neg)
        negate_mod(w, prime, n32);
    return SP_OK;
}

static int flatten(const sp_json_val ***out, size_t *n, size_t *cap, const sp_json_val *v, unsigned depth)
{
    if (depth > MAX_DEPTH)
        return -1;
    if (v->type == SP_JSON_ARRAY) {
        for (size_t i = 0; i < v->n; i++)
            if (flatten(out, n, cap, v->items[i], depth + 1))
                return -1;
        return 0;
    }
    if (*n == *cap) {
        size_t nc = *cap ? 2 * *cap : 16;
        const sp_json_val **q = realloc(*out, nc * sizeof *q);
        if (!q)
            return -2;
        *out = q;
        *cap = nc;
    }
    (*out)[(*n)++] = v;
    return 0;
}

sp_status sp_cv_flatten(const sp_json_val ***out, size_t *n, const sp_json_val *v, const char *signal,
                        char err[SP_ERR_LEN])
{
    size_t cap = 0;
    *out = NULL;
    *n = 0;
    int rc = flatten(out, n, &cap, v, 0);
    if (rc) {
        free(*out);
        *out = NULL;
        snprintf(err, SP_ERR_LEN, rc == -2 ? "input signal %.100s: out of memory"
                                           : "input signal %.100s: arrays nested too deeply", signal);
        return rc == -2 ? SP_ERR_NOMEM : SP_ERR_BAD_ENCODING;
    }
    return SP_OK;
}

void sp_cv_to_decimal(char *out, const uint32_t *w, unsigned n32)
{
    uint32_t t[SP_CV_MAX_N32];
    char rev[SP_CV_MAX_N32 * 10 + 2];
    size_t k = 0;
    memcpy(t, w, 4 * n32);
    for (;;) {
        uint64_t rem = 0;
        int zero = 1;
        for (unsigned j = n32; j-- > 0;) {
            uint64_t cur = rem << 32 | t[j];
            t[j] = (uint32_t)(cur / 1000000000u);
            rem = cur % 1000000000u;
            zero &= !t[j];
        }
        for (int d = 0; d < 9 && (!zero || rem); d++) {
            rev[k++] = (char)('0' + rem % 10);
            rem /= 10;
        }
        if (zero)
            break;
    }
    if (!k)
        rev[k++] = '0';
    for (size_t i = 0; i < k; i++)
        out[i] = rev[k - 1 - i];
    out[k] = 0;
}
