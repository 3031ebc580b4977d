/*
 * SHA-256 (FIPS 180-4), plain C: the reference the SHA-256 circuit gadget
 * is tested against, native hashing for witness generation (PoRep-like
 * labels and tree_d), and file digests.
 */
#ifndef SP_UTIL_SHA256_H
#define SP_UTIL_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SP_SHA256_BYTES 32
#define SP_SHA256_BLOCK 64

typedef struct {
    uint32_t h[8];
    uint64_t len;        /* bytes absorbed */
    uint8_t buf[64];
    size_t fill;
} sp_sha256_ctx;

/* The initial hash value H(0) of FIPS 180-4 section 5.3.3. */
extern const uint32_t SP_SHA256_IV[8];
/* The round constants K of section 4.2.2. */
extern const uint32_t SP_SHA256_K[64];

/* One compression: state h (8 words) absorbs one 64-byte block. */
void sp_sha256_compress(uint32_t h[8], const uint8_t block[64]);
/* As sp_sha256_compress on a block given as 16 big-endian words. */
void sp_sha256_compress_words(uint32_t h[8], const uint32_t w[16]);

void sp_sha256_init(sp_sha256_ctx *c);
void sp_sha256_update(sp_sha256_ctx *c, const void *data, size_t len);
/* Pads (section 5.1.1) and writes the digest; c must be re-initialised
 * before further use. */
void sp_sha256_final(uint8_t out[32], sp_sha256_ctx *c);
/* out = SHA-256(data[0..len)). */
void sp_sha256(uint8_t out[32], const void *data, size_t len);

#endif
