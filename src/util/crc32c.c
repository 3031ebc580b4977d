/* CRC-32C (see crc32c.h). */
#include <pthread.h>
#include <string.h>
#include "util/cpu_switch.h"
#include "util/crc32c.h"

#define POLY 0x82F63B78u /* the Castagnoli polynomial, bit-reversed */

/* tab[k][b]: the CRC of byte b followed by k zero bytes ("slicing by 8":
 * eight bytes a step, one lookup per byte). */
static uint32_t tab[8][256];
static pthread_once_t tab_once = PTHREAD_ONCE_INIT;

static void tab_init(void)
{
    for (uint32_t b = 0; b < 256; b++) {
        uint32_t c = b;
        for (int i = 0; i < 8; i++)
            c = c & 1 ? (c >> 1) ^ POLY : c >> 1;
        tab[0][b] = c;
    }
    for (int k = 1; k < 8; k++)
        for (uint32_t b = 0; b < 256; b++)
            tab[k][b] = (tab[k - 1][b] >> 8) ^ tab[0][tab[k - 1][b] & 0xff];
}

/* c: the running register (already inverted). */
static uint32_t crc_portable(uint32_t c, const uint8_t *p, size_t n)
{
    pthread_once(&tab_once, tab_init);
    for (; n >= 8; n -= 8, p += 8) {
        uint32_t lo = c ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
        c = tab[7][lo & 0xff] ^ tab[6][(lo >> 8) & 0xff] ^ tab[5][(lo >> 16) & 0xff] ^ tab[4][lo >> 24] ^
            tab[3][p[4]] ^ tab[2][p[5]] ^ tab[1][p[6]] ^ tab[0][p[7]];
    }
    for (; n; n--, p++)
        c = (c >> 8) ^ tab[0][(c ^ *p) & 0xff];
    return c;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <nmmintrin.h>

static int cpu_has_sse42(void)
{
    unsigned a, b, c, d;
    return __get_cpuid(1, &a, &b, &c, &d) && ((c >> 20) & 1);
}

/* One dependent chain of crc32q: the instruction's latency (3 cycles for
 * 8 bytes) bounds it at ~8 GB/s, enough that reading the entry, not its
 * checksum, is what a load waits for. */
__attribute__((target("sse4.2"))) static uint32_t crc_hw(uint32_t c, const uint8_t *p, size_t n)
{
    for (; n && ((uintptr_t)p & 7); n--, p++)
        c = _mm_crc32_u8(c, *p);
    uint64_t c64 = c;
    for (; n >= 8; n -= 8, p += 8) {
        uint64_t v;
        memcpy(&v, p, 8); /* little-endian: the byte order the reflected CRC consumes */
        c64 = _mm_crc32_u64(c64, v);
    }
    c = (uint32_t)c64;
    for (; n; n--, p++)
        c = _mm_crc32_u8(c, *p);
    return c;
}
#else
static int cpu_has_sse42(void) { return 0; }
static uint32_t crc_hw(uint32_t c, const uint8_t *p, size_t n) { return crc_portable(c, p, n); }
#endif

static sp_cpu_switch hw = SP_CPU_SWITCH(cpu_has_sse42);

int sp_crc32c_hw_active(void) { return sp_cpu_switch_active(&hw); }

int sp_crc32c_use_hw(int on) { return sp_cpu_switch_use(&hw, on); }

uint32_t sp_crc32c(uint32_t crc, const void *data, size_t len)
{
    const uint8_t *p = data;
    uint32_t c = ~crc;
    c = sp_crc32c_hw_active() ? crc_hw(c, p, len) : crc_portable(c, p, len);
    return ~c;
}

/* ---- joining checksums ---- */

/*
 * A CRC is the message as a polynomial over GF(2) times x^32 mod P (plus
 * terms from the initial value and final xor that cancel below). a then b
 * is a * x^(8 len_b) + b, so crc(a b) = crc(a) * x^(8 len_b) + crc(b) mod P:
 * the ~0 terms of the two sides cancel exactly as they are added. In the
 * reflected form a 32-bit word's top bit is the coefficient of x^0.
 */
static uint32_t mul_mod_p(uint32_t a, uint32_t b)
{
    uint32_t p = 0;
    for (uint32_t m = 1u << 31; m; m >>= 1) {
        if (a & m)
            p ^= b;
        b = b & 1 ? (b >> 1) ^ POLY : b >> 1; /* b * x */
    }
    return p;
}

uint32_t sp_crc32c_combine(uint32_t crc_a, uint32_t crc_b, uint64_t len_b)
{
    uint32_t r = 1u << 31, sq = 1u << 23; /* x^0, and x^8 (one byte) */
    for (; len_b; len_b >>= 1) {          /* r = x^(8 len_b), by squaring */
        if (len_b & 1)
            r = mul_mod_p(r, sq);
        sq = mul_mod_p(sq, sq);
    }
    return mul_mod_p(r, crc_a) ^ crc_b;
}
