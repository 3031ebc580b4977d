/* The bounded byte reader (reader.h): LEB128 integers as the binary
 * format writes them, every read checked against the end. */
#include <stdarg.h>
#include <stdio.h>
#include "wasm/reader.h"

int sp_wasm_rd_fail(sp_wasm_rd *r, sp_status st, const char *fmt, ...)
{
    if (r->st != SP_OK)
        return 0;
    char msg[SP_ERR_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(r->err, SP_ERR_LEN, "wasm: byte %zu: %.200s", (size_t)(r->p - r->base), msg);
    r->st = st;
    r->p = r->end; /* every later read fails */
    return 0;
}

int sp_wasm_rd_u8(sp_wasm_rd *r, uint8_t *v)
{
    *v = 0;
    if (r->p >= r->end)
        return sp_wasm_rd_fail(r, SP_ERR_FORMAT, "unexpected end");
    *v = *r->p++;
    return 1;
}

/* Unsigned or signed LEB128 of at most `bits` bits. */
static int leb(sp_wasm_rd *r, uint64_t *v, unsigned bits, int sign)
{
    uint64_t x = 0;
    unsigned shift = 0;
    uint8_t b = 0;
    unsigned max_bytes = (bits + 6) / 7;
    for (unsigned i = 0;; i++) {
        if (i >= max_bytes)
            return sp_wasm_rd_fail(r, SP_ERR_FORMAT, "integer too long");
        if (!sp_wasm_rd_u8(r, &b))
            return 0;
        x |= (uint64_t)(b & 0x7f) << shift;
        shift += 7;
        if (!(b & 0x80))
            break;
    }
    /* the unused bits of the last byte must be zero (or the sign) */
    if (shift > bits) {
        unsigned used = bits - (shift - 7);
        uint8_t extra = (uint8_t)((b & 0x7f) >> used);
        uint8_t want = sign && (b & (1u << (used - 1))) ? (uint8_t)(0x7f >> used) : 0;
        if (extra != want)
            return sp_wasm_rd_fail(r, SP_ERR_FORMAT, "integer out of range");
    }
    if (sign && shift < 64 && (b & 0x40))
        x |= ~(uint64_t)0 << shift;
    if (bits < 64 && !sign)
        x &= ((uint64_t)1 << bits) - 1;
    *v = x;
    return 1;
}

int sp_wasm_rd_u32(sp_wasm_rd *r, uint32_t *v)
{
    uint64_t x;
    if (!leb(r, &x, 32, 0))
        return 0;
    *v = (uint32_t)x;
    return 1;
}

int sp_wasm_rd_s32(sp_wasm_rd *r, int32_t *v)
{
    uint64_t x;
    if (!leb(r, &x, 32, 1))
        return 0;
    *v = (int32_t)(uint32_t)x;
    return 1;
}

int sp_wasm_rd_s33(sp_wasm_rd *r, int64_t *v)
{
    uint64_t x;
    if (!leb(r, &x, 33, 1))
        return 0;
    *v = (int64_t)x;
    return 1;
}

int sp_wasm_rd_s64(sp_wasm_rd *r, int64_t *v)
{
    uint64_t x;
    if (!leb(r, &x, 64, 1))
        return 0;
    *v = (int64_t)x;
    return 1;
}

/* A vector count that cannot exceed what is left (each item >= min_item bytes). */
