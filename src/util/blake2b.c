/* BLAKE2b (blake2b.h), written from RFC 7693 sections 2 and 3. */
#include <string.h>
#include "util/blake2b.h"

static const uint64_t IV[8] = {
    0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
    0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL, 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL,
};

/* The message word permutations of the 12 rounds (rounds 10 and 11 repeat 0 and 1). */
static const uint8_t SIGMA[12][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4}, {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13}, {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11}, {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5}, {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
};

static uint64_t rotr(uint64_t x, int n) { return x >> n | x << (64 - n); }

static uint64_t load64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

#define G(a, b, c, d, x, y)                                                                                     \
    do {                                                                                                        \
        v[a] = v[a] + v[b] + (x);                                                                               \
        v[d] = rotr(v[d] ^ v[a], 32);                                                                           \
        v[c] = v[c] + v[d];                                                                                     \
        v[b] = rotr(v[b] ^ v[c], 24);                                                                           \
        v[a] = v[a] + v[b] + (y);                                                                               \
        v[d] = rotr(v[d] ^ v[a], 16);                                                                           \
        v[c] = v[c] + v[d];                                                                                     \
        v[b] = rotr(v[b] ^ v[c], 63);                                                                           \
    } while (0)

static void compress(sp_blake2b_ctx *c, const uint8_t block[128], int last)
{
    uint64_t m[16], v[16];
    for (int i = 0; i < 16; i++)
        m[i] = load64(block + 8 * i);
    for (int i = 0; i < 8; i++) {
        v[i] = c->h[i];
        v[i + 8] = IV[i];
    }
    v[12] ^= c->t[0];
    v[13] ^= c->t[1];
    if (last)
        v[14] = ~v[14];
    for (int r = 0; r < 12; r++) {
        const uint8_t *s = SIGMA[r];
        G(0, 4, 8, 12, m[s[0]], m[s[1]]);
        G(1, 5, 9, 13, m[s[2]], m[s[3]]);
        G(2, 6, 10, 14, m[s[4]], m[s[5]]);
        G(3, 7, 11, 15, m[s[6]], m[s[7]]);
        G(0, 5, 10, 15, m[s[8]], m[s[9]]);
        G(1, 6, 11, 12, m[s[10]], m[s[11]]);
        G(2, 7, 8, 13, m[s[12]], m[s[13]]);
        G(3, 4, 9, 14, m[s[14]], m[s[15]]);
    }
    for (int i = 0; i < 8; i++)
        c->h[i] ^= v[i] ^ v[i + 8];
}

static void count(sp_blake2b_ctx *c, size_t n)
{
    c->t[0] += n;
    if (c->t[0] < n)
        c->t[1]++;
}

void sp_blake2b_init(sp_blake2b_ctx *c, size_t out_len)
{
    memset(c, 0, sizeof *c);
    memcpy(c->h, IV, sizeof IV);
    c->h[0] ^= 0x01010000ULL ^ (uint64_t)out_len; /* depth 1, fanout 1, no key */
    c->out_len = out_len;
}

void sp_blake2b_update(sp_blake2b_ctx *c, const void *data, size_t len)
{
    const uint8_t *p = data;
    while (len > 0) {
        if (c->fill == 128) { /* more input follows: this block is not the last */
            count(c, 128);
            compress(c, c->buf, 0);
            c->fill = 0;
        }
        size_t k = 128 - c->fill < len ? 128 - c->fill : len;
        memcpy(c->buf + c->fill, p, k);
        c->fill += k;
        p += k;
        len -= k;
    }
}

void sp_blake2b_final(uint8_t *out, sp_blake2b_ctx *c)
{
    count(c, c->fill);
    memset(c->buf + c->fill, 0, 128 - c->fill);
    compress(c, c->buf, 1);
    for (size_t i = 0; i < c->out_len; i++)
        out[i] = (uint8_t)(c->h[i / 8] >> (8 * (i % 8)));
    memset(c, 0, sizeof *c);
}

void sp_blake2b(uint8_t *out, size_t out_len, const void *data, size_t len)
{
    sp_blake2b_ctx c;
    sp_blake2b_init(&c, out_len);
    sp_blake2b_update(&c, data, len);
    sp_blake2b_final(out, &c);
}
