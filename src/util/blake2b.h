/*
 * BLAKE2b (RFC 7693), unkeyed, plain C: the hash snarkjs uses for a
 * .zkey's circuit hash (csHash, 64 bytes) and its ceremony transcripts,
 * so that a key made here carries the hash snarkjs would compute.
 */
#ifndef SP_UTIL_BLAKE2B_H
#define SP_UTIL_BLAKE2B_H

#include <stddef.h>
#include <stdint.h>

#define SP_BLAKE2B_MAX_BYTES 64
#define SP_BLAKE2B_BLOCK 128

typedef struct {
    uint64_t h[8];
    uint64_t t[2];    /* bytes compressed so far, 128-bit counter */
    uint8_t buf[128]; /* the last block is kept until final: it gets the final flag */
    size_t fill;
    size_t out_len;
} sp_blake2b_ctx;

/* On input: 1 <= out_len <= 64 (the digest size, part of the parameters). */
void sp_blake2b_init(sp_blake2b_ctx *c, size_t out_len);
void sp_blake2b_update(sp_blake2b_ctx *c, const void *data, size_t len);
/* Writes c->out_len bytes; c must be initialised again before further use. */
void sp_blake2b_final(uint8_t *out, sp_blake2b_ctx *c);
/* out = BLAKE2b-(8 out_len)(data[0..len)). */
void sp_blake2b(uint8_t *out, size_t out_len, const void *data, size_t len);

#endif
