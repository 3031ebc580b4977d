#include <string.h>
#include "util/cpu_switch.h"
#include "util/sha256.h"

const uint32_t SP_SHA256_IV[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                  0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

const uint32_t SP_SHA256_K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

static inline uint32_t rotr(uint32_t x, unsigned n) { return (x >> n) | (x << (32 - n)); }

void sp_sha256_compress_words(uint32_t h[8], const uint32_t in[16])
{
    uint32_t w[64];
    memcpy(w, in, 16 * sizeof *w);
    for (int t = 16; t < 64; t++) {
        uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
        uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
        w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int t = 0; t < 64; t++) {
        uint32_t t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + SP_SHA256_K[t] + w[t];
        uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        hh = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
}

static void compress_portable(uint32_t h[8], const uint8_t *p, size_t n_blocks)
{
    for (; n_blocks; n_blocks--, p += 64) {
        uint32_t w[16];
        for (int i = 0; i < 16; i++)
            w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
        sp_sha256_compress_words(h, w);
    }
}

/* ---- the x86-64 SHA extensions (SHA-NI), chosen at run time ---- */

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>

static int cpu_has_shani(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !((c >> 19) & 1) || !((c >> 9) & 1)) /* SSE4.1, SSSE3 */
        return 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
        return 0;
    return (b >> 29) & 1; /* SHA */
}

/*
 * The SHA instructions keep the eight working variables in two registers,
 * ABEF and CDGH (A in the top lane). sha256rnds2 runs two rounds on
 * W[t] + K[t] for the two low lanes of its third operand and returns the
 * new ABEF; the old ABEF is then the new CDGH, so four rounds are two
 * calls with the operands swapped. sha256msg1/msg2 with the W[t-7] term
 * added between them extend the message schedule four words at a time.
 */
__attribute__((target("sha,sse4.1,ssse3"))) static void compress_shani(uint32_t h[8], const uint8_t *p,
                                                                        size_t n_blocks)
{
    const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
    __m128i abcd = _mm_loadu_si128((const __m128i *)&h[0]); /* lanes 0..3: A B C D */
    __m128i efgh = _mm_loadu_si128((const __m128i *)&h[4]); /* E F G H */
    __m128i badc = _mm_shuffle_epi32(abcd, 0xb1);           /* B A D C */
    __m128i hgfe = _mm_shuffle_epi32(efgh, 0x1b);           /* H G F E */
    __m128i abef = _mm_alignr_epi8(badc, hgfe, 8);          /* F E B A: ABEF from the top */
    __m128i cdgh = _mm_blend_epi16(hgfe, badc, 0xf0);       /* H G D C: CDGH from the top */
    for (; n_blocks; n_blocks--, p += 64) {
        __m128i w[16], abef0 = abef, cdgh0 = cdgh;
        for (int i = 0; i < 4; i++)
            w[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * i)), bswap);
#pragma GCC unroll 12
        for (int i = 4; i < 16; i++) {
            __m128i t = _mm_sha256msg1_epu32(w[i - 4], w[i - 3]);
            t = _mm_add_epi32(t, _mm_alignr_epi8(w[i - 1], w[i - 2], 4)); /* + W[t-7..t-4] */
            w[i] = _mm_sha256msg2_epu32(t, w[i - 1]);
        }
#pragma GCC unroll 16
        for (int i = 0; i < 16; i++) {
            __m128i wk = _mm_add_epi32(w[i], _mm_loadu_si128((const __m128i *)&SP_SHA256_K[4 * i]));
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);
            abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk, 0x0e));
        }
        abef = _mm_add_epi32(abef, abef0);
        cdgh = _mm_add_epi32(cdgh, cdgh0);
    }
    __m128i feba = _mm_shuffle_epi32(abef, 0x1b); /* lanes: A B E F */
    __m128i dchg = _mm_shuffle_epi32(cdgh, 0xb1); /* lanes: G H C D */
    _mm_storeu_si128((__m128i *)&h[0], _mm_blend_epi16(feba, dchg, 0xf0));
    _mm_storeu_si128((__m128i *)&h[4], _mm_alignr_epi8(dchg, feba, 8));
}
#else
static int cpu_has_shani(void) { return 0; }
static void compress_shani(uint32_t h[8], const uint8_t *p, size_t n_blocks) { compress_portable(h, p, n_blocks); }
#endif

static sp_cpu_switch hw = SP_CPU_SWITCH(cpu_has_shani);

int sp_sha256_hw_active(void) { return sp_cpu_switch_active(&hw); }

int sp_sha256_use_hw(int on) { return sp_cpu_switch_use(&hw, on); }

static void compress_blocks(uint32_t h[8], const uint8_t *p, size_t n_blocks)
{
    if (sp_sha256_hw_active())
        compress_shani(h, p, n_blocks);
    else
        compress_portable(h, p, n_blocks);
}

void sp_sha256_compress(uint32_t h[8], const uint8_t block[64]) { compress_blocks(h, block, 1); }

void sp_sha256_init(sp_sha256_ctx *c)
{
    memcpy(c->h, SP_SHA256_IV, sizeof c->h);
    c->len = 0;
    c->fill = 0;
}

void sp_sha256_update(sp_sha256_ctx *c, const void *data, size_t len)
{
    const uint8_t *p = data;
    c->len += len;
    if (c->fill) {
        size_t k = 64 - c->fill < len ? 64 - c->fill : len;
        memcpy(c->buf + c->fill, p, k);
        c->fill += k, p += k, len -= k;
        if (c->fill < 64)
            return;
        sp_sha256_compress(c->h, c->buf);
        c->fill = 0;
    }
    if (len >= 64) {
        compress_blocks(c->h, p, len / 64);
        p += len & ~(size_t)63;
        len &= 63;
    }
    memcpy(c->buf, p, len);
    c->fill = len;
}

void sp_sha256_final(uint8_t out[32], sp_sha256_ctx *c)
{
    uint64_t bits = c->len * 8;
    uint8_t pad[72] = {0x80};
    size_t padlen = (c->fill < 56 ? 56 : 120) - c->fill;
    for (int i = 0; i < 8; i++)
        pad[padlen + i] = (uint8_t)(bits >> (56 - 8 * i));
    uint64_t keep = c->len;
    sp_sha256_update(c, pad, padlen + 8);
    c->len = keep;
    for (int i = 0; i < 8; i++) {
        out[4 * i] = (uint8_t)(c->h[i] >> 24);
        out[4 * i + 1] = (uint8_t)(c->h[i] >> 16);
        out[4 * i + 2] = (uint8_t)(c->h[i] >> 8);
        out[4 * i + 3] = (uint8_t)c->h[i];
    }
}

void sp_sha256(uint8_t out[32], const void *data, size_t len)
{
    sp_sha256_ctx c;
    sp_sha256_init(&c);
    sp_sha256_update(&c, data, len);
    sp_sha256_final(out, &c);
}
